"""Changes of the table: who sits in a seat from the next deal on, and whose money it plays.

A substitute sits in for a player on his money (Foster's laws: "with consent of the other three
players, appoint a substitute"); a player who leaves on his own account takes his balance and his
share of the basket, and whoever takes the seat plays on his own (a newcomer from nothing, one who
left earlier with what he took away). The deal goes round the seats as before. The engine says
what a change does to the chips (`engine.reseat`); the store keeps who sat where from which deal.
"""

from __future__ import annotations

import sqlite3
from typing import NamedTuple

from ..core import engine, invariants
from ..core.engine import Change, State
from ..core.errors import LedgerError
from ..core.i18n import _
from ..store import read, write
from ..store.db import writing
from ..store.records import Seating, Session
from .deals import current
from .inputs import player_key, player_name, seat_of


class Reseated(NamedTuple):
    """A change of the table as recorded: the session after it, the seat, who left it and who
    sits there now, whose money it plays, and what it did to the chips."""

    session: Session
    seating: Seating
    out: int  # the person who sat there before (people of the session by the order they joined)
    before: State
    after: State
    share: int  # the chips the leaving account took from the basket (0 for a substitute)
    left: int | None  # the account that left the table with its chips; None when a substitute sat in
    new: bool  # whether the person who sits in now is new to the evening


def change(conn: sqlite3.Connection, out: str, into: str, own: bool = False,
           session_id: int | None = None) -> Reseated:
    """From the next deal on, `into` sits in the seat of `out` (one of those at the table): on
    the money that seat plays (a substitute), or, with `own`, on his own (the seat's account
    leaves the table with its balance and its share of the basket). `into` is a person of the
    evening who is not at the table (back from earlier), or a new one."""
    with writing(conn):
        session = current(conn, session_id)
        if session.settled:
            raise LedgerError(_("session {id} is settled; `boston-ledger reopen` it first to change the table",
                                id=session.id))
        before = read.state(conn, session)
        seat = seat_of(session, out, None)
        table = session.table()
        sitter, account = table[seat]
        person, new = _incoming(session, into)
        seated = [s for s, (sits, __) in enumerate(table) if sits == person]
        if seated:
            raise LedgerError(_("{name} sits at the table already (seat {seat})", name=session.people[person],
                                seat=seated[0] + 1))
        incoming = person if own else account
        played = [s for s, (__, money) in enumerate(table) if money == incoming and s != seat]
        if played:
            raise LedgerError(_("{name}'s money is played in seat {seat} by {sitter}; `boston-ledger seat {sitter} "
                                "{name}` gives it back its seat", name=session.people[incoming], seat=played[0] + 1,
                                sitter=session.people[table[played[0]][0]]))
        if incoming != account and not session.tariff.has_basket:
            raise LedgerError(_("a points sheet keeps each seat's points to the end: a player leaves only for a "
                                "substitute who plays on those points (drop --own)"))
        person_id = write.add_person(conn, session, player_name(into)) if new else session.people_ids[person]
        write.record_seating(conn, session, before.deals + 1, seat, person_id,
                             person_id if incoming == person else session.people_ids[incoming])
        session = current(conn, session.id)
        after, (share,) = engine.reseated(before, [Change(seat, incoming)])
        stored = read.state(conn, session)
        problems = invariants.zero_sum(session.id, stored)
        if stored != after or problems:
            raise LedgerError(_("internal error, nothing recorded: {problem}", problem=problems[0] if problems else
                                _("stored state {stored} differs from the engine's {expected}", stored=stored,
                                  expected=after)))
    return Reseated(session, session.seatings[-1], sitter, before, after, share,
                    account if incoming != account else None, new)


def _incoming(session: Session, name: str) -> tuple[int, bool]:
    """The person a name given to `seat` means: one of the evening's, by his whole name (ё and е
    alike, any case), or a new one (checked as `new` checks names)."""
    keys = [player_key(p) for p in session.people]
    if player_key(name) in keys:
        return keys.index(player_key(name)), False
    player_name(name)
    return len(session.people), True
