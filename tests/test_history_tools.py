"""Corrections, sessions, statistics, charts, money between evenings and what-if rescoring."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from boston_ledger.app.demo import PLAYERS as DEMO_PLAYERS, SCRIPT, command_line
from boston_ledger.core.tariff_files import load
from conftest import PLAYERS, played

CLASSIC = load("classic")

FORTY = [deal for deal, _ in SCRIPT] + [deal for deal, _ in SCRIPT[4:8]]  # 40 deals: a whole partie


def enter(db: Path, deals) -> None:
    """The deals, as their command lines say them (the demo's), recorded undrawn (conftest.played)."""
    played(db, *(tuple(command_line(DEMO_PLAYERS, deal, CLASSIC).split()[2:]) for deal in deals))


@pytest.mark.slow
def test_editing_deal_one_of_forty_equals_a_fresh_session(cli, isolated: Path, monkeypatch) -> None:
    assert len(FORTY) == 40
    cli("new", *DEMO_PLAYERS)
    enter(isolated, FORTY)
    corrected = command_line(DEMO_PLAYERS, FORTY[0], CLASSIC).split()[2:]
    corrected[corrected.index("--tricks") + 1] = "3"  # Boris took 3, not 5: the pair fails, a labet
    out = cli("edit", "1", *corrected, "--reason", "Boris took 3, not 5").stdout
    assert "Deal 1 corrected" in out and "change" in out
    edited = cli.json("status")
    cli("new", *DEMO_PLAYERS, "--yes")
    monkeypatch.setenv("BOSTON_LEDGER_SESSION", "2")  # session 1 stays open: this terminal plays 2
    cli("deal", *corrected)
    enter(isolated, FORTY[1:])
    fresh = cli.json("status")
    monkeypatch.delenv("BOSTON_LEDGER_SESSION")
    for key in ("balances", "basket", "deals", "tour", "dealer", "stake_due"):
        assert edited[key] == fresh[key], key
    assert edited["balances"] != {"Anna": 576, "Boris": -84, "Vera": -675, "Gleb": 183}
    cli("use", "1")
    assert cli("check").stdout == ""
    audit = cli("history", "--corrections").stdout
    assert "Boris took 3, not 5" in audit and "junior Boris 5 + Gleb 4" in audit and "junior Boris 3 + Gleb 4" in audit
    with sqlite3.connect(isolated) as conn:  # the old entries are kept, superseded
        assert conn.execute("SELECT COUNT(*) FROM deals WHERE session_id = 1").fetchone()[0] == 80
        assert conn.execute("SELECT COUNT(*) FROM supersessions").fetchone()[0] == 40


def test_edit_in_the_middle_and_its_errors(table) -> None:
    table("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4")
    table("deal", "pass")
    table("deal", "senior", "--declarer", "Anna", "--tricks", "6")
    table("edit", "2", "solo", "--declarer", "Vera", "--tricks", "8", "--reason", "it was a solo")
    status = table.json("status")
    # deal 2 is now a made solo (Vera takes the new stake's 40); deal 3 opens with a stake again
    assert status["deals"] == 3 and status["basket"] == 0
    assert sum(status["balances"].values()) == 0
    for args, words in [(("edit", "9", "pass", "--reason", "x"), "no deal 9"),
                        (("edit", "1", "pass"), "--reason"),
                        (("edit", "1", "pass", "--reason", "  "), "--reason"),
                        (("edit", "0", "pass", "--reason", "x"), "N must be"),
                        (("edit", "1", "solo", "--declarer", "Zed", "--tricks", "8", "--reason", "x"), "no player")]:
        err = table(*args, code=2).stderr
        assert words in err and err.count("\n") == 1, err
    assert table.json("status") == status


def test_settled_sessions_need_reopen_to_edit(table) -> None:
    table("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    first = table.json("settle")
    assert "reopen" in table("edit", "1", "solo", "--declarer", "Anna", "--tricks", "7", "--reason", "x", code=2).stderr
    assert "not settled" not in table("reopen").stderr
    assert table.json("status")["settled"] is False
    table("edit", "1", "solo", "--declarer", "Anna", "--tricks", "7", "--reason", "she fell short")
    second = table.json("settle")
    assert second != first and second["net_chips"]["Anna"] < 0
    assert "not settled" in (table("reopen").stdout + table("reopen", code=2).stderr)
    assert table.json("settle") == second


def test_sessions_and_use(cli) -> None:
    cli("new", *PLAYERS, "--name", "Friday")
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    cli("settle")
    cli("new", "Аня", "Борис", "Вера", "Глеб", "--tariff", "samouchitel", "--deals", "8")
    listing = cli.json("sessions")
    assert [(s["id"], s["name"], s["state"], s["deals"], s["current"]) for s in listing] == [
        (1, "Friday", "settled", 1, False), (2, None, "open", 0, True)]
    assert listing[0]["result"]["Anna"] == "90.00"  # 20 from each of three, the basket of 40, less her stake
    assert listing[1]["tariff"] == "samouchitel"
    text = cli("sessions").stdout
    assert "Friday" in text and "* 2" in text
    cli("use", "1")
    assert cli.json("status")["session"] == 1
    assert "no session 7" in cli("use", "7", code=2).stderr


def test_stats_across_sessions(cli) -> None:
    cli("new", *PLAYERS)
    cli("deal", "junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "5", "--partner-tricks", "3")
    cli("deal", "junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "3", "--partner-tricks", "3")
    cli("deal", "solo", "--declarer", "Boris", "--tricks", "9")
    cli("settle")
    cli("new", "anna", "Boris", "Vera", "Gleb")  # the first is settled: nothing is asked
    cli("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "3")
    data = cli.json("stats")
    anna = data["players"]["Anna"]  # the same person across sessions, whatever the case
    assert (anna["sessions"], anna["deals"], anna["declared_total"], anna["made_total"]) == (2, 4, 2, 1)
    assert anna["declared"] == {"junior": {"declared": 2, "made": 1}} and anna["success_rate"] == 0.5
    first = cli.json("sessions")[0]["result"]
    assert anna["money"] == {"": first["Anna"]}  # only the settled session counts for money
    assert (data["money_over"], data["settled_sessions"], data["unsettled_sessions"]) == ("settled sessions", 1, 1)
    assert data["players"]["Boris"]["success_rate"] == 1.0
    # two pairs of one and two deals: listed, too few to call either the best or the worst
    assert [(p["players"], p["deals"]) for p in data["partnerships"]] == [(["Boris", "Gleb"], 1), (["Anna", "Vera"], 2)]
    assert data["best_partnership"] is None and data["worst_partnership"] is None
    assert data["partnership_min_deals"] == 5
    assert "no partnership has played 5 deals together yet" in cli("stats").stdout
    win = data["players"]["Boris"]["biggest_win"][""]  # by currency (here none): chips at their session's value
    assert win["chips"] > 0 and win["money"] == f"{win['chips']}.00"  # one chip is 1
    only = cli.json("stats", "--player", "gleb")
    assert list(only["players"]) == ["Gleb"] and only["partnerships"][0]["players"] == ["Boris", "Gleb"]
    assert cli.json("stats", "--since", "2999-01-01")["players"] == {}
    assert "--since" in cli("stats", "--since", "yesterday", code=2).stderr
    assert "Anna" in cli("stats").stdout


def test_chart_in_the_terminal_and_as_a_picture(table, tmp_path: Path) -> None:
    table("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4")
    table("deal", "pass")
    table("deal", "senior", "--declarer", "Anna", "--tricks", "6")
    lines = table("chart").stdout.splitlines()
    assert lines[1].split()[:4] == ["Anna", "66", "-38", "66"]  # the worked example without a boston
    picture = tmp_path / "evening.svg"
    table("chart", "--svg", str(picture))
    root = ET.parse(picture).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(root.findall("{http://www.w3.org/2000/svg}polyline")) == 4
    renderer = shutil.which("rsvg-convert")
    if renderer:  # a real renderer agrees it is a picture (Debian's librsvg2-bin, where installed)
        png = tmp_path / "evening.png"
        done = subprocess.run([renderer, "-o", str(png), str(picture)], capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_money_carries_across_evenings(cli) -> None:
    results = []
    for contract, declarer in (("solo", "Anna"), ("solo", "Vera"), ("misere", "Anna")):
        cli("new", *PLAYERS, "--chip-value", "0.10")
        cli("deal", contract, "--declarer", declarer, "--tricks", "9" if contract == "solo" else "0")
        results.append(cli.json("settle")["money"])
    owed = {n: sum(float(r[n]) for r in results) for n in PLAYERS}
    cli("paid", "Boris", "anna", "3.00")
    cli("paid", "Gleb", "Vera", "1.50")
    book = cli.json("ledger")[""]
    expected = dict(owed)
    expected["Boris"] += 3.00
    expected["Anna"] -= 3.00
    expected["Gleb"] += 1.50
    expected["Vera"] -= 1.50
    assert {n: float(v) for n, v in book["balances"].items()} == pytest.approx(expected)
    net = dict.fromkeys(PLAYERS, 0.0)
    for p in book["payments"]:
        net[p["from"]] -= float(p["amount"])
        net[p["to"]] += float(p["amount"])
    assert net == pytest.approx(expected) and len(book["payments"]) <= 3
    text = cli("ledger").stdout
    for p in book["payments"]:
        assert f"{p['from']} pays {p['to']} {p['amount']}" in text
    for args, words in [(("paid", "Zed", "Anna", "1"), "nobody called"),
                        (("paid", "Anna", "Anna", "1"), "same person"),
                        (("paid", "Anna", "Vera", "1.005"), "two decimals"),
                        (("paid", "Anna", "Vera", "0"), "positive")]:
        err = cli(*args, code=2).stderr
        assert words in err and err.count("\n") == 1


def test_rescore_changes_nothing(cli, isolated: Path) -> None:
    cli("new", *PLAYERS)
    cli("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "10", "--partner-tricks", "3",
        "--boston", "Vera")
    before = cli.json("status")
    data = cli.json("rescore", "1", "--tariff", "fontainebleau")
    # Fontainebleau: the dealer (Anna) alone stakes 50, so Vera pays no stake (+10); Vera, an
    # opponent of the slam, is paid her boston single (the slam doubles only its side's)
    assert data["players"]["Vera"]["rescored"] - data["players"]["Vera"]["recorded"] == 10
    assert data["players"]["Anna"]["rescored"] == -24 * 2 - 50 - 2
    assert cli.json("status") == before
    assert "deal 1 cannot be scored under samouchitel" in cli("rescore", "1", "--tariff", "samouchitel", code=2).stderr
    same = cli.json("rescore", "1", "--condition", "misere-partout")  # its own tariff, one condition more
    assert all(r["difference"] == 0 for r in same["players"].values())  # deal 1 is no all-pass
    # the simple game: each stakes 4, not 10, and the pair shares a basket of 16, not 40: Anna and
    # Vera pay 6 less, Boris and Gleb take 12 less and stake 6 less
    simple = cli.json("rescore", "1", "--condition", "простая игра")
    assert {k: r["difference"] for k, r in simple["players"].items()} == {"Anna": 6, "Boris": -6, "Vera": 6,
                                                                           "Gleb": -6}


def test_paying_in_the_currency_of_the_sessions(cli) -> None:
    cli("new", *PLAYERS, "--currency", "EUR")
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    owed = cli.json("settle")["money"]
    cli("paid", "Boris", "Anna", "20")  # the only currency in use: EUR
    book = cli.json("ledger")
    assert list(book) == ["EUR"]
    assert book["EUR"]["balances"]["Boris"] == f"{float(owed['Boris']) + 20:.2f}"
    cli("new", *PLAYERS, "--currency", "RUB")
    cli("deal", "misere", "--declarer", "Vera", "--tricks", "0")
    cli("settle")
    assert "several currencies" in cli("paid", "Boris", "Anna", "1", code=2).stderr
    cli("paid", "Boris", "Vera", "1", "--currency", "rub")
    assert set(cli.json("ledger")) == {"EUR", "RUB"}


def test_stats_for_a_player_with_nothing_since(cli) -> None:
    cli("new", *PLAYERS)
    data = cli.json("stats", "--player", "Anna", "--since", "2999-01-01")
    assert data["players"]["Anna"]["deals"] == 0 and data["players"]["Anna"]["money"] == {}


def test_edit_on_points_shows_the_score_sheet(cli) -> None:
    cli("new", *PLAYERS, "--tariff", "samouchitel")
    cli("deal", "6", "--declarer", "Anna", "--partner", "Boris", "--tricks", "6", "--partner-tricks", "4",
        "--rank", "first")
    out = cli("edit", "1", "6", "--declarer", "Anna", "--partner", "Boris", "--tricks", "5",
              "--partner-tricks", "3", "--rank", "first", "--reason", "8 not 10").stdout
    rows = {line.split("│")[1].strip(): [c.strip() for c in line.split("│")[2:-1]]
            for line in out.splitlines() if line.startswith("│")}
    assert rows["before"] == ["10", "10", "0", "0"] and rows["after"] == ["-8", "-8", "0", "0"]
    assert cli.json("status")["balances"] == {"Anna": -8, "Boris": -8, "Vera": 0, "Gleb": 0}
    assert "nothing to correct" in cli("edit", "1", "6", "--declarer", "Anna", "--partner", "Boris",
                                       "--tricks", "5", "--partner-tricks", "3", "--rank", "first",
                                       "--reason", "again", code=2).stderr


def test_check_sees_a_supersession_across_sessions(cli, isolated: Path) -> None:
    cli("new", *PLAYERS)
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "8")
    cli("edit", "1", "solo", "--declarer", "Anna", "--tricks", "9", "--reason", "nine")
    cli("new", "W", "X", "Y", "Z", "--yes")
    cli("deal", "pass", "--session", "2")
    conn = sqlite3.connect(isolated)
    conn.execute("INSERT INTO supersessions (deal_id, correction_id) VALUES ((SELECT MAX(id) FROM deals), 1)")
    conn.commit()
    found = cli("check", "--all", code=1).stdout
    assert "belongs to a correction of another session" in found


def test_export_keeps_the_audit(cli, tmp_path: Path) -> None:
    cli("new", *PLAYERS)
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "8")
    cli("edit", "1", "solo", "--declarer", "Anna", "--tricks", "7", "--reason", "seven")
    cli("export", str(tmp_path / "x"))
    text = (tmp_path / "x" / "corrections.csv").read_text(encoding="utf-8-sig")
    assert "seven" in text and "tricks=8" in text and "tricks=7" in text


def test_a_reopened_session_shows_its_earlier_settlement(table) -> None:
    table("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4")
    first = table.json("settle")["money"]
    table("reopen")
    table("edit", "1", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "6", "--partner-tricks", "4",
          "--reason", "Boris took 6")
    out = " ".join(table("settle").stdout.split())
    assert "Settled before, on " in out and ", ".join(f"{n} {m}" for n, m in first.items()) in out
    assert "Settled before" in " ".join(table("settle").stdout.split())  # shown again when asked again
