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
