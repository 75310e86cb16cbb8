"""Damaged rows: what a ledger changed by hand (or by a broken disk) can hold that no command of
boston-ledger writes, found row by row with plain SELECTs, each said in words with its table and
key. `check` lists them all; a command that fails on one is refused with a line pointing there.

Read only once the ledger's schema is trusted (`identify.strangers`): every table is then a
plain table of ours, with no view or trigger of anyone else's behind it.
"""

from __future__ import annotations

import json
import sqlite3
import weakref
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import NamedTuple

from ..core.errors import LedgerError
from ..core.i18n import _
from ..core.tariff import MISDEAL, PASS, Tariff
from ..core.tariff_files import parse
from .merge import BY_SESSION, THROUGH

MAX_NUMBER = 2**62  # every whole number of a ledger fits well within SQLite's (chips and their sums: db.MAX_CHIPS)
TRICKS = ("tricks", "partner_tricks", "team_tricks")  # a player's or a pair's tricks: 0 to the tariff's
AT_LEAST_ONE = {("deals", "number"), ("transfers", "chips"), ("payments", "cents"), ("sessions", "agreed_deals"),
                ("extensions", "deals"), ("seatings", "from_deal")}
JSON_LISTS = {("deals", "balances"), ("deals", "tricks_each")}  # of whole numbers
KEPT_SETTLEMENT = ("net_chips", "money", "payments")  # what a settlement's JSON keeps
TYPE_WORDS = {"INTEGER": "integer", "TEXT": "text"}


class Damage(NamedTuple):
    """A damaged row: its table, its key, and what is wrong with it, in words."""

    table: str
    key: str
    what: str

    def __str__(self) -> str:
        return _("{table} {key}: {what}", table=self.table, key=self.key, what=self.what)


# The rows of one session, table by table (`scan(session=...)`): what a command that works on an
# evening reads of it, found as an import finds an evening's history (merge.BY_SESSION, THROUGH).
# The payments are the ledger's, of no evening.
OF_SESSION = {**{t: "id = ?" if t == "sessions" else "session_id = ?" for t in BY_SESSION},
              **{t: f"{column} IN (SELECT id FROM {parent} WHERE session_id = ?)"
                 for t, (column, parent) in THROUGH.items()}}


def scan(conn: sqlite3.Connection, first: bool = False, session: int | None = None) -> list[Damage]:
    """Every damaged row of the ledger, or of one session's rows (with `first`, at most the first
    one found). A sound evening costs a few queries: the tables are looked at together, and once
    found sound it is not looked at again on the same connection until something is written."""
    moment = _moment(conn)
    try:
        sound = _SOUND.setdefault(conn, {})
    except TypeError:  # a plain connection (a file being imported or salvaged): looked at each time
        sound = {}
    if sound.get((first, session)) == moment:
        return []
    found = _scan(conn, first, session)
    if not found:
        sound[first, session] = moment
    return found


# What was found sound on a connection (a command reads its evening more than once), with the
# moment it was: this connection's changes, another's (data_version) and the schema's version.
_SOUND: weakref.WeakKeyDictionary[sqlite3.Connection, dict[tuple[bool, int | None], tuple[int, int, int]]] = \
    weakref.WeakKeyDictionary()


def _moment(conn: sqlite3.Connection) -> tuple[int, int, int]:
    """What changes when anything is written to the ledger, by this connection or any other."""
    row = conn.execute("SELECT * FROM pragma_data_version, pragma_schema_version").fetchone()
    return conn.total_changes, int(row[0]), int(row[1])


def _scan(conn: sqlite3.Connection, first: bool, session: int | None) -> list[Damage]:
    shape = _shape(conn)
    suspect = _suspects(conn, session, shape)
    checks: tuple[Callable[[], list[Damage]], ...] = (
        lambda: _types(conn, session, shape, suspect), lambda: _ranges(conn, session, shape, suspect),
        lambda: _references(conn, session, shape), lambda: _json(conn, session), lambda: _sessions(conn, session),
        lambda: _contracts(conn, session), lambda: _crossing(conn, session), lambda: _balances(conn, session))
    found: list[Damage] = []
    for check in checks:
        found += check()
        if first and found:
            return found[:1]
    return found


def _where(table: str, session: object | None) -> tuple[str, tuple[object, ...]] | None:
    """The condition that picks a table's rows of `session` (all of them without one); None for a
    table of no session."""
    if session is None:
        return "1", ()
    found = OF_SESSION.get(table)
    return None if found is None else (found, (session,))


class _Table(NamedTuple):
    """A table of the ledger: its columns (name, declared type, NOT NULL) and the rows it names
    (column, the table named, its key there)."""

    name: str
    columns: tuple[tuple[str, str, bool], ...]
    references: tuple[tuple[str, str, str], ...]


_SHAPES: dict[tuple[str, ...], tuple[_Table, ...]] = {}  # by the tables' definitions: read once per schema


def _shape(conn: sqlite3.Connection) -> tuple[_Table, ...]:
    """The ledger's tables, with their columns and references, in the order they were made."""
    rows = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite^_%'"
                        " ESCAPE '^' AND name != '_sqlite_migrations' ORDER BY rowid").fetchall()
    key = tuple(f"{name}\0{sql}" for name, sql in rows)
    found = _SHAPES.get(key)
    if found is None:
        found = tuple(_Table(name, tuple((r[1], str(r[2]).upper(), bool(r[3]))
                                         for r in conn.execute(f'PRAGMA table_info("{name}")')),
                             tuple((r[3], r[2], r[4] or "rowid")
                                   for r in conn.execute(f'PRAGMA foreign_key_list("{name}")')))
                      for name, __ in rows)
        if len(_SHAPES) < 16:  # a handful of schemas in a process (earlier ones, read before their migration)
            _SHAPES[key] = found
    return found


def _key(conn: sqlite3.Connection, table: str, rowid: object) -> str:
    """How a row is named: its id, and for a deal its number and session."""
    if table == "deals":
        row = conn.execute("SELECT number, session_id FROM deals WHERE rowid = ?", (rowid,)).fetchone()
        if row is not None and type(row[0]) is int and type(row[1]) is int:
            return _("id {id} (deal {number} of session {session})", id=rowid, number=row[0], session=row[1])
    return _("id {id}", id=rowid)


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _bounds(table: str, column: str) -> tuple[int, int]:
    """The range of a whole number of the ledger."""
    if column in TRICKS and table == "deals":
        return 0, 13  # every tariff's tricks (the turned card's deal too)
    return (1 if (table, column) in AT_LEAST_ONE else -MAX_NUMBER), MAX_NUMBER


def _suspects(conn: sqlite3.Connection, session: int | None, shape: tuple[_Table, ...]) -> set[str]:
    """The tables with a row (of the scope) holding a value of the wrong type, a NULL where none
    goes, or a number out of range: one query for them all, so that a sound ledger costs one look."""
    sql, ids = _suspects_query(shape, session is not None)
    return {r[0] for r in conn.execute(sql, (session,) * ids)} if sql else set()


_SESSION = object()  # the session a query is written for, whose id is bound each time it runs


def _literal(value: str | int) -> str:
    """A name of the trusted schema, a type's name or a bound, written into a query: SQLite prepares
    a query of some 150 conditions a third faster with its constants written than with them bound."""
    return str(value) if isinstance(value, int) else "'" + value.replace("'", "''") + "'"


@lru_cache(maxsize=16)
def _suspects_query(shape: tuple[_Table, ...], of_session: bool) -> tuple[str, int]:
    """`_suspects`' query, written once per schema, and how many times it takes the session's id."""
    parts: list[str] = []
    ids = 0
    for table in shape:
        scope = _where(table.name, _SESSION if of_session else None)
        tests: list[str] = []
        for column, kind, not_null in table.columns:
            typed = TYPE_WORDS.get(kind)
            if typed is None:
                continue
            tests.append(f'typeof("{column}") NOT IN ({_literal(typed)}, \'null\')'
                         + (f' OR "{column}" IS NULL' if not_null else ""))
            if kind == "INTEGER":
                low, high = _bounds(table.name, column)
                tests.append(f'(typeof("{column}") = \'integer\' AND "{column}" NOT BETWEEN {low} AND {high})')
        if scope is None or not tests:
            continue
        parts.append(f'SELECT * FROM (SELECT {_literal(table.name)} FROM "{table.name}" WHERE ({scope[0]})'
                     f' AND ({" OR ".join(tests)}) LIMIT 1)')
        ids += len(scope[1])
    return " UNION ALL ".join(parts), ids


def _types(conn: sqlite3.Connection, session: int | None, shape: tuple[_Table, ...],
           suspect: set[str]) -> list[Damage]:
    """Values not of their column's type, and NULLs where a column holds none."""
    found = []
    for shaped in shape:
        table, scope = shaped.name, _where(shaped.name, session)
        if scope is None or table not in suspect:
            continue
        for column, kind, not_null in shaped.columns:
            typed = TYPE_WORDS.get(kind)
            if typed is None:
                continue
            for rowid, value, held in conn.execute(
                    f'SELECT rowid, "{column}", typeof("{column}") FROM "{table}" WHERE ({scope[0]})'
                    f' AND (typeof("{column}") NOT IN (?, \'null\') OR ("{column}" IS NULL AND ?))'
                    " ORDER BY rowid", (*scope[1], typed, not_null)):
                what = (_("{column} is empty, and must not be", column=column) if value is None else
                        _("{column} is {value} ({held}), not {kind}", column=column, value=_shown(value),
                          held=held, kind=typed))
                found.append(Damage(table, _key(conn, table, rowid), what))
    return found


def _ranges(conn: sqlite3.Connection, session: int | None, shape: tuple[_Table, ...],
            suspect: set[str]) -> list[Damage]:
    """Whole numbers out of their range: beyond what the ledger's sums can hold, tricks beyond 0 to 13,
    counts and numbers below 1."""
    found = []
    for shaped in shape:
        table, scope = shaped.name, _where(shaped.name, session)
        if scope is None or table not in suspect:
            continue
        for column, kind, __ in shaped.columns:
            if kind != "INTEGER":
                continue
            low, high = _bounds(table, column)
            for rowid, value in conn.execute(
                    f'SELECT rowid, "{column}" FROM "{table}" WHERE ({scope[0]}) AND typeof("{column}") = \'integer\''
                    f' AND "{column}" NOT BETWEEN ? AND ? ORDER BY rowid', (*scope[1], low, high)):
                found.append(Damage(table, _key(conn, table, rowid), _(
                    "{column} is {value}, out of its range ({low} to {high})", column=column, value=value,
                    low=low, high=high)))
    return found


def _references(conn: sqlite3.Connection, session: int | None, shape: tuple[_Table, ...]) -> list[Damage]:
    """Rows that name a row that is not there (a player, a deal, a session...): one query for them all."""
    sql, ids = _references_query(shape, session is not None)
    rows = conn.execute(sql, (session,) * ids).fetchall() if sql else []
    return [Damage(table, _key(conn, table, rowid), _("{column} {value} names a row of {parent} that is not there",
                                                      column=column, value=_shown(value), parent=parent))
            for __, table, column, parent, rowid, value in rows]


@lru_cache(maxsize=16)
def _references_query(shape: tuple[_Table, ...], of_session: bool) -> tuple[str, int]:
    """`_references`' query, written once per schema, and how many times it takes the session's id."""
    parts: list[str] = []
    ids = 0
    for table in shape:
        scope = _where(table.name, _SESSION if of_session else None)
        if scope is None:
            continue
        for column, parent, key in table.references:
            written = ", ".join(_literal(v) for v in (len(parts) + 1, table.name, column, parent))
            parts.append(f'SELECT {written}, t.rowid, t."{column}" FROM "{table.name}" t WHERE ({scope[0]})'
                         f' AND t."{column}" IS NOT NULL'
                         f' AND NOT EXISTS (SELECT 1 FROM "{parent}" p WHERE p."{key}" = t."{column}")')
            ids += len(scope[1])
    return (" UNION ALL ".join(parts) + " ORDER BY 1, 5") if parts else "", ids


def _json(conn: sqlite3.Connection, session: int | None) -> list[Damage]:
    """JSON that is not JSON, or not what it keeps: balances and tricks as lists of whole numbers, a
    settlement as its result."""
    found = []
    for table, column in sorted(JSON_LISTS):
        scope = _where(table, session) or ("0", ())
        for rowid, text in conn.execute(f'SELECT rowid, "{column}" FROM "{table}" WHERE ({scope[0]})'
                                        f' AND "{column}" IS NOT NULL ORDER BY rowid', scope[1]):
            value = _loaded(text)
            if type(value) is not list or any(type(v) is not int or abs(v) > MAX_NUMBER for v in value):
                found.append(Damage(table, _key(conn, table, rowid), _(
                    "{column} is {value}, not a list of whole numbers in JSON", column=column, value=_shown(text))))
    scope = _where("settlements", session) or ("0", ())
    for rowid, text in conn.execute(f"SELECT rowid, result FROM settlements WHERE ({scope[0]}) ORDER BY rowid",
                                    scope[1]):
        value = _loaded(text)
        if type(value) is not dict or any(type(value.get(k)) is not (list if k == "payments" else dict)
                                          for k in KEPT_SETTLEMENT):
            found.append(Damage("settlements", _key(conn, "settlements", rowid), _(
                "result is {value}, not a settlement kept in JSON", value=_shown(text))))
    return found


def _loaded(text: object) -> object:
    try:
        return json.loads(text) if type(text) is str else None
    except ValueError:
        return None


def _sessions(conn: sqlite3.Connection, session: int | None) -> list[Damage]:
    """A session's chip value that is no amount, its stored tariff that no longer reads, and a table
    that is not the tariff's: a seat empty, or a player beyond it who never sat down."""
    found = []
    scope = _where("sessions", session) or ("0", ())
    for rowid, value, text in conn.execute(
            f"SELECT rowid, chip_value, tariff_text FROM sessions WHERE ({scope[0]}) ORDER BY rowid", scope[1]):
        tariff = _tariff(rowid, text)
        try:
            amount = Decimal(value) if type(value) is str else None
        except InvalidOperation:
            amount = None
        if amount is None or not amount.is_finite() or amount < 0:
            found.append(Damage("sessions", _key(conn, "sessions", rowid), _(
                "chip_value is {value}, not an amount of money", value=_shown(value))))
        if tariff is None:
            found.append(Damage("sessions", _key(conn, "sessions", rowid),
                                _("tariff_text is not a tariff that boston-ledger reads")))
            continue
        seats = [r[0] for r in conn.execute("SELECT seat FROM players WHERE session_id = ? ORDER BY seat", (rowid,))]
        joined = conn.execute("SELECT COUNT(DISTINCT p.id) FROM players p JOIN seatings s ON s.sitter = p.id"
                              " WHERE p.session_id = ? AND p.seat >= ?", (rowid, tariff.players)).fetchone()[0]
        if seats[:tariff.players] != list(range(tariff.players)) or seats != list(range(len(seats))):
            found.append(Damage("sessions", _key(conn, "sessions", rowid), _(
                "its players sit in seats {seats}; the table has seats 0 to {last}", seats=seats,
                last=tariff.players - 1)))
        elif joined != len(seats) - tariff.players:
            found.append(Damage("sessions", _key(conn, "sessions", rowid), _(
                "{count} of its players never sat down at the table", count=len(seats) - tariff.players - joined)))
    return found


def _tariff(session_id: object, text: object) -> Tariff | None:
    """The session's stored tariff, None when it does not read."""
    return _read_tariff(text) if type(text) is str else None


@lru_cache(maxsize=32)
def _read_tariff(text: str) -> Tariff | None:
    """A stored tariff's text read once per process (every command scans its evening)."""
    try:
        return parse(text, origin="a stored tariff")
    except (LedgerError, ValueError, TypeError, RecursionError):
        return None


def _contracts(conn: sqlite3.Connection, session: int | None) -> list[Damage]:
    """Deals whose contract, rank or turned suit the session's tariff does not know."""
    found = []
    tariffs: dict[object, Tariff | None] = {}
    scope = _where("deals", session) or ("0", ())
    for rowid, session_id, contract, rank, turned in conn.execute(
            f"SELECT rowid, session_id, contract, rank, turned FROM deals WHERE ({scope[0]}) ORDER BY rowid",
            scope[1]):
        if session_id not in tariffs:
            row = conn.execute("SELECT tariff_text FROM sessions WHERE id = ?", (session_id,)).fetchone()
            tariffs[session_id] = None if row is None else _tariff(session_id, row[0])
        tariff = tariffs[session_id]
        if tariff is None:
            continue  # said with the session (or its reference)
        if contract not in (PASS, MISDEAL, *tariff.contracts):
            found.append(Damage("deals", _key(conn, "deals", rowid), _(
                "contract {value} is not one of the session's tariff", value=_shown(contract))))
        for column, value in (("rank", rank), ("turned", turned)):
            if value is not None and value not in tariff.ranks:
                found.append(Damage("deals", _key(conn, "deals", rowid), _(
                    "{column} {value} is not a rank of the session's tariff", column=column, value=_shown(value))))
    return found


def _crossing(conn: sqlite3.Connection, session: int | None) -> list[Damage]:
    """Rows of a session that point into another one (`audit.foreign_references`)."""
    from ..core.invariants import WHAT
    from .audit import foreign_references

    found = []
    scope = _where("sessions", session) or ("0", ())
    for (session_id,) in conn.execute(f"SELECT id FROM sessions WHERE ({scope[0]}) ORDER BY id", scope[1]).fetchall():
        for number, what, other in foreign_references(conn, session_id):
            found.append(Damage("deals", _("deal {number} of session {session}", number=number, session=session_id),
                                _("its {what} names a player or deal of session {other}", what=_(WHAT.get(what, what)),
                                  other="?" if other is None else other)))
    return found


def _balances(conn: sqlite3.Connection, session: int | None) -> list[Damage]:
    """Balances kept with a deal for fewer players than its table seats, or more than its session has."""
    found = []
    tables: dict[object, int | None] = {}
    scope = _where("deals", session) or ("0", ())
    for rowid, session_id, text, players in conn.execute(
            "SELECT d.rowid, d.session_id, d.balances,"
            " (SELECT COUNT(*) FROM players p WHERE p.session_id = d.session_id)"
            f" FROM deals d WHERE ({scope[0]}) AND d.balances IS NOT NULL ORDER BY d.rowid", scope[1]):
        if session_id not in tables:
            row = conn.execute("SELECT tariff_text FROM sessions WHERE id = ?", (session_id,)).fetchone()
            tariff = None if row is None else _tariff(session_id, row[0])
            tables[session_id] = None if tariff is None else tariff.players
        seats, value = tables[session_id], _loaded(text)
        if seats is not None and type(value) is list and not seats <= len(value) <= players:
            found.append(Damage("deals", _key(conn, "deals", rowid), _(
                "balances {value} has {count} players' balances; the session has {players} players",
                value=_shown(text), count=len(value), players=players)))
    return found
