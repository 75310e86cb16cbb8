"""Evenings as a table tells them apart when more than one is open: in a line, in the refusal of a
command that writes without knowing which, in the question a terminal asks instead, and in the
note of a view that shows one of them."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..core.errors import LedgerError
from ..core.i18n import _, ngettext
from ..store.records import Evening, Session
from .deals import session_label
from .text import local_time


def told(evening: Evening) -> str:
    """'session 2 “Friday” (Anna, Boris, Vera, Gleb; 12 deals, the last at 2026-12-05 21:40; current)'."""
    played = ngettext("{n} deal, entered at {when}", "{n} deals, the last at {when}", evening.deals,
                      when=local_time(evening.last_at)) if evening.deals and evening.last_at else _("no deal yet")
    marks = [", ".join(evening.players), played]
    marks += [_("settled")] if evening.settled else []
    marks += [_("the ledger's current session")] if evening.current else []
    return f"{session_label(evening)} ({'; '.join(marks)})"


def undecided(evenings: Sequence[Evening], variable: str) -> str:
    """Why a command that writes, with no terminal to ask, does nothing: the evenings it could mean
    and how to say which."""
    return _("this command names no evening, and more than one could be meant: {evenings}. Say which with "
             "`--session N`, or `export {var}=N` in this table's terminal; nothing was done",
             evenings=", ".join(map(told, evenings)), var=variable)


def choose(evenings: Sequence[Evening], variable: str) -> int | None:
    """At a terminal, the evening a command that writes is for, asked by number: the session's
    number, or None (Enter, or "cancel": nothing is done)."""
    from ..app.entry import is_cancel
    from . import guided
    from .text import say

    numbers = [e.id for e in evenings]
    choices = ", ".join(map(str, numbers))
    say(_("More than one evening could be meant:"))
    for e in evenings:
        say(f"  {e.id}) {told(e)}")

    def parse(answer: str) -> int | None:
        if not answer or is_cancel(answer):
            return None
        found = re.fullmatch(r"[0-9]{1,9}", answer.strip())
        if found is None or int(answer) not in numbers:
            raise LedgerError(_("answer {choices}, or press Enter to do nothing", choices=choices))
        return int(answer)

    picked = guided.ask(_("Which session is this for ({choices}; Enter does nothing)?", choices=choices), parse)
    if picked is not None:
        guided.tell(_("`export {var}={id}` in this table's terminal, and its commands go to session {id} without "
                      "asking.", var=variable, id=picked))
    return picked


def beside(session: Session, others: Sequence[Evening]) -> str:
    """The note of a view of one evening while others are open: which it shows, which others are."""
    return _("This is {session}; also open: {others} (`--session N` shows another).", session=session_label(session),
             others=", ".join(map(told, others)))


def is_open(evening: Evening) -> str:
    """'session 1 (Anna, Boris, Vera, Gleb) is open: 3 deals played and not settled'."""
    names = ", ".join(evening.players)
    if not evening.deals:
        return _("session {id} ({names}) is open: no deal played yet", id=evening.id, names=names)
    return ngettext("session {id} ({names}) is open: {n} deal played and not settled",
                    "session {id} ({names}) is open: {n} deals played and not settled", evening.deals,
                    id=evening.id, names=names)
