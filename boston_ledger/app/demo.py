"""A scripted classic evening: the rules' worked example and more, deal by deal, then settled."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from decimal import Decimal

from ..core.engine import Deal
from ..core.fields import STORED
from ..core.i18n import N_, _, contract_name, rank_name
from ..core.tariff import Tariff
from ..core.tariff_files import load
from ..core.errors import LedgerError
from ..store import read
from ..store.records import Session
from . import deals, sessions
from .inputs import option
from .deals import Entered

PLAYERS = [N_("Anna"), N_("Boris"), N_("Vera"), N_("Gleb")]  # in Russian: Анна, Борис, Вера, Глеб
A, B, V, G = range(4)

# (deal, note): a note makes the demo show the deal's full breakdown.
SCRIPT: list[tuple[Deal, str]] = [
    (Deal("junior", B, G, 5, 4, boston=V), N_("Worked example 1 of the rules: stake, a pair makes 9 and "
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
    (Deal("grand-misere", V, None, 1), N_("Vera's grand misère fails with one trick: Vera pays each "
                                       "player, makes the labet and pays the boston")),
    (Deal("senior", G, V, 5, 4), ""),
    (Deal("junior", B, None, 3, boston=G), N_("Boris buys alone and takes 3 of the 5 needed: Boris pays "
                                           "the three, and the basket goes to them")),
    (Deal("nine", A, None, 10, rank="senior", boston=G), ""),
    (Deal("junior", G, A, 7, 6), N_("A slam: the pair takes all 13 tricks and every payment doubles")),
    (Deal("solo", V, None, 6, boston=A), ""),
    (Deal("junior", A, V, 5, 3, boston=B), ""),
    (Deal("senior", B, G, 6, 2, boston=V), ""),
    (Deal("junior", V, B, 5, 5), ""),
    (Deal("pass"), ""),
    (Deal("solo", G, None, 8, rank="senior", boston=G), ""),
    (Deal("junior", A, G, 2, 4, boston=A), N_("Anna owes 5 and takes 2, Gleb owes 3 and takes 4: only Anna pays")),
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


def start(conn: sqlite3.Connection) -> tuple[Session, int | None]:
    """The demo's session, started in the ledger `conn`, and the session that was current before
    it (None in a new ledger), which `finish` makes current again."""
    try:
        before: int | None = read.current_session_id(conn)
    except LedgerError:  # a new ledger: no session yet
        before = None
    players = [_(name) for name in PLAYERS]
    return sessions.new(conn, players, load("classic"), Decimal("0.10"), "", N_("demo evening"), demo=True), before


def play(conn: sqlite3.Connection, session: Session) -> Iterator[tuple[Entered, str]]:
    """Play the script into the demo's session: each deal as entered, with its note."""
    for deal, note in SCRIPT:
        yield deals.enter(conn, deal, session.id), note


def finish(conn: sqlite3.Connection, session: Session, before: int | None) -> sessions.Settling:
    """Settle the demo's session, and make the session that was current before it current again:
    the demo stays in the ledger to be looked at, and the evening you play stays yours."""
    settled = sessions.settle(conn, session.id)
    if before is not None:
        sessions.use(conn, before)
    return settled


def command_line(players: tuple[str, ...], deal: Deal, tariff: Tariff) -> str:
    """The command a player would have typed for this deal (contracts and ranks in the output's language)."""
    contract = _("pass") if deal.contract == "pass" else contract_name(tariff, deal.contract).replace(" ", "-")
    words = ["boston-ledger", "deal", contract]
    for f in STORED:
        value = getattr(deal, f.name)
        if f.kind == "contract" or value is None or value is False:
            continue
        words.append(option(f.name))
        if f.kind == "player":
            words.append(players[value])
        elif f.kind == "rank":
            words.append(rank_name(tariff, value))
        elif f.kind == "tricks-each":
            words.append(",".join(map(str, value)))
        elif f.kind != "flag":
            words.append(str(value))
    return " ".join(words)
