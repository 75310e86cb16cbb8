"""The fault harness itself (tests/faults.py): a child forked from the test process passes the
same points as a fresh interpreter, whatever the test process ran before (the kill tests count a
command's points in one child and kill others at them), and ends as a fresh one would."""

from __future__ import annotations

import re
import shutil
import signal
from pathlib import Path

import pytest

import faults
from conftest import PLAYERS
from test_durability import statements
from test_foreign_files import v1_ledger

NEW = ["new", *PLAYERS, "--chip-value", "0.10"]
RANDOM = re.compile(r"[0-9a-f]{32}")  # sqlite-utils names its savepoints at random


def ledger_with_deals(cli, path: Path) -> None:
    cli(*NEW, "--db", str(path))
    cli("deal", "junior", "--declarer", "Anna", "--partner", "Boris", "--tricks", "5", "--partner-tricks", "3",
        "--db", str(path))
    cli("deal", "solo", "--declarer", "Vera", "--tricks", "7", "--db", str(path))


def counted(tmp_path: Path, name: str, fresh: bool) -> dict[str, list[str]]:
    """The points of each command counted on a copy of what `tmp_path / "kept"` holds."""
    folder = tmp_path / name
    shutil.copytree(tmp_path / "kept", folder)
    runs = {
        "new io": (NEW, "io", folder / "new-io" / "l.db"),
        "new sql": (NEW, "sql", folder / "new-sql" / "l.db"),
        "new io on a ledger": (["new", "W", "X", "Y", "Z", "--lang", "ru", "--yes"], "io", folder / "deals.db"),
        "status sql migrating": (["status"], "sql", folder / "v1.db"),
        "export io": (["export", str(folder / "export")], "io", folder / "deals.db"),
        "check sql": (["check", "--all"], "sql", folder / "deals.db"),
    }
    said = {}
    for what, (args, kind, db) in runs.items():
        child = faults.run(args, kind, 10**9, faults.env(db), fresh=fresh)
        assert child.process.returncode == 0, (what, child.stderr)
        said[what] = [RANDOM.sub("…", name) for name in child.said.split()[2:]]
    return said


@pytest.mark.slow
def test_a_forked_child_passes_the_points_a_fresh_one_does(cli, tmp_path: Path) -> None:
    kept = tmp_path / "kept"
    kept.mkdir()
    v1_ledger(kept / "v1.db")
    ledger_with_deals(cli, kept / "deals.db")
    first = counted(tmp_path, "first", fresh=False)
    # the test process meanwhile reads tariffs, catalogues and old schemas, and commits
    other = tmp_path / "other"
    other.mkdir()
    v1_ledger(other / "v1.db")
    cli("status", "--db", str(other / "v1.db"))
    ledger_with_deals(cli, other / "deals.db")
    for args in (["status", "--lang", "ru"], ["history", "--lang", "ru"], ["check", "--all"], ["stats"],
                 ["export", str(other / "export")], ["new", "W", "X", "Y", "Z", "--yes", "--lang", "ru"]):
        cli(*args, "--db", str(other / "deals.db"))
    again = counted(tmp_path, "again", fresh=False)
    fresh = counted(tmp_path, "fresh", fresh=True)
    assert all(first.values())
    assert again == first
    assert fresh == first


def test_a_forked_child_ends_as_python_would(tmp_path: Path) -> None:
    """Its exit status (a refusal's 2, Ctrl-C's 130), its streams, and no trace of the test process."""
    env = faults.env(tmp_path / "l.db")
    refused = faults.run(["status"], environ=env)
    assert refused.process.returncode == 2 and refused.stderr.count("\n") == 1 and refused.stdout == ""
    made = faults.run(NEW, environ=env)
    assert made.process.returncode == 0 and made.stderr == "" and "Anna" in made.stdout
    for fresh in (False, True):
        stopped = faults.start(["export", str(tmp_path / f"export-{fresh}")], "io", 1, env, fresh=fresh)
        assert stopped.stopped
        assert stopped.interrupt() == 130 and "Traceback" not in stopped.stderr, (fresh, stopped.stderr)
    killed = faults.start(["status"], "sql", 1, env)
    assert killed.kill() == -signal.SIGKILL


# A program that says what it was given and how its signals stand, and ends with its first argument.
SAYS = """
import os, signal, sys
print(sys.argv, os.environ["BOSTON_LEDGER_DB"], sys.stdin.readline().strip(), sys.stdout.encoding)
print([signal.getsignal(s) for s in (signal.SIGINT, signal.SIGPIPE, signal.SIGXFSZ, signal.SIGTERM)])
print("ё", file=sys.stderr)
sys.exit(int(sys.argv[1]))
"""


@pytest.mark.slow
def test_a_python_program_forked_runs_as_a_fresh_one(cli, tmp_path: Path) -> None:
    """faults.python: the same output, status and signals; and the durability writer passes the
    same statements, in a child forked after the test process recorded and checked deals."""
    said = []
    for fresh in (False, True):
        child = faults.python(SAYS, ["3", "ё"], faults.env(tmp_path / "l.db"), stdin=True, fresh=fresh)
        assert child.stdin is not None
        child.stdin.write("bid\n")
        said.append((*child.communicate(), child.returncode))
    assert said[0] == said[1]
    assert said[0][1:] == ("ё\n", 3) and "bid" in said[0][0]
    ledger_with_deals(cli, tmp_path / "other.db")
    cli("check", "--all", "--db", str(tmp_path / "other.db"))
    assert statements(tmp_path / "forked") == statements(tmp_path / "fresh", interpreter=True)
