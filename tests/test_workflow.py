"""The evening at the table: a new evening while one is open, sessions per table, settling with a
look first, payments and their cancelling, statistics that agree, the command line's conventions,
history as the score sheet and the sheet to share."""

from __future__ import annotations

import json
import re
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import typer.main
from rich.cells import cell_len
from typer.testing import CliRunner

from boston_ledger import __version__
from boston_ledger.cli.declarations import app
from boston_ledger.cli.options import prepare, session_id
from boston_ledger.core import i18n
from conftest import PLAYERS, played
from test_cli import WORKED

GUIDED = {"BOSTON_LEDGER_GUIDED": "1"}  # a person at a terminal (fed answers)
PAIR = ("deal", "junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "5", "--partner-tricks", "3")


def run(*args: str, answers: str = "", env: dict | None = None):
    return CliRunner().invoke(app, list(args), input=answers, env=env)


def sessions_count(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT COUNT(*) FROM sessions").fetchone()[0]


# ---- 6: a new evening while another is open ----------------------------------------------------


def test_new_while_an_evening_is_open_is_refused_without_a_terminal(table, isolated: Path) -> None:
    table(*WORKED[0])
    err = table("new", "W", "X", "Y", "Z", code=2).stderr
    assert err.count("\n") == 1 and "session 1 (Anna, Boris, Vera, Gleb) is open: 1 deal played" in err
    assert "`boston-ledger use 1`" in err and "--yes" in err
    assert sessions_count(isolated) == 1 and table.json("status")["session"] == 1  # nothing written
    out = table("new", "W", "X", "Y", "Z", "--yes").stdout
    assert "Session 2 started" in out and "Session 1 stays open: `boston-ledger use 1`" in out
    assert "BOSTON_LEDGER_SESSION" in out
    assert table.json("status")["session"] == 2


def test_new_asks_nothing_when_the_evening_is_settled_or_empty(table) -> None:
    out = table("new", "W", "X", "Y", "Z").stdout  # session 1 has no deals: nothing is left owing, yet it is open
    assert "Session 2 started" in out and "Session 1 stays open" in out and "`boston-ledger settle --session N`" in out
    assert "Session 1 had no deals: it is closed" in table("settle", "--session", "1").stdout  # so it is closed
    table(*("deal", "pass"))
    table("settle")
    out = table("new", *PLAYERS).stdout  # session 2 is settled
    assert "Session 3 started" in out and "stays open" not in out


def test_new_asks_at_a_terminal_in_either_language(table, isolated: Path) -> None:
    table(*WORKED[0])
    result = run("--lang", "ru", "new", "W", "X", "Y", "Z", answers="н\n", env=GUIDED)
    assert result.exit_code == 0, result.output
    assert "Вечер 1 (Anna, Boris, Vera, Gleb) не закончен: сыграна 1 сдача" in result.output
    assert "Всё равно начать другой вечер?" in result.output and "Ничего не начато" in result.output
    assert sessions_count(isolated) == 1
    result = run("new", "W", "X", "Y", "Z", answers="\n", env=GUIDED)  # Enter: no
    assert result.exit_code == 0 and "[y/N]" in result.output and "Nothing started; session 1 stays open" in \
        result.output
    assert sessions_count(isolated) == 1
    result = run("new", "W", "X", "Y", "Z", answers="maybe\ny\n", env=GUIDED)
    assert result.exit_code == 0 and "answer y or n" in result.output and "Session 2 started" in result.output
    assert sessions_count(isolated) == 2


# ---- 7: sessions per table ---------------------------------------------------------------------


@pytest.fixture
def two_tables(cli):
    """Session 1 (Anna...) and session 2 (W...), the second current; one deal in each."""
    cli("new", *PLAYERS)
    cli("deal", "pass")
    cli("new", "W", "X", "Y", "Z", "--yes")
    cli("deal", "solo", "--declarer", "W", "--tricks", "8", "--session", "2")  # two are open: named
    return cli


def test_session_option_and_environment_choose_the_evening(two_tables, monkeypatch) -> None:
    cli = two_tables
    cli("deal", "pass", "--session", "1")  # the option: into session 1, while 2 is current
    assert cli.json("status", "--session", "1")["deals"] == 2
    assert cli.json("status")["session"] == 2 and cli.json("status")["deals"] == 1
    monkeypatch.setenv("BOSTON_LEDGER_SESSION", "1")  # this terminal plays session 1
    cli("deal", "junior", "--declarer", "Anna", "--tricks", "5")
    status = cli.json("status")
    assert (status["session"], status["deals"]) == (1, 3)
    assert cli.json("status", "--session", "2")["session"] == 2  # the option wins over the environment
    assert len(cli.json("history")) == 3 and len(cli.json("history", "--session", "2")) == 1
    cli("undo")
    assert cli.json("status")["deals"] == 2 and cli.json("status", "--session", "2")["deals"] == 1
    assert cli.json("settle")["deals"] == 2
    assert cli.json("status", "--session", "2")["settled"] is False
    monkeypatch.setenv("BOSTON_LEDGER_SESSION", "7")
    assert "BOSTON_LEDGER_SESSION=7 names no session of this ledger" in cli("status", code=2).stderr
    monkeypatch.setenv("BOSTON_LEDGER_SESSION", "one")
    err = cli("status", code=2).stderr
    assert err.count("\n") == 1 and "BOSTON_LEDGER_SESSION must be a whole number" in err
    assert "--session must be" in cli("status", "--session", "x", code=2).stderr


def test_every_command_on_a_session_takes_the_option(two_tables, tmp_path: Path) -> None:
    cli = two_tables
    group = typer.main.get_command(app)
    on_a_session = {"deal", "edit", "status", "history", "undo", "settle", "check", "reopen", "chart", "export",
                    "sheet", "extend"}
    for name in on_a_session:
        assert "--session" in {o for p in group.commands[name].params for o in p.opts}, name
    assert json.loads(cli("chart", "--json", "--session", "1").stdout) == {
        "Anna": [0, -20], "Boris": [0, -20], "Vera": [0, -20], "Gleb": [0, -20]}
    assert "wrote" in cli("export", str(tmp_path / "one"), "--session", "1").stdout
    assert "all pass" in (tmp_path / "one" / "deals.csv").read_text(encoding="utf-8-sig")
    assert "Anna" in cli("sheet", "--session", "1").stdout and "W" in cli("sheet").stdout
    assert cli("check", "--session", "1").stdout == ""


def test_use_and_new_say_when_the_terminal_still_chooses_another(two_tables, monkeypatch) -> None:
    cli = two_tables
    monkeypatch.setenv("BOSTON_LEDGER_SESSION", "2")
    out = cli("use", "1").stdout
    assert "BOSTON_LEDGER_SESSION=2 in this terminal still chooses session 2" in out
    assert "`export BOSTON_LEDGER_SESSION=1`" in out
    assert cli.json("status")["session"] == 2
    out = cli("new", "P", "Q", "R", "S", "--yes").stdout
    assert "still chooses session 2" in out and "BOSTON_LEDGER_SESSION=3" in out


def test_the_quick_path_takes_the_session_too(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv("BOSTON_LEDGER_SESSION", raising=False)
    for args in (["new", *PLAYERS], ["new", "W", "X", "Y", "Z", "--yes"]):
        cli(*args)

    def quick(*args: str, code: int = 0, **extra: str):  # through the program's main()
        return cli.main(*args, env=extra, code=code)

    quick("deal", "pass", "--session", "1")
    quick("deal", "pass", BOSTON_LEDGER_SESSION="1")
    quick("--session=1", "deal", "pass")
    assert json.loads(quick("--session", "1", "status", "--json").stdout)["deals"] == 3
    assert json.loads(quick("status", "--json", BOSTON_LEDGER_SESSION="1").stdout)["deals"] == 3
    assert json.loads(quick("status", "--json").stdout)["deals"] == 0  # the ledger's current: session 2
    other = tmp_path / "other.db"
    cli("new", *PLAYERS, "--db", str(other))
    assert json.loads(quick("--db", str(other), "status", "--json").stdout)["session"] == 1
    bad = quick("status", code=2, BOSTON_LEDGER_SESSION="x")
    assert bad.stderr.count("\n") == 1 and "BOSTON_LEDGER_SESSION" in bad.stderr


@pytest.mark.parametrize("argv, expected", [
    (["--db", "x.db", "status"], ["status", "--db", "x.db"]),
    (["--session=2", "--db=x.db", "deal", "pass"], ["deal", "pass", "--session=2", "--db=x.db"]),
    (["--lang", "ru", "--session", "3", "history", "--", "x"], ["history", "--session", "3", "--", "x"]),
    (["status", "--session", "1"], ["status", "--session", "1"]),  # after the command: as it is
    (["--help"], ["--help"]), ([], []),
])
def test_options_before_the_command_go_after_it(argv, expected) -> None:
    try:
        assert prepare(argv) == expected
    finally:
        i18n.set_language("en")


def test_the_session_is_chosen_option_first_then_environment() -> None:
    assert session_id("2", {"BOSTON_LEDGER_SESSION": "5"}) == 2
    assert session_id(None, {"BOSTON_LEDGER_SESSION": " 5 "}) == 5
    assert session_id(None, {"BOSTON_LEDGER_SESSION": ""}) is None and session_id(None, {}) is None


# ---- 8: settling -------------------------------------------------------------------------------


def test_settling_an_evening_without_deals_closes_it_with_nothing_to_pay(table, isolated: Path) -> None:
    """An evening nobody will play (a name mistyped, a table that went home) is no longer open."""
    result = run("settle", answers="n\n", env=GUIDED)
    assert "Session 1 has no deals: settling it closes it, with nothing to pay." in result.output
    assert "Nothing recorded." in result.output and table.json("status")["settled"] is False
    assert table("settle").stdout == "Session 1 had no deals: it is closed, with nothing to pay.\n"
    assert table.json("status")["settled"] is True and table.json("sessions")[0]["state"] == "settled"
    with sqlite3.connect(isolated) as conn:
        assert conn.execute("SELECT COUNT(*) FROM settlements").fetchone()[0] == 1


def test_at_a_terminal_the_settlement_is_shown_before_it_is_recorded(table) -> None:
    for args in WORKED:
        table(*args)
    result = run("settle", answers="n\n", env=GUIDED)
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.index("Vera pays Anna 4.00") < out.index("Record this settlement?") < out.index("Nothing recorded.")
    assert table.json("status")["settled"] is False
    result = run("--lang", "ru", "settle", answers="да\n", env=GUIDED)
    assert result.exit_code == 0 and "Записать этот расчёт?" in result.output and "Вечер 1 рассчитан." in result.output
    assert table.json("status")["settled"] is True
    assert "reopen" in run("settle", env=GUIDED).output  # settled already: shown, nothing asked


def test_yes_settles_at_once_and_json_never_asks(table) -> None:
    table(*WORKED[0])
    result = run("settle", "--yes", env=GUIDED)
    assert result.exit_code == 0 and "Record this settlement?" not in result.output
    assert "Settlement of session 1" in result.output
    table("new", *PLAYERS)
    table(*WORKED[0])
    result = run("settle", "--json", env=GUIDED)
    assert result.exit_code == 0 and json.loads(result.stdout)["deals"] == 1


def test_the_settled_messages_mention_reopen(table) -> None:
    table(*WORKED[0])
    table("settle")
    for args in (("deal", "pass"), ("undo",), ("edit", "1", "pass", "--reason", "x")):
        err = table(*args, code=2).stderr
        assert "reopen" in err and err.count("\n") == 1, args
    assert "`boston-ledger reopen`" in table("settle").stdout


def test_a_settlement_shown_then_overtaken_is_not_recorded(tmp_path: Path) -> None:
    from decimal import Decimal

    from boston_ledger.app import deals, sessions
    from boston_ledger.core import engine
    from boston_ledger.core.errors import LedgerError
    from boston_ledger.core.tariff_files import load
    from boston_ledger.store.db import open_db

    conn = open_db(tmp_path / "t.db", create=True)
    sessions.new(conn, PLAYERS, load("classic"), Decimal("1"), "")
    deals.enter(conn, engine.Deal("pass"))
    shown = sessions.settlement(conn)[1]
    deals.enter(conn, engine.Deal("pass"))  # another terminal, meanwhile
    with pytest.raises(LedgerError, match="changed meanwhile"):
        sessions.settle(conn, None, shown.deals)
    assert not deals.current(conn).settled


# ---- 9: payments -------------------------------------------------------------------------------


def test_payments_are_listed_and_a_cancelled_one_no_longer_counts(table, isolated: Path) -> None:
    for args in WORKED:
        table(*args)
    table("settle")
    before = table.json("ledger")
    assert "No payment recorded yet" in table("payments").stdout and table.json("payments") == []
    assert "Recorded payment 1: Vera paid Anna 4.00." in table("paid", "Vera", "Anna", "4.00").stdout
    table("paid", "Boris", "Anna", "1.20")
    listed = table.json("payments")
    assert [(p["id"], p["from"], p["to"], p["amount"], p["currency"], p["cancelled"]) for p in listed] == [
        (1, "Vera", "Anna", "4.00", "", False), (2, "Boris", "Anna", "1.20", "", False)]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT.*", listed[0]["date"])
    paid_off = table.json("ledger")
    out = table("paid", "--cancel", "1").stdout
    assert "Payment 1 cancelled: Vera paid Anna 4.00 no longer counts" in out
    after = table.json("ledger")
    assert after[""]["balances"]["Vera"] == before[""]["balances"]["Vera"] == "-4.00"
    assert after != paid_off and after[""]["balances"]["Boris"] == "0.00"
    listed = table.json("payments")
    assert listed[0]["cancelled"] is True and listed[0]["cancelled_at"] and listed[1]["cancelled"] is False
    assert "cancelled" in table("payments").stdout
    for args, words in ((("paid", "--cancel", "1"), "cancelled already"), (("paid", "--cancel", "9"), "no payment 9"),
                        (("paid", "--cancel", "2", "Vera"), "takes no FROM TO AMOUNT"),
                        (("paid",), "paid needs FROM TO AMOUNT"), (("paid", "--cancel", "x"), "--cancel must be")):
        err = table(*args, code=2).stderr
        assert words in err and err.count("\n") == 1, args
    with sqlite3.connect(isolated) as conn:  # history stays: the payment and its reversing entry
        assert conn.execute("SELECT COUNT(*) FROM payments").fetchone()[0] == 2
        assert conn.execute("SELECT payment_id FROM payment_cancellations").fetchall() == [(1,)]
        for sql in ("DELETE FROM payment_cancellations", "UPDATE payment_cancellations SET payment_id = 2"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                conn.execute(sql)


@pytest.mark.parametrize("minutes_ago, doubted", [(59, True), (61, False)])
def test_the_same_payment_again_is_doubted_within_the_hour(table, isolated: Path, minutes_ago: int,
                                                           doubted: bool) -> None:
    """A payment the ledger holds as made 59 minutes ago, then the same one again: refused in a
    script unless --yes; 61 minutes ago, it is simply recorded. (The earlier one is written with
    the time it was paid at, as the ledger keeps it: no sleeping, no clock.)"""
    for args in WORKED:
        table(*args)
    table("settle")  # Vera owes Anna 4.00
    earlier = (datetime.now(UTC) - timedelta(minutes=minutes_ago)).isoformat(timespec="seconds")
    with sqlite3.connect(isolated) as conn:
        conn.execute("INSERT INTO payments (payer, payee, cents, currency, paid_at)"
                     " VALUES ('Vera', 'Anna', 100, '', ?)", (earlier,))
    conn.close()
    result = table("paid", "Vera", "Anna", "1.00", code=2 if doubted else 0)
    assert len(table.json("payments")) == (1 if doubted else 2)
    if doubted:
        assert result.stderr.count("\n") == 1
        table("paid", "Vera", "Anna", "1.00", "--yes")
        assert len(table.json("payments")) == 2


# ---- 10: stats that agree with themselves ------------------------------------------------------


def test_best_and_worst_partnership_are_never_the_same_pair(table, isolated: Path) -> None:
    played(isolated, *[PAIR[1:], ("junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5",
                                  "--partner-tricks", "3")] * 5)  # two pairs, each made all five: equally successful
    data = table.json("stats")
    assert data["best_partnership"]["players"] == ["Anna", "Vera"] and data["worst_partnership"] is None
    table("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "2", "--partner-tricks", "3")
    data = table.json("stats")
    assert data["best_partnership"]["players"] == ["Anna", "Vera"]
    assert data["worst_partnership"]["players"] == ["Boris", "Gleb"] and data["worst_partnership"]["made"] == 5
    out = " ".join(table("stats").stdout.split())
    assert "least successful partnership: Boris & Gleb, 5 of 6 made (83%)" in out
    assert "(partnerships are ranked from 5 deals together)" in out


def test_a_partnership_needs_five_deals_to_be_ranked() -> None:
    from boston_ledger.app.stats import Partnership, ranked_ends

    few, many, more = Partnership(("A", "B"), 2, 2), Partnership(("C", "D"), 6, 3), Partnership(("A", "C"), 5, 1)
    assert ranked_ends([few, many, more], 5) == (many, more)
    assert ranked_ends([few, many], 5) == (many, None)
    assert ranked_ends([few], 5) == (None, None)
    assert ranked_ends([few, many, more], 2) == (few, more)


def test_the_net_is_the_money_of_the_settled_sessions(table) -> None:
    for args in WORKED:
        table(*args)
    table("settle")
    table("new", *PLAYERS)
    table("deal", "solo", "--declarer", "Anna", "--tricks", "9")  # open: counts in the deals, not the money
    data = table.json("stats")
    anna = data["players"]["Anna"]
    assert anna["money"] == {"": "6.40"} and anna["deals"] == 4 and "net_chips" not in anna
    assert (data["settled_sessions"], data["unsettled_sessions"]) == (1, 1)
    out = " ".join(table("stats").stdout.split())
    assert "net: the money of 1 settled session; 1 session not settled counts in the deals and contracts only" in out


# ---- 11: conventions ---------------------------------------------------------------------------


def test_version_and_short_help(cli) -> None:
    assert cli("--version").stdout == f"boston-ledger {__version__}\n"
    for args in (["-h"], ["status", "-h"], ["tariffs", "-h"], ["tariffs", "show", "-h"]):
        assert "Usage: boston-ledger" in cli(*args).stdout, args


def test_help_shows_real_metavars(cli) -> None:
    group = typer.main.get_command(app)

    def paths(command, prefix=()):
        yield prefix
        for name, sub in getattr(command, "commands", {}).items():
            yield from paths(sub, (*prefix, name))

    for path in paths(group):
        for lang in ("en", "ru"):
            out = cli("--lang", lang, *path, "--help").stdout
            assert not re.search(r"<[a-z\[\]]+>|\{[a-z_]+\}", out), (lang, path, out)
    usage = " ".join(cli("new", "--help").stdout.split())
    assert "Usage: boston-ledger new [OPTIONS] PLAYERS..." in usage
    assert "[FROM] [TO] [AMOUNT]" in cli("paid", "--help").stdout
    assert "--chip-value AMOUNT" in " ".join(cli("new", "--help").stdout.split())


def test_the_tariffs_summary_names_its_subcommands(cli) -> None:
    out = " ".join(cli("--help").stdout.replace("│", " ").split())
    assert "tariffs The tariffs: list the shipped ones, show one's tables, check a file, start your own (list, show, " \
           "check, new)." in out


def test_russian_output_quotes_and_money(cli) -> None:
    ru = ("--lang", "ru")
    cli(*ru, "new", *PLAYERS, "--chip-value", "0.10", "--currency", "RUB", "--name", "Пятница")
    assert "«Пятница»" in cli(*ru, "status").stdout and "фишка 0,10 ₽" in cli(*ru, "status").stdout
    assert "«шлем»" in cli(*ru, "deal", "шлем", code=2).stderr
    assert "'шлем'" in cli("deal", "шлем", code=2).stderr  # English keeps its own quotes
    for args in WORKED:
        cli(*args)
    out = cli(*ru, "settle").stdout
    assert "6,40 ₽" in out and "Vera → Anna: 4,00 ₽" in out and "6.40" not in out
    assert cli.json("settle")["money"]["Anna"] == "6.40"  # JSON stays as it was
    assert "4.00 RUB" in cli("settle").stdout


def test_the_russian_page_and_html_sheet_quote_and_count_money_as_the_terminal_does(cli, isolated: Path,
                                                                                      tmp_path: Path) -> None:
    """«ёлочки», the decimal comma and ₽ on the phone page and in `sheet --html`, as in `status`."""
    from serving import view

    ru = ("--lang", "ru")
    cli(*ru, "new", *PLAYERS, "--chip-value", "0.10", "--currency", "RUB", "--name", "Пятница")
    cli("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4")
    cli(*ru, "sheet", "--html", str(tmp_path / "sheet.html"))
    sheet = (tmp_path / "sheet.html").read_text(encoding="utf-8")
    page = view(isolated, "ru").sheet
    for html in (sheet, page):
        assert "«Пятница»" in html and "фишка = 0,10 ₽" in html and "1,80 ₽" in html
        assert '"Пятница"' not in html and "0.10" not in html and "1.80" not in html and "RUB" not in html


def test_no_russian_text_says_vzyal_a() -> None:
    po = Path(i18n.LOCALE / "ru" / "LC_MESSAGES" / "boston_ledger.po").read_text(encoding="utf-8")
    assert not re.search(r"[а-яё]\([а-яё]{1,3}\)", po)


# ---- 12: history as the score sheet ------------------------------------------------------------


def cells(line: str) -> list[str]:
    """The 'change → standing' cells of a history line, as (change, standing) pairs of text."""
    return re.findall(r"(\S+) → (\S+)", line)


def test_history_shows_change_and_standing_for_everyone_and_the_basket(table) -> None:
    for args in WORKED:
        table(*args)
    table("deal", "solo", "--declarer", "Vera", "--tricks", "8")  # deal 4 ends tour 1
    table("deal", "pass")  # deal 5 opens tour 2
    lines = table("history").stdout.splitlines()
    row = {line.split()[0]: line for line in lines if line.split() and line.split()[0].isdigit()}
    assert cells(row["1"]) == [("-20", "-20"), ("+16", "16"), ("-12", "-12"), ("+16", "16"), ("·", "0")]
    assert cells(row["2"]) == [("-20", "-40"), ("-20", "-4"), ("-20", "-32"), ("-20", "-4"), ("+80", "80")]
    assert cells(row["3"]) == [("+104", "64"), ("-8", "-12"), ("-8", "-40"), ("-8", "-12"), ("-80", "0")]
    headings = [i for i, line in enumerate(lines) if "partie 1, tour" in line]
    assert [lines[i].split()[:4] for i in headings] == [["partie", "1,", "tour", "1"], ["partie", "1,", "tour", "2"]]
    assert set(lines[headings[1] - 1].strip()) == {"─"}  # a rule between the tours
    data = table.json("history")
    for key in ("deal", "partie", "tour", "multiplier", "dealer", "contract", "description", "made", "balances",
                "basket"):
        assert all(key in d for d in data), key
    running = dict.fromkeys(PLAYERS, 0)
    basket = 0
    for d in data:
        assert sum(d["changes"].values()) + d["basket_change"] == 0
        running = {n: running[n] + d["changes"][n] for n in PLAYERS}
        basket += d["basket_change"]
        assert d["balances"] == running and d["basket"] == basket


def test_history_marks_the_double_tours(table, isolated: Path) -> None:
    played(isolated, *[PAIR[1:]] * 33)
    out = table("history", "--last", "3").stdout
    assert "partie 1, tour 8 (simple tour)" in out and "partie 1, tour 9 (double tour ×2)" in out
    assert table.json("history", "--last", "1")[0]["double"] is True


# ---- 13: the sheet -----------------------------------------------------------------------------


def test_the_text_sheet_fits_40_columns_without_escape_codes(table, monkeypatch) -> None:
    monkeypatch.delenv("NO_COLOR")
    monkeypatch.setenv("FORCE_COLOR", "1")
    for args in WORKED:
        table(*args)
    table("deal", "grand-misere-ouvert", "--declarer", "Boris", "--tricks", "2")
    out = table("sheet").stdout
    assert "\x1b" not in out and all(cell_len(line) <= 40 for line in out.splitlines()), out
    assert out.startswith("Session 1 · ") and "Anna, Boris, Vera, Gleb · 4 deals played" in out
    assert "Not settled yet; settled now, it would be:" in " ".join(out.split()) and "pays" in out
    standings = [line.split() for line in out.splitlines() if re.fullmatch(r"[ \d-]+", line)]
    assert standings[:3] == [["-20", "16", "-12", "16", "0"], ["-40", "-4", "-32", "-4", "80"],
                             ["64", "-12", "-40", "-12", "0"]]
    table("settle")
    out = table("--lang", "ru", "sheet").stdout
    assert "Расчёт вечера 1" in out and "Расчёта ещё не было" not in out and "пас" in out
    assert all(cell_len(line) <= 40 for line in out.splitlines()), out


def test_the_html_sheet_is_one_self_contained_page(table, tmp_path: Path) -> None:
    table("settle")  # the table's first evening, without deals: closed
    table("new", "<b>Anna</b>", "Boris", "Vera", "Gleb", "--name", "Friday & co", "--currency", "RUB", "--yes")
    for args in WORKED:
        table(*[a.replace("Anna", "<b>Anna</b>") for a in args])
    table("settle")
    page = tmp_path / "evening.html"
    assert table("sheet", "--html", str(page)).stdout.strip().startswith("wrote")
    html = page.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and '<html lang="en">' in html and html.rstrip().endswith("</html>")
    assert "&lt;b&gt;Anna&lt;/b&gt;" in html and "<b>Anna</b>" not in html and "Friday &amp; co" in html
    assert "<svg" in html and "<style>" in html and "@page { size: A4" in html and 'name="viewport"' in html
    assert not re.search(r"""\b(?:src|href)=|url\(|@import|<script|<link""", html)
    assert set(re.findall(r"https?://[^\s\"'<>]+", html)) <= {"http://www.w3.org/2000/svg"}  # a namespace only
    assert html.count('<tr class="tour">') == 1 and "Vera pays" in html and "4.00 RUB" in html
    assert html.count('<td class="number">') == 3
    table("--lang", "ru", "sheet", "--html", str(page))
    html = page.read_text(encoding="utf-8")
    assert '<html lang="ru">' in html and "4,00 ₽" in html and "Расчёт вечера 2" in html


def test_the_html_sheet_is_written_whole_or_not_at_all(table, tmp_path: Path) -> None:
    table(*WORKED[0])
    err = table("sheet", "--html", str(tmp_path / "missing" / "x.html"), code=2).stderr
    assert err.count("\n") == 1 and "cannot write" in err
    assert list(tmp_path.glob("**/*.tmp")) == []


def test_a_sheet_before_the_first_deal(table, tmp_path: Path) -> None:
    assert "has no deals yet" in table("sheet").stdout
    table("sheet", "--html", str(tmp_path / "x.html"))
    assert "has no deals yet" in (tmp_path / "x.html").read_text(encoding="utf-8")
