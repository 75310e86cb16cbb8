"""Files for people are ordinary files (issue 23): `chart --svg`, `sheet --html` and `export`
refuse a target that is there and is not an ordinary file (a FIFO, a device, a socket, a symlink
to one, a folder for the single files), with exit 2, one line, and nothing written; `-` writes the
picture or the page to standard output.

| target | --svg, --html | export |
| --- | --- | --- |
| a FIFO, a symlink to one | refused | refused |
| a symlink to /dev/null (a device) | refused | refused |
| a UNIX socket, a symlink to one | refused | refused |
| a symlink to /proc/self/fd/1 (a pipe here) | refused | refused |
| a folder | refused | (its own kind of target) |
| `-` | standard output | (a folder named -) |
"""

from __future__ import annotations

import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from serving import JUNIOR, play


@pytest.fixture
def evening(table, isolated: Path) -> Path:
    play(isolated, [JUNIOR])
    return isolated


def special(tmp_path: Path, kind: str) -> Path:
    """A target of the given kind in tmp_path."""
    where = tmp_path / "targets"
    where.mkdir(exist_ok=True)
    path = where / kind
    if "fifo" in kind:
        os.mkfifo(where / "a-fifo")
    if "socket" in kind:
        s = socket.socket(socket.AF_UNIX)
        s.bind(str(where / "a-socket"))
        s.close()
    if kind == "fifo":
        return where / "a-fifo"
    if kind == "socket":
        return where / "a-socket"
    if kind == "link-to-fifo":
        os.symlink(where / "a-fifo", path)
    elif kind == "link-to-socket":
        os.symlink(where / "a-socket", path)
    elif kind == "link-to-device":
        os.symlink("/dev/null", path)
    elif kind == "folder":
        path.mkdir()
    return path


def kind_of(path: Path) -> str:
    st = os.lstat(path)
    return stat.filemode(st.st_mode)[0]


TARGETS = ["fifo", "link-to-fifo", "socket", "link-to-socket", "link-to-device", "folder"]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("command", [("chart", "--svg"), ("sheet", "--html")])
def test_a_picture_or_a_page_is_written_only_as_an_ordinary_file(evening, cli, tmp_path: Path, target: str,
                                                                  command: tuple[str, str]) -> None:
    path = special(tmp_path, target)
    before = {p.name: kind_of(p) for p in path.parent.iterdir()}
    result = cli(*command, str(path), code=2)
    assert result.stdout == "" and result.stderr.count("\n") == 1 and result.stderr.startswith("boston-ledger: error: ")
    assert ("is a folder" if target == "folder" else "is not an ordinary file") in result.stderr
    assert {p.name: kind_of(p) for p in path.parent.iterdir()} == before  # nothing replaced, nothing left


@pytest.mark.parametrize("target", [t for t in TARGETS if t != "folder"])
def test_an_export_is_written_only_into_a_folder(evening, cli, tmp_path: Path, target: str) -> None:
    path = special(tmp_path, target)
    before = {p.name: kind_of(p) for p in path.parent.iterdir()}
    result = cli("export", str(path), code=2)
    assert result.stdout == "" and result.stderr.count("\n") == 1
    assert {p.name: kind_of(p) for p in path.parent.iterdir()} == before


@pytest.mark.slow  # three processes: /proc/self/fd/1 is each one's own
def test_a_link_to_standard_output_is_refused(evening, tmp_path: Path) -> None:
    """The red team's case: a symlink to /proc/self/fd/1, which here is a pipe."""
    link = tmp_path / "out"
    os.symlink("/proc/self/fd/1", link)
    env = {**os.environ, "BOSTON_LEDGER_DB": str(evening)}
    for args in (("chart", "--svg", str(link)), ("sheet", "--html", str(link)), ("export", str(link))):
        done = subprocess.run([sys.executable, "-m", "boston_ledger", *args], capture_output=True, text=True, env=env)
        assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1, (args, done.stderr)
        assert os.path.islink(link) and os.readlink(link) == "/proc/self/fd/1"


def test_a_dash_is_standard_output(evening, cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    svg = cli("chart", "--svg", "-").stdout
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    page = cli("sheet", "--html", "-").stdout
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert not (tmp_path / "-").exists()


def test_an_ordinary_file_or_a_link_to_one_is_still_replaced(evening, cli, tmp_path: Path) -> None:
    plain = tmp_path / "chart.svg"
    plain.write_text("old")
    cli("chart", "--svg", str(plain))
    assert plain.read_text().startswith("<svg")
    kept = tmp_path / "kept.html"
    kept.write_text("kept")
    link = tmp_path / "link.html"
    os.symlink(kept, link)
    cli("sheet", "--html", str(link))
    assert kept.read_text() == "kept" and not link.is_symlink() and link.read_text().startswith("<!DOCTYPE html>")
