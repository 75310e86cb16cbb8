"""The ledger's schema and its migrations, applied when a ledger is opened.

History is append-only: triggers refuse updates and deletes of the tables that hold it.
"""

from __future__ import annotations

import json
import sqlite3

from ..core.engine import moves

SCHEMA_VERSION = 4  # PRAGMA user_version after every migration has run

APPEND_ONLY = ("sessions", "players", "deals", "transfers", "undos", "settlements")


def _trigger(table: str, action: str) -> str:
    return (f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table}\n"
            f"BEGIN SELECT RAISE(ABORT, '{table} are append-only: corrections are new entries'); END")


def _append_only(tables: tuple[str, ...]) -> str:
    return "".join(f"\n{_trigger(t, 'UPDATE')};\n{_trigger(t, 'DELETE')};\n" for t in tables)


INITIAL_SCHEMA = """
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    name TEXT,
    created_at TEXT NOT NULL,
    tariff_name TEXT NOT NULL,
    tariff_text TEXT NOT NULL,
    tariff_hash TEXT NOT NULL,
    chip_value TEXT NOT NULL,
    currency TEXT NOT NULL,
    agreed_deals INTEGER CHECK (agreed_deals > 0)
) STRICT;
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    UNIQUE (session_id, seat),
    UNIQUE (session_id, name)
) STRICT;
CREATE TABLE deals (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    number INTEGER NOT NULL,
    contract TEXT NOT NULL,
    rank TEXT,
    declarer INTEGER REFERENCES players(id),
    partner INTEGER REFERENCES players(id),
    tricks INTEGER,
    partner_tricks INTEGER,
    boston INTEGER REFERENCES players(id),
    ace_turned INTEGER NOT NULL DEFAULT 0 CHECK (ace_turned IN (0, 1)),
    carte_blanche INTEGER REFERENCES players(id),
    entered_at TEXT NOT NULL
) STRICT;
CREATE INDEX deals_by_session ON deals (session_id, id);
CREATE TABLE undos (
    deal_id INTEGER PRIMARY KEY REFERENCES deals(id),
    undone_at TEXT NOT NULL
) STRICT;
CREATE TABLE transfers (
    id INTEGER PRIMARY KEY,
    deal_id INTEGER NOT NULL REFERENCES deals(id),
    payer INTEGER REFERENCES players(id),
    payee INTEGER REFERENCES players(id),
    chips INTEGER NOT NULL CHECK (chips > 0),
    reason TEXT NOT NULL,
    CHECK (payer IS NOT NULL OR payee IS NOT NULL)
) STRICT;
CREATE INDEX transfers_by_deal ON transfers (deal_id);
CREATE TABLE settlements (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    settled_at TEXT NOT NULL,
    result TEXT NOT NULL
) STRICT;
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;
""" + _append_only(APPEND_ONLY)


# Corrections of earlier deals, reopened sessions, and money paid between evenings.
CORRECTIONS_SCHEMA = """
CREATE TABLE corrections (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    number INTEGER NOT NULL,
    old_deal INTEGER NOT NULL REFERENCES deals(id),
    reason TEXT NOT NULL,
    corrected_at TEXT NOT NULL
) STRICT;
CREATE TABLE supersessions (
    deal_id INTEGER PRIMARY KEY REFERENCES deals(id),
    correction_id INTEGER NOT NULL REFERENCES corrections(id)
) STRICT;
CREATE TABLE reopenings (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    reopened_at TEXT NOT NULL
) STRICT;
CREATE TABLE payments (
    id INTEGER PRIMARY KEY,
    payer TEXT NOT NULL,
    payee TEXT NOT NULL,
    cents INTEGER NOT NULL CHECK (cents > 0),
    currency TEXT NOT NULL,
    paid_at TEXT NOT NULL
) STRICT;
ALTER TABLE deals ADD COLUMN correction_id INTEGER REFERENCES corrections(id);
ALTER TABLE deals ADD COLUMN balances TEXT;
ALTER TABLE deals ADD COLUMN basket INTEGER;
""" + _append_only(("corrections", "supersessions", "reopenings", "payments"))


# A payment cancelled: the reversing entry (the payment stays on record; `ledger` leaves it out).
CANCELLATIONS_SCHEMA = """
CREATE TABLE payment_cancellations (
    payment_id INTEGER PRIMARY KEY REFERENCES payments(id),
    cancelled_at TEXT NOT NULL
) STRICT;
""" + _append_only(("payment_cancellations",))


def m003_payment_cancellations(db) -> None:
    """Migration 3: `paid --cancel ID` records a cancellation, never an update of the payment."""
    for statement in _statements(CANCELLATIONS_SCHEMA):
        db.execute(statement)
# Misère partout: the tricks each player took in an all-pass played as a misère by everyone,
# a JSON list in seat order (NULL for every other deal).
TRICKS_EACH_SCHEMA = """
ALTER TABLE deals ADD COLUMN tricks_each TEXT CHECK (tricks_each IS NULL OR json_valid(tricks_each));
"""


def _backfill_snapshots(conn: sqlite3.Connection) -> None:
    """Balances after each deal for ledgers of schema 1 (summed from their own transfers)."""
    conn.execute("DROP TRIGGER deals_no_update")
    for (session_id,) in conn.execute("SELECT id FROM sessions").fetchall():
        seats = {pid: seat for pid, seat in conn.execute("SELECT id, seat FROM players WHERE session_id = ?",
                                                         (session_id,))}
        balances, basket = [0] * len(seats), 0
        for (deal_id,) in conn.execute(
                "SELECT id FROM deals d WHERE session_id = ? AND NOT EXISTS (SELECT 1 FROM undos u "
                "WHERE u.deal_id = d.id) ORDER BY id", (session_id,)).fetchall():
            rows = conn.execute("SELECT payer, payee, chips FROM transfers WHERE deal_id = ?", (deal_id,))
            change = moves([(None if a is None else seats[a], None if b is None else seats[b], chips, "")
                            for a, b, chips in rows], len(seats))
            balances = [b + c for b, c in zip(balances, change)]
            basket += change[-1]
            conn.execute("UPDATE deals SET balances = ?, basket = ? WHERE id = ?",
                         (json.dumps(balances), basket, deal_id))
    conn.execute(_trigger("deals", "UPDATE"))


def migrate(conn: sqlite3.Connection) -> None:
    """Apply pending migrations with sqlite-utils (imported only when there are some)."""
    from sqlite_utils import Database, Migrations

    migrations = Migrations("boston_ledger")

    @migrations(name="m001_initial")
    def m001_initial(db: Database) -> None:
        for statement in _statements(INITIAL_SCHEMA):
            db.execute(statement)

    @migrations(name="m002_corrections")
    def m002_corrections(db: Database) -> None:
        for statement in _statements(CORRECTIONS_SCHEMA):
            db.execute(statement)
        _backfill_snapshots(conn)

    migrations(name="m003_payment_cancellations")(m003_payment_cancellations)

    @migrations(name="m004_tricks_each")
    def m004_tricks_each(db: Database) -> None:
        for statement in _statements(TRICKS_EACH_SCHEMA):
            db.execute(statement)

    migrations.apply(Database(conn))
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _statements(script: str) -> list[str]:
    """Split a schema script into statements, keeping trigger bodies whole."""
    out, buf = [], []
    for line in script.splitlines():
        buf.append(line)
        text = "\n".join(buf).strip()
        if text and sqlite3.complete_statement(text):
            out.append(text)
            buf = []
    return out


