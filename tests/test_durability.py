"""Crash safety and two writers: the ledger never loses, duplicates or half-writes a deal.

The kills land at a fixed sample of a writer's statements and byte offsets (faults.sample), the
same every run; BOSTON_LEDGER_ALL_KILL_POINTS=1 tries every one of them."""

from __future__ import annotations

import gc
import os
import random
import shlex
import signal
import sqlite3
import subprocess
from pathlib import Path

import pytest

import faults

from boston_ledger.app import check as checks
from boston_ledger.app import sessions
from boston_ledger.store import read
from boston_ledger.store.db import open_db

from conftest import PLAYERS, PROGRAM

pytestmark = pytest.mark.disk  # about syncing: on a real disk, never tmpfs (conftest.py)

# A child that records deals in a loop and says the running count after each commit.
WRITER = r"""
import sys
from boston_ledger.app import deals as table, sessions
from boston_ledger.store import read, write
from boston_ledger.store.db import open_db, writing
from boston_ledger.app.demo import SCRIPT
conn = open_db(__import__("pathlib").Path(sys.argv[1]))
session = int(sys.argv[2])
limit = int(sys.argv[3])
for i in range(limit):
    deal = SCRIPT[i % len(SCRIPT)][0]
    if deal.contract == "pass":
        deal = SCRIPT[0][0]  # no endless doubling of the basket
    table.enter(conn, deal, session)
    print(i + 1, flush=True)
"""


def fresh(tmp_path: Path) -> tuple[Path, int]:
    from boston_ledger.core.tariff_files import load
    from decimal import Decimal

    path = tmp_path / "ledger.db"
    conn = open_db(path, create=True)
    session = sessions.new(conn, PLAYERS, load("classic"), Decimal("0.1"), "").id
    conn.close()
    return path, session


def standing(path: Path, session: int) -> list[int]:
    conn = open_db(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert checks.check_session(conn, session) == []
        s = read.session(conn, session)
        return [r.number for r in read.deals(conn, s)]
    finally:
        conn.close()


# The same child, recording deals for ever (it never ends by itself), that reaches a kill point:
# its k-th SQL statement after opening the ledger (SQLite's trace callback). There it says "at";
# "stop" also stops it right there (SIGSTOP), before that statement runs, for the test to kill it
# at exactly that point; "go" carries on, to be killed wherever the test's SIGKILL finds it
# (inside a commit's writes, say), but never before the point. `limit` bytes: the child's files
# may not grow past that offset, and it dies (SIGXFSZ) at the write that would cross it. "count"
# records k deals and prints the first word of each statement it passed, then ends.
KILLABLE = r"""
import os, resource, signal, sys
from pathlib import Path
from boston_ledger.app import deals as table
from boston_ledger.app.demo import SCRIPT
from boston_ledger.store.db import open_db
path, session, k, how = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
if how == "limit":
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (k, k))
conn = open_db(path)
count = 0
names = []
def reached(statement):
    global count
    count += 1
    names.append(statement.split()[0])
    if count == k and how not in ("limit", "count"):
        os.write(1, b"at\n")
        if how == "stop":
            os.kill(os.getpid(), signal.SIGSTOP)
conn.set_trace_callback(reached)
deals = [d for d, __ in SCRIPT if d.contract != "pass"]  # no endless doubling of the basket
i = 0
while how != "count" or i < k:
    table.enter(conn, deals[i % len(deals)], session)
    i += 1
    print(i, flush=True)
if how == "count":
    print(" ".join(names))
"""
DEALS = 12  # kill points among the first dozen deals (a deal takes some 25 statements)
LIMIT = 400 * 1024  # byte offsets up to this one


def statements(folder: Path, interpreter: bool = False) -> list[str]:
    """The first word of each statement the writer passes in its first DEALS deals (in a fresh
    `interpreter`, rather than the test process forked)."""
    folder.mkdir()
    path, session = fresh(folder)
    child = faults.python(KILLABLE, [str(path), str(session), str(DEALS), "count"], faults.env(), fresh=interpreter)
    out, err = child.communicate()
    assert child.returncode == 0, err
    return out.splitlines()[-1].split()


def kill_loop(folder: Path, kills: list[tuple[int, str]]) -> tuple[int, int]:
    """Start a writer, kill it at a point it reports having reached (or as its writes reach a
    byte offset), check the ledger; once for each (point or offset, "stop", "go" or "limit").
    Returns (kills, deals recorded). Run beside another kill loop (`two_ledgers`): what it does in
    SQLite itself, it does holding faults.FORKING (the other forks its writers meanwhile)."""
    folder.mkdir()
    with faults.FORKING:
        path, session = fresh(folder)
    env = faults.env(PYTHONUNBUFFERED="1")
    total = killed = 0
    for k, mode in kills:
        child = faults.python(KILLABLE, [str(path), str(session), str(k), mode], env)
        assert child.stdout is not None and child.stderr is not None
        reported = 0
        if mode != "limit":
            while (line := child.stdout.readline()) != "at\n":  # it has reached its kill point
                assert line, child.communicate()[1]  # (it never ends by itself)
                reported = int(line)
            child.send_signal(signal.SIGKILL)
        out, err = child.stdout.read(), child.stderr.read()  # through the buffers readline() filled
        child.wait()
        assert "database is locked" not in err and "Traceback" not in err, err
        killed += child.returncode == (-signal.SIGXFSZ if mode == "limit" else -signal.SIGKILL)
        reported = int(out.split()[-1]) if out.split() else reported
        with faults.FORKING:
            numbers = standing(path, session)
        # every deal reported as recorded is there; at most the one in flight more; none half-written
        assert total + reported <= len(numbers) <= total + reported + 1
        assert numbers == list(range(1, len(numbers) + 1))
        total = len(numbers)
    return killed, total


def two_ledgers(tmp_path: Path, kills: list[tuple[int, str]]) -> list[tuple[int, int]]:
    """The kills shared out between two ledgers, killed at once: one per core. No cycle of the
    test process's is collected meanwhile: a connection left to the collector would be closed
    (inside SQLite) in one thread as the other forks."""
    from concurrent.futures import ThreadPoolExecutor

    collecting = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        with ThreadPoolExecutor(2) as pool:
            return list(pool.map(lambda n: kill_loop(tmp_path / f"l{n}", kills[n::2]), range(2)))
    finally:
        if collecting:
            gc.enable()


@pytest.mark.slow
def test_sigkill_at_its_statements_loses_nothing(tmp_path: Path) -> None:
    """SIGKILLs, each after the writer reports reaching its kill point: exactly there, before one of
    its statements (of its reads, inserts, commits), or wherever the kill finds it after that point.
    Of the dozen deals' statements, each way: a sample, and the BEGIN and COMMIT of the first two
    deals and the last two (one way or the other, by turns). Nothing depends on how fast the
    machine is."""
    names = statements(tmp_path / "count")
    ends = [k for k, name in enumerate(names, 1) if name in ("BEGIN", "COMMIT")]  # BEGIN, COMMIT of each deal
    ends = ends[:4] + ends[-4:]
    edges = {(k, ("stop", "go")[(n // 2 + n) % 2]) for n, k in enumerate(ends)}  # stop at one, go at the other
    every = [(k, how) for k in range(1, len(names) + 1) for how in ("stop", "go")]
    kills = faults.sample(every, 20, 20261130, edges)
    random.Random(20261130).shuffle(kills)  # not in the order of the deals: a ledger of any length
    results = two_ledgers(tmp_path, kills)
    assert sum(k for k, __ in results) == len(kills) and all(t > 0 for __, t in results)
    print(f"{len(kills)} kills of {len(every)} survived, {sum(t for __, t in results)} deals recorded, none lost")


@pytest.mark.slow
def test_killed_as_a_write_reaches_a_byte_offset_loses_nothing(tmp_path: Path) -> None:
    """Writers killed (SIGXFSZ) at the write that crosses a byte offset of 0..400 KiB of the -wal
    (or of the -shm, or of the ledger as it is checkpointed): a torn write. Of the offsets 997
    bytes apart (a prime: they fall anywhere in a page), a sample; all with
    BOSTON_LEDGER_ALL_KILL_POINTS=1."""
    kills = faults.sample([(k, "limit") for k in range(1, LIMIT + 1, 997)], 16, 20261202)
    random.Random(20261202).shuffle(kills)
    results = two_ledgers(tmp_path, kills)
    assert sum(k for k, __ in results) == len(kills) and all(t > 0 for __, t in results)
    print(f"{len(kills)} torn writes survived, {sum(t for __, t in results)} deals recorded, none lost")


@pytest.mark.slow
def test_two_writers_at_once(tmp_path: Path) -> None:
    path, session = fresh(tmp_path)
    each = 150
    children = [faults.python(WRITER, [str(path), str(session), str(each)]) for _ in range(2)]
    results = [child.communicate(timeout=300) for child in children]
    for child, (out, err) in zip(children, results, strict=True):
        assert child.returncode == 0, err
        assert out.split()[-1] == str(each)
    numbers = standing(path, session)
    assert numbers == list(range(1, 2 * each + 1))
    conn = sqlite3.connect(path)
    stored = [row[0] for row in conn.execute("SELECT number FROM deals ORDER BY id")]
    assert stored == list(range(1, 2 * each + 1))  # consecutive as entered, none duplicated


@pytest.mark.slow
def test_two_terminals_through_the_cli(cli, tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    env = {**os.environ, "BOSTON_LEDGER_DB": str(db)}
    cli("new", *PLAYERS, "--db", str(db))
    script = (f"for i in 1 2 3 4; do {shlex.join(PROGRAM)} deal junior --declarer Boris --partner Gleb "
              "--tricks 5 --partner-tricks 4 >/dev/null || exit 1; done")
    shells = [subprocess.Popen(["bash", "-c", script], env=env, stderr=subprocess.PIPE, text=True)
              for _ in range(2)]
    for shell in shells:
        _, err = shell.communicate(timeout=300)
        assert shell.returncode == 0, err
    assert cli("check", "--db", str(db)).stdout == ""
    assert cli.json("status", "--db", str(db))["deals"] == 8
