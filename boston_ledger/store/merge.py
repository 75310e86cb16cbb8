"""Evenings carried from another ledger (`boston-ledger import`): every row of an evening's history
as the other ledger holds it, told apart from this ledger's by what it says (its rows, numbers
aside), and written here under new numbers, pointing at one another as they did there.

Which tables hold an evening's history, and which of their columns point at which rows, is read
from the schema itself (its foreign keys), so that a column a later migration adds comes along
without a word here (a table, once named in BY_SESSION or THROUGH). Players' names are written as
this ledger writes them (`rename`), in a settlement's kept JSON too.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple

from ..core.i18n import _
from . import StorageError
from .db import now
from .identify import uri
from .read import WITHDRAWN, WITHDRAWN_PAYMENTS

# The tables of an evening's history, each with how its rows find their session: by their own
# `session_id`, through the deal or the change of the table they belong to, or (sessions) their id.
BY_SESSION = ("sessions", "evening_ids", "players", "deals", "corrections", "reopenings", "settlements",
              "extensions", "seatings")
THROUGH = {"transfers": ("deal_id", "deals"), "undos": ("deal_id", "deals"), "supersessions": ("deal_id", "deals"),
           "seating_undos": ("seating_id", "seatings")}
HISTORY = BY_SESSION + tuple(THROUGH)


class Table(NamedTuple):
    """A table of the history: its columns, the one that numbers its rows (`id`, or the column that
    points at the one row it belongs to), and the columns that point at rows of the history."""

    name: str
    columns: tuple[str, ...]
    key: str
    refs: dict[str, str]  # column: the table it points into

    @property
    def numbered(self) -> bool:
        """Whether its rows have numbers of their own (else its key is a row of another table's)."""
        return self.key not in self.refs


def tables(conn: sqlite3.Connection) -> dict[str, Table]:
    """The history's tables as the ledger's schema declares them."""
    out = {}
    for name in HISTORY:
        info = conn.execute(f"PRAGMA table_info({name})").fetchall()
        columns = tuple(r[1] for r in info)
        key = next(r[1] for r in info if r[5] == 1)
        refs = {r[3]: r[2] for r in conn.execute(f"PRAGMA foreign_key_list({name})") if r[2] in HISTORY}
        out[name] = Table(name, columns, key, refs)
    return out


def identities(conn: sqlite3.Connection) -> dict[str, int]:
    """The standing evenings' numbers by their identities (the demonstration's aside)."""
    return dict(conn.execute(
        f"SELECT e.identity, e.session_id FROM evening_ids e JOIN sessions s ON s.id = e.session_id"
        f" WHERE s.demo = 0 AND s.id NOT IN {WITHDRAWN}"))


Rename = Callable[[str], str]


def _renamed_result(text: Any, rename: Rename) -> Any:
    """A settlement's kept JSON with every name as `rename` writes it."""
    try:
        kept = json.loads(text)
        for part in ("net_chips", "money"):
            kept[part] = {rename(n): v for n, v in kept[part].items()}
        for p in kept["payments"]:
            p["from"], p["to"] = rename(p["from"]), rename(p["to"])
    except (TypeError, ValueError, KeyError, AttributeError):
        return text  # damaged: carried as it is (the replay does not read it)
    return json.dumps(kept, ensure_ascii=False)


Said = dict[str, list[tuple[Any, ...]]]  # what an evening's rows say, by table (`sayings`)
UNSAID = ("evening_ids", "transfers")  # the identity is what matched; transfers follow from the deals


def said_columns(t: Table) -> list[str]:
    """The columns of a table whose values say something of an evening (`sayings`), in order."""
    return [c for c in t.columns if not ((t.numbered and c == t.key) or t.refs.get(c) == "sessions"
                                         or (t.name, c) == ("sessions", "tariff_text"))]


def sayings(conn: sqlite3.Connection, rename: Rename | None = None) -> dict[int, Said]:
    """What each standing evening's rows say, their numbers aside (the demonstration's and those of
    undone imports aside): each row without its own number, a row it points at as that row's place
    among its evening's rows of its table; a tariff by its digest; with names as `rename` writes them.
    Equal for the same evening in two ledgers. Told by SQLite, a query a table."""
    shape = tables(conn)
    ids = {r[0] for r in conn.execute(f"SELECT id FROM sessions WHERE demo = 0 AND id NOT IN {WITHDRAWN}")}
    out: dict[int, Said] = {i: {name: [] for name in shape if name not in UNSAID} for i in ids}
    for name, t in shape.items():
        if name in UNSAID:
            continue
        columns, joins = [], []
        for c in said_columns(t):
            parent = t.refs.get(c)
            if parent is None:
                columns.append(f"t.{c}")
                continue
            joins.append(f" LEFT JOIN (SELECT id, row_number() OVER (PARTITION BY session_id ORDER BY id) AS o"
                         f" FROM {parent}) o_{c} ON o_{c}.id = t.{c}")
            columns.append(f"o_{c}.o")
        if name == "sessions":
            head = "SELECT t.id"
        elif name in THROUGH:
            via, parent = THROUGH[name]
            head = "SELECT p.session_id"
            joins.insert(0, f" JOIN {parent} p ON p.id = t.{via}")
        else:
            head = "SELECT t.session_id"
        at = [i for i, c in enumerate(columns) if (name, c) in (("players", "t.name"), ("settlements", "t.result"))]
        for row in conn.execute(f"{head}, {', '.join(columns) or 'NULL'} FROM {name} t{''.join(joins)}"
                                f" ORDER BY t.{t.key}"):
            said = out.get(row[0])
            if said is None:
                continue
            values = row[1:]
            if rename is not None and at:
                i = at[0]
                renamed = rename(values[i]) if name == "players" else _renamed_result(values[i], rename)
                values = (*values[:i], renamed, *values[i + 1:])
            said[name].append(tuple(values))
    return out


@contextmanager
def attached(conn: sqlite3.Connection, path: Path) -> Iterator[None]:
    """The ledger at `path` attached to `conn` as `other`, read-only (outside a transaction), for
    `copy` to read it in SQLite; detached afterwards."""
    conn.execute("ATTACH DATABASE ? AS other", (uri(str(Path(path).absolute()), "ro"),))
    try:
        yield
    finally:
        conn.execute("DETACH DATABASE other")


def copy(conn: sqlite3.Connection, shape: Mapping[str, Table], sessions: Sequence[int],
         renamed: Mapping[str, str]) -> list[int]:
    """The evenings `sessions` of the ledger attached as `other` (`attached`), every row of their
    history, written into this one under new numbers (each table's after its largest, in the order
    they had there), every reference made to point at the new rows, players' names written as
    `renamed` says; the new sessions' numbers. In SQLite, a statement a table, inside the caller's
    transaction, whose references are checked as a whole before it commits (`check_references`)."""
    pointed = {parent for t in shape.values() for parent in t.refs.values()}  # the tables other rows point into
    for name in shape:
        conn.execute(f"DROP TABLE IF EXISTS temp.new_{name}")
        conn.execute(f"CREATE TEMP TABLE new_{name} (old INTEGER PRIMARY KEY, new INTEGER NOT NULL)")
    conn.execute("DROP TABLE IF EXISTS temp.new_names")
    conn.execute("CREATE TEMP TABLE new_names (old TEXT PRIMARY KEY, new TEXT NOT NULL)")
    conn.executemany("INSERT INTO temp.new_names VALUES (?, ?)", renamed.items())
    top = conn.execute("SELECT COALESCE(MAX(id), 0) FROM main.sessions").fetchone()[0]
    made = [top + 1 + i for i in range(len(sessions))]
    conn.executemany("INSERT INTO temp.new_sessions VALUES (?, ?)", zip(sessions, made, strict=True))
    for name in [*BY_SESSION, *THROUGH]:  # a row's evening: its session's, or its parent's (mapped first)
        t = shape[name]
        if name == "sessions" or not t.numbered or name not in pointed:  # no row points at it: numbered as copied
            continue
        via, parent = THROUGH.get(name, ("session_id", "sessions"))
        top = conn.execute(f"SELECT COALESCE(MAX({t.key}), 0) FROM main.{name}").fetchone()[0]
        conn.execute(f"INSERT INTO temp.new_{name} SELECT t.{t.key}, {int(top)} + row_number() OVER"
                     f" (ORDER BY t.{t.key}) FROM other.{name} t"
                     f" WHERE t.{via} IN (SELECT old FROM temp.new_{parent})")
    for name, t in shape.items():
        # a table no row points at (transfers) needs no mapping of its own: its rows are found through their
        # parent's, and SQLite numbers them after its largest, in the order of the SELECT
        direct = t.numbered and name != "sessions" and name not in pointed
        via, parent = THROUGH.get(name, ("session_id", "sessions"))
        mapped, on = (parent, via) if direct else (name, t.key) if t.numbered else (t.refs[t.key], t.key)
        values, joins = [], [f" JOIN temp.new_{mapped} m ON m.old = t.{on}"]
        for c in t.columns:
            if c == t.key and t.numbered:
                values.append("NULL" if direct else "m.new")
            elif c == on:
                values.append("m.new")
            elif c in t.refs:  # a join, not a subquery a row: SQLite steps through transfers by the hundred thousand
                values.append(f"r_{c}.new")
                joins.append(f" LEFT JOIN temp.new_{t.refs[c]} r_{c} ON r_{c}.old = t.{c}")
            elif (name, c) == ("players", "name"):
                values.append("COALESCE(r_name.new, t.name)")
                joins.append(" LEFT JOIN temp.new_names r_name ON r_name.old = t.name")
            else:
                values.append(f"t.{c}")
        select = f"SELECT {', '.join(values)} FROM other.{name} t{''.join(joins)} ORDER BY t.{t.key}"
        if name == "settlements":  # the names a settlement keeps, in its JSON
            at = t.columns.index("result")
            rows = [(*r[:at], _renamed_result(r[at], lambda n: renamed.get(n, n)), *r[at + 1:])
                    for r in conn.execute(select)]
            conn.executemany(f"INSERT INTO main.{name} ({', '.join(t.columns)})"
                             f" VALUES ({', '.join('?' * len(t.columns))})", rows)
        else:
            conn.execute(f"INSERT INTO main.{name} ({', '.join(t.columns)}) {select}")
    for name in [*shape, "names"]:
        conn.execute(f"DROP TABLE temp.new_{name}")
    return made


def check_references(conn: sqlite3.Connection) -> None:
    """Every row's references lead to rows that are there (foreign keys, checked at once)."""
    if conn.execute("PRAGMA main.foreign_key_check").fetchone() is not None:
        raise StorageError(_("a row brought in refers to one that is not there; nothing was imported"))


# ---- the record of imports ----------------------------------------------------------------------


class Brought(NamedTuple):
    """An import as recorded: what it brought, from where, when, and when it was undone."""

    id: int
    source: str
    imported_at: str
    sessions: tuple[int, ...]
    payments: tuple[int, ...]
    aliases: tuple[tuple[str, str], ...]
    undone_at: str | None


def record_import(conn: sqlite3.Connection, source: str, sessions: Iterable[int], payments: Iterable[int],
                  aliases: Iterable[tuple[str, str]]) -> int:
    """An import, with what it brought and the spellings it joined (name there, name here)."""
    cur = conn.execute("INSERT INTO imports (source, imported_at) VALUES (?, ?)", (source, now()))
    assert cur.lastrowid is not None
    import_id = cur.lastrowid
    conn.executemany("INSERT INTO imported_sessions (session_id, import_id) VALUES (?, ?)",
                     [(s, import_id) for s in sessions])
    conn.executemany("INSERT INTO imported_payments (payment_id, import_id) VALUES (?, ?)",
                     [(p, import_id) for p in payments])
    conn.executemany("INSERT INTO import_aliases (import_id, name, same_as) VALUES (?, ?, ?)",
                     [(import_id, a, b) for a, b in aliases])
    return import_id


def record_undo(conn: sqlite3.Connection, import_id: int) -> None:
    conn.execute("INSERT INTO import_undos (import_id, undone_at) VALUES (?, ?)", (import_id, now()))


def imports(conn: sqlite3.Connection) -> list[Brought]:
    """Every import recorded, the earliest first."""
    sessions: dict[int, list[int]] = {}
    for s, i in conn.execute("SELECT session_id, import_id FROM imported_sessions ORDER BY session_id"):
        sessions.setdefault(i, []).append(s)
    payments: dict[int, list[int]] = {}
    for p, i in conn.execute("SELECT payment_id, import_id FROM imported_payments ORDER BY payment_id"):
        payments.setdefault(i, []).append(p)
    aliases: dict[int, list[tuple[str, str]]] = {}
    for i, a, b in conn.execute("SELECT import_id, name, same_as FROM import_aliases ORDER BY id"):
        aliases.setdefault(i, []).append((a, b))
    return [Brought(i, source, at, tuple(sessions.get(i, ())), tuple(payments.get(i, ())),
                    tuple(aliases.get(i, ())), undone)
            for i, source, at, undone in conn.execute(
                "SELECT m.id, m.source, m.imported_at, u.undone_at FROM imports m"
                " LEFT JOIN import_undos u ON u.import_id = m.id ORDER BY m.id")]


def standing_aliases(conn: sqlite3.Connection) -> list[tuple[str, str]]:
    """The spellings joined by imports not undone (name there, name here), the earliest first."""
    return [(a, b) for a, b in conn.execute(
        "SELECT a.name, a.same_as FROM import_aliases a WHERE a.import_id NOT IN (SELECT import_id FROM import_undos)"
        " ORDER BY a.id")]


class PaymentRow(NamedTuple):
    payer: str
    payee: str
    cents: int
    currency: str
    paid_at: str
    cancelled_at: str | None


def payment_rows(conn: sqlite3.Connection) -> dict[int, PaymentRow]:
    """Every standing payment (those of undone imports aside) by id, with when it was cancelled."""
    return {r[0]: PaymentRow(*r[1:]) for r in conn.execute(
        "SELECT p.id, p.payer, p.payee, p.cents, p.currency, p.paid_at, c.cancelled_at FROM payments p"
        f" LEFT JOIN payment_cancellations c ON c.payment_id = p.id WHERE p.id NOT IN {WITHDRAWN_PAYMENTS}"
        " ORDER BY p.id")}


def copy_payments(conn: sqlite3.Connection, rows: Iterable[PaymentRow]) -> list[int]:
    """Payments written here as they were recorded there (a cancelled one with its cancellation)."""
    made = []
    for p in rows:
        cur = conn.execute("INSERT INTO payments (payer, payee, cents, currency, paid_at) VALUES (?, ?, ?, ?, ?)",
                           p[:5])
        assert cur.lastrowid is not None
        made.append(cur.lastrowid)
        if p.cancelled_at is not None:
            conn.execute("INSERT INTO payment_cancellations (payment_id, cancelled_at) VALUES (?, ?)",
                         (cur.lastrowid, p.cancelled_at))
    return made
