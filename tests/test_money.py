"""Money between evenings as a user reads it: every refusal and every doubt of `paid` word for word,
in English and in Russian, with the names, amounts and currencies in it; who a typed name is; a
payment between people one currency's books have never met, and what `ledger` shows then."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from conftest import PLAYERS
from test_cli import WORKED
from test_hostile_text import tamper

ERROR = {"en": "boston-ledger: error: ", "ru": "boston-ledger: ошибка: "}
NOT_RECORDED = {"en": "; nothing was recorded: give --yes to record it all the same",
                "ru": "; ничего не записано: чтобы записать всё равно, добавьте --yes"}


def refused(cli, *args: str, lang: str = "en") -> str:
    """A command refused as a user reads it: one line on stderr (its prefix checked, not returned),
    nothing on stdout."""
    result = cli("--lang", lang, *args, code=2)
    assert result.stdout == "" and result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(ERROR[lang]), result.stderr
    return result.stderr[len(ERROR[lang]):-1]


def doubted(cli, *args: str, lang: str = "en") -> str:
    """A payment doubted in a script: the doubt, said before the line's end that asks for --yes."""
    line = refused(cli, "paid", *args, lang=lang)
    assert line.endswith(NOT_RECORDED[lang]), line
    return line[:-len(NOT_RECORDED[lang])]


def recorded(cli, *args: str) -> str:
    return cli("paid", *args).stdout.rstrip("\n")


def ledger(cli) -> list[str]:
    return cli("ledger").stdout.splitlines()


def shown_at(stamp: str, date: str = "%Y-%m-%d") -> str:
    """A stored moment as the payments and doubts show it: local time, to the minute (its date
    as the language writes it: `date`, in Russian %d.%m.%Y)."""
    return datetime.fromisoformat(stamp).astimezone().strftime(f"{date} %H:%M")


@pytest.fixture
def evening(table, isolated: Path, made):
    """The worked example settled (no currency, a chip 0.10): Vera owes 4.00, Boris and Gleb 1.20
    each, Anna is owed 6.40 (made once for the run, conftest.made)."""
    isolated.write_bytes(made(*(tuple(args) for args in WORKED), ("settle",)))
    assert ledger(table) == ["Money: Anna 6.40, Boris -1.20, Gleb -1.20, Vera -4.00", "  Vera pays Anna 4.00",
                             "  Boris pays Anna 1.20", "  Gleb pays Anna 1.20"]
    return table


def payments(cli) -> list[tuple]:
    return [(p["id"], p["from"], p["to"], p["amount"], p["currency"], p["cancelled"]) for p in cli.json("payments")]


# ---- who pays whom ---------------------------------------------------------------------------


@pytest.fixture
def namesakes(evening):
    """Besides the worked example: Valya (whose name begins as Vera's) and Алёна at an open
    evening, Алена at another: two people whose names differ only by ё."""
    evening("new", "Valya", "Boris", "Алёна", "Gleb")
    evening("deal", "pass")
    evening("new", "Алена", "Boris", "Vera", "Gleb", "--yes")
    return evening


@pytest.mark.parametrize("args, english, russian", [
    (("Zed", "Anna", "1"), "FROM: nobody called 'Zed' has played in this ledger",
     "ОТ_КОГО: никто по имени «Zed» в этом журнале не играл"),
    (("Anna", "Zed", "1"), "TO: nobody called 'Zed' has played in this ledger",
     "КОМУ: никто по имени «Zed» в этом журнале не играл"),
    (("Bors", "Anna", "1"), "FROM: nobody called 'Bors' has played in this ledger; did you mean Boris?",
     "ОТ_КОГО: никто по имени «Bors» в этом журнале не играл; может быть, Boris?"),
    (("Anna", "Maximilian Alexander Wolfgang", "1"),  # cut short
     "TO: nobody called 'Maximilian Alexander Wol…' has played in this ledger",
     "КОМУ: никто по имени «Maximilian Alexander Wol…» в этом журнале не играл"),
    (("V", "Anna", "1"), "'V' could be Vera or Valya; type more of it",
     "«V» — это может быть Vera или Valya; наберите подробнее"),
    (("Anna", "anna", "1"), "FROM and TO are the same person; a payment goes from one to another",
     "ОТ_КОГО и КОМУ — один и тот же человек; платят один другому"),
])
def test_a_name_that_is_nobody_or_anybody_is_refused(namesakes, args: tuple[str, ...], english: str,
                                                     russian: str) -> None:
    assert refused(namesakes, "paid", *args) == english
    assert refused(namesakes, "paid", *args, lang="ru") == russian
    assert payments(namesakes) == []


def test_a_payer_is_found_as_a_player_is_at_a_deal(namesakes) -> None:
    """By his whole name as it is compared (Алёна and Алена are two people: each is found by her
    own name, though a lookup that reads ё as е finds both), or by a beginning no other name
    shares, what shows as nothing (a soft hyphen) left out; named as first written."""
    assert recorded(namesakes, "Bo\u00adr", "ANNA", "1") == "Recorded payment 1: Boris paid Anna 1.00."
    assert recorded(namesakes, "Алёна", "Anna", "1", "--yes") == "Recorded payment 2: Алёна paid Anna 1.00."
    assert recorded(namesakes, "алена", "Anna", "1", "--yes") == "Recorded payment 3: Алена paid Anna 1.00."
    assert recorded(namesakes, "val", "Anna", "2", "--yes") == "Recorded payment 4: Valya paid Anna 2.00."
    assert refused(namesakes, "paid", "але", "Anna", "1") == "'але' could be Алёна or Алена; type more of it"
    assert payments(namesakes) == [(1, "Boris", "Anna", "1.00", "", False), (2, "Алёна", "Anna", "1.00", "", False),
                                   (3, "Алена", "Anna", "1.00", "", False), (4, "Valya", "Anna", "2.00", "", False)]


# ---- doubts ----------------------------------------------------------------------------------


def test_a_payment_that_would_turn_a_debt_around_is_doubted(evening) -> None:
    """The doubt names what the payer owes and the payee is owed, each as the ledger has it."""
    assert doubted(evening, "Vera", "Anna", "5") == (
        "by the ledger Vera owes 4.00 and Anna is owed 6.40, so 5.00 would turn a debt around")
    assert doubted(evening, "Vera", "Anna", "5", lang="ru") == (
        "по журналу: Vera — долг 4,00, Anna — к получению 6,40; платёж 5,00 больше долга или суммы к получению")
    assert doubted(evening, "Boris", "Anna", "1.21") == (
        "by the ledger Boris owes 1.20 and Anna is owed 6.40, so 1.21 would turn a debt around")
    # the other way round: the one owed pays, to one who owes
    assert doubted(evening, "Anna", "Vera", "1") == (
        "by the ledger Anna owes 0.00 and Vera is owed 0.00, so 1.00 would turn a debt around")
    assert payments(evening) == []
    assert recorded(evening, "Boris", "Anna", "1.20") == "Recorded payment 1: Boris paid Anna 1.20."
    assert doubted(evening, "Boris", "Gleb", "0.01") == (  # Boris is square now
        "by the ledger Boris owes 0.00 and Gleb is owed 0.00, so 0.01 would turn a debt around")
    assert recorded(evening, "Anna", "Vera", "1", "--yes") == "Recorded payment 2: Anna paid Vera 1.00."
    # Vera owes what she had, and what she was paid
    assert ledger(evening) == ["Money, less 2 payments made: Anna 6.20, Boris 0.00, Gleb -1.20, Vera -5.00",
                               "  Vera pays Anna 5.00", "  Gleb pays Anna 1.20"]


def test_a_payment_between_people_new_to_a_currency(evening) -> None:
    """W, X, Y and Z played only in euros: in the books without a currency W owes nothing and is
    owed nothing. Paid all the same, W is in those books from then on."""
    evening("new", "W", "X", "Y", "Z", "--currency", "EUR")
    evening("deal", "solo", "--declarer", "W", "--tricks", "9")
    evening("settle")
    assert doubted(evening, "W", "Anna", "1", "--currency", "") == (
        "by the ledger W owes 0.00 and Anna is owed 6.40, so 1.00 would turn a debt around")
    assert doubted(evening, "Vera", "W", "1", "--currency", "") == (
        "by the ledger Vera owes 4.00 and W is owed 0.00, so 1.00 would turn a debt around")
    assert doubted(evening, "Vera", "W", "1", "--currency", "", lang="ru") == (
        "по журналу: Vera — долг 4,00, W — к получению 0,00; платёж 1,00 больше долга или суммы к получению")
    assert doubted(evening, "Vera", "X", "1", "--currency", "eur") == (  # and Vera has never played in euros
        "by the ledger Vera owes 0.00 EUR and X is owed 0.00 EUR, so 1.00 EUR would turn a debt around")
    assert recorded(evening, "Vera", "W", "1", "--currency", "", "--yes") == "Recorded payment 1: Vera paid W 1.00."
    assert ledger(evening) == [
        "Money, less 1 payment made: Anna 6.40, Boris -1.20, Gleb -1.20, Vera -3.00, W -1.00", "  Vera pays Anna 3.00",
        "  Boris pays Anna 1.20", "  Gleb pays Anna 1.20", "  W pays Anna 1.00",
        "In EUR: W 90.00, X -30.00, Y -30.00, Z -30.00", "  X pays W 30.00 EUR", "  Y pays W 30.00 EUR",
        "  Z pays W 30.00 EUR"]


def test_the_same_payment_again_is_doubted_with_the_one_it_repeats(evening) -> None:
    assert recorded(evening, "Vera", "Anna", "1") == "Recorded payment 1: Vera paid Anna 1.00."
    when = shown_at(evening.json("payments")[0]["date"])
    assert doubted(evening, "Vera", "Anna", "1") == f"Vera paid Anna 1.00 already, at {when} (payment 1)"
    assert doubted(evening, "vera", "anna", "1.00", lang="ru") == (
        f"Vera → Anna: 1,00 — такой платёж уже записан ({shown_at(evening.json('payments')[0]['date'], '%d.%m.%Y')}, "
        "платёж 1)")
    assert recorded(evening, "Vera", "Anna", "1", "--yes") == "Recorded payment 2: Vera paid Anna 1.00."
    assert doubted(evening, "Vera", "Anna", "1").endswith(", at {} (payment 2)".format(
        shown_at(evening.json("payments")[1]["date"])))  # the latest it repeats
    evening("paid", "--cancel", "1")
    evening("paid", "--cancel", "2")
    assert recorded(evening, "Vera", "Anna", "1") == "Recorded payment 3: Vera paid Anna 1.00."  # those no longer count



@pytest.mark.parametrize("minutes_ago, doubted_again", [(2, True), (59, True), (61, False), (24 * 60, False)])
def test_the_same_payment_is_doubted_within_the_hour_only(evening, isolated: Path, minutes_ago: int,
                                                          doubted_again: bool) -> None:
    """The same payment again is a doubt for an hour after the one it repeats; after that, a
    second payment of the same is an ordinary one (the ledger allows it: Vera owes 4.00)."""
    assert recorded(evening, "Vera", "Anna", "1") == "Recorded payment 1: Vera paid Anna 1.00."
    then = (datetime.now(UTC) - timedelta(minutes=minutes_ago)).isoformat(timespec="seconds")
    tamper(isolated, ("UPDATE payments SET paid_at = ? WHERE id = 1", (then,)))
    if doubted_again:
        assert doubted(evening, "Vera", "Anna", "1") == f"Vera paid Anna 1.00 already, at {shown_at(then)} (payment 1)"
        assert payments(evening) == [(1, "Vera", "Anna", "1.00", "", False)]
    else:
        assert recorded(evening, "Vera", "Anna", "1") == "Recorded payment 2: Vera paid Anna 1.00."

# ---- currencies ------------------------------------------------------------------------------


def test_nothing_to_pay_before_a_session_is_settled(table) -> None:
    for currency in ((), ("--currency", "EUR")):
        assert refused(table, "paid", "Vera", "Anna", "1", *currency) == (
            "no settled session yet: nobody owes anybody anything, so there is nothing to pay")
        assert refused(table, "paid", "Vera", "Anna", "1", *currency, lang="ru") == (
            "ни один вечер ещё не рассчитан: никто никому ничего не должен, платить нечего")
    assert payments(table) == []


@pytest.fixture
def two_currencies(evening):
    """The worked example (no currency) and an evening in euros, both settled."""
    evening("new", *PLAYERS, "--currency", "EUR")
    evening("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    evening("settle")
    return evening


@pytest.mark.parametrize("args, english, russian", [
    ((), "the settled sessions use several currencies ((none), EUR); give --currency CODE",
     "в рассчитанных вечерах несколько валют ((нет), EUR); укажите --currency КОД"),
    (("--currency", "usd"), "no settled session is in USD; the currencies are (none), EUR",
     "нет рассчитанных вечеров в валюте USD; валюты вечеров: (нет), EUR"),
    (("--currency", "EUR1"), "--currency must be a code of 1 to 8 letters such as EUR or RUB, or one currency sign "
     "such as € or ₽; not 'EUR1'",
     "--currency: нужен код из 1–8 букв вроде EUR или RUB либо один знак валюты вроде € или ₽, а не «EUR1»"),
])
def test_the_currency_refused_names_those_there_are(two_currencies, args: tuple[str, ...], english: str,
                                                    russian: str) -> None:
    assert refused(two_currencies, "paid", "Vera", "Anna", "1", *args) == english
    assert refused(two_currencies, "paid", "Vera", "Anna", "1", *args, lang="ru") == russian
    assert payments(two_currencies) == []


def test_a_blank_currency_is_the_sessions_without_one(two_currencies) -> None:
    assert recorded(two_currencies, "Vera", "Anna", "1", "--currency", " ") == (
        "Recorded payment 1: Vera paid Anna 1.00.")
    assert recorded(two_currencies, "Vera", "Anna", "1", "--currency", "eur") == (
        "Recorded payment 2: Vera paid Anna 1.00 EUR.")
    assert payments(two_currencies) == [(1, "Vera", "Anna", "1.00", "", False),
                                        (2, "Vera", "Anna", "1.00", "EUR", False)]


def test_only_settled_sessions_count_for_the_currency(cli) -> None:
    """A payment goes in the currency of the settled sessions: an evening still open in another
    makes no second currency; a blank one names no currency, which no settled session uses."""
    cli("new", *PLAYERS, "--currency", "EUR")
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    cli("settle")
    cli("new", *PLAYERS, "--currency", "RUB")
    cli("deal", "pass")
    assert recorded(cli, "Boris", "Anna", "1") == "Recorded payment 1: Boris paid Anna 1.00 EUR."
    assert refused(cli, "paid", "Boris", "Anna", "1", "--currency", "") == (
        "no settled session is in (no currency); the currencies are EUR")
    assert refused(cli, "paid", "Boris", "Anna", "1", "--currency", "", lang="ru") == (
        "нет рассчитанных вечеров в валюте (без валюты); валюты вечеров: EUR")
    assert refused(cli, "paid", "Boris", "Anna", "1", "--currency", "rub") == (
        "no settled session is in RUB; the currencies are EUR")


def test_a_code_an_earlier_version_kept_is_found_in_either_case(table, isolated: Path) -> None:
    """'EUR.' (which `new` refuses today) typed as 'eur.': the sessions' own code, as for 'eur'."""
    table("deal", "solo", "--declarer", "Anna", "--tricks", "8")
    tamper(isolated, ("UPDATE sessions SET currency = 'EUR.'", ()))
    table("settle")
    for n, (payer, typed) in enumerate((("Boris", "eur."), ("Vera", "EUR.")), 1):
        assert recorded(table, payer, "Anna", "1", "--currency", typed) == (
            f"Recorded payment {n}: {payer} paid Anna 1.00 EUR..")
    assert [p[4] for p in payments(table)] == ["EUR.", "EUR."]


# ---- cancelling ------------------------------------------------------------------------------


def test_a_cancelled_payment_is_the_one_named(evening) -> None:
    evening("paid", "Vera", "Anna", "1")
    evening("paid", "Boris", "Anna", "1.20")
    assert evening("paid", "--cancel", "2").stdout == (
        "Payment 2 cancelled: Boris paid Anna 1.20 no longer counts in the ledger; it stays on record.\n")
    assert payments(evening) == [(1, "Vera", "Anna", "1.00", "", False), (2, "Boris", "Anna", "1.20", "", True)]
    assert ledger(evening) == ["Money, less 1 payment made: Anna 5.40, Boris -1.20, Gleb -1.20, Vera -3.00",
                               "  Vera pays Anna 3.00", "  Boris pays Anna 1.20", "  Gleb pays Anna 1.20"]
    for lang, english_or_russian in (("en", ("payment 2 is cancelled already; `boston-ledger payments` shows it",
                                             "there is no payment 9; `boston-ledger payments` lists them")),
                                     ("ru", ("платёж 2 уже отменён; `boston-ledger payments` это покажет",
                                             "платежа 9 нет; `boston-ledger payments` покажет все платежи"))):
        assert refused(evening, "paid", "--cancel", "2", lang=lang) == english_or_russian[0]
        assert refused(evening, "paid", "--cancel", "9", lang=lang) == english_or_russian[1]
    assert payments(evening) == [(1, "Vera", "Anna", "1.00", "", False), (2, "Boris", "Anna", "1.20", "", True)]


# ---- the ledger ------------------------------------------------------------------------------


def test_the_ledger_lists_people_alphabetically_whatever_their_case(cli) -> None:
    cli("new", "Boris", "anna", "Vera", "gleb", "--chip-value", "0.10")
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    cli("settle")
    assert ledger(cli) == ["Money: anna 9.00, Boris -3.00, gleb -3.00, Vera -3.00", "  Boris pays anna 3.00",
                           "  gleb pays anna 3.00", "  Vera pays anna 3.00"]
    assert list(cli.json("ledger")[""]["balances"]) == ["anna", "Boris", "gleb", "Vera"]


# ---- which evening a payment paid off --------------------------------------------------------


def paid_toward(cli, session: int) -> list[tuple[str, str, str, str]]:
    """What `settle --session N` says was paid toward that evening: who, to whom, how much of how much."""
    return [(p["from"], p["to"], p["amount"], p["payment_amount"])
            for p in cli.json("settle", "--session", str(session))["paid_since"]]


def wins(cli, who: str, session: int | None = None) -> None:
    """An evening of the four that `who` wins alone (a solo of 9: 3.00 from each), settled; the
    `session` it will be, where another evening is open."""
    which = ("--session", str(session)) if session else ()
    cli("new", *PLAYERS, "--chip-value", "0.10", "--yes")
    cli("deal", "solo", "--declarer", who, "--tricks", "9", *which)
    cli("settle", "--yes", *which)


def test_part_of_a_debt_paid_is_counted_toward_the_first_evening_only(cli) -> None:
    wins(cli, "Anna")
    wins(cli, "Anna")
    cli("paid", "Boris", "Anna", "1")
    assert paid_toward(cli, 1) == [("Boris", "Anna", "1.00", "1.00")]
    assert paid_toward(cli, 2) == []


def test_a_payment_goes_toward_the_evening_where_the_payee_is_owed(cli) -> None:
    """Vera won the first evening (Anna owes her), Anna the second: Boris's payment to Anna pays
    off the second."""
    wins(cli, "Vera")
    wins(cli, "Anna")
    cli("paid", "Boris", "Anna", "3")
    assert paid_toward(cli, 1) == []
    assert paid_toward(cli, 2) == [("Boris", "Anna", "3.00", "3.00")]


def test_an_evening_never_settled_and_the_demo_count_for_no_payment(cli) -> None:
    """An evening left open and the demo evening (its players are Anna, Boris, Vera and Gleb too,
    and it is settled): payments go toward the real settled evenings only, the earliest first."""
    cli("new", *PLAYERS, "--chip-value", "0.10")
    cli("deal", "pass")
    cli("demo")
    wins(cli, "Anna", 3)
    wins(cli, "Anna", 4)
    cli("paid", "Boris", "Anna", "4")
    assert [paid_toward(cli, s) for s in (3, 4)] == [[("Boris", "Anna", "3.00", "4.00")],
                                                       [("Boris", "Anna", "1.00", "4.00")]]
    assert ledger(cli)[0] == "Money, less 1 payment made: Anna 14.00, Boris -2.00, Gleb -6.00, Vera -6.00"


def test_a_non_latin_code_an_earlier_version_kept_is_found_as_typed(table, isolated: Path) -> None:
    """'руб.' (which `new` refuses today): the sessions' own code, typed as it is."""
    table("deal", "solo", "--declarer", "Anna", "--tricks", "8")
    tamper(isolated, ("UPDATE sessions SET currency = 'руб.'", ()))
    table("settle")
    assert recorded(table, "Boris", "Anna", "1", "--currency", "руб.") == (
        "Recorded payment 1: Boris paid Anna 1.00 руб..")
    assert [p[4] for p in payments(table)] == ["руб."]


def test_more_than_was_owed_is_counted_whole_toward_the_evening(cli) -> None:
    """Boris owed 3.00 and paid 4.00 (said sure): the evening shows the whole payment, and the
    ledger that Anna owes him 1.00 now."""
    wins(cli, "Anna")
    cli("paid", "Boris", "Anna", "4", "--yes")
    assert paid_toward(cli, 1) == [("Boris", "Anna", "4.00", "4.00")]
    assert ledger(cli)[0] == "Money, less 1 payment made: Anna 5.00, Boris 1.00, Gleb -3.00, Vera -3.00"


def test_payments_toward_an_evening_reopened_since_stay_in_the_books(cli) -> None:
    """The only settled evening reopened: its results leave the books, the payment made stays."""
    wins(cli, "Anna")
    cli("paid", "Boris", "Anna", "3")
    cli("reopen")
    assert ledger(cli)[0] == "Money, less 1 payment made: Anna -3.00, Boris 3.00"
