"""Which evening a command works on, and more deals agreed for one (`extend N`).

A command line names an evening (`--session ID`, else the terminal's BOSTON_LEDGER_SESSION), or
it means the ledger's current session (`use ID`, `new`). Two tables may share one ledger, so a
command that writes takes the current session only when no other evening is open; else it must
be told which (`evening`): it never picks one of several silently. An evening is open from `new`
until it is settled (with deals or without), the demonstration's aside."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..core.engine import State
from ..core.errors import LedgerError
from ..core.i18n import _, ngettext, speak_words
from ..store import StorageError, damage, read, write
from ..store.db import writing
from ..store.records import Evening as Evening  # re-exported: the command line lists evenings through app/
from ..store.records import Session

MOST_DEALS = 100_000  # the most deals an evening may agree on (`new --deals`, `extend`)


class Chosen(int):
    """A session's number as the command line named it, with the environment variable that named
    it (None: `--session`), so that a number naming no session says where it came from."""

    variable: str | None

    def __new__(cls, number: int, variable: str | None = None) -> Chosen:
        chosen = super().__new__(cls, number)
        chosen.variable = variable
        return chosen


def current(conn: sqlite3.Connection, session_id: int | None = None, sound: bool = True) -> Session:
    """The session a command works on: the one the command line chose (--session, or the
    terminal's BOSTON_LEDGER_SESSION), else the ledger's current session (`use ID`). The one place
    that reads it; a command that writes asks `evening` first. A session with a damaged row is
    refused (`sound`; without it, for `check`, which lists them). What follows speaks its game's words."""
    if session_id is None:
        return spoken(_read(conn, read.current_session_id(conn), sound))
    if isinstance(session_id, Chosen) and session_id.variable is not None and not read.has_session(conn, session_id):
        raise LedgerError(_("{var}={id} names no session of this ledger; `unset {var}` plays the ledger's current "
                            "session, `export {var}=N` another (`boston-ledger sessions` lists them)",
                            var=session_id.variable, id=int(session_id)))
    return spoken(_read(conn, int(session_id), sound))


def spoken(session: Session) -> Session:
    """The session a command works on, whose game's words it speaks from now on (core/i18n.py)."""
    speak_words(session.tariff.words)
    return session


def _read(conn: sqlite3.Connection, session_id: int, sound: bool = True) -> Session:
    """The session, once its rows are known to be sound (store.damage): a damaged evening is
    refused in one line that points to `check`, before anything reads it or writes to it."""
    if sound:
        found = damage.scan(conn, first=True, session=session_id)
        if found:
            raise StorageError(_("session {id} is damaged: {first}; nothing was recorded. `boston-ledger check --all` "
                                 "lists what is wrong", id=session_id, first=found[0]))
    return read.session(conn, session_id)


class Undecided(LedgerError):
    """More than one evening could be meant by a command that writes, and its command line names
    none: `evenings`, the open ones and the ledger's current session, for the command line to
    list (`ui.evenings.undecided`)."""

    def __init__(self, evenings: Sequence[Evening]):
        super().__init__("which evening?")
        self.evenings = tuple(evenings)


class Picked(NamedTuple):
    """The evening a command writes to, and the other evenings open meanwhile (when there are any,
    what the command shows names its evening)."""

    session: Session
    others: tuple[int, ...]


Choose = Callable[[Sequence[Evening]], "int | None"]  # a person's choice among evenings: a session's number, or none


def evening(conn: sqlite3.Connection, chosen: int | None = None, choose: Choose | None = None) -> Picked | None:
    """The evening a command that writes works on (deal, undo, edit, settle, reopen, extend, seat,
    serve --entry): the one the command line chose; else the ledger's current session when no other
    evening is open; else the one `choose` picks among the open evenings and the current session
    (None when it picks none: nothing is to be done). Without `choose`, Undecided."""
    opened = read.open_session_ids(conn)
    if chosen is not None:
        session = current(conn, chosen)
    else:
        now = read.current_session_id(conn)
        meant = sorted({*opened, now})
        if len(meant) == 1:
            session = _read(conn, now)
        else:
            candidates = [read.evening(conn, i)._replace(current=i == now) for i in meant]
            if choose is None:
                raise Undecided(candidates)
            picked = choose(candidates)
            if picked is None:
                return None
            if picked not in meant:
                raise LedgerError(_("session {id} is not one of those offered; nothing was done", id=picked))
            session = _read(conn, picked)
    return Picked(spoken(session), tuple(i for i in opened if i != session.id))


def open_evenings(conn: sqlite3.Connection, besides: int | None = None) -> list[Evening]:
    """The open evenings (all, or those besides session `besides`), the earliest first, the
    ledger's current one marked."""
    try:
        now = read.current_session_id(conn)
    except LedgerError:  # no session yet, or the choice of the current one is damaged
        now = None
    return [read.evening(conn, i)._replace(current=i == now) for i in read.open_session_ids(conn) if i != besides]


class Extended(NamedTuple):
    """An evening whose agreed number of deals grew: the session as it stands now (its
    `agreed_deals` the new total), by how many, and where it stood when they were agreed."""

    session: Session
    deals: int
    state: State


def extend(conn: sqlite3.Connection, deals: int, session_id: int | None = None) -> Extended:
    """`deals` more deals agreed for an open evening that has an agreed number (played to its end
    or not); recorded, never changed: a larger number is never made smaller, since an evening
    may be settled before its agreed deals are all played."""
    with writing(conn):
        session = current(conn, session_id)
        if session.settled:
            raise LedgerError(_("session {id} is settled; `boston-ledger reopen` it first to agree more deals",
                                id=session.id))
        if session.agreed_deals is None:
            raise LedgerError(_("session {id} has no agreed number of deals: it lasts until it is settled, so "
                                "there is nothing to extend", id=session.id))
        total = session.agreed_deals + deals
        if total > MOST_DEALS:
            raise LedgerError(ngettext("session {id} would then last {total} deal; at most {most} can be agreed",
                                       "session {id} would then last {total} deals; at most {most} can be agreed",
                                       total, id=session.id, total=total, most=MOST_DEALS))
        state = read.state(conn, session)
        write.record_extension(conn, session, deals, state.deals)
        session = read.session(conn, session.id)
    return Extended(session, deals, state)
