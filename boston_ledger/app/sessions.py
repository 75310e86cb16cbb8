"""Evenings: start one, choose the current one, list them, see where one stands, settle and
reopen it."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from ..core import engine
from ..core.engine import Position, State
from ..core.errors import LedgerError
from ..core.i18n import _
from ..core.tariff import Tariff
from ..store import read, write
from ..store.db import writing
from ..store.records import Session
from .deals import current, standing
from .inputs import table_names

if TYPE_CHECKING:  # `status` needs no settlement: its module is loaded by `settle` and `sessions`
    from ..core.settlement import Settled


def new(conn: sqlite3.Connection, names: list[str], tariff: Tariff, chip_value: Decimal, currency: str,
        name: str | None = None, agreed_deals: int | None = None) -> Session:
    """Start a session and make it current."""
    with writing(conn):
        session_id = write.create_session(conn, table_names(names, tariff), tariff, chip_value, currency, name,
                                          agreed_deals)
    return read.session(conn, session_id)


def use(conn: sqlite3.Connection, session_id: int) -> Session:
    with writing(conn):
        session = read.session(conn, session_id)
        write.set_current(conn, session_id)
    return session


@dataclass(frozen=True)
class Status:
    """Where the current session stands, and the deal that comes next."""

    session: Session
    state: State
    standing: tuple[int, ...]  # the balances, or on points the score sheet
    next: Position  # the next deal's position


def status(conn: sqlite3.Connection) -> Status:
    session = current(conn)
    state = read.state(conn, session)
    return Status(session, state, standing(conn, session), engine.position(session.tariff, state.deals))


@dataclass(frozen=True)
class Listed:
    session: Session
    deals: int
    current: bool
    settled: Settled | None


def listing(conn: sqlite3.Connection) -> list[Listed]:
    """Every session of the ledger, with its deals and settlement."""
    now = read.current_session_id(conn)
    return [Listed(s, read.state(conn, s).deals, s.id == now, read.settlement(conn, s) if s.settled else None)
            for s in read.sessions(conn)]


@dataclass(frozen=True)
class Settling:
    session: Session
    settled: Settled
    fresh: bool  # settled just now (else it was settled before)
    earlier: list[tuple[str, Settled]]  # a reopened session's earlier settlements, on record


def settle(conn: sqlite3.Connection) -> Settling:
    """Settle the current session (once); its earlier settlements when it was reopened."""
    from ..core.settlement import settled

    with writing(conn):
        session = current(conn)
        fresh = not session.settled
        if fresh:
            state = read.state(conn, session)
            result = settled(session.players, state.balances, state.basket, state.deals, session.chip_value,
                             session.currency)
            write.record_settlement(conn, session, result)
    kept = read.settlements(conn, session)
    return Settling(session, kept[-1][1], fresh, kept[:-1])


def reopen(conn: sqlite3.Connection) -> Session:
    """Open a settled session again; its settlement stays on record."""
    with writing(conn):
        session = current(conn)
        if not session.settled:
            raise LedgerError(_("session {id} is not settled; there is nothing to reopen", id=session.id))
        write.record_reopening(conn, session)
    return session
