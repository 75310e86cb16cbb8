"""The record shows what happened (issue 30, item 5): a corrected deal is marked wherever the
evening is shown, with its reason at hand; a settled evening refuses a correction before anything
is asked; the export keeps the payments made apart from the payments suggested; the settlement
says what was paid since and what is still owed."""

from __future__ import annotations

from pathlib import Path

from boston_ledger.serve.server import Served
from conftest import PLAYERS, guided
from serving import ENTRY, VIEW, Phone

REOPEN = "session 1 is settled; `boston-ledger reopen` it first to correct a deal"


def settled_evening(table) -> None:
    table("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    table("deal", "pass")
    table("settle", "--yes")


# ---- a settled evening: reopen it first, before anything is asked --------------------------------


def test_edit_of_a_settled_evening_asks_nothing_at_a_terminal(table) -> None:
    settled_evening(table)
    for args in (["edit", "1", "--boston", "vera"], ["edit", "1"], ["edit", "1", "--tricks", "8", "--yes"]):
        done = guided(args, "y\nVera had the jack\n")
        assert done.exit_code == 2, done.output
        assert REOPEN in done.stderr and done.stderr.count("\n") == 1
        assert done.stdout == ""  # no deal shown, no question, no reason asked
    assert table.json("history", "--corrections") == []


def test_edit_of_a_settled_evening_without_a_terminal_says_reopen_not_reason(table) -> None:
    settled_evening(table)
    err = table("edit", "1", "--tricks", "8", code=2).stderr  # no --reason: the settlement is what stops it
    assert REOPEN in err
    err = table("edit", "1", "--tricks", "8", "--reason", "eight", code=2).stderr
    assert REOPEN in err


def test_the_phone_correction_page_of_a_settled_evening_says_reopen(table, isolated: Path) -> None:
    settled_evening(table)
    running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    try:
        phone = Phone(running)
        phone.status, phone.html = phone.request("GET", f"/entry/correct?t={ENTRY}&number=2")
        assert REOPEN in phone.html
        assert "Record this correction" not in phone.buttons() and "pass" not in phone.buttons()
    finally:
        running.close()
    assert table.json("history", "--corrections") == []


def test_a_reopened_evening_is_corrected_as_before(table) -> None:
    settled_evening(table)
    table("reopen")
    done = guided(["edit", "1", "--tricks", "8"], "y\nAnna took 8\n")
    assert done.exit_code == 0, done.output
    assert [c["reason"] for c in table.json("history", "--corrections")] == ["Anna took 8"]
    assert PLAYERS[0] in done.stdout


# ---- a corrected deal is marked, its reason at hand ----------------------------------------------


def corrected_evening(table) -> None:
    """Deal 1 corrected twice, deal 2 once; deal 3 only replayed by those corrections; deal 4
    corrected, then taken back and entered again."""
    table("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    table("deal", "pass")
    table("deal", "senior", "--declarer", "Vera", "--tricks", "6")
    table("edit", "1", "--tricks", "8", "--reason", "Anna took 8, not 9")
    table("edit", "1", "--tricks", "7", "--reason", "no: 7")
    table("edit", "2", "misdeal", "--reason", "it was a misdeal")
    table("deal", "junior", "--declarer", "Boris", "--tricks", "6")
    table("edit", "4", "--tricks", "5", "--reason", "five")
    table("undo")
    table("deal", "junior", "--declarer", "Boris", "--tricks", "5")


def test_history_marks_the_corrected_deals_and_says_why(table) -> None:
    corrected_evening(table)
    lines = table("history").stdout.splitlines()
    deal = {n: next(line for line in lines if line.startswith(f"{n} ")) for n in (1, 2, 3, 4)}
    assert "solo junior Anna 7 — failed *" in deal[1] and "misdeal by Boris: Vera deals *" in deal[2]
    assert "*" not in deal[3] and "*" not in deal[4]  # replayed; entered again after an undo
    legend = [line for line in lines if line.startswith("* ")]
    assert len(legend) == 2
    assert legend[0].startswith("* deal 1 corrected on ") and legend[0].endswith(": no: 7")
    assert legend[1].startswith("* deal 2 corrected on ") and legend[1].endswith(": it was a misdeal")
    assert lines[lines.index(legend[-1]) + 1] == \
        "`boston-ledger history --corrections` shows each corrected deal as it was before."
    data = table.json("history")
    assert [d["corrected"] and d["corrected"]["reason"] for d in data] == ["no: 7", "it was a misdeal", None, None]
    assert data[0]["corrected"]["corrected_at"] == table.json("history", "--corrections")[1]["corrected_at"]
    assert "*" not in data[0]["description"]  # the words stay the deal's; the mark is the view's
    # only the deals shown are explained
    last = table("history", "--last", "2").stdout
    assert "* deal" not in last and "*" not in last.replace("history --corrections", "")


def test_an_evening_without_corrections_shows_no_mark(table) -> None:
    table("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    assert "*" not in table("history").stdout and "*" not in table("sheet").stdout
    assert table.json("history")[0]["corrected"] is None


def test_the_sheet_marks_the_corrected_deals_text_and_html(table, tmp_path: Path) -> None:
    corrected_evening(table)
    text = table("sheet").stdout
    assert "1. solo junior Anna 7 — failed *" in text and "3. senior Vera 6 alone — made\n" in text
    assert "* deal 1 corrected on" in text and "no: 7" in text and "it was a misdeal" in text
    assert text.index("* deal 1") < text.index("Settlement")  # under the deals, before the settlement
    table("sheet", "--html", str(tmp_path / "s.html"))
    page = (tmp_path / "s.html").read_text(encoding="utf-8")
    assert "solo junior Anna 7 — failed *<span" in page  # the dealer's line follows the words
    assert '<ul class="corrected"><li>* deal 1 corrected on' in page and "it was a misdeal</li>" in page


def test_the_phone_marks_the_corrected_deals(table, isolated: Path) -> None:
    from serving import view

    corrected_evening(table)
    sheet = view(isolated).sheet
    assert '<p class="corrected">* deal 2 corrected on' in sheet and "it was a misdeal</p>" in sheet
    assert sheet.count('<p class="corrected">') == 2
    assert "no: 7</p>" in sheet


def test_the_marks_in_russian(table) -> None:
    corrected_evening(table)
    out = table("--lang", "ru", "history").stdout
    assert "* сдача 1 исправлена " in out and "no: 7" in out
    assert "history --corrections` показывает" in out
