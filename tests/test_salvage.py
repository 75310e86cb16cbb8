"""`boston-ledger import --salvage OTHER.db`: a ledger changed by hand (refused at open) is read by
plain SELECTs alone, every evening replayed through the engine and written into a clean ledger;
nothing of its schema runs or comes along, its stored transfers and balances are never read, and
an evening whose deal the engine refuses stops there."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

import crafted
from boston_ledger.store import db as storage
from boston_ledger.store import salvage
from conftest import FIXTURES, sampled


@pytest.fixture
def hand(table, isolated: Path, made) -> Path:
    """A ledger of one evening (a made solo, then a senior alone made), settled: Vera +70, the
    others; then a change by hand is made to it by each test."""
    isolated.write_bytes(made(("deal", "solo", "--declarer", "Vera", "--tricks", "8"),
                              ("deal", "senior", "--declarer", "Anna", "--tricks", "6"), ("settle", "--yes")))
    return isolated


def by_hand(path: Path, *statements: str) -> None:
    """Rows changed with sqlite3, the append-only triggers dropped for it and made again."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
        for name, __ in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        for statement in statements:
            conn.execute(statement)
        for __, sql in triggers:
            conn.execute(sql)
    finally:
        conn.close()


def test_a_trojan_ledger_is_salvaged_and_its_trigger_never_comes_along(cli, hand: Path, tmp_path: Path) -> None:
    money = cli.json("ledger")[""]["balances"]
    crafted.foreign(hand, "trojan trigger")
    refused = cli("status", code=2).stderr
    assert "import --salvage" in refused  # the way out, said where it is refused
    assert "import --salvage" in cli("check", code=1).stdout  # and by check, after what is foreign
    clean = tmp_path / "clean.db"
    done = cli("import", "--salvage", str(hand), "--db", str(clean))
    assert "session 1 there: Anna, Boris, Vera, Gleb, 2 deals, settled → session 1 here" in done.stdout
    assert cli.json("ledger", "--db", str(clean))[""]["balances"] == money
    assert cli("check", "--all", "--db", str(clean)).stdout == ""
    cli("new", "Anna", "Boris", "Vera", "Gleb", "--db", str(clean), "--yes")
    cli("deal", "pass", "--db", str(clean))  # where the trojan would have paid Q 1000.00
    assert cli.json("payments", "--db", str(clean)) == []
    conn = sqlite3.connect(clean)
    assert conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE name = 'evil'").fetchone()[0] == 0
    conn.close()
    again = cli("import", "--salvage", str(hand), "--db", str(clean))  # twice is once
    assert "1 evening is here already, as it is there." in again.stdout


def test_stored_transfers_balances_and_settlement_are_played_again_not_read(cli, hand: Path,
                                                                              tmp_path: Path) -> None:
    money = cli.json("ledger")[""]["balances"]
    by_hand(hand, "UPDATE transfers SET chips = chips * 100",
            "UPDATE deals SET balances = '[1000, 0, 0, -1000]'",
            "UPDATE settlements SET result = replace(result, 'Vera', 'Zed')")
    cli("check", "--all", code=1)  # the hand's work, as check sees it
    clean = tmp_path / "clean.db"
    cli("import", "--salvage", str(hand), "--db", str(clean))
    assert cli.json("ledger", "--db", str(clean))[""]["balances"] == money
    assert cli("check", "--all", "--db", str(clean)).stdout == ""


def test_an_evening_stops_at_the_deal_the_engine_refuses(cli, hand: Path, tmp_path: Path) -> None:
    by_hand(hand, "UPDATE deals SET contract = 'nosuch' WHERE number = 2")
    clean = tmp_path / "clean.db"
    done = cli("import", "--salvage", str(hand), "--db", str(clean), code=1)
    assert "session 1 there: Anna, Boris, Vera, Gleb, 1 deal, open → session 1 here" in done.stdout
    assert "session 1 there stops before deal 2" in done.stdout and "nosuch" in done.stdout
    history = cli.json("sessions", "--db", str(clean))
    assert [(s["id"], s["deals"]) for s in history] == [(1, 1)]
    assert cli("check", "--all", "--db", str(clean)).stdout == ""


def test_a_dry_run_writes_nothing(cli, hand: Path, tmp_path: Path) -> None:
    crafted.foreign(hand, "extra column")
    clean = tmp_path / "clean.db"
    cli("new", "Anna", "Boris", "Vera", "Gleb", "--db", str(clean), "--yes")
    before = clean.read_bytes()
    said = cli("import", "--salvage", "--dry-run", str(hand), "--db", str(clean)).stdout
    assert "session 1 there: Anna, Boris, Vera, Gleb, 2 deals, settled" in said and "Nothing recorded" in said
    assert clean.read_bytes() == before


def test_a_view_in_a_table_s_place_is_never_read(cli, hand: Path, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The endless view over players is refused by name, without a step of it run: the progress
    handler, which would stop it after 50 looks, is never asked."""
    crafted.foreign(hand, "endless view")
    looks: list[int] = []

    def counted(conn: storage.Ledger, path: Path, slow: storage.Slow | None = None) -> None:
        conn.bounds = storage.Bound(path, stop=lambda: looks.append(1) or len(looks) > 50)
        conn.set_progress_handler(conn.bounds, storage.PROGRESS_STEPS)

    monkeypatch.setattr(salvage, "bound", counted)
    said = cli("import", "--salvage", str(hand), "--db", str(tmp_path / "clean.db"), code=2).stderr
    assert "players is not a plain table" in said and "(view)" in said
    assert len(said.strip().splitlines()) == 1
    assert looks == []


def test_salvage_takes_no_undo_or_list(cli, hand: Path) -> None:
    assert "take nothing else" in cli("import", "--list", "--salvage", code=2).stderr


@pytest.mark.parametrize("kind", sampled(crafted.DAMAGED, 3))
def test_every_damaged_ledger_is_salvaged_or_refused_in_words(cli, hand: Path, tmp_path: Path, kind: str) -> None:
    """Whatever the hand did to the rows, what comes in replays (check finds nothing), and what
    was left out is said."""
    crafted.damage(hand, kind)
    clean = tmp_path / "clean.db"
    done = cli.main("import", "--salvage", str(hand), "--db", str(clean), code=None)
    assert done.exit_code in (0, 1, 2), done.stderr
    if clean.exists() and done.exit_code != 2:
        assert cli("check", "--all", "--db", str(clean)).stdout == ""


def test_a_virtual_table_in_a_table_s_place_is_never_read(cli, hand: Path, tmp_path: Path) -> None:
    conn = sqlite3.connect(hand, isolation_level=None)
    conn.executescript("ALTER TABLE payments RENAME TO payments_real;"
                       " CREATE VIRTUAL TABLE payments USING fts5(payer, payee);")
    conn.close()
    said = cli("import", "--salvage", str(hand), "--db", str(tmp_path / "clean.db"), code=1).stdout
    assert "payments is not a plain table" in said and "(virtual table)" in said
    assert "2 deals, settled" in said  # the evening comes in all the same


def test_an_evening_imported_before_is_here_already_when_salvaged(cli, table, isolated: Path, tmp_path: Path) -> None:
    """The same evening, taken back, corrected and settled, imported from the sound file and then
    salvaged from the file changed by hand: the replay writes what was written, so it is the one
    evening, not a conflict."""
    table("deal", "solo", "--declarer", "Vera", "--tricks", "8")
    table("deal", "pass")
    table("undo")
    table("deal", "senior", "--declarer", "Anna", "--tricks", "6")
    table("edit", "1", "--tricks", "9", "--reason", "nine")
    table("settle", "--yes")
    clean = tmp_path / "clean.db"
    cli("new", "Dima", "Eva", "Fedor", "Gosha", "--db", str(clean), "--yes")
    cli("import", str(isolated), "--db", str(clean))
    crafted.foreign(isolated, "extra index")
    again = cli("import", "--salvage", str(isolated), "--db", str(clean)).stdout
    assert "1 evening is here already, as it is there." in again and "Conflict" not in again


def test_a_ledger_of_the_first_version_is_salvaged_as_its_migration_reads(cli, tmp_path: Path) -> None:
    """A table a later version added is simply not there; what is there replays as the migrated
    ledger says."""
    old, migrated, clean = tmp_path / "v1.db", tmp_path / "migrated.db", tmp_path / "clean.db"
    for path in (old, migrated):
        conn = sqlite3.connect(path)
        conn.executescript((FIXTURES / "ledger-v1.sql").read_text(encoding="utf-8"))
        conn.close()
    cli("status", "--db", str(migrated))  # brought up to date
    done = cli("import", "--salvage", str(old), "--db", str(clean)).stdout
    assert "Import 1 recorded: 2 evenings, 0 payments." in done
    assert cli.json("ledger", "--db", str(clean)) == cli.json("ledger", "--db", str(migrated))
    assert cli("check", "--all", "--db", str(clean)).stdout == ""


def test_a_file_that_is_no_database_is_refused_in_one_line(cli, tmp_path: Path) -> None:
    junk = tmp_path / "junk.db"
    junk.write_text("not a database\n" * 100)
    said = cli("import", "--salvage", str(junk), "--db", str(tmp_path / "clean.db"), code=2).stderr
    assert said.strip() == f"boston-ledger: error: cannot read {junk}: file is not a database"
    assert not (tmp_path / "clean.db").exists()  # nothing made
