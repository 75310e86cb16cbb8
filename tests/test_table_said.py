"""The record says only what the table said: a pair's total kept as said, edits that keep the rest
and show first, a misdeal, the misère's boston as seed 000 reads, money that adds up, and what a
new user tripped over."""

from __future__ import annotations

import csv
import html
import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from boston_ledger.cli.declarations import app
from conftest import PLAYERS, described, guided, played
from serving import view


def row(db: Path, number: int) -> tuple:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT tricks, partner_tricks, team_tricks FROM deals WHERE number = ? ORDER BY id DESC",
                            (number,)).fetchone()


def csv_rows(path: Path) -> list[dict]:
    with path.open(encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


# ---- 1. a pair's total -------------------------------------------------------------------------


def test_a_pair_s_total_is_kept_as_said_and_shown_so(table, isolated: Path, tmp_path: Path) -> None:
    table("deal", "junior", "--declarer", "Vera", "--partner", "Gleb", "--team-tricks", "9")
    assert described(table) == "junior Vera + Gleb: 9"
    assert row(isolated, 1) == (None, None, 9)  # no split nobody said
    assert table.json("status")["balances"] == {"Anna": -18, "Boris": -18, "Vera": 18, "Gleb": 18}
    assert "junior Vera + Gleb: 9 — made" in table("history").stdout
    assert "Vera + Gleb: 9" in table("sheet").stdout
    table("export", str(tmp_path / "x"))
    deal = csv_rows(tmp_path / "x" / "deals.csv")[0]
    assert (deal["team_tricks"], deal["tricks"], deal["partner_tricks"]) == ("9", "", "")


def test_a_failed_pair_needs_the_declarer_s_own_tricks_and_keeps_both(table, isolated: Path) -> None:
    err = table("deal", "junior", "--declarer", "Anna", "--partner", "Boris", "--team-tricks", "7", code=2).stderr
    assert "give the declarer's own tricks (--tricks N)" in err and table.json("status")["deals"] == 0
    table("deal", "junior", "--declarer", "Anna", "--partner", "Boris", "--team-tricks", "7", "--tricks", "4")
    assert described(table) == "junior Anna 4 + Boris 3" and row(isolated, 1) == (4, 3, 7)
    # Anna, short of her 5, pays each opponent 4 and the labet; Boris took his 3 and pays nothing
    assert table.json("status")["balances"] == {"Anna": -58, "Boris": -10, "Vera": -6, "Gleb": -6}


def test_samouchitel_s_failed_pair_is_not_shown_as_made(cli) -> None:
    cli("new", *PLAYERS, "--tariff", "samouchitel", "--deals", "8")
    cli("deal", "5", "--declarer", "Anna", "--partner", "Boris", "--team-tricks", "7", "--rank", "first")
    assert described(cli) == "5 first Anna + Boris: 7"
    assert cli.json("history")[0]["made"] is False


# ---- 2. edits --------------------------------------------------------------------------------


def test_an_edit_of_one_share_keeps_the_pair_s_total(table, isolated: Path) -> None:
    table("deal", "junior", "--declarer", "Anna", "--partner", "Boris", "--team-tricks", "7", "--tricks", "5")
    out = table("edit", "1", "--tricks", "4", "--reason", "Anna took 4").stdout
    assert "junior Anna 5 + Boris 2 → junior Anna 4 + Boris 3" in out
    assert row(isolated, 1) == (4, 3, 7)
    table("deal", "junior", "--declarer", "Vera", "--partner", "Gleb", "--team-tricks", "9")
    table("edit", "2", "--boston", "anna", "--reason", "Anna held it")
    assert described(table, 2) == "junior Vera + Gleb: 9, boston Anna" and row(isolated, 2) == (None, None, 9)
    table("edit", "2", "--team-tricks", "10", "--reason", "ten")
    assert described(table, 2) == "junior Vera + Gleb: 10, boston Anna"


def test_an_edit_at_a_terminal_is_shown_first_and_asks(table) -> None:
    table("deal", "solo", "--declarer", "Anna", "--tricks", "8")
    table("deal", "pass")
    result = guided(["edit", "1", "--tricks", "9", "--reason", "nine"], "n\n")
    assert result.exit_code == 0, result.output
    for words in ("Deal 1: solo junior Anna 8 → solo junior Anna 9", "before", "after", "change",
                  "Record this correction?", "Nothing corrected."):
        assert words in result.output, words
    assert result.output.index("change") < result.output.index("Record this correction?")
    assert described(table) == "solo junior Anna 8"
    result = guided(["edit", "1", "--tricks", "9", "--reason", "nine", "--yes"], "")
    assert result.exit_code == 0 and "Record this correction?" not in result.output, result.output
    assert described(table) == "solo junior Anna 9"


def test_partner_none_is_taken_on_a_contract_played_alone(table) -> None:
    table("deal", "solo", "--declarer", "Anna", "--partner", "none", "--tricks", "8")
    table("edit", "1", "--partner", "none", "--tricks", "9", "--reason", "nine")
    assert described(table) == "solo junior Anna 9"


# ---- 3. no keystroke loses a typed deal --------------------------------------------------------


def test_ctrl_c_at_a_question_leaves_the_prompt_on_a_line_of_its_own_and_says_nothing_is_recorded(
        monkeypatch, capsys) -> None:
    from boston_ledger.ui import guided as terminal

    def interrupted(text: str) -> str:
        print(text, end="")
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupted)
    with pytest.raises(KeyboardInterrupt):
        terminal.prompt("Contract: ")
    assert capsys.readouterr().out == "Contract: \nNothing recorded.\n"


# ---- 4. misdeal ----------------------------------------------------------------------------


def test_a_misdeal_moves_nothing_and_passes_the_deal(table, tmp_path: Path) -> None:
    out = table("deal", "misdeal").stdout
    assert "misdeal by Anna: Boris deals" in out and "Next: deal 2, dealt by Boris." in out
    table("--lang", "ru", "deal", "промах")
    status = table.json("status")
    assert status["deals"] == 2 and status["dealer"] == "Vera" and status["basket"] == 0
    assert status["stake_due"] is True and set(status["balances"].values()) == {0}
    table("deal", "junior", "--declarer", "Vera", "--partner", "Gleb", "--team-tricks", "9")
    assert table.json("status")["balances"] == {"Anna": -18, "Boris": -18, "Vera": 18, "Gleb": 18}  # staked at 3
    history = table("history").stdout
    assert "misdeal by Boris: Vera deals" in history
    table("export", str(tmp_path / "x"))
    assert [d["result"] for d in csv_rows(tmp_path / "x" / "deals.csv")] == ["misdeal", "misdeal", "made"]
    assert table("check").stdout == ""
    err = table("deal", "misdeal", "--declarer", "Anna", code=2).stderr
    assert "a misdeal is not played; drop --declarer" in err
    help_text = " ".join(table("deal", "--help").stdout.replace("│", " ").split())
    assert "a redeal by the same dealer is not entered" in help_text


def test_a_house_penalty_for_a_misdeal_goes_to_the_basket(cli, tmp_path: Path) -> None:
    path = tmp_path / "fined.toml"
    text = (Path(__file__).resolve().parent.parent / "tariffs" / "classic.toml").read_text(encoding="utf-8")
    path.write_text(text.replace('name = "classic"', 'name = "fined"').replace("misdeal_penalty = 0",
                                                                               "misdeal_penalty = 3"), encoding="utf-8")
    cli("new", *PLAYERS, "--tariff", str(path))
    cli("deal", "misdeal")
    status = cli.json("status")
    assert status["balances"]["Anna"] == -3 and status["basket"] == 3


def test_guided_entry_offers_the_misdeal(table) -> None:
    result = guided(["deal"], "misdeal\n\n")
    assert result.exit_code == 0 and "pass, misdeal)" in result.output, result.output
    assert described(table) == "misdeal by Anna: Boris deals"


# ---- 5. the misère's boston ----------------------------------------------------------------


def boston_moves(cli) -> dict:
    return cli.json("history")[-1]["why"].get("boston", {})


def test_a_failed_misere_s_declarer_pays_the_boston_unless_he_holds_it(table) -> None:
    table("deal", "misere", "--declarer", "Gleb", "--tricks", "1", "--boston", "Gleb")
    assert boston_moves(table) == {}
    table("deal", "misere", "--declarer", "Gleb", "--tricks", "1", "--boston", "Anna")
    assert boston_moves(table) == {"Anna": 2, "Boris": 2, "Vera": 2, "Gleb": -6, "basket": 0}
    table("deal", "misere", "--declarer", "Gleb", "--tricks", "1")  # nobody named: he pays it
    assert boston_moves(table)["Gleb"] == -6
    err = table("deal", "misere", "--declarer", "Gleb", "--tricks", "0", "--boston", "Anna", code=2).stderr
    assert "made pays no boston" in err


def test_guided_entry_asks_the_boston_of_a_failed_misere_only(table) -> None:
    made = guided(["deal"], "misere\n4\n0\n\n")
    assert made.exit_code == 0 and "Who held the boston" not in made.output, made.output
    failed = guided(["deal"], "misere\n4\n2\n4\n\n")
    assert failed.exit_code == 0 and "Who held the boston" in failed.output, failed.output
    assert boston_moves(table) == {}  # Gleb held it himself


# ---- 6. money that adds up -------------------------------------------------------------------


@pytest.fixture
def owed(table) -> None:
    """A settled evening: Boris and Gleb owe, Anna and Vera are owed 1.60 each... (see ledger)."""
    table("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    table("settle")


def test_paid_more_than_is_owed_is_refused_unless_said(table, owed, isolated: Path) -> None:
    books = table.json("ledger")[""]["balances"]
    debtor = min(books, key=lambda n: float(books[n]))
    creditor = max(books, key=lambda n: float(books[n]))
    err = table("paid", debtor, creditor, "100", code=2).stderr
    assert "would turn a debt around" in err and "--yes" in err and table.json("payments") == []
    table("paid", debtor, creditor, "100", "--yes")
    assert len(table.json("payments")) == 1
    result = guided(["paid", creditor, debtor, "500"], "\n")  # at a terminal: asked, no by default
    assert "Record this payment? [y/N]" in result.output and "Nothing recorded." in result.output


def test_the_same_payment_again_within_the_hour_is_doubted(table, owed) -> None:
    books = table.json("ledger")[""]["balances"]
    debtor = min(books, key=lambda n: float(books[n]))
    creditor = max(books, key=lambda n: float(books[n]))
    table("paid", debtor, creditor, "0.10")
    err = table("paid", debtor, creditor, "0.10", code=2).stderr
    assert "already, at" in err and "(payment 1)" in err
    result = guided(["paid", debtor, creditor, "0.10"], "y\n")
    assert result.exit_code == 0 and len(table.json("payments")) == 2, result.output


def test_status_shows_each_player_s_money(table) -> None:
    table("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4")
    out = table("status").stdout
    money_row = next(line for line in out.splitlines() if "money" in line)
    assert [c.strip() for c in money_row.split("│")[1:-1]] == ["money", "-1.80", "1.80", "-1.80", "1.80", ""]
    assert table.json("status")["money"] == {"Anna": "-1.80", "Boris": "1.80", "Vera": "-1.80", "Gleb": "1.80"}
    narrow = CliRunner().invoke(app, ["status"], env={"COLUMNS": "40"}).stdout  # a row still, unboxed
    assert "money  -1.80   1.80  -1.80  1.80" in narrow and "│" not in narrow
    narrower = CliRunner().invoke(app, ["status"], env={"COLUMNS": "30"}).stdout
    assert "money: Anna -1.80, Boris 1.80,\nVera -1.80, Gleb 1.80\n" in narrower  # broken between players only


def test_a_narrow_money_line_breaks_between_players_or_else_between_name_and_money() -> None:
    from boston_ledger.core.tariff_files import load
    from boston_ledger.store.records import Session
    from boston_ledger.ui.deals import money_line

    session = Session(1, None, "", load("classic")._replace(players=2), Decimal("0.10"), "EUR",
                      ("Konstantin-Aleksandrovich-Vladimirov", "Boris"), (1, 2), False)
    assert money_line(session, [-180, 180], 80) == ("money: Konstantin-Aleksandrovich-Vladimirov -1.80 EUR, "
                                                     "Boris 1.80 EUR")
    assert money_line(session, [-180, 180], 40) == ("money:\nKonstantin-Aleksandrovich-Vladimirov\n-1.80 EUR, "
                                                     "Boris 1.80 EUR")
    assert money_line(session, [-180, 180], 20) == ("money:\nKonstantin-Aleksandrovich-Vladimirov\n-1.80 EUR,\n"
                                                     "Boris 1.80 EUR")


def test_money_beside_a_full_basket_says_it_counts_the_basket_shared(table, isolated: Path) -> None:
    """Boris at -2 chips is +1.80 in money while 80 chips wait in the basket: status and the phone
    page say why (settle shares the basket), and say nothing when the basket is empty."""
    def page() -> str:
        return view(isolated).sheet

    note = "Money as if settled now: the basket's 80 chips shared equally."
    table("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--team-tricks", "9")
    assert "Money as if" not in table("status").stdout and "Money as if" not in page()
    table("deal", "pass")
    out = table("status").stdout
    rows = {cells[0]: cells[1:] for line in out.splitlines()
            if len(cells := [c.strip() for c in line.split("│")[1:-1]]) == 6}
    assert rows == {"chips": ["-38", "-2", "-38", "-2", "80"], "money": ["-1.80", "1.80", "-1.80", "1.80", ""]}
    assert out.rstrip().endswith(note) and f"<li>{html.escape(note)}</li>" in page()
    ru = table("--lang", "ru", "status").stdout
    assert "Деньги — как при расчёте сейчас: корзина (80 фишек) делится поровну." in ru
    table("settle", "--yes")  # the settlement says it shared the basket; the money is no longer "as if"
    assert "Money as if" not in table("status").stdout and "Money as if" not in page()


def test_settle_without_a_terminal_says_so_and_the_payments(table) -> None:
    table("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    out = table("settle").stdout
    assert out.startswith("Session 1 is settled.") and "pays Anna" in out


# ---- 7. what a new user tripped over ---------------------------------------------------------


def test_stats_takes_a_name_s_beginning(table) -> None:
    table("deal", "solo", "--declarer", "Boris", "--tricks", "9")
    assert list(table.json("stats", "--player", "bo")["players"]) == ["Boris"]
    assert "did you mean Boris?" in table("stats", "--player", "borsi", code=2).stderr


def test_the_40_column_sheet_keeps_its_heading_parts_whole(cli) -> None:
    cli("new", "Anastasia", "Bogdana", "Valentina", "Gleb", "--name", "Friday at the club")
    for __ in range(2):
        cli("deal", "pass")
    head = cli("sheet").stdout.split("\n\n")[0].splitlines()
    assert all(len(line) <= 40 for line in head)
    assert "2 deals played" in head and "Anastasia, Bogdana, Valentina, Gleb" in head


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_no_boston_hint_fits_80_columns(cli, isolated: Path, lang: str) -> None:
    cli("new", *PLAYERS)
    played(isolated, *[("misdeal",)] * 99)
    hint = cli("--lang", lang, "deal", "solo", "--declarer", "Anna", "--tricks", "8").stdout.splitlines()[-1]
    assert "--boston" in hint and len(hint) <= 80, hint


def test_the_demo_s_name_is_in_the_output_s_language(cli) -> None:
    cli("demo")
    assert "показательный вечер" in cli("--lang", "ru", "sessions").stdout
    assert "demo evening" in cli("sessions").stdout


# ---- the phone corrects the last deal as the terminal does -----------------------------------


def test_the_phone_corrects_the_last_deal_showing_what_changes(table, isolated: Path) -> None:
    from boston_ledger.serve.server import Served
    from serving import ENTRY, VIEW, Form, Phone

    table("deal", "solo", "--declarer", "Anna", "--tricks", "8")
    running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    try:
        phone = Phone(running)
        undo = next(href for href, words in Form(phone.html).links if words == "Take back the last deal")
        phone.status, phone.html = phone.request("GET", undo.replace("&amp;", "&"))
        correct = next(href for href, words in Form(phone.html).links if words == "Correct it instead")
        phone.status, phone.html = phone.request("GET", correct.replace("&amp;", "&"))
        assert phone.status == 200 and "Record this correction" in phone.buttons()
        phone.tap("4) Tricks of Anna").tap("9")  # the one answer changed; the rest kept
        assert "Deal 1: solo junior Anna 8 → solo junior Anna 9" in phone.html
        assert "before" in phone.html and "change" in phone.html
        phone.tap("Record this correction")
        assert "Deal 1 corrected" in phone.html
        assert described(table) == "solo junior Anna 9"
        assert table.json("history", "--corrections")[0]["reason"] == "corrected from the phone"
        stale = phone.request("POST", f"/entry/correct?t={ENTRY}&lang=en", [("number", "7")])
        assert stale[0] == 409 and "no longer the last deal" in stale[1]
    finally:
        running.close()


def test_the_phone_page_says_money_where_in_words_and_what_was_taken_back(table, isolated: Path) -> None:
    def sheet() -> str:
        return view(isolated).sheet

    table("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4")
    page = sheet()
    assert '<span class="money"><span class="down">-1.80</span></span>' in page
    assert "partie 1, tour 1 (simple tour) · dealer Anna" in page and "1.1 ·" not in page
    table("deal", "pass")
    table("undo")
    assert "deal 2 taken back: all pass" in sheet()
    table("edit", "1", "--tricks", "6", "--reason", "six")
    assert "deal 1 corrected: junior Boris 5 + Gleb 4 → junior Boris 6 + Gleb 4" in sheet()
    table("deal", "pass")
    page = sheet()
    assert "deal 1 corrected:" not in page  # a note of the last change only
    assert '<p class="corrected">* deal 1 corrected on ' in page and "six</p>" in page  # the deal stays marked
