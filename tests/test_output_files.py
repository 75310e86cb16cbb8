"""Files written for people (an export's set of CSV files, a chart) replace what was there whole or
not at all: interrupted at any point (an error after any file, Ctrl-C, SIGKILL at a point the child
reports), the folder holds the old set or the new one, never a mix, and no temporary file stays; a
symlink at the destination is never followed; modes follow the umask."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import sqlite3
import stat
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import faults

EIGHT = ["balances.csv", "corrections.csv", "deals.csv", "payments.csv", "settlement.csv", "suggested-payments.csv",
         "transfers.csv", "undone.csv"]


def contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def leftovers(root: Path) -> list[str]:
    """The hidden folders and files an export makes beside OUT and removes."""
    return [p for p in everything(root) if p.startswith(".")]


def everything(root: Path) -> list[str]:
    """Every path under root (hidden ones too), but the ledger's own files."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if not p.name.startswith("ledger.db"))


@pytest.fixture
def evening(table, tmp_path: Path):
    """An old export (3 files) of an evening then played on, so that a new export has all eight files."""
    table("deal", "junior", "--declarer", "Anna", "--partner", "Boris", "--tricks", "5", "--partner-tricks", "3")
    out = tmp_path / "out"
    table("export", str(out))
    old = contents(out)
    assert sorted(old) == ["balances.csv", "deals.csv", "transfers.csv"]
    table("deal", "solo", "--declarer", "Vera", "--tricks", "7")
    table("undo")
    table("edit", "1", "junior", "--declarer", "Anna", "--partner", "Boris", "--tricks", "6",
          "--partner-tricks", "3", "--reason", "six")
    table("settle")
    table("paid", "Vera", "Anna", "0.10", "--yes")
    return table, out, old


def new_export(table, tmp_path: Path) -> dict[str, bytes]:
    """What a complete export of the evening now writes (into a folder of its own)."""
    table("export", str(tmp_path / "reference"))
    return contents(tmp_path / "reference")


# ---- interrupted ------------------------------------------------------------------------------
# The new set is written whole into a folder of its own before it is swapped in, whichever way
# (Linux's atomic exchange, or two renames where the C library has no renameat2): an
# interruption while it is written meets no swap, and Ctrl-C is held back during the swap. The
# export runs in a child under tests/faults.py, which reports each file operation it reaches
# (os calls and `open`) and there stops (to be killed or sent Ctrl-C) or makes the call fail as a
# full disk would.

WAYS = {"exchange": (), "two-renames": ("renameat2",)}
FAILURES = {"disk-full": 2, "ctrl-c": 130, "kill": -signal.SIGKILL}


def interrupted(out: Path, k: int, failure: str, way: str) -> int:
    """`export OUT` in a child, interrupted at its k-th file operation; its exit status."""
    if failure == "disk-full":
        child = faults.run(["export", str(out)], "io", k, fail=errno.ENOSPC, hide=WAYS[way])
        assert child.said.startswith(f"failed {k} "), child.said
        assert child.process.returncode in (0, 2), child.stderr
        if child.process.returncode == 2:
            assert child.stderr.startswith("boston-ledger: error: ") and child.stderr.count("\n") == 1, child.stderr
            assert os.strerror(errno.ENOSPC) in child.stderr
        return child.process.returncode
    child = faults.start(["export", str(out)], "io", k, hide=WAYS[way])
    assert child.stopped, (k, child.said, child.stderr)
    return child.kill() if failure == "kill" else child.interrupt()


def points_of_an_export(evening_out: Path, tmp_path: Path, way: str) -> list[str]:
    """The file operations of `export` over an earlier set like OUT's (counted on a copy of it)."""
    counting = tmp_path / "counting"
    shutil.copytree(evening_out, counting)
    child = faults.run(["export", str(counting)], "io", 10**9, hide=WAYS[way])
    shutil.rmtree(counting)
    return child.said.split()[2:]


def holds_one_whole_set(table, tmp_path: Path, out: Path, old: dict, new: dict, points: list[str], k: int,
                        failure: str, way: str) -> None:
    """The export interrupted at point k leaves OUT with the old set or the new one, whole: the old
    one while the files are written, the new one once Ctrl-C (held back during the swap) comes;
    nothing left behind unless a kill or a failure of the old set's removal left it; and the
    next export replaces it whole and removes what was left."""
    shutil.rmtree(out)  # the old set at OUT again
    out.mkdir()
    for name, data in old.items():
        (out / name).write_bytes(data)
    before = everything(tmp_path)
    inside = f"{out.name}/"
    after = sorted([p for p in before if not p.startswith(inside)] + [inside + name for name in new])
    written = len(points) - points[::-1].index("fopen")  # the last file of the new set opened
    code = interrupted(out, k, failure, way)
    where = (k, points[k - 1], code)
    assert code in (FAILURES[failure], 0), where
    assert contents(out) in (old, new), where  # never a mix
    if failure == "disk-full":  # refused, or a failure it could go on after (an existing folder, a removal)
        assert contents(out) == (old if code == 2 else new), where
    elif failure == "ctrl-c":  # at once while the files are written; after the swap once in it
        assert contents(out) == (old if k <= written else new), where
    elif k <= written:
        assert contents(out) == old, where
    if (contents(out) == old and failure != "kill") or failure == "ctrl-c":
        assert leftovers(tmp_path) == [], where  # no temporary file or folder left
    table("export", str(out))
    assert contents(out) == new
    assert leftovers(tmp_path) == [] and everything(tmp_path) == after  # what was left: removed


@pytest.mark.parametrize("failure, file", [("disk-full", 1), ("ctrl-c", 4), ("kill", 8)])
def test_an_export_interrupted_as_it_writes_leaves_the_old_set(evening, tmp_path: Path, failure: str,
                                                               file: int) -> None:
    """Interrupted as it opens the first, the fourth, the last of the eight files of the new set."""
    table, out, old = evening
    new = new_export(table, tmp_path)
    points = points_of_an_export(out, tmp_path, "exchange")
    k = [k for k, name in enumerate(points, 1) if name == "fopen"][file - 1]
    holds_one_whole_set(table, tmp_path, out, old, new, points, k, failure, "exchange")


@pytest.mark.slow
@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("failure", FAILURES)
def test_an_export_interrupted_anywhere_leaves_one_whole_set(evening, tmp_path: Path, failure: str, way: str) -> None:
    """At file operations of the export (those of the swap and a sample of the others; every one
    with BOSTON_LEDGER_ALL_KILL_POINTS=1), each way of swapping: a full disk there, Ctrl-C there,
    SIGKILL there. (A kill between the two renames of the fallback finds no folder at OUT for that
    instant: not tried.)"""
    table, out, old = evening
    new = new_export(table, tmp_path)
    points = points_of_an_export(out, tmp_path, way)
    assert "fopen" in points and ("rename" in points) == (way == "two-renames")
    between = {points.index("rename") + 2} if way == "two-renames" else set()  # the second rename
    written = len(points) - points[::-1].index("fopen")
    swap = set(range(written - 1, len(points) - points[::-1].index("open") + 2))  # to the old set's removal
    for k in faults.sample(range(1, len(points) + 1), 2, 20261205, edges=swap):
        if not (failure == "kill" and k in between):
            holds_one_whole_set(table, tmp_path, out, old, new, points, k, failure, way)


def test_a_leftover_of_a_living_export_is_left_alone(table, tmp_path: Path) -> None:
    table("deal", "pass")
    busy = tmp_path / f".out.{os.getpid()}.abc123.new"  # this very process: alive
    busy.mkdir()
    (busy / "deals.csv").write_text("being written")
    table("export", str(tmp_path / "out"))
    assert (busy / "deals.csv").read_text() == "being written"


# ---- what is at the destination ----------------------------------------------------------------


def test_a_symlinked_file_in_the_old_export_is_not_followed(evening, tmp_path: Path) -> None:
    table, out, __ = evening
    target = tmp_path / "precious.txt"
    target.write_text("mine")
    (out / "deals.csv").unlink()
    (out / "deals.csv").symlink_to(target)
    table("export", str(out))
    assert target.read_text() == "mine"
    assert stat.S_ISREG((out / "deals.csv").lstat().st_mode)
    assert contents(out) == new_export(table, tmp_path)


@pytest.mark.parametrize("dangling", [False, True])
def test_a_symlinked_export_folder_is_refused(table, tmp_path: Path, dangling: bool) -> None:
    target = tmp_path / "elsewhere"
    if not dangling:
        target.mkdir()
        (target / "deals.csv").write_text("mine")
    (tmp_path / "out").symlink_to(target, target_is_directory=True)
    before = everything(tmp_path)
    result = table("export", str(tmp_path / "out"), code=2)
    assert "symbolic link" in result.stderr and result.stderr.count("\n") == 1
    assert everything(tmp_path) == before
    if not dangling:
        assert (target / "deals.csv").read_text() == "mine"


def test_a_folder_with_other_files_is_refused_untouched(table, tmp_path: Path) -> None:
    out = tmp_path / "documents"
    out.mkdir()
    (out / "deals.csv").write_text("an old export's")
    (out / "letter.txt").write_text("mine")
    (out / "sub").mkdir()
    before = everything(tmp_path)
    result = table("export", str(out), code=2)
    assert "letter.txt" in result.stderr or "sub" in result.stderr
    assert everything(tmp_path) == before and (out / "deals.csv").read_text() == "an old export's"
    (out / "letter.txt").unlink()
    table("export", str(out), code=2)  # a folder named like a file of ours is not ours either
    (out / "sub").rmdir()
    table("export", str(out))
    assert sorted(contents(out)) == ["balances.csv", "deals.csv", "transfers.csv"]


def test_an_export_makes_missing_folders(table, tmp_path: Path) -> None:
    table("export", str(tmp_path / "a" / "b" / "c"))
    assert sorted(contents(tmp_path / "a" / "b" / "c")) == ["balances.csv", "deals.csv", "transfers.csv"]
    assert [p for p in everything(tmp_path) if p.startswith("a")] == [
        "a", "a/b", "a/b/c", "a/b/c/balances.csv", "a/b/c/deals.csv", "a/b/c/transfers.csv"]


# ---- modes -------------------------------------------------------------------------------------


@pytest.mark.parametrize("mask, folder, file", [(0o002, 0o775, 0o664), (0o077, 0o700, 0o600), (0o022, 0o755, 0o644)])
def test_modes_follow_the_umask(table, tmp_path: Path, mask: int, folder: int, file: int) -> None:
    before = os.umask(mask)
    try:
        table("export", str(tmp_path / "out"))
        table("chart", "--svg", str(tmp_path / "chart.svg"))
        table("chart", "--svg", str(tmp_path / "chart.svg"))  # over an earlier one
    finally:
        os.umask(before)
    assert stat.S_IMODE((tmp_path / "out").stat().st_mode) == folder
    assert {stat.S_IMODE(p.stat().st_mode) for p in (tmp_path / "out").iterdir()} == {file}
    assert stat.S_IMODE((tmp_path / "chart.svg").stat().st_mode) == file


def test_a_replaced_export_keeps_its_folder_s_mode(table, tmp_path: Path) -> None:
    out = tmp_path / "out"
    table("export", str(out))
    out.chmod(0o750)
    table("deal", "pass")
    table("export", str(out))
    assert stat.S_IMODE(out.stat().st_mode) == 0o750


# ---- charts ------------------------------------------------------------------------------------


def test_a_chart_never_follows_a_symlink(table, tmp_path: Path) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("mine")
    (tmp_path / "chart.svg").symlink_to(target)
    table("chart", "--svg", str(tmp_path / "chart.svg"))
    assert target.read_text() == "mine"
    assert stat.S_ISREG((tmp_path / "chart.svg").lstat().st_mode)
    ET.parse(tmp_path / "chart.svg")


@pytest.mark.parametrize("failure", ["disk-full", "ctrl-c"])
def test_an_interrupted_chart_leaves_the_old_one(table, tmp_path: Path, failure: str) -> None:
    """At each file operation of `chart --svg` (its temporary file made, opened, renamed over)."""
    svg = tmp_path / "chart.svg"
    table("chart", "--svg", str(svg))
    old = svg.read_bytes()
    table("deal", "solo", "--declarer", "Vera", "--tricks", "9")
    counting = tmp_path / "counting.svg"
    points = faults.run(["chart", "--svg", str(counting)], "io", 10**9).said.split()[2:]
    counting.unlink()
    assert points == ["open", "fopen", "replace"]
    before = everything(tmp_path)
    for k in range(1, len(points) + 1):
        if failure == "disk-full":
            child = faults.run(["chart", "--svg", str(svg)], "io", k, fail=errno.ENOSPC)
            code = child.process.returncode
        else:
            child = faults.start(["chart", "--svg", str(svg)], "io", k)
            code = child.interrupt()
        assert code == (2 if failure == "disk-full" else 130), (k, child.stderr)
        assert svg.read_bytes() == old and everything(tmp_path) == before, points[k - 1]


def test_a_chart_of_hostile_names_is_still_xml(table, tmp_path: Path, isolated: Path) -> None:
    conn = sqlite3.connect(isolated)
    kept = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'players_no_update'").fetchone()[0]
    conn.execute("DROP TRIGGER players_no_update")  # made again below: a ledger without it is not opened
    conn.execute("UPDATE players SET name = ? WHERE seat = 0", ("A\x1b]52;c;aGk=\x07<b>&",))
    conn.execute(kept)
    conn.commit()
    conn.close()
    table("chart", "--svg", str(tmp_path / "chart.svg"))
    texts = [t.text for t in ET.parse(tmp_path / "chart.svg").iter("{http://www.w3.org/2000/svg}text")]
    assert "A\\x1b]52;c;aGk=\\x07<b>& (0)" in texts
