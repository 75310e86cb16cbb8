"""Text from outside never drives the terminal: what a tariff file, a ledger or a command line
holds is shown with its control characters as visible escapes (`\\x1b`), by every printing path
(the console and its tables, plain lines, the error guard, JSON); what can be checked (a currency, a
tariff's name) is refused. An OSC 52 sequence (it writes the clipboard) is the example."""

from __future__ import annotations

import io
import json
import sqlite3
from pathlib import Path

import pytest

from boston_ledger.ui import text as shown
from conftest import PLAYERS

CLASSIC = Path(__file__).resolve().parent.parent / "tariffs" / "classic.toml"
OSC52 = "\x1b]52;c;aGVsbG8=\x07"  # sets the clipboard to "hello"
OSC52_TOML = "\\u001b]52;c;aGVsbG8=\\u0007"
RAW = ("\x1b", "\x07", "\x9b", "\u202e", "\x08", "\r")  # what must never reach the terminal as it is


def assert_clean(*outputs: str) -> None:
    for out in outputs:
        for raw in RAW:
            assert raw not in out, (raw, out)


def hostile_tariff(tmp_path: Path) -> Path:
    """classic with an OSC 52 sequence in its title, a note, a contract's key and names, a rank's
    key and a condition's title (its name stays a plain slug: a name is checked, not escaped)."""
    text = f'notes = ["note {OSC52_TOML} \\u202eevil"]\n' + CLASSIC.read_text(encoding="utf-8")
    text = text.replace('title = "Classic Boston (chips, basket, labet)"', f'title = "Classic {OSC52_TOML} Boston"')
    text = text.replace('[ranks.junior]', f'[ranks."r{OSC52_TOML}"]\nnames = ["odd\\u009b2J"]\n\n[ranks.junior]')
    text = text.replace('title = "simple game: every player stakes 4 into the basket at every deal"',
                        f'title = "simple {OSC52_TOML} game"')
    assert f"simple {OSC52_TOML} game" in text
    text += (f'\n[contracts."solo{OSC52_TOML}"]\nnames = ["x\\u001b[2J"]\nranks = ["junior"]\nalone = "solo"\n')
    path = tmp_path / "hostile.toml"
    path.write_text(text, encoding="utf-8")
    return path


def tamper(db: Path, *statements: tuple[str, tuple]) -> None:
    """Change a ledger by hand, as someone with the file could (the append-only triggers dropped)."""
    conn = sqlite3.connect(db)
    for table in ("sessions", "players"):
        conn.execute(f"DROP TRIGGER IF EXISTS {table}_no_update")
    for sql, values in statements:
        conn.execute(sql, values)
    conn.commit()
    conn.close()


# ---- the one function ------------------------------------------------------------------------


def test_visible_escapes_what_a_terminal_obeys() -> None:
    unsafe = [*map(chr, range(0x00, 0x09)), *map(chr, range(0x0B, 0x20)), *map(chr, range(0x7F, 0xA0)),
              "\u061c", "\u200e", "\u200f", "\u2028", "\u2029", *map(chr, range(0x202A, 0x202F)),
              *map(chr, range(0x2066, 0x206A)), "\ud800", "\udcff", "\udfff"]
    assert len(unsafe) == 30 + 1 + 32 + 3 + 2 + 5 + 4 + 3
    for ch in unsafe:
        out = shown.visible(f"a{ch}b")
        assert out == f"a\\{'x' if ord(ch) < 0x100 else 'u'}{ord(ch):0{2 if ord(ch) < 0x100 else 4}x}b", repr(ch)
        assert shown.visible(out) == out  # made visible once and for all
    for fine in ("Anna\tBoris\nVera", "Ёлка 👩‍💻 ½ ★ א", "back\\slash"):
        assert shown.visible(fine) == fine
    assert shown.visible(OSC52) == "\\x1b]52;c;aGVsbG8=\\x07"


def test_the_console_shows_controls_and_keeps_its_own_colours() -> None:
    from rich.table import Table
    from rich.text import Text as RichText

    from boston_ledger.ui.term import Console, Text

    written_to = io.StringIO()
    out = Console(file=written_to, force_terminal=True, color_system="standard", no_color=False)  # rich's escapes
    table = Table("who", "why")
    table.add_row(f"An{OSC52}na", Text(f"styled {OSC52}", style="bold red"))
    out.print(table)
    out.print(f"plain {OSC52}", style="green")
    out.print(Text(f"a Text {OSC52}\u202e", style="bold"))
    out.print(RichText(f"rich's own Text {OSC52}"))  # built without ui.term: made visible at the end
    written = written_to.getvalue()
    assert "\x1b]" not in written and "\x07" not in written and "\u202e" not in written
    assert "\x1b[1;31m" in written and "\x1b[32m" in written and "\x1b[0m" in written  # its colours still there
    assert written.count("\\x1b]52;c;aGVsbG8=\\x07") == 4 and "\\u202e" in written
    assert "\\x1b]52;c;aGVsbG8=" in written.splitlines()[-1]


def test_a_string_is_measured_as_it_is_shown() -> None:
    from rich.table import Table

    from boston_ledger.ui.term import Console, Text

    written = io.StringIO()
    out = Console(file=written, width=80)
    table = Table("name")
    table.add_row(f"x{OSC52}y")
    table.add_row(Text(f"z{OSC52}\u202e"))
    table.add_row("a much longer plain name than that")
    out.print(table)
    lines = written.getvalue().splitlines()
    assert len({len(line) for line in lines}) == 1, lines  # the table's lines all as wide: borders align


def test_json_carries_the_same_data_with_nothing_raw(capsys) -> None:
    data = {"name": f"An{OSC52}na\u202e\x9b\x7f\udcff", "n": 1}
    shown.emit_json(data)
    out = capsys.readouterr().out
    assert_clean(out)
    assert "\x7f" not in out and "\udcff" not in out
    assert json.loads(out) == data


# ---- what is checked -------------------------------------------------------------------------


def test_a_tariff_name_is_a_slug(cli, tmp_path: Path) -> None:
    evil = tmp_path / "evil.toml"
    evil.write_text(CLASSIC.read_text(encoding="utf-8").replace('name = "classic"', f'name = "x{OSC52_TOML}"'),
                    encoding="utf-8")
    for args in (("tariffs", "check", str(evil)), ("tariffs", "show", str(evil)), ("new", *PLAYERS, "--tariff", str(evil))):
        result = cli(*args, code=2)
        assert_clean(result.stdout, result.stderr)
        assert "[tariff] name" in result.stderr and "\\x1b]52" in result.stderr
    for good in ("my-club", "клуб_2", "A1"):
        evil.write_text(CLASSIC.read_text(encoding="utf-8").replace('name = "classic"', f'name = "{good}"'),
                        encoding="utf-8")
        assert "is a valid tariff" in cli("tariffs", "check", str(evil)).stdout
    for bad in ("", "-x", "_x", "a b", "a.b", "x" * 41, "a/b", "~"):
        evil.write_text(CLASSIC.read_text(encoding="utf-8").replace('name = "classic"', f'name = "{bad}"'),
                        encoding="utf-8")
        assert "[tariff] name" in cli("tariffs", "check", str(evil), code=2).stderr, bad


CURRENCIES_REFUSED = ["\x1b[2J", "\udcff", "EU R", "EURO-1", "12", "€€", "$1", "ABCDEFGHI", "\u3164", "E\u200dUR",
                      "\u202eRUB"]


@pytest.mark.parametrize("code", CURRENCIES_REFUSED)
def test_a_currency_is_letters_or_one_sign(cli, isolated: Path, code: str) -> None:
    result = cli("new", *PLAYERS, "--currency", code, code=2)
    assert_clean(result.stdout, result.stderr)
    assert "--currency" in result.stderr
    assert not isolated.exists()  # nothing written, not even a fresh ledger file


@pytest.mark.parametrize("code, kept", [("eur", "EUR"), ("RUB", "RUB"), ("руб", "руб"), ("€", "€"), ("₽", "₽"),
                                        ("$", "$"), ("ABCDEFGH", "ABCDEFGH")])
def test_currencies_that_are_accepted(cli, code: str, kept: str) -> None:
    cli("new", *PLAYERS, "--currency", code)
    assert cli.json("status")["currency"] == kept


def test_a_currency_an_earlier_version_took_still_pays(table, isolated: Path) -> None:
    """'руб.' was accepted before; a ledger holding it can still record a payment in it."""
    table("deal", "solo", "--declarer", "Anna", "--tricks", "8")
    tamper(isolated, ("UPDATE sessions SET currency = 'руб.'", ()))
    table("settle")
    table("paid", "Boris", "Anna", "1", "--currency", "руб.")
    assert "руб." in table.json("ledger")
    for code in ("EUR", "\x1b[2J", "руб"):
        result = table("paid", "Boris", "Anna", "1", "--currency", code, code=2)
        assert_clean(result.stdout, result.stderr)


# ---- every printing path ---------------------------------------------------------------------


def test_a_hostile_tariff_file_is_refused_and_a_stored_one_shown_escaped(cli, tmp_path: Path, isolated: Path) -> None:
    """A tariff file with control characters in its words is refused, each place named (issue 23);
    a ledger that already holds such a tariff (an earlier boston-ledger accepted it) is shown with
    them escaped by every printing path."""
    from decimal import Decimal

    from boston_ledger.app import sessions as sessions_app
    from boston_ledger.core.tariff_files import parse, with_conditions
    from boston_ledger.store.db import open_db

    path = hostile_tariff(tmp_path)
    for args in (("tariffs", "check", str(path)), ("tariffs", "show", str(path)),
                 ("new", *PLAYERS, "--tariff", str(path), "--condition", "simple")):
        result = cli(*args, code=2)
        assert_clean(result.stdout, result.stderr)
        assert "must be plain text" in result.stderr, args
    found = cli("tariffs", "check", str(path), code=2).stderr
    for place in ("[tariff] title:", "top level notes:", "[ranks]: the name", "[contracts]: the name",
                  "[conditions.simple] title:"):
        assert place in found, place
    conn = open_db(isolated, create=True)
    try:
        tariff = with_conditions(parse(path.read_text(encoding="utf-8"), str(path)), ["simple"])
        sessions_app.new(conn, PLAYERS, tariff, Decimal("1"), "")
    finally:
        conn.close()
    outputs = []
    for args in (("status",), ("status", "--json"), ("sessions",), ("sessions", "--json"),
                 ("deal", f"solo{OSC52}", "--declarer", "Anna", "--tricks", "8"),
                 ("deal", "x\x1b[2J", "--declarer", "Boris", "--tricks", "9"), ("history",), ("history", "--json"),
                 ("stats",), ("chart",), ("settle",), ("settle", "--json"), ("ledger",)):
        result = cli(*args)
        assert_clean(result.stdout, result.stderr)
        outputs.append(result.stdout)
    assert "solo\\x1b]52;c;aGVsbG8=\\x07" in outputs[6]  # shown, not dropped: the contract's key
    assert json.loads(outputs[3])[0]["tariff"] == "classic"


def test_an_error_quoting_hostile_text_is_one_escaped_line(table, tmp_path: Path) -> None:
    folder = tmp_path / f"out{OSC52}"
    folder.mkdir()
    (folder / f"notes{OSC52}.txt").write_text("mine")
    (tmp_path / f"dir{OSC52}.toml").mkdir()
    for args in (("status", f"--x{OSC52}"), ("deal", f"junior{OSC52}", "--declarer", "Anna", "--tricks", "5"),
                 ("deal", "solo", "--declarer", OSC52, "--tricks", "8"), ("new", "A", "B", "C", f"D{OSC52}"),
                 ("status", "--db", str(tmp_path / f"no{OSC52}.db")), ("export", str(folder)),
                 ("new", *PLAYERS, "--tariff", str(tmp_path / f"dir{OSC52}.toml")),
                 ("tariffs", "show", f"no{OSC52}such"), ("edit", "1", "pass", "--reason", OSC52)):
        result = table(*args, code=2)
        assert_clean(result.stdout, result.stderr)
        assert result.stderr.count("\n") == 1 and result.stderr.startswith("boston-ledger: error: ")


def test_an_internal_error_is_escaped_too(table, monkeypatch) -> None:
    from boston_ledger.cli import commands

    def broken(**values):
        raise RuntimeError(f"bad {OSC52}\nsecond line")

    monkeypatch.setattr(commands, "sessions", broken)
    result = table("sessions", code=1)
    assert_clean(result.stdout, result.stderr)
    assert result.stderr.count("\n") == 1 and "internal error" in result.stderr and "\\x1b]52" in result.stderr


def test_a_tampered_ledger_is_shown_escaped(table, isolated: Path) -> None:
    """Names, a currency and a tariff's name written into the file by hand (or by an older
    boston-ledger, which did not check them)."""
    table("deal", "junior", "--declarer", "Anna", "--partner", "Boris", "--tricks", "5", "--partner-tricks", "3")
    tamper(isolated, ("UPDATE players SET name = ? WHERE seat = 0", (f"An{OSC52}na",)),
           ("UPDATE players SET name = ? WHERE seat = 1", ("Bo\u202erisX\x9b[2J",)),
           ("UPDATE sessions SET currency = ?, name = ?, tariff_name = ?", ("\x1b[2J", f"ev{OSC52}ening", f"c{OSC52}")),
           ("UPDATE sessions SET tariff_text = replace(tariff_text, 'name = \"classic\"', ?)",
            (f'name = "classic{OSC52_TOML}"',)))
    for args in (("status",), ("status", "--json"), ("history",), ("sessions",), ("stats",), ("chart",),
                 ("deal", "pass"), ("undo",), ("settle",), ("ledger",), ("ledger", "--json"), ("check",),
                 ("use", "1")):
        result = table(*args)
        assert_clean(result.stdout, result.stderr)
    result = table("paid", "Vera", f"An{OSC52}na", "1", "--currency", "EUR", code=2)
    assert_clean(result.stdout, result.stderr)


def test_guided_entry_shows_names_escaped(table, isolated: Path) -> None:
    from typer.testing import CliRunner

    from boston_ledger.cli.declarations import app

    tamper(isolated, ("UPDATE players SET name = ? WHERE seat = 1", (f"Bo{OSC52}ris",)))
    result = CliRunner().invoke(app, ["deal"], input="solo\n2\n\n8\n\nn\ncancel\n",
                                env={"BOSTON_LEDGER_GUIDED": "1"})  # n: the answers listed; cancel: nothing recorded
    assert result.exit_code == 0, result.output
    assert_clean(result.stdout, result.stderr)
    assert "2) Bo\\x1b]52" in result.stdout and "Tricks taken by Bo\\x1b]52" in result.stdout


def test_a_ledger_from_before_the_name_rule_still_opens(table, isolated: Path) -> None:
    """A tariff named 'my club' was accepted before tariff names had to be slugs: a session kept
    with it still plays and shows it; only files read anew are held to the rule."""
    tamper(isolated, ("UPDATE sessions SET tariff_name = 'my club', tariff_text = replace(tariff_text, "
                      "'name = \"classic\"', 'name = \"my club\"')", ()))
    table("deal", "solo", "--declarer", "Anna", "--tricks", "8")
    assert "tariff my club" in table("status").stdout
    assert table.json("rescore", "1", "--condition", "simple")["tariff"].startswith("my club")
