"""The stored ledger against the engine: deals are the record, balances derived, undo exact."""

from __future__ import annotations

import sqlite3
import tempfile
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boston_ledger.core import engine, invariants
from boston_ledger.core.errors import LedgerError
from boston_ledger.app import deals as table, sessions
from boston_ledger.store import read
from boston_ledger.store.db import MAX_CHIPS, open_db
from boston_ledger.core.tariff_files import load

from conftest import examples
from strategies import deals

CLASSIC = load("classic")
PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]

steps = st.lists(st.one_of(deals(CLASSIC), st.just("undo")), min_size=1, max_size=50)


@settings(max_examples=examples(25), deadline=None)
@given(steps)
def test_stored_ledger_equals_replay_and_undo_restores(ops: list) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        conn = open_db(Path(tmp) / "t.db", create=True)
        sessions.new(conn, PLAYERS, CLASSIC, Decimal("0.1"), "")
        history: list[engine.State] = [engine.State.start(4)]
        entered: list[engine.Deal] = []
        for op in ops:
            session = table.current(conn)
            if op == "undo":
                if not entered:
                    with pytest.raises(LedgerError):
                        table.undo(conn)
                    continue
                table.undo(conn)
                entered.pop()
                history.pop()
            else:
                e = table.enter(conn, op)
                entered.append(op)
                history.append(e.after)
            stored = read.state(conn, session)
            assert stored == history[-1]  # undo restores the exact earlier state
            assert invariants.imbalance(stored) == 0
        replayed = engine.replayed(CLASSIC, entered)
        outcomes = [s.outcome for s in engine.replaying(CLASSIC, entered)]
        recorded = list(read.deals(conn, table.current(conn)))
        assert [r.deal for r in recorded] == entered
        assert [r.transfers for r in recorded] == [o.transfers for o in outcomes]
        assert replayed == read.state(conn, table.current(conn))
        conn.close()


def test_history_is_append_only(tmp_path: Path) -> None:
    conn = open_db(tmp_path / "t.db", create=True)
    sessions.new(conn, PLAYERS, CLASSIC, Decimal("0.1"), "")
    table.enter(conn, engine.Deal("pass"))
    for sql in ("UPDATE transfers SET chips = 1", "DELETE FROM deals", "UPDATE sessions SET currency = 'x'"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            conn.execute(sql)


def test_session_keeps_its_own_copy_of_the_tariff(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(CLASSIC.text, encoding="utf-8")
    conn = open_db(tmp_path / "t.db", create=True)
    sessions.new(conn, PLAYERS, load(str(path)), Decimal("0.1"), "")
    path.unlink()
    e = table.enter(conn, engine.Deal("junior", 1, 3, 5, 4, boston=2))
    assert e.after.balances == (-20, 16, -12, 16)


def test_schema_is_strict_with_foreign_keys(tmp_path: Path) -> None:
    conn = open_db(tmp_path / "t.db", create=True)
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    strict = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table' AND sql LIKE '%STRICT'")}
    assert {"sessions", "players", "deals", "transfers", "undos", "settlements"} <= strict
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO deals (session_id, number, contract, entered_at) VALUES (99, 1, 'pass', 'x')")


def test_a_runaway_basket_is_refused_not_crashed(tmp_path: Path) -> None:
    conn = open_db(tmp_path / "t.db", create=True)
    sessions.new(conn, PLAYERS, CLASSIC, Decimal("0.1"), "")
    with pytest.raises(LedgerError, match="beyond what the ledger can hold"):
        for _ in range(80):  # 40 chips doubled 80 times
            table.enter(conn, engine.Deal("pass"))
    state = read.state(conn, table.current(conn))
    assert invariants.imbalance(state) == 0 and 0 < state.basket <= MAX_CHIPS
