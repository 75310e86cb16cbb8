"""Issue 32, a Russian player's second reading: the Russian lines agree with what they are about.

Every verdict agrees with the gender of the contract's shown name, which the tariff file keeps
beside its Russian names («мизер сыгран», «соло сыграно», «младшая сыграна»); a contract whose
gender a tariff does not give is said of the game («игра сыграна»). The words here are written out
as a Russian speaker says them, not computed. Names stay in the nominative (a player's sex is not
recorded, and a library that declines names needs it: docs/development.md); the tricks follow a
name with their word, never as a bare number. Dates are 05.12.2026, negatives take the true
minus, and after `settle` the sheet and `status` say where the basket went.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest

from boston_ledger.core import i18n
from boston_ledger.core.tariff_files import load, shipped

ROOT = Path(__file__).resolve().parent.parent
RU = ("--lang", "ru")
MEN, WOMEN = ("Пётр", "Никита"), ("Ольга", "Любовь")  # Никита: a man's name ending in -а
PLAYERS = ("Пётр", "Ольга", "Никита", "Любовь")
# The grammatical gender of each Russian contract name the shipped tariffs show, as a Russian
# speaker knows it; a numeral names its contract as a neuter subject does («девять сыграно»).
GENDER = {"младшая": "feminine", "старшая": "feminine", "соло": "neuter", "девять": "neuter", "мизер": "masculine",
          "гран-мизер": "masculine", "петит-мизер уверт": "masculine", "гран-мизер уверт": "masculine",
          "филадельфия": "feminine", "суверен": "masculine", "гран-суверен": "masculine", "шесть": "neuter",
          "восемь": "neuter", "пять": "neuter", "семь": "neuter", "тринадцать": "neuter", "малый нуль": "masculine",
          "большой нуль": "masculine", "малый в открытую": "masculine", "большой в открытую": "masculine",
          # Foster's games
          "малый мизер": "masculine", "большой мизер": "masculine", "малый открытый мизер": "masculine",
          "большой открытый мизер": "masculine", "десять": "neuter", "одиннадцать": "neuter", "двенадцать": "neuter",
          "пикколиссимо": "neuter", "шлем": "masculine", "открытый шлем": "masculine", "простая": "feminine",
          "малая независимость": "feminine", "большая независимость": "feminine", "мизер четырёх тузов": "masculine",
          "девять в петит": "neuter", "девять в бель": "neuter"}
SAID = {"masculine": ("сыгран", "не сыгран"), "feminine": ("сыграна", "не сыграна"),
        "neuter": ("сыграно", "не сыграно"), "": ("игра сыграна", "игра не сыграна")}


def every_contract(name: str):
    """A shipped tariff's contracts, with those its conditions bring (philadelphia, sovereign...)."""
    tariff = load(name)
    found = {key: (tariff, c) for key, c in tariff.contracts.items()}
    for condition in tariff.conditions:
        with_it = load(name, [condition])
        found.update({key: (with_it, c) for key, c in with_it.contracts.items() if key not in found})
    return found


@pytest.mark.parametrize("name", sorted(shipped()))
def test_every_verdict_agrees_with_its_contract(name: str) -> None:
    """Made and failed, every contract of every tariff: the form its shown name's gender needs."""
    with i18n.in_language("ru"):
        for key, (tariff, contract) in every_contract(name).items():
            shown = i18n.contract_name(tariff, key)
            assert contract.gender, (name, key)  # every shipped tariff says every gender
            assert GENDER[shown] == contract.gender, (name, key, shown)
            made, failed = SAID[contract.gender]
            assert (i18n.verdict(tariff, key, True), i18n.verdict(tariff, key, False)) == (made, failed)
    with i18n.in_language("en"):
        assert {i18n.verdict(t, key, m) for key, (t, __) in every_contract(name).items() for m in (True, False)} == \
            {"made", "failed"}


# (the name shown, as the line heads it, the words typed, then the tricks made and failed)
CONTRACTS = [("младшая", "младшая", "прикуп", 5, 4), ("старшая", "старшая", "прикуп в старшую", 5, 4),
             ("соло", "соло в младшей", "самостоятельная", 8, 7), ("девять", "девять в младшей", "девятка", 9, 8),
             ("мизер", "мизер", "мизер", 0, 1), ("гран-мизер", "гран-мизер", "большой мизер", 0, 2),
             ("петит-мизер уверт", "петит-мизер уверт", "мизер уверт", 0, 1),
             ("гран-мизер уверт", "гран-мизер уверт", "гран-мизер уверт", 0, 3)]

def tricks(n: int) -> str:
    return f"{n} " + ("взятка" if n % 10 == 1 and n % 100 != 11 else
                      "взятки" if n % 10 in (2, 3, 4) and n % 100 not in (12, 13, 14) else "взяток")


@pytest.mark.parametrize("declarer", [*MEN, *WOMEN])
def test_a_deal_s_line_agrees_for_men_and_women(cli, declarer: str) -> None:
    """Each contract of the classic tariff made and failed, by a man and by a woman: the deal's
    line as the terminal, history and the sheet show it, its verdict agreeing with the contract."""
    cli(*RU, "new", *PLAYERS, "--chip-value", "0.10", "--currency", "RUB")
    expected = []
    for shown, head, typed, made, failed in CONTRACTS:
        for taken, verdict in ((made, 0), (failed, 1)):
            out = cli(*RU, "deal", typed, "--declarer", declarer, "--tricks", str(taken)).stdout
            alone = " без партнёра" if shown in ("младшая", "старшая") else ""
            line = f"{head}: {declarer}{alone} — {tricks(taken)}; {SAID[GENDER[shown]][verdict]}"
            assert line in out, (line, out)
            expected.append(line)
    history = " ".join(cli(*RU, "history").stdout.split())
    assert all(line in history for line in expected), history
    pair = cli(*RU, "deal", "старшая", "--declarer", declarer, "--partner", "Любовь" if declarer != "Любовь"
               else "Пётр", "--tricks", "5", "--partner-tricks", "4", "--boston", "Ольга").stdout
    assert "; бостон — Ольга; сыграна" in pair and " + " in pair and "вистующ" not in pair


def test_the_conditions_contracts_agree_too(cli) -> None:
    cli(*RU, "new", *PLAYERS, "--chip-value", "0.10", "--condition", "филадельфия", "--condition", "суверен")
    out = cli(*RU, "deal", "филадельфия", "--declarer", "Ольга", "--tricks", "10").stdout
    assert "филадельфия в младшей: Ольга — 10 взяток; сыграна" in out
    out = cli(*RU, "deal", "суверен", "--declarer", "Никита", "--tricks", "11", "--rank", "старшая").stdout
    assert "суверен в старшей: Никита — 11 взяток; не сыгран" in out
    assert "«суверен»" in cli(*RU, "tariffs", "show", "classic").stdout
    assert "(игра sovereign)" not in cli(*RU, "tariffs", "show", "classic").stdout


def test_the_base_payment_is_a_consolation_only_for_a_purchase(cli) -> None:
    """«за положенные 8 взяток, которые называются консоляцией, 2 фиши»: the seed's word is the
    purchase's; a solo or a nine is paid «за игру», a misère «за мизер»."""
    cli(*RU, "new", *PLAYERS, "--chip-value", "0.10")
    rows = {typed: cli(*RU, "deal", typed, "--declarer", "Ольга", "--tricks", str(taken)).stdout
            for typed, taken in (("младшая", 6), ("соло", 9), ("девять", 9), ("мизер", 0))}
    assert "консоляция" in rows["младшая"]
    for typed, word in (("соло", "за игру"), ("девять", "за игру"), ("мизер", "за мизер")):
        assert word in rows[typed] and "консоляция" not in rows[typed], rows[typed]


def test_the_docs_words_for_contracts_are_taken(cli) -> None:
    """Every word our Russian docs and the seeds use for a contract or an action names it."""
    docs = (ROOT / "docs" / "rules.ru.md").read_text(encoding="utf-8") + \
        (ROOT / "docs" / "guide.ru.md").read_text(encoding="utf-8")
    classic = load("classic")
    for word, key in [("девятка", "nine"), ("общий пас", "pass"), ("самостоятельная", "solo"), ("мизер", "misere"),
                      ("индепанданс", "solo"), ("промах", "misdeal"), ("петит-мизер", "misere"),
                      ("гран-мизер уверт", "grand-misere-ouvert"), ("прикуп", "junior")]:
        assert word in docs.replace("ё", "е").lower(), word
        assert classic.find_contract(word).key == key, word
    for word, key in [("прикуп в старшую", "senior"), ("прикуп в младшую", "junior"), ("большой мизер", "grand-misere"),
                      ("открытый мизер", "misere-ouvert")]:  # what players say
        assert classic.find_contract(word).key == key, word
    cli(*RU, "new", *PLAYERS, "--chip-value", "0.10")
    refused = cli(*RU, "deal", "бридж", "--declarer", "Ольга", "--tricks", "6", code=2).stderr
    assert "промах сдатчика или пас" in refused and "«Классический бостон»" in refused and "classic" not in refused


def test_a_russian_table_sees_the_tariff_s_title_the_true_minus_and_its_dates(cli) -> None:
    cli(*RU, "new", *PLAYERS, "--chip-value", "0.10", "--currency", "RUB")
    cli(*RU, "deal", "соло", "--declarer", "Ольга", "--tricks", "6")
    status = cli(*RU, "status").stdout
    first = status.splitlines()[0]
    assert "Классический бостон" in first and "classic" not in first and not re.search(r"\([0-9a-f]{12}\)", first)
    assert "−" in status and not re.search(r"(?<![\w-])-\d", status)  # −96, never -96
    chart = cli(*RU, "chart").stdout  # the terminal chart too, its scale said in words
    assert "−" in chart and not re.search(r"(?<![\w-])-\d", chart) and "(шкала от −" in chart
    today = datetime.now().astimezone().strftime("%d.%m.%Y")
    sheet = cli(*RU, "sheet").stdout
    assert today in sheet and not re.search(r"\d{4}-\d\d-\d\d", sheet)
    assert "№" in cli(*RU, "history").stdout and "#" not in cli(*RU, "history").stdout
    assert not [line for line in sheet.splitlines() if line.lstrip().startswith("—")]  # no line opens with a dash
    assert today in cli(*RU, "sessions").stdout


def test_after_settling_the_sheet_and_status_say_where_the_basket_went(cli) -> None:
    """406 × 0,10 ≠ 42,60 looks wrong unless the basket's share is said where the money is."""
    cli(*RU, "new", *PLAYERS, "--chip-value", "0.10", "--currency", "RUB")
    cli(*RU, "deal", "пас")
    assert "Деньги — как при расчёте сейчас: корзина (80 фишек) делится поровну." in \
        " ".join(cli(*RU, "status").stdout.split())
    cli(*RU, "settle", "--yes")
    status = " ".join(cli(*RU, "status").stdout.split())
    assert "При расчёте 80 фишек корзины поделено поровну; в деньгах учтена доля каждого." in status
    assert "80 фишек корзины делятся поровну." in " ".join(cli(*RU, "sheet").stdout.split())
    assert "80 фишек корзины делятся поровну." in cli(*RU, "sheet", "--html", "-").stdout


def test_guided_entry_says_what_is_played_and_asks_yes_or_no_as_everywhere(cli) -> None:
    """The misère partout's first question says what the all-pass has become; a yes-or-no question
    shows its default as «Записать эту сдачу? [Д/н]» does."""
    from conftest import guided

    cli("new", *PLAYERS, "--condition", "мизер-парту", "--condition", "с ремизом")
    out = guided([*RU, "deal"], "пас\n3\n4\n2\n\nотмена\n").output
    assert "Общий пас: разыгрывается мизер-парту. Пётр, сколько взяток?" in out
    out = guided([*RU, "deal"], "соло\n1\n\n8\n\n\nотмена\n").output
    assert "Сдающий открыл козырем туза? [д/Н]" in out and "[нет]" not in out


def test_the_misere_partout_line_says_each_count_with_its_word(cli) -> None:
    """«мизер-парту: Пётр — 3 взятки, …»: a bare number after a name reads as a score."""
    cli("new", *PLAYERS, "--condition", "мизер-парту")
    line = cli(*RU, "deal", "пас", "--tricks-each", "3,4,5,1").stdout.splitlines()[1]
    assert line == "мизер-парту: Пётр — 3 взятки, Ольга — 4 взятки, Никита — 5 взяток, Любовь — 1 взятка"
    assert "misère partout: Пётр 3, Ольга 4, Никита 5, Любовь 1" in cli("history").stdout


def test_stats_since_takes_a_date_as_the_russian_screens_write_it(cli) -> None:
    """The sheet says 05.12.2026; `stats --since` takes that form as well as 2026-12-05."""
    cli(*RU, "new", *PLAYERS, "--chip-value", "0.10")
    cli(*RU, "deal", "пас")
    cli(*RU, "settle", "--yes")
    today = datetime.now().astimezone()
    assert "Пётр" in cli(*RU, "stats", "--since", today.strftime("%d.%m.%Y")).stdout
    assert cli.json("stats", "--since", "01.01.2999")["players"] == {}
    assert "31.01.2026" in cli(*RU, "stats", "--since", "31.02.2026", code=2).stderr
