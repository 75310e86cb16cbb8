"""Is this file a ledger of ours? Told without writing a byte: from the file's header (the mark
`APPLICATION_ID` and the schema version), and when the header cannot tell, from its schema.

A ledger made before the mark existed (application id 0) is recognised by its exact schema: one
of the states today's migrations pass through, or one an earlier version left (`store/earlier.py`,
with any later migrations on top), each made in memory by the migrations themselves.

Every read goes through SQLite: a file of our own that this process has open elsewhere must never
be opened and closed behind SQLite's back, as closing any descriptor of a file drops all of the
process's POSIX locks on it (and another process could then fold away the WAL that a connection of
ours still reads).
"""

from __future__ import annotations

import errno
import os
import re
import sqlite3
import stat
from functools import cache
from pathlib import Path
from typing import NamedTuple
from urllib.parse import quote  # pathlib imports it anyway

from ..core.i18n import N_, _, ngettext, strerror
from . import WAIT_LIMIT, StorageError, earlier
from .schema import APPLICATION_ID, MIGRATION_SET, SCHEMA_VERSION, made_plainly, migration_names, migrations


class Found(NamedTuple):
    """What is at a ledger's path: "missing", "blank" (an empty file or database), "ours",
    "old" (ours, unmarked), "newer", "foreign" (another program's database) or "junk"."""

    what: str
    version: int = 0  # its user_version
    detail: str = ""  # why it is junk


def examine(path: Path) -> Found:
    """What is at `path`, found without writing a byte: from the file's header, and when that
    cannot tell (application id 0, or the header could not be read without a lock) from its
    schema through a connection that only reads."""
    try:
        st = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):  # nothing there (or a path under a file)
        return Found("missing")
    except OSError as e:
        raise StorageError(_("cannot read the ledger {path}: {strerror}", path=path, strerror=strerror(e))) from None
    if stat.S_ISDIR(st.st_mode):
        raise StorageError(_("{path} is a folder, not a ledger file; give --db a file path", path=path))
    if not stat.S_ISREG(st.st_mode):
        raise StorageError(_("{path} is not an ordinary file, so not a ledger; give --db a file path", path=path))
    if not os.access(path, os.R_OK):
        raise StorageError(_("cannot read the ledger {path}: {strerror}", path=path,
                             strerror=strerror(PermissionError(errno.EACCES, os.strerror(errno.EACCES)))))
    if st.st_size == 0:
        return Found("blank")
    where = str(Path(path).absolute())
    try:  # the header alone, as the file holds it: `immutable` reads no -wal, takes no lock, makes no file
        conn = sqlite3.connect(uri(where, "ro") + "&immutable=1", uri=True, isolation_level=None)
        try:
            found = marked(conn)
        finally:
            conn.close()
    except sqlite3.Error:
        # Not necessarily junk: a read that takes no lock can meet a ledger that another
        # boston-ledger's checkpoint is growing (page 1, written first, already counts pages the
        # file does not hold yet: "malformed"). A read under SQLite's locks says what it is.
        return _look(where)
    return found if found is not None else _look(where)


def marked(conn: sqlite3.Connection) -> Found | None:
    """What the header of `conn`'s database says: a ledger of ours ("ours", or "newer" than this
    boston-ledger), another program's database ("foreign"), or nothing (None: no mark)."""
    return _by_mark(*_header(conn))


def _header(conn: sqlite3.Connection) -> tuple[int, int]:
    """The database's mark and schema version."""
    return (conn.execute("PRAGMA application_id").fetchone()[0], conn.execute("PRAGMA user_version").fetchone()[0])


def _by_mark(app: int, version: int) -> Found | None:
    if app == APPLICATION_ID:
        return Found("newer" if version > SCHEMA_VERSION else "ours", version)
    if app != 0:
        return Found("foreign", version)
    return None


def current(conn: sqlite3.Connection) -> bool:
    """Whether `conn`'s database is marked a ledger of this very version (the usual case)."""
    return marked(conn) == Found("ours", SCHEMA_VERSION)


def _look(where: str) -> Found:
    """What an SQLite file with no application id holds (the header of a WAL file may not show
    the mark yet), through a connection that only reads.

    A read-only connection (`mode=ro`) leaves a WAL file's -wal and -shm behind when they were
    not there, so there a connection that could write but is told not to (`query_only`) reads
    it and takes them away on closing. Where a -wal is present, its writer's, `mode=ro` reads it
    without ever folding it into the file. A -journal is read through `rw` too: when its writer
    died mid-transaction (a `new` torn while it filled an empty file) SQLite rolls that hot
    journal back, as any connection that may write must, and the file is again what it was
    before; a writer still at work holds its lock, and the read waits for it."""
    busy = os.path.exists(where + "-wal")
    error: sqlite3.Error | None = None
    for mode in ("ro",) if busy else ("rw", "ro"):  # rw, told not to write; ro if this user may only read
        try:
            conn = sqlite3.connect(uri(where, mode), uri=True, timeout=WAIT_LIMIT, isolation_level=None)
            break
        except sqlite3.Error as e:
            error = e
    else:
        return Found("junk", detail=str(error))
    try:
        conn.execute("PRAGMA query_only = ON")
        return recognise(conn)
    except sqlite3.Error as e:
        return Found("junk", detail=str(e))
    finally:
        conn.close()


def uri(path: str, mode: str) -> str:
    """An SQLite URI for the file (its bytes as they are): `mode=rw` and `mode=ro` never create it."""
    return f"file:{quote(os.fsencode(path))}?mode={mode}"


def refuse(path: Path, found: Found, create: bool) -> None:
    """The error for what cannot be opened as a ledger (nothing for what can)."""
    if found.what == "missing" and not create:
        raise StorageError(
            _("no ledger at {path} yet; start a session with `boston-ledger new NAME NAME NAME NAME`", path=path))
    if found.what == "blank" and not create:
        raise StorageError(
            _("no ledger in {path} yet; start a session with `boston-ledger new NAME NAME NAME NAME`", path=path))
    if found.what == "newer":
        raise StorageError(_("{path} was written by a newer boston-ledger (schema {version}, this one knows "
                             "{SCHEMA_VERSION}); upgrade boston-ledger to use it", path=path, version=found.version,
                             SCHEMA_VERSION=SCHEMA_VERSION))
    if found.what == "foreign":
        raise StorageError(_("{path} is an SQLite database of something else, not a boston-ledger database; "
                             "give --db another file", path=path))
    if found.what == "junk":
        raise StorageError(_("{path} is not a boston-ledger database ({e}); give --db another file", path=path,
                             e=found.detail))


# ---- telling a ledger from another SQLite file by its schema ----------------------------------------


def recognise(conn: sqlite3.Connection) -> Found:
    """What the database of `conn` is, read without writing: a ledger marked as ours (of this
    version or an earlier one, or of a newer boston-ledger), an unmarked ledger of an earlier
    version (exactly one of the schemas the migrations pass through), a blank database, or
    anything else ("foreign"). Read in one transaction: a migration that another process commits
    meanwhile is seen whole or not at all."""
    if conn.in_transaction:
        return _recognise(conn)
    conn.execute("BEGIN")
    try:
        return _recognise(conn)
    finally:
        conn.execute("ROLLBACK")


def _recognise(conn: sqlite3.Connection) -> Found:
    app, version = _header(conn)
    found = _by_mark(app, version)
    if found is not None:
        return found
    have = objects(conn)
    if not have:
        return Found("blank" if version == 0 else "foreign", version)
    for state in _states():
        if state.holds(conn, have, version):
            return Found("old", version)
    if earlier_state(conn, have) is not None:
        return Found("old", version)
    return Found("foreign", version)


Objects = dict[str, tuple[bytes, bytes, bytes]]  # name -> (type, table, SQL as compared)


class State(NamedTuple):
    """A schema a ledger of ours can be in."""

    objects: Objects
    versions: frozenset[int]  # the user_version a ledger in this state can have
    applied: tuple[bytes, ...]  # the migrations recorded in it

    def holds(self, conn: sqlite3.Connection, have: Objects, version: int) -> bool:
        """Whether `conn`'s database, whose schema is `have` and version `version`, is in this state."""
        return have == self.objects and version in self.versions and _applied(conn, self) == self.applied


# SQLite's own tables and indexes (sqlite_sequence, sqlite_stat1, sqlite_autoindex_...) are not compared;
# a trigger or a view is, whatever its name
OURS = "type IN ('trigger', 'view') OR name NOT LIKE 'sqlite^_%' ESCAPE '^'"


def objects(conn: sqlite3.Connection) -> Objects:
    """The schema's tables, indexes, triggers and views (not SQLite's own), their SQL with
    whitespace and quotes evened out; read as bytes, so that text which is not UTF-8 is simply
    different."""
    rows = tuple(conn.execute("SELECT CAST(name AS BLOB), CAST(type AS BLOB), CAST(tbl_name AS BLOB),"
                              f" CAST(sql AS BLOB) FROM sqlite_master WHERE {OURS}").fetchall())
    found = _OBJECTS.get(rows)
    if found is None:
        found = {name.decode("utf-8", "replace"): (kind, table, even(sql)) for name, kind, table, sql in rows}
        if len(_OBJECTS) >= 16:  # a handful of schemas in a process
            _OBJECTS.clear()
        _OBJECTS[rows] = found
    return dict(found)


_OBJECTS: dict[tuple[tuple[bytes, ...], ...], Objects] = {}  # schemas evened out, by their rows as stored


def even(sql: bytes | None) -> bytes:
    """SQL as compared: whitespace and quotes evened out."""
    return b" ".join(re.sub(rb'["`\[\]]', b" ", sql or b"").split())


def sql(conn: sqlite3.Connection) -> dict[str, tuple[str, str, str]]:
    """The schema's tables, indexes, triggers and views (not SQLite's own) with their SQL as stored."""
    return {name: (kind, table, text) for name, kind, table, text in conn.execute(
        f"SELECT name, type, tbl_name, sql FROM sqlite_master WHERE {OURS}")}


def _applied(conn: sqlite3.Connection, state: State) -> tuple[bytes, ...]:
    if "_sqlite_migrations" not in state.objects:
        return ()
    return _recorded(conn)


def _recorded(conn: sqlite3.Connection) -> tuple[bytes, ...]:
    """The migrations recorded as applied (read once the record table is known to be sqlite-utils')."""
    return tuple(r[0] for r in conn.execute(
        "SELECT CAST(name AS BLOB) FROM _sqlite_migrations WHERE migration_set = ? ORDER BY rowid", (MIGRATION_SET,)))


# ---- trusting a ledger marked as ours: its schema exactly one the migrations made ----------------

# What is foreign in a schema, in words, by the kind of thing (sqlite_master's type)
EXTRA = {b"table": N_("a table boston-ledger did not make: {name}"),
         b"index": N_("an index boston-ledger did not make: {name}"),
         b"trigger": N_("a trigger boston-ledger did not make: {name}"),
         b"view": N_("a view boston-ledger did not make: {name}")}
CHANGED = {b"table": N_("a table changed from what boston-ledger made: {name}"),
           b"index": N_("an index changed from what boston-ledger made: {name}"),
           b"trigger": N_("a trigger changed from what boston-ledger made: {name}"),
           b"view": N_("a view changed from what boston-ledger made: {name}")}
MISSING = {b"table": N_("a table boston-ledger made is missing: {name}"),
           b"index": N_("an index boston-ledger made is missing: {name}"),
           b"trigger": N_("a trigger boston-ledger made is missing: {name}"),
           b"view": N_("a view boston-ledger made is missing: {name}")}
FIRST = (b"trigger", b"view", b"table", b"index")  # the order they are named in: what runs by itself first


class Stranger(NamedTuple):
    """One thing in a ledger's schema that boston-ledger did not make (or made otherwise), in words,
    and its SQL as the file holds it (None for one that is missing)."""

    words: str
    text: str | None


class Untrusted(StorageError):
    """A ledger marked as ours whose schema is not one that boston-ledger made: refused at open."""

    def __init__(self, path: Path, found: list[Stranger]) -> None:
        more = len(found) - 1
        super().__init__(_("{path} is not opened: it holds {what}{more}; nothing in it was read or run. "
                           "`boston-ledger check --db {path}` lists what is foreign; `boston-ledger import --salvage "
                           "{path} --db NEW.db` copies its evenings into a clean ledger", path=path,
                           what=found[0].words,
                           more=ngettext(" (and {n} more thing)", " (and {n} more things)", more) if more else ""))
        self.path, self.found = path, found


def strangers(conn: sqlite3.Connection) -> list[Stranger]:
    """What in the schema of `conn`'s ledger boston-ledger did not make: tables, columns and their
    types, indexes, triggers and views, each by its definition; empty when the schema is exactly
    one that the migrations make (this version's, or one a known earlier version left). Reads
    nothing but the schema, and the record of the migrations once it is sqlite-utils' table."""
    version = _header(conn)[1]
    have = objects(conn)
    names = [name.encode() for name in migration_names()]
    if 0 < version <= len(names):  # the usual case, told without loading sqlite-utils
        want = _expected(version)
        if want is not None and have == want and _recorded(conn) == tuple(names[:version]):
            return []
    states = _states()
    if any(state.holds(conn, have, version) for state in states) or earlier_state(conn, have) is not None:
        return []
    found = described(have, states[min(max(version, 0), len(names)) + 1].objects, sql(conn))
    return found or [Stranger(_("a record of the migrations applied that boston-ledger did not write"), None)]


def described(have: Objects, want: Objects, stored: dict[str, tuple[str, str, str]]) -> list[Stranger]:
    """How the schema `have` differs from `want`, thing by thing, in words (with `stored`, its SQL)."""
    def order(item: tuple[str, tuple[bytes, bytes, bytes]]) -> int:
        return FIRST.index(item[1][0]) if item[1][0] in FIRST else len(FIRST)

    extra, changed, missing = [], [], []
    for name, (kind, table, text) in sorted(have.items(), key=order):
        said = stored.get(name, (None, None, None))[2]
        if name not in want or want[name][0] != kind:
            extra.append(Stranger(_(EXTRA.get(kind, EXTRA[b"table"]), name=name), said))
        elif want[name] != (kind, table, text):
            changed.append(Stranger(_(CHANGED.get(kind, CHANGED[b"table"]), name=name), said))
    for name, (kind, __, __) in sorted(want.items(), key=order):
        if name not in have or have[name][0] != kind:
            missing.append(Stranger(_(MISSING.get(kind, MISSING[b"table"]), name=name), None))
    return extra + changed + missing


@cache
def _expected(count: int) -> Objects | None:
    """The schema the first `count` migrations make (`schema.made_plainly`); None when one of them
    needs sqlite-utils itself (then `_states` tells)."""
    try:
        conn = made_plainly(count)
    except (AttributeError, TypeError, sqlite3.Error):
        return None
    try:
        return objects(conn)
    finally:
        conn.close()


@cache
def _states() -> tuple[State, ...]:
    """The schemas a ledger of ours passes through as the migrations run, made in memory by the
    migrations themselves: sqlite-utils' table, then its index, then each migration."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        states = []
        steps, db = migrations(conn, 0)
        steps.ensure_migrations_table(db)
        both = objects(conn)
        states.append(State({k: v for k, v in both.items() if v[0] == b"table"}, frozenset({0}), ()))
        states.append(State(both, frozenset({0}), ()))
        names = [name.encode() for name in migration_names()]
        for count in range(1, len(names) + 1):
            steps, db = migrations(conn, count)
            steps.apply(db)
            states.append(State(objects(conn), frozenset(range(count + 1)), tuple(names[:count])))
        return tuple(states)
    finally:
        conn.close()


# ---- the schemas earlier versions left (store/earlier.py) -------------------------------------------


class Earlier(NamedTuple):
    """A schema an earlier version left, and what today's migrations leave in its place."""

    state: State  # as an earlier version left it
    target: dict[str, tuple[str, str, str]]  # what today's migrations leave with the same ones recorded
    first_rank: bool  # made by 901e709 ... fb5f259, whose engine played a deal without a rank as the first


@cache
def _earlier_states() -> tuple[Earlier, ...]:
    """Every schema a ledger of an earlier version of m001 or m002 can be in (`earlier.py`), with
    any later migrations on top, each with what today's migrations leave in its place."""
    today = []
    names = [name.encode() for name in migration_names()]
    conn = sqlite3.connect(":memory:", isolation_level=None)
    try:
        for count in range(1, len(names) + 1):
            steps, db = migrations(conn, count)
            steps.apply(db)
            today.append(sql(conn))
    finally:
        conn.close()
    found = []
    for first in (None, *earlier.FIRST):
        for second in (None, *earlier.SECOND):
            if first is None and second is None:
                continue  # today's: _states()
            conn = sqlite3.connect(":memory:", isolation_level=None)
            try:
                for count in range(1 if second is None else 2, len(names) + 1):
                    steps, db = migrations(conn, count, first, second)
                    steps.apply(db)
                    state = State(objects(conn), frozenset(range(count + 1)), tuple(names[:count]))
                    found.append(Earlier(state, today[count - 1], first == "901e709"))
            finally:
                conn.close()
    return tuple(found)


def earlier_state(conn: sqlite3.Connection, have: Objects | None = None) -> Earlier | None:
    """The earlier schema the database of `conn` is in exactly, if it is in one (`have`: its
    schema, when it has been read)."""
    have = objects(conn) if have is None else have
    if "_sqlite_migrations" not in have:
        return None
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    for found in _earlier_states():
        if found.state.holds(conn, have, version):
            return found
    return None
