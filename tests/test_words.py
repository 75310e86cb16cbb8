"""Each game speaks its own words (issue 31): a tariff's [words] gives its game's words where they
are not the seeds' (Foster: pool, game, round, caller, suit; «банк», «круг»), the names of its
payments, and what it refuses and why. Every view of its session says them (terminal, history,
sheet, phone, guided entry, `tariffs show`); a classic session keeps the seeds' basket, partie,
tour and labet."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tomli_w
import tomllib

from boston_ledger.core import i18n
from conftest import PLAYERS, guided

TARIFFS = Path(__file__).resolve().parent.parent / "tariffs"
SEEDS_EN = re.compile(r"\b(basket|labet|partie|parties|tours?|declarer|consolation)\b", re.IGNORECASE)
SEEDS_RU = re.compile(r"(корзин|лабет|\bтур|консоляц)", re.IGNORECASE)


def evening(cli, lang: str = "en") -> str:
    """Seven made (the pool taken), five failed (the pool doubled), a misdeal (dealt again): what
    the three deals showed."""
    cli("new", *PLAYERS, "--tariff", "american", "--deals", "12")
    return "".join(cli("--lang", lang, "deal", *words).stdout for words in (
        ("seven", "--declarer", "Anna", "--tricks", "10"), ("five", "--declarer", "Boris", "--tricks", "4"),
        ("misdeal",)))


def views(cli, lang: str = "en") -> dict[str, str]:
    return {name: cli("--lang", lang, *command).stdout for name, command in {
        "status": ("status",), "history": ("history",), "sheet": ("sheet",),
        "sheet --html": ("sheet", "--html", "-"), "tariffs show": ("tariffs", "show", "american")}.items()}


def test_an_american_evening_says_pool_game_round_and_foster_s_payments(cli) -> None:
    deals = evening(cli)
    assert "Deal 1 · game 1, round 1 · dealer Anna" in deals  # no "(simple tour)": nothing is ever doubled
    for label in ("contribution", "bid", "over-tricks", "takes the pool", "put in for", "doubles the pool"):
        assert f"│ {label} " in deals, (label, deals)
    assert " pool ┃" in deals
    shown = views(cli)
    shown["sheet --html"] = re.sub(r"<style.*?</style>|<[^>]+>", " ", shown["sheet --html"], flags=re.S)
    assert "Money as if settled now: the pool's 90 chips shared equally." in shown["status"]
    assert "game 1, round 1" in shown["history"] and "pool" in shown["history"]
    assert " pool " in shown["sheet --html"]
    shown["deals"] = deals
    assert "a game is 3 rounds of 4 deals each (12 deals); nothing is doubled" in shown["tariffs show"]
    for name, text in shown.items():
        found = SEEDS_EN.findall(text.replace("--declarer", ""))
        assert not found, (name, found)


def test_an_american_evening_in_russian_says_bank_and_round(cli) -> None:
    deals = evening(cli, "ru")
    shown = views(cli, "ru")
    shown["sheet --html"] = re.sub(r"<style.*?</style>|<[^>]+>", " ", shown["sheet --html"], flags=re.S)
    assert "партия 1, круг 1" in shown["history"] and "банк" in shown["status"]
    assert "Деньги — как при расчёте сейчас: банк (90 фишек) делится поровну." in shown["status"]
    for label in ("взнос", "заявка", "лишние взятки", "берёт банк", "недобор", "удваивает банк"):
        assert f"│ {label} " in deals, (label, deals)
    shown["deals"] = deals
    for name, text in shown.items():
        found = SEEDS_RU.findall(text)
        assert not found, (name, found)


def test_a_classic_evening_keeps_the_seeds_words(table) -> None:
    deal = table("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--team-tricks", "9").stdout
    for label in ("stake", "consolation", "basket won"):
        assert f"│ {label} " in deal, (label, deal)
    assert " basket ┃" in deal and "partie 1, tour 1 (simple tour)" in table("history").stdout
    assert " basket ┃" in table("status").stdout
    ru = table("--lang", "ru", "history").stdout
    assert "корзина" in ru and "партия 1, тур 1 (простой)" in ru
    assert "лабет" in table("--lang", "ru", "deal", "solo", "--declarer", "Vera", "--tricks", "5").stdout


def test_the_phone_page_speaks_the_game_s_words(cli, isolated: Path) -> None:
    from boston_ledger.serve.server import Served
    from serving import ENTRY, VIEW, get

    evening(cli)
    running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    try:
        sheet = get(running.port, f"/?t={VIEW}")[2].decode()
        russian = get(running.port, f"/?t={VIEW}&lang=ru")[2].decode()
        entry = get(running.port, f"/entry?t={ENTRY}")[2].decode()
    finally:
        running.close()
    text = re.sub(r"<[^>]+>", " ", sheet)
    assert "game 1, round 1" in text and "pool" in text
    assert not SEEDS_EN.findall(re.sub(r"<style.*?</style>|<script.*?</script>", "", text, flags=re.S)
                                .replace("--declarer", "")), text
    assert "банк" in russian and "круг 1" in russian and "корзин" not in russian
    assert "game 1, round 1" in entry and "partie" not in entry


def test_guided_entry_asks_for_the_caller(cli) -> None:
    cli("new", *PLAYERS, "--tariff", "american")
    result = guided(["deal"], "seven\n1\nn\n7\n\n")
    assert result.exit_code == 0, result.output
    assert "Caller" in result.output and "Declarer" not in result.output
    assert "takes the pool" in result.output and "basket" not in result.output


def test_fontainebleau_refuses_seven_grand_saying_foster_prints_no_value(cli) -> None:
    cli("new", *PLAYERS, "--tariff", "fontainebleau-foster")
    for word in ("grand", "notrump", "NT", "no-trump"):
        refused = cli("deal", "seven", "--declarer", "Anna", "--tricks", "7", "--rank", word, code=2).stderr
        assert "Foster prints no value for seven without trumps" in refused, refused
        assert "p. 176" in refused and "choose clubs, spades, hearts or diamonds" in refused
    russian = cli("--lang", "ru", "deal", "seven", "--declarer", "Anna", "--tricks", "7", "--rank", "без козыря",
                  code=2).stderr
    assert "Фостер не печатает цены семи без козыря" in russian, russian
    assert cli("deal", "seven", "--declarer", "Anna", "--tricks", "7", code=2).stderr.startswith(
        "boston-ledger: error: seven needs its suit: clubs, spades, hearts, diamonds")
    # a word that begins contracts' names is theirs still: "grand" as a bid could be a misère
    assert "could be grand-misere" in cli("deal", "grand", "--declarer", "Anna", "--tricks", "0", code=2).stderr
    assert cli.json("status")["deals"] == 0


def test_the_words_are_not_put_into_options_or_fields() -> None:
    american = i18n.GameWords(nouns={"declarer": {"en": {"one": "caller", "many": "callers"}},
                                     "basket": {"en": {"one": "pool", "many": "pools"}}})
    with i18n.in_words(american):
        said = i18n._("the {declarer}'s Basket, the declarer's baskets, [basket] and --declarer NAME",
                      declarer="Zed")
    assert said == "the Zed's Pool, the caller's pools, [basket] and --declarer NAME"
    assert i18n._("the basket") == "the basket"  # outside, the seeds' words


def classic(tmp_path: Path, words: dict) -> Path:
    data = tomllib.loads((TARIFFS / "classic.toml").read_text(encoding="utf-8"))
    data["tariff"]["name"] = "mine"
    data["words"] = words
    path = tmp_path / "mine.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(("words", "said"), [
    ({"basket": {"ru": {"nom": "банк"}}}, "[words.basket] ru: must be a table of every form: nom, gen, acc"),
    ({"pot": {"en": {"one": "pot", "many": "pots"}}}, "[words]: unknown key 'pot'"),
    ({"basket": {"fr": {"one": "pot"}}}, "[words.basket]: unknown language 'fr'"),
    ({"payments": {"tip": {"en": "tip"}}}, "[words.payments] 'tip': unknown payment"),
    ({"refused": {"x": {"names": ["x"], "en": "no"}}}, "[words.refused.x]: must be a table of texts by language"),
    ({"basket": {"en": {"one": "po\x1bol", "many": "pools"}}}, "control character U+001B"),
])
def test_a_tariff_s_words_are_checked(cli, tmp_path: Path, words: dict, said: str) -> None:
    found = cli("tariffs", "check", str(classic(tmp_path, words)), code=2).stderr
    assert said in found, found


def test_a_tariff_of_one_s_own_speaks_its_words(cli, tmp_path: Path) -> None:
    path = classic(tmp_path, {"basket": {"en": {"one": "kitty", "many": "kitties"}},
                              "payments": {"labet": {"en": "kitty doubled", "ru": "удвоение"}}})
    assert cli("tariffs", "check", str(path)).stderr == ""
    cli("new", *PLAYERS, "--tariff", str(path))
    cli("deal", "junior", "--declarer", "Boris", "--tricks", "3")
    status = cli("status").stdout
    assert "kitty" in status and "basket" not in status
    assert "корзина" in cli("--lang", "ru", "status").stdout  # no Russian given: the seeds' word


def test_american_refuses_a_suit_saying_suits_change_no_payment(cli) -> None:
    """Foster's suits only rank the bids: a --rank is refused in his words (it once listed no choice)."""
    cli("new", *PLAYERS, "--tariff", "american")
    refused = cli("deal", "seven", "--declarer", "Anna", "--tricks", "7", "--rank", "hearts", code=2).stderr
    assert refused == "boston-ledger: error: --rank: 'hearts': suits change no payment in this game; drop --rank\n"
    russian = cli("--lang", "ru", "deal", "seven", "--declarer", "Anna", "--tricks", "7", "--rank", "hearts",
                  code=2).stderr
    assert "«hearts»: масти не меняют в этой игре ни одного платежа; уберите --rank" in russian


def test_deal_help_names_every_foster_game_s_bids(cli) -> None:
    """`deal --help` names the bids of the Foster games, French Boston's included, and what a
    misdeal and a thrown-up deal are there, in both languages."""
    en = " ".join(cli("deal", "--help").stdout.replace("│", " ").split())
    for said in ("fontainebleau-foster, russian-foster: american's with piccolissimo", "french: simple,",
                 "neuf-belle", "grand-misere-sur-table", "pass (french: thrown up)",
                 "french: the deal is lost, the next player deals"):
        assert said in en, said
    ru = " ".join(cli("--lang", "ru", "deal", "--help").stdout.replace("│", " ").split())
    assert "french: простая, малая независимость" in ru and "french: сдача потеряна, сдаёт следующий" in ru


FOSTER = ("american", "american-decimal", "fontainebleau-foster", "russian-foster", "french")


def test_the_foster_tariffs_russian_notes_say_bank_themselves() -> None:
    """The Russian of a Foster tariff's notes says «банк» itself (its pronouns agree with it), not the
    seeds' «корзина» for the words to replace."""
    from boston_ledger.core.tariff_files import load

    with i18n.in_language("ru"):
        for name in FOSTER:
            for note in load(name).notes:
                assert "корзин" not in i18n._(note), (name, note)


def _section(text: str, start: str, end: str) -> str:
    return text[text.index(start):text.index(end)]


@pytest.mark.parametrize("lang, start, end", [("en", "## American Boston", "## The ladders"),
                                               ("ru", "## Американский бостон", "## Лесенки")])
def test_the_docs_foster_tables_say_what_tariffs_show_prints(lang: str, start: str, end: str) -> None:
    """The tables the docs copy from `tariffs show american`, `american-decimal` and
    `fontainebleau-foster` name the failed column and its payment as the program does."""
    from boston_ledger.core.tariff_files import load
    from boston_ledger.ui.tariff import FAILED_BASKET

    text = _section((TARIFFS.parent / "docs" / f"rules.{lang}.md").read_text(encoding="utf-8"), start, end)
    with i18n.in_language(lang), i18n.in_words(load("american").words):
        column, payment = i18n._("failed: basket"), i18n.reason("labet")
        said = {payment, *(i18n._(words) for words in FAILED_BASKET.values())}  # what the column may say
    assert (column, payment) == (("failed: pool", "doubles the pool") if lang == "en" else
                                 ("не сыграна: банк", "удваивает банк"))
    heads = [line for line in text.splitlines() if line.startswith("| ") and ": " in line.split("|")[3]]
    assert len(heads) >= 4  # american's, american-decimal's, fontainebleau-foster's winning and no-trick tables
    for line in heads:
        assert f"| {column} |" in line, line
    rows = [line for line in text.splitlines() if line.startswith("| ") and "| +" in line]
    cells = [line.split("|")[3].strip() for line in rows if line.count("|") > 10]
    assert payment in cells and set(cells) <= said, set(cells) - said
    assert not SEEDS_RU.search(text) if lang == "ru" else "| labet |" not in text and "basket |" not in text


def test_check_says_each_session_s_lines_in_its_own_game_s_words(cli, isolated: Path) -> None:
    """`check --all` over a classic and an American session: the classic one's problem says basket,
    the American one's says pool."""
    import sqlite3

    cli("new", *PLAYERS)
    cli("deal", "junior", "--declarer", "Anna", "--partner", "Boris", "--tricks", "5", "--partner-tricks", "4")
    cli("new", *PLAYERS, "--tariff", "american", "--deals", "12", "--yes")
    cli("deal", "seven", "--declarer", "Anna", "--tricks", "10", "--session", "2")
    conn = sqlite3.connect(isolated)
    triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for trigger, __ in triggers:
        conn.execute(f"DROP TRIGGER {trigger}")
    conn.execute("UPDATE deals SET basket = basket + 1")
    for __, sql in triggers:
        conn.execute(sql)
    conn.commit()
    conn.close()
    said = cli("check", "--all", code=1).stdout.splitlines()
    classic, american = [line for line in said if line.startswith("session 1")], \
        [line for line in said if line.startswith("session 2")]
    assert classic and american, said
    assert all("basket" in line and "pool" not in line for line in classic), classic
    assert all("pool" in line and "basket" not in line for line in american), american
