"""What a person sees, held still: every view of a scripted evening (tests/views.py) in English and
Russian, at 40, 60, 80 and 120 columns, with colours and without, and of an evening of four long
names without colours, is the snapshot in tests/snapshots/.

A change to a view that was meant: `python tests/views.py` writes the snapshots anew; look at the
difference (`git diff tests/snapshots`) before committing it."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import views
from boston_ledger.core.tariff_files import load
from conftest import played


# each evening, language, width and colour is in the quick subset (-m "not slow"), the long names
# at 60 and 80 columns (shortened, then whole); every combination of them in the whole suite
QUICK = {("evening", "en", 40, False), ("evening", "ru", 120, True), ("long-names", "en", 60, False),
         ("long-names", "ru", 80, False)}


@pytest.mark.parametrize("evening, lang, width, colour", [
    pytest.param(*snapshot, id=views.name(*snapshot[1:], evening=snapshot[0]).removesuffix(".txt"),
                 marks=() if snapshot in QUICK else pytest.mark.slow)
    for snapshot in views.snapshots()])
def test_the_views_look_as_they_did(evening: str, lang: str, width: int, colour: bool, tmp_path: Path) -> None:
    expected = (views.SNAPSHOTS / views.name(lang, width, colour, evening)).read_text(encoding="utf-8")
    shown = views.capture(lang, width, colour, tmp_path, evening)
    assert shown.splitlines() == expected.splitlines()


def test_no_line_is_wider_than_the_terminal() -> None:
    for evening, lang, width, colour in views.snapshots():
        plain = _plain(views.SNAPSHOTS / views.name(lang, width, colour, evening))
        wide = [line for line in plain.splitlines() if len(line) > width and not line.startswith("$ ")]
        assert not wide, (evening, lang, width, wide[:3])


def test_nothing_is_cut() -> None:
    """rich cuts what does not fit with '…': no view of either evening, at any width, does (but the
    tariff's tables and typer's help, which are drawn otherwise)."""
    for evening, lang, width, colour in views.snapshots():
        shown = _plain(views.SNAPSHOTS / views.name(lang, width, colour, evening)).split("\n$ ")
        drawn_otherwise = ("boston-ledger tariffs show", "boston-ledger deal --help")
        cut = [line for view in shown if not view.startswith(drawn_otherwise)
               for line in view.splitlines()[1:] if "…" in line]
        assert not cut, (evening, lang, width, cut[:3])


def _plain(path: Path) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", path.read_text(encoding="utf-8"))


# ---- real names at real widths, measured ---------------------------------------------------------

LONG = list(views.LONG)


def numbers(text: str) -> list[str]:
    """Every number a view shows, as written ('+16', '-20', '160', '0.50'; Russian's true minus '−20'
    read as '-20')."""
    return re.findall(r"(?<![\w.,])[+-]?\d+(?:[.,]\d+)?(?![\w.,])", text.replace("\u2212", "-"))


def shown_as(name: str, text: str) -> bool:
    """A player is shown: by his whole name (over a column, broken between its words), or by a short
    one that the view's legend gives."""
    return all(re.search(rf"(^|\s){re.escape(word)}(\s|,|$)", text, re.MULTILINE) for word in name.split()) \
        or re.search(rf"^(\S.*?) = {re.escape(name)}(,|$)", text, re.MULTILINE) is not None


def row(label: str, text: str) -> list[str]:
    """The numbers of a table's row, in the order of its columns (a box's lines left out)."""
    line = next(line for line in text.splitlines() if line.strip(" │┃").startswith(label))
    return numbers(line)


@pytest.fixture
def long_evening(cli, isolated: Path):
    """Four names of 17 and 18 characters, six deals with a basket of 160, and two thousand chips
    on the board by the end (the deals recorded undrawn: the tests draw what follows)."""
    cli("new", *LONG, "--chip-value", "0.05", "--currency", "USD")
    played(isolated, ("junior", "--declarer", "Christopher", "--partner", "Richard", "--tricks", "5",
                      "--partner-tricks", "4", "--boston", "Eleanor"), ("pass",), ("pass",),
           ("senior", "--declarer", "Margaret", "--tricks", "7"), ("misere", "--declarer", "Eleanor", "--tricks", "1"),
           ("nine", "--declarer", "Richard", "--tricks", "13"))
    return cli


@pytest.mark.parametrize("width", [60, 80, 120])
def test_history_shows_every_deal_contract_player_and_number(long_evening, monkeypatch, width: int) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    text = long_evening("history").stdout
    deals = long_evening.json("history")
    assert all(len(line) <= width for line in text.splitlines()) and "…" not in text
    for d in deals:
        assert re.search(rf"^\s*{d['deal']}[.\s]", text, re.MULTILINE), d["deal"]
        assert d["description"].split()[0] in text
    shown = numbers(text)
    for d in deals:
        for name in LONG:
            assert str(d["balances"][name]) in shown and f"{d['changes'][name]:+d}".replace("+0", "·") in [*shown, "·"]
        assert str(d["basket"]) in shown
    assert all(shown_as(name, text) for name in LONG)
    if width >= 80:  # the names whole at 80 columns, broken between their words where they must be
        assert all(word in text for name in LONG for word in name.split()) and " = " not in text


@pytest.mark.parametrize("width", [60, 80])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_status_settle_and_a_deal_show_every_player_and_number(long_evening, monkeypatch, width: int,
                                                               lang: str) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    deal = long_evening("--lang", lang, "deal", "solo", "--declarer", "Margaret", "--tricks", "6").stdout
    status = long_evening("--lang", lang, "status").stdout
    settle = long_evening("--lang", lang, "settle", "--yes").stdout
    last, money = long_evening.json("history")[-1], long_evening.json("settle")
    for view in (deal, status, settle):
        assert all(len(line) <= width for line in view.splitlines()) and "…" not in view
        assert all(shown_as(name, view) for name in LONG), view
    for why in last["why"].values():
        assert all(f"{n:+d}" in numbers(deal) for n in why.values() if n)
    standing = [str(last["balances"][name]) for name in LONG] + [str(last["basket"])]
    assert row("balance" if lang == "en" else "итог", deal) == standing  # a column each, in seat order
    assert row("chips" if lang == "en" else "фишки", status) == standing
    assert all(amount.replace(".", "," if lang == "ru" else ".").replace("-", "\u2212" if lang == "ru" else "-")
               in settle for amount in money["money"].values())  # Russian writes the true minus
    assert all(name in settle for name in LONG)  # the settlement names everyone whole: who pays whom


def test_the_sheet_shows_every_player_and_standing(long_evening) -> None:
    """The text sheet is 40 columns wide, for a phone's messenger: names that cannot head a column
    whole are shortened there, with their legend, never cut ('Margar…')."""
    text = long_evening("sheet").stdout
    assert all(len(line) <= 40 for line in text.splitlines()) and "…" not in text
    assert all(shown_as(name, text) for name in LONG)
    for d in long_evening.json("history"):
        assert all(str(n) in numbers(text) for n in d["balances"].values())


def test_eight_letter_names_head_the_sheet_whole(cli) -> None:
    """The review's 'Margar…     Tom Eleanor Richard': a column is as wide as its name needs."""
    cli("new", "Margaret", "Tom", "Eleanor", "Richard")
    cli("deal", "pass")
    header = next(line for line in cli("sheet").stdout.splitlines() if "basket" in line)
    assert header.split() == ["Margaret", "Tom", "Eleanor", "Richard", "basket"]


def test_short_names_are_unique_beginnings_that_find_their_player() -> None:
    from boston_ledger.app.inputs import seat_of
    from boston_ledger.ui.widths import legend, short_names

    assert short_names(LONG, 18) == tuple(LONG)
    assert short_names(LONG, 12) == ("Margaret", "Christopher", "Eleanor", "Richard")  # a word where it fits
    assert short_names(LONG, 6) == ("Margar", "Christ", "Eleano", "Richar")
    assert short_names(["Anna", "Annabel", "Anna Maria Smith", "Anna Maria Jones"], 3) == \
        ("Anna", "Annab", "Anna Maria S", "Anna Maria J")  # longer where it must be to stay unique
    assert short_names(["Алёна Петрова", "Алена Сидорова"], 6) == ("Алёна П", "Алена С")  # ё is е when typed
    assert legend(LONG, short_names(LONG, 12))[0] == "Margaret = Margaret Thompson"
    names = ["Anna", "Annabel", "Anna Maria Smith", "Anna Maria Jones", "Алёна Петрова", "Алена Сидорова", "Zoë"]
    session = SimpleNamespace(players=tuple(names))  # all seat_of reads of a session
    for cells in range(1, 20):
        for seat, short in enumerate(short_names(names, cells)):
            assert names[seat].startswith(short) and seat_of(session, short, None) == seat, (cells, short)


CLASSIC = load("classic")


@given(st.lists(st.text("AaÀàEeЁёЕе\u0301 -", min_size=1, max_size=10), min_size=4, max_size=4),
       st.integers(1, 12))
def test_any_short_name_finds_its_player(typed: list[str], cells: int) -> None:
    """Whatever the names (accents, ё and е, spaces, one the beginning of another), each short
    name is a beginning of its own name that finds that player, and no other, when typed."""
    from boston_ledger.app.inputs import clean_name, seat_of, table_names
    from boston_ledger.core.errors import LedgerError
    from boston_ledger.ui.widths import short_names

    try:
        names = table_names([clean_name(n) for n in typed], CLASSIC)
    except LedgerError:
        assume(False)
        return
    session = SimpleNamespace(players=tuple(names))  # all seat_of reads of a session
    for seat, short in enumerate(short_names(names, cells)):
        assert names[seat].startswith(short) and seat_of(session, short, None) == seat, (names, short)


@pytest.mark.parametrize("width", [40, 60, 80])
def test_the_demo_s_summary_breaks_between_players(cli, monkeypatch, width: int) -> None:
    """'Vera' at the end of a line and '-683' at the start of the next one: never."""
    monkeypatch.setenv("COLUMNS", str(width))
    out = cli("demo").stdout
    players = ("Anna", "Boris", "Vera", "Gleb")
    summaries = re.findall(r"^    deal \d+,.*?(?=^\$ |^$|\Z)", out, re.MULTILINE | re.DOTALL)
    assert len(summaries) > 20
    for summary in summaries:
        lines = summary.rstrip("\n").splitlines()
        assert all(len(line) <= width for line in lines), lines
        assert not any(re.search(rf"\b({'|'.join(players)}|basket)$", line) for line in lines), lines
        assert not any(re.match(r"-?\d+\b", line) for line in lines[1:]), lines


# ---- messages at a terminal ------------------------------------------------------------------------

PROBLEM = ("the classic tariff has no contract 'gm'; use one of junior, senior, solo, nine, misere, grand-misere, "
           "misere-ouvert, grand-misere-ouvert, misdeal or pass")


def test_an_error_is_one_line_but_a_terminal_s_lines_break_between_words(monkeypatch) -> None:
    """The guard's promise, one line on stderr, is kept for whoever reads it as a program; a
    terminal, which would break the line wherever its width falls ('grand-mise' / 're'), gets it
    broken between words to its width, the lines after the first indented."""
    import fcntl
    import io
    import os
    import struct
    import sys
    import termios

    from boston_ledger.cli import guard

    piped = io.StringIO()
    monkeypatch.setattr(sys, "stderr", piped)
    with pytest.raises(SystemExit):
        guard.fail(PROBLEM)
    assert piped.getvalue() == f"boston-ledger: error: {PROBLEM}\n"

    monkeypatch.delenv("COLUMNS")  # the terminal's own width, as it tells it
    master, slave = os.openpty()
    try:
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 40, 0, 0))
        terminal = open(slave, "w", encoding="utf-8", closefd=False)  # noqa: SIM115 - closed below
        monkeypatch.setattr(sys, "stderr", terminal)
        with pytest.raises(SystemExit):
            guard.fail(PROBLEM)
        terminal.close()
        lines = os.read(master, 4096).decode().replace("\r\n", "\n").splitlines()
    finally:
        os.close(master)
        os.close(slave)
    assert len(lines) > 3 and all(len(line) <= 40 for line in lines), lines
    assert all(line.startswith("  ") for line in lines[1:])
    assert " ".join(" ".join(lines).split()) == f"boston-ledger: error: {PROBLEM}"  # not a word broken
    assert "grand-misere-ouvert," in " ".join(lines).split()


def test_guided_questions_break_between_words_at_a_terminal(cli, monkeypatch) -> None:
    """At a terminal 40 cells wide the question about the contract, its choices, the remark on a
    wrong answer and the players' menu are broken between words and choices; the answer is typed
    after the question's last line."""
    from boston_ledger.ui import text

    from conftest import guided

    cli("new", *LONG)
    monkeypatch.setattr(text, "terminal_width", lambda stream: 40)
    out = guided(["deal"], "xyz\ngrand-misere\ncancel\n").output  # (no terminal echoes the answers here)
    assert "Contract (junior, senior, solo, nine,\nmisere, grand-misere, misere-ouvert,\n" \
           "grand-misere-ouvert, pass, misdeal): " in out
    assert "  the classic tariff has no contract\n    'xyz'; use one of junior, senior,\n" \
           "    solo, nine, misere, grand-misere,\n    misere-ouvert, grand-misere-ouvert,\n" \
           "    misdeal or pass\n" in out
    assert "1) Margaret Thompson\n2) Christopher Wilson\n3) Eleanor Fitzgerald\n4) Richard Montgomery\n" in out
    monkeypatch.setattr(text, "terminal_width", lambda stream: None)  # no terminal: a line each
    out = guided(["deal"], "xyz\ngrand-misere\ncancel\n").output
    assert f"  {PROBLEM.replace('gm', 'xyz')}\n" in out
    assert "1) Margaret Thompson  2) Christopher Wilson  3) Eleanor Fitzgerald  4) Richard Montgomery\n" in out


@pytest.mark.parametrize("width", [20, 30])
def test_narrower_than_any_table_the_rows_become_lines(long_evening, monkeypatch, width: int) -> None:
    """Where not even the shortest names make a table fit, a table's rows, and a deal's numbers in
    the history, are said as lines ('balance: Mar 82; Chr -90; ...'): still nothing cut, nothing lost."""
    monkeypatch.setenv("COLUMNS", str(width))
    deal = long_evening("deal", "pass").stdout
    history = long_evening("history").stdout
    undo = long_evening("undo").stdout
    deals = long_evening.json("history")
    for view in (deal, history, undo):
        assert "…" not in view and all(len(line) <= width for line in view.splitlines()), view
    assert all(str(n) in numbers(history) for d in deals for n in d["balances"].values())
    standing = deals[-1]["balances"]
    assert all(str(n) in numbers(undo) for n in standing.values())
    assert all(shown_as(name, view) for name in LONG for view in (deal, history, undo))
