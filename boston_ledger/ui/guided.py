"""Guided entry: `deal` with values missing asks for them at a terminal, then shows the
breakdown before it is recorded. Without a terminal nothing is ever asked."""

from __future__ import annotations

import os
import re
import sys
from typing import Callable

from ..app.inputs import name_key, seat_of, whole
from ..core.errors import LedgerError
from ..core.i18n import _, contract_name, rank_name
from ..core.tariff import PASS
from ..store.records import Session
from .text import say, visible


def interactive() -> bool:
    """A person at a terminal (BOSTON_LEDGER_GUIDED=1 forces it, for scripts that feed answers)."""
    forced = os.environ.get("BOSTON_LEDGER_GUIDED")
    if forced is not None:
        return forced == "1"
    return sys.stdin.isatty() and sys.stdout.isatty()


def ask(question: str, parse: Callable[[str], object], default: str | None = None) -> object:
    """Ask until the answer parses; an empty answer takes the default (shown in brackets)."""
    import typer

    while True:
        answer = typer.prompt(visible(question), default=default if default is not None else "",
                              show_default=bool(default))
        try:
            return parse(answer.strip())
        except LedgerError as e:
            say(f"  {e}", err=True)


def confirm(question: str) -> bool:
    """Yes or no, yes by default; y/yes/n/no, and in Russian д/да/н/нет too."""
    def parse(answer: str) -> bool:
        word = answer.casefold()
        if word in ("", "y", "yes", "д", "да"):
            return True
        if word in ("n", "no", "н", "нет"):
            return False
        raise LedgerError(_("answer y or n"))

    return ask(question + " " + _("[Y/n]"), parse)  # type: ignore[return-value]


def choose(session: Session, question: str, optional: bool = False, besides: str | None = None) -> str | None:
    """A player, by number or name (Enter for none when optional), other than `besides`."""
    players = list(session.players)
    menu = "  ".join(f"{i}) {name}" for i, name in enumerate(players, 1))

    def parse(answer: str) -> str | None:
        if not answer and optional:
            return None
        if re.fullmatch("[0-9]{1,9}", answer) and 1 <= int(answer) <= len(players):  # not '²', '①', '５'
            return players[int(answer) - 1]
        keys = [name_key(p) for p in players]
        if name_key(answer) in keys:
            return players[keys.index(name_key(answer))]
        raise LedgerError(_("choose 1 to {count} or a name ({names})", count=len(players), names=", ".join(players)))

    def other(answer: str) -> str | None:
        chosen = parse(answer)
        if chosen is not None and besides is not None and name_key(chosen) == name_key(besides):
            raise LedgerError(_("{name} is the declarer; choose the partner among the others", name=chosen))
        return chosen

    say(menu)
    return ask(question + (_(" (Enter for nobody)") if optional else ""), other)  # type: ignore[return-value]


def fill(session: Session, values: dict) -> dict:
    """The deal's values with what is missing asked for, in the order a table says them."""
    t = session.tariff
    if values["contract"] is None:
        options = ", ".join([*(contract_name(t, k) for k in t.contracts), _("pass")])

        def contract(answer: str) -> str:
            if t.contract_key(answer) is None:
                raise LedgerError(_("the {tariff} tariff has: {choices}", tariff=t.name, choices=options))
            return answer

        values["contract"] = ask(_("Contract ({choices})", choices=options), contract)
    key = t.contract_key(values["contract"])
    if key == PASS and t.basket.all_pass == "misere-partout" and values.get("tricks_each") is None:
        values["tricks_each"] = partout(session)
    if key is None or key == PASS:
        return values
    c = t.contracts[key]
    if values["declarer"] is None:
        values["declarer"] = choose(session, _("Declarer"))
    else:  # typed on the command line: the player it names, or the error at once
        values["declarer"] = session.players[seat_of(session, values["declarer"], "--declarer")]
    if values["partner"] is None and c.with_partner is not None and c.alone is not None \
            and values["partner_tricks"] is None:
        values["partner"] = choose(session, _("Partner"), optional=True, besides=values["declarer"])
    elif values["partner"] is None and c.alone is None:
        values["partner"] = choose(session, _("Partner"), besides=values["declarer"])
    if values["rank"] is None and len(c.ranks) > 1:
        ranks = ", ".join(rank_name(t, r) for r in c.ranks)

        def rank(answer: str) -> str:
            if t.rank_key(answer) is None:
                raise LedgerError(_("choose one of {choices}", choices=ranks))
            return answer

        values["rank"] = ask(_("Rank ({choices})", choices=ranks), rank,
                             default=rank_name(t, c.default_rank) if c.default_rank else None)

    def tricks(answer: str) -> str:  # read as the command line's --tricks is read, so never refused later
        try:
            return str(whole(answer, "--tricks", 0, t.tricks))
        except LedgerError:
            raise LedgerError(_("a whole number from 0 to {high}", high=t.tricks)) from None

    if values["tricks"] is None:
        values["tricks"] = ask(_("Tricks taken by {name}", name=values["declarer"]), tricks)
    if values["partner"] is not None and values["partner_tricks"] is None:
        values["partner_tricks"] = ask(_("Tricks taken by {name}", name=values["partner"]), tricks)
    if values["boston"] is None and t.boston and "holder" in (c.boston_made, c.boston_failed):
        values["boston"] = choose(session, _("Who held the boston"), optional=True)
    return values


def partout(session: Session) -> str:
    """Misère partout: every player's tricks, asked in seat order until they add up to the deal's."""
    t = session.tariff

    def tricks(answer: str) -> int:
        if not answer.isdigit() or not 0 <= int(answer) <= t.tricks:
            raise LedgerError(_("a whole number from 0 to {high}", high=t.tricks))
        return int(answer)

    import typer

    while True:
        taken = [int(ask(_("Tricks taken by {name}", name=name), tricks)) for name in session.players]  # type: ignore[call-overload]
        if sum(taken) == t.tricks:
            return ",".join(map(str, taken))
        typer.echo("  " + _("the tricks add up to {total}, not {tricks}; say them once more", total=sum(taken),
                            tricks=t.tricks), err=True)
