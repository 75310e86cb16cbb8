"""The ledger a command works on: where the command line says it is, opened (or made, with the
first thing written into it), and closed when the command is done; and, when a command fails in a
way no check foresaw, whether the ledger it read holds damaged rows (`damaged`)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..core.errors import LedgerError
from ..core.i18n import _, ngettext
from ..store import db
from ..store.db import Ledger, Slow, Waiting
from ..store.identify import Untrusted as Untrusted  # a ledger not opened: the command line's `check` lists why

T = TypeVar("T")
_opened: list[Ledger] = []  # the connections a command opened, closed when it ends (close_all)
_paths: list[Path] = []  # the ledgers the command opened (`damaged` looks at them)


def path(given: str | None) -> Path:
    """The ledger's path: `--db`, else $BOSTON_LEDGER_DB, else the app directory's ledger.db."""
    return db.resolve_path(given)


def connect(given: str | None, waiting: Waiting | None = None, slow: Slow | None = None) -> Ledger:
    """The ledger at `path(given)`, checked and migrated; an error when there is none yet. On a
    read-only file system it is opened for reading only (`conn.read_only`)."""
    where = path(given)
    conn = db.open_db(where, waiting=waiting, slow=slow)
    _opened.append(conn)
    _paths.append(where)
    return conn


def create(given: str | None, first: Callable[[Ledger], T], waiting: Waiting | None = None,
           slow: Slow | None = None) -> T:
    """`first(conn)` written into the ledger at `path(given)`, which is made with it when there is
    none (both appear at once, or nothing does). What `first` returned."""
    where = path(given)
    _paths.append(where)
    done = db.create_ledger(where, first, waiting=waiting, slow=slow)
    assert done is not None
    return done


def commits() -> int:
    """How many transactions this process has committed (after one, the command's work stands)."""
    return db.commits()


def close_all() -> None:
    """Close the connections the command opened: a command leaves no ledger open behind it (in a
    test's process, or a phone's server, the next one starts clean)."""
    while _opened:
        _opened.pop().close()


def starting() -> None:
    """A command begins: the ledgers of any earlier one (in this process) are none of its concern."""
    _paths.clear()


def damaged(where: Path | None = None) -> str | None:
    """When a command failed in a way no check of ours foresaw: whether a ledger it opened (or the
    one at `where`) holds damaged rows (`store.damage`), said in one line that points to `check`;
    None when none does (then the failure is a bug of ours)."""
    from ..store import damage

    paths = [where] if where is not None else _paths
    while paths:
        where = paths.pop()
        try:
            conn = db.open_read_only(where)
        except (LedgerError, sqlite3.Error):
            continue
        try:
            found = damage.scan(conn)
        except sqlite3.Error:
            continue
        finally:
            conn.close()
        if found:
            more = len(found) - 1
            return _("the ledger {path} is damaged: {first}{more}; nothing was recorded. `boston-ledger check --all` "
                     "lists what is wrong", path=where, first=found[0],
                     more=ngettext(" (and {n} more damaged row)", " (and {n} more damaged rows)", more) if more else "")
    return None


def failure(error: Exception, where: Path) -> str:
    """What the command line says of a failure of this kind (for `serve`, which answers a request
    with it): the error of a user's, the database's, a damaged ledger's, or a bug's."""
    if isinstance(error, LedgerError):
        return str(error)
    if isinstance(error, sqlite3.Error):
        return _("the ledger database failed: {error}; nothing was recorded", error=error)
    said = damaged(where)
    return said if said is not None else internal(error)


def internal(error: Exception) -> str:
    """What is said of a bug of ours: one line, and what was being written was rolled back."""
    return _("{prog}: internal error: {kind}: {error}. Please report it with the command you ran; "
             "`{prog} status` shows what is recorded.", prog="boston-ledger", kind=type(error).__name__, error=error)
