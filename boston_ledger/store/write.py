"""Writing the ledger: every write is a new row (history is append-only). The callers hold the
transaction (`db.writing`)."""

from __future__ import annotations

import json
import sqlite3
import uuid
from decimal import Decimal
from typing import TYPE_CHECKING

from ..core.engine import Deal, Outcome, State
from ..core.tariff import Tariff
from .db import now
from ..core.fields import STORED
from .records import Session, entry_of

if TYPE_CHECKING:  # a deal needs no settlement: its module stays unloaded until one is read or made
    from ..core.settlement import Settled


def create_session(conn: sqlite3.Connection, players: list[str], tariff: Tariff,
                   chip_value: Decimal, currency: str, name: str | None = None,
                   agreed_deals: int | None = None, demo: bool = False) -> int:
    """A new session with its players in seat order and an identity of its own (kept wherever it is
    imported), made current (`demo`: the demonstration's)."""
    session_id = _row_id(conn.execute(
        "INSERT INTO sessions (name, created_at, tariff_name, tariff_text, tariff_hash, chip_value, currency,"
        " agreed_deals, demo) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (name, now(), tariff.name, tariff.text, tariff.digest, str(chip_value), currency, agreed_deals, int(demo)),
    ))
    conn.executemany(
        "INSERT INTO players (session_id, seat, name) VALUES (?, ?, ?)",
        [(session_id, seat, player) for seat, player in enumerate(players)],
    )
    conn.execute("INSERT INTO evening_ids (session_id, identity) VALUES (?, ?)", (session_id, uuid.uuid4().hex))
    set_current(conn, session_id)
    return session_id


def set_current(conn: sqlite3.Connection, session_id: int) -> None:
    conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES ('current_session', ?)", (str(session_id),))


def record_extension(conn: sqlite3.Connection, session: Session, deals: int, after_deal: int) -> None:
    """`deals` more deals agreed for the session, when it had `after_deal` deals."""
    conn.execute("INSERT INTO extensions (session_id, deals, after_deal, extended_at) VALUES (?, ?, ?, ?)",
                 (session.id, deals, after_deal, now()))


def record_deal(conn: sqlite3.Connection, session: Session, number: int, deal: Deal, outcome: Outcome,
                after: State, correction_id: int | None = None, entered_at: str | None = None) -> int:
    """A deal, its transfers and the balances after it (derived, kept so that the end of a long
    session is read without summing its history; `check` replays them). A correction's
    replayed deals keep the time they were entered."""
    def account(seat: int | None) -> int | None:
        return session.person_id(seat, number, account=True)

    columns = ", ".join(f.name for f in STORED)
    deal_id = _row_id(conn.execute(
        f"INSERT INTO deals (session_id, number, entered_at, correction_id, balances, basket, {columns})"
        f" VALUES (?, ?, ?, ?, ?, ?{', ?' * len(STORED)})",
        (session.id, number, entered_at or now(), correction_id, json.dumps(after.balances), after.basket,
         *entry_of(session, number, deal))))
    conn.executemany(
        "INSERT INTO transfers (deal_id, payer, payee, chips, reason) VALUES (?, ?, ?, ?, ?)",
        [(deal_id, account(t.payer), account(t.payee), t.chips, t.reason) for t in outcome.transfers],
    )
    return deal_id


def add_person(conn: sqlite3.Connection, session: Session, name: str) -> int:
    """A person who joins the evening after it began: a player of the session whose `seat` is his
    place in the order people joined (where he sits is a seating's)."""
    return _row_id(conn.execute("INSERT INTO players (session_id, seat, name) VALUES (?, ?, ?)",
                                (session.id, len(session.people), name)))


def record_seating(conn: sqlite3.Connection, session: Session, from_deal: int, seat: int, sitter: int,
                   account: int) -> int:
    """A change of the table: from deal `from_deal` on, player `sitter` sits in `seat` with
    player `account`'s money."""
    return _row_id(conn.execute(
        "INSERT INTO seatings (session_id, from_deal, seat, sitter, account, made_at) VALUES (?, ?, ?, ?, ?, ?)",
        (session.id, from_deal, seat, sitter, account, now())))


def record_seating_undo(conn: sqlite3.Connection, seating_id: int) -> None:
    conn.execute("INSERT INTO seating_undos (seating_id, undone_at) VALUES (?, ?)", (seating_id, now()))


def record_undo(conn: sqlite3.Connection, deal_id: int) -> None:
    conn.execute("INSERT INTO undos (deal_id, undone_at) VALUES (?, ?)", (deal_id, now()))


def record_correction(conn: sqlite3.Connection, session: Session, number: int, old_deal: int, reason: str,
                      superseded: list[int]) -> int:
    """A correction of deal `number`, superseding the standing deals from it on."""
    cid = _row_id(conn.execute(
        "INSERT INTO corrections (session_id, number, old_deal, reason, corrected_at) VALUES (?, ?, ?, ?, ?)",
        (session.id, number, old_deal, reason, now())))
    conn.executemany("INSERT INTO supersessions (deal_id, correction_id) VALUES (?, ?)",
                     [(deal_id, cid) for deal_id in superseded])
    return cid


def record_reopening(conn: sqlite3.Connection, session: Session) -> None:
    conn.execute("INSERT INTO reopenings (session_id, reopened_at) VALUES (?, ?)", (session.id, now()))


def record_settlement(conn: sqlite3.Connection, session: Session, settled: Settled) -> None:
    conn.execute(
        "INSERT INTO settlements (session_id, settled_at, result) VALUES (?, ?, ?)",
        (session.id, now(), json.dumps(settled.record(), ensure_ascii=False)),
    )


def record_payment(conn: sqlite3.Connection, payer: str, payee: str, cents: int, currency: str) -> int:
    return _row_id(conn.execute("INSERT INTO payments (payer, payee, cents, currency, paid_at) VALUES (?, ?, ?, ?, ?)",
                                (payer, payee, cents, currency, now())))


def record_cancellation(conn: sqlite3.Connection, payment_id: int) -> None:
    """A payment taken back: a new entry pointing at it (the payment itself stays)."""
    conn.execute("INSERT INTO payment_cancellations (payment_id, cancelled_at) VALUES (?, ?)", (payment_id, now()))


def _row_id(cur: sqlite3.Cursor) -> int:
    """The id of the row an INSERT just made (sqlite3 types it optional: None before any insert)."""
    assert cur.lastrowid is not None, "an INSERT gives its row's id"
    return cur.lastrowid
