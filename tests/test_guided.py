"""Guided entry: at a terminal `deal` asks for what is missing or wrong, one question at a time,
never throwing an answer away; it shows the deal before it is recorded, offers to change any
answer, and `<` goes back. Without a terminal nothing is ever asked."""

from __future__ import annotations

from pathlib import Path

import pytest

from boston_ledger.app import entry
from boston_ledger.app.deals import current, typed_deal
from boston_ledger.store.db import open_db
from conftest import PLAYERS, guided


def session_of(db: Path):
    return current(open_db(db))


def test_a_whole_deal_asked_for(table) -> None:
    answers = "junior\n2\n4\n9\n3\n\n"  # contract, Boris, Gleb, 9 together, boston Vera, Enter = yes
    result = guided(["deal"], answers)
    assert result.exit_code == 0, result.output
    for question in ("Contract (junior, senior", "1) Anna  2) Boris  3) Vera  4) Gleb", "Declarer",
                     "1) Anna  3) Vera  4) Gleb", "Partner (Enter for no partner)",
                     "Tricks taken by Boris and Gleb together", "Who held the boston", "Record this deal? [Y/n]",
                     "Deal 1 recorded.", "Next: deal 2, dealt by Boris."):
        assert question in result.output, question
    assert "how many did Boris take" not in result.output  # made: the split is not asked
    assert result.output.index("balance") < result.output.index("Record this deal?")  # shown first
    # a made pair's total is kept as said, no split invented: the worked example's deal
    assert table.json("status")["balances"] == {"Anna": -20, "Boris": 16, "Vera": -12, "Gleb": 16}
    assert table.json("history")[0]["description"] == "junior Boris + Gleb: 9, boston Vera"


def test_only_the_wrong_answer_is_asked_again(table) -> None:
    """7 + 7 tricks: the partner's tricks are asked again, not the whole dialogue."""
    result = guided(["deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "7"], "7\n4\n\n\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("declarer and partner took 7 + 7 tricks, more than the 13 of a deal") == 1
    assert result.output.count("Tricks taken by Gleb") == 2 and "Declarer" not in result.output
    assert table.json("history")[0]["description"] == "junior Boris 7 + Gleb 4"


def test_wrong_answers_are_asked_again_with_the_reason(table) -> None:
    answers = "grand-slam\nsolo\nZed\n1\nsenior\n99\n9\n\nn\ncancel\n"
    result = guided(["deal"], answers)
    assert result.exit_code == 0, result.output
    assert "the classic tariff has no contract 'grand-slam'" in result.output
    assert "choose 1, 2, 3 or 4, or a name (Anna, Boris, Vera, Gleb)" in result.output
    assert "a whole number from 0 to 13" in result.output and "Nothing recorded." in result.output
    assert table.json("status")["deals"] == 0


def test_back_goes_back_one_question_and_keeps_the_answer_as_the_default(table) -> None:
    # junior, Boris, then back: the declarer again (Boris is the default), Vera; alone, 5
    result = guided(["deal"], "junior\n2\n<\n3\n\n5\n\n\n")
    assert result.exit_code == 0, result.output
    assert "Declarer [Boris]:" in result.output
    assert table.json("history")[0]["description"] == "junior Vera 5 alone"
    result = guided(["deal"], "<\npass\n\n")
    assert "this is the first question" in result.output and result.exit_code == 0


def test_at_the_confirmation_one_answer_is_changed(table) -> None:
    # the deal as said: Boris and Gleb 9, boston Vera; then "n": the answers numbered; 5 (boston): Anna
    result = guided(["deal"], "junior\n2\n4\n9\n3\nn\n5\n1\n\n")
    assert result.exit_code == 0, result.output
    for line in ("1) Contract: junior", "2) Declarer: Boris", "3) Partner: Gleb",
                 "4) Tricks of Boris and Gleb together: 9", "5) Boston: Vera", "Change which answer? 1 to 5",
                 "Who held the boston [Vera]"):
        assert line in result.output, line
    assert result.output.count("Contract (") == 1  # nothing else is asked again
    assert table.json("history")[0]["description"] == "junior Boris + Gleb: 9, boston Anna"


def test_a_number_at_the_confirmation_changes_that_answer_and_its_split(table) -> None:
    # 6 together (failed), Boris 3; then 4: the total again (6 is the default): 9, made
    result = guided(["deal"], "junior\n2\n4\n6\n3\n\n4\n9\n\n")
    assert result.exit_code == 0, result.output
    assert "Tricks taken by Boris and Gleb together [6]" in result.output
    assert table.json("history")[0]["description"] == "junior Boris + Gleb: 9"


def test_only_cancel_records_nothing(table) -> None:
    # no: the one answer (pass) asked again at once (no "1 to 1"); cancel there records nothing
    result = guided(["deal"], "pass\nn\ncancel\n")
    assert result.exit_code == 0 and "Nothing recorded." in result.output, result.output
    assert "1 to 1" not in result.output and result.output.count("Contract (") == 2
    assert table.json("status")["deals"] == 0
    # no, then Enter at "change which": back to the question, and the deal is still there to record
    result = guided(["deal"], "solo\n1\n\n9\n\nn\n\n\n")
    assert result.exit_code == 0, result.output
    assert "Enter goes back, cancel records nothing" in result.output
    assert result.output.count("Record this deal? [Y/n]") == 2 and "Deal 1 recorded." in result.output
    # the typed deal survives a wrong word at the confirmation too; "отмена" records nothing as well
    result = guided(["deal"], "pass\nperhaps\nотмена\n")
    assert "Nothing recorded." in result.output and table.json("status")["deals"] == 1


def test_did_you_mean_takes_yes_or_enter(table) -> None:
    result = guided(["deal"], "junoir\n\n2\n\n5\n\n\n")  # Enter: junior, as proposed
    assert "did you mean junior?" in result.output and "(junior, senior" in result.output
    assert "[junior]:" in result.output and table.json("history")[0]["contract"] == "junior"
    result = guided(["deal"], "juniro\ny\n1\n\n5\n\n\n")  # y: junior
    assert table.json("history")[1]["contract"] == "junior", result.output
    result = guided(["--lang", "ru", "deal"], "младщая\nда\n1\n\n5\n\n\n")  # да
    assert table.json("history")[2]["contract"] == "junior", result.output
    result = guided(["deal"], "sloo\nno\nsolo\n1\n\n9\n\n\n")  # no: asked afresh
    assert table.json("history")[3]["contract"] == "solo", result.output


def test_what_the_command_line_misses_is_asked(table) -> None:
    """`deal junior --declarer Bob --partner Dave --tricks 5` asks the partner's tricks."""
    result = guided(["deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5"], "4\n3\n\n")
    assert result.exit_code == 0, result.output
    assert "Tricks taken by Gleb:" in result.output and "Declarer" not in result.output
    assert table.json("status")["balances"] == {"Anna": -20, "Boris": 16, "Vera": -12, "Gleb": 16}
    result = guided(["deal", "solo", "--declarer", "Anna"], "\n9\n\n\n")
    assert result.exit_code == 0 and "Rank (junior, senior) [junior]" in result.output, result.output
    assert table.json("status")["deals"] == 2


def test_a_wrong_option_is_asked_again_at_a_terminal(table) -> None:
    result = guided(["deal", "junior", "--declarer", "Zed", "--tricks", "5"], "anna\n\n\n")
    assert result.exit_code == 0, result.output
    assert "choose 1, 2, 3 or 4, or a name (Anna, Boris, Vera, Gleb)" in result.output
    assert "Partner" not in result.output  # his tricks and no partner: he played alone
    assert table.json("history")[0]["description"] == "junior Anna 5 alone"


def test_a_complete_command_line_is_recorded_at_once(table) -> None:
    result = guided(["deal", "junior", "--declarer", "Boris", "--tricks", "5"], "")
    assert result.exit_code == 0 and "Record this deal?" not in result.output, result.output
    assert "No boston named; if somebody held it: `boston-ledger edit 1 --boston NAME`" in result.output


def test_the_end_of_the_answers_records_nothing(table) -> None:
    result = guided(["deal"], "junior\n2\n")
    assert result.exit_code == 2, result.output
    assert "the answers ended before the dialogue did; nothing was recorded" in result.output
    assert table.json("status")["deals"] == 0


def test_without_a_terminal_nothing_is_asked(cli) -> None:
    """Input that is no terminal (the runner's, as a pipe's): the program's main() asks nothing."""
    cli("new", *PLAYERS)
    for args in (["deal"], ["deal", "junior"], ["deal", "junior", "--declarer", "Anna"],
                 ["deal", "junior", "--declarer", "Anna", "--partner", "Gleb", "--team-tricks", "6"],
                 ["edit", "1", "--tricks", "5"]):
        done = cli.main(*args, code=2, input="", env={"BOSTON_LEDGER_GUIDED": None})
        assert done.stderr.count("\n") == 1 and "?" not in done.stdout, args


def test_a_whole_deal_asked_for_in_russian(cli) -> None:
    cli("new", "Анна", "Борис", "Вера", "Глеб")
    answers = "прикуп\n2\n4\n9\n3\nнет\nотмена\n"  # then "нет" and «отмена»: nothing is recorded
    result = guided(["--lang", "ru", "deal"], answers)
    assert result.exit_code == 0, result.output
    for question in ("Игра (младшая, старшая, соло", "1) Анна  2) Борис  3) Вера  4) Глеб", "Играющий",
                     "Партнёр (Enter\u00a0— без партнёра)", "Борис и Глеб, сколько взяток вместе?", "У кого был бостон",
                     "Записать эту сдачу? [Д/н]", "консоляция", "Какой ответ изменить?", "Ничего не записано."):
        assert question in result.output, question
    assert cli.json("status")["deals"] == 0
    result = guided(["--lang", "ru", "deal"], "пасс\nпас\nможет\nд\n")
    assert "нет игры «пасс»; может быть, пас?" in result.output, result.output
    assert "ответьте д или н" in result.output and "Сдача 1 записана." in result.output
    assert "Следующая: сдача 2, сдаёт Борис." in result.output
    assert cli.json("status")["basket"] == 80


def test_the_declarer_typed_loosely_is_still_not_his_own_partner(table) -> None:
    result = guided(["deal", "junior", "--declarer", " anna "], "Anna\n2\n9\n\n\n")
    assert "the partner cannot be the declarer; choose another player" in result.output
    assert "Tricks taken by Anna and Boris together:" in result.output and result.exit_code == 0, result.output


# ---- the question flow itself: pure, the same for the terminal and the phone --------------------


def test_the_flow_asks_the_same_for_the_same_answers(table, isolated) -> None:
    session = session_of(isolated)
    answers = {"contract": "jun", "declarer": "bor", "partner": "gleb"}
    first, again = entry.step(session, answers), entry.step(session, dict(answers))
    assert first == again and isinstance(first, entry.Question) and first.field == "team_tricks"
    assert [c.answer for c in first.choices] == [str(n) for n in range(14)]
    done = entry.step(session, {**answers, "team_tricks": "9", "boston": "v"})
    assert isinstance(done, entry.Ready)
    assert done.deal == typed_deal(session, "junior", declarer="Boris", partner="Gleb", team_tricks="9",
                                   boston="Vera")


def test_the_flow_s_engine_errors_name_the_field(table, isolated) -> None:
    session = session_of(isolated)
    found = entry.step(session, {"contract": "junior", "declarer": "Boris", "partner": "Gleb", "tricks": "7",
                                 "partner_tricks": "7", "boston": ""})
    assert isinstance(found, entry.Question) and found.field == "partner_tricks"
    assert found.error == "declarer and partner took 7 + 7 tricks, more than the 13 of a deal"
    assert entry.back(session, {"contract": "pass"}, "contract") is None
    assert entry.back(session, {"contract": "solo", "declarer": "Anna"}, "rank") == (
        {"contract": "solo"}, {"declarer": "Anna"})


def test_answers_of_a_recorded_deal_give_it_back(table, isolated) -> None:
    session = session_of(isolated)
    for deal in (typed_deal(session, "junior", declarer="Boris", partner="Gleb", tricks="5", partner_tricks="4",
                            boston="Vera"),
                 typed_deal(session, "solo", declarer="Anna", tricks="9", rank="senior"),
                 typed_deal(session, "misere", declarer="Vera", tricks="1"), typed_deal(session, "pass")):
        assert entry.complete(session, entry.answers_of(session, deal)) == deal


@pytest.mark.parametrize("word, seat", [("bor", 1), ("BOR", 1), ("an", 0), ("gl", 3), ("3", 2)])
def test_a_player_by_a_beginning_or_a_number(table, isolated, word, seat) -> None:
    session = session_of(isolated)
    found = entry.step(session, {"contract": "junior", "declarer": word})
    assert isinstance(found, entry.Question) and found.field == "partner" and not found.error
    assert entry.step(session, {"contract": "junior", "declarer": word, "partner": "", "tricks": "5",
                                "boston": ""}).deal.declarer == seat


def test_a_typed_name_s_typo_or_ambiguity_is_said_as_the_command_line_says_it(cli) -> None:
    cli("new", "Anna", "Andrei", "Vera", "Gleb")
    result = guided(["deal"], "junior\nAnrdei\nan\nand\n\n5\n\n\n")
    assert result.exit_code == 0, result.output
    assert "no player 'Anrdei' in this session; did you mean Andrei?" in result.output
    assert "'an' could be Anna or Andrei; type more of it" in result.output
    assert cli.json("history")[0]["description"] == "junior Andrei 5 alone"
