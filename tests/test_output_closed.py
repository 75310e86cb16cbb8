"""A reader that goes away (`boston-ledger deal pass | true`) does not turn a recorded command into
a failure: once its transaction has committed, the exit status is 0, and a script that retries
on failure does not enter it twice. Before anything is committed it still fails (status 1).

The pipe's reading end is closed before the program starts, so its first write meets the
closed pipe whatever the timing."""

from __future__ import annotations

import os
import sqlite3
import subprocess
from pathlib import Path

import pytest

import faults
from conftest import PLAYERS

pytestmark = pytest.mark.slow  # a process each (a closed pipe is the process's own)


def closed_output(args: list[str], db: Path) -> subprocess.CompletedProcess:
    """The program run (a fault child, faults.py: the test process forked) with its standard output
    a pipe whose reading end is closed."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will read: every write fails with EPIPE
    try:
        child = faults.run(args, environ=faults.env(db), stdout=write_end)
    finally:
        os.close(write_end)
    return subprocess.CompletedProcess(args, child.process.returncode, "", child.stderr)


def rows(db: Path) -> dict[str, int]:
    conn = sqlite3.connect(db)
    try:
        return {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                for t in ("sessions", "deals", "undos", "corrections", "settlements", "reopenings", "payments")}
    finally:
        conn.close()


# (command line, what it adds); `--db` twice takes `deal` past the quick parser to typer's
WRITES = [
    (["deal", "pass"], {"deals": 1}),
    (["deal", "pass", "--db", "{db}", "--db", "{db}"], {"deals": 1}),
    (["undo"], {"undos": 1}),
    (["edit", "1", "solo", "--declarer", "Boris", "--tricks", "8", "--reason", "misheard"],
     {"corrections": 1, "deals": 1}),
    (["new", "W", "X", "Y", "Z", "--yes"], {"sessions": 1}),  # --yes: the evening played here is open
    (["settle"], {"settlements": 1}),
]


@pytest.mark.parametrize(("args", "adds"), WRITES, ids=[" ".join(a[:2]) + (" (typer)" if a.count("--db") == 2 else "")
                                                        for a, __ in WRITES])
def test_a_committed_command_exits_0_though_its_reader_went_away(cli, tmp_path: Path, args, adds) -> None:
    db = tmp_path / "l.db"
    cli("new", *PLAYERS, "--db", str(db))
    cli("deal", "solo", "--declarer", "Vera", "--tricks", "8", "--db", str(db))
    before = rows(db)
    done = closed_output([a.replace("{db}", str(db)) for a in args], db)
    assert done.returncode == 0 and done.stderr == "", (done.returncode, done.stderr)
    after = rows(db)
    assert {t: after[t] - before[t] for t in after if after[t] != before[t]} == adds  # recorded once
    assert cli("check", "--all", "--db", str(db)).stdout == ""


def test_the_first_new_exits_0_too(tmp_path: Path) -> None:
    db = tmp_path / "club" / "l.db"
    done = closed_output(["new", *PLAYERS], db)
    assert done.returncode == 0 and done.stderr == ""
    assert rows(db)["sessions"] == 1


def test_paid_reopen_and_use_too(cli, tmp_path: Path) -> None:
    db = tmp_path / "l.db"
    cli("new", *PLAYERS, "--db", str(db), "--chip-value", "0.10")
    cli("deal", "solo", "--declarer", "Vera", "--tricks", "8", "--db", str(db))
    cli("settle", "--db", str(db))
    for args, table in ((["paid", "Anna", "Vera", "1.00"], "payments"), (["reopen"], "reopenings")):
        before = rows(db)[table]
        done = closed_output(args, db)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        assert rows(db)[table] == before + 1
    cli("new", "W", "X", "Y", "Z", "--yes", "--db", str(db))
    assert closed_output(["use", "1"], db).returncode == 0
    assert cli.json("status", "--db", str(db))["players"] == PLAYERS


@pytest.mark.parametrize("args", [["status"], ["status", "--json"], ["sessions"]])  # quick: text, JSON; typer
def test_a_command_that_records_nothing_still_says_it_could_not_finish(cli, tmp_path: Path, args) -> None:
    db = tmp_path / "l.db"
    cli("new", *PLAYERS, "--db", str(db))
    done = closed_output(args, db)
    assert done.returncode == 1 and done.stderr == ""
