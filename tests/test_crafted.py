"""Crafted ledgers (tests/crafted.py): a schema boston-ledger did not make is refused at open in one
line, before any statement touches the data, and `check` lists it at length; damaged rows are
listed by `check --all` and refused in one line elsewhere; every statement is bounded (Ctrl-C);
`serve` refuses at start and answers a failed write with what the command line says; a ledger on
a read-only file system is read."""

from __future__ import annotations

import itertools
import json
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import crafted
from boston_ledger.app import deals as deals_app
from boston_ledger.cli.guard import guarded
from boston_ledger.core.errors import LedgerError
from boston_ledger.serve.server import Served
from boston_ledger.store import db as storage
from boston_ledger.store import identify, schema
from conftest import interruptible, sampled
from serving import ENTRY, HANG, VIEW, Phone, get


@pytest.fixture
def sound(table, isolated: Path, made):
    """A ledger of one session: a made solo (deal 1), settled, then reopened (it takes deals again)."""
    isolated.write_bytes(made(("deal", "solo", "--declarer", "Vera", "--tricks", "8"), ("settle", "--yes"),
                              ("reopen",)))
    return table


def one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


# ---- a schema boston-ledger did not make --------------------------------------------------------


@pytest.mark.parametrize("kind", list(crafted.FOREIGN))
def test_a_foreign_schema_is_refused_at_open_in_one_line(sound, isolated: Path, kind: str) -> None:
    crafted.foreign(isolated, kind)
    before = isolated.read_bytes()
    for command in (["status"], ["deal", "pass"], ["history"]):
        said = one_line(sound(*command, code=2).stderr)
        assert crafted.FOREIGN[kind][1] in said and "check" in said
    assert isolated.read_bytes() == before  # nothing was written, nothing ran
    at_length = sound("check", "--all", code=1).stdout
    assert crafted.FOREIGN[kind][1] in at_length


def test_a_trojan_trigger_never_runs_and_check_shows_it(sound, isolated: Path) -> None:
    crafted.foreign(isolated, "trojan trigger")
    sound("deal", "pass", code=2)
    conn = sqlite3.connect(isolated)
    assert conn.execute("SELECT COUNT(*) FROM payments").fetchone()[0] == 0
    assert conn.execute("SELECT COUNT(*) FROM deals").fetchone()[0] == 1
    conn.close()
    shown = sound("check", "--all", code=1).stdout
    assert "a trigger boston-ledger did not make: evil" in shown and "INSERT INTO payments" in shown
    assert json.loads(sound("check", "--json", code=1).stdout) == [
        {"problem": "a trigger boston-ledger did not make: evil",
         "sql": crafted.FOREIGN["trojan trigger"][0].rstrip(";")}]


def test_the_expected_schema_comes_from_the_migrations_without_sqlite_utils() -> None:
    """`made_plainly` makes what sqlite-utils' migrations make, step by step (a migration added
    later is covered as it is written), with sqlite-utils' own record table."""
    for steps in range(len(schema.migration_names()) + 1):
        plain, made = schema.made_plainly(steps), schema.made_by(steps)
        if steps == 0:
            found, db = schema.migrations(made, 0)
            found.ensure_migrations_table(db)
        assert identify.objects(plain) == identify.objects(made), steps
        plain.close()
        made.close()


def test_every_committed_earlier_ledger_is_still_trusted(cli, tmp_path: Path) -> None:
    for fixture in sorted((Path(__file__).parent / "fixtures" / "earlier").glob("*.db")):
        copy = tmp_path / fixture.name
        copy.write_bytes(fixture.read_bytes())
        cli("status", "--db", str(copy))
        cli("check", "--all", "--db", str(copy))


# ---- every statement bounded --------------------------------------------------------------------


def test_an_endless_view_is_interrupted_not_hung(sound, isolated: Path) -> None:
    """The view that replaces `players` is refused before it runs; read regardless, a statement
    over it is stopped by the progress handler (as Ctrl-C stops it) and the command ends 130."""
    crafted.foreign(isolated, "endless view")
    assert "a view boston-ledger did not make: players" in sound("status", code=2).stderr
    conn = sqlite3.connect(isolated)
    ticks = []
    conn.set_progress_handler(storage.Bound(isolated, stop=lambda: ticks.append(1) or len(ticks) > 50),
                              storage.PROGRESS_STEPS)

    def read() -> None:
        conn.execute("SELECT COUNT(*) FROM players").fetchone()

    with pytest.raises(SystemExit) as ended:
        guarded(read)
    conn.close()
    assert ended.value.code == 130 and len(ticks) == 51


def test_a_long_statement_says_why(tmp_path: Path) -> None:
    clock = (n / 4 for n in itertools.count())  # each look of the handler a quarter second later: one stretch
    said: list[tuple[object, float]] = []
    bound = storage.Bound(tmp_path / "x.db", slow=lambda path, seconds: said.append((path, seconds)),
                          clock=lambda: next(clock))
    conn = sqlite3.connect(":memory:")
    conn.set_progress_handler(bound, 1000)
    conn.execute(f"{crafted.ENDLESS} SELECT COUNT(*) FROM (SELECT x FROM c LIMIT 200000)").fetchone()
    conn.close()
    assert said == [(tmp_path / "x.db", storage.LONG_QUERY)]  # once


# ---- damaged rows -------------------------------------------------------------------------------

COMMANDS = [["status"], ["sessions"], ["stats"], ["deal", "pass"], ["history"], ["sheet"], ["ledger"],
            ["settle", "--yes"]]


@pytest.mark.parametrize("kind", sampled(crafted.DAMAGED, 3))
def test_every_damaged_row_is_listed_by_check(sound, isolated: Path, kind: str) -> None:
    crafted.damage(isolated, kind)
    __, table, words = crafted.DAMAGED[kind]
    listed = sound("check", "--all", code=1).stdout
    assert words in listed and (table + " ") in listed, listed
    assert "internal error" not in listed


@pytest.mark.parametrize("kind", sampled(crafted.DAMAGED, 3))
def test_a_damaged_evening_is_refused_in_one_line_never_crashed_on(sound, isolated: Path, tmp_path: Path,
                                                                   kind: str) -> None:
    crafted.damage(isolated, kind)
    for command in [*COMMANDS, ["export", str(tmp_path / "out")]]:
        done = sound.main(*command, code=None)
        assert done.exit_code in (0, 2), (command, done.exit_code, done.stderr)
        if done.exit_code == 2:
            said = one_line(done.stderr)
            assert "internal error" not in said


EVENING = [["status"], ["deal", "pass"], ["history"], ["sheet"], ["settle", "--yes"], ["undo"]]


@pytest.mark.parametrize("kind", sampled([kind for kind, (__, table, __) in crafted.DAMAGED.items()
                                            if table != "payments"], 3))
def test_a_command_on_a_damaged_evening_refuses_it_before_reading_it(sound, isolated: Path, kind: str) -> None:
    """Every damaged row here is an evening's (a payment is the ledger's, of no evening); the deal
    moved away leaves session 1 sound, and session 2 damaged."""
    crafted.damage(isolated, kind)
    before = isolated.read_bytes()
    session = "2" if kind == "deal moved to another session" else "1"
    for command in EVENING:
        said = one_line(sound.main(*command, "--session", session, code=2).stderr)
        assert f"session {session} is damaged: " in said, said
        assert "`boston-ledger check --all` lists what is wrong" in said, said
    assert isolated.read_bytes() == before


def test_a_damaged_row_that_fails_a_command_points_to_check(sound, isolated: Path) -> None:
    crafted.damage(isolated, "declarer dangling")
    said = one_line(sound.main("history", code=2).stderr)
    assert "is damaged: deals id 1 (deal 1 of session 1): declarer 999 names a row of players" in said
    assert "`boston-ledger check --all` lists what is wrong" in said


# ---- serve --------------------------------------------------------------------------------------


def test_serve_refuses_a_damaged_ledger_at_start_as_the_command_line_does(sound, isolated: Path) -> None:
    crafted.damage(isolated, "declarer dangling")
    refused = one_line(sound.main("history", code=2).stderr)
    with pytest.raises(LedgerError) as said:
        Served(isolated, None, "127.0.0.1", 0, VIEW)
    assert str(said.value) in refused


def test_serve_refuses_a_foreign_schema_at_start(sound, isolated: Path) -> None:
    crafted.foreign(isolated, "trojan trigger")
    with pytest.raises(LedgerError, match="a trigger boston-ledger did not make: evil"):
        Served(isolated, None, "127.0.0.1", 0, VIEW)


def test_a_full_disk_is_answered_on_the_phone(table, isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    try:
        phone = Phone(running).tap("pass")
        monkeypatch.setattr(deals_app, "enter", full)
        phone.tap("Record this deal")
        assert phone.status == 500
        assert "the ledger database failed: database or disk is full; nothing was recorded" in phone.html
    finally:
        running.close()
    assert table.json("status")["deals"] == 0


# ---- a read-only file system ------------------------------------------------------------------


def test_a_ledger_on_a_read_only_file_system_is_read(sound, isolated: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage, "read_only_fs", lambda path: True)
    before = isolated.read_bytes()
    shown = sound.main("status")
    assert "Vera" in shown.stdout
    assert "is on a file system where nothing can be written: it is only read" in one_line(shown.stderr)
    sound.main("history")
    sound.main("check", "--all")
    refused = sound.main("deal", "pass", code=2).stderr.strip().splitlines()[-1]  # after the notice of reading only
    assert "is on a file system where nothing can be written; nothing was recorded" in refused
    assert isolated.read_bytes() == before
    assert not Path(str(isolated) + "-wal").exists()


CHILD = f"""
import signal, sys
from pathlib import Path
from boston_ledger.cli.guard import guarded
from boston_ledger.store import db

signal.signal(signal.SIGINT, signal.default_int_handler)  # Python's own, as at a terminal
conn = db._connect(":memory:")
bound = db.Bound(Path("x.db"))

def running():
    if not getattr(running, "said", False):
        running.said = True
        print("running", flush=True)  # the statement is under way: the test presses Ctrl-C now
    return bound()

conn.set_progress_handler(running, db.PROGRESS_STEPS)
guarded(lambda: conn.execute("{crafted.ENDLESS} SELECT COUNT(*) FROM c").fetchone())
"""


def test_ctrl_c_stops_an_endless_statement_with_exit_130() -> None:
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, preexec_fn=interruptible)
    try:
        assert child.stdout is not None and child.stdout.readline() == "running\n"
        child.send_signal(signal.SIGINT)
        assert child.wait(timeout=HANG) == 130, child.stderr.read() if child.stderr else ""
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def test_a_long_stretch_of_short_statements_is_not_said_to_be_one_query(tmp_path: Path) -> None:
    clock = (n / 4 for n in itertools.count())
    said: list[float] = []
    bound = storage.Bound(tmp_path / "x.db", slow=lambda path, seconds: said.append(seconds),
                          clock=lambda: next(clock))
    conn = storage._connect(":memory:")  # a ledger's connection: each execute() a statement begun
    conn.bounds = bound
    conn.set_progress_handler(bound, 1000)
    for __ in range(20):  # each a few looks of the handler (2.5 s by the clock), 50 s in all: none long
        conn.execute(f"{crafted.ENDLESS} SELECT COUNT(*) FROM (SELECT x FROM c LIMIT 500)").fetchone()
    conn.close()
    assert said == []


@pytest.mark.parametrize("kind", sampled(crafted.DAMAGED, 3))
def test_serve_answers_every_request_on_a_damaged_ledger_or_refuses_at_start(sound, isolated: Path,
                                                                              kind: str) -> None:
    crafted.damage(isolated, kind)
    try:
        running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    except LedgerError as e:
        assert "check" in str(e) and "internal error" not in str(e)
        return
    try:
        for target in (f"/?t={VIEW}", f"/api/status?t={VIEW}", f"/api/history?t={VIEW}&all=1",
                       f"/entry?t={ENTRY}"):
            status, __, body = get(running.port, target)  # an answer, never a closed connection
            assert status in (200, 500), (target, status)
            if status == 500:
                assert b"check" in body and b"internal error" not in body, body
    finally:
        running.close()


def test_serve_shows_a_ledger_on_a_read_only_file_system(sound, isolated: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(storage, "read_only_fs", lambda path: True)
    running = Served(isolated, None, "127.0.0.1", 0, VIEW).in_thread()
    try:
        status, __, body = get(running.port, f"/api/status?t={VIEW}")
        assert status == 200 and json.loads(body)["deals"] == 1
    finally:
        running.close()
    assert not Path(str(isolated) + "-wal").exists()
