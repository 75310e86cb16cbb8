"""The rules' second reading: the ladder above the solo, Tambov's premiums, Fontainebleau's slam,
the simple game's stake, grand misère ouverte per trick, misère partout, the seed's Russian
names, the ladders' property — and sessions recorded before all this, replayed as they were.

Balances are worked out by hand in the comments, deal by deal (seats Anna, Boris, Vera, Gleb;
the first partie, simple tours unless said).
"""

from __future__ import annotations

import csv
import re
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_ledger.app import check as checks
from boston_ledger.cli.declarations import app
from boston_ledger.core import engine, ladders
from boston_ledger.core.engine import BASKET, Deal, State
from boston_ledger.core.tariff_files import load, shipped, with_conditions
from boston_ledger.store import read
from boston_ledger.store.db import open_db
from boston_ledger.store.schema import SCHEMA_VERSION
from conftest import PLAYERS

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
EARLIER = FIXTURES / "tariffs-b121005"
A, B, V, G = range(4)
GUIDED = {"BOSTON_LEDGER_GUIDED": "1"}


def balances(cli) -> list[int]:
    status = cli.json("status")
    return [*status["balances"].values(), status["basket"]]


# ---- sessions recorded before the second reading -------------------------------------------------


def old_ledger(tmp_path: Path) -> Path:
    """A ledger of schema 2 written by boston-ledger before the second reading (fixtures/ledger-v2.sql)."""
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript((FIXTURES / "ledger-v2.sql").read_text(encoding="utf-8"))
    conn.execute("PRAGMA user_version = 2")
    conn.close()
    return path


# What that boston-ledger had stored after the last deal of each session: balances, basket.
EARLIER_RESULTS = {
    1: ((-1104, -1824, 3456, -528), 0),  # classic (a nine made and failed, a grand misère ouverte of 3)
    2: ((-1692, -932, 4324, -1700), 0),  # classic, simple (no double tours, as it read then)
    3: ((-828, 1025, 287, -566), 82),  # classic, with purchase; settled
    4: ((-851, -742, 262, 1331), 0),  # classic, remise, philadelphia, sovereign, grand sovereign
    5: ((-2965, 10491, -2563, -5163), 200),  # fontainebleau (slams with an opponent's boston)
    6: ((-585, -829, 1617, -204), 1),  # tambov (six and eight alone and with a partner)
    7: ((254, -1046, 250, -738), 1280),  # tambov, with purchase
    8: ((17, -263, 185, 61), 0),  # samouchitel (points)
}


def test_a_ledger_recorded_before_the_second_reading_replays_as_it_was(tmp_path: Path, cli, monkeypatch) -> None:
    path = old_ledger(tmp_path)
    conn = open_db(path)  # migrates it: deals gain the column of misère partout's tricks
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    for session_id, (kept, basket) in EARLIER_RESULTS.items():
        session = read.session(conn, session_id)
        assert checks.check_session(conn, session_id) == [], session_id  # the full replay holds
        state = read.state(conn, session)
        assert (state.balances, state.basket) == (kept, basket), session_id
        # and the replay itself, deal by deal through today's engine, ends where it was
        replayed = engine.replayed(session.tariff, [r.deal for r in read.deals(conn, session, transfers=False)])
        assert (replayed.balances, replayed.basket) == (kept, basket), session_id
    conn.close()
    monkeypatch.setenv("BOSTON_LEDGER_DB", str(path))
    assert cli("check", "--all").stdout == ""
    current = str(cli.json("status")["session"])  # others are open too: named
    assert cli.json("settle", "--session", current) is not None  # the current session (samouchitel) settles as ever
    # the same evening under today's classic differs: `rescore` shows it, and changes nothing
    rescored = cli.json("rescore", "1", "--tariff", "classic")
    assert any(p["difference"] for p in rescored["players"].values())
    assert [p["recorded"] for p in rescored["players"].values()] == list(EARLIER_RESULTS[1][0])
    assert cli("check", "--all").stdout == ""


@pytest.mark.parametrize("name", ["classic", "fontainebleau", "tambov"])
def test_the_earlier_texts_still_play_their_own_numbers(cli, name: str) -> None:
    """A session started with an earlier shipped text keeps its numbers (a user's saved copy)."""
    cli("new", *PLAYERS, "--tariff", str(EARLIER / f"{name}.toml"))
    if name == "classic":
        # 1. stake 10 each (40); nine by Boris alone, 10 tricks, as it read then: 20 + 4 = 24 from
        #    each, the basket 40; Vera's boston 2 from each:
        #    Anna -10-24-2 = -36, Boris -10+72+40-2 = 100, Vera -10-24+6 = -28, Gleb -36; basket 0
        cli("deal", "nine", "--declarer", "Boris", "--tricks", "10", "--boston", "Vera")
        assert balances(cli) == [-36, 100, -28, -36, 0]
        # 2. stake 10 each (40); grand misère ouverte by Gleb fails with 2 tricks: 128 flat to each,
        #    labet 40, boston 2 to each: Anna -36-10+128+2 = 84, Boris 100-10+128+2 = 220,
        #    Vera -28-10+128+2 = 92, Gleb -36-10-384-40-6 = -476; basket 80
        cli("deal", "grand-misere-ouvert", "--declarer", "Gleb", "--tricks", "2")
        assert balances(cli) == [84, 220, 92, -476, 80]
    elif name == "fontainebleau":
        # stake: Anna alone 50; a pair slam of Boris 9 + Gleb 4: 24 from each opponent to each; the
        # basket 25 each; Vera, an opponent, held the boston, then paid double in a slam: 4 each.
        # Anna -50-48-4 = -102, Boris 48+25-4 = 69, Vera -48+12 = -36, Gleb 69
        cli("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "9", "--partner-tricks",
            "4", "--boston", "Vera")
        assert balances(cli) == [-102, 69, -36, 69, 0]
    else:
        # stake 10 each; six alone by Anna, 6 tricks, as it read then: 4 from each, the basket 40:
        # Anna -10+12+40 = 42, the others -10-4 = -14
        cli("deal", "six", "--declarer", "Anna", "--tricks", "6")
        assert balances(cli) == [42, -14, -14, -14, 0]
    assert cli("check").stdout == ""


# ---- the ladder above the solo and grand misère ouverte, a whole classic evening --------------------


def test_a_classic_evening_with_nine_and_grand_misere_ouverte(table) -> None:
    # 1. (dealer Anna) stake 10 each: basket 40. Nine («девять») by Boris alone with 10 tricks:
    #    40 + 4 = 44 from each; he takes the basket; Vera held the boston, 2 from each.
    #    Anna -10-44-2 = -56, Boris -10+132+40-2 = 160, Vera -10-44+6 = -48, Gleb -56; basket 0
    table("deal", "девять", "--declarer", "Boris", "--tricks", "10", "--boston", "Vera")
    assert balances(table) == [-56, 160, -48, -56, 0]
    # 2. (dealer Boris) stake again: basket 40. Гран-мизер уверт by Gleb fails with 2 tricks:
    #    2 × 128 = 256 to each opponent, labet 40 (basket 80), boston 2 to each.
    #    Anna -56-10+256+2 = 192, Boris 160-10+256+2 = 408, Vera -48-10+256+2 = 200,
    #    Gleb -56-10-768-40-6 = -880; basket 80
    table("deal", "гран-мизер уверт", "--declarer", "Gleb", "--tricks", "2")
    assert balances(table) == [192, 408, 200, -880, 80]
    # 3. (dealer Vera) no stake (the basket was not won). Nine senior by Anna with no trick:
    #    2 × (2 × 40 + 13 × 8) = 368 to each opponent, labet 80 (basket 160).
    #    Anna 192-1104-80 = -992, Boris 408+368 = 776, Vera 200+368 = 568, Gleb -880+368 = -512
    table("deal", "nine", "--declarer", "Anna", "--tricks", "0", "--rank", "senior")
    assert balances(table) == [-992, 776, 568, -512, 160]
    # 4. (dealer Gleb) solo by Vera, 8 tricks: 16 from each, and the basket of 160.
    #    Anna -1008, Boris 760, Vera 568+48+160 = 776, Gleb -528; basket 0
    table("deal", "solo", "--declarer", "Vera", "--tricks", "8")
    assert balances(table) == [-1008, 760, 776, -528, 0]
    history = table("history").stdout
    assert "grand-misere-ouvert Gleb 2 — failed" in history and "nine senior Anna 0 — failed" in history
    assert table("check").stdout == ""


def test_grand_misere_ouverte_shows_its_tricks_on_their_own_line(table) -> None:
    out = table("deal", "grand-misere-ouvert", "--declarer", "Anna", "--tricks", "3").stdout
    row = next(line for line in out.splitlines() if "tricks taken on the misère" in line)
    assert [int(c) for c in re.findall(r"[+-]\d+", row)] == [-1152, 384, 384, 384]


# ---- Tambov ---------------------------------------------------------------------------------------


def test_a_tambov_evening(cli) -> None:
    cli("new", *PLAYERS, "--tariff", "tambov")
    # 1. (dealer Anna) stake 10 each: 40. Six by Anna (6) with Gleb (4): team 10 made: pair(10) = 6,
    #    + premium 2 = 8 from Boris and Vera to each of the two; the basket 20 each.
    #    Anna -10+16+20 = 26, Boris -10-16 = -26, Vera -26, Gleb 26; basket 0
    out = cli("deal", "шесть", "--declarer", "Anna", "--partner", "Gleb", "--tricks", "6",
              "--partner-tricks", "4").stdout
    assert re.search(r"premium\s+│\s+\+4\s+│\s+-4\s+│\s+-4\s+│\s+\+4", out), out  # its own line: 2 from each
    assert balances(cli) == [26, -26, -26, 26, 0]
    # 2. (dealer Boris) stake 10 each: 40. Eight by Boris alone, 7 tricks: failed by 1: 2 + 2 + 6 =
    #    10 to each; the basket goes to the three: 13 each, 1 stays.
    #    Anna 26-10+10+13 = 39, Boris -26-10-30 = -66, Vera -26-10+10+13 = -13, Gleb 39; basket 1
    cli("deal", "eight", "--declarer", "Boris", "--tricks", "7")
    assert balances(cli) == [39, -66, -13, 39, 1]
    # 3. (dealer Vera) stake (the basket was won by the three): 41. Six senior by Vera alone, 6
    #    tricks: (4 + 2) × 2 = 12 from each; the basket; Gleb's boston 2 from each.
    #    Anna 39-10-12-2 = 15, Boris -66-10-12-2 = -90, Vera -13-10+36+41-2 = 52, Gleb 39-10-12+6 = 23
    cli("deal", "six", "--declarer", "Vera", "--tricks", "6", "--rank", "senior", "--boston", "Gleb")
    assert balances(cli) == [15, -90, 52, 23, 0]
    # 4. (dealer Gleb) stake: 40. Eight by Gleb (7, owing 8) with Boris (5, owing 5): team 12, failed
    #    by 1; only Gleb is short: 2 + 2 + 6 = 10 to Anna and to Vera, and the labet of 40.
    #    Anna 15-10+10 = 15, Boris -90-10 = -100, Vera 52-10+10 = 52, Gleb 23-10-20-40 = -47; basket 80
    cli("deal", "eight", "--declarer", "Gleb", "--partner", "Boris", "--tricks", "7", "--partner-tricks", "5")
    assert balances(cli) == [15, -100, 52, -47, 80]
    assert cli("check").stdout == ""


# ---- Fontainebleau --------------------------------------------------------------------------------


def test_a_fontainebleau_evening(cli) -> None:
    cli("new", *PLAYERS, "--tariff", "fontainebleau")
    # 1. (dealer Anna) Anna alone stakes 50. A pair slam, Boris 9 + Gleb 4: 24 from Anna and Vera to
    #    each; the basket 25 each; Vera, an opponent of the slam, held the boston: single, 2 each.
    #    Anna -50-48-2 = -100, Boris 48+25-2 = 71, Vera -48+6 = -42, Gleb 71
    cli("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "9", "--partner-tricks", "4",
        "--boston", "Vera")
    assert balances(cli) == [-100, 71, -42, 71, 0]
    # 2. (dealer Boris) Boris stakes 50. Solo by Gleb, all 13: 72 from each, the basket; Gleb, the
    #    slam's side, held the boston: doubled, 4 from each.
    #    Anna -100-72-4 = -176, Boris 71-50-72-4 = -55, Vera -42-72-4 = -118, Gleb 71+216+50+12 = 349
    cli("deal", "solo", "--declarer", "Gleb", "--tricks", "13", "--boston", "Gleb")
    assert balances(cli) == [-176, -55, -118, 349, 0]
    # 3. (dealer Vera) Vera stakes 50. All pass, Anna declared a carte blanche: 10 from each; the
    #    basket doubles: 12 each, the dealer the remainder 14 (basket 100).
    #    Anna -176+30-12 = -158, Boris -55-10-12 = -77, Vera -118-50-10-14 = -192, Gleb 349-10-12 = 327
    cli("deal", "pass", "--carte-blanche", "Anna")
    assert balances(cli) == [-158, -77, -192, 327, 100]
    assert cli("check").stdout == ""


# ---- the simple game ------------------------------------------------------------------------------


def test_a_simple_game_evening(cli) -> None:
    cli("new", *PLAYERS, "--condition", "простая игра")
    assert cli.json("status")["conditions"] == ["simple"]
    # 1. each stakes 4 (16); Boris 5 + Gleb 3 made: 2 from Anna and Vera to each, 8 each of the basket.
    #    Anna -8, Boris 8, Vera -8, Gleb 8; basket 0
    cli("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "3")
    assert balances(cli) == [-8, 8, -8, 8, 0]
    assert cli.json("status")["stake_due"] is True
    # 2. each stakes 4 (16), all pass: 4 each (32). Anna -16, Boris 0, Vera -16, Gleb 0
    cli("deal", "pass")
    # 3. each stakes 4 again (48), all pass: 12 each (96). Anna -32, Boris -16, Vera -32, Gleb -16
    cli("deal", "pass")
    assert balances(cli) == [-32, -16, -32, -16, 96]
    assert "stake of 4 chips from each player" in cli("status").stdout
    # 4. each stakes 4 (112). Anna alone takes 3 of her 5: 2 + 2 × 2 = 6 to each; the basket to the
    #    three: 37 each, 1 stays. Anna -32-4-18 = -54, Boris -16-4+6+37 = 23, Vera -32-4+6+37 = 7,
    #    Gleb 23; basket 1
    cli("deal", "junior", "--declarer", "Anna", "--tricks", "3")
    assert balances(cli) == [-54, 23, 7, 23, 1]
    assert cli("check").stdout == ""


# ---- misère partout -------------------------------------------------------------------------------


def test_a_misere_partout_evening(cli, tmp_path: Path) -> None:
    cli("new", *PLAYERS, "--condition", "мизер-парту")
    # 1. (dealer Anna) stake 10 each (40). All pass, played: 3, 4, 2, 4. Boris and Gleb tied for the
    #    most (4) share: Anna's 2 × 1 = 2 (1 each), Vera's 2 × 2 = 4 (2 each). The basket stays.
    #    Anna -10+2 = -8, Boris -10-3 = -13, Vera -10+4 = -6, Gleb -13; basket 40
    out = cli("deal", "pass", "--tricks-each", "3,4,2,4").stdout
    assert "misère partout: Anna 3, Boris 4, Vera 2, Gleb 4" in out
    assert balances(cli) == [-8, -13, -6, -13, 40]
    assert cli.json("status")["stake_due"] is False  # the basket was not won
    # 2. (dealer Boris) 4, 4, 4, 1 (Foster): each of the three pays Gleb 2 × 3 / 3 = 2.
    #    Anna -10, Boris -15, Vera -8, Gleb -7; basket 40
    cli("deal", "pass", "--tricks-each", "4 4 4 1")
    assert balances(cli) == [-10, -15, -8, -7, 40]
    # 3. (dealer Vera) Boris takes all 13: 2 × 13 = 26 to each.
    #    Anna 16, Boris -15-78 = -93, Vera 18, Gleb 19; basket 40
    cli("deal", "пас", "--tricks-each", "0,13,0,0")
    assert balances(cli) == [16, -93, 18, 19, 40]
    # 4. (dealer Gleb) Anna 5 + Vera 3 made: 2 from Boris and Gleb to each, the basket 20 each.
    #    Anna 16+4+20 = 40, Boris -97, Vera 18+4+20 = 42, Gleb 15; basket 0
    cli("deal", "junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "5", "--partner-tricks", "3")
    assert balances(cli) == [40, -97, 42, 15, 0]
    assert "misère partout: Anna 0, Boris 13, Vera 0, Gleb 0" in cli("history").stdout
    assert cli("check").stdout == ""
    # a correction of a misère partout replays what follows
    cli("edit", "3", "pass", "--tricks-each", "1,12,0,0", "--reason", "Anna took one")
    # 3'. Boris 12: Anna 2 × 11 = 22, Vera and Gleb 24 each: Anna -10+22 = 12, Boris -15-70 = -85,
    #     Vera -8+24 = 16, Gleb -7+24 = 17; 4'. Anna 36, Boris -89, Vera 40, Gleb 13
    assert balances(cli) == [36, -89, 40, 13, 0]
    assert cli("check").stdout == ""
    # export: the tricks of each player in their own column, only for such a session
    cli("export", str(tmp_path / "out"))
    with open(tmp_path / "out" / "deals.csv", encoding="utf-8-sig", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["tricks_each"] for r in rows] == ["3,4,2,4", "4,4,4,1", "1,12,0,0", ""]
    assert "tricks_each=1,12,0,0" in (tmp_path / "out" / "corrections.csv").read_text(encoding="utf-8-sig")
    cli("new", *PLAYERS, "--yes")
    cli("deal", "pass", "--session", "2")  # the first evening is open too
    cli("export", str(tmp_path / "plain"))
    assert "tricks_each" not in (tmp_path / "plain" / "deals.csv").read_text(encoding="utf-8-sig")


def test_misere_partout_in_a_double_tour_and_the_stake_still_due() -> None:
    t = load("classic", ["misere-partout"])
    start = State(balances=(0,) * 4, deals=32, stake_due=True)  # deal 33: tour 9, doubled
    out = engine.play(t, start, Deal("pass", tricks_each=(5, 3, 3, 2)))
    assert [(x.payer, x.payee, x.chips, x.reason) for x in out.transfers] == [
        (A, BASKET, 10, "stake"), (B, BASKET, 10, "stake"), (V, BASKET, 10, "stake"), (G, BASKET, 10, "stake"),
        # Anna, the most (5), pays 2 × 2 × 2 = 8 to Boris and Vera, 2 × 3 × 2 = 12 to Gleb
        (A, B, 8, "misere-partout"), (A, V, 8, "misere-partout"), (A, G, 12, "misere-partout")]
    assert out.made is None and not out.stake_next


def test_misere_partout_is_refused_where_it_does_not_apply(cli) -> None:
    cli("new", *PLAYERS)
    err = cli("deal", "pass", "--tricks-each", "3,4,2,4", code=2).stderr
    assert "misère partout condition" in err and err.count("\n") == 1
    assert "--tricks-each" in cli("deal", "junior", "--declarer", "Anna", "--tricks", "5", "--tricks-each",
                                  "3,4,2,4", code=2).stderr
    assert cli.json("status")["deals"] == 0  # nothing written
    cli("settle")  # the first evening has no deal: settling closes it
    cli("new", *PLAYERS, "--condition", "misere-partout")
    for args, words in [((), "13 tricks in all (--tricks-each N,N,N,N)"), (("--tricks-each", "3,4,2"), "4 numbers"),
                        (("--tricks-each", "3,4,2,5"), "add up to the 13"), (("--tricks-each", "3,x,2,4"), "whole"),
                        (("--tricks-each", "3,4,2,4", "--declarer", "Anna"), "--declarer"),
                        (("--tricks-each", ","), "seat order")]:
        err = cli("deal", "pass", *args, code=2).stderr
        assert words in err and err.count("\n") == 1, (args, err)
    assert cli.json("status")["deals"] == 0


def test_misere_partout_by_the_quick_path_and_guided(cli, tmp_path: Path) -> None:
    env = {"BOSTON_LEDGER_DB": str(tmp_path / "q.db")}
    cli.main("new", *PLAYERS, "--condition", "misere-partout", env=env)
    done = cli.main("deal", "pass", "--tricks-each", "3,4,2,4", env=env)  # the program's quick path
    assert "misère partout" in done.stdout
    cli("new", *PLAYERS, "--condition", "misere-partout")
    answers = "pass\n3\n4\n2\n5\n4\n\n"  # 3+4+2+5 = 14: only Gleb's tricks are asked again; Enter = yes
    result = CliRunner().invoke(app, ["deal"], input=answers, env=GUIDED)
    assert result.exit_code == 0, result.output
    assert "Tricks taken by Anna" in result.output and "Tricks taken by Gleb [4]" in result.output
    assert "add up to the 13 tricks of a deal, not 14" in result.output
    assert result.output.count("Tricks taken by Anna") == 1
    assert balances(cli) == [-8, -13, -6, -13, 40]


# ---- the seed's Russian names --------------------------------------------------------------------


def test_the_seed_s_russian_names_are_shown_and_taken(cli, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    cli("new", *PLAYERS, "--condition", "бостон с ремизом", "--condition", "филадельфия")
    assert cli.json("status")["conditions"] == ["remise", "philadelphia"]
    classic = load("classic")
    for word, key in [("петит-мизер", "misere"), ("мизер", "misere"), ("гран-мизер", "grand-misere"),
                      ("большой мизер", "grand-misere"), ("большой-мизер", "grand-misere"),
                      ("петит-мизер уверт", "misere-ouvert"), ("петит-мизер-уверт", "misere-ouvert"),
                      ("Гран-мизер уверт", "grand-misere-ouvert"), ("индепанданс", "solo"), ("пасуют", "pass")]:
        assert classic.contract_key(word) == key, word
    for word, key in [("простая игра", "simple"), ("Простая-игра", "simple"), ("бостон с прикупкой", "with-purchase"),
                      ("с лабетом", "labet"), ("индепанданс", "solo"), ("гран-суверен", "grand-sovereign"),
                      ("мизер-парту", "misere-partout"), ("remise", "remise")]:
        assert classic.condition_key(word) == key, word
    ru = cli("--lang", "ru", "deal", "петит-мизер уверт", "--declarer", "Vera", "--tricks", "0").stdout
    assert "петит-мизер уверт: Vera — 0 взяток; сыгран" in ru
    ru = cli("--lang", "ru", "deal", "соло", "--declarer", "Anna", "--tricks", "9", "--rank", "большая",
             "--ace-turned").stdout  # the seed's «большая масть» is the senior suit, «малая» the junior
    assert "соло в старшей: Anna — 9 взяток; сыграно" in ru and "за туза" in ru and "ремиз" not in ru
    en = cli("deal", "nine", "--declarer", "Boris", "--tricks", "9").stdout
    assert "nine junior Boris 9" in en
    assert "девять в младшей: Boris — 9 взяток; сыграно" in cli("--lang", "ru", "history").stdout
    assert [classic.rank_key(w) for w in ("малая", "большая", "Младшая", "старшая")] == ["junior", "senior", "junior",
                                                                                       "senior"]
    assert "условия: бостон с ремизом, филадельфия" in cli("--lang", "ru", "status").stdout
    shown = cli("--lang", "ru", "tariffs", "show", "classic").stdout
    for name in ("простая игра", "бостон с прикупкой", "бостон с ремизом", "бостон с лабетом", "индепанданс",
                 "петит-мизер уверт", "филадельфия", "гран-мизер уверт", "суверен", "гран-суверен", "мизер-парту",
                 "петит-мизер", "гран-мизер"):
        assert name in shown, name
    assert "простая игра" in cli("--lang", "ru", "tariffs", "list").stdout
    help_text = cli("deal", "--help").stdout
    assert "jack of diamonds" in help_text and "jack of hearts" in help_text
    assert "червонный" in cli("--lang", "ru", "deal", "--help").stdout


def test_a_condition_named_wrong_is_one_line_and_exit_2(cli) -> None:
    err = cli("new", *PLAYERS, "--condition", "простой", code=2).stderr
    assert "no condition 'простой'" in err and err.count("\n") == 1


# ---- the ladders ---------------------------------------------------------------------------------


def variants() -> list[tuple[str, str, list[str]]]:
    """Every shipped tariff, with each of its conditions and with all of them: (label, name,
    conditions); each is loaded by the test that runs it, not by every worker collecting it."""
    out = []
    for name in sorted(shipped()):
        keys = list(load(name).conditions)
        out += [(name, name, []), *((f"{name}+{key}", name, [key]) for key in keys)]
        if keys:
            out.append((f"{name}+all", name, keys))
    return out


VARIANTS = variants()


@pytest.mark.parametrize("label, name, conditions", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_a_higher_contract_never_pays_less_nor_costs_less(label: str, name: str, conditions: list[str]) -> None:
    """For every shipped tariff and condition: within a ladder, a higher contract of the same form
    (way and kind), in a suit of no lower rank, pays no less made and costs no less failed than a
    lower one at every number of tricks (the same comparison, written out here)."""
    tariff = load(name, conditions)
    assert tariff.ladders, label
    for ladder in tariff.ladders:
        present = [k for k in ladder if k in tariff.contracts]
        for i, low in enumerate(present):
            for high in present[i + 1:]:
                if (low, high) in tariff.ladder_exceptions:  # the source's own tables break it (Foster's Table No. 1)
                    continue
                for way in ("alone", "with_partner"):
                    a, b = getattr(tariff.contracts[low], way), getattr(tariff.contracts[high], way)
                    if a is None or b is None or a.kind != b.kind:
                        continue
                    for ra in tariff.contracts[low].ranks or (None,):
                        for rb in tariff.contracts[high].ranks or (None,):
                            ma = tariff.ranks[ra].multiplier if ra else 1
                            mb = tariff.ranks[rb].multiplier if rb else 1
                            if mb < ma:
                                continue
                            for taken in range(tariff.tricks + 1):
                                made_a, pay_a = engine.lines(a, taken, tariff.tricks, ra)
                                made_b, pay_b = engine.lines(b, taken, tariff.tricks, rb)
                                if made_a == made_b:
                                    assert sum(c for __, c in pay_b) * mb >= sum(c for __, c in pay_a) * ma, \
                                        (label, low, high, way, ra, rb, taken)
    assert ladders.breaches(tariff) == []


def test_every_contract_has_its_place_in_a_ladder() -> None:
    for label, name, conditions in VARIANTS:
        tariff = load(name, conditions)
        placed = {k for ladder in tariff.ladders for k in ladder}
        assert set(tariff.contracts) <= placed, label


def test_tariffs_check_warns_of_a_broken_ladder(cli, tmp_path: Path) -> None:
    mine = tmp_path / "club.toml"
    mine.write_text('ladders = [["junior", "solo", "nien", "nine"]]\n'
                    '[tariff]\nextends = "classic"\nname = "club"\ntitle = "t"\nsource = "s"\n'
                    '[schedules.nine]\nkind = "tricks"\nbar = 9\nconsolation = 20\nper_trick = 4\nslam = 2\n'
                    'slam_against_undertricks = 13\nfailed_basket = "labet"\n', encoding="utf-8")
    result = cli("tariffs", "check", str(mine))  # exit 0: a warning, not an error
    assert "ok:" in result.stdout
    # the earlier nine (base 20, 4 a trick) pays what the solo pays with the same tricks (20 … 32,
    # 72) and costs more failed: no breach, only the unknown name
    assert result.stderr.splitlines() == [
        "boston-ledger: warning: ladders: 'nien' is no contract of the tariff nor of its conditions"]
    # a nine of base 10 pays less than the solo it outranks: (10 + 16) × 2 = 52 at 13 against 72
    mine.write_text(mine.read_text(encoding="utf-8").replace("consolation = 20", "consolation = 10"),
                    encoding="utf-8")
    warnings = cli("tariffs", "check", str(mine)).stderr
    assert "nine (junior), alone, made with 13 tricks pays 52, less than the lower solo (junior)'s 72" in warnings
    assert cli("tariffs", "check", "classic").stderr == ""


CLUB = '[tariff]\nextends = "classic"\nname = "club"\ntitle = "t"\nsource = "s"\n'
BREACHES = {  # a tariff over classic, and the breaches `tariffs check` warns of, in English and in Russian
    "misere": (  # a grand misère of 15 a trick failed: one chip under the misère's 16 with one trick
        CLUB + '[schedules.grand-misere]\nkind = "null"\nvalue = 15\nfailed_per_trick = true\n'
        'failed_basket = "labet"\n',
        ["ladders: grand-misere, alone, failed with 1 trick costs 15, less than the lower misere's 16",
         "ladders: misere-ouvert, alone, failed with 13 tricks costs 64, less than the lower grand-misere's 195"],
        ["лесенки: игра гран-мизер (без партнёра), не сыгранная с 1 взяткой, стоит 15\u00a0— меньше, чем у низшей игры "
         "мизер (16)",
         "лесенки: игра петит-мизер уверт (без партнёра), не сыгранная с 13 взятками, стоит 64\u00a0— меньше, чем "
         "у низшей игры гран-мизер (195)"]),
    "pair": (  # a senior pair paid less than the junior's
        CLUB + '[contracts.senior]\nwith_partner = "cheap"\n[schedules.cheap]\nkind = "tricks"\nbar = 8\n'
        'shares = [5, 3]\nconsolation = 0\nper_trick = 1\nslam = 1\nslam_against_undertricks = 13\n'
        'failed_basket = "labet"\n',
        ["ladders: senior, with a partner, made with 13 tricks pays 10, less than the lower junior's 24"],
        ["лесенки: игра старшая (с партнёром), сыгранная с 13 взятками, платит 10\u00a0— "
         "меньше, чем у низшей игры младшая (24)"]),
    "nine": (  # a nine of base 10 under the solo, in each suit (the ranks' multipliers applied to both)
        'ladders = [["junior", "senior", "solo", "nine"]]\n' + CLUB +
        '[schedules.nine]\nkind = "tricks"\nbar = 9\nconsolation = 10\nper_trick = 4\nslam = 2\n'
        'slam_against_undertricks = 13\nfailed_basket = "labet"\n',
        ["ladders: nine (junior), alone, made with 13 tricks pays 52, less than the lower solo (junior)'s 72",
         "ladders: nine (senior), alone, made with 13 tricks pays 104, less than the lower solo (senior)'s 144"],
        ["лесенки: игра девять (младшая) (без партнёра), сыгранная с 13 взятками, платит 52\u00a0— "
         "меньше, чем у низшей игры "
         "соло (младшая) (72)",
         "лесенки: игра девять (старшая) (без партнёра), сыгранная с 13 взятками, платит 104\u00a0— меньше, чем "
         "у низшей игры соло (старшая) (144)"]),
    "a way one lacks": (  # a pair-only contract with no rank, compared only with a partner: 5 chips, under 24
        'ladders = [["junior", "pair"]]\n' + CLUB + '[contracts.pair]\nnames = ["pair"]\nwith_partner = "cheap"\n'
        '[schedules.cheap]\nkind = "tricks"\nbar = 8\nshares = [5, 3]\nconsolation = 0\nper_trick = 1\nslam = 1\n'
        'slam_against_undertricks = 13\nfailed_basket = "labet"\n',
        ["ladders: pair, with a partner, made with 13 tricks pays 5, less than the lower junior's 24"],
        ["лесенки: игра pair (с партнёром), сыгранная с 13 взятками, платит 5\u00a0— "
         "меньше, чем у низшей игры младшая (24)"]),
    "under a suit": (  # a contract of no suit under the solo is held to the solo in every suit, the junior one too
        'ladders = [["low", "solo"]]\n' + CLUB + '[contracts.low]\nnames = ["low"]\nalone = "lows"\n'
        '[schedules.lows]\nkind = "tricks"\nbar = 6\nconsolation = 10\nper_trick = 4\nslam = 2\n'
        'slam_against_undertricks = 13\nfailed_basket = "labet"\n',
        ["ladders: solo (junior), alone, made with 13 tricks pays 72, less than the lower low's 76"],
        ["лесенки: игра соло (младшая) (без партнёра), сыгранная с 13 взятками, платит 72\u00a0— "
         "меньше, чем у низшей игры low (76)"]),
    "twelve": (  # a slam of ten keeps the higher one above at 13 tricks: the first breach is at 12, not 11
        'ladders = [["low", "high"]]\n' + CLUB + '[contracts.low]\nnames = ["low"]\nalone = "lows"\n'
        '[contracts.high]\nnames = ["high"]\nalone = "highs"\n'
        '[schedules.lows]\nkind = "tricks"\nbar = 8\nconsolation = 2\nper_trick = 2\nper_undertrick = 2\nslam = 1\n'
        'slam_against_undertricks = 13\nfailed_basket = "labet"\n'
        '[schedules.highs]\nkind = "tricks"\nbar = 8\nconsolation = 2\nper_trick = 1\nper_undertrick = 2\n'
        'slam = 10\nslam_against_undertricks = 13\nfailed_basket = "labet"\n',
        ["ladders: high, alone, made with 12 tricks pays 6, less than the lower low's 10"],
        ["лесенки: игра high (без партнёра), сыгранная с 12 взятками, платит 6\u00a0— "
         "меньше, чем у низшей игры low (10)"]),
}


@pytest.mark.parametrize("case", BREACHES)
def test_a_broken_ladder_is_warned_of_in_words(cli, tmp_path: Path, case: str) -> None:
    """Exactly the breaches there are, each named as the players name the contracts and suits."""
    text, english, russian = BREACHES[case]
    mine = tmp_path / "club.toml"
    mine.write_text(text, encoding="utf-8")
    for lang, expected, warning in (("en", english, "boston-ledger: warning: "),
                                    ("ru", russian, "boston-ledger: предупреждение: ")):
        lines = cli("--lang", lang, "tariffs", "check", str(mine)).stderr.splitlines()
        assert [line.removeprefix(warning) for line in lines if "меньше" in line or "less than" in line] == expected


# ---- rules as data ---------------------------------------------------------------------------------


def test_the_classic_rule_choices_are_keys_of_its_file() -> None:
    text = (ROOT / "tariffs" / "classic.toml").read_text(encoding="utf-8")
    for key, value in [("all_pass_remainder", "dealer"), ("labet_odd_chip", "declarer"),
                       ("share_remainder", "stays"), ("stake_at", "start-and-award"), ("stake_payer", "each")]:
        assert re.search(rf'^{key} = "{value}"$', text, re.M), key


@pytest.mark.parametrize("change, shown, hidden", [
    ('all_pass_remainder = "eldest"', "the player after the dealer pays", "odd chips: the dealer pays"),
    ('labet_odd_chip = "partner"', "the partner paying any odd chip", "the declarer paying any odd chip"),
    ('share_remainder = "first"', "to the first sharer", "leaves what does not divide in the basket"),
    ('all_pass = "nothing"', "all pass: nothing is paid", "when the basket doubles"),
    ('stake_at = "every-deal"', "at every deal", "after the basket is won"),
])
def test_tariffs_show_says_the_rules_the_engine_plays(cli, tmp_path: Path, monkeypatch, change, shown,
                                                       hidden) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    mine = tmp_path / "mine.toml"
    mine.write_text(f'[tariff]\nextends = "classic"\nname = "mine"\ntitle = "t"\nsource = "s"\n[basket]\n{change}\n',
                    encoding="utf-8")
    out = " ".join(cli("tariffs", "show", str(mine)).stdout.split())
    assert shown in out and hidden not in out
    t = load(str(mine))
    key, value = change.split(" = ")
    assert getattr(t.basket, key) == value.strip('"')  # the very value the engine plays by


def test_the_engine_follows_the_odd_chip_keys(tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text('[tariff]\nextends = "classic"\nname = "mine"\ntitle = "t"\nsource = "s"\n[basket]\n'
                    'stake = 5\nall_pass_remainder = "eldest"\nlabet_odd_chip = "partner"\nshare_remainder = "first"\n',
                    encoding="utf-8")
    t = load(str(mine))
    # stake 5 each (20), all pass: 5 each (40), nothing odd to pay
    state = engine.replayed(t, [Deal("pass", ace_turned=False)])
    assert state.basket == 40
    odd = State(balances=(0,) * 4, basket=41, deals=1, stake_due=False)  # dealer Boris, eldest Vera
    passed = engine.play(t, odd, Deal("pass"))
    assert [(x.payer, x.chips) for x in passed.transfers] == [(A, 10), (B, 10), (G, 10), (V, 11)]
    # a pair that fails both short splits a labet of 41: the partner pays the odd chip
    labet = engine.play(t, odd, Deal("junior", A, G, 4, 2))
    assert [(x.payer, x.chips) for x in labet.transfers if x.reason == "labet"] == [(A, 20), (G, 21)]
    # a pair that makes it shares 41: the first of them (the declarer) gets the odd chip
    won = engine.play(t, odd, Deal("junior", A, G, 5, 3))
    assert [(x.payee, x.chips) for x in won.transfers if x.reason == "basket"] == [(A, 21), (G, 20)]


# ---- nothing shipped points outside the project ------------------------------------------------------


def test_nothing_shipped_mentions_the_seeds_files_or_the_house_notes() -> None:
    shipped_files = [ROOT / "README.md", *(p for p in (ROOT / "docs").rglob("*") if p.suffix != ".png"),
                     *(ROOT / "tariffs").glob("*.toml"),
                     *(p for p in (ROOT / "boston_ledger").rglob("*") if p.suffix in (".py", ".po", ".pot", ".toml"))]
    pattern = re.compile(r"\.\./shared|RULES\.md|seed 00[0-9]|\b00[034]_[0-9a-f]{8}", re.I)
    found = [f"{p.relative_to(ROOT)}: {m.group()}" for p in shipped_files if p.is_file()
             for m in [pattern.search(p.read_text(encoding="utf-8"))] if m]
    assert not found, found


def test_the_rules_documents_cite_the_seeds_by_their_titles() -> None:
    for doc in ("rules.en.md", "rules.ru.md"):
        text = (ROOT / "docs" / doc).read_text(encoding="utf-8")
        for title in ("«Тариф платежей Бостон»", "«Бостон правила карточной игры»",
                      "«Самоучитель карточной игры. БОСТОН»", "Boston fontainebleau", "Boston Tambov"):
            assert title in text, (doc, title)
        # every number of the tables is there
        for number in ("112", "184", "120", "200", "136", "232", "144", "392", "128", "2 × (N − 5)"):
            assert number in text, (doc, number)


def test_tariffs_show_of_each_tariff_shows_the_new_tables(cli, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")

    def rows(*args: str) -> dict[str, list[str]]:
        out = {}
        for line in cli("tariffs", "show", *args).stdout.splitlines():
            cells = [c.strip() for c in line.split("│")[1:-1]]
            if cells:
                out[cells[0]] = cells[1:]
        return out

    classic = rows("classic", "--condition", "philadelphia", "--condition", "sovereign", "--condition",
                   "grand-sovereign")
    assert classic["nine (junior)"][2:] == ["+112", "+52", "+48", "+44", "+40", "-44", "-48", "-52", "-56", "-60",
                                            "-64", "-68", "-72", "-184"]
    assert classic["philadelphia (junior)"][2] == "+120" and classic["philadelphia (junior)"][-1] == "-200"
    assert classic["sovereign (junior)"][2:4] == ["+136", "+64"] and classic["sovereign (junior)"][-1] == "-232"
    assert classic["grand-sovereign (junior)"][2:4] == ["+144", "-148"]
    assert classic["grand-sovereign (junior)"][-1] == "-392"
    assert classic["grand-misere-ouvert"] == ["128", "128 per trick taken", "labet"]
    tambov = rows("tambov")
    assert tambov["six (junior), alone"][2:] == ["+38", "+18", "+16", "+14", "+12", "+10", "+8", "+6", "-6", "-8",
                                                 "-10", "-12", "-14", "-26"]
    assert tambov["eight (junior), alone"][7] == "+14"  # made with 8: alone(8) + 6
    assert tambov["eight (junior), with a partner"][2:4] == ["+30", "-10"]
    assert tambov["six (junior), with a partner"][-1] == "-58"
    text = cli("tariffs", "show", "tambov").stdout
    assert "premium on every payment" in " ".join(text.split())
    font = " ".join(cli("tariffs", "show", "fontainebleau").stdout.split())
    assert "when the slam's declaring side holds it" in font
    assert "stake 4 chips from each player at every deal" in " ".join(
        cli("tariffs", "show", "classic", "--condition", "simple").stdout.split())


def test_a_stored_text_with_conditions_applied_reads_its_conditions_by_name() -> None:
    t = with_conditions(load("classic"), ["бостон с прикупкой"])
    assert t.applied == ("with-purchase",) and t.contracts["junior"].with_partner is None


@pytest.mark.parametrize("value, words", [
    ("'[4,3,2,4]'", "deal 1: stored balances after the deal"),  # other tricks: other payments
    ("'\"x\"'", "deal 1: the deal no longer scores"),  # not a list of tricks
    ("'[3,4,2]'", "deal 1: the deal no longer scores"),  # a player's tricks missing
])
def test_check_reports_tricks_each_tampered_with(cli, isolated: Path, value: str, words: str) -> None:
    cli("new", *PLAYERS, "--condition", "misere-partout")
    cli("deal", "pass", "--tricks-each", "3,4,2,4")
    cli("deal", "junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "5", "--partner-tricks", "3")
    assert cli("check").stdout == ""
    conn = sqlite3.connect(isolated)
    kept = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'deals_no_update'").fetchone()[0]
    conn.execute("DROP TRIGGER deals_no_update")  # made again below: a ledger without it is not opened
    conn.execute(f"UPDATE deals SET tricks_each = {value} WHERE number = 1")
    conn.execute(kept)
    conn.commit()
    conn.close()
    out = cli("check", code=1).stdout
    assert words in out, out
    conn = open_db(isolated)
    assert checks.check_session(conn, 1) != []  # the quick reading doubts, the full one words it
    conn.close()
