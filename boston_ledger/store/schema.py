"""The ledger's schema and its migrations, applied when a ledger is opened.

History is append-only: triggers refuse updates and deletes of the tables that hold it.

Every ledger carries APPLICATION_ID in its header (`PRAGMA application_id`, where file(1) and
other tools look). Ledgers made before the mark existed (application id 0) are recognised by
their exact schema (`identify.py`), and are marked in the same transaction as their migration.
A change of the schema is a new migration, never an edit of a released one.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from typing import Any

from ..core.engine import Transfer, moves
from . import earlier

SCHEMA_VERSION = 11  # PRAGMA user_version after every migration has run
APPLICATION_ID = int.from_bytes(b"BsLg", "big")  # PRAGMA application_id of every ledger
MIGRATION_SET = "boston_ledger"

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


# Misère partout: the tricks each player took in an all-pass played as a misère by everyone,
# a JSON list in seat order (NULL for every other deal).
TRICKS_EACH_SCHEMA = """
ALTER TABLE deals ADD COLUMN tricks_each TEXT CHECK (tricks_each IS NULL OR json_valid(tricks_each));
"""

# The demonstration evening (`boston-ledger demo`) is a session of the ledger like any other, marked
# so that the money and the statistics across evenings leave it out.
DEMO_SCHEMA = """
ALTER TABLE sessions ADD COLUMN demo INTEGER NOT NULL DEFAULT 0 CHECK (demo IN (0, 1));
"""


# A pair's tricks together as the table said them (`deal --team-tricks`), kept as said: NULL for
# every deal entered otherwise, and for every deal entered before.
TEAM_TRICKS_SCHEMA = """
ALTER TABLE deals ADD COLUMN team_tricks INTEGER;
"""


# The trump's honours the declarer held (`deal --honours N`), where a tariff scores them: NULL for every
# deal entered otherwise, and for every deal entered before.
HONOURS_SCHEMA = """
ALTER TABLE deals ADD COLUMN honours INTEGER;
"""


# More deals agreed for an evening (`boston-ledger extend N`): each extension a row, never changed; the
# agreed number of a session is its `agreed_deals` plus its extensions. `after_deal` is how many
# deals the session had when it was agreed (where `history` shows it).
EXTENSIONS_SCHEMA = """
CREATE TABLE extensions (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    deals INTEGER NOT NULL CHECK (deals > 0),
    after_deal INTEGER NOT NULL CHECK (after_deal >= 0),
    extended_at TEXT NOT NULL
) STRICT;
CREATE INDEX extensions_by_session ON extensions (session_id, id);
""" + _append_only(("extensions",))


# Who sits where from a deal on, and whose money each seat plays (`boston-ledger seat`): a change
# of the table, made between deals, holds from deal `from_deal` on. `sitter` plays in `seat`,
# with `account`'s money: the seat's account before it (a substitute), or another (the seat's
# account leaves with its balance and its share of the basket). The first players sit in their
# seats on their own money without a row here; a person who joins later is a player of the
# session too, whose `seat` is then his place in the order people joined (the table's size and
# on), not a seat: where he sits is here. An undone change stays on record (seating_undos).
SEATINGS_SCHEMA = """
CREATE TABLE seatings (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    from_deal INTEGER NOT NULL CHECK (from_deal > 0),
    seat INTEGER NOT NULL CHECK (seat >= 0),
    sitter INTEGER NOT NULL REFERENCES players(id),
    account INTEGER NOT NULL REFERENCES players(id),
    made_at TEXT NOT NULL
) STRICT;
CREATE INDEX seatings_by_session ON seatings (session_id, id);
CREATE TABLE seating_undos (
    seating_id INTEGER PRIMARY KEY REFERENCES seatings(id),
    undone_at TEXT NOT NULL
) STRICT;
""" + _append_only(("seatings", "seating_undos"))


# What two of Foster's Bostons ask of a deal, NULL for every deal of the other games and for every
# deal entered before: `conceded` (1: the adversaries said "I pay" and the hand was not played out,
# American Boston), `turned` (the suit of the card turned, a rank's key: French Boston's belle and
# petite) and `jack` (who held the jack of diamonds, French Boston).
DEAL_FIELDS_SCHEMA = """
ALTER TABLE deals ADD COLUMN conceded INTEGER CHECK (conceded IS NULL OR conceded IN (0, 1));
ALTER TABLE deals ADD COLUMN turned TEXT;
ALTER TABLE deals ADD COLUMN jack INTEGER REFERENCES players(id);
"""


# Evenings brought from another ledger (`boston-ledger import`). Every evening has an identity, given
# when it is made (a random one) and kept wherever it goes, so that the same evening is known in two
# ledgers: `evening_ids`. An import is a row; the evenings and payments it brought, and the spellings it
# joined (`--same`), point at it. An import taken back (`import --undo`) is a row of `import_undos`:
# what it brought stays on record, and every reader leaves it out.
EVENING_IDENTITY_SCHEMA = """
CREATE TABLE evening_ids (
    session_id INTEGER PRIMARY KEY REFERENCES sessions(id),
    identity TEXT NOT NULL CHECK (length(identity) = 32)
) STRICT;
CREATE INDEX evening_ids_by_identity ON evening_ids (identity);
CREATE TABLE imports (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,
    imported_at TEXT NOT NULL
) STRICT;
CREATE TABLE imported_sessions (
    session_id INTEGER PRIMARY KEY REFERENCES sessions(id),
    import_id INTEGER NOT NULL REFERENCES imports(id)
) STRICT;
CREATE INDEX imported_sessions_by_import ON imported_sessions (import_id);
CREATE TABLE imported_payments (
    payment_id INTEGER PRIMARY KEY REFERENCES payments(id),
    import_id INTEGER NOT NULL REFERENCES imports(id)
) STRICT;
CREATE TABLE import_aliases (
    id INTEGER PRIMARY KEY,
    import_id INTEGER NOT NULL REFERENCES imports(id),
    name TEXT NOT NULL,
    same_as TEXT NOT NULL
) STRICT;
CREATE TABLE import_undos (
    import_id INTEGER PRIMARY KEY REFERENCES imports(id),
    undone_at TEXT NOT NULL
) STRICT;
""" + _append_only(("evening_ids", "imports", "imported_sessions", "imported_payments", "import_aliases",
                    "import_undos"))


def kept_identity(conn: sqlite3.Connection, session_id: int) -> str:
    """The identity an evening made before identities existed is given by migration 11: a digest of
    what made it (its number, when, its tariff, its players in seat order), the same in every copy of
    the ledger it was made in, so that two copies migrated apart still know it for one evening."""
    row = conn.execute("SELECT created_at, tariff_hash FROM sessions WHERE id = ?", (session_id,)).fetchone()
    names = [r[0] for r in conn.execute("SELECT name FROM players WHERE session_id = ? ORDER BY seat", (session_id,))]
    made = json.dumps([session_id, row[0], row[1], names], ensure_ascii=False)
    return hashlib.sha256(made.encode("utf-8")).hexdigest()[:32]


def _give_identities(conn: sqlite3.Connection) -> None:
    conn.executemany("INSERT INTO evening_ids (session_id, identity) VALUES (?, ?)",
                     [(i, kept_identity(conn, i)) for (i,) in conn.execute("SELECT id FROM sessions ORDER BY id")])


def _backfill_snapshots(conn: sqlite3.Connection) -> None:
    """Balances after each deal for ledgers of schema 1 (summed from their own transfers; migration
    2 has just made `supersessions`, empty)."""
    conn.execute("DROP TRIGGER deals_no_update")
    keep_balances(conn)
    conn.execute(_trigger("deals", "UPDATE"))


def _steps(first: str | None = None, second: str | None = None) -> list[tuple[str, Callable[[Any], None]]]:
    """The migrations in order, each with its name as recorded in `_sqlite_migrations`, each given
    sqlite-utils' Database; with `first` or `second`, the first or second as an earlier version
    made it (`earlier.FIRST`, `earlier.SECOND`: only to know the schemas those versions left)."""

    def m001_initial(db: Any) -> None:
        _execute(db, INITIAL_SCHEMA if first is None else earlier.FIRST[first])

    def m002_corrections(db: Any) -> None:
        if second is not None:
            _execute(db, earlier.SECOND[second])
            return
        _execute(db, CORRECTIONS_SCHEMA)
        _backfill_snapshots(db.conn)

    def m003_payment_cancellations(db: Any) -> None:
        """`paid --cancel ID` records a cancellation, never an update of the payment."""
        _execute(db, CANCELLATIONS_SCHEMA)

    def m004_tricks_each(db: Any) -> None:
        _execute(db, TRICKS_EACH_SCHEMA)

    def m005_demo(db: Any) -> None:
        _execute(db, DEMO_SCHEMA)

    def m006_team_tricks(db: Any) -> None:
        _execute(db, TEAM_TRICKS_SCHEMA)

    def m007_honours(db: Any) -> None:
        _execute(db, HONOURS_SCHEMA)

    def m008_extensions(db: Any) -> None:
        _execute(db, EXTENSIONS_SCHEMA)

    def m009_seatings(db: Any) -> None:
        _execute(db, SEATINGS_SCHEMA)

    def m010_deal_fields(db: Any) -> None:
        _execute(db, DEAL_FIELDS_SCHEMA)

    def m011_evening_identity(db: Any) -> None:
        _execute(db, EVENING_IDENTITY_SCHEMA)
        _give_identities(db.conn)

    return [("m001_initial", m001_initial), ("m002_corrections", m002_corrections),
            ("m003_payment_cancellations", m003_payment_cancellations), ("m004_tricks_each", m004_tricks_each),
            ("m005_demo", m005_demo), ("m006_team_tricks", m006_team_tricks), ("m007_honours", m007_honours),
            ("m008_extensions", m008_extensions),
            ("m009_seatings", m009_seatings), ("m010_deal_fields", m010_deal_fields),
            ("m011_evening_identity", m011_evening_identity)]


def migrations(conn: sqlite3.Connection, steps: int | None = None, first: str | None = None,
               second: str | None = None) -> tuple[Any, Any]:
    """sqlite-utils' migrations (the first `steps` of ours) and its database over `conn`."""
    from sqlite_utils import Database, Migrations

    found = Migrations(MIGRATION_SET)
    for name, step in _steps(first, second)[:steps]:
        found(name=name)(step)
    return found, Database(conn, execute_plugins=False)


def migration_names() -> list[str]:
    """The migrations' names, in the order they run."""
    return [name for name, __ in _steps()]


def made_by(steps: int) -> sqlite3.Connection:
    """A database in memory as the first `steps` migrations leave it (for the test that freezes
    the schema each one leaves)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    found, db = migrations(conn, steps)
    found.apply(db)
    return conn


# The table in which sqlite-utils records the migrations applied, as its `Migrations` makes it
# (tests/test_trust.py holds these to sqlite-utils'): so that `made_plainly` needs no sqlite-utils.
MIGRATIONS_TABLE = """CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
)"""
MIGRATIONS_INDEX = """CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"
    ON "_sqlite_migrations" ("migration_set", "name")"""


class _Plain:
    """What the migrations ask of sqlite-utils' Database (`execute`, `conn`), over a plain connection."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, statement: str, parameters: Any = ()) -> sqlite3.Cursor:
        return self.conn.execute(statement, parameters)


def made_plainly(steps: int) -> sqlite3.Connection:
    """`made_by(steps)` without loading sqlite-utils (the check at every open must be quick): the
    same migrations run in order in memory, after the record table as sqlite-utils makes it
    (AttributeError when a migration asks sqlite-utils for more than `execute`)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        conn.execute(MIGRATIONS_TABLE)
        conn.execute(MIGRATIONS_INDEX)
        plain = _Plain(conn)
        for __, step in _steps()[:steps]:
            step(plain)
    except BaseException:
        conn.close()
        raise
    return conn


def migrate(conn: sqlite3.Connection) -> None:
    """Bring a ledger in one of the states today's migrations pass through (an earlier version's
    schema is first made one of them: `repair.mend`), or a blank database, to the current schema,
    version and mark.

    Runs inside the caller's transaction (sqlite-utils nests each migration in it as a
    savepoint), so that the schema, `user_version` and `application_id` commit together with
    whatever else the caller writes, or not at all."""
    found, db = migrations(conn)
    found.apply(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")


def keep_balances(conn: sqlite3.Connection) -> None:
    """Balances after each standing deal (neither undone nor superseded by a correction), summed
    from the deals' own transfers, for ledgers whose deals kept none (the deals table has just been
    made again, without its triggers)."""
    for (session_id,) in conn.execute("SELECT id FROM sessions").fetchall():
        seats: dict[int, int] = dict(conn.execute("SELECT id, seat FROM players WHERE session_id = ?", (session_id,)))
        balances, basket = [0] * len(seats), 0
        for (deal_id,) in conn.execute(
                "SELECT id FROM deals d WHERE session_id = ?"
                " AND NOT EXISTS (SELECT 1 FROM undos u WHERE u.deal_id = d.id)"
                " AND NOT EXISTS (SELECT 1 FROM supersessions s WHERE s.deal_id = d.id) ORDER BY id",
                (session_id,)).fetchall():
            rows = conn.execute("SELECT payer, payee, chips FROM transfers WHERE deal_id = ?", (deal_id,))
            change = moves([Transfer(None if a is None else seats[a], None if b is None else seats[b], chips, "")
                            for a, b, chips in rows], len(seats))
            balances = [b + c for b, c in zip(balances, change, strict=False)]  # the basket's, last, left out
            basket += change[-1]
            conn.execute("UPDATE deals SET balances = ?, basket = ? WHERE id = ?",
                         (json.dumps(balances), basket, deal_id))


def _execute(db: Any, script: str) -> None:
    """Run a schema script, statement by statement (sqlite-utils' Database runs one at a time)."""
    for statement in _statements(script):
        db.execute(statement)


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


