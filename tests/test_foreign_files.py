"""Files boston-ledger did not write are never touched: every command that opens a ledger refuses
another program's SQLite file (whatever its user_version, journal mode or application id) with
one line and exit 2, leaving it byte for byte as it was and no -wal, -shm or -journal beside it.
Ledgers are marked with an application id; those of earlier versions are recognised by their
exact schema and marked in the same transaction as their migration. SQLite's special names
and damaged settings get one clear line too."""

from __future__ import annotations

import hashlib
import signal
import sqlite3
from pathlib import Path

import pytest

import faults
from boston_ledger.cli.declarations import app
from boston_ledger.store.schema import APPLICATION_ID, SCHEMA_VERSION
from conftest import PLAYERS

FIXTURES = Path(__file__).resolve().parent / "fixtures"
PREFIX = "boston-ledger: error: "

# Every command that opens a ledger, with arguments it would take on a ledger of ours.
COMMANDS = [
    ["status"], ["status", "--json"], ["history"], ["history", "--corrections"], ["sessions"], ["check"],
    ["check", "--all", "--json"], ["stats"], ["chart"], ["chart", "--svg", "{out}/c.svg"], ["ledger"],
    ["rescore", "1", "--tariff", "classic"], ["export", "{out}/export"],
    ["new", *PLAYERS], ["deal", "pass"], ["deal", "solo", "--declarer", "Anna", "--tricks", "8"],
    ["edit", "1", "pass", "--reason", "typo"], ["undo"], ["settle"], ["reopen"], ["use", "1"],
    ["paid", "Anna", "Boris", "1.00"], ["paid", "--cancel", "1"], ["payments"], ["sheet"],
    ["sheet", "--html", "{out}/sheet.html"], ["serve", "--port", "0"], ["demo"],
]
QUICK = [["status"], ["deal", "pass"], ["new", *PLAYERS], ["check"]]  # through the program's main() too


def notes(path: Path, version: int = 0, wal: bool = False, app: int = 0, tables: str = "notes") -> None:
    conn = sqlite3.connect(path)
    if wal:
        conn.execute("PRAGMA journal_mode = WAL")
    for table in tables.split():
        conn.execute(f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, body TEXT)")
        conn.execute(f"INSERT INTO {table} (body) VALUES ('someone else''s data')")
    conn.execute(f"PRAGMA user_version = {version}")
    conn.execute(f"PRAGMA application_id = {app}")
    conn.commit()
    conn.close()


def v1_ledger(path: Path, version: int = 1, extra: str | None = None) -> None:
    """A ledger of the first released schema, as an earlier boston-ledger left it (WAL, unmarked)."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.executescript((FIXTURES / "ledger-v1.sql").read_text(encoding="utf-8"))
    if extra:
        conn.executescript(extra)
    conn.execute(f"PRAGMA user_version = {version}")
    conn.commit()
    conn.close()


def spoil_schema_text(path: Path) -> None:
    """A comment that is not UTF-8 (bytes FF FE) at the end of a table's schema text."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA writable_schema = ON")
    conn.execute("UPDATE sqlite_master SET sql = CAST(CAST(sql AS BLOB) || X'202F2AFFFE2A2F' AS TEXT)"
                 " WHERE name = 'settings'")
    conn.commit()
    conn.close()


def bad_utf8_schema(path: Path) -> None:
    """An unmarked ledger-like file whose schema text is not UTF-8."""
    v1_ledger(path)
    spoil_schema_text(path)


FOREIGN = {
    "user_version-0": lambda p: notes(p, 0),
    "user_version-1": lambda p: notes(p, 1),
    "user_version-2": lambda p: notes(p, 2),
    "user_version-99": lambda p: notes(p, 99),
    "wal-user_version-1": lambda p: notes(p, 1, wal=True),
    "wal-user_version-99": lambda p: notes(p, 99, wal=True),
    "other-application-id": lambda p: notes(p, 2, app=0x0F055112, tables="sessions players deals settings"),
    "our-table-names": lambda p: notes(p, 2, tables="sessions players deals transfers settings"),
    "only-a-user_version": lambda p: notes(p, 5, tables=""),
    "a-ledger-with-one-table-more": lambda p: v1_ledger(p, extra="CREATE TABLE notes (x);"),
    "a-ledger-schema-at-version-7": lambda p: v1_ledger(p, version=7),
    "schema-text-not-utf-8": bad_utf8_schema,
    "not-sqlite": lambda p: p.write_bytes(b"SQLite format 2\x00" + b"\x00" * 4080),
}


def digest(folder: Path) -> dict[str, str]:
    """Every file in the folder with a hash of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


def refused(result_code: int, stdout: str, stderr: str) -> None:
    lines = stderr.splitlines()
    assert result_code == 2, (result_code, stdout, stderr)
    assert len(lines) == 1 and lines[0].startswith(PREFIX), stderr
    assert "newer boston-ledger" not in stderr and "Traceback" not in stderr
    assert stdout == ""


@pytest.mark.parametrize("kind", FOREIGN)
def test_a_file_we_did_not_write_is_refused_untouched_by_every_command(cli, tmp_path: Path, kind: str) -> None:
    folder = tmp_path / "theirs"
    folder.mkdir()
    path = folder / "their.db"
    FOREIGN[kind](path)
    before = digest(folder)
    assert list(before) == ["their.db"]
    out = tmp_path / "out"
    out.mkdir()
    for args in COMMANDS:
        words = [a.replace("{out}", str(out)) for a in args]
        result = cli(*words, "--db", str(path), code=2)
        refused(result.exit_code, result.stdout, result.stderr)
        assert digest(folder) == before, args  # byte for byte, and no -wal, -shm or -journal
    assert list(out.iterdir()) == []  # no chart, no export either
    if kind in ("user_version-99", "wal-user_version-99"):
        assert "something else" in result.stderr


@pytest.mark.parametrize("kind", ["user_version-1", "wal-user_version-99", "other-application-id", "not-sqlite"])
def test_the_program_s_entry_refuses_it_too(cli, tmp_path: Path, kind: str) -> None:
    """The quick path (plain deal and status, no typer) and the full one alike."""
    folder = tmp_path / "theirs"
    folder.mkdir()
    path = folder / "their.db"
    FOREIGN[kind](path)
    before = digest(folder)
    for args in QUICK:
        done = cli.main(*args, "--db", str(path), code=2)
        refused(done.exit_code, done.stdout, done.stderr)
        assert digest(folder) == before, args


def test_russian_says_it_too(cli, tmp_path: Path) -> None:
    path = tmp_path / "their.db"
    notes(path, 1)
    result = cli("status", "--db", str(path), "--lang", "ru", code=2)
    assert "чего-то другого" in result.stderr


# ---- our mark ----------------------------------------------------------------------------------


def header(path: Path) -> tuple[int, int]:
    """(application id, user_version) as the file's header holds them."""
    head = path.read_bytes()[:100]
    return int.from_bytes(head[68:72], "big"), int.from_bytes(head[60:64], "big")


def test_a_new_ledger_carries_our_application_id(cli, tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    cli("new", *PLAYERS, "--db", str(path))
    assert header(path) == (APPLICATION_ID, SCHEMA_VERSION)


def test_a_ledger_of_an_earlier_version_is_migrated_and_marked_together(cli, tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    v1_ledger(path)
    assert cli.json("status", "--db", str(path))["deals_left"] == 7
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    names = [r[0] for r in conn.execute("SELECT name FROM _sqlite_migrations ORDER BY id")]
    assert names[:2] == ["m001_initial", "m002_corrections"] and len(names) == SCHEMA_VERSION
    conn.close()
    assert cli("check", "--all", "--db", str(path)).stdout == ""


def test_an_unmarked_ledger_of_this_version_is_marked(cli, tmp_path: Path) -> None:
    """Ledgers this schema's earlier releases made (user_version 2, no mark) are marked at open."""
    path = tmp_path / "l.db"
    cli("new", *PLAYERS, "--db", str(path))
    cli("deal", "pass", "--db", str(path))
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 0")
    conn.commit()
    conn.close()
    assert cli.json("status", "--db", str(path))["deals"] == 1
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    conn.close()


@pytest.mark.slow
def test_a_migration_killed_at_its_statements_leaves_the_old_ledger_or_the_new(cli, tmp_path: Path) -> None:
    """SIGKILL at the statements of `status` migrating a ledger of schema 1 (a sample of them, and
    each next to the write transaction's BEGIN IMMEDIATE, the ROLLBACK before it and the migration's
    COMMIT; every one with BOSTON_LEDGER_ALL_KILL_POINTS=1): the file is then exactly that ledger,
    unmarked, or the migrated one, marked; never one without the other."""
    from concurrent.futures import ThreadPoolExecutor

    first = tmp_path / "count.db"
    v1_ledger(first)
    counted = faults.run(["status"], "sql", 10**9, faults.env(first))
    total = counted.points
    commit = counted.point("COMMIT", after="BEGIN_IMMEDIATE")
    edges = faults.around(counted, "BEGIN_IMMEDIATE", "ROLLBACK") | set(range(commit - 2, commit + 3))
    points = faults.sample(range(1, total + 1), 6, 20261203, edges)

    for k in points:  # made before the children: no thread of ours is in SQLite while another forks one
        v1_ledger(tmp_path / f"at-{k}.db")

    def kill(k: int) -> Path:
        path = tmp_path / f"at-{k}.db"
        child = faults.start(["status"], "sql", k, faults.env(path))
        assert child.stopped, child.said
        assert child.kill() == -signal.SIGKILL
        return path

    with ThreadPoolExecutor(2) as pool:
        paths = list(pool.map(kill, points))
    kinds = {"old": 0, "new": 0}
    for k, path in zip(points, paths, strict=True):
        conn = sqlite3.connect(path)
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        conn.close()
        if app == 0:
            kinds["old"] += 1
            assert version == 1 and "corrections" not in tables, k
        else:
            kinds["new"] += 1
            assert (app, version) == (APPLICATION_ID, SCHEMA_VERSION) and "corrections" in tables, k
        assert cli("check", "--all", "--db", str(path)).stdout == ""  # and it opens, migrated, sound
    print("migration of", total, "statements,", len(points), "kills:", kinds)
    assert kinds["old"] and kinds["new"]


def test_a_newer_ledger_in_wal_mode_is_refused_untouched(cli, tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    cli("new", *PLAYERS, "--db", str(path))
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 99")
    conn.commit()
    conn.close()
    before = digest(tmp_path)
    for args in (["status"], ["deal", "pass"], ["new", *PLAYERS]):
        result = cli(*args, "--db", str(path), code=2)
        assert "newer boston-ledger" in result.stderr and result.stderr.count("\n") == 1
        assert digest(tmp_path) == before


# ---- names that are not files, and damaged settings ----------------------------------------


@pytest.mark.parametrize("db", [":memory:", "file::memory:", "file:ledger.db?mode=memory", "FILE:x.db",
                                "~nosuchuser12345/ledger.db"])
@pytest.mark.parametrize("args", [["new", *PLAYERS], ["status"], ["deal", "pass"], ["demo"]])
def test_names_that_are_no_ledger_file_are_refused(cli, tmp_path: Path, monkeypatch, db: str, args) -> None:
    monkeypatch.chdir(tmp_path)
    result = cli(*args, "--db", db, code=2)
    refused(result.exit_code, result.stdout, result.stderr)
    assert list(tmp_path.iterdir()) == []


def test_the_environment_variable_is_held_to_the_same(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOSTON_LEDGER_DB", ":memory:")
    result = cli("new", *PLAYERS, code=2)
    assert ":memory:" in result.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("args", [["status"], ["deal", "pass"], ["new", *PLAYERS]])
def test_the_quick_path_refuses_memory_too(cli, tmp_path: Path, monkeypatch, args) -> None:
    monkeypatch.chdir(tmp_path)
    done = cli.main(*args, "--db", ":memory:", code=2)
    refused(done.exit_code, done.stdout, done.stderr)
    assert list(tmp_path.iterdir()) == []


def damaged_current(cli, path: Path) -> None:
    cli("new", *PLAYERS, "--db", str(path))
    cli("new", "W", "X", "Y", "Z", "--db", str(path))
    conn = sqlite3.connect(path)
    conn.execute("UPDATE settings SET value = 'x' WHERE key = 'current_session'")
    conn.commit()
    conn.close()


@pytest.mark.parametrize("args", [["status"], ["check"], ["deal", "pass"], ["history"], ["settle"], ["undo"],
                                  ["export", "out"], ["chart"]])
def test_a_current_session_that_is_not_a_number_gets_one_line(cli, tmp_path: Path, args) -> None:
    path = tmp_path / "l.db"
    damaged_current(cli, path)
    result = cli(*args, "--db", str(path), code=2)
    assert result.stderr.startswith(PREFIX) and result.stderr.count("\n") == 1
    assert "current session" in result.stderr and "'x'" in result.stderr and "use ID" in result.stderr


def test_the_damaged_choice_is_mended_with_use(cli, tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    damaged_current(cli, path)
    listed = cli.json("sessions", "--db", str(path))
    assert len(listed) == 2 and not any(s["current"] for s in listed)
    assert cli("check", "--all", "--db", str(path)).stdout == ""
    cli("use", "2", "--db", str(path))
    assert cli.json("status", "--db", str(path))["players"] == ["W", "X", "Y", "Z"]


def test_a_ledger_of_ours_whose_schema_text_is_not_utf_8_gets_no_traceback(cli, tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    cli("new", *PLAYERS, "--db", str(path))
    spoil_schema_text(path)
    for args in (["check"], ["check", "--all"], ["status"], ["deal", "pass"]):
        result = cli.runner.invoke(app, [*args, "--db", str(path)], catch_exceptions=False)
        assert result.exit_code in (0, 1, 2) and "Traceback" not in result.stderr, result.stderr
        assert result.exit_code == 0 or result.stderr.count("\n") + result.stdout.count("\n") == 1
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id = 0")  # and unmarked, it is no longer provably ours
    conn.commit()
    conn.close()
    result = cli("check", "--db", str(path), code=2)
    assert "something else" in result.stderr and result.stderr.count("\n") == 1
