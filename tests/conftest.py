"""Every test gets its own ledger: BOSTON_LEDGER_DB and the app directory point into tmp_path.

Commands run in-process: `cli(...)` through typer's app, `cli.main(...)` through the program's own
entry (main(), with its quick path for a plain `deal`, `status`...). The few tests that need a
real process (exit codes through pipes, signals, start-up imports, processes racing) start
PROGRAM, the Python that runs the tests with `-m boston_ledger`: no activated virtualenv and no
console script on PATH needed."""

from __future__ import annotations

import compileall
import functools
import gc
import json
import os
import random
import re
import shutil
import signal
import sqlite3
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import click.testing
import hypothesis
import pytest
import typer.main
import typer.testing
from typer.testing import CliRunner

from boston_ledger.core import i18n
from boston_ledger.cli.declarations import app
from boston_ledger.cli.main import main

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]
PROGRAM = [sys.executable, "-m", "boston_ledger"]
GUIDED = {"BOSTON_LEDGER_GUIDED": "1"}  # guided entry's questions without a terminal


def guided(args: list[str], answers: str):
    """A command run with guided entry on, `answers` typed at its questions."""
    return CliRunner().invoke(app, args, input=answers, env=GUIDED)


def described(cli, number: int = 1) -> str:
    """Deal `number` of the session as history names it."""
    return cli.json("history")[number - 1]["description"]


def played(db: Path, *deals: tuple[str, ...]) -> None:
    """Each of `deals` (what follows `deal` on its command line: a contract, then options and their
    values) recorded as `deal` records it on the evening it would play, but not drawn: for a
    setup whose tables nobody reads (drawing them is half of what a `deal` costs)."""
    from boston_ledger.app import deals as table
    from boston_ledger.store.db import open_db

    conn = open_db(db)
    try:
        for contract, *options in deals:
            session = table.playable(conn)
            fields = {k.lstrip("-").replace("-", "_"): v for k, v in zip(options[::2], options[1::2], strict=True)}
            table.enter(conn, table.typed_deal(session, contract, **fields), session.id)
    finally:
        conn.close()


FIXTURES = Path(__file__).resolve().parent / "fixtures"
STEPS = FIXTURES / "schema-steps"  # the schema each migration leaves, frozen: a released migration is never edited


def schema_of(conn: sqlite3.Connection) -> str:
    """A ledger's schema as SQLite keeps it: its tables, indexes and triggers (not SQLite's own)."""
    return "\n".join(r[0] + ";" for r in conn.execute(
        "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY type, name"))


def frozen_migrations() -> list[str]:
    """The migrations whose schemas are frozen in STEPS, in the order they run (test_old_ledgers
    holds the program's list to it)."""
    return sorted(p.stem for p in STEPS.glob("*.sql"))


def frozen_schema(path: Path | None = None) -> str:
    """A schema as a fixture froze it (the file's first line says what it is); by default
    today's, what the last migration leaves."""
    path = STEPS / f"{frozen_migrations()[-1]}.sql" if path is None else path
    return path.read_text(encoding="utf-8").split("\n", 1)[1].strip()


def rename_contract(data: dict, new: str) -> None:
    """A tariff's data (as TOML reads it) with its contract `junior` named `new`, ladders too."""
    data["contracts"][new] = data["contracts"].pop("junior")
    data["ladders"] = [[new if c == "junior" else c for c in ladder] for ladder in data["ladders"]]


def interruptible() -> None:
    """For a child that a test stops with Ctrl-C (SIGINT): the signal as at a terminal, also where
    the tests run with it ignored (started with `&` by a shell without job control)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# The property tests that take seconds try a quarter of the examples they name in a run of the
# suite (those not derandomized try others each run); HYPOTHESIS_PROFILE=thorough tries them all.
hypothesis.settings.register_profile("thorough")
hypothesis.settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"


def examples(n: int) -> int:
    """How many examples a property test that names `n` tries in this run."""
    return n if THOROUGH else max(10, n // 4)


# A corpus of distinct cases (hostile inputs, damaged rows, earlier ledgers) runs whole in the
# whole suite, which CI runs; the quick subset (-m "not slow") tries a fixed sample of it.
_PARAM = type(pytest.param(None))


def sampled(cases: Iterable[Any], every: int) -> list[Any]:
    """A corpus for `parametrize`: every case in the whole suite; in the quick subset the first and
    one in `every` of the others, drawn by a seeded random.Random (the same ones each run, and not
    in step with any pattern of the list), the others marked slow. A case is a value or a
    pytest.param."""
    cases = list(cases)
    quick = {0, *random.Random(len(cases)).sample(range(1, len(cases)), (len(cases) - 1) // every)}
    out = []
    for i, case in enumerate(cases):
        if i in quick:
            out.append(case)
        elif isinstance(case, _PARAM):
            out.append(pytest.param(*case.values, marks=[*case.marks, pytest.mark.slow], id=case.id))
        else:
            out.append(pytest.param(case, marks=pytest.mark.slow))
    return out


# typer builds the click command of an app at every call of the app and every invoke of its
# CliRunner (some 20 ms, thousands of times a run): the suite builds ours once, as the program
# does once per process, and main() and the CliRunner share that one.
typer.main.get_command = typer.testing._get_command = functools.cache(typer.main.get_command)


# ---- where the temporary ledgers live -------------------------------------------------------
# Every write of a ledger is synced (WAL, synchronous = FULL; a new ledger is synced before it is
# linked into place): on a disk, that is most of a quick run's time. So the run's temporary files
# go to a tmpfs where the machine has one (/dev/shm), unless --basetemp says where; the tests
# marked `disk` (durability, a new ledger's creation: what fsync is for) keep a real disk.

def filesystem(path: Path) -> str:
    """The type of the file system `path` is on ("tmpfs", "ext4"...; "" where /proc/mounts is not)."""
    try:
        mounts = [line.split()[1:3] for line in Path("/proc/mounts").read_text().splitlines()]
    except OSError:
        return ""
    where = str(path.resolve())
    found = [(point, kind) for point, kind in mounts if where == point or where.startswith(point.rstrip("/") + "/")]
    return max(found, key=lambda m: len(m[0]))[1] if found else ""


IN_MEMORY = ("tmpfs", "ramfs")
SHM = Path("/dev/shm")
DISK = Path(tempfile.gettempdir())  # where the `disk` tests' folders go, if it is a disk


# Each program a test starts (hundreds: fault injection, races, a process's exit codes) would
# compile boston_ledger again where bytecode is not written (PYTHONDONTWRITEBYTECODE, as on
# this machine): the run compiles it once, into __pycache__ beside the sources as Python does
# (git ignores it), and they read it; the test processes keep their rewritten test modules there.
PACKAGE = Path(__file__).resolve().parent.parent / "boston_ledger"
sys.dont_write_bytecode = False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # xdist's controller did what follows
        return
    compileall.compile_dir(PACKAGE, quiet=2)  # the programs the tests start read it, and write nothing
    if config.option.basetemp:
        return
    if os.environ.get("BOSTON_LEDGER_TEST_TMP") == "disk" or filesystem(SHM) not in IN_MEMORY:
        return
    runs = SHM / f"bl-{os.getuid()}"  # short: a socket's path in it must stay under 108 bytes
    runs.mkdir(mode=0o700, exist_ok=True)
    for old in sorted(runs.glob("*-*"), key=lambda p: p.stat().st_mtime)[:-3]:  # the last three kept, as pytest does
        if not _alive(int(old.name.split("-")[0])):
            shutil.rmtree(old, ignore_errors=True)
    config.option.basetemp = tempfile.mkdtemp(prefix=f"{os.getpid()}-", dir=runs)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What the run has loaded and collected (pytest's, hypothesis', the tests' modules) lives to
    its end: kept out of the cycle collector's full sweeps, which would walk it again each time."""
    gc.collect()
    gc.freeze()


@pytest.fixture
def tmp_path(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """pytest's tmp_path (in the run's base folder), but for a test marked `disk` a folder on a
    real disk when the base folder is in memory."""
    name = re.sub(r"\W", "_", request.node.name)[:30]
    base = tmp_path_factory.getbasetemp()
    if request.node.get_closest_marker("disk") and filesystem(base) in IN_MEMORY and filesystem(DISK) not in IN_MEMORY:
        path = Path(tempfile.mkdtemp(prefix=f"boston-ledger-{name}-", dir=DISK))
        yield path
        shutil.rmtree(path, ignore_errors=True)
    else:
        yield tmp_path_factory.mktemp(name, numbered=True)


@pytest.fixture(autouse=True)
def isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    db = tmp_path / "ledger.db"
    monkeypatch.setenv("BOSTON_LEDGER_DB", str(db))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("LANG", "C.UTF-8")  # English unless a test asks for Russian
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    i18n.set_language("en")  # a Russian command of an earlier test leaves no trace
    i18n.speak_words(None)  # nor the words of an earlier test's game
    return db


class Program:
    """main(), the `boston-ledger` program's entry, for click's CliRunner: it reads sys.argv."""

    name = "boston-ledger"

    def main(self, args, prog_name: str, **extra) -> None:
        argv, collecting = sys.argv, gc.isenabled()
        sys.argv = [prog_name, *args]
        try:
            main()
        finally:
            sys.argv = argv
            if collecting:  # main() leaves the collector off after a plain `deal` or `status`
                gc.enable()


class Cli:
    """Run boston-ledger commands in-process; stdout and stderr kept apart."""

    def __init__(self) -> None:
        self.runner = CliRunner()
        self.program = click.testing.CliRunner()

    def __call__(self, *args: str, code: int = 0):
        result = self.runner.invoke(app, list(args), catch_exceptions=False)
        assert result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
        return result

    def json(self, *args: str):
        return json.loads(self(*args, "--json").stdout)

    def main(self, *args: str, code: int | None = 0, env: dict[str, str | None] | None = None,
             input: str | None = None):
        """The command line as the installed program reads it (`code=None`: any exit status)."""
        result = self.program.invoke(Program(), list(args), env=env, input=input, catch_exceptions=False)
        assert code is None or result.exit_code == code, (args, result.exit_code, result.stdout, result.stderr)
        return result


@pytest.fixture
def cli() -> Cli:
    return Cli()


def at_home(home: Path) -> dict[str, str | None]:
    """The environment of commands run (CliRunner's env=) on the ledger `home`/ledger.db, in English,
    as `isolated` sets it for a test."""
    return {"BOSTON_LEDGER_DB": str(home / "ledger.db"), "XDG_CONFIG_HOME": str(home / "config"), "HOME": str(home),
            "LANG": "C.UTF-8", "LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "BOSTON_LEDGER_SESSION": None}


def _made(home: Path, start: bytes | None, *commands: tuple[str, ...]) -> bytes:
    """The ledger that `commands` leave under `home` (from a copy of `start`), all in its file."""
    path = home / "ledger.db"
    if start is not None:
        path.write_bytes(start)
    env = at_home(home)
    for command in commands:
        done = CliRunner().invoke(app, list(command), env=env, catch_exceptions=False)
        assert done.exit_code == 0, (command, done.stderr)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # all of it in the file itself
    conn.close()
    i18n.set_language("en")  # the test that first asked for it goes on as `isolated` left it
    i18n.speak_words(None)
    return path.read_bytes()


@pytest.fixture(scope="session")
def classic_ledger(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The ledger that `new Anna Boris Vera Gleb --chip-value 0.10` makes, made once for the run
    (a `new` takes some 15 ms; hundreds of tests start from one)."""
    return _made(tmp_path_factory.mktemp("classic"), None, ("new", *PLAYERS, "--chip-value", "0.10"))


class Made:
    """Ledgers that commands make from the classic one (`classic_ledger`), each made once for the
    run: for the many cases of a corpus that start where the same few commands leave them."""

    def __init__(self, factory: pytest.TempPathFactory, classic: bytes) -> None:
        self.factory, self.classic, self.kept = factory, classic, dict[tuple[tuple[str, ...] | str, ...], bytes]()

    def __call__(self, *commands: tuple[str, ...], blank: bool = False) -> bytes:
        """The ledger `commands` leave (`blank`: from no ledger at all rather than the classic one)."""
        key = (("blank",) if blank else (), *commands)
        if key not in self.kept:
            self.kept[key] = _made(self.factory.mktemp("made"), None if blank else self.classic, *commands)
        return self.kept[key]


@pytest.fixture(scope="session")
def made(tmp_path_factory: pytest.TempPathFactory, classic_ledger: bytes) -> Made:
    return Made(tmp_path_factory, classic_ledger)


@pytest.fixture
def table(cli: Cli, isolated: Path, classic_ledger: bytes) -> Cli:
    """A fresh classic session of Anna, Boris, Vera, Gleb: a copy of the ledger `new` made."""
    isolated.write_bytes(classic_ledger)
    isolated.chmod(0o600)
    return cli
