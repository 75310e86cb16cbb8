"""Writers wait for each other: a held lock is said on stderr after a while (English or
Russian) and then simply waited for; Ctrl-C meanwhile leaves nothing half-done; several `new`
on a fresh path, or several opens of a ledger that needs its migration, all succeed in turn.

Nothing here depends on timing: each step waits for what a child reports (the line it says
when it starts waiting, the point where it stopped), never for a number of seconds.

The program says it waits after WAIT_NOTICE, 2 s; one test waits for that. The others' children
say it after a tenth of a second (the same program, that constant set lower before it runs):
what they check comes after the notice, and a second test of it would only wait longer.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest

import faults
from boston_ledger.store import db
from boston_ledger.store.schema import SCHEMA_VERSION
from conftest import PLAYERS, PROGRAM, interruptible
from test_foreign_files import v1_ledger

NEW = ["new", *PLAYERS]
NOTICE = "boston-ledger: waiting for another boston-ledger that is writing to "


def count(path: Path, table: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    finally:
        conn.close()


def sound(cli, path: Path) -> None:
    result = cli("check", "--all", "--db", str(path))
    assert result.stdout == "" and result.stderr == ""


# the program with the notice after `sys.argv[1]` seconds
SOON = """
import sys
from boston_ledger.store import db
db.WAIT_NOTICE = float(sys.argv[1])
from boston_ledger.cli.main import main
sys.argv = ["boston-ledger", *sys.argv[2:]]
main()
"""


def waiting_child(args: list[str], env: dict[str, str],
                  notice: float | None = 0.1) -> tuple[subprocess.Popen | faults.Forked, str]:
    """Start the program (saying that it waits after `notice` seconds, None: the program's own
    WAIT_NOTICE); return once it says that it waits (its first stderr line). With `notice`, the
    test process forked (faults.python); without, the program itself, started afresh."""
    child: subprocess.Popen | faults.Forked
    if notice is None:
        child = subprocess.Popen([*PROGRAM, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, env=env, preexec_fn=interruptible)
    else:
        child = faults.python(SOON, [str(notice), *args], env)
    assert child.stderr is not None
    return child, child.stderr.readline()


# Another writer, in the middle of its transaction on the ledger `sys.argv[1]`; it ends it with the
# statement it reads (COMMIT or ROLLBACK). A process of its own: while the test process held the
# ledger, its children could not be forked from it (tests/faults.py).
HOLDER = """
import sqlite3, sys
holder = sqlite3.connect(sys.argv[1], isolation_level=None)
holder.execute("BEGIN IMMEDIATE")
print("holding", flush=True)
holder.execute(sys.stdin.readline())
holder.close()
"""


def holding(path: Path) -> subprocess.Popen | faults.Forked:
    """Another writer, once it holds the ledger."""
    holder = faults.python(HOLDER, [str(path)], faults.env(), stdin=True)
    assert holder.stdout is not None and holder.stdout.readline() == "holding\n", holder.communicate()
    return holder


def release(holder: subprocess.Popen | faults.Forked, statement: str) -> None:
    """The other writer ends its transaction with `statement`, and ends."""
    assert holder.stdin is not None
    holder.stdin.write(statement + "\n")
    __, err = holder.communicate()
    assert holder.returncode == 0 and err == "", err


@pytest.mark.slow  # a process each, waiting for another
@pytest.mark.parametrize("args, notice", [pytest.param(["deal", "pass"], None, id="quick-path"),
                                          pytest.param(["undo"], 0.1, id="typer-path"),
                                          pytest.param(["new", "W", "X", "Y", "Z", "--yes"], 0.1, id="new")])
def test_a_held_lock_is_said_and_waited_for(cli, tmp_path: Path, args, notice) -> None:
    path = tmp_path / "l.db"
    cli(*NEW, "--db", str(path))
    cli("deal", "pass", "--db", str(path))
    holder = holding(path)  # another writer, in the middle of its transaction
    child, said = waiting_child(args, faults.env(path), notice)  # the first: after the program's 2 s
    assert said == NOTICE + f"{path} (Ctrl-C stops waiting; nothing is recorded then)\n"
    release(holder, "COMMIT")
    __, err = child.communicate()
    assert child.returncode == 0 and err == "", err
    assert count(path, "deals") == 1 + (args == ["deal", "pass"])
    assert count(path, "undos") == (args == ["undo"])
    assert count(path, "sessions") == 1 + (args[0] == "new")
    sound(cli, path)


def test_the_notice_speaks_russian(cli, tmp_path: Path) -> None:
    path = tmp_path / "l.db"
    cli(*NEW, "--db", str(path))
    holder = holding(path)
    child, said = waiting_child(["deal", "pass", "--lang", "ru"], faults.env(path))
    assert said.startswith("boston-ledger: ждём другой boston-ledger, который пишет в ")
    release(holder, "ROLLBACK")
    child.communicate()
    assert child.returncode == 0


@pytest.mark.slow  # a process each, waiting for another
@pytest.mark.parametrize("args", [["deal", "pass"], ["undo"], ["new", "W", "X", "Y", "Z", "--yes"]],
                         ids=["quick-path", "typer-path", "new"])
def test_ctrl_c_while_waiting_leaves_nothing_half_done(cli, tmp_path: Path, args) -> None:
    path = tmp_path / "l.db"
    cli(*NEW, "--db", str(path))
    cli("deal", "pass", "--db", str(path))
    before = list(sqlite3.connect(path).iterdump())
    holder = holding(path)
    child, said = waiting_child(args, faults.env(path))
    assert said.startswith(NOTICE)
    child.send_signal(signal.SIGINT)
    __, err = child.communicate()
    assert child.returncode != 0 and "Traceback" not in err, err
    release(holder, "ROLLBACK")
    assert list(sqlite3.connect(path).iterdump()) == before
    sound(cli, path)


def released_together(args_of: list[list[str]], env: dict[str, str]) -> list[faults.Child]:
    """Children that start together: each waits on a pipe that closing releases them all at once."""
    gate_r, gate_w = os.pipe()
    children = [faults.start(args, environ=env, barrier=gate_r, wait=False) for args in args_of]
    os.close(gate_r)
    os.close(gate_w)
    return [faults.settle(c) for c in children]


def only_waiting(stderr: str) -> bool:
    return all(line.startswith(NOTICE) for line in stderr.splitlines())


@pytest.mark.slow
def test_several_new_on_a_fresh_path_at_once(cli, tmp_path: Path) -> None:
    rounds, each = 1, 6
    for r in range(rounds):
        path = tmp_path / f"round-{r}" / "club" / "l.db"  # the folders are raced for too
        children = released_together([["new", f"A{i}", f"B{i}", f"C{i}", f"D{i}"] for i in range(each)],
                                     faults.env(path))
        for child in children:
            assert child.process.returncode == 0 and only_waiting(child.stderr), child.stderr
        assert count(path, "sessions") == each
        sound(cli, path)
    print(f"{rounds} rounds of {each} `new` at once on a fresh path")


def test_a_ledger_met_while_a_checkpoint_grows_it_is_still_ours(cli, tmp_path: Path) -> None:
    # CI once saw a `new` refuse a ledger that five others were writing to ("not a boston-ledger
    # database (database disk image is malformed)"): a checkpoint that grows the file writes page
    # 1, which counts the new pages, before the pages themselves; a read of the header that takes
    # no lock, met at that moment, finds the file shorter than page 1 says. That moment, held still:
    path = tmp_path / "l.db"
    cli(*NEW, "--db", str(path))
    pages = os.path.getsize(path) // 4096
    keeper = sqlite3.connect(path)  # keeps the -wal: what the others write stays there meanwhile
    keeper.execute("PRAGMA wal_autocheckpoint = 0")
    keeper.execute("SELECT COUNT(*) FROM sessions").fetchone()
    for i in range(8):
        cli("new", f"A{i}", f"B{i}", f"C{i}", f"D{i}", "--db", str(path))
    grown = keeper.execute("PRAGMA page_count").fetchone()[0]
    assert grown > pages == os.path.getsize(path) // 4096
    with open(path, "r+b") as f:  # page 1 as the checkpoint writes it first: the new page count
        f.seek(28)
        f.write(grown.to_bytes(4, "big"))
    found = db.examine(path)
    assert found.what == "ours", found
    cli("new", "E", "F", "G", "H", "--db", str(path))
    keeper.close()  # the checkpoint completes: every page in the file
    assert count(path, "sessions") == 10
    sound(cli, path)


@pytest.mark.slow
def test_several_opens_of_an_old_ledger_at_once(cli, tmp_path: Path) -> None:
    rounds, each = 1, 6
    for r in range(rounds):
        path = tmp_path / f"round-{r}.db"
        v1_ledger(path)
        args = [["status"], ["deal", "pass"]] * (each // 2)  # its current session is one of points
        children = released_together(args, faults.env(path))
        for child in children:
            assert child.process.returncode == 0 and only_waiting(child.stderr), child.stderr
        assert count(path, "_sqlite_migrations") == SCHEMA_VERSION  # each migration once
        assert count(path, "deals") == 5 + each // 2
        sound(cli, path)
    print(f"{rounds} rounds of {each} opens at once of a ledger of schema 1")


# ---- the same races, each at its worst moment ----------------------------------------------------


@pytest.mark.slow
def test_a_new_about_to_appear_finds_another_first_and_joins_it(cli, tmp_path: Path) -> None:
    """`new` stopped just before its file appears; another `new` makes the ledger meanwhile: the
    first then writes its session into that one."""
    path = tmp_path / "l.db"
    link = faults.run(NEW, "io", 10**9, faults.env(tmp_path / "count.db")).point("link")
    first = faults.start(NEW, "io", link, faults.env(path))
    assert first.stopped and first.said.endswith("link")
    cli("new", "W", "X", "Y", "Z", "--db", str(path))
    assert first.resume() == 0, first.stderr
    assert count(path, "sessions") == 2
    assert cli.json("status", "--db", str(path))["players"] == PLAYERS  # the later one is current
    sound(cli, path)


@pytest.mark.slow
def test_new_on_an_empty_file_waits_for_another_making_it_a_ledger(cli, tmp_path: Path) -> None:
    """Two `new` on one empty file: the second waits while the first holds it (stopped at its
    COMMIT), then adds its session to the ledger the first made."""
    path = tmp_path / "l.db"
    (tmp_path / "count.db").write_bytes(b"")
    commit = faults.run(NEW, "sql", 10**9, faults.env(tmp_path / "count.db")).point("COMMIT", after="BEGIN_IMMEDIATE")
    path.write_bytes(b"")
    first = faults.start(NEW, "sql", commit, faults.env(path))
    assert first.stopped
    second, said = waiting_child(["new", "W", "X", "Y", "Z"], faults.env(path))
    assert said.startswith(NOTICE)
    assert first.resume() == 0, first.stderr
    __, err = second.communicate()
    assert second.returncode == 0 and err == "", err
    assert count(path, "sessions") == 2
    sound(cli, path)


@pytest.mark.slow
def test_opens_of_an_old_ledger_wait_for_its_migration(cli, tmp_path: Path) -> None:
    """One `status` stopped at the COMMIT of the migration it makes; others wait, then find the
    ledger migrated: no "table already exists", no "database is locked"."""
    path = tmp_path / "old.db"
    v1_ledger(tmp_path / "count.db")
    counted = faults.run(["status"], "sql", 10**9, faults.env(tmp_path / "count.db"))
    commit = counted.point("COMMIT", after="BEGIN_IMMEDIATE")
    v1_ledger(path)
    first = faults.start(["status"], "sql", commit, faults.env(path))
    assert first.stopped
    others = [waiting_child(args, faults.env(path)) for args in (["status"], ["deal", "pass"], ["sessions"])]
    for __, said in others:
        assert said.startswith(NOTICE)
    assert first.resume() == 0, first.stderr
    for child, __ in others:
        __, err = child.communicate()
        assert child.returncode == 0 and err == "", err
    assert count(path, "_sqlite_migrations") == SCHEMA_VERSION  # each migration once
    sound(cli, path)
