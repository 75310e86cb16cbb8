"""Entering a deal from the command line: forgiving names and words, a pair's total, partial
edits, and what the program says after a deal."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_ledger.cli.declarations import app
from conftest import GUIDED, PLAYERS, described


# ---- forgiving names and words -----------------------------------------------------------------


@pytest.mark.parametrize("word", ["bor", "BOR", "Bo", "boris", " Boris "])
def test_a_player_by_any_unique_beginning_in_any_case(table, word) -> None:
    table("deal", "junior", "--declarer", word, "--tricks", "5")
    assert described(table) == "junior Boris 5 alone"


def test_russian_names_by_a_beginning_and_yo_as_ye(cli) -> None:
    cli("new", "Алёна", "Борис", "Вера", "Глеб")
    cli("deal", "младш", "--declarer", "Бор", "--partner", "алена", "--team-tricks", "8", "--boston", "ве")
    assert described(cli) == "junior Борис + Алёна: 8, boston Вера"


def test_an_ambiguous_beginning_names_the_candidates(cli) -> None:
    cli("new", "Anna", "Andrei", "Vera", "Gleb")
    err = cli("deal", "junior", "--declarer", "an", "--tricks", "5", code=2).stderr
    assert err == "boston-ledger: error: --declarer: 'an' could be Anna or Andrei; type more of it\n"
    cli("deal", "junior", "--declarer", "ann", "--tricks", "5")
    assert described(cli) == "junior Anna 5 alone"


def test_a_name_exactly_is_never_taken_for_a_beginning(cli) -> None:
    cli("new", "Ann", "Anna", "Vera", "Gleb")
    cli("deal", "junior", "--declarer", "ann", "--tricks", "5")
    assert described(cli) == "junior Ann 5 alone"


def test_a_typo_gets_did_you_mean(table) -> None:
    err = table("deal", "junoir", "--declarer", "Boris", "--tricks", "5", code=2).stderr
    assert err == "boston-ledger: error: the classic tariff has no contract 'junoir'; did you mean junior?\n"
    err = table("deal", "junior", "--declarer", "Bors", "--tricks", "5", code=2).stderr
    assert err == "boston-ledger: error: --declarer: no player 'Bors' in this session; did you mean Boris?\n"
    err = table("deal", "s", "--declarer", "Boris", "--tricks", "5", code=2).stderr
    assert err == "boston-ledger: error: 's' could be senior or solo; type more of it\n"
    err = table("deal", "solo", "--declarer", "Boris", "--tricks", "9", "--rank", "seinor", code=2).stderr
    assert "did you mean senior?" in err
    err = table("deal", "junior", "--declarer", "Zed", "--tricks", "5", code=2).stderr
    assert err.endswith("no player 'Zed' in this session; the players are Anna, Boris, Vera, Gleb\n")


def test_russian_typos_and_beginnings(table) -> None:
    err = table("--lang", "ru", "deal", "пасс", code=2).stderr
    assert "нет игры «пасс»; может быть, пас?" in err, err
    table("deal", "па")  # the only contract beginning so: pass
    table("deal", "сол", "--declarer", "Anna", "--tricks", "8", "--rank", "ст")
    assert described(table, 2) == "solo senior Anna 8"


def test_conditions_by_a_beginning_and_a_typo(cli) -> None:
    out = cli("new", *PLAYERS, "--condition", "phil", "--condition", "remis").stdout
    assert "Conditions: philadelphia, remise." in out
    err = cli("new", *PLAYERS, "--condition", "filadelfia", code=2).stderr
    assert err == "boston-ledger: error: the tariff has no condition 'filadelfia'; did you mean philadelphia?\n"
    err = cli("new", *PLAYERS, "--condition", "s", code=2).stderr
    assert err == "boston-ledger: error: 's' could be simple, solo or sovereign; type more of it\n"


# ---- a pair's total ----------------------------------------------------------------------------


def test_a_pair_s_total_is_checked_against_its_parts(table) -> None:
    err = table("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--team-tricks", "9", "--tricks", "5",
                "--partner-tricks", "3", code=2).stderr
    assert "--team-tricks: the declarer's 5 and the partner's 3 tricks are not the pair's 9 tricks together" in err
    err = table("deal", "junior", "--declarer", "Boris", "--team-tricks", "9", code=2).stderr
    assert "the tricks of a pair together need a partner (--partner NAME)" in err
    err = table("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--team-tricks", "6", "--tricks", "7",
                code=2).stderr
    assert "--tricks: the declarer cannot have taken 7 of the pair's 6 tricks" in err
    assert table.json("status")["deals"] == 0


def test_a_failed_pair_at_a_terminal_is_asked_only_the_split(table) -> None:
    result = CliRunner().invoke(app, ["deal", "junior", "--declarer", "Boris", "--partner", "Gleb",
                                      "--team-tricks", "6"], input="4\n\n\n", env=GUIDED)
    assert result.exit_code == 0, result.output
    assert "Of the 6 tricks, how many did Boris take?" in result.output and "Declarer" not in result.output
    assert described(table) == "junior Boris 4 + Gleb 2"
    # each short of his share (5 and 3 of junior's 8): both pay consolation, undertricks and labet
    assert table.json("status")["balances"] == {"Anna": 2, "Boris": -42, "Vera": 2, "Gleb": -42}


def test_both_entry_paths_take_the_pair_s_total(cli, tmp_path: Path) -> None:
    """The program's quick parser (its main()) and typer's command line give the same deal."""
    base = {"COLUMNS": "100", "NO_COLOR": "1", "TERM": "dumb"}
    args = ["deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--team-tricks", "9"]
    outs = []
    for path in (tmp_path / "quick.db", tmp_path / "typer.db"):
        env = {**base, "BOSTON_LEDGER_DB": str(path)}
        cli("new", *PLAYERS, "--db", str(path))
        done = cli.main(*args, env=env) if path.name == "quick.db" else CliRunner().invoke(app, args, env=env)
        outs.append((done.exit_code, done.stdout))
    assert outs[0] == outs[1] and outs[0][0] == 0 and "junior Boris + Gleb: 9" in outs[0][1]


# ---- partial edits -----------------------------------------------------------------------------


def test_an_edit_changes_only_what_is_given(table) -> None:
    table("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4",
          "--boston", "Vera")
    table("deal", "pass")
    out = table("edit", "1", "--tricks", "6", "--reason", "Boris took 6").stdout
    assert "junior Boris 5 + Gleb 4, boston Vera → junior Boris 6 + Gleb 4, boston Vera" in out
    table("edit", "1", "--boston", "anna", "--reason", "Anna held it")
    assert described(table) == "junior Boris 6 + Gleb 4, boston Anna"
    table("edit", "1", "--boston", "none", "--reason", "nobody held it")
    assert described(table) == "junior Boris 6 + Gleb 4"
    table("edit", "1", "--partner", "none", "--tricks", "7", "--reason", "he played alone")
    assert described(table) == "junior Boris 7 alone"
    table("edit", "1", "senior", "--reason", "it was the senior suit")
    assert described(table) == "senior Boris 7 alone"
    table("edit", "1", "--partner", "vera", "--team-tricks", "10", "--reason", "Vera supported him")
    assert described(table) == "senior Boris + Vera: 10"
    err = table("edit", "1", "--partner", "vera", "--team-tricks", "10", "--reason", "again", code=2).stderr
    assert "deal 1 was entered just so; there is nothing to correct" in err
    assert len(table.json("history", "--corrections")) == 6


def test_an_edit_s_wrong_option_is_said_as_the_command_line_says_it(table) -> None:
    table("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4")
    for args, said in ((("--tricks", "99"), "--tricks: 99 is not a whole number from 0 to 13"),
                       (("--boston", "Zed"), "--boston: no player 'Zed' in this session; the players are"),
                       (("--partner", "Boris"), "the partner cannot be the declarer"),
                       (("--rank", "x"), "the deal (junior) does not ask for it; drop --rank"),
                       (("--partner-tricks", "9"), "declarer and partner took 5 + 9 tricks")):
        err = table("edit", "1", *args, "--reason", "r", code=2).stderr
        assert said in err and err.count("\n") == 1, (args, err)
    assert table.json("history", "--corrections") == []


def test_an_edit_to_a_contract_that_needs_more_says_what(table) -> None:
    table("deal", "junior", "--declarer", "Boris", "--tricks", "5")
    err = table("edit", "1", "--partner", "Gleb", "--reason", "r", code=2).stderr
    assert err == ("boston-ledger: error: a deal with a partner needs the partner's own tricks, or the pair's "
                   "together (--partner-tricks N)\n")  # Boris's own 5 stay
    table("edit", "1", "solo", "--tricks", "8", "--reason", "it was a solo")  # the rank's default
    assert described(table) == "solo junior Boris 8"
    err = table("edit", "1", "--partner", "Gleb", "--reason", "r", code=2).stderr
    assert err == "boston-ledger: error: solo is played alone; drop --partner\n"  # the engine's reason
    table("edit", "1", "pass", "--reason", "they all passed")  # what a pass does not take is left out
    assert described(table) == "all pass"
    err = table("edit", "1", "--tricks", "5", "--reason", "r", code=2).stderr
    assert err == "boston-ledger: error: an all-pass is not played; drop --tricks\n"


def test_edit_alone_at_a_terminal_is_guided_from_the_deal_s_answers(table) -> None:
    table("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4")
    # the answers numbered at once; 6 (boston): Vera; record; the reason
    result = CliRunner().invoke(app, ["edit", "1"], input="6\n3\n\nVera forgot her boston\n", env=GUIDED)
    assert result.exit_code == 0, result.output
    for line in ("1) Contract: junior", "4) Tricks of Boris: 5", "5) Tricks of Gleb: 4", "6) Boston: none",
                 "Enter leaves the deal as it is", "Deal 1: junior Boris 5 + Gleb 4 → junior Boris 5 + Gleb 4, "
                 "boston Vera", "Why is deal 1 corrected?", "Deal 1 corrected"):
        assert line in result.output, line
    audit = table.json("history", "--corrections")
    assert audit[0]["reason"] == "Vera forgot her boston" and audit[0]["now"] == "junior Boris 5 + Gleb 4, boston Vera"
    result = CliRunner().invoke(app, ["edit", "1"], input="\n", env=GUIDED)
    assert result.exit_code == 0 and "Nothing corrected." in result.output, result.output


def test_a_partial_edit_at_a_terminal_is_shown_then_asks_only_the_reason(table) -> None:
    table("deal", "junior", "--declarer", "Boris", "--tricks", "5")
    result = CliRunner().invoke(app, ["edit", "1", "--tricks", "6"], input="\n\nBoris took 6\n", env=GUIDED)
    assert result.exit_code == 0, result.output
    assert "Deal 1: junior Boris 5 alone → junior Boris 6 alone" in result.output  # shown first
    assert result.output.index("change") < result.output.index("Record this correction? [Y/n]")
    assert "Why is deal 1 corrected?" in result.output and "Record this deal?" not in result.output
    assert "a correction needs --reason TEXT" in result.output  # the empty answer, asked again
    assert described(table) == "junior Boris 6 alone"


# ---- what just happened, what comes next -------------------------------------------------------


def test_each_deal_says_who_deals_next_and_the_last_says_settle(cli) -> None:
    cli("new", *PLAYERS, "--deals", "2")
    assert "Next: deal 2, dealt by Boris." in cli("deal", "pass").stdout
    out = cli("deal", "pass").stdout
    assert "That was the last of the 2 agreed deals: `boston-ledger settle`." in out and "Next:" not in out
    assert "Следующая: сдача" not in out


def test_a_failed_misere_s_boston_line_says_why(table) -> None:
    out = table("deal", "misere", "--declarer", "Vera", "--tricks", "1").stdout
    assert "boston: paid by the declarer, who failed" in out
    out = table("deal", "misere", "--declarer", "Vera", "--tricks", "0").stdout
    assert "boston" not in out.replace("`boston-ledger", "")  # made: no boston is paid


def test_the_boston_reminder_says_how_to_add_it(table) -> None:
    out = table("deal", "solo", "--declarer", "Anna", "--tricks", "9").stdout
    assert "No boston named; if somebody held it: `boston-ledger edit 1 --boston NAME`" in out
    table("edit", "1", "--boston", "Vera", "--reason", "Vera held it")
    assert described(table) == "solo junior Anna 9, boston Vera"


# ---- completion --------------------------------------------------------------------------------


def complete(cli, words: str) -> list[str]:
    """What the program's completion offers for a bash command line."""
    env = {"_BOSTON_LEDGER_COMPLETE": "complete_bash", "COMP_WORDS": words,
           "COMP_CWORD": str(len(words.split()) - (0 if words.endswith(" ") else 1))}
    return cli.main(env=env).stdout.split()


def test_completion_offers_russian_contracts_players_and_sessions(cli) -> None:
    cli("new", *PLAYERS)
    cli("new", "Анна", "Борис", "Вера", "Глеб")
    assert complete(cli, "boston-ledger deal мл") == ["младшая"]
    assert complete(cli, "boston-ledger deal па") == ["пас", "пасуют"]
    assert complete(cli, "boston-ledger deal junior --declarer бо") == ["борис"]  # found in any case
    assert complete(cli, "boston-ledger use ") == ["1", "2"]
    assert complete(cli, "boston-ledger status --session ") == ["1", "2"]
    assert complete(cli, "boston-ledger deal --session 1 junior --declarer B") == ["Boris"]  # that session's players
