"""Plain `deal` and `status`, run many times an evening, and `history`, `check`, `export` and
`stats`, which read whole sessions, start without typer, click or pydantic (rich draws their views),
on the ledger users actually have: the default one in their home folder (no --db, no
$BOSTON_LEDGER_DB). The program runs as a real process (`python -m boston_ledger`, the same main()
as the installed `boston-ledger` script); a `sitecustomize` placed on its PYTHONPATH writes down,
as the process exits, every module it had loaded. Nor does a plain `deal` or `status` load the
server of the phones' page, or guided entry's questions."""

from __future__ import annotations

import json
import os
import subprocess
from importlib.metadata import entry_points
from pathlib import Path

import pytest

from conftest import PLAYERS, PROGRAM

HEAVY = ("typer", "click", "pydantic")
SERVER = ("boston_ledger.serve", "segno", "http.server", "socketserver")  # `serve` alone needs them
QUESTIONS = ("boston_ledger.app.entry", "boston_ledger.ui.guided", "difflib")  # a deal with a gap asks

HOOK = """\
import atexit, os, sys

def _record_modules():
    with open(os.environ["BOSTON_LEDGER_TEST_MODULES"], "a", encoding="utf-8") as out:
        out.write(" ".join(sorted(sys.modules)) + "\\n")

atexit.register(_record_modules)
"""


class Program:
    """The program on the default ledger path of a home folder in tmp_path."""

    def __init__(self, tmp_path: Path, xdg: bool) -> None:
        hook = tmp_path / "hook"
        hook.mkdir()
        (hook / "sitecustomize.py").write_text(HOOK, encoding="utf-8")
        self.record = tmp_path / "modules.txt"
        home = tmp_path / "home"
        home.mkdir()
        env = {k: v for k, v in os.environ.items() if k not in ("BOSTON_LEDGER_DB", "XDG_CONFIG_HOME")}
        env.update(HOME=str(home), PYTHONPATH=os.pathsep.join(filter(None, [str(hook), env.get("PYTHONPATH")])),
                   BOSTON_LEDGER_TEST_MODULES=str(self.record), COLUMNS="100", NO_COLOR="1")
        if xdg:
            env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")
        self.env = env
        self.ledger = (tmp_path / "xdg" if xdg else home / ".config") / "boston-ledger" / "ledger.db"

    def run(self, *args: str, code: int = 0) -> tuple[subprocess.CompletedProcess, set[str]]:
        """Run a command; its result and the modules its process had loaded when it ended."""
        self.record.unlink(missing_ok=True)
        done = subprocess.run([*PROGRAM, *args], env=self.env, capture_output=True, text=True, timeout=120)
        assert done.returncode == code, (args, done.returncode, done.stdout, done.stderr)
        lines = self.record.read_text(encoding="utf-8").splitlines()
        assert len(lines) == 1, (args, "the module record of exactly one process", lines)
        return done, set(lines[0].split())


def heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY)


def loaded(modules: set[str], names: tuple[str, ...]) -> list[str]:
    return sorted(m for m in modules if m.startswith(names))


def test_the_console_script_is_main() -> None:
    """`pip install` makes `boston-ledger` run the main() that `python -m boston_ledger` runs."""
    from boston_ledger.cli.main import main

    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "boston-ledger"]
    assert script.value == "boston_ledger.cli.main:main" and script.load() is main


@pytest.mark.slow  # a process for each command
@pytest.mark.parametrize("xdg", [False, True], ids=["home-config", "xdg-config-home"])
def test_deal_and_status_on_the_default_ledger_import_no_typer(tmp_path: Path, xdg: bool) -> None:
    """Every quick command in a home folder's ~/.config; under $XDG_CONFIG_HOME (another default
    path, the same commands) a plain deal and status."""
    program = Program(tmp_path, xdg)
    __, modules = program.run("new", *PLAYERS)
    assert program.ledger.is_file()  # the default ledger, where the commands below find it
    assert "typer" in modules  # the record sees what the full command line loads

    quick = [
        ("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4",
         "--boston", "Vera"),
        ("deal", "pass"),
        ("deal", "junior", "--declarer", "bor", "--tricks", "5"),  # a beginning of a name; junior alone
        ("status",),
        ("status", "--json"),
        ("--lang", "ru", "status"),
        ("history", "--last", "5"),
        ("check",),
        ("export", str(tmp_path / "evening")),
        ("stats", "--json"),
    ]
    for args in quick[1:2] if xdg else quick:
        done, modules = program.run(*args)
        assert "boston_ledger.cli.quick" in modules and "sqlite3" in modules, args  # it did run, quickly
        assert heavy(modules) == [], args
        assert loaded(modules, SERVER) == [], args
        if args[0] == "deal":
            assert loaded(modules, QUESTIONS) == [], args
    done, modules = program.run("deal", "junior", "--declarer", "Zed", "--tricks", "5", code=2)
    assert done.stderr.startswith("boston-ledger: error: ") and heavy(modules) == []

    done, __ = program.run("status", "--json")
    assert json.loads(done.stdout)["deals"] == (1 if xdg else 3)  # the deals went to the default ledger


@pytest.mark.slow  # a process for each command
def test_the_record_sees_typer_where_the_full_command_line_runs(tmp_path: Path) -> None:
    """The check above can fail: outside the quick path typer is loaded, and the record shows it."""
    program = Program(tmp_path, xdg=False)
    program.run("new", *PLAYERS)
    for args in (("sessions",), ("status", "--verbose")):  # another command; a line the quick parser leaves
        __, modules = program.run(*args, code=2 if args[-1] == "--verbose" else 0)
        assert "typer" in heavy(modules), args
    __, modules = program.run("deal", "junior", "--declarer", "Boris", code=2)  # a gap: asked, at a terminal
    assert "boston_ledger.app.entry" in loaded(modules, QUESTIONS)
