"""The small frictions of an evening (issue 30, item 6), each as a table meets it: the commonest
words and tariff names typed short, money as the output's language writes it, `stats` in money,
words that fit whoever sits in the seat, `undo` saying who deals next, Ctrl-C and an option the
deal does not take at a terminal, and the agreed deals counted in good grammar."""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest
import tomli_w
import tomllib

from conftest import GUIDED, PLAYERS, described, guided

ROOT = Path(__file__).resolve().parent.parent
CLASSIC = ROOT / "tariffs" / "classic.toml"


def tariff_file(tmp_path: Path, change) -> Path:
    """classic.toml as `mine`, changed by `change` (its data as TOML reads it)."""
    data = tomllib.loads(CLASSIC.read_text(encoding="utf-8"))
    data["tariff"]["name"] = "mine"
    change(data)
    path = tmp_path / "mine.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


# ---- the commonest words win their shortest beginnings -----------------------------------------


def test_p_is_pass_m_misere_and_gm_grand_misere(table) -> None:
    """`p` begins pass, petite-misere and petite-misere-ouverte; `gm` begins nothing: both are
    the classic tariff's abbreviations, and so are their Russian `п`, `м` and `гм`."""
    table("deal", "p")
    table("deal", "gm", "--declarer", "Vera", "--tricks", "0")
    table("deal", "m", "--declarer", "Anna", "--tricks", "0")
    table("--lang", "ru", "deal", "п")
    table("--lang", "ru", "deal", "гм", "--declarer", "Gleb", "--tricks", "0")
    assert [d["contract"] for d in table.json("history")] == ["pass", "grand-misere", "misere", "pass",
                                                              "grand-misere"]
    assert "'pa' could be" not in table("deal", "pa").stdout  # a longer beginning still works as before
    assert "'mi' could be misere, misere-ouvert or misdeal" in table("deal", "mi", code=2).stderr


def test_a_guided_answer_takes_the_abbreviation_too(table) -> None:
    result = guided(["deal"], "p\n\n")
    assert result.exit_code == 0 and "Deal 1 recorded." in result.output, result.output
    assert table.json("history")[0]["contract"] == "pass"


def test_tariffs_show_says_the_abbreviations(cli) -> None:
    assert "abbreviations: p, п for pass; m, м for misere; gm, гм for grand-misere" in \
        " ".join(cli("tariffs", "show", "classic").stdout.split())
    assert "сокращения: p, п — пас; m, м — мизер; gm, гм — гран-мизер" in \
        " ".join(cli("--lang", "ru", "tariffs", "show", "classic").stdout.split())
    assert cli.json("tariffs", "show", "samouchitel")["abbreviations"] == {
        "pass": ["p", "п"], "small-null": ["мн"], "big-null": ["бн"], "small-open": ["мо"], "big-open": ["бо"]}


def test_the_samouchitel_nulls_as_its_table_writes_them(cli) -> None:
    cli("new", *PLAYERS, "--tariff", "samouchitel")
    cli("deal", "бо", "--declarer", "Anna", "--tricks", "0")
    cli("deal", "п")
    assert [d["contract"] for d in cli.json("history")] == ["big-open", "pass"]


def test_a_tariff_file_declares_its_own_abbreviations(cli, tmp_path: Path) -> None:
    def short(data: dict) -> None:
        data["abbreviations"] = {"solo": ["s", "с"], "nine": ["9t"]}

    path = tariff_file(tmp_path, short)
    cli("tariffs", "check", str(path))
    cli("new", *PLAYERS, "--tariff", str(path))
    cli("deal", "s", "--declarer", "Anna", "--tricks", "8")  # `s` begins senior and solo
    assert described(cli) == "solo junior Anna 8"
    assert "'p' could be pass, misere or misere-ouvert" in cli("deal", "p", code=2).stderr  # its own, not classic's


@pytest.mark.parametrize("abbreviations, said", [
    ({"sollo": ["s"]}, "[abbreviations] 'sollo': no contract of the tariff, nor pass or misdeal; its contracts:"),
    ({"solo": ["jun"]}, "[abbreviations] 'solo': 'jun' names junior already; an abbreviation names one thing only"),
    ({"solo": ["x"], "nine": ["X"]}, "[abbreviations] 'nine': 'X' names solo already"),
    ({"solo": "s"}, "[abbreviations] solo: must be a list of non-empty strings"),
    ({"solo": ["s\x1b"]}, "control character U+001B"),
])
def test_an_abbreviation_names_one_thing_only(cli, tmp_path: Path, abbreviations: dict, said: str) -> None:
    path = tariff_file(tmp_path, lambda data: data.update(abbreviations=abbreviations))
    err = cli("tariffs", "check", str(path), code=2).stdout + cli("tariffs", "check", str(path), code=2).stderr
    assert said in err, err
    assert cli("new", *PLAYERS, "--tariff", str(path), code=2).stderr.startswith("boston-ledger: error: ")


def test_a_condition_s_contract_takes_an_abbreviation(cli, tmp_path: Path) -> None:
    """A condition's `set` may give the contract it adds an abbreviation; without the condition,
    an abbreviation of a contract the tariff does not have is refused."""
    def short(data: dict) -> None:
        data["conditions"]["philadelphia"]["set"]["abbreviations"] = {"philadelphia": ["ph"]}

    path = tariff_file(tmp_path, short)
    cli("tariffs", "check", str(path))
    cli("new", *PLAYERS, "--tariff", str(path), "--condition", "philadelphia")
    cli("deal", "ph", "--declarer", "Anna", "--tricks", "10")
    assert cli.json("history")[0]["contract"] == "philadelphia"


# ---- tariff names take beginnings ---------------------------------------------------------------


def test_a_tariff_is_named_by_a_beginning_no_other_shares(cli) -> None:
    cli("new", *PLAYERS, "--tariff", "sam")
    assert cli.json("status")["tariff"] == "samouchitel"
    assert cli("tariffs", "show", "fontainebleau-f").stdout.startswith("Boston de Fontainebleau")
    assert "— american (" in cli("tariffs", "show", "American").stdout  # a whole name, not a beginning
    err = cli("new", *PLAYERS, "--tariff", "amer", "--yes", code=2).stderr
    assert err == "boston-ledger: error: 'amer' could be american or american-decimal; type more of it\n"
    err = cli("tariffs", "show", "clasic", code=2).stderr
    assert err == "boston-ledger: error: no tariff 'clasic'; did you mean classic?\n"
    err = cli("--lang", "ru", "tariffs", "show", "font", code=2).stderr
    assert "«font» — это может быть fontainebleau или fontainebleau-foster; наберите подробнее" in err
    assert "no tariff 'zzz': give a shipped tariff (american," in cli("tariffs", "show", "zzz", code=2).stderr


def test_a_file_extends_its_base_by_its_whole_name(cli, tmp_path: Path) -> None:
    """A file's `extends` is not typed at the table: a beginning there would change meaning when
    a tariff of a like name ships."""
    path = tmp_path / "mine.toml"
    path.write_text('[tariff]\nextends = "clas"\nname = "mine"\n', encoding="utf-8")
    found = cli("tariffs", "check", str(path), code=2)
    assert "extends: no tariff 'clas': give a shipped tariff" in found.stdout + found.stderr


# ---- money as the output's language writes it ---------------------------------------------------


def test_money_is_written_as_the_language_writes_its_currency(cli) -> None:
    cli("new", *PLAYERS, "--chip-value", "0.10", "--currency", "$")
    assert "chip $0.10" in cli("status").stdout and "фишка 0,10 $" in cli("--lang", "ru", "status").stdout
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "8")
    out = cli("settle").stdout
    assert "Boris pays Anna $" in out and re.search(r"-\$\d+\.\d\d", out), out  # the minus before the sign
    assert re.search(r"Борис → Анна: \d+,\d\d \$|Boris → Anna: \d+,\d\d \$", cli("--lang", "ru", "settle").stdout)
    assert cli.json("settle")["money"]["Anna"].replace(".", "").isdigit()  # JSON keeps the plain number


def test_a_currency_in_letters_follows_the_amount(cli) -> None:
    from boston_ledger.core.i18n import in_language
    from boston_ledger.ui.text import amount

    with in_language("en"):
        assert [amount(70, "$"), amount(-70, "€"), amount(1230, "RUB"), amount(5, ""),
                amount(Decimal("0.005"), "$")] == ["$0.70", "-€0.70", "12.30 RUB", "0.05", "$0.005"]
    with in_language("ru"):
        assert [amount(70, "$"), amount(-70, "€"), amount(1230, "RUB"), amount(100, "руб")] == \
            ["0,70 $", "\u22120,70 €", "12,30 ₽", "1,00 руб"]


# ---- stats compares money ----------------------------------------------------------------------


def test_stats_adds_up_and_compares_money_never_chips_of_different_values(cli) -> None:
    """Session 1: classic chips at 0.10; session 2: Foster's counters at 0.01, one deal that moves
    more chips but less money. The net is money per currency; the best deal is the one worth more."""
    cli("new", *PLAYERS, "--chip-value", "0.10", "--currency", "$")
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "8")  # Anna +... chips at 0.10
    cli("settle")
    first = cli.json("sessions")[0]["result"]["Anna"]
    cli("new", *PLAYERS, "--tariff", "american", "--chip-value", "0.01", "--currency", "$")
    cli("deal", "seven", "--declarer", "Anna", "--tricks", "13")  # many counters, few cents
    cli("settle")
    second = cli.json("sessions")[1]["result"]["Anna"]
    anna = cli.json("stats")["players"]["Anna"]
    assert "net_chips" not in anna
    assert anna["money"] == {"$": f"{Decimal(first) + Decimal(second):.2f}"}
    deals = [cli.json("history", "--session", str(s))[0] for s in (1, 2)]
    chips = [d["changes"]["Anna"] for d in deals]
    assert chips[1] > chips[0] and chips[1] * Decimal("0.01") < chips[0] * Decimal("0.10")  # as the test wants it
    assert anna["biggest_win"] == {"$": {"chips": chips[0], "money": f"{chips[0] * Decimal('0.10'):.2f}",
                                         "session": 1, "deal": 1}}
    out = cli("stats").stdout
    assert "In $" in out and f"+{chips[0] * Decimal('0.10'):.2f}" in out and str(chips[1]) not in out


def test_stats_keeps_each_currency_apart(cli) -> None:
    cli("new", *PLAYERS, "--chip-value", "0.10", "--currency", "EUR")
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "8")
    cli("settle")
    cli("new", *PLAYERS, "--chip-value", "10", "--currency", "RUB")
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "8")
    cli("settle")
    anna = cli.json("stats")["players"]["Anna"]
    assert set(anna["money"]) == set(anna["biggest_win"]) == {"EUR", "RUB"}
    assert anna["money"]["RUB"] == f"{Decimal(anna['money']['EUR']) * 100:.2f}"
    out = cli("--lang", "ru", "stats").stdout
    assert "Деньги, EUR" in out and "Деньги, ₽" in out


# ---- words that fit whoever sits in the seat ----------------------------------------------------


def test_no_english_text_calls_a_player_he() -> None:
    """Every text the program shows (the catalogue's template: the code, the help, the shipped
    tariffs' words) speaks of a player without 'he', 'his', 'him' or 'himself'."""
    template = (ROOT / "boston_ledger" / "locale" / "boston_ledger.pot").read_text(encoding="utf-8")
    texts = "".join(re.findall(r'^(?:msgid|msgid_plural)? ?"(.*)"$', template, re.MULTILINE))
    assert re.findall(r"\b(?:[Hh]e|[Hh]is|[Hh]im|[Hh]imself)\b", texts) == []


def test_russian_texts_about_a_player_stay_neutral(cli) -> None:
    """A text that names a player agrees with nobody's gender: the name in the nominative,
    never «первым сдаёт Вера» nor «у Вера»."""
    out = cli("--lang", "ru", "new", "Вера", "Борис", "Анна", "Глеб").stdout
    assert "первую сдачу сдаёт Вера" in out and "первым" not in out
    cli("new", *PLAYERS, "--tariff", "fontainebleau-foster", "--condition", "honours", "--yes")
    result = guided(["--lang", "ru", "deal", "восемь", "--declarer", "Vera", "--rank", "пики", "--session", "2"],
                    "\n\n8\n4\n\n")  # no partner, no "I pay", 8 tricks, 4 honours
    assert "Vera: сколько онёров козыря (туз, король, дама, валет) на руках?" in result.output, result.output


# ---- undo says who deals next ---------------------------------------------------------------------


def test_undo_says_who_deals_next(table) -> None:
    table("deal", "pass")
    table("deal", "misdeal")
    out = table("undo").stdout
    assert out.splitlines()[-1] == "Next: deal 2, dealt by Boris."
    assert table("--lang", "ru", "undo").stdout.splitlines()[-1] == "Следующая: сдача 1, сдаёт Anna."


def test_undo_of_the_last_agreed_deal_says_who_deals_it_again(cli) -> None:
    cli("new", *PLAYERS, "--deals", "1")
    cli("deal", "pass")
    assert cli("undo").stdout.splitlines()[-1] == "Next: deal 1, dealt by Anna."


# ---- Ctrl-C in guided entry ------------------------------------------------------------------------


def test_ctrl_c_in_guided_entry_says_nothing_is_recorded_and_exits_130(table, monkeypatch) -> None:
    def interrupted(text: str) -> str:
        print(text, end="")
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    for lang, said in (("en", "Nothing recorded."), ("ru", "Ничего не записано.")):
        result = table.main("--lang", lang, "deal", "junior", code=130, env=GUIDED)
        assert result.stdout.splitlines()[-1] == said, result.stdout
    assert table.json("status")["deals"] == 0


# ---- an option the deal does not take, at a terminal ----------------------------------------------


def test_an_option_the_session_does_not_play_is_said_at_a_terminal(cli) -> None:
    """`--honours 4` where the tariff scores no honours: the engine's reason before the deal is
    shown and the confirmation asked (without a terminal: refused, exit 2)."""
    cli("new", *PLAYERS, "--tariff", "fontainebleau-foster")
    args = ["deal", "eight", "--declarer", "Anna", "--rank", "spades", "--tricks", "8", "--honours", "4"]
    err = cli(*args, code=2).stderr
    assert err == "boston-ledger: error: the fontainebleau-foster tariff scores no honours; drop --honours\n"
    result = guided(args, "\n")
    said = "  the fontainebleau-foster tariff scores no honours; --honours is left out"
    assert said in result.output.splitlines(), result.output
    assert result.output.index(said) < result.output.index("Record this deal?") and result.exit_code == 0
    assert "honours" not in cli.json("history")[0]["description"]
    ru = guided(["--lang", "ru", *args], "отмена\n")
    assert "тариф «Бостон Фонтенбло по Фостеру» не считает онёров; --honours не учитывается" in ru.output, ru.output


def test_an_option_the_contract_does_not_take_is_said_and_kept_for_a_changed_answer(cli) -> None:
    """Honours of a failed bid are left out with the engine's reason; once the tricks are changed
    to make the bid, the same answer is taken."""
    cli("new", *PLAYERS, "--tariff", "fontainebleau-foster", "--condition", "honours")
    args = ["deal", "eight", "--declarer", "Anna", "--rank", "spades", "--tricks", "7", "--honours", "4"]
    result = guided(args, "n\n5\n\n8\n\n")  # no: the answers listed; 5, the tricks: not "I pay", 8; Enter records
    assert result.exit_code == 0, result.output
    assert result.output.count("honours count only for a trump contract made; --honours is left out") == 1
    assert described(cli) == "eight spades Anna 8 alone, 4 honours"  # alone: eight may take a partner


def test_an_all_pass_with_a_declarer_says_so_at_a_terminal(table) -> None:
    result = guided(["deal", "pass", "--declarer", "Boris"], "\n")
    assert "  an all-pass is not played; --declarer is left out" in result.output.splitlines(), result.output
    assert described(table) == "all pass"


def test_an_edit_with_an_option_the_deal_does_not_take_says_so_at_a_terminal(table) -> None:
    table("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    result = guided(["edit", "1", "--partner", "Gleb", "--tricks", "8", "--reason", "r"], "\n\n")  # rank, record
    assert "  solo is played alone; --partner is left out" in result.output.splitlines(), result.output
    assert described(table) == "solo junior Anna 8"


# ---- the agreed deals, counted -----------------------------------------------------------------


@pytest.mark.parametrize("agreed, played, en, ru", [
    (12, 11, "1 of the 12 agreed deals left", "условлено 12 сдач, осталось 1"),
    (2, 0, "2 of the 2 agreed deals left", "условлены 2 сдачи, осталось 2"),
    (1, 0, "1 of the 1 agreed deal left", "условлена 1 сдача, осталось 1"),
])
def test_the_agreed_deals_left_are_said_in_good_grammar(cli, agreed: int, played: int, en: str, ru: str) -> None:
    cli("new", *PLAYERS, "--deals", str(agreed))
    for _ in range(played):
        cli("deal", "pass")
    assert en in cli("status").stdout.splitlines()
    assert ru in cli("--lang", "ru", "status").stdout.splitlines()
