"""Where the ledger lives, opening it (checked and migrated), and write transactions."""

from __future__ import annotations

import os
import sqlite3
import sys
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from ..core.errors import LedgerError
from ..core.i18n import _, strerror
from .schema import SCHEMA_VERSION, migrate

APP_NAME = "boston-ledger"
MAX_CHIPS = 2**62  # SQLite INTEGER holds 2**63 - 1; sums of a session's transfers must fit too


class StorageError(LedgerError):
    """A database that cannot be used as it is."""


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
    """--db, else $BOSTON_LEDGER_DB, else the app directory's ledger."""
    chosen = db or os.environ.get("BOSTON_LEDGER_DB")
    return Path(chosen).expanduser() if chosen else default_path()


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def open_db(path: Path, create: bool = False) -> sqlite3.Connection:
    """Open the ledger, migrating it if needed. Without `create`, a missing file is an error."""
    if not path.exists():
        if not create:
            raise StorageError(
                _("no ledger at {path} yet; start a session with `boston-ledger new NAME NAME NAME NAME`", path=path)
            )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StorageError(_("cannot make the folder for the ledger {path}: {strerror}; give --db a path in a folder you can write", path=path, strerror=strerror(e))) from None
    elif path.is_dir():
        raise StorageError(_("{path} is a folder, not a ledger file; give --db a file path", path=path))
    conn = sqlite3.connect(path, timeout=60, isolation_level=None)
    try:
        _prepare(conn, path, create)
    except BaseException as e:
        conn.close()  # lets SQLite tidy its -wal and -shm files away
        if not isinstance(e, sqlite3.DatabaseError):
            raise
        if "not a database" in str(e) or "malformed" in str(e):
            raise StorageError(_("{path} is not a boston-ledger database ({e}); give --db another file", path=path, e=e)) from None
        raise StorageError(_("cannot use the ledger {path}: {e}; check that the file and its folder are writable", path=path, e=e)) from None
    return conn


def _prepare(conn: sqlite3.Connection, path: Path, create: bool) -> None:
    """Settings of every open, the schema checked and migrated; StorageError if it is not ours."""
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StorageError(_("{path} was written by a newer boston-ledger (schema {version}, this one knows {SCHEMA_VERSION}); upgrade boston-ledger to use it", path=path, version=version, SCHEMA_VERSION=SCHEMA_VERSION))
    if version == 0:
        if conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]:
            raise StorageError(_("{path} is an SQLite database of something else, not a boston-ledger database; give --db another file", path=path))
        if not create:
            raise StorageError(_("no ledger in {path} yet; start a session with `boston-ledger new NAME NAME NAME NAME`", path=path))
    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    if version < SCHEMA_VERSION:
        migrate(conn)


def open_read_only(path: Path) -> sqlite3.Connection:
    """Open the ledger for reading only (SQLite `mode=ro`): nothing through this connection can
    write, not even a migration. The ledger must exist and be of this version."""
    if not path.is_file():
        raise StorageError(_("no ledger at {path} yet; start a session with `boston-ledger new NAME NAME NAME NAME`", path=path))
    from urllib.parse import quote

    conn = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, timeout=60,
                           isolation_level=None, check_same_thread=False)
    try:
        conn.row_factory = sqlite3.Row
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as e:
        conn.close()
        raise StorageError(_("{path} is not a boston-ledger database ({e}); give --db another file", path=path, e=e)) from None
    if version != SCHEMA_VERSION:
        conn.close()
        raise StorageError(_("{path} is not a boston-ledger database of this version; run `boston-ledger status --db {path}` once to bring it up to date", path=path))
    return conn


def data_version(conn: sqlite3.Connection) -> int:
    """SQLite's count that moves whenever another connection commits to the file."""
    return conn.execute("PRAGMA data_version").fetchone()[0]


@contextmanager
def writing(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction, taken before reading so that a read-check-write cannot race."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


@contextmanager
def reading(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One read transaction: everything read inside it comes from the same moment of the ledger."""
    conn.execute("BEGIN")
    try:
        yield conn
    finally:
        conn.execute("COMMIT")
