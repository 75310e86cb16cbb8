"""A ledger written by hand, read only through plain SELECTs (`boston-ledger import --salvage`):
nothing of its schema runs. Each table of an evening's history, and the payments, is read by its
columns' names, and only when the file holds it as a plain table (sqlite_master says `table`, and
not a virtual one, whose module would run): a view in its place is never read. The rows are
written into a clean ledger made for them (`stage`), without their transfers, which the replay
writes again with every standing deal's balances (a deal undone or superseded keeps its own, as
kept there, when they are a list of whole numbers: nothing counts them, and they say, as at
import, that the evening is the same one).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import uuid
from pathlib import Path
from typing import Any, NamedTuple

from ..core.i18n import _
from . import StorageError
from .db import Ledger, bound, interrupted
from .identify import uri
from .merge import HISTORY

# What is read, in the order it is written (a row's parents first); transfers never: they are played again
READ = ("sessions", "evening_ids", "players", "corrections", "deals", "undos", "supersessions", "reopenings",
        "settlements", "extensions", "seatings", "seating_undos", "payments", "payment_cancellations")
NEEDED = ("sessions", "players", "deals")  # without these there is no evening to salvage


class Plain(NamedTuple):
    """What a ledger written by hand holds, read plainly: each table's columns and rows, and a
    line for each table that was not read."""

    tables: dict[str, tuple[tuple[str, ...], list[tuple[Any, ...]]]]
    skipped: list[str]


def read_plainly(path: Path, ours: sqlite3.Connection) -> Plain:
    """The rows of the ledger at `path` (opened read-only), of the tables `ours` has, by the columns
    both have: a SELECT of named columns from each table that is a plain table there."""
    where = str(Path(path).absolute())
    try:
        conn = sqlite3.connect(uri(where, "ro"), uri=True, isolation_level=None, factory=Ledger)
    except sqlite3.Error as e:
        raise StorageError(_("cannot read {path}: {e}", path=path, e=e)) from None
    bound(conn, path)
    try:
        conn.execute("PRAGMA query_only = ON")
        kinds = {str(name).lower(): "virtual table" if kind == "table" and virtual else kind for name, kind, virtual in
                 conn.execute("SELECT name, type, upper(ltrim(sql)) LIKE 'CREATE VIRTUAL%' FROM sqlite_master"
                              " WHERE type IN ('table', 'view')")}
        tables: dict[str, tuple[tuple[str, ...], list[tuple[Any, ...]]]] = {}
        skipped = []
        for name in READ:
            kind = kinds.get(name)
            if kind != "table":
                if kind is not None or name in NEEDED:
                    skipped.append(_("{table} is not a plain table in {path} ({kind}); it was not read",
                                     table=name, path=path, kind=kind or _("missing")))
                continue
            there = {r[1] for r in conn.execute(f"PRAGMA table_info({name})")}
            columns = tuple(c for c in (r[1] for r in ours.execute(f"PRAGMA table_info({name})")) if c in there)
            key = "deal_id" if name in ("undos", "supersessions") else "payment_id" \
                if name == "payment_cancellations" else "seating_id" if name == "seating_undos" \
                else "session_id" if name == "evening_ids" else "id"
            rows = conn.execute(f"SELECT {', '.join(columns)} FROM main.{name} ORDER BY {key}").fetchall()
            tables[name] = (columns, [tuple(r) for r in rows])
    except sqlite3.DatabaseError as e:
        if interrupted(e):
            raise KeyboardInterrupt from None
        raise StorageError(_("cannot read {path}: {e}", path=path, e=e)) from None
    finally:
        conn.close()
    missing = [n for n in NEEDED if n not in tables]
    if missing:
        raise StorageError(skipped[0] + _("; nothing can be salvaged without it"))
    return Plain(tables, skipped)


def identity(session: tuple[Any, ...], players: list[tuple[Any, ...]]) -> str:
    """An evening's identity when the file keeps none: told by its session row and its players, so
    that salvaging the same file twice brings it once."""
    return uuid.UUID(bytes=hashlib.sha256(json.dumps([session, players], default=str).encode()).digest()[:16]).hex


def stage(conn: sqlite3.Connection, plain: Plain) -> tuple[list[str], list[tuple[int, int]]]:
    """The plain rows written into `conn`, a new, empty ledger, under their own numbers, with
    foreign keys and the history's triggers off (the caller puts them back); a line for each row
    that does not fit its column; and for a deal's, its evening and its number there (the evening
    stops there: `cut`)."""
    said = []
    cuts: list[tuple[int, int]] = []
    for name in READ:
        if name not in plain.tables:
            continue
        columns, rows = plain.tables[name]
        insert = f"INSERT INTO {name} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        for row in rows:
            try:
                conn.execute(insert, row)
            except sqlite3.Error as e:
                if interrupted(e):
                    raise
                values = dict(zip(columns, row, strict=True))
                if name == "deals" and "session_id" in values:
                    said.append(_("session {session} there stops before deal {number}: that row does not fit "
                                  "({e})", session=values["session_id"], number=values.get("number"), e=e))
                    cuts.append((values["session_id"], values.get("id") or 0))
                else:
                    said.append(_("a row of {table} there was left out: it does not fit ({e})", table=name, e=e))
    have = {r[0] for r in conn.execute("SELECT session_id FROM evening_ids")}
    for (session_id, *session) in conn.execute("SELECT * FROM sessions ORDER BY id").fetchall():
        if session_id not in have:
            players = conn.execute("SELECT seat, name FROM players WHERE session_id = ? ORDER BY seat",
                                   (session_id,)).fetchall()
            conn.execute("INSERT INTO evening_ids (session_id, identity) VALUES (?, ?)",
                         (session_id, identity(tuple(session), [tuple(p) for p in players])))
    return said, cuts


def cut(conn: sqlite3.Connection, session_id: int, deal_id: int) -> None:
    """An evening stopped at a deal: that deal and every later row of its deals, corrections,
    undos and changes of the table gone, and its settlements and reopenings (it comes in open)."""
    later = "(SELECT id FROM deals WHERE session_id = ? AND id >= ?)"
    gone_corrections = f"(SELECT id FROM corrections WHERE session_id = ? AND old_deal IN {later})"
    args = (session_id, session_id, deal_id)
    conn.execute(f"DELETE FROM supersessions WHERE deal_id IN {later} OR correction_id IN {gone_corrections}",
                 (session_id, deal_id, *args))
    conn.execute(f"DELETE FROM undos WHERE deal_id IN {later}", (session_id, deal_id))
    conn.execute(f"DELETE FROM deals WHERE session_id = ? AND (id >= ? OR correction_id IN {gone_corrections})",
                 (session_id, deal_id, *args))
    conn.execute("DELETE FROM corrections WHERE session_id = ? AND old_deal NOT IN (SELECT id FROM deals)",
                 (session_id,))
    conn.execute("DELETE FROM settlements WHERE session_id = ?", (session_id,))
    conn.execute("DELETE FROM reopenings WHERE session_id = ?", (session_id,))


def forget(conn: sqlite3.Connection, session_id: int) -> None:
    """An evening that cannot be salvaged at all, gone from the staging ledger."""
    for name in reversed(HISTORY):
        if name in ("transfers",):
            continue
        if name in ("undos", "supersessions"):
            conn.execute(f"DELETE FROM {name} WHERE deal_id IN (SELECT id FROM deals WHERE session_id = ?)",
                         (session_id,))
        elif name == "seating_undos":
            conn.execute("DELETE FROM seating_undos WHERE seating_id IN (SELECT id FROM seatings"
                         " WHERE session_id = ?)", (session_id,))
        elif name == "sessions":
            conn.execute("DELETE FROM sessions WHERE id = ?", (session_id,))
        else:
            conn.execute(f"DELETE FROM {name} WHERE session_id = ?", (session_id,))


def unkept(conn: sqlite3.Connection, session_id: int) -> None:
    """Balances kept with an evening's deals that are not a list of whole numbers (and a basket
    not a whole number) dropped: the replay writes the standing deals' again."""
    conn.execute("UPDATE deals SET balances = NULL, basket = NULL WHERE session_id = ? AND NOT ("
                 " typeof(basket) = 'integer' AND json_valid(balances) AND json_type(balances) = 'array'"
                 " AND NOT EXISTS (SELECT 1 FROM json_each(balances) WHERE type != 'integer'))", (session_id,))


def set_result(conn: sqlite3.Connection, session_id: int, result: str) -> None:
    """The last settlement of an evening, as the replay settles it."""
    conn.execute("UPDATE settlements SET result = ? WHERE id = (SELECT MAX(id) FROM settlements"
                 " WHERE session_id = ?)", (result, session_id))


def write_replay(conn: sqlite3.Connection, deal_id: int, number: int,
                 transfers: list[tuple[int | None, int | None, int, str]], balances: tuple[int, ...],
                 basket: int) -> None:
    """A standing deal's number, its transfers and the balances after it, as the engine played them."""
    conn.executemany("INSERT INTO transfers (deal_id, payer, payee, chips, reason) VALUES (?, ?, ?, ?, ?)",
                     [(deal_id, *t) for t in transfers])
    conn.execute("UPDATE deals SET number = ?, balances = ?, basket = ? WHERE id = ?",
                 (number, json.dumps(list(balances)), basket, deal_id))


def dangling(conn: sqlite3.Connection) -> set[str]:
    """Rows that refer to rows not there, taken away (and those that referred to them, in turn; a
    deal's evening stopped there: `cut`); the tables they were in."""
    tables: set[str] = set()
    while found := conn.execute("PRAGMA foreign_key_check").fetchall():
        table, rowid = found[0][0], found[0][1]
        tables.add(table)
        if table == "deals":  # its evening stops there
            cut(conn, conn.execute("SELECT session_id FROM deals WHERE id = ?", (rowid,)).fetchone()[0], rowid)
        else:
            conn.execute(f"DELETE FROM {table} WHERE rowid = ?", (rowid,))
    return tables


def strays(conn: sqlite3.Connection, session_id: int, seats: int) -> int:
    """An evening's players who never sat at its table of `seats` (no seat of theirs, no change of
    the table seats them) taken away; how many."""
    return conn.execute("DELETE FROM players WHERE session_id = ? AND seat >= ? AND id NOT IN"
                        " (SELECT sitter FROM seatings WHERE session_id = ?)",
                        (session_id, seats, session_id)).rowcount
