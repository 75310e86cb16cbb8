"""Where the ledger lives; telling a ledger from any other file without writing to it; opening
it (checked and migrated); creating it atomically; write transactions, waiting for another
writer.

Nothing is written to a file before it is known to be a ledger of ours: its 100-byte header is
read first (and, when the header cannot tell, its schema, through a connection that only
reads). A new ledger is made whole in memory, with whatever its first command writes, and
appears at its path in one step, or not at all.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
import sys
import time
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, Iterator, NamedTuple, TypeVar
from urllib.parse import quote  # pathlib imports it anyway

from ..core.errors import LedgerError
from ..core.i18n import _, strerror
from . import schema
from .schema import APPLICATION_ID, SCHEMA_VERSION

APP_NAME = "boston-ledger"
MAX_CHIPS = 2**62  # SQLite INTEGER holds 2**63 - 1; sums of a session's transfers must fit too
WAIT_NOTICE = 2.0  # seconds of waiting for another writer before saying so
WAIT_LIMIT = 60.0  # seconds of waiting before giving up
WAIT_SLICE_MS = 100  # SQLite waits this long at a time, so that Ctrl-C is heard meanwhile
ATTEMPTS = 5  # looks at a path that another process keeps changing meanwhile

T = TypeVar("T")
Waiting = Callable[[Path], None]


class StorageError(LedgerError):
    """A database that cannot be used as it is."""


class Ledger(sqlite3.Connection):
    """A connection to a ledger: where it is, and whom to tell when it waits for another writer."""

    path: Path = Path()
    waiting: Waiting | None = None


# ---- where the ledger lives --------------------------------------------------------------


def app_dir(environ: dict[str, str] | os._Environ = os.environ) -> Path:
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
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# ---- what a file is, read without writing ----------------------------------------------------


class Found(NamedTuple):
    """What is at a ledger's path: "missing", "blank" (an empty file or database), "ours",
    "old" (ours, unmarked), "newer", "foreign" (another program's database) or "junk"."""

    what: str
    version: int = 0
    detail: str = ""


def examine(path: Path) -> Found:
    """What is at `path`, found without writing a byte: from the file's header, and when that
    cannot tell (application id 0, or the header could not be read without a lock) from its
    schema through a connection that only reads.

    Every read goes through SQLite: a file of our own that this process has open elsewhere must
    never be opened and closed behind SQLite's back, as closing any descriptor of a file drops
    all of the process's POSIX locks on it (and another process could then fold away the WAL
    that a connection of ours still reads)."""
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
        conn = sqlite3.connect(_uri(where, "ro") + "&immutable=1", uri=True, isolation_level=None)
        try:
            app = conn.execute("PRAGMA application_id").fetchone()[0]
            version = conn.execute("PRAGMA user_version").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        # Not necessarily junk: a read that takes no lock can meet a ledger that another
        # boston-ledger's checkpoint is growing (page 1, written first, already counts pages the
        # file does not hold yet: "malformed"). A read under SQLite's locks says what it is.
        return _look(where)
    if app == APPLICATION_ID:
        return Found("newer" if version > SCHEMA_VERSION else "ours", version)
    if app != 0:
        return Found("foreign", version)
    return _look(where)


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
            conn = sqlite3.connect(_uri(where, mode), uri=True, timeout=WAIT_LIMIT, isolation_level=None)
            break
        except sqlite3.Error as e:
            error = e
    else:
        return Found("junk", detail=str(error))
    try:
        conn.execute("PRAGMA query_only = ON")
        kind = schema.recognise(conn)
    except sqlite3.Error as e:
        return Found("junk", detail=str(e))
    finally:
        conn.close()
    return Found(kind.what, kind.version)


def _uri(path: str, mode: str) -> str:
    """An SQLite URI for the file (its bytes as they are): `mode=rw` and `mode=ro` never create it."""
    return f"file:{quote(os.fsencode(path))}?mode={mode}"


def _refuse(path: Path, found: Found, create: bool) -> None:
    """The error for what cannot be opened as a ledger (nothing for what can)."""
    if found.what == "missing" and not create:
        raise StorageError(
            _("no ledger at {path} yet; start a session with `boston-ledger new NAME NAME NAME NAME`", path=path))
    if found.what == "blank" and not create:
        raise StorageError(
            _("no ledger in {path} yet; start a session with `boston-ledger new NAME NAME NAME NAME`", path=path))
    if found.what == "newer":
        raise StorageError(_("{path} was written by a newer boston-ledger (schema {version}, this one knows {SCHEMA_VERSION}); upgrade boston-ledger to use it", path=path, version=found.version, SCHEMA_VERSION=SCHEMA_VERSION))
    if found.what == "foreign":
        raise StorageError(_("{path} is an SQLite database of something else, not a boston-ledger database; give --db another file", path=path))
    if found.what == "junk":
        raise StorageError(_("{path} is not a boston-ledger database ({e}); give --db another file", path=path, e=found.detail))


# ---- opening and creating ----------------------------------------------------------------------


def open_db(path: Path, create: bool = False, waiting: Waiting | None = None) -> Ledger:
    """Open the ledger, migrating it if needed. Without `create`, a missing file is an error;
    with it, a missing or blank one becomes an empty ledger (`create_ledger`)."""
    for __ in range(ATTEMPTS):
        found = examine(path)
        if found.what == "missing" and create:
            try:
                _publish(path, None)
            except FileExistsError:  # another boston-ledger made it meanwhile
                pass
            continue
        conn, __, __ = _open(path, found, create, None, waiting)
        if conn is not None:
            return conn
    raise _changing(path)


def create_ledger(path: Path, first: Callable[[Ledger], T] | None = None, waiting: Waiting | None = None) -> T | None:
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
        conn, result, done = _open(path, found, True, first, waiting)
        if conn is None:
            continue
        try:
            return result if done or first is None else first(conn)
        finally:
            conn.close()
    raise _changing(path)


def open_read_only(path: Path) -> sqlite3.Connection:
    """Open the ledger for reading only (SQLite `mode=ro`): nothing through this connection can
    write, not even a migration. The ledger must exist, be ours (`examine`) and of this version."""
    found = examine(path)
    if found.what == "old":
        raise StorageError(_("{path} is not a boston-ledger database of this version; run `boston-ledger status --db {path}` once to bring it up to date", path=path))
    _refuse(path, found, create=False)
    conn = sqlite3.connect(_uri(str(Path(path).absolute()), "ro"), uri=True, timeout=WAIT_LIMIT,
                           isolation_level=None, check_same_thread=False)
    try:
        conn.row_factory = sqlite3.Row
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        ours = conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    except sqlite3.DatabaseError as e:
        conn.close()
        raise StorageError(_("{path} is not a boston-ledger database ({e}); give --db another file", path=path, e=e)) from None
    if version != SCHEMA_VERSION or not ours:
        conn.close()
        raise StorageError(_("{path} is not a boston-ledger database of this version; run `boston-ledger status --db {path}` once to bring it up to date", path=path))
    return conn


def data_version(conn: sqlite3.Connection) -> int:
    """SQLite's count that moves whenever another connection commits to the file."""
    return conn.execute("PRAGMA data_version").fetchone()[0]


def _changing(path: Path) -> StorageError:
    return StorageError(_("{path} keeps changing while boston-ledger opens it; try again", path=path))


def _connect(target: str, waiting: Waiting | None = None, path: Path | None = None) -> Ledger:
    conn = sqlite3.connect(target, uri=target.startswith("file:"), timeout=WAIT_LIMIT, isolation_level=None,
                           factory=Ledger)
    conn.path = path or Path(target)
    conn.waiting = waiting
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _open(path: Path, found: Found, create: bool, first: Callable[[Ledger], T] | None,
          waiting: Waiting | None) -> tuple[Ledger | None, T | None, bool]:
    """The ledger at `path` opened, after `examine` found it there; (None, ...) when the file
    went away meanwhile. When it had to be migrated or made (a blank file, with `create`),
    `first` ran in that same transaction: then the third value is True."""
    _refuse(path, found, create)
    try:
        conn = _connect(_uri(str(Path(path).absolute()), "rw"), waiting, path)
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
        if "not a database" in str(e) or "malformed" in str(e):
            raise StorageError(_("{path} is not a boston-ledger database ({e}); give --db another file", path=path, e=e)) from None
        raise StorageError(_("cannot use the ledger {path}: {e}; check that the file and its folder are writable", path=path, e=e)) from None
    return conn, result, done


def _prepare(conn: Ledger, path: Path, found: Found, create: bool,
             first: Callable[[Ledger], T] | None) -> tuple[bool, T | None]:
    """Settings of every open; a ledger of an earlier version migrated, a blank file made a
    ledger, each under the write lock and looked at again there."""
    app = conn.execute("PRAGMA application_id").fetchone()[0]
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if app == APPLICATION_ID and version == SCHEMA_VERSION:  # a ledger of this version: the usual case
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
            kind = schema.recognise(conn)
            _refuse(path, Found(kind.what, kind.version), create)
            if kind.what != "ours" or kind.version < SCHEMA_VERSION:
                schema.migrate(conn)
            result = first(conn) if first is not None else None
            if unkeyed and conn.execute("PRAGMA foreign_key_check").fetchone() is not None:
                raise schema.Unrepairable(_("a row refers to one that is not there"))
            _commit(conn)
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    except schema.Unrepairable as e:
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
    """A new ledger, with what `first` writes, made in memory and then put at `path` whole (its
    own folders made for it, readable by the owner only); FileExistsError if something is at
    `path` by then. On any failure nothing is left."""
    made = _folders(path.parent)
    try:
        memory = _connect(":memory:")
        try:
            memory.execute("BEGIN IMMEDIATE")
            try:
                schema.migrate(memory)
                result = first(memory) if first is not None else None
                memory.execute("COMMIT")
            except BaseException:
                if memory.in_transaction:
                    memory.execute("ROLLBACK")
                raise
            image = bytearray(memory.serialize())
        finally:
            memory.close()
        image[18] = image[19] = 2  # in WAL mode, as `PRAGMA journal_mode = WAL` marks a file
        _write_new(path, bytes(image))
    except BaseException:
        for folder in reversed(made):  # the folders made for a ledger that did not come to be
            try:
                folder.rmdir()
            except OSError:
                break
        raise
    _committed()
    return result


def _folders(folder: Path) -> list[Path]:
    """Make the missing folders down to `folder`, each readable by the owner only; those made."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    made = []
    for f in reversed(missing):
        try:
            f.mkdir(mode=0o700)
        except FileExistsError:  # made meanwhile by another boston-ledger
            continue
        except OSError as e:
            for m in reversed(made):
                m.rmdir()
            raise StorageError(_("cannot make the folder for the ledger {path}: {strerror}; give --db a path in a folder you can write", path=f, strerror=strerror(e))) from None
        made.append(f)
    return made


def _write_new(path: Path, image: bytes) -> None:
    """`image` as a new file at `path`, readable by the owner only, whole or not at all: written
    and synced first, then given its name, which fails with FileExistsError if anything has it."""
    try:
        directory = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as e:
        raise _unwritten(path, e) from None
    try:
        if not _link_unnamed(path, image, directory):
            _link_named(path, image)
        try:
            os.fsync(directory)  # the name too survives a power cut
        except OSError:
            pass
    finally:
        os.close(directory)


def _link_unnamed(path: Path, image: bytes, directory: int) -> bool:
    """Linux: the image in a file that has no name until it is whole (a process killed meanwhile
    leaves nothing at all); False where there are no such files."""
    try:
        fd = os.open(path.parent, os.O_TMPFILE | os.O_WRONLY, 0o600)
    except (AttributeError, OSError):
        return False
    try:
        _write_all(fd, image, path)
        try:
            os.link(f"/proc/self/fd/{fd}", path.name, dst_dir_fd=directory)
        except FileExistsError:
            raise
        except OSError:  # no /proc
            return False
        return True
    finally:
        os.close(fd)


def _link_named(path: Path, image: bytes) -> None:
    """Elsewhere: the image in a hidden temporary file beside `path`, linked to it when whole."""
    try:
        import tempfile  # here: only where a file cannot be made unnamed

        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".new")
    except OSError as e:
        raise _unwritten(path, e) from None
    try:
        try:
            _write_all(fd, image, path)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise
        except OSError as e:
            raise _unwritten(path, e) from None
    finally:
        os.unlink(tmp)


def _write_all(fd: int, data: bytes, path: Path) -> None:
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except OSError as e:
        raise _unwritten(path, e) from None


def _unwritten(path: Path, e: OSError) -> StorageError:
    return StorageError(_("cannot write the new ledger {path}: {strerror}; nothing was recorded",
                          path=path, strerror=strerror(e)))


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
    once."""
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
