"""The record shows what happened (issue 30, item 5): a corrected deal is marked wherever the
evening is shown, with its reason at hand; a settled evening refuses a correction before anything
is asked; the export keeps the payments made apart from the payments suggested; the settlement
says what was paid since and what is still owed."""

from __future__ import annotations

import tempfile
from decimal import Decimal
from pathlib import Path

from hypothesis import event, given, settings
from hypothesis import strategies as st

from boston_ledger.core.errors import LedgerError
from boston_ledger.serve.server import Served
from boston_ledger.store import read
from conftest import PLAYERS, examples, guided
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
    assert "solo junior Anna\u00a07 — failed *<span" in page  # the dealer's line follows the words
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


# ---- the settlement says what was paid since and what is still owed -------------------------------


def owed(data: dict) -> dict[str, int]:
    """Each person's net of a list of payments (`still_owed`, a book's `payments`), in cents: + owed."""
    net: dict[str, int] = {}
    for p in data:
        cents = round(float(p["amount"]) * 100)
        net[p["from"]] = net.get(p["from"], 0) - cents
        net[p["to"]] = net.get(p["to"], 0) + cents
    return {k: v for k, v in net.items() if v}


def anna_wins(table) -> None:
    """A settled evening: Anna is owed 9.00 (Boris, Vera and Gleb owe 3.00 each)."""
    table("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    table("settle", "--yes")


def test_settle_shows_what_was_paid_since_and_what_is_still_owed(table) -> None:
    anna_wins(table)
    before = table.json("settle")
    assert before["paid_since"] == [] and before["still_owed"] == before["payments"]
    assert "Paid since" not in table("settle").stdout
    table("paid", "Boris", "Anna", "3.00")
    table("paid", "Vera", "Anna", "1.00")
    out = table("settle").stdout
    assert "Boris pays Anna 3.00" in out  # the settlement as it was made stays
    after = out[out.index("Paid since the settlement:"):].splitlines()
    assert after[1].startswith("  Boris paid Anna 3.00 on ") and after[1].endswith("(payment 1)")
    assert after[2].startswith("  Vera paid Anna 1.00 on ") and after[2].endswith("(payment 2)")
    assert after[3] == "Still owed:"
    assert sorted(after[4:]) == ["  Gleb pays Anna 3.00", "  Vera pays Anna 2.00"]
    data = table.json("settle")
    assert [(p["id"], p["from"], p["amount"]) for p in data["paid_since"]] == [(1, "Boris", "3.00"),
                                                                               (2, "Vera", "1.00")]
    assert owed(data["still_owed"]) == {"Anna": 500, "Vera": -200, "Gleb": -300}
    book = table.json("ledger")[""]
    assert owed(book["payments"]) == owed(data["still_owed"]) and book["paid"] == 2
    assert "Money, less 2 payments made: " in table("ledger").stdout


def test_a_cancelled_payment_or_one_in_another_currency_is_not_counted(cli) -> None:
    cli("new", *PLAYERS, "--chip-value", "0.10", "--currency", "EUR")
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    cli("settle", "--yes")
    cli("new", *PLAYERS, "--chip-value", "0.10", "--currency", "RUB")
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    cli("settle", "--yes")
    cli("paid", "Boris", "Anna", "3.00", "--currency", "EUR")
    cli("paid", "--cancel", "1")
    cli("paid", "Gleb", "Anna", "3.00", "--currency", "RUB")
    assert cli.json("settle", "--session", "1")["paid_since"] == []
    assert [p["from"] for p in cli.json("settle", "--session", "2")["paid_since"]] == ["Gleb"]
    assert "Paid since" not in cli("settle", "--session", "1").stdout


def test_a_resettled_evening_counts_what_was_paid_before_it_was_reopened(table) -> None:
    """The review's evening: paid 17.20 of a settlement, reopened, corrected, settled again at
    17.30: still owed 0.10, as `ledger` says."""
    anna_wins(table)
    table("paid", "Boris", "Anna", "3.00")
    table("reopen")
    table("edit", "1", "--tricks", "10", "--reason", "Anna took 10", "--yes")
    shown = guided(["settle"], "y\n")  # the settlement is shown before it is recorded: with the payment
    assert "Boris paid Anna 3.00 on " in shown.stdout
    data = table.json("settle")
    boris = -round(float(data["money"]["Boris"]) * 100)
    assert boris > 300 and owed(data["still_owed"])["Boris"] == -(boris - 300)
    assert owed(table.json("ledger")[""]["payments"]) == owed(data["still_owed"])


def test_payments_go_to_the_earliest_evening_still_owed(table) -> None:
    """Two evenings of the same table, paid late and at once: the first is paid off first, the
    rest goes toward the second; what each still owes adds up to the ledger."""
    anna_wins(table)  # 1: Boris owes Anna 3.00
    table("new", *PLAYERS, "--chip-value", "0.10", "--yes")
    table("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    table("settle", "--yes")  # 2: and 3.00 again
    table("paid", "Boris", "Anna", "4.00")
    first, second = table.json("settle", "--session", "1"), table.json("settle", "--session", "2")
    assert [(p["amount"], p["payment_amount"]) for p in first["paid_since"]] == [("3.00", "4.00")]
    assert [(p["amount"], p["payment_amount"]) for p in second["paid_since"]] == [("1.00", "4.00")]
    assert "Boris" not in owed(first["still_owed"]) and owed(second["still_owed"])["Boris"] == -200
    assert "Boris paid Anna 1.00 of 4.00 on " in table("settle", "--session", "2").stdout
    both = owed(first["still_owed"])
    for k, v in owed(second["still_owed"]).items():
        both[k] = both.get(k, 0) + v
    assert both == owed(table.json("ledger")[""]["payments"])
    # a payment of more than is owed counts toward the latest evening: a debt turned around
    table("paid", "Boris", "Anna", "5.00", "--yes")
    assert owed(table.json("settle", "--session", "2")["still_owed"])["Boris"] == 300
    assert "Boris" not in owed(table.json("settle", "--session", "1")["still_owed"])


def test_the_sheet_and_the_phone_show_what_is_still_owed(table, isolated: Path, tmp_path: Path) -> None:
    from serving import view

    anna_wins(table)
    table("paid", "Gleb", "Anna", "3.00")
    text = table("sheet").stdout
    assert "Paid since the settlement:" in text and "Gleb paid Anna 3.00" in text
    assert "Still owed:" in text and "Gleb pays" not in text[text.index("Still owed:"):]
    table("sheet", "--html", str(tmp_path / "s.html"))
    page = (tmp_path / "s.html").read_text(encoding="utf-8")
    assert "<h3>Paid since the settlement:</h3>" in page and "<h3>Still owed:</h3>" in page
    sheet = view(isolated).sheet
    assert "Paid since the settlement:" in sheet and "Gleb paid Anna 3.00 on " in sheet
    assert sheet.index("Still owed:") < sheet.index("Boris pays Anna 3.00", sheet.index("Still owed:"))


def test_what_is_still_owed_in_russian(table) -> None:
    anna_wins(table)
    table("paid", "Gleb", "Anna", "3.00")
    out = table("--lang", "ru", "settle").stdout
    assert "Оплачено после расчёта:" in out and "Ещё не оплачено:" in out and "(платёж 1)" in out
    assert "за вычетом 1 сделанного платежа" in table("--lang", "ru", "ledger").stdout


# ---- the export: the payments made apart from those suggested -------------------------------------


def csv_rows(path: Path) -> list[dict]:
    import csv

    with path.open(encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def test_the_export_keeps_the_payments_made_apart_from_those_suggested(table, tmp_path: Path) -> None:
    anna_wins(table)
    table("paid", "Boris", "Anna", "3.00")
    table("paid", "Vera", "Anna", "1.00")
    table("paid", "--cancel", "2")
    table("new", "Dasha", "Egor", "Anna", "Boris", "--yes")  # another table: its payments are not this evening's
    table("deal", "solo", "--declarer", "Dasha", "--tricks", "9")
    table("settle", "--yes")
    table("paid", "Egor", "Dasha", "0.50", "--currency", "")
    out = tmp_path / "x"
    table("export", str(out), "--session", "1")
    assert sorted(p.name for p in out.iterdir()) == ["balances.csv", "deals.csv", "payments.csv", "settlement.csv",
                                                     "suggested-payments.csv", "transfers.csv"]
    assert {r["player"]: r["money"] for r in csv_rows(out / "settlement.csv")} == {
        "Anna": "9.00", "Boris": "-3.00", "Vera": "-3.00", "Gleb": "-3.00"}
    suggested = csv_rows(out / "suggested-payments.csv")
    assert sorted((r["from"], r["to"], r["amount"]) for r in suggested) == [
        ("Boris", "Anna", "3.00"), ("Gleb", "Anna", "3.00"), ("Vera", "Anna", "3.00")]
    made = csv_rows(out / "payments.csv")
    recorded = {p["id"]: p for p in table.json("payments")}
    assert list(made[0]) == ["id", "paid_at", "from", "to", "amount", "currency", "cancelled_at",
                             "toward_this_session"]
    assert [(r["id"], r["from"], r["to"], r["amount"], r["toward_this_session"]) for r in made] == [
        ("1", "Boris", "Anna", "3.00", "3.00"), ("2", "Vera", "Anna", "1.00", "0.00")]
    assert made[0]["paid_at"] == recorded[1]["date"] and made[0]["cancelled_at"] == ""
    assert made[1]["cancelled_at"] == recorded[2]["cancelled_at"] and made[1]["cancelled_at"]


def test_an_evening_not_settled_exports_no_payment_files(table, tmp_path: Path) -> None:
    table("deal", "pass")
    table("export", str(tmp_path / "x"))
    assert sorted(p.name for p in (tmp_path / "x").iterdir()) == ["balances.csv", "deals.csv", "transfers.csv"]


# ---- the payments toward each evening add up to the ledger ------------------------------------------

TABLES = [("Anna", "Boris", "Vera", "Gleb"), ("Anna", "Boris", "Vera", "Dasha"), ("Dasha", "Egor", "Anna", "Boris")]
person = st.sampled_from(["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor"])
evening = st.tuples(st.sampled_from(range(len(TABLES))), st.sampled_from(["EUR", "RUB"]),
                    st.one_of(st.just("Anna"), person), st.integers(6, 10))  # Anna often wins: the others owe her
payment = st.tuples(person, st.one_of(st.just("Anna"), person), st.integers(1, 1500), st.sampled_from(["EUR", "RUB"]),
                    st.booleans())
steps = st.lists(st.tuples(evening, st.lists(payment, max_size=3)), min_size=1, max_size=5).map(
    lambda rounds: [op for e, paid in rounds for op in (e, *paid)])  # each evening, then what was paid


@settings(max_examples=examples(40), deadline=None)
@given(steps)
def test_what_each_evening_still_owes_adds_up_to_the_ledger(ops: list) -> None:
    """However evenings and payments (some cancelled, some more than was owed) come in turn, the
    settlements less what was counted toward each add up to `ledger`, per person and currency;
    no part of a payment is counted twice or lost (when somebody it concerns played an evening
    with the other before it)."""
    from boston_ledger.app import deals as deals_app
    from boston_ledger.app import money, sessions
    from boston_ledger.core.engine import Deal
    from boston_ledger.core.tariff_files import load
    from boston_ledger.store.db import open_db

    classic = load("classic")
    with tempfile.TemporaryDirectory() as tmp:
        conn = open_db(Path(tmp) / "t.db", create=True)
        for op in ops:
            if len(op) == 4:  # an evening: one solo, settled
                seats, code, declarer, tricks = op
                names = TABLES[seats]
                if declarer not in names:
                    continue
                sessions.new(conn, list(names), classic, Decimal("0.1"), code)
                deals_app.enter(conn, Deal("solo", names.index(declarer), tricks=tricks))
                sessions.settle(conn)
                continue
            payer, payee, cents, code, cancelled = op
            try:
                done = money.pay(conn, payer, payee, f"{cents / 100:.2f}", code, sure=True)
            except LedgerError:  # nobody of that name yet, the same person, a currency not used
                continue
            if cancelled:
                money.cancel(conn, done.id)
        owed: dict[tuple[str, str], int] = {}
        for s in read.sessions(conn):
            __, settled, paid = sessions.settlement(conn, s.id)
            for name, cents in zip(settled.players, settled.cents if paid is None else paid.cents, strict=True):
                owed[s.currency, name] = owed.get((s.currency, name), 0) + cents
        counted = {p.id: 0 for p in money.payments(conn)}
        for s in read.sessions(conn):
            paid = sessions.settlement(conn, s.id)[2]
            for t in paid.paid if paid is not None else ():
                counted[t.payment.id] += t.cents
                if t.cents != t.payment.cents:
                    event("a payment shared between evenings, or paid over")
        for p in money.payments(conn):
            if p.cancelled_at is not None:
                assert counted[p.id] == 0
            elif counted[p.id]:
                assert counted[p.id] == p.cents  # whole, once, where it was counted at all
                event("a payment counted toward an evening")
            else:  # counted nowhere: the ledger counts it; the evenings can't
                owed[p.currency, p.payer] = owed.get((p.currency, p.payer), 0) + p.cents
                owed[p.currency, p.payee] = owed.get((p.currency, p.payee), 0) - p.cents
        ledger = {(b.currency, n): c for b in money.books(conn) for n, c in zip(b.names, b.cents, strict=True)}
        assert {k: v for k, v in owed.items() if v} == {k: v for k, v in ledger.items() if v}
        conn.close()
