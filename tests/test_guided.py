"""Guided entry: at a terminal `deal` asks for what is missing and shows the deal before it is
recorded; without one it never asks."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from typer.testing import CliRunner

from boston_ledger.cli.declarations import app
from conftest import PLAYERS

GUIDED = {"BOSTON_LEDGER_GUIDED": "1"}


def test_a_whole_deal_asked_for(table) -> None:
    answers = "junior\n2\n4\n5\n4\n3\n\n"  # contract, Boris, Gleb, 5, 4, boston Vera, Enter = yes
    result = CliRunner().invoke(app, ["deal"], input=answers, env=GUIDED)
    assert result.exit_code == 0, result.output
    for question in ("Contract (junior, senior", "1) Anna  2) Boris  3) Vera  4) Gleb", "Declarer",
                     "Partner (Enter for nobody)", "Tricks taken by Boris", "Tricks taken by Gleb",
                     "Who held the boston", "Record this deal?"):
        assert question in result.output
    assert result.output.index("balance") < result.output.index("Record this deal?")  # shown first
    assert table.json("status")["balances"] == {"Anna": -20, "Boris": 16, "Vera": -12, "Gleb": 16}


def test_wrong_answers_are_asked_again_and_no_means_nothing(table) -> None:
    answers = "grand-slam\nsolo\nZed\n1\nsenior\n99\n9\n\nn\n"
    result = CliRunner().invoke(app, ["deal"], input=answers, env=GUIDED)
    assert result.exit_code == 0, result.output
    assert "the classic tariff has:" in result.output and "choose 1 to 4" in result.output
    assert "a whole number from 0 to 13" in result.output and "Nothing recorded." in result.output
    assert table.json("status")["deals"] == 0
    result = CliRunner().invoke(app, ["deal", "solo", "--declarer", "Anna"], input="\n9\n\n\n", env=GUIDED)
    assert result.exit_code == 0 and "Rank" in result.output  # only what is missing is asked
    assert table.json("status")["balances"]["Anna"] == 60 + 30


def test_without_a_terminal_nothing_is_asked(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "BOSTON_LEDGER_GUIDED"}
    env["BOSTON_LEDGER_DB"] = str(tmp_path / "x.db")
    subprocess.run(["boston-ledger", "new", *PLAYERS], env=env, check=True, capture_output=True)
    for args in (["deal"], ["deal", "junior"], ["deal", "junior", "--declarer", "Anna"]):
        done = subprocess.run(["boston-ledger", *args], env=env, input="", capture_output=True, text=True,
                              timeout=30)
        assert done.returncode == 2 and done.stderr.count("\n") == 1 and "?" not in done.stdout, args


def test_a_whole_deal_asked_for_in_russian(cli) -> None:
    cli("new", "Анна", "Борис", "Вера", "Глеб")
    answers = "прикуп\n2\n4\n5\n4\n3\nнет\n"  # then "нет": nothing is recorded
    result = CliRunner().invoke(app, ["--lang", "ru", "deal"], input=answers, env=GUIDED)
    assert result.exit_code == 0, result.output
    for question in ("Контракт (младшая, старшая, соло", "1) Анна  2) Борис  3) Вера  4) Глеб", "Играющий",
                     "Партнёр (Enter — нет)", "Борис: сколько взяток?", "Глеб: сколько взяток?",
                     "У кого был бостон", "Записать эту сдачу? [Д/н]", "консоляция", "Ничего не записано."):
        assert question in result.output, question
    assert cli.json("status")["deals"] == 0
    result = CliRunner().invoke(app, ["--lang", "ru", "deal"], input="пас\nможет\nд\n", env=GUIDED)
    assert "ответьте д или н" in result.output and "Сдача 1 записана." in result.output
    assert cli.json("status")["basket"] == 80


def test_the_declarer_typed_loosely_is_still_not_his_own_partner(table) -> None:
    result = CliRunner().invoke(app, ["deal", "junior", "--declarer", " anna "], input="Anna\n2\n5\n4\n\n\n",
                                env=GUIDED)
    assert "Anna is the declarer; choose the partner among the others" in result.output
    assert "Tricks taken by Anna:" in result.output and result.exit_code == 0, result.output
