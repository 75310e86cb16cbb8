"""A ledger an earlier boston-ledger left made what today's migrations make, before they run.

Two released migrations were once edited in place; the schemas the versions before those edits
left are frozen in `store/earlier.py`, and recognised (`identify.earlier_state`) with any later
migrations on top. Such a ledger is first made what today's migrations would have made of it,
every row kept; anything that does not come out exactly so is refused, nothing changed.
"""

from __future__ import annotations

import sqlite3

from ..core.i18n import _
from . import earlier
from .identify import earlier_state, even, objects, sql
from .schema import keep_balances


class Unrepairable(Exception):
    """A ledger of an earlier schema that could not be brought to today's (a bug, or a file that
    holds what no boston-ledger wrote): nothing is changed."""


def mend(conn: sqlite3.Connection) -> None:
    """Make a ledger of ours that an earlier version left one of the states today's migrations
    pass through (nothing for one that is already in one, or a blank database).

    Runs inside the caller's transaction with foreign keys off (a table others refer to may be
    dropped and made again); the caller checks the keys before it commits."""
    # sqlite-utils made its table and then its index in two transactions: between them, a ledger
    # of an earlier version that was cut short has the (empty) table alone; start it again
    if ("_sqlite_migrations" in objects(conn)
            and "idx__sqlite_migrations_migration_set_name" not in objects(conn)):
        conn.execute('DROP TABLE "_sqlite_migrations"')
    found = earlier_state(conn)
    if found is not None:  # a schema an earlier version left: first made what today's migrations made
        _repair(conn, found.target, found.first_rank)


def _repair(conn: sqlite3.Connection, target: dict[str, tuple[str, str, str]], first_rank: bool = False) -> None:
    """Bring a ledger of an earlier schema to `target`, the schema today's migrations leave with
    the same ones recorded, keeping every row: each table whose definition differs is made again
    as `target` defines it (SQLite cannot add a column before others), its rows copied with their
    ids, a column it gains given its default (or its `earlier.FILLS`), its indexes and triggers
    made again; deals that kept no balances get them, summed from their own transfers. With
    `first_rank`, a deal of a contract with ranks that was entered without one (901e709 ... fb5f259
    played it as the contract's first rank; ebd6f22 made the rank a required word where the
    contract has several and names no default) has that rank written out, so that today's engine
    replays it as it was scored."""
    have = sql(conn)
    changed = [name for name, (kind, __, text) in target.items()
               if kind == "table" and name in have and even(have[name][2].encode()) != even(text.encode())]
    kept_none = "balances" not in _columns(conn, "deals")
    for name in changed:
        before = _columns(conn, name)
        conn.execute(f'CREATE TEMP TABLE "earlier_{name}" AS SELECT * FROM main."{name}"')
        conn.execute(f'DROP TABLE main."{name}"')  # with its indexes and triggers
        conn.execute(target[name][2])
        after = _columns(conn, name)
        kept = [c for c in after if c in before]
        filled = [c for c in after if c not in before and (name, c) in earlier.FILLS]
        columns = ", ".join(f'"{c}"' for c in kept + filled)
        values = ", ".join([f'old."{c}"' for c in kept] + [earlier.FILLS[(name, c)] for c in filled])
        try:
            conn.execute(f'INSERT INTO main."{name}" ({columns}) SELECT {values} FROM temp."earlier_{name}" AS old')
        except sqlite3.IntegrityError as e:
            raise Unrepairable(_("table {name}: {error}", name=name, error=e)) from None
        conn.execute(f'DROP TABLE temp."earlier_{name}"')
    if first_rank and "deals" in changed:
        _write_first_ranks(conn)
    if kept_none and "balances" in _columns(conn, "deals"):
        keep_balances(conn)
    for kind, table, text in target.values():
        if kind != "table" and table in changed:
            conn.execute(text)
    wanted = {name: (kind.encode(), table.encode(), even(text.encode()))
              for name, (kind, table, text) in target.items()}
    if objects(conn) != wanted:
        raise Unrepairable(_("the schema made differs from today's"))


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f'PRAGMA main.table_info("{table}")')]


def _write_first_ranks(conn: sqlite3.Connection) -> None:
    """The rank a deal without one was played at by 901e709 ... fb5f259: its contract's first, in
    the session's own stored tariff (the deals table has just been made again, without triggers)."""
    from ..core.tariff_files import parse

    for session_id, text in conn.execute("SELECT id, tariff_text FROM sessions").fetchall():
        try:
            contracts = parse(text, origin=f"the tariff stored with session {session_id}").contracts
        except Exception as e:  # a stored text that cannot be read: nothing could replay its deals
            raise Unrepairable(_("session {id}: {error}", id=session_id, error=e)) from None
        for deal_id, contract in conn.execute("SELECT id, contract FROM deals WHERE session_id = ? AND rank IS NULL",
                                              (session_id,)).fetchall():
            found = contracts.get(contract)
            if found is not None and found.ranks and found.default_rank is None:  # else read as then
                conn.execute("UPDATE deals SET rank = ? WHERE id = ?", (found.ranks[0], deal_id))
