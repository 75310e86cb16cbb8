"""Files written for people (an export's set of CSV files, a chart) replace what was there whole or
not at all: interrupted at any point (an error after any file, Ctrl-C, SIGKILL at a point the child
reports), the folder holds the old set or the new one, never a mix, and no temporary file stays; a
symlink at the destination is never followed; modes follow the umask."""

from __future__ import annotations

import errno
import os
import sqlite3
import stat
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from boston_ledger.app import export as exporter
from boston_ledger.app import files

SEVEN = ["balances.csv", "corrections.csv", "deals.csv", "payments.csv", "settlement.csv", "transfers.csv",
         "undone.csv"]


def contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def everything(root: Path) -> list[str]:
    """Every path under root (hidden ones too), but the ledger's own files."""
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if not p.name.startswith("ledger.db"))


@pytest.fixture
def evening(table, tmp_path: Path):
    """An old export (3 files) of an evening then played on, so that a new export has all seven files."""
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
    return table, out, old


def new_export(table, tmp_path: Path) -> dict[str, bytes]:
    """What a complete export of the evening now writes (into a folder of its own)."""
    table("export", str(tmp_path / "reference"))
    return contents(tmp_path / "reference")


# ---- interrupted ------------------------------------------------------------------------------
# The new set is written whole into a folder of its own before it is swapped in, whichever way
# (Linux's atomic exchange, or two renames elsewhere): an interruption while it is written meets
# no swap. The two ways of swapping are held where the swap happens: the failed second rename
# below, and the kill once swapped in either way.


@pytest.mark.parametrize("after", range(6))  # seven files, deals.csv and balances.csv written in one pass
@pytest.mark.parametrize("failure", ["disk-full", "ctrl-c"])
def test_an_interrupted_export_leaves_the_old_set(evening, tmp_path: Path, monkeypatch, after: int,
                                                   failure: str) -> None:
    table, out, old = evening
    before = everything(tmp_path)
    real, written = exporter._write, []

    def write(path, header, rows):  # one file, or two written in one pass
        if len(written) == after:
            raise OSError(errno.ENOSPC, "No space left on device") if failure == "disk-full" else KeyboardInterrupt()
        real(path, header, rows)
        written.append(path.name)

    monkeypatch.setattr(exporter, "_write", write)
    result = table("export", str(out), code=2 if failure == "disk-full" else 130)
    if failure == "disk-full":
        assert result.stderr.startswith("boston-ledger: error: cannot write into") and result.stderr.count("\n") == 1
    assert len(written) == after
    assert contents(out) == old  # the old set, whole
    assert everything(tmp_path) == before  # no temporary file or folder left
    monkeypatch.setattr(exporter, "_write", real)
    table("export", str(out))
    assert contents(out) == new_export(table, tmp_path)  # and the next export replaces it whole


def test_a_failed_swap_puts_the_old_set_back(evening, tmp_path: Path, monkeypatch) -> None:
    table, out, old = evening
    monkeypatch.setattr(files, "_exchange", lambda a, b: False)
    before, real, failed = everything(tmp_path), os.rename, []

    def rename(a, b):
        if Path(b) == out and not failed:  # the new set into place: fails, after the old one was moved aside
            failed.append(a)
            raise OSError(errno.EIO, "I/O error")
        real(a, b)

    monkeypatch.setattr(os, "rename", rename)
    table("export", str(out), code=2)
    assert failed and contents(out) == old and everything(tmp_path) == before


CHILD = r"""
import os, sys, time
from boston_ledger.app import export, files
point, kind = sys.argv[1], sys.argv[2]
if kind == "two-renames":
    files._exchange = lambda a, b: False
real_write, real_remove, count = export._write, files._remove_set, [0]

def stop():
    print("point", flush=True)
    time.sleep(600)  # until killed

def write(path, header, rows):
    real_write(path, header, rows)
    count[0] += 1
    if point == f"file-{count[0]}":
        stop()

def remove(folder, names):
    if point == "swapped" and names is not None:
        stop()
    real_remove(folder, names)

export._write, files._remove_set = write, remove
from boston_ledger.cli.main import main
sys.argv = ["boston-ledger", "export", sys.argv[3]]
main()
"""


@pytest.mark.slow
@pytest.mark.parametrize("point, kind", [*((f"file-{n}", "exchange") for n in range(1, 7)), ("swapped", "exchange"),
                                         ("swapped", "two-renames")])
def test_an_export_killed_at_any_point_leaves_one_whole_set(evening, tmp_path: Path, isolated: Path, point: str,
                                                            kind: str) -> None:
    """SIGKILL once the child says it reached the point: no timing, so a busy machine changes nothing.
    Until the swap both ways of swapping run the same code: after it, each is killed."""
    table, out, old = evening
    new = new_export(table, tmp_path)
    env = {**os.environ, "BOSTON_LEDGER_DB": str(isolated)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, point, kind, str(out)], env=env, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "point\n", child.stderr.read()
    finally:
        child.kill()
        child.wait()
    assert contents(out) in (old, new)  # one whole set, never a mix
    assert contents(out) == (new if point == "swapped" else old)
    leftovers = [p for p in everything(tmp_path) if p.startswith(".")]
    assert len(leftovers) >= 1  # what a kill leaves (the half-written or the old folder) ...
    table("export", str(out))
    assert contents(out) == new
    assert not [p for p in everything(tmp_path) if p.startswith(".")]  # ... the next export removes


def test_a_leftover_of_a_living_export_is_left_alone(table, tmp_path: Path) -> None:
    table("deal", "pass")
    busy = tmp_path / f".out.{os.getpid()}.abc123.new"  # this very process: alive
    busy.mkdir()
    (busy / "deals.csv").write_text("being written")
    table("export", str(tmp_path / "out"))
    assert (busy / "deals.csv").read_text() == "being written"


# ---- what is at the destination ----------------------------------------------------------------


def test_a_symlinked_file_in_the_old_export_is_not_followed(evening, tmp_path: Path) -> None:
    table, out, old = evening
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
def test_an_interrupted_chart_leaves_the_old_one(table, tmp_path: Path, monkeypatch, failure: str) -> None:
    svg = tmp_path / "chart.svg"
    table("chart", "--svg", str(svg))
    old = svg.read_bytes()
    table("deal", "solo", "--declarer", "Vera", "--tricks", "9")
    before = everything(tmp_path)
    real = files._fill

    def fill(file, write, newline):
        def half(f):
            f.write("<svg")
            raise OSError(errno.ENOSPC, "No space left on device") if failure == "disk-full" else KeyboardInterrupt()
        real(file, half, newline)

    monkeypatch.setattr(files, "_fill", fill)
    table("chart", "--svg", str(svg), code=2 if failure == "disk-full" else 130)
    assert svg.read_bytes() == old and everything(tmp_path) == before


def test_a_chart_of_hostile_names_is_still_xml(table, tmp_path: Path, isolated: Path) -> None:
    conn = sqlite3.connect(isolated)
    conn.execute("DROP TRIGGER players_no_update")
    conn.execute("UPDATE players SET name = ? WHERE seat = 0", ("A\x1b]52;c;aGk=\x07<b>&",))
    conn.commit()
    conn.close()
    table("chart", "--svg", str(tmp_path / "chart.svg"))
    texts = [t.text for t in ET.parse(tmp_path / "chart.svg").iter("{http://www.w3.org/2000/svg}text")]
    assert "A\\x1b]52;c;aGk=\\x07<b>& (0)" in texts
