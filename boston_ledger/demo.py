"""A scripted classic evening: RULES.md's worked example and more, deal by deal, then settled."""

from __future__ import annotations

import tempfile
from decimal import Decimal
from pathlib import Path

from rich.console import Console
from rich.text import Text

from . import ledger, render, storage
from .i18n import N_, _, contract_name, rank_name
from .engine import Deal
from .tariff import Tariff, load

PLAYERS = [N_("Anna"), N_("Boris"), N_("Vera"), N_("Gleb")]  # in Russian: Анна, Борис, Вера, Глеб
A, B, V, G = range(4)

# (deal, note): a note makes the demo show the deal's full breakdown.
SCRIPT: list[tuple[Deal, str]] = [
    (Deal("junior", B, G, 5, 4, boston=V), N_("RULES.md worked example 1: stake, a pair makes 9 and "
                                             "takes the basket; Vera held the boston")),
    (Deal("pass"), N_("Worked example 2: the basket was won, so a new stake; all pass: the basket doubles")),
    (Deal("senior", A, None, 6), N_("Worked example 3: Anna buys the senior suit and nobody supports "
                                 "her; 6 alone is one over, senior pays double")),
    (Deal("junior", V, A, 4, 3, boston=G), N_("A pair fails with 7: Vera owed 5 and took 4, so she pays "
                                           "both opponents and makes the labet; Anna took her 3 and "
                                           "neither pays nor receives")),
    (Deal("solo", G, None, 9, boston=B), ""),
    (Deal("misere", B, None, 0), N_("Boris plays a misère and takes no trick: paid by all, no boston")),
    (Deal("junior", A, B, 6, 3, boston=A), ""),
    (Deal("pass"), ""),
    (Deal("grand-misere", V, None, 1), N_("Vera's grand misère fails with one trick: she pays each "
                                       "player, makes the labet and pays the boston")),
    (Deal("senior", G, V, 5, 4), ""),
    (Deal("junior", B, None, 3, boston=G), N_("Boris buys alone and takes 3 of his 5: he pays the three "
                                           "and the basket goes to them")),
    (Deal("nine", A, None, 10, rank="senior", boston=G), ""),
    (Deal("junior", G, A, 7, 6), N_("A slam: the pair takes all 13 tricks and every payment doubles")),
    (Deal("solo", V, None, 6, boston=A), ""),
    (Deal("junior", A, V, 5, 3, boston=B), ""),
    (Deal("senior", B, G, 6, 2, boston=V), ""),
    (Deal("junior", V, B, 5, 5), ""),
    (Deal("pass"), ""),
    (Deal("solo", G, None, 8, rank="senior", boston=G), ""),
    (Deal("junior", A, G, 2, 4, boston=A), N_("Anna takes 2 of her 5 and Gleb 4 of his 3: only Anna pays")),
    (Deal("senior", B, A, 7, 2), ""),
    (Deal("junior", V, None, 7, boston=V), ""),
    (Deal("misere-ouvert", G, None, 0), ""),
    (Deal("junior", A, B, 5, 4, boston=G), ""),
    (Deal("senior", V, G, 3, 3, boston=B), ""),
    (Deal("junior", B, V, 6, 4), ""),
    (Deal("solo", A, None, 8, boston=A), ""),
    (Deal("pass"), ""),
    (Deal("junior", G, B, 5, 3, boston=V), ""),
    (Deal("senior", A, V, 4, 4), ""),
    (Deal("junior", V, G, 8, 2, boston=A), ""),
    (Deal("nine", B, None, 9, boston=B), ""),
    (Deal("junior", B, V, 5, 3, boston=G), N_("The double tours begin (tour 9 of 10): every payment "
                                           "between players doubles; the basket does not")),
    (Deal("misere", G, None, 2), N_("A misère failed in a double tour: payments and boston doubled")),
    (Deal("solo", A, None, 10, rank="senior", boston=A), ""),
    (Deal("junior", V, A, 6, 3, boston=B), ""),
]


def run(console: Console, db: str | None = None) -> None:
    """Play the script into a throw-away ledger (or `db`), showing each deal, then settle."""
    with tempfile.TemporaryDirectory(prefix="boston-ledger-demo-") as tmp:
        path = Path(db).expanduser() if db else Path(tmp) / "demo.db"
        conn = storage.open_db(path, create=True)
        try:
            _play(console, conn, path if db else None)
        finally:
            conn.close()


def _play(console: Console, conn, kept: Path | None) -> None:
    tariff = load("classic")
    players = [_(name) for name in PLAYERS]
    ledger.new_session(conn, players, tariff, Decimal("0.10"), "", _("demo evening"))
    console.print(Text(_("A classic Boston evening: {names} ({first} deals first), tariff {tariff}, one chip = 0.10.",
                         names=", ".join(players), first=players[0], tariff=tariff.name), style="bold"))
    console.print(_("Each line is what one player would type; notable deals show what moved and why.") + "\n")
    for deal, note in SCRIPT:
        session, entered = ledger.enter_deal(conn, deal)
        command = _command(session.players, deal, session.tariff)
        for banner in render.banners(session.tariff, entered.position):
            console.print(banner, style="bold yellow")
        if note:
            console.print()
            console.print(Text(_(note), style="bold"))
            console.print(f"$ {command}", soft_wrap=True)
            console.print(render.deal_table(session, entered.number, entered.position, deal,
                                            entered.outcome, entered.after))
        else:
            balances = "  ".join(f"{n}\u00a0{b}" for n, b in zip(session.players, entered.after.balances))
            console.print(f"$ {command}", soft_wrap=True)
            console.print("    " + _("deal {number}", number=entered.number) + f", {render.where(entered.position)}: "
                          f"{render.result_word(entered.outcome)} · {balances} · "
                          f"{render.basket_word()} {entered.after.basket}")
    session, result, __ = ledger.settle(conn)
    console.print("\n$ boston-ledger settle")
    if result["basket"]:
        console.print(_("The basket's {chips} chips are shared equally.", chips=result["basket"]))
    console.print(render.settlement_heading(session))
    console.print(render.settlement_table(session, result))
    for line in render.payment_lines(session, result):
        console.print(line)
    if kept:
        console.print("\n" + _("The evening is kept in {path}; look at it with `boston-ledger history --db {path}`.",
                              path=kept))
    else:
        console.print("\n" + _("That was a throw-away ledger. Start your own evening with "
                              "`boston-ledger new Anna Boris Vera Gleb --chip-value 0.10`."))


def _command(players: list[str] | tuple[str, ...], deal: Deal, tariff: Tariff) -> str:
    """The command a player would have typed for this deal (contracts and ranks in the output's language)."""
    contract = _("pass") if deal.contract == "pass" else contract_name(tariff, deal.contract)
    words = ["boston-ledger", "deal", contract]
    name = lambda seat: None if seat is None else players[seat]  # noqa: E731
    for flag, value in (("--declarer", name(deal.declarer)), ("--partner", name(deal.partner)),
                        ("--tricks", deal.tricks), ("--partner-tricks", deal.partner_tricks),
                        ("--rank", deal.rank and rank_name(tariff, deal.rank)), ("--boston", name(deal.boston))):
        if value is not None:
            words += [flag, str(value)]
    return " ".join(words)
