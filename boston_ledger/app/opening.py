"""The ledger a command works on: where the command line says it is, opened (or made, with the
first thing written into it), and closed when the command is done."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from ..store import db
from ..store.db import Ledger, Waiting

T = TypeVar("T")
_opened: list[Ledger] = []  # the connections a command opened, closed when it ends (close_all)


def path(given: str | None) -> Path:
    """The ledger's path: `--db`, else $BOSTON_LEDGER_DB, else the app directory's ledger.db."""
    return db.resolve_path(given)


def connect(given: str | None, waiting: Waiting | None = None) -> Ledger:
    """The ledger at `path(given)`, checked and migrated; an error when there is none yet."""
    conn = db.open_db(path(given), waiting=waiting)
    _opened.append(conn)
    return conn


def create(given: str | None, first: Callable[[Ledger], T], waiting: Waiting | None = None) -> T:
    """`first(conn)` written into the ledger at `path(given)`, which is made with it when there is
    none (both appear at once, or nothing does). What `first` returned."""
    done = db.create_ledger(path(given), first, waiting=waiting)
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
