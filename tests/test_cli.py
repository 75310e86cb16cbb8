"""Whole evenings through the command line: RULES.md's worked example, status, history, undo."""

from __future__ import annotations

import json
import os
import shlex
import sqlite3
import subprocess
from pathlib import Path

import pytest

from boston_ledger.cli.declarations import app
from conftest import PLAYERS, PROGRAM, played

WORKED = [
    ("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5",
     "--partner-tricks", "4", "--boston", "Vera"),
    ("deal", "pass"),
    ("deal", "senior", "--declarer", "Anna", "--tricks", "6"),
]


def test_worked_example_through_the_cli(table) -> None:
    expected = [
        ({"Anna": -20, "Boris": 16, "Vera": -12, "Gleb": 16}, 0),
        ({"Anna": -40, "Boris": -4, "Vera": -32, "Gleb": -4}, 80),
        ({"Anna": 64, "Boris": -12, "Vera": -40, "Gleb": -12}, 0),
    ]
    for args, (balances, basket) in zip(WORKED, expected, strict=True):
        table(*args)
        status = table.json("status")
        assert status["balances"] == balances
        assert status["basket"] == basket
    assert status["deals"] == 3
    assert (status["tour"], status["multiplier"], status["dealer"]) == (1, 1, "Gleb")


def test_deal_prints_what_moved_and_why(table) -> None:
    out = table(*WORKED[0]).stdout
    assert "Deal 1 · partie 1, tour 1 (simple tour) · dealer Anna" in out
    for word in ("stake", "consolation", "overtricks", "basket won", "boston", "balance"):
        assert word in out
    balance_row = next(line for line in out.splitlines() if "balance" in line)
    assert [c.strip() for c in balance_row.split("│")[1:-1]] == ["balance", "-20", "16", "-12", "16", "0"]


def test_russian_aliases(table) -> None:
    table("deal", "младшая", "--declarer", "boris", "--partner", "GLEB", "--tricks", "5",
          "--partner-tricks", "4", "--boston", "Vera")
    table("deal", "пас")
    table("deal", "соло", "--declarer", "Anna", "--tricks", "8", "--rank", "старшая")
    status = table.json("status")
    assert status["deals"] == 3
    assert status["balances"]["Anna"] == -40 + 32 * 3 + 80


def test_status_reports_tour_double_and_dealer(table, isolated: Path) -> None:
    played(isolated, *[("junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "5",
                        "--partner-tricks", "3")] * 32)
    status = table.json("status")
    assert (status["deals"], status["tour"], status["multiplier"], status["dealer"]) == (32, 9, 2, "Anna")
    text = table("status").stdout
    assert "double tour ×2" in text and "dealer Anna" in text


def test_history_lists_deals_and_undo_keeps_record(table, isolated) -> None:
    for args in WORKED:
        table(*args)
    out = table("undo").stdout
    assert "Deal 3" in out and "undone" in out
    status = table.json("status")
    assert status["balances"] == {"Anna": -40, "Boris": -4, "Vera": -32, "Gleb": -4}
    assert status["basket"] == 80 and status["deals"] == 2 and status["dealer"] == "Vera"
    history = table("history").stdout
    assert "all pass" in history and "junior" in history and "senior" not in history
    assert "1 deal taken back" in history
    with sqlite3.connect(isolated) as conn:
        assert conn.execute("SELECT COUNT(*) FROM deals").fetchone()[0] == 3
        assert conn.execute("SELECT COUNT(*) FROM undos").fetchone()[0] == 1
    # the deal entered again gives back exactly the state before the undo
    table(*WORKED[2])
    assert table.json("status")["balances"] == {"Anna": 64, "Boris": -12, "Vera": -40, "Gleb": -12}


def test_undo_then_new_stake_state(table) -> None:
    table(*WORKED[0])
    table("undo")
    status = table.json("status")
    assert status["balances"] == dict.fromkeys(PLAYERS, 0) and status["stake_due"] is True


def test_sessions_are_separate_and_new_makes_current(cli) -> None:
    cli("new", *PLAYERS)
    cli(*WORKED[0])
    cli("new", "Аня", "Борис", "Вера", "Глеб", "--yes")
    status = cli.json("status")
    assert status["players"] == ["Аня", "Борис", "Вера", "Глеб"] and status["deals"] == 0


def test_tariffs_show_and_list(cli, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    out = cli("tariffs", "show", "classic").stdout
    rows = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if cells:
            rows[cells[0]] = cells[1:]
    assert rows["junior, with a partner"] == ["8 (5+3)", "labet", "+24", "+10", "+8", "+6", "+4", "+2",
                                              "-4", "-6", "-8", "-10", "-12", "-14", "-16", "-56"]
    assert rows["junior, alone"][1] == "to opponents"
    assert rows["solo (senior)"][2:] == ["+144", "+64", "+56", "+48", "+40", "+32", "-40", "-48", "-56",
                                         "-64", "-72", "-80", "-88", "-272"]
    assert rows["grand-misere-ouvert"] == ["128", "128 per trick taken", "labet"]
    listing = cli("tariffs", "list").stdout.splitlines()
    assert listing[0].split()[0] == "name" and listing[2].split()[0] == "american"  # by name


def test_demo_plays_an_evening_with_a_double_tour(cli, isolated) -> None:
    """The demo plays into the user's ledger (here a new one) as a settled session of its own."""
    out = cli("demo").stdout
    assert "double tour ×2" in out and "labet" in out and "misere" in out
    assert "all pass" in out and " pays " in out
    assert "The demo evening is session 1 of your ledger" in out and "`boston-ledger new Anna" in out
    assert isolated.exists()
    [listed] = cli.json("sessions")
    assert listed["demo"] and listed["state"] == "settled" and listed["deals"] == 36
    assert cli.json("history", "--all")[-1]["balances"] == cli.json("settle")["net_chips"]  # basket shared: 0
    assert cli("check", "--all").stdout == ""


def test_the_demo_leaves_your_evening_and_your_money_alone(cli) -> None:
    """Played into a ledger with evenings of its own, the demo is looked at, never counted: the
    session that was current is current again, and `ledger` and `stats` leave the demo out."""
    cli("new", *PLAYERS, "--chip-value", "0.10")  # the same names as the demo's players
    # solo made with 9: 20 from each of the three (+60), and the basket of the four stakes (+40 - 10): +90
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    cli("settle", "--yes")
    cli("new", *PLAYERS, "--chip-value", "0.10")
    cli("deal", "pass")
    before_ledger, before_stats = cli.json("ledger"), cli.json("stats")
    assert before_ledger[""]["balances"]["Anna"] == "9.00"  # 90 chips at 0.10
    out = cli("demo").stdout
    assert "Session 2, which was current, is current again." in out
    assert cli.json("status")["session"] == 2 and cli.json("status")["deals"] == 1
    assert cli.json("ledger") == before_ledger and cli.json("stats") == before_stats
    demo = cli.json("sessions")[2]
    assert demo["id"] == 3 and demo["demo"] and demo["state"] == "settled"
    assert cli.json("history", "--session", "3", "--last", "1")[0]["deal"] == 36


@pytest.mark.slow  # two processes
def test_the_program_runs_as_a_process(tmp_path) -> None:
    """`python -m boston_ledger`, as a process of its own (the console script that `pip install`
    makes runs the same main(): test_quick_path.py)."""
    env = {**os.environ, "BOSTON_LEDGER_DB": str(tmp_path / "x.db")}
    done = subprocess.run([*PROGRAM, "--help"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "deal" in done.stdout and "settle" in done.stdout
    done = subprocess.run([*PROGRAM, "status"], capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert not (tmp_path / "x.db").exists()


def test_whole_chip_values_print_plainly(cli) -> None:
    assert "One chip = 10." in cli("new", *PLAYERS, "--chip-value", "10").stdout
    assert cli.json("status")["chip_value"] == "10"
    cli("new", *PLAYERS, "--chip-value", "1e2")
    assert cli.json("status")["chip_value"] == "100"


def test_missing_boston_gets_a_reminder(table) -> None:
    out = table("deal", "solo", "--declarer", "Anna", "--tricks", "8").stdout
    assert "No boston named" in out
    assert "No boston named" not in table("deal", "misere", "--declarer", "Anna", "--tricks", "0").stdout
    assert "No boston named" not in table("deal", "solo", "--declarer", "Anna", "--tricks", "8",
                                            "--boston", "Vera").stdout


def test_a_deal_goes_to_the_session_its_names_came_from(tmp_path) -> None:
    from decimal import Decimal

    from boston_ledger.core import engine
    from boston_ledger.app import deals as table, sessions
    from boston_ledger.store import read
    from boston_ledger.store.db import open_db
    from boston_ledger.core.tariff_files import load

    conn = open_db(tmp_path / "t.db", create=True)
    first = sessions.new(conn, PLAYERS, load("classic"), Decimal("1"), "").id
    sessions.new(conn, ["W", "X", "Y", "Z"], load("classic"), Decimal("1"), "")  # another terminal
    session = table.enter(conn, engine.Deal("pass"), first).session
    assert session.id == first and session.players == tuple(PLAYERS)
    assert read.state(conn, table.current(conn)).deals == 0


@pytest.mark.slow
def test_a_terminal_without_utf8_gets_no_traceback(tmp_path) -> None:
    env = {**os.environ, "BOSTON_LEDGER_DB": str(tmp_path / "x.db"), "PYTHONIOENCODING": "ascii"}
    for args in (["new", "Анна", "Борис", "Вера", "Глеб"], ["deal", "pass"], ["status", "--json"],
                 ["deal", "pass", "--declarer", "Жора"]):
        done = subprocess.run([*PROGRAM, *args], capture_output=True, text=True, env=env, timeout=60)
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode == (2 if "--declarer" in args else 0), done.stderr
        if args[0] == "status":
            assert json.loads(done.stdout)["balances"]["Анна"] == -20


FAST_CASES = [
    ("status",), ("status", "--json"),
    ("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4",
     "--boston", "Vera"),
    ("deal", "pass"), ("deal", "соло", "--declarer", "anna", "--tricks", "9", "--rank", "senior"),
    ("deal", "junior", "--declarer", "Zed", "--tricks", "5"), ("deal", "junior", "--bogus"),
    ("deal", "junior", "--tricks"), ("deal",), ("deal", "pass", "extra"), ("status", "--json", "--db"),
    ("deal", "solo", "--declarer", "Anna", "--tricks", "14"), ("deal", "--help"),
    ("--lang", "ru", "deal", "младшая", "--declarer", "Vera", "--tricks", "6"), ("status", "--lang=ru"),
    ("--lang", "ru", "deal", "junior", "--declarer", "Zed", "--tricks", "5"), ("deal", "x", "--lang", "ru"),
    ("--lang", "de", "status"),
    ("--session", "1", "status"), ("status", "--session=9"), ("deal", "pass", "--session", "x"),
    ("--session", "1", "deal", "pass"),
    ("history",), ("history", "--last", "2"), ("history", "--last", "x"), ("history", "--all", "--json"),
    ("history", "--corrections"), ("check",), ("check", "--all", "--json"), ("check", "--session", "7"),
    ("stats",), ("stats", "--json"), ("stats", "--player", "bor"), ("stats", "--since", "yesterday"),
    ("--lang", "ru", "stats"), ("--lang", "ru", "history", "--last", "1"), ("export",),
    ("export", "{out}"), ("export", "{out}", "--session", "1"), ("export", "{out}/deals.csv"),
]


def test_the_quick_path_answers_as_the_ordinary_one(cli, tmp_path: Path, monkeypatch) -> None:
    """`deal`, `status`, `history`, `check`, `export` and `stats` skip typer in the program's main();
    every answer, right or wrong, must be the same as through the ordinary path (typer's app).
    (That the quick path, in a process of its own, loads no typer: test_quick_path.py.)"""
    from boston_ledger.cli import quick

    taken = []
    monkeypatch.setattr(quick, "quick_values", lambda args, real=quick.quick_values: taken.append(real(args))
                        or taken[-1])
    fast_db, slow_db = tmp_path / "fast.db", tmp_path / "slow.db"
    base = {"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
    for db in (fast_db, slow_db):
        cli("new", *PLAYERS, "--db", str(db))
    for case in FAST_CASES:
        args = [word.format(out=tmp_path / "out") for word in case]
        fast = cli.main(*args, code=None, env={**base, "BOSTON_LEDGER_DB": str(fast_db)})
        slow = cli.runner.invoke(app, list(args), env={**base, "BOSTON_LEDGER_DB": str(slow_db)})
        assert fast.exit_code == slow.exit_code, args
        assert fast.stdout == slow.stdout, args
        assert fast.stderr == slow.stderr, args
    assert sum(v is not None for v in taken) >= 25  # most of the cases do go the quick way


@pytest.mark.slow
def test_a_closed_pipe_is_quiet(cli, tmp_path: Path) -> None:
    env = {**os.environ, "BOSTON_LEDGER_DB": str(tmp_path / "x.db")}
    cli("new", *PLAYERS, "--db", env["BOSTON_LEDGER_DB"])
    for args in (["status", "--json"], ["status"], ["history"]):
        done = subprocess.run(f"{shlex.join(PROGRAM)} {' '.join(args)} | true", shell=True, env=env,
                              capture_output=True, text=True, timeout=60)
        assert "error" not in done.stderr and "Traceback" not in done.stderr, (args, done.stderr)


@pytest.mark.parametrize("shell, env, expected", [
    ("bash", {"COMP_WORDS": "boston-ledger deal junior --declarer ", "COMP_CWORD": "4"},
     ["Anna", "Boris", "Vera", "Gleb"]),
    ("bash", {"COMP_WORDS": "boston-ledger deal ju", "COMP_CWORD": "2"}, ["junior"]),
    ("zsh", {"_TYPER_COMPLETE_ARGS": "boston-ledger deal s"}, ['"senior"', '"solo"']),
    ("fish", {"_TYPER_COMPLETE_ARGS": "boston-ledger deal junior --boston V",
              "_TYPER_COMPLETE_FISH_ACTION": "get-args"}, ["Vera"]),
])
def test_shell_completion_offers_players_and_contracts(cli, shell, env, expected) -> None:
    cli("new", *PLAYERS)
    done = cli.main(env={**env, "_BOSTON_LEDGER_COMPLETE": f"complete_{shell}"})  # the program's entry
    for word in expected:
        assert word in done.stdout
    if shell == "bash" and "--declarer" in env["COMP_WORDS"]:
        assert done.stdout.split() == expected


@pytest.mark.slow  # forty deals through the command line
def test_banners_for_the_double_tours_and_the_end_of_a_partie(table) -> None:
    outs = [table("deal", "junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "5",
                  "--partner-tricks", "3", "--boston", "Gleb").stdout for _ in range(41)]
    begins = [i + 1 for i, o in enumerate(outs) if "double tours begin" in o]
    ends = [i + 1 for i, o in enumerate(outs) if "Partie 1 ends" in o]
    assert begins == [33] and ends == [40]


def test_history_fits_a_narrow_terminal(table) -> None:
    """At 80 columns the dealer's column (then the boston's, whom the deal's words name then, then the
    change beside the standing) gives way before a deal's line wraps."""
    table("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4",
          "--boston", "Vera")
    table("deal", "grand-misere", "--declarer", "Vera", "--tricks", "1")
    wide = table("history").stdout  # COLUMNS=120 in the tests
    assert "dealer" in wide and "junior Boris 5 + Gleb 4 — made" in wide
    from typer.testing import CliRunner

    from boston_ledger.cli.declarations import app

    narrow = CliRunner().invoke(app, ["history"], env={"COLUMNS": "80"}).stdout
    assert "dealer" not in narrow and "junior Boris 5 + Gleb 4, boston Vera — made" in narrow
    assert all(len(line) <= 80 for line in narrow.splitlines())
    # a heading, a rule, the tour's heading, two lines for each deal: the changes over the standings
    assert len(narrow.splitlines()) == 7 and "→" not in narrow


def test_names_are_shown_as_written_not_as_emoji(cli) -> None:
    """rich reads `:fire:` as an emoji code unless told not to: a name is shown as it was typed."""
    cli("new", ":fire:", "Boris", ":smile:", "Gleb")
    shown = cli("deal", "solo", "--declarer", ":fire:", "--tricks", "9").stdout + cli("status").stdout
    assert ":fire:" in shown and ":smile:" in shown
    assert "\N{FIRE}" not in shown and "\N{SMILING FACE WITH OPEN MOUTH AND SMILING EYES}" not in shown
