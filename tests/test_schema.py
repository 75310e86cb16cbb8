"""The schema: migrations at open, the exact expected schema, old ledgers kept, newer refused."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from boston_ledger.app import check as checks
from boston_ledger.store import read
from boston_ledger.store.db import open_db
from boston_ledger.store.schema import SCHEMA_VERSION
from conftest import FIXTURES, frozen_migrations, frozen_schema, schema_of


def test_a_blank_database_migrates_to_the_exact_schema(tmp_path: Path) -> None:
    conn = open_db(tmp_path / "new.db", create=True)
    expected = frozen_schema()
    assert schema_of(conn) == expected
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    names = [r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
    assert names == frozen_migrations()


def test_a_ledger_of_the_first_released_schema_keeps_its_results(tmp_path: Path, cli, monkeypatch) -> None:
    path = tmp_path / "old.db"
    old = sqlite3.connect(path)
    old.executescript((FIXTURES / "ledger-v1.sql").read_text(encoding="utf-8"))
    old.execute("PRAGMA user_version = 1")
    old.close()
    conn = open_db(path)  # migrates it to the current schema
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert schema_of(conn) == frozen_schema()
    assert all(checks.check_session(conn, s) == [] for s in read.session_ids(conn))
    first = read.session(conn, 1)
    assert read.state(conn, first).balances == (64, -12, -40, -12)
    assert first.settled and read.settlement(conn, first).record()["money"]["Anna"] == "6.40"
    assert read.undone_count(conn, first) == 1
    conn.close()
    monkeypatch.setenv("BOSTON_LEDGER_DB", str(path))
    status = cli.json("status")  # the current session is the second, a points one
    assert status["balances"] == {"Аня": 10, "Борис": 10, "Вера": 0, "Глеб": 0}
    assert status["deals_left"] == 7


def test_a_newer_schema_is_refused_untouched(tmp_path: Path, cli) -> None:
    path = tmp_path / "future.db"
    conn = open_db(path, create=True)
    conn.execute("PRAGMA user_version = 99")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    before = path.read_bytes()
    result = cli("status", "--db", str(path), code=2)
    assert "newer boston-ledger" in result.stderr and result.stderr.count("\n") == 1
    assert path.read_bytes() == before


def test_foreign_keys_are_on_at_every_open(tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    open_db(path, create=True).close()
    conn = open_db(path)
    assert conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO players (session_id, seat, name) VALUES (42, 0, 'ghost')")


def test_check_finds_tampering(tmp_path: Path, cli, monkeypatch) -> None:
    path = tmp_path / "l.db"
    monkeypatch.setenv("BOSTON_LEDGER_DB", str(path))
    cli("new", "Anna", "Boris", "Vera", "Gleb")
    cli("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4")
    cli("new", "W", "X", "Y", "Z", "--yes")
    result = cli("check", "--all")
    assert result.stdout == "" and result.stderr == ""
    conn = sqlite3.connect(path)
    kept = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'transfers_no_update'").fetchone()[0]
    conn.execute("DROP TRIGGER transfers_no_update")  # made again below: a ledger without it is not opened
    conn.execute("UPDATE transfers SET chips = chips + 1 WHERE id = (SELECT MAX(id) FROM transfers)")
    conn.execute(kept)
    conn.commit()
    assert cli("check").stdout == ""  # the current session (the second) is untouched
    found = cli("check", "--all", code=1).stdout
    assert "session 1, deal 1: stored transfers differ from the replay" in found
    conn.execute("DROP TRIGGER transfers_no_update")
    conn.execute("UPDATE transfers SET payee = (SELECT id FROM players WHERE name = 'W') "
                 "WHERE id = (SELECT MIN(id) FROM transfers)")
    conn.execute(kept)
    conn.commit()
    assert "names a player of session 2" in cli("check", "--all", code=1).stdout


@pytest.mark.parametrize("tamper, words", [
    ("UPDATE deals SET balances = '[]' WHERE id = (SELECT MAX(id) FROM deals)", "stored balances"),
    ("UPDATE deals SET balances = '[-96.5, 12, 72, 12]' WHERE id = (SELECT MAX(id) FROM deals)", "stored balances"),
    ("UPDATE deals SET basket = 7 WHERE id = (SELECT MAX(id) FROM deals)", "stored balances"),
    ("UPDATE deals SET number = 9 WHERE id = (SELECT MAX(id) FROM deals)", "numbered 9"),
    ("UPDATE deals SET balances = NULL WHERE id = (SELECT MAX(id) FROM deals)", "stored balances"),
])
def test_check_holds_the_kept_balances_to_the_replay(tmp_path: Path, cli, monkeypatch, tamper, words) -> None:
    path = tmp_path / "l.db"
    monkeypatch.setenv("BOSTON_LEDGER_DB", str(path))
    cli("new", "Anna", "Boris", "Vera", "Gleb")
    for _ in range(2):
        cli("deal", "solo", "--declarer", "Vera", "--tricks", "9")
    conn = sqlite3.connect(path)
    kept = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'deals_no_update'").fetchone()[0]
    conn.execute("DROP TRIGGER deals_no_update")  # made again below: a ledger without it is not opened
    conn.execute(tamper)
    conn.execute(kept)
    conn.commit()
    assert words in cli("check", code=1).stdout
