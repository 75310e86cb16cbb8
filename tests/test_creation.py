"""Making a ledger is atomic and private: its schema, version, application id and first session
appear together or not at all, whatever stops `new` (SIGKILL at each of its file operations or
SQL statements, a write cut at a byte offset, a file size limit); what an earlier version left
half-made is recognised and completed; a new ledger is readable by its owner only.

Of its SQL statements, byte offsets and size limits, a run tries a fixed sample (faults.sample);
BOSTON_LEDGER_ALL_KILL_POINTS=1 tries every one."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import stat
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from typer.testing import CliRunner

import faults
from boston_ledger.cli.declarations import app
from boston_ledger.store.schema import APPLICATION_ID, SCHEMA_VERSION
from conftest import FIXTURES, PLAYERS, frozen_schema, schema_of

pytestmark = pytest.mark.disk  # about syncing: on a real disk, never tmpfs (conftest.py)

NEW = ["new", *PLAYERS, "--chip-value", "0.10"]


def schema(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return schema_of(conn)
    finally:
        conn.close()


EXPECTED = frozen_schema()


def ledger(path: Path, sessions: int) -> None:
    """`path` is a whole ledger of this version, marked, with `sessions` sessions, sound. (Its
    mark may still be in the -wal, not yet in the file's own header.)"""
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == sessions
        assert conn.execute("SELECT COUNT(*) FROM players").fetchone()[0] == 4 * sessions
        assert conn.execute("SELECT value FROM settings WHERE key = 'current_session'").fetchone()[0] == str(sessions)
    finally:
        conn.close()
    assert schema(path) == EXPECTED
    checked = invoke("check", "--all", "--db", str(path))
    assert checked.exit_code == 0 and checked.stdout == "" and checked.stderr == "", checked.stderr


def invoke(*args: str):
    """A command run in-process (any exit status)."""
    return RUNNER.invoke(app, list(args), catch_exceptions=False)


RUNNER = CliRunner()


def leftovers(folder: Path, name: str) -> list[str]:
    """Files beside the ledger that are not the ledger (journals, temporary files)."""
    return sorted(p.name for p in folder.iterdir() if p.name != name)


def in_parallel(work, items) -> list:
    """Fault runs two at a time (each on its own files): the machine's two cores."""
    with ThreadPoolExecutor(2) as pool:
        return list(pool.map(work, items))


def recognised_after(path: Path, outcomes: dict[str, int]) -> None:
    """What a stopped `new` left at `path`: a whole ledger, or something `status` calls "no ledger
    yet" (nothing, or the empty file it was given) and that `new` then makes a ledger of."""
    status = invoke("status", "--json", "--db", str(path))
    if status.exit_code == 0:  # it got as far as committing: the whole session is there
        outcomes["whole"] += 1
        ledger(path, 1)
        return
    assert status.exit_code == 2 and status.stderr.count("\n") == 1, status.stderr
    assert "no ledger" in status.stderr, status.stderr  # never "something else"
    if path.exists():
        outcomes["blank"] += 1
    else:  # nothing but, when it was killed after making it, the (empty) folder
        outcomes["nothing"] += 1
        assert not path.parent.exists() or leftovers(path.parent, path.name) == []
    again = invoke(*NEW, "--db", str(path))
    assert again.exit_code == 0, again.stderr
    ledger(path, 1)


# ---- privacy -----------------------------------------------------------------------------------


def test_a_new_ledger_and_its_folders_are_the_owners_only(tmp_path: Path) -> None:
    existing = tmp_path / "shared"
    existing.mkdir(mode=0o755)
    existing.chmod(0o755)
    path = existing / "club" / "2026" / "ledger.db"
    old = os.umask(0o002)  # a umask that would leave the file readable by all and writable by the group
    try:
        done = invoke(*NEW, "--db", str(path))
        assert done.exit_code == 0, done.stderr
        assert invoke("deal", "pass", "--db", str(path)).exit_code == 0
    finally:
        os.umask(old)

    def mode(p: Path) -> int:
        return stat.S_IMODE(p.stat().st_mode)

    assert mode(path) == 0o600
    assert mode(path.parent) == 0o700 and mode(path.parent.parent) == 0o700
    assert mode(existing) == 0o755  # a folder that was there is left as it was
    ledger(path, 1)


def test_the_wal_of_a_new_ledger_is_private_too(tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    assert invoke(*NEW, "--db", str(path)).exit_code == 0
    conn = sqlite3.connect(path)  # holds the -wal and -shm open while we look
    conn.execute("SELECT COUNT(*) FROM deals").fetchone()
    try:
        assert invoke("deal", "pass", "--db", str(path)).exit_code == 0
        for name in ("l.db-wal", "l.db-shm"):
            assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600
    finally:
        conn.close()


# ---- whole or nothing --------------------------------------------------------------------------


def test_a_new_ledger_is_whole_marked_and_alone(tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    child = faults.run(NEW, environ=faults.env(path))
    assert child.process.returncode == 0, child.stderr
    assert leftovers(tmp_path, "l.db") == []  # no journal, no temporary file
    head = path.read_bytes()[:100]
    assert head[18:20] == b"\x02\x02"  # already in WAL mode
    assert int.from_bytes(head[68:72], "big") == APPLICATION_ID  # in the header itself: file(1) sees it
    ledger(path, 1)


def test_where_files_cannot_be_made_without_a_name_a_hidden_one_is_used_and_removed(
        tmp_path: Path, monkeypatch) -> None:
    """Outside Linux there is no O_TMPFILE: the ledger is written whole beside its place under a
    hidden name, linked, and the hidden name removed."""
    monkeypatch.delattr(os, "O_TMPFILE", raising=False)
    path = tmp_path / "l.db"
    assert invoke(*NEW, "--db", str(path)).exit_code == 0
    assert leftovers(tmp_path, "l.db") == [] and stat.S_IMODE(path.stat().st_mode) == 0o600
    ledger(path, 1)
    again = invoke("new", "W", "X", "Y", "Z", "--db", str(path))  # there is one now: it is written into
    assert again.exit_code == 0 and leftovers(tmp_path, "l.db") == []
    ledger(path, 2)


def killed_at_its_points(tmp_path: Path, kind: str, prepare, size: int, seed: int,
                         edges: tuple[str, ...] = ("BEGIN", "COMMIT")) -> dict[str, int]:
    """`new` SIGKILLed at points of `kind` (a sample of `size`, and those next to the points named
    `edges`; all of them when there are few), each time on a path in a folder of its own made
    ready by `prepare`; what is left is recognised, and `new` then works."""
    first = tmp_path / "count" / "l.db"
    prepare(first)
    counted = faults.run(NEW, kind, 10**9, faults.env(first))
    total = counted.points
    assert total > 0
    points = faults.sample(range(1, total + 1), size, seed, faults.around(counted, *edges) if edges else ())

    def kill(k: int) -> Path:
        path = tmp_path / f"at-{k}" / "l.db"
        prepare(path)
        child = faults.start(NEW, kind, k, faults.env(path))
        assert child.stopped, (k, child.said, child.stderr)
        assert child.kill() == -signal.SIGKILL
        return path

    tally = {"points": total, "kills": len(points), "nothing": 0, "whole": 0, "blank": 0}
    for path in in_parallel(kill, points):
        recognised_after(path, tally)
    print(kind, tally)
    return tally


@pytest.mark.slow
def test_new_killed_at_each_file_operation_leaves_all_or_nothing(tmp_path: Path) -> None:
    tally = killed_at_its_points(tmp_path, "io", lambda path: None, 12, 20261130)  # makes the folder itself
    assert tally["kills"] == tally["points"]  # a handful: every one
    assert tally["whole"] >= 1 and tally["nothing"] >= 1 and tally["blank"] == 0


@pytest.mark.slow
def test_new_killed_at_its_sql_statements_leaves_all_or_nothing(tmp_path: Path) -> None:
    tally = killed_at_its_points(tmp_path, "sql", lambda path: None, 4, 20261131, edges=())
    assert tally["nothing"] == tally["kills"]  # all of it happens in memory before the file appears


@pytest.mark.slow
def test_new_on_an_empty_file_killed_at_its_sql_statements(tmp_path: Path) -> None:
    """An empty file (`touch`, `mktemp`) is filled in place, in one transaction: killed anywhere,
    it is empty again or a whole ledger."""

    def empty(path: Path) -> None:
        path.parent.mkdir()
        path.write_bytes(b"")

    tally = killed_at_its_points(tmp_path, "sql", empty, 3, 20261201)
    assert tally["blank"] >= 1 and tally["whole"] >= 1 and tally["nothing"] == 0


LIMITS_KIB = sorted(set(range(0, 161, 16)) | set(range(40, 97, 8)) | {208})  # the 40..96 among them
DRAW = random.Random(20261202)  # (one generator: a new one for each draw gave the same offset six times)
OFFSETS = sorted(set(range(0, 112 * 1024, 8192)) | {DRAW.randrange(1, 112 * 1024) for __ in range(6)}
                 | {208 * 1024, 256 * 1024})  # and two a ledger fits under
WHERE = {"fresh": 1, "empty file": 2}  # each its own sample of limits and offsets


@pytest.mark.slow
@pytest.mark.parametrize("where", WHERE)
def test_new_under_a_file_size_limit(tmp_path: Path, where: str) -> None:
    """`ulimit -f N` (KiB): one line and exit 2 with nothing left (an empty file stays empty),
    or a whole ledger (a new one is some 168 KiB). Tried: no room at all, 208 KiB (room enough), and
    a sample between."""

    def limited_new(kib: int) -> tuple[Path, faults.Child]:
        path = tmp_path / f"{kib}k" / "l.db"
        path.parent.mkdir()
        if where == "empty file":
            path.write_bytes(b"")
        return path, faults.run([*NEW, "--db", str(path)], "limit", kib * 1024)

    outcomes = {"refused": 0, "whole": 0, "nothing": 0, "blank": 0}
    limits = faults.sample(LIMITS_KIB, 3, WHERE[where])
    for path, done in in_parallel(limited_new, limits):
        assert "Traceback" not in done.stderr
        if done.process.returncode == 0:
            outcomes["whole"] += 1
            ledger(path, 1)
            continue
        outcomes["refused"] += 1
        assert done.process.returncode == 2 and done.stderr.count("\n") == 1 and done.stdout == "", done.stderr
        assert "nothing was recorded" in done.stderr or "disk" in done.stderr, done.stderr
        if where == "fresh":
            assert not path.exists() and leftovers(path.parent, "l.db") == []
        recognised_after(path, outcomes)
    print(where, "ulimit -f", limits, outcomes)
    assert outcomes["refused"] >= 2 and outcomes["whole"] >= 1


@pytest.mark.slow
@pytest.mark.parametrize("where", WHERE)
def test_new_killed_as_a_write_crosses_a_byte_offset(tmp_path: Path, where: str) -> None:
    """Killed (SIGXFSZ, a torn write) at byte offsets 0..112 KiB of whatever file it writes (or not
    at all, under 208 and 256 KiB): a sample of them, and those two."""

    def cut(offset: int) -> tuple[Path, faults.Child]:
        path = tmp_path / f"at-{offset}" / "l.db"
        path.parent.mkdir()
        if where == "empty file":
            path.write_bytes(b"")
        return path, faults.run(NEW, "fsize", offset, faults.env(path))

    outcomes = {"killed": 0, "whole": 0, "nothing": 0, "blank": 0}
    offsets = faults.sample(OFFSETS, 4, WHERE[where], edges=OFFSETS[-2:])
    for path, child in in_parallel(cut, offsets):
        if child.process.returncode == 0:
            outcomes["whole"] += 1
            ledger(path, 1)
            continue
        assert child.process.returncode == -signal.SIGXFSZ, (path, child.process.returncode, child.stderr)
        outcomes["killed"] += 1
        if where == "fresh":
            assert not path.exists() and leftovers(path.parent, "l.db") == []
        recognised_after(path, outcomes)
    print(where, "offsets", offsets, outcomes)
    assert outcomes["killed"] >= 5 and outcomes["whole"] >= 2


def test_new_on_an_empty_file_torn_inside_its_first_page(tmp_path: Path) -> None:
    """The empty file is filled in place, in one transaction: its first page torn (at 1535 bytes),
    the hot journal it leaves is rolled back by the next command, and the file is empty again, or
    `new` makes it a ledger (it was once left refused as 'not a boston-ledger database')."""
    path = tmp_path / "l.db"
    path.write_bytes(b"")
    child = faults.run(NEW, "fsize", 1535, faults.env(path))
    assert child.process.returncode == -signal.SIGXFSZ, child.stderr
    recognised_after(path, {"whole": 0, "blank": 0, "nothing": 0})


# ---- what earlier versions left half-made ------------------------------------------------------


def earlier_leftover(path: Path, state: str) -> None:
    """What a `new` of an earlier version left when it was stopped: its WAL switch done and no
    table; sqlite-utils' table alone; the first migration; both migrations (user_version 0)."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    if state != "blank":
        script = (FIXTURES / "ledger-v1.sql").read_text(encoding="utf-8")
        creates = [s for s in script.split(";\n") if s.lstrip().startswith("CREATE")]
        if state == "table":
            creates = creates[:1]
        for statement in creates:
            conn.execute(statement)
        if state != "table":
            conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
                         " VALUES ('boston_ledger', 'm001_initial', '2026-11-30')")
        if state == "both":
            full = frozen_schema()
            for table in ("corrections", "supersessions", "reopenings", "payments"):
                start = full.index(f"CREATE TABLE {table} (")
                conn.execute(full[start:full.index(";\n", start)])
            for column in ("correction_id INTEGER REFERENCES corrections(id)", "balances TEXT", "basket INTEGER"):
                conn.execute(f"ALTER TABLE deals ADD COLUMN {column}")
            for start in [i for i in range(len(full)) if full.startswith("CREATE TRIGGER", i)]:
                statement = full[start:full.index("END;", start) + 3]
                if statement.split()[2].split("_no_")[0] in ("corrections", "supersessions", "reopenings", "payments"):
                    conn.execute(statement)
            conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
                         " VALUES ('boston_ledger', 'm002_corrections', '2026-11-30')")
    conn.commit()
    conn.close()


@pytest.mark.parametrize("state", ["blank", "table", "first", "both"])
def test_what_an_earlier_new_left_is_recognised_and_completed(tmp_path: Path, state: str) -> None:
    path = tmp_path / "l.db"
    earlier_leftover(path, state)
    status = invoke("status", "--db", str(path))
    assert status.exit_code == 2 and "no " in status.stderr and "something else" not in status.stderr, status.stderr
    done = invoke(*NEW, "--db", str(path))
    assert done.exit_code == 0, done.stderr
    ledger(path, 1)


def test_a_new_that_fails_on_its_input_leaves_no_file(tmp_path: Path) -> None:
    """Whatever `new` refuses, even text that cannot be stored (not UTF-8), no file appears."""
    path = tmp_path / "club" / "l.db"
    for extra in (["--currency", "\udcff"], ["--name", "\udcff"], ["--chip-value", "x"]):
        done = invoke(*NEW, *extra, "--db", str(path))
        assert done.exit_code == 2 and done.stderr.count("\n") == 1, done.stderr
        assert not path.parent.exists(), extra
