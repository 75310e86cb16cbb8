"""The ledger's schema and its migrations, applied when a ledger is opened, and how a ledger is
told from any other SQLite file.

History is append-only: triggers refuse updates and deletes of the tables that hold it.

Every ledger carries APPLICATION_ID in its header (`PRAGMA application_id`, where file(1) and
other tools look). Ledgers made before the mark existed (application id 0) are recognised by
their exact schema, one of the states the migrations below pass through, and are marked in the
same transaction as their migration.
"""

from __future__ import annotations

import json
import re
import sqlite3
from functools import cache
from typing import Any, Callable, NamedTuple

from ..core.engine import moves
from ..core.i18n import _
from . import earlier

SCHEMA_VERSION = 7  # PRAGMA user_version after every migration has run
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


def m003_payment_cancellations(db) -> None:
    """Migration 3: `paid --cancel ID` records a cancellation, never an update of the payment."""
    _execute(db, CANCELLATIONS_SCHEMA)


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


def _backfill_snapshots(conn: sqlite3.Connection) -> None:
    """Balances after each deal for ledgers of schema 1 (summed from their own transfers; migration
    2 has just made `supersessions`, empty)."""
    conn.execute("DROP TRIGGER deals_no_update")
    _keep_balances(conn)
    conn.execute(_trigger("deals", "UPDATE"))


def _steps(conn: sqlite3.Connection, first: str | None = None,
           second: str | None = None) -> list[tuple[str, Callable[[Any], None]]]:
    """The migrations in order, each with its name as recorded in `_sqlite_migrations`; with
    `first` or `second`, the first or second as an earlier version made it (`earlier.FIRST`,
    `earlier.SECOND`: only to know the schemas those versions left)."""

    def m001_initial(db: Any) -> None:
        _execute(db, INITIAL_SCHEMA if first is None else earlier.FIRST[first])

    def m002_corrections(db: Any) -> None:
        if second is not None:
            _execute(db, earlier.SECOND[second])
            return
        _execute(db, CORRECTIONS_SCHEMA)
        _backfill_snapshots(conn)

    def m004_tricks_each(db: Any) -> None:
        _execute(db, TRICKS_EACH_SCHEMA)

    def m005_demo(db: Any) -> None:
        _execute(db, DEMO_SCHEMA)

    def m006_team_tricks(db: Any) -> None:
        _execute(db, TEAM_TRICKS_SCHEMA)

    def m007_honours(db: Any) -> None:
        _execute(db, HONOURS_SCHEMA)

    return [("m001_initial", m001_initial), ("m002_corrections", m002_corrections),
            ("m003_payment_cancellations", m003_payment_cancellations), ("m004_tricks_each", m004_tricks_each),
            ("m005_demo", m005_demo), ("m006_team_tricks", m006_team_tricks), ("m007_honours", m007_honours)]


def _migrations(conn: sqlite3.Connection, steps: int | None = None, first: str | None = None,
                second: str | None = None) -> tuple[Any, Any]:
    """sqlite-utils' migrations (the first `steps` of ours) and its database over `conn`."""
    from sqlite_utils import Database, Migrations

    migrations = Migrations(MIGRATION_SET)
    for name, step in _steps(conn, first, second)[:steps]:
        migrations(name=name)(step)
    return migrations, Database(conn, execute_plugins=False)


def migration_names() -> list[str]:
    """The migrations' names, in the order they run."""
    conn = sqlite3.connect(":memory:")
    try:
        return [name for name, __ in _steps(conn)]
    finally:
        conn.close()


def made_by(steps: int) -> sqlite3.Connection:
    """A database in memory as the first `steps` migrations leave it (for the test that freezes
    the schema each one leaves)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrations, db = _migrations(conn, steps)
    migrations.apply(db)
    return conn


def migrate(conn: sqlite3.Connection) -> None:
    """Bring a ledger of ours, or a blank database, to the current schema, version and mark.

    Runs inside the caller's transaction (sqlite-utils nests each migration in it as a
    savepoint), so that the schema, `user_version` and `application_id` commit together with
    whatever else the caller writes, or not at all."""
    migrations, db = _migrations(conn)
    # sqlite-utils made its table and then its index in two transactions: between them, a ledger
    # of an earlier version that was cut short has the (empty) table alone; start it again
    if ("_sqlite_migrations" in _objects(conn)
            and "idx__sqlite_migrations_migration_set_name" not in _objects(conn)):
        conn.execute('DROP TABLE "_sqlite_migrations"')
    found = _earlier(conn)
    if found is not None:  # a schema an earlier version left: first made what today's migrations made
        _repair(conn, found.target, found.first_rank)
    migrations.apply(db)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")


# ---- telling a ledger from another SQLite file ----------------------------------------------------


class Kind(NamedTuple):
    """What an SQLite database is to boston-ledger."""

    what: str  # "ours", "newer", "old" (ours, unmarked), "blank" (nothing in it) or "foreign"
    version: int  # its user_version


def recognise(conn: sqlite3.Connection) -> Kind:
    """What the database of `conn` is, read without writing: a ledger marked as ours (of this
    version or an earlier one, or of a newer boston-ledger), an unmarked ledger of an earlier
    version (exactly one of the schemas the migrations pass through), a blank database, or
    anything else. Read in one transaction: a migration that another process commits
    meanwhile is seen whole or not at all."""
    if conn.in_transaction:
        return _recognise(conn)
    conn.execute("BEGIN")
    try:
        return _recognise(conn)
    finally:
        conn.execute("ROLLBACK")


def _recognise(conn: sqlite3.Connection) -> Kind:
    app = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if app == APPLICATION_ID:
        return Kind("newer" if version > SCHEMA_VERSION else "ours", version)
    if app != 0:
        return Kind("foreign", version)
    objects = _objects(conn)
    if not objects:
        return Kind("blank" if version == 0 else "foreign", version)
    for state in _states():
        if objects == state.objects and version in state.versions and _applied(conn, state) == state.applied:
            return Kind("old", version)
    if _earlier(conn, objects) is not None:
        return Kind("old", version)
    return Kind("foreign", version)


class _State(NamedTuple):
    objects: dict[str, tuple[bytes, bytes, bytes]]  # name -> (type, table, SQL as compared)
    versions: frozenset[int]  # the user_version a ledger in this state can have
    applied: tuple[bytes, ...]  # the migrations recorded in it


def _objects(conn: sqlite3.Connection) -> dict[str, tuple[bytes, bytes, bytes]]:
    """The schema's tables, indexes and triggers (not SQLite's own), their SQL with whitespace and
    quotes evened out; read as bytes, so that text which is not UTF-8 is simply different."""
    rows = conn.execute("SELECT CAST(name AS BLOB), CAST(type AS BLOB), CAST(tbl_name AS BLOB), CAST(sql AS BLOB)"
                        " FROM sqlite_master WHERE name NOT LIKE 'sqlite^_%' ESCAPE '^'").fetchall()
    return {name.decode("utf-8", "replace"): (kind, table, _even(sql)) for name, kind, table, sql in rows}


def _even(sql: bytes | None) -> bytes:
    return b" ".join(re.sub(rb'["`\[\]]', b" ", sql or b"").split())


def _applied(conn: sqlite3.Connection, state: _State) -> tuple[bytes, ...]:
    if "_sqlite_migrations" not in state.objects:
        return ()
    return tuple(r[0] for r in conn.execute(
        "SELECT CAST(name AS BLOB) FROM _sqlite_migrations WHERE migration_set = ? ORDER BY rowid", (MIGRATION_SET,)))


@cache
def _states() -> tuple[_State, ...]:
    """The schemas a ledger of ours passes through as the migrations run, made in memory by the
    migrations themselves: sqlite-utils' table, then its index, then each migration."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        states = []
        migrations, db = _migrations(conn, 0)
        migrations.ensure_migrations_table(db)
        both = _objects(conn)
        states.append(_State({k: v for k, v in both.items() if v[0] == b"table"}, frozenset({0}), ()))
        states.append(_State(both, frozenset({0}), ()))
        names = [name.encode() for name, __ in _steps(conn)]
        for steps in range(1, len(names) + 1):
            migrations, db = _migrations(conn, steps)
            migrations.apply(db)
            states.append(_State(_objects(conn), frozenset(range(steps + 1)), tuple(names[:steps])))
        return tuple(states)
    finally:
        conn.close()


# ---- the schemas earlier versions left (store/earlier.py) ----------------------------------------


class Unrepairable(Exception):
    """A ledger of an earlier schema that could not be brought to today's (a bug, or a file that
    holds what no boston-ledger wrote): nothing is changed."""


class _Earlier(NamedTuple):
    state: _State  # as an earlier version left it
    target: dict[str, tuple[str, str, str]]  # what today's migrations leave with the same ones recorded
    first_rank: bool  # made by 901e709 ... fb5f259, whose engine played a deal without a rank as the first


def _sql(conn: sqlite3.Connection) -> dict[str, tuple[str, str, str]]:
    """The schema's tables, indexes and triggers (not SQLite's own) with their SQL as stored."""
    return {name: (kind, table, sql) for name, kind, table, sql in conn.execute(
        "SELECT name, type, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite^_%' ESCAPE '^'")}


@cache
def _earlier_states() -> tuple[_Earlier, ...]:
    """Every schema a ledger of an earlier version of m001 or m002 can be in (`earlier.py`), with
    any later migrations on top, each with what today's migrations leave in its place."""
    today = []
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        names = [name.encode() for name, __ in _steps(conn)]
        for steps in range(1, len(names) + 1):
            migrations, db = _migrations(conn, steps)
            migrations.apply(db)
            today.append(_sql(conn))
    finally:
        conn.close()
    found = []
    for first in (None, *earlier.FIRST):
        for second in (None, *earlier.SECOND):
            if first is None and second is None:
                continue  # today's: _states()
            conn = sqlite3.connect(":memory:", isolation_level=None)
            try:
                for steps in range(1 if second is None else 2, len(names) + 1):
                    migrations, db = _migrations(conn, steps, first, second)
                    migrations.apply(db)
                    state = _State(_objects(conn), frozenset(range(steps + 1)), tuple(names[:steps]))
                    found.append(_Earlier(state, today[steps - 1], first == "901e709"))
            finally:
                conn.close()
    return tuple(found)


def _earlier(conn: sqlite3.Connection, objects: dict[str, tuple[bytes, bytes, bytes]] | None = None) -> _Earlier | None:
    """The earlier schema the database of `conn` is in exactly, if it is in one."""
    objects = _objects(conn) if objects is None else objects
    if "_sqlite_migrations" not in objects:
        return None
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    for found in _earlier_states():
        if objects == found.state.objects and version in found.state.versions \
                and _applied(conn, found.state) == found.state.applied:
            return found
    return None


def _repair(conn: sqlite3.Connection, target: dict[str, tuple[str, str, str]], first_rank: bool = False) -> None:
    """Bring a ledger of an earlier schema to `target`, the schema today's migrations leave with
    the same ones recorded, keeping every row: each table whose definition differs is made again
    as `target` defines it (SQLite cannot add a column before others), its rows copied with their
    ids, a column it gains given its default (or its `earlier.FILLS`), its indexes and triggers
    made again; deals that kept no balances get them, summed from their own transfers. With
    `first_rank`, a deal of a contract with ranks that was entered without one (901e709 ... fb5f259
    played it as the contract's first rank; ebd6f22 made the rank a required word where the
    contract has several and names no default) has that rank written out, so that today's engine
    replays it as it was scored.

    Runs inside the caller's transaction with foreign keys off (a table others refer to is
    dropped and made again); the caller checks the keys before it commits."""
    have = _sql(conn)
    changed = [name for name, (kind, __, sql) in target.items()
               if kind == "table" and name in have and _even(have[name][2].encode()) != _even(sql.encode())]
    kept_none = "balances" not in _columns(conn, "deals")
    for name in changed:
        before = _columns(conn, name)
        conn.execute(f'CREATE TEMP TABLE "earlier_{name}" AS SELECT * FROM main."{name}"')
        conn.execute(f'DROP TABLE main."{name}"')  # with its indexes and triggers
        conn.execute(target[name][2])
        after = _columns(conn, name)
        kept = [c for c in after if c in before]
        filled = [c for c in after if c not in before and (name, c) in earlier.FILLS]
        columns = ", ".join(f'"{c}"' for c in kept + filled)
        values = ", ".join([f'old."{c}"' for c in kept] + [earlier.FILLS[(name, c)] for c in filled])
        try:
            conn.execute(f'INSERT INTO main."{name}" ({columns}) SELECT {values} FROM temp."earlier_{name}" AS old')
        except sqlite3.IntegrityError as e:
            raise Unrepairable(_("table {name}: {error}", name=name, error=e)) from None
        conn.execute(f'DROP TABLE temp."earlier_{name}"')
    if first_rank and "deals" in changed:
        _write_first_ranks(conn)
    if kept_none and "balances" in _columns(conn, "deals"):
        _keep_balances(conn)
    for name, (kind, table, sql) in target.items():
        if kind != "table" and table in changed:
            conn.execute(sql)
    wanted = {name: (kind.encode(), table.encode(), _even(sql.encode())) for name, (kind, table, sql) in target.items()}
    if _objects(conn) != wanted:
        raise Unrepairable(_("the schema made differs from today's"))


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f'PRAGMA main.table_info("{table}")')]


def _write_first_ranks(conn: sqlite3.Connection) -> None:
    """The rank a deal without one was played at by 901e709 ... fb5f259: its contract's first, in
    the session's own stored tariff (the deals table has just been made again, without triggers)."""
    from ..core.tariff_files import parse

    for session_id, text in conn.execute("SELECT id, tariff_text FROM sessions").fetchall():
        try:
            contracts = parse(text, origin=f"the tariff stored with session {session_id}").contracts
        except Exception as e:  # a stored text that cannot be read: nothing could replay its deals
            raise Unrepairable(_("session {id}: {error}", id=session_id, error=e)) from None
        for deal_id, contract in conn.execute("SELECT id, contract FROM deals WHERE session_id = ? AND rank IS NULL",
                                              (session_id,)).fetchall():
            found = contracts.get(contract)
            if found is not None and found.ranks and found.default_rank is None:  # else read as then
                conn.execute("UPDATE deals SET rank = ? WHERE id = ?", (found.ranks[0], deal_id))


def _keep_balances(conn: sqlite3.Connection) -> None:
    """Balances after each standing deal (neither undone nor superseded by a correction), summed
    from the deals' own transfers, for ledgers whose deals kept none (the deals table has just been
    made again, without its triggers)."""
    for (session_id,) in conn.execute("SELECT id FROM sessions").fetchall():
        seats = {pid: seat for pid, seat in conn.execute("SELECT id, seat FROM players WHERE session_id = ?",
                                                         (session_id,))}
        balances, basket = [0] * len(seats), 0
        for (deal_id,) in conn.execute(
                "SELECT id FROM deals d WHERE session_id = ? AND NOT EXISTS (SELECT 1 FROM undos u WHERE u.deal_id = d.id)"
                " AND NOT EXISTS (SELECT 1 FROM supersessions s WHERE s.deal_id = d.id) ORDER BY id",
                (session_id,)).fetchall():
            rows = conn.execute("SELECT payer, payee, chips FROM transfers WHERE deal_id = ?", (deal_id,))
            change = moves([(None if a is None else seats[a], None if b is None else seats[b], chips, "")
                            for a, b, chips in rows], len(seats))
            balances = [b + c for b, c in zip(balances, change)]
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


