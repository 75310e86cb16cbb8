"""Evenings carried from another ledger (`boston-ledger import`): every row of an evening's history
read as the other ledger holds it, told apart from this ledger's by what it says (its rows, numbers
aside), and written here under new numbers, pointing at one another as they did there.

Which tables hold an evening's history, and which of their columns point at which rows, is read
from the schema itself (its foreign keys), so that a table or column a later migration adds comes
along without a word here. Players' names are written as this ledger writes them (`rename`).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NamedTuple

from ..core.i18n import _
from . import StorageError
from .db import now
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


Rows = dict[str, list[tuple[Any, ...]]]  # an evening's rows by table, in the order of their keys


class History(NamedTuple):
    """One evening as a ledger holds it: its session's number, its identity, and its rows."""

    session: int
    identity: str
    rows: Rows


def histories(conn: sqlite3.Connection, session_ids: Iterable[int] | None = None) -> dict[int, History]:
    """Every standing evening of the ledger (the demonstration's and those of undone imports aside),
    or those of `session_ids`, with all of their rows: a few queries, whatever the number of
    evenings."""
    shape = tables(conn)
    wanted = None if session_ids is None else set(session_ids)
    ids = [r[0] for r in conn.execute(f"SELECT id FROM sessions WHERE demo = 0 AND id NOT IN {WITHDRAWN} ORDER BY id")
           if wanted is None or r[0] in wanted]
    keep = set(ids)
    found: dict[int, Rows] = {i: {t: [] for t in HISTORY} for i in ids}
    for name, table in shape.items():
        cols = ", ".join(f"t.{c}" for c in table.columns)
        if name == "sessions":
            sql = f"SELECT t.id, {cols} FROM sessions t"
        elif name in THROUGH:
            via, parent = THROUGH[name]
            sql = f"SELECT p.session_id, {cols} FROM {name} t JOIN {parent} p ON p.id = t.{via}"
        else:
            sql = f"SELECT t.session_id, {cols} FROM {name} t"
        for row in conn.execute(sql + f" ORDER BY t.{table.key}"):
            if row[0] in keep:
                found[row[0]][name].append(tuple(row[1:]))
    identities: dict[int, str] = dict(conn.execute("SELECT session_id, identity FROM evening_ids"))
    return {i: History(i, identities.get(i, ""), found[i]) for i in ids}


def identities(conn: sqlite3.Connection) -> dict[str, int]:
    """The standing evenings' numbers by their identities (the demonstration's aside)."""
    return dict(conn.execute(
        f"SELECT e.identity, e.session_id FROM evening_ids e JOIN sessions s ON s.id = e.session_id"
        f" WHERE s.demo = 0 AND s.id NOT IN {WITHDRAWN}"))


Rename = Callable[[str], str]


def rename_rows(shape: Mapping[str, Table], rows: Rows, rename: Rename) -> Rows:
    """The rows with every player's name as `rename` writes it: the players' own, and the names a
    settlement keeps."""
    out = dict(rows)
    players, settlements = shape["players"], shape["settlements"]
    at = players.columns.index("name")
    out["players"] = [(*r[:at], rename(r[at]), *r[at + 1:]) for r in rows["players"]]
    at = settlements.columns.index("result")
    out["settlements"] = [(*r[:at], _renamed_result(r[at], rename), *r[at + 1:]) for r in rows["settlements"]]
    return out


def _renamed_result(text: Any, rename: Rename) -> Any:
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


def copy(conn: sqlite3.Connection, shape: Mapping[str, Table], evenings: Iterable[Rows]) -> list[int]:
    """The evenings' rows written into this ledger under new numbers (each table's after its
    largest), every reference made to point at the new rows; the new sessions' numbers. Inside the
    caller's transaction, whose references are checked as a whole before it commits
    (`check_references`)."""
    nxt = {name: conn.execute(f"SELECT COALESCE(MAX({t.key}), 0) FROM {name}").fetchone()[0] + 1
           for name, t in shape.items() if t.numbered}
    batches: dict[str, list[tuple[Any, ...]]] = {name: [] for name in shape}
    made = []
    for rows in evenings:
        new: dict[str, dict[Any, int]] = {}
        for name, t in shape.items():
            if t.numbered:
                k = t.columns.index(t.key)
                new[name] = {r[k]: nxt[name] + i for i, r in enumerate(rows[name])}
                nxt[name] += len(rows[name])
        made.append(next(iter(new["sessions"].values())))
        for name, t in shape.items():
            swap = [(t.columns.index(c), new[parent]) for c, parent in t.refs.items()]
            k = t.columns.index(t.key)
            for r in rows[name]:
                row = list(r)
                if t.numbered:
                    row[k] = new[name][r[k]]
                for i, numbers in swap:
                    if row[i] is not None:
                        row[i] = numbers[row[i]]
                batches[name].append(tuple(row))
    for name, t in shape.items():
        if batches[name]:
            conn.executemany(f"INSERT INTO {name} ({', '.join(t.columns)}) VALUES ({', '.join('?' * len(t.columns))})",
                             batches[name])
    return made


def check_references(conn: sqlite3.Connection) -> None:
    """Every row's references lead to rows that are there (foreign keys, checked at once)."""
    if conn.execute("PRAGMA foreign_key_check").fetchone() is not None:
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
