"""Two tables on one ledger (issue 30, item 2): a command that writes never picks one of several
open evenings silently: without a terminal it refuses, naming them; at a terminal it asks. The
views say which evening they show; a deal names its evening; `new` defaults to no. And `extend N`
(item 3): more deals agreed for an evening, recorded and shown everywhere."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_ledger.cli.declarations import app
from conftest import GUIDED, PLAYERS, guided

TABLE_TWO = ["Wanda", "Xenia", "Yuri", "Zoe"]
SOLO = ("deal", "solo", "--declarer", "Anna", "--tricks", "8")
HELD = ("deals", "undos", "corrections", "settlements", "reopenings", "extensions", "sessions")


def kept(db: Path) -> dict[str, int]:
    """How many rows the ledger holds of each thing a write adds."""
    with sqlite3.connect(db) as conn:
        return {t: conn.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in HELD}


@pytest.fixture
def two_tables(table):
    """Table one's session 1 (Anna...) with a deal; table two's session 2 started after it, no deal
    yet, the ledger's current one."""
    table(*SOLO)
    table("new", *TABLE_TWO, "--yes")
    return table


WRITES = [
    ("deal", "pass"),
    ("deal", "junior", "--declarer", "Wanda", "--partner", "Yuri", "--tricks", "5", "--partner-tricks", "3"),
    ("undo",),
    ("edit", "1", "--tricks", "9", "--reason", "took 9"),
    ("settle",), ("settle", "--yes"), ("settle", "--json"),
    ("reopen",),
    ("extend", "4"),
    ("serve", "--entry", "--port", "0"),
]


@pytest.mark.parametrize("args", WRITES, ids=" ".join)
def test_two_open_evenings_never_capture_a_write_without_a_terminal(two_tables, isolated: Path, args) -> None:
    before = kept(isolated)
    err = two_tables(*args, code=2).stderr
    assert err.count("\n") == 1, err
    assert "this command names no evening, and more than one could be meant: session 1 (Anna, Boris, Vera, Gleb; " \
           "1 deal, entered at " in err
    assert "session 2 (Wanda, Xenia, Yuri, Zoe; no deal yet; the ledger's current session)" in err
    assert "`--session N`" in err and "`export BOSTON_LEDGER_SESSION=N`" in err and "nothing was done" in err
    assert kept(isolated) == before


def test_the_quick_path_refuses_too_and_the_russian_says_it(two_tables, isolated: Path) -> None:
    before = kept(isolated)
    err = two_tables.main("deal", "pass", code=2).stderr
    assert err.count("\n") == 1 and "more than one could be meant" in err
    err = two_tables.main("--lang", "ru", "deal", "pass", code=2).stderr
    assert err.count("\n") == 1 and "вечер 1 (Anna, Boris, Vera, Gleb; 1 сдача" in err and "--session N" in err
    assert kept(isolated) == before


def test_two_tables_that_start_together_are_both_open(table, isolated: Path) -> None:
    """Table two starts before table one's first deal: table one's `deal pass` is not deal 1 of
    table two's evening."""
    table("new", *TABLE_TWO)  # session 1 has no deal: nothing owed, no question; it stays open
    err = table("deal", "pass", code=2).stderr
    assert "session 1 (Anna, Boris, Vera, Gleb; no deal yet)" in err and "session 2 (Wanda" in err
    assert kept(isolated)["deals"] == 0


def test_a_settled_current_session_and_another_open_one(two_tables, isolated: Path) -> None:
    """Table two settles; table one's next deal goes nowhere silently, not even to its own evening."""
    two_tables("deal", "pass", "--session", "2")
    two_tables("settle", "--session", "2")
    err = two_tables("deal", "pass", code=2).stderr
    assert "session 1 (Anna" in err and "session 2 (Wanda, Xenia, Yuri, Zoe; 1 deal, entered at " in err
    assert "; settled; the ledger's current session)" in err
    two_tables("settle", "--session", "1")  # one evening left, the current one, settled: no doubt
    assert "Session 2 was already settled" in two_tables("settle").stdout


def test_named_the_write_goes_there_and_the_deal_names_its_evening(two_tables, monkeypatch) -> None:
    out = two_tables("deal", "pass", "--session", "1").stdout
    assert out.startswith("Session 1 · Deal 2 · partie 1, tour 1 (simple tour) · dealer Boris")
    monkeypatch.setenv("BOSTON_LEDGER_SESSION", "2")
    out = two_tables("deal", "pass").stdout
    assert out.startswith("Session 2 · Deal 1 · ")
    assert "Session 2\nDeal 1 (all pass) taken back" in two_tables("undo").stdout
    monkeypatch.delenv("BOSTON_LEDGER_SESSION")
    assert [two_tables.json("status", "--session", n)["deals"] for n in ("1", "2")] == [2, 0]
    two_tables("settle", "--session", "2")  # an evening without deals, closed: one is open again
    out = two_tables("deal", "pass", "--session", "1").stdout
    assert out.startswith("Deal 3 · ")  # nothing else open: not named


def test_at_a_terminal_the_evening_is_asked_by_its_number(two_tables, isolated: Path) -> None:
    result = guided(["deal", "pass"], "9\nsession one\n1\n")
    assert result.exit_code == 0, result.output
    for line in ("More than one evening could be meant:",
                 "  1) session 1 (Anna, Boris, Vera, Gleb; 1 deal, entered at ",
                 "  2) session 2 (Wanda, Xenia, Yuri, Zoe; no deal yet; the ledger's current session)",
                 "Which session is this for (1, 2; Enter does nothing)?", "answer 1, 2, or press Enter to do nothing",
                 "`export BOSTON_LEDGER_SESSION=1` in this table's terminal, and its commands go to session 1",
                 "Session 1 · Deal 2 · "):
        assert line in result.output, line
    assert result.output.count("answer 1, 2, or press Enter") == 2
    assert two_tables.json("status", "--session", "1")["deals"] == 2
    before = kept(isolated)
    for answers in ("\n", "cancel\n", "отмена\n"):  # nothing is done
        result = guided(["deal", "pass"], answers)
        assert result.exit_code == 0 and result.output.endswith("Nothing recorded.\n"), result.output
    for args, said in ((["undo"], "Nothing taken back."), (["edit", "1"], "Nothing corrected."),
                       (["reopen"], "Nothing reopened."), (["settle"], "Nothing recorded."),
                       (["extend", "2"], "Nothing recorded.")):
        result = guided(args, "\n")
        assert result.exit_code == 0 and result.output.endswith(said + "\n"), (args, result.output)
    assert kept(isolated) == before


def test_the_terminal_s_choice_in_russian_and_a_guided_deal_named(two_tables) -> None:
    result = guided(["--lang", "ru", "undo"], "1\n")
    assert result.exit_code == 0, result.output
    assert "Какой это вечер" in result.output and "вечер 2 (Wanda, Xenia, Yuri, Zoe; сдач ещё нет" in result.output
    assert two_tables.json("status", "--session", "1")["deals"] == 0
    result = guided(["deal"], "2\npass\n\n")  # the evening, then the deal's questions
    assert result.exit_code == 0, result.output
    assert "Session 2 · Deal 1 · " in result.output and "Deal 1 of session 2 recorded." in result.output
    assert two_tables.json("status")["deals"] == 1


def test_reading_commands_show_the_current_evening_and_say_which(two_tables, tmp_path: Path) -> None:
    note = "This is session 2; also open: session 1 (Anna, Boris, Vera, Gleb; 1 deal, entered at "
    for args in (("status",), ("history",), ("sheet",), ("chart",), ("export", str(tmp_path / "out"))):
        result = two_tables(*args)
        assert note in result.stderr and "(`--session N` shows another)." in result.stderr, args
    assert two_tables("status").stdout.startswith("session 2: Wanda, Xenia, Yuri, Zoe")  # the current one
    assert two_tables("status", "--session", "2").stderr == ""  # named: nothing to say
    assert two_tables("status", "--json").stderr == ""
    assert two_tables("--lang", "ru", "status").stderr.startswith("Это вечер 2. Другие открытые вечера: вечер 1 (Anna")


def test_new_defaults_to_no_and_says_what_stays_open(two_tables, isolated: Path) -> None:
    two_tables("deal", "pass", "--session", "2")
    result = CliRunner().invoke(app, ["new", "P", "Q", "R", "S"], input="\n", env=GUIDED)
    assert result.exit_code == 0, result.output
    assert "Session 1 (Anna, Boris, Vera, Gleb) is open: 1 deal played and not settled; session 2 (Wanda, " \
           "Xenia, Yuri, Zoe) is open: 1 deal played and not settled." in " ".join(result.output.split())
    assert "Start another evening anyway? [y/N]" in result.output
    assert "Nothing started; sessions 1, 2 stay open (`boston-ledger settle --session N` ends one)." in result.output
    assert kept(isolated)["sessions"] == 2
    err = two_tables("new", "P", "Q", "R", "S", code=2).stderr
    assert err.count("\n") == 1 and "settle those that have ended first" in err and "--yes" in err
    out = two_tables("new", "P", "Q", "R", "S", "--yes").stdout
    assert "Sessions 1, 2 stay open: `boston-ledger use N` goes back to one." in out
    assert "export BOSTON_LEDGER_SESSION=N" in " ".join(out.split())


def test_use_says_that_a_write_still_asks_while_another_evening_is_open(two_tables) -> None:
    out = " ".join(two_tables("use", "1").stdout.split())
    assert "Session 1 is current" in out and "Other evenings are open (2): a command that writes still asks" in out
    assert "`export BOSTON_LEDGER_SESSION=1` in this table's terminal keeps it to session 1." in out
    assert "more than one could be meant" in two_tables("deal", "pass", code=2).stderr
    two_tables("settle", "--session", "2")  # table two's evening, without deals, closed
    assert "Other evenings" not in two_tables("use", "1").stdout
    assert two_tables("deal", "pass").stdout.startswith("Deal 2 · ")


def test_an_unknown_session_in_the_variable_names_it(table, monkeypatch) -> None:
    monkeypatch.setenv("BOSTON_LEDGER_SESSION", "2")
    for args in (("status",), ("deal", "pass"), ("history",), ("extend", "2")):
        err = table(*args, code=2).stderr
        assert err.count("\n") == 1 and err.startswith(
            "boston-ledger: error: BOSTON_LEDGER_SESSION=2 names no session of this ledger; "
            "`unset BOSTON_LEDGER_SESSION` plays the ledger's current session"), (args, err)
    assert "BOSTON_LEDGER_SESSION=2 names no session" in table.main("status", code=2).stderr  # the quick path
    assert "no session 2 in this ledger" in table("status", "--session", "2", code=2).stderr  # the option's own
    assert "BOSTON_LEDGER_SESSION=2" in table("--lang", "ru", "status", code=2).stderr


def test_the_phone_enters_deals_only_into_a_named_evening(two_tables, isolated: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--entry", "--port", "0"], input="\n", env=GUIDED)
    assert result.exit_code == 0 and result.output.endswith("Nothing started.\n"), result.output
    from boston_ledger.serve.server import Served
    from serving import ENTRY, VIEW, Phone

    running = Served(isolated, 1, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    try:
        assert "Entering a deal · session 1" in Phone(running).html  # the phone's deal page names its evening
    finally:
        running.close()


# ---- extend N ----------------------------------------------------------------------------------


def test_extend_moves_the_last_agreed_deal(cli, tmp_path: Path) -> None:
    cli("new", *PLAYERS, "--deals", "2")
    cli("deal", "pass")
    assert "That was the last of the 2 agreed deals" in cli("deal", "pass").stdout
    assert "the 2 agreed deals of session 1 are played" in cli("deal", "pass", code=2).stderr
    out = cli("extend", "2").stdout
    assert out == ("2 more deals agreed after deal 2: the session lasts 4 deals.\n"
                   "2 of the 4 agreed deals left\nNext: deal 3, dealt by Vera.\n")
    assert "That was the last" not in cli("deal", "pass").stdout
    assert "That was the last of the 4 agreed deals: `boston-ledger settle`." in cli("deal", "pass").stdout
    cli("extend", "1")
    assert "1 of the 5 agreed deals left" in cli("status").stdout
    status = cli.json("status")
    assert (status["agreed_deals"], status["deals_left"]) == (5, 1)
    assert [(e["deals"], e["after_deal"], e["agreed_deals"]) for e in status["extensions"]] == [(2, 2, 4), (1, 4, 5)]
    lines = cli("history").stdout.splitlines()
    at = [i for i, line in enumerate(lines) if "agreed:" in line]
    assert "+2 deals agreed: 4 in all" in lines[at[0]]  # where it was agreed: after deal 2, before deal 3
    assert lines[at[0] - 1].lstrip().startswith("2 ") and lines[at[0] + 1].lstrip().startswith("3 ")
    assert "+1 deal agreed: 5 in all" in lines[at[1]] and at[1] == len(lines) - 1
    assert "+1 deal agreed" in cli("history", "--last", "1").stdout  # after the last deal shown
    assert "+2 deals agreed" not in cli("history", "--last", "1").stdout  # before the deals shown
    cli("export", str(tmp_path / "out"))
    with open(tmp_path / "out" / "extensions.csv", encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [(r["after_deal"], r["deals"], r["agreed_deals"]) for r in rows] == [("2", "2", "4"), ("4", "1", "5")]
    assert cli("check").stdout == ""


def test_extend_in_russian(cli) -> None:
    cli("new", *PLAYERS, "--deals", "1")
    cli("deal", "pass")
    out = cli("--lang", "ru", "extend", "3").stdout
    assert "Ещё 3 сдачи условлены после сдачи 1: вечер длится 4 сдачи." in out, out
    assert "условлены 4 сдачи, осталось 3" in out
    assert "+3 сдачи условлены: всего 4" in cli("--lang", "ru", "history").stdout


def test_extend_before_the_first_deal_and_on_points(cli) -> None:
    cli("new", *PLAYERS, "--tariff", "samouchitel", "--deals", "2")
    assert cli("extend", "2").stdout.startswith("2 more deals agreed before the first: the session lasts 4 deals.")
    assert cli("deal", "pass").stdout.startswith("Deal 1 of 4 · ")
    lines = cli("history").stdout.splitlines()
    assert "+2 deals agreed: 4 in all" in lines[2] and lines[3].lstrip().startswith("1 ")


def test_what_extend_refuses(cli, isolated: Path) -> None:
    cli("new", *PLAYERS)
    err = cli("extend", "4", code=2).stderr
    assert err.count("\n") == 1 and "session 1 has no agreed number of deals: it lasts until it is settled, so " \
                                     "there is nothing to extend" in err
    cli("new", *PLAYERS, "--deals", "4")
    cli("settle", "--session", "1")  # the first, without deals: closed
    for n in ("0", "x", "100001"):
        assert "N must be a whole number from 1 to 100000" in cli("extend", n, code=2).stderr
    assert "would then last 100003 deals; at most 100000" in cli("extend", "99999", code=2).stderr
    cli("deal", "pass")
    cli("settle")
    assert "session 2 is settled; `boston-ledger reopen` it first" in cli("extend", "2", code=2).stderr
    assert kept(isolated)["extensions"] == 0
    with sqlite3.connect(isolated) as conn:  # kept as agreed: never changed
        conn.execute("INSERT INTO extensions (session_id, deals, after_deal, extended_at) VALUES (2, 1, 1, 'x')")
        for sql in ("UPDATE extensions SET deals = 9", "DELETE FROM extensions"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                conn.execute(sql)


def test_a_session_never_extended_says_so_in_its_status(cli) -> None:
    """No extension: an empty list, and history's JSON stays a list of deals."""
    cli("new", *PLAYERS)
    status = cli.json("status")
    assert status["extensions"] == [] and status["agreed_deals"] is None
    assert json.loads(cli("history", "--json").stdout) == []
