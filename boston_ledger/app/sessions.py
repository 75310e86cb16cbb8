"""Evenings: start one, choose the current one, list them, see where one stands, settle and
reopen it."""

from __future__ import annotations

import sqlite3
from decimal import Decimal
from typing import TYPE_CHECKING, NamedTuple

from ..core import engine
from ..core.engine import Position, State
from ..core.errors import LedgerError
from ..core.i18n import _
from ..core.tariff import Tariff
from ..store import read, write
from ..store.db import reading, writing
from ..store.records import Correction, Extension, Recorded, Session
from .deals import History, current, history, points_standing
from .evenings import spoken
from .inputs import table_names

if TYPE_CHECKING:  # core.settlement is loaded when a settlement is made or read (`settled_at`)
    from ..core.settlement import Settled
    from .money import Since


def new(conn: sqlite3.Connection, names: list[str], tariff: Tariff, chip_value: Decimal, currency: str,
        name: str | None = None, agreed_deals: int | None = None, demo: bool = False) -> Session:
    """Start a session and make it current (`demo`: the demonstration evening)."""
    with writing(conn):
        session_id = write.create_session(conn, table_names(names, tariff), tariff, chip_value, currency, name,
                                          agreed_deals, demo)
    return spoken(read.session(conn, session_id))


def use(conn: sqlite3.Connection, session_id: int) -> Session:
    with writing(conn):
        session = read.session(conn, session_id)
        write.set_current(conn, session_id)
    return spoken(session)


class Status(NamedTuple):
    """Where the current session stands, and the deal that comes next."""

    session: Session
    state: State
    standing: tuple[int, ...]  # the balances, or on points the score sheet
    next: Position  # the next deal's position
    settled: Settled | None = None  # as settling now would record it (as recorded, when settled); None: no deal
    extensions: tuple[Extension, ...] = ()  # more deals agreed (`extend N`), the earliest first

    @property
    def money(self) -> tuple[int, ...] | None:
        """Each seat's money in cents (its account's), as `settled` gives it; None before the first deal."""
        if self.settled is None:
            return None
        cents = dict(zip(self.session.present, self.settled.cents, strict=True))
        return tuple(cents[account] for account in self.state.accounts)

    @property
    def away(self) -> list[tuple[str, int, int | None]]:
        """Those whose money left the table, each with his chips and money in cents (None before
        the first deal), by the order people joined."""
        cents = None if self.settled is None else dict(zip(self.session.present, self.settled.cents, strict=True))
        return [(self.session.people[account], chips, None if cents is None else cents[account])
                for account, chips in self.state.away]


def status(conn: sqlite3.Connection, session_id: int | None = None) -> Status:
    """Where a session stands (default: the one this command line plays), with its settlement as
    settling it now would record it (as it was settled, when it is)."""
    session = current(conn, session_id)
    state = read.state(conn, session)
    held = state.balances if session.tariff.has_basket else points_standing(conn, session)
    return Status(session, state, held, engine.position(session.tariff, state),
                  settled_at(conn, session, state) if state.deals else None, tuple(read.extensions(conn, session)))


class Listed(NamedTuple):
    session: Session
    deals: int
    current: bool
    settled: Settled | None


def listing(conn: sqlite3.Connection, last: int | None = None) -> list[Listed]:
    """The sessions of the ledger (only the `last` few when given), with their deals and settlement
    (none of them current when the ledger's choice of the current one is damaged: this listing
    says what to `use`)."""
    found = read.sessions(conn, last)
    try:
        now = read.current_session_id(conn)
    except LedgerError:
        if not found:
            raise
        now = None
    return [Listed(s, read.state(conn, s).deals, s.id == now, read.settlement(conn, s)) for s in found]


def count(conn: sqlite3.Connection) -> int:
    """How many sessions the ledger holds."""
    return len(read.session_ids(conn))


class Settling(NamedTuple):
    session: Session
    settled: Settled
    fresh: bool  # settled just now (else it was settled before)
    earlier: list[tuple[str, Settled]]  # a reopened session's earlier settlements, on record
    paid: Since | None  # what was paid toward it since it was (first) settled, and what is still owed


def settle(conn: sqlite3.Connection, session_id: int | None = None, deals: int | None = None) -> Settling:
    """Settle the session (once); its earlier settlements when it was reopened. `deals`: the
    number of deals a settlement shown beforehand (`settlement`) was made of; when another
    terminal entered or took back a deal meanwhile, nothing is settled. An evening without deals
    is closed so, with nothing to pay (it is no longer open: `app.evenings`)."""
    with writing(conn):
        session = current(conn, session_id)
        fresh = not session.settled
        if fresh:
            result = settled_at(conn, session, read.state(conn, session), empty=True)
            if deals is not None and result.deals != deals:
                raise LedgerError(_("session {id} changed meanwhile (it has {count} deals now, not {shown}); "
                                    "nothing was settled: settle it again", id=session.id, count=result.deals,
                                    shown=deals))
            write.record_settlement(conn, session, result)
    recorded = read.settlements(conn, session)
    from .money import paid_since  # here: a plain deal needs none of the money

    return Settling(session, recorded[-1][1], fresh, recorded[:-1], paid_since(conn, session, recorded[-1][1]))


def settlement(conn: sqlite3.Connection, session_id: int | None = None,
               empty: bool = False) -> tuple[Session, Settled, Since | None]:
    """The session's settlement: as recorded when it is settled, else what settling it now
    would record (nothing is written; `empty`: of an evening without deals too, nothing to pay);
    and what was paid toward it since it was settled (a reopened session's), with what is still
    owed."""
    from .money import paid_since

    session = current(conn, session_id)
    result = settled_at(conn, session, read.state(conn, session), empty)
    return session, result, paid_since(conn, session, result)


def settled_at(conn: sqlite3.Connection, session: Session, state: State, empty: bool = False) -> Settled:
    """The settlement as recorded when the session is settled, else what settling it at `state`
    would record (`empty`: also when it has no deals)."""
    from ..core.settlement import settled  # here: a plain deal needs none of it

    recorded = read.settlement(conn, session)
    if recorded is not None:
        return recorded
    if not state.deals and not empty:
        raise LedgerError(_("session {id} has no deals yet; there is nothing to settle", id=session.id))
    chips, seated = state.holdings(len(session.people))
    present = session.present
    return settled([session.people[p] for p in present], [chips[p] for p in present], state.basket, state.played,
                   session.chip_value, session.currency, [seated[p] for p in present])


def reopen(conn: sqlite3.Connection, session_id: int | None = None) -> Session:
    """Open a settled session again; its settlement stays on record."""
    with writing(conn):
        session = current(conn, session_id)
        if not session.settled:
            raise LedgerError(_("session {id} is not settled; there is nothing to reopen", id=session.id))
        write.record_reopening(conn, session)
    return session


class Sheet(NamedTuple):
    """An evening as its score sheet shows it at one moment: where it stands, its deals (the last
    few, or all), and the settlement (as recorded, or what settling now would record; None
    before the first deal)."""

    status: Status
    history: History
    settled: Settled | None
    final: bool  # the settlement is recorded (else only what it would be)
    changed: Recorded | Correction | None = None  # the last write, when it took a deal back or corrected one
    changed_dealer: int | None = None  # the seat that dealt the deal `changed` is about
    paid: Since | None = None  # what was paid toward the settlement since, and what is still owed


def sheet(conn: sqlite3.Connection, session_id: int | None = None, last: int | None = None) -> Sheet:
    """A session's sheet read in one transaction, so that its parts agree with each other."""
    from .money import paid_since

    with reading(conn):
        found = status(conn, session_id)
        session = found.session
        shown = history(conn, last, session.id)
        changed = read.last_change(conn, session)
        dealer = None if changed is None else read.dealer_of(conn, session, changed.number)
        if not found.state.deals or found.settled is None:
            return Sheet(found, shown, None, False, changed, dealer)
        return Sheet(found, shown, found.settled, session.settled, changed, dealer,
                     paid_since(conn, session, found.settled))
