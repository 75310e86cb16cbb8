"""Where the ledger lives; opening it (checked and migrated) and creating it; write
transactions, waiting for another writer.

Nothing is written to a file before it is known to be a ledger of ours (`identify.examine`). A new
ledger is made whole in memory, with whatever its first command writes, and appears at its path in
one step, or not at all (`newfile.create`).
"""

from __future__ import annotations

import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from ..core.i18n import _
from . import WAIT_LIMIT, StorageError, newfile, repair, schema
from .identify import Found, Untrusted, current, examine, recognise, refuse, strangers, uri
from .schema import SCHEMA_VERSION

APP_NAME = "boston-ledger"
MAX_CHIPS = 2**62  # SQLite INTEGER holds 2**63 - 1; sums of a session's transfers must fit too
WAIT_NOTICE = 2.0  # seconds of waiting for another writer before saying so (WAIT_LIMIT: before giving up)
WAIT_SLICE_MS = 100  # SQLite waits this long at a time, so that Ctrl-C is heard meanwhile
ATTEMPTS = 5  # looks at a path that another process keeps changing meanwhile
PROGRESS_STEPS = 10_000  # SQLite's steps between two looks of the progress handler (well under a second)
LONG_QUERY = 10.0  # seconds of SQLite working without a pause before the command says why it takes so long
PAUSE = 0.5  # seconds between two looks of the handler that end one stretch of SQLite's work

T = TypeVar("T")
Waiting = Callable[[Path], None]
Slow = Callable[[Path, float], None]


class Ledger(sqlite3.Connection):
    """A connection to a ledger: where it is, whom to tell when it waits for another writer, and
    whether it may write (not on a file system that is read-only)."""

    path: Path = Path()
    waiting: Waiting | None = None
    read_only: bool = False
    bounds: Bound | None = None

    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        if self.bounds is not None:
            self.bounds.statement()
        return super().execute(sql, parameters)


class Bound:
    """The progress handler of every connection to a ledger: every statement is bounded. Ctrl-C
    interrupts any statement within a second (SQLite's `interrupted`, which the guard ends with
    exit 130), and one statement (or an unbroken stretch of SQLite's work) that lasts longer than
    LONG_QUERY is said once (`slow`), for a ledger changed by hand can hold an endless view or
    trigger. `statement` (called by `Ledger.execute`) marks where each statement begins.
    `stop` (for tests) interrupts too; `clock` is time.monotonic."""

    def __init__(self, path: Path, slow: Slow | None = None, stop: Callable[[], bool] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.path, self.slow, self.stop, self.clock = path, slow, stop, clock
        self.began = self.last = clock()
        self.told = False

    def statement(self) -> None:
        """A statement begins: its time counts from here."""
        self.began = self.last = self.clock()

    def __call__(self) -> int:
        now = self.clock()  # a Ctrl-C meanwhile raises here: SQLite is told to stop (`interrupted`)
        if now - self.last > PAUSE:
            self.began = now
        self.last = now
        if self.stop is not None and self.stop():
            return 1
        if not self.told and now - self.began >= LONG_QUERY and self.slow is not None:
            self.told = True
            self.slow(self.path, now - self.began)
        return 0


def bound(conn: Ledger, path: Path, slow: Slow | None = None) -> None:
    """Every statement of `conn` bounded (`Bound`)."""
    conn.bounds = Bound(path, slow)
    conn.set_progress_handler(conn.bounds, PROGRESS_STEPS)


def interrupted(error: BaseException) -> bool:
    """Whether an SQLite error is a statement interrupted (by Ctrl-C, through `Bound`)."""
    return isinstance(error, sqlite3.OperationalError) and \
        getattr(error, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_INTERRUPT


# ---- where the ledger lives --------------------------------------------------------------


def app_dir(environ: Mapping[str, str] = os.environ) -> Path:
    """The per-user folder of boston-ledger, where click's (and typer's) `get_app_dir` puts it:
    $XDG_CONFIG_HOME/boston-ledger on Linux and other POSIX systems, Application Support on
    macOS, %APPDATA% on Windows. (Written out here so that a plain `deal` need not import typer.)"""
    if sys.platform.startswith("win"):
        return Path(environ.get("APPDATA") or os.path.expanduser("~")) / APP_NAME
    if sys.platform == "darwin":
        return Path(os.path.expanduser("~/Library/Application Support")) / APP_NAME
    return Path(environ.get("XDG_CONFIG_HOME") or os.path.expanduser("~/.config")) / APP_NAME


def default_path() -> Path:
    """The database used when neither --db nor $BOSTON_LEDGER_DB names one."""
    return app_dir() / "ledger.db"


def resolve_path(db: str | None) -> Path:
    """--db, else $BOSTON_LEDGER_DB, else the app directory's ledger. SQLite's names for what is
    not a file (":memory:", "file:" URIs) are refused: a ledger is a file."""
    chosen = db or os.environ.get("BOSTON_LEDGER_DB")
    if not chosen:
        return default_path()
    if chosen == ":memory:" or chosen[:5].lower() == "file:":
        raise StorageError(_("{path!r} is SQLite's name for a database in memory or at a URI, not a file; "
                             "give --db the path of a ledger file", path=chosen))
    try:
        return Path(chosen).expanduser()
    except RuntimeError:  # ~nobody/...: no such user, or no home
        raise StorageError(_("{path!r} starts with the home folder of a user this system does not know; "
                             "give --db a full path", path=chosen)) from None


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


# ---- opening and creating ----------------------------------------------------------------------


def open_db(path: Path, create: bool = False, waiting: Waiting | None = None, slow: Slow | None = None) -> Ledger:
    """Open the ledger, migrating it if needed. Without `create`, a missing file is an error;
    with it, a missing or blank one becomes an empty ledger (`create_ledger`). On a file system
    that is read-only, a ledger of this version is opened for reading only (`Ledger.read_only`)."""
    for __ in range(ATTEMPTS):
        found = examine(path)
        if found.what == "missing" and create:
            with suppress(FileExistsError):  # another boston-ledger made it meanwhile
                _publish(path, None)
            continue
        conn = _open(path, found, create, None, waiting, slow)[0]
        if conn is not None:
            return conn
    raise _changing(path)


def create_ledger(path: Path, first: Callable[[Ledger], T] | None = None, waiting: Waiting | None = None,
                  slow: Slow | None = None) -> T | None:
    """Write `first(conn)` into the ledger at `path`, making the ledger if there is none: a new
    ledger's schema, version, application id and whatever `first` writes commit together, or
    nothing is left. `first` writes in transactions of its own (`writing`); on a new ledger they
    join the one that makes it. Returns what `first` returned."""
    for __ in range(ATTEMPTS):
        found = examine(path)
        if found.what == "missing":
            try:
                return _publish(path, first)
            except FileExistsError:  # another boston-ledger made it meanwhile: write into that one
                continue
        conn, result, done = _open(path, found, True, first, waiting, slow)
        if conn is None:
            continue
        try:
            return result if done or first is None else first(conn)
        finally:
            conn.close()
    raise _changing(path)


def open_read_only(path: Path, slow: Slow | None = None) -> Ledger:
    """Open the ledger for reading only (SQLite `mode=ro`; on a read-only file system where SQLite
    cannot share it, `immutable`): nothing through this connection can write, not even a
    migration. The ledger must exist, be ours (`examine`), of this version and trusted
    (`identify.strangers`)."""
    found = examine(path)
    if found.what == "old":
        raise StorageError(_("{path} is not a boston-ledger database of this version; run "
                             "`boston-ledger status --db {path}` once to bring it up to date", path=path))
    refuse(path, found, create=False)
    where = str(Path(path).absolute())
    immutable = read_only_fs(path) and not os.path.exists(where + "-wal")
    conn = sqlite3.connect(uri(where, "ro") + ("&immutable=1" if immutable else ""), uri=True, timeout=WAIT_LIMIT,
                           isolation_level=None, check_same_thread=False, factory=Ledger)
    conn.path, conn.read_only = path, True
    bound(conn, path, slow)
    try:
        conn.row_factory = sqlite3.Row
        ours = current(conn)
        if ours:
            _trust(conn, path)
    except sqlite3.DatabaseError as e:
        conn.close()
        if interrupted(e):
            raise KeyboardInterrupt from None
        raise StorageError(_("{path} is not a boston-ledger database ({e}); give --db another file",
                             path=path, e=e)) from None
    except BaseException:
        conn.close()
        raise
    if not ours:
        conn.close()
        raise StorageError(_("{path} is not a boston-ledger database of this version; run "
                             "`boston-ledger status --db {path}` once to bring it up to date", path=path))
    return conn


def read_only_fs(path: Path) -> bool:
    """Whether the ledger's file system is mounted read-only (a stick, a share, a read-only bind):
    nothing can be written there, and SQLite cannot make the files through which it shares a
    ledger between readers."""
    try:
        return bool(os.statvfs(Path(path).absolute().parent).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # no statvfs (Windows): as for a file system that may be written
        return False


def _trust(conn: sqlite3.Connection, path: Path) -> None:
    """Untrusted unless the ledger's schema is exactly one that boston-ledger makes: read before
    any statement touches its data."""
    found = strangers(conn)
    if found:
        raise Untrusted(path, found)


def data_version(conn: sqlite3.Connection) -> int:
    """SQLite's count that moves whenever another connection commits to the file."""
    return int(conn.execute("PRAGMA data_version").fetchone()[0])


def _changing(path: Path) -> StorageError:
    return StorageError(_("{path} keeps changing while boston-ledger opens it; try again", path=path))


def _connect(target: str, waiting: Waiting | None = None, path: Path | None = None,
             slow: Slow | None = None) -> Ledger:
    conn = sqlite3.connect(target, uri=target.startswith("file:"), timeout=WAIT_LIMIT, isolation_level=None,
                           factory=Ledger)
    conn.path = path or Path(target)
    conn.waiting = waiting
    bound(conn, conn.path, slow)
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _open(path: Path, found: Found, create: bool, first: Callable[[Ledger], T] | None,
          waiting: Waiting | None, slow: Slow | None = None) -> tuple[Ledger | None, T | None, bool]:
    """The ledger at `path` opened, after `examine` found it there; (None, ...) when the file
    went away meanwhile. When it had to be migrated or made (a blank file, with `create`),
    `first` ran in that same transaction: then the third value is True. On a read-only file
    system, opened for reading only (`first` then runs later, and its write is refused)."""
    refuse(path, found, create)
    if found.what in ("ours", "old") and read_only_fs(path):
        if found.what == "old" or found.version < SCHEMA_VERSION:
            raise StorageError(_("{path} is a ledger of an earlier boston-ledger on a file system where nothing can "
                                 "be written, so it cannot be brought up to date; copy it somewhere writable",
                                 path=path))
        return open_read_only(path, slow), None, False
    try:
        conn = _connect(uri(str(Path(path).absolute()), "rw"), waiting, path, slow)
    except sqlite3.OperationalError as e:
        if not os.path.exists(path):  # gone since `examine` looked: look again
            return None, None, False
        raise StorageError(_("cannot use the ledger {path}: {e}; check that the file and its folder are writable",
                             path=path, e=e)) from None
    try:
        done, result = _prepare(conn, path, found, create, first)
    except BaseException as e:
        conn.close()  # lets SQLite tidy its -wal and -shm files away
        if not isinstance(e, sqlite3.DatabaseError):
            raise
        if interrupted(e):
            raise KeyboardInterrupt from None
        if "not a database" in str(e) or "malformed" in str(e):
            raise StorageError(_("{path} is not a boston-ledger database ({e}); give --db another file",
                                 path=path, e=e)) from None
        raise StorageError(_("cannot use the ledger {path}: {e}; check that the file and its folder are writable",
                             path=path, e=e)) from None
    return conn, result, done


def _prepare(conn: Ledger, path: Path, found: Found, create: bool,
             first: Callable[[Ledger], T] | None) -> tuple[bool, T | None]:
    """Settings of every open; a ledger of an earlier version migrated, a blank file made a
    ledger, each under the write lock and looked at again there."""
    if current(conn):  # a ledger of this version: the usual case
        _trust(conn, path)
        _settle_in(conn)
        return False, None
    if found.what in ("ours", "old", "blank") and conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        conn.execute("PRAGMA journal_mode = WAL")  # before the transaction, which cannot change it
    # a ledger of an earlier schema may have a table made again that others refer to: the keys are
    # checked as a whole before the commit instead of row by row (settable outside a transaction only)
    unkeyed = found.what in ("old", "ours")
    if unkeyed:
        conn.execute("PRAGMA foreign_keys = OFF")
    try:
        begin(conn)
        try:
            kind = recognise(conn)
            refuse(path, kind, create)
            if kind.what == "ours":  # marked, of an earlier version ("old" ones are recognised exactly)
                _trust(conn, path)
            if kind.what != "ours" or kind.version < SCHEMA_VERSION:
                repair.mend(conn)  # an earlier version's schema first made one of today's
                schema.migrate(conn)
            result = first(conn) if first is not None else None
            if unkeyed and conn.execute("PRAGMA foreign_key_check").fetchone() is not None:
                raise repair.Unrepairable(_("a row refers to one that is not there"))
            _commit(conn)
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    except repair.Unrepairable as e:
        raise StorageError(_("{path} is a ledger of an earlier boston-ledger that could not be brought up to date "
                             "({e}); it is left as it was", path=path, e=e)) from None
    finally:
        if unkeyed:
            conn.execute("PRAGMA foreign_keys = ON")
    _settle_in(conn)
    return True, result


def _settle_in(conn: Ledger) -> None:
    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")


def _publish(path: Path, first: Callable[[Ledger], T] | None) -> T | None:
    """A new ledger, with what `first` writes, made in memory and then put at `path` whole
    (`newfile.create`: its own folders made for it, readable by the owner only); FileExistsError if
    something is at `path` by then. On any failure nothing is left."""
    result: T | None = None

    def written(memory: Ledger) -> None:
        nonlocal result
        result = first(memory) if first is not None else None

    def image() -> bytes:
        made = bytearray(_in_memory(_blank(), written))
        made[18] = made[19] = 2  # in WAL mode, as `PRAGMA journal_mode = WAL` marks a file
        return bytes(made)

    newfile.create(path, image)
    _committed()
    return result


def _in_memory(start: bytes | None, work: Callable[[Ledger], object]) -> bytes:
    """The database that `work` leaves, done in one transaction in memory on a copy of `start`
    (or on nothing); nothing when it fails."""
    memory = _connect(":memory:")
    try:
        if start is not None:
            memory.deserialize(start)
        memory.execute("BEGIN IMMEDIATE")
        try:
            work(memory)
            memory.execute("COMMIT")
        except BaseException:
            if memory.in_transaction:
                memory.execute("ROLLBACK")
            raise
        return memory.serialize()
    finally:
        memory.close()


_BLANKS: dict[int, bytes] = {}  # a ledger of today's schema with nothing in it, made once per process


def _blank() -> bytes:
    """A ledger of today's schema with nothing in it, as the migrations make one (`schema.migrate`
    from an empty database): made once per process, copied for each new ledger (a process that
    makes many, as the tests do, migrates once)."""
    if SCHEMA_VERSION not in _BLANKS:
        _BLANKS[SCHEMA_VERSION] = _in_memory(None, schema.migrate)
    return _BLANKS[SCHEMA_VERSION]


# ---- writing -----------------------------------------------------------------------------------

_commits = 0  # write transactions committed by this process


def commits() -> int:
    """How many write transactions this process has committed (a new ledger counts as one)."""
    return _commits


def _committed() -> None:
    global _commits
    _commits += 1


def _commit(conn: sqlite3.Connection) -> None:
    conn.execute("COMMIT")
    _committed()


def begin(conn: sqlite3.Connection) -> None:
    """BEGIN IMMEDIATE: the write lock, taken before reading so that a read-check-write cannot race.

    While another writer holds it, wait for it (at most WAIT_LIMIT seconds), a slice at a time so
    that Ctrl-C is heard meanwhile; after WAIT_NOTICE seconds the connection's `waiting` is told
    once. A ledger on a read-only file system refuses at once: nothing can be written there."""
    if getattr(conn, "read_only", False):
        raise StorageError(_("{path} is on a file system where nothing can be written; nothing was recorded",
                             path=getattr(conn, "path", "")))
    conn.execute(f"PRAGMA busy_timeout = {WAIT_SLICE_MS}")
    try:
        started, told = time.monotonic(), False
        while True:
            try:
                conn.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as e:
                if getattr(e, "sqlite_errorcode", sqlite3.SQLITE_BUSY) & 0xFF != sqlite3.SQLITE_BUSY:
                    raise
            waited = time.monotonic() - started
            path = getattr(conn, "path", "")
            if waited >= WAIT_LIMIT:
                raise StorageError(_("another boston-ledger has been writing to {path} for {seconds} s; nothing was "
                                     "recorded: try again when it is done", path=path, seconds=int(WAIT_LIMIT)))
            waiting = getattr(conn, "waiting", None)
            if not told and waited >= WAIT_NOTICE and waiting is not None:
                waiting(path)
                told = True
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(WAIT_LIMIT * 1000)}")


@contextmanager
def writing(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction, taken before reading so that a read-check-write cannot race.

    Inside the transaction that makes a new ledger (`create_ledger`), it is part of that one."""
    if conn.in_transaction:
        yield conn
        return
    begin(conn)
    try:
        yield conn
        _commit(conn)
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


@contextmanager
def reading(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One read transaction: everything read inside it comes from the same moment of the ledger
    (inside a write transaction, that one)."""
    if conn.in_transaction:
        yield conn
        return
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        conn.execute("COMMIT")
