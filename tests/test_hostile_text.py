"""Text from outside never drives a terminal, a browser or a spreadsheet: what a tariff file, a
ledger or a command line holds is shown with its control characters as visible escapes (`\\x1b`),
by every output (the console and its tables, plain lines, the error guard, JSON, the sheet's HTML
file, the SVG chart, the CSV export, the phone's page and API); what can be checked (a currency, a
tariff's name) is refused. An OSC 52 sequence (it writes the clipboard) is the example; a ledger
written by hand (`hostile_ledger`) is run through every command of the command tree."""

from __future__ import annotations

import csv
import html
import io
import json
import re
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from boston_ledger.core.controls import visible
from boston_ledger.ui import text as shown
from conftest import PLAYERS, at_home, sampled

CLASSIC = Path(__file__).resolve().parent.parent / "tariffs" / "classic.toml"
OSC52 = "\x1b]52;c;aGVsbG8=\x07"  # sets the clipboard to "hello"
OSC52_TOML = "\\u001b]52;c;aGVsbG8=\\u0007"
# What must never reach an output as it is, written out here apart from the code's own list
# (core.controls): C0 controls, DEL, C1 controls, the line and paragraph separators, the bidi
# marks, embeddings, overrides and isolates, lone surrogates. A line break and a tab may be an
# output's own layout (`keep`).
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def assert_clean(*outputs: str, keep: str = "\n\t") -> None:
    for out in outputs:
        raw = sorted({c for c in UNSAFE.findall(out) if c not in keep})
        assert not raw, ([f"U+{ord(c):04X}" for c in raw], out)


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


@contextmanager
def by_hand(db: Path) -> Iterator[sqlite3.Connection]:
    """The ledger open to change by hand, as someone with the file could: the append-only triggers
    dropped meanwhile, made again at the end (the schema stays the ledger's)."""
    conn = sqlite3.connect(db)
    try:
        triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
        for name, __ in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        yield conn
        for __, sql in triggers:
            conn.execute(sql)
        conn.commit()
    finally:
        conn.close()


def tamper(db: Path, *statements: tuple[str, tuple]) -> None:
    """Change a ledger by hand (by_hand): these statements."""
    with by_hand(db) as conn:
        for sql, values in statements:
            conn.execute(sql, values)


# ---- the one function ------------------------------------------------------------------------


def test_visible_escapes_what_a_terminal_obeys() -> None:
    unsafe = [*map(chr, range(0x09)), *map(chr, range(0x0B, 0x20)), *map(chr, range(0x7F, 0xA0)),
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
    for args in (("tariffs", "check", str(evil)), ("tariffs", "show", str(evil)),
                 ("new", *PLAYERS, "--tariff", str(evil))):
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


# ---- a hostile ledger through every command and every output -----------------------------------

# Written into the ledger by hand (another tool, an earlier version): NUL, ESC, BEL, CR, LF, DEL, C1,
# U+202E, U+2028, U+2029, and '=', '@', '+' right after a control character (a spreadsheet that
# drops the control character sees a formula: '\x00=1+1' is =1+1 to LibreOffice).
NAMES = ("\x00=1+1", f"{OSC52}Anna", "\r@SUM(1)Bo\u202eris", "\n+Gl\u2028eb\x7f\x9b")
SESSION_NAME = "\x07=HYPERLINK(\"http://x\",\"y\")\u2029ev\u202eening"
CURRENCY = "\x1b[2J€"
REASON = "\x1b[2J+cmd|' /C calc'!A0\r\nreason"
TITLE = "Cl\x1b[2Jassic\r\n=1+1 \u202e\u2028"
NOTE = f"note \x00 {OSC52} \u2029 \u202eevil"
CONTRACT = "so\x1b[31mlo\u2028"  # a contract's key, played by its plain word 'evil'
CONTRACT_WORD = "x\x00@y"
# A name, a session's name, a currency, a reason are one line: as read, every control character
# they hold is written out (LF and TAB too), and that is the name a user types and a button sends.
SHOWN = tuple(visible(n, lines=False) for n in NAMES)
TARIFF_NAME = f"c{OSC52}"
# how the shown texts carry them: each output shows one of these at least (`check` shows nothing)
ESCAPED = ("\\x00=1+1", "\\x1b]52", "\\u202e", "\\u2028", "\\u0000=1+1", "\\u001b]52")


def toml_string(text: str) -> str:
    return json.dumps(text)  # JSON's escapes are TOML's


def _hostile_tariff_text(conn: sqlite3.Connection, session: int) -> None:
    text, = conn.execute("SELECT tariff_text FROM sessions WHERE id = ?", (session,)).fetchone()
    text = re.sub(r'^title = .*$', lambda m: f"title = {toml_string(TITLE)}", text, count=1, flags=re.M)
    text = re.sub(r'^name = "classic"$', lambda m: f"name = {toml_string('classic' + OSC52)}", text, count=1,
                  flags=re.M)
    text = f"notes = [{toml_string(NOTE)}]\n{text}\n[contracts.{toml_string(CONTRACT)}]\n" \
           f'names = ["evil", {toml_string(CONTRACT_WORD)}]\nranks = ["junior", "senior"]\n' \
           'default_rank = "junior"\nalone = "solo"\n'
    conn.execute("UPDATE sessions SET tariff_text = ?, tariff_name = ? WHERE id = ?", (text, TARIFF_NAME, session))


def _hostile_names(conn: sqlite3.Connection) -> None:
    """Every player's name, where the ledger keeps it (seats, payments, settlements), the sessions'
    names and currency, the corrections' reasons."""
    swap = dict(zip(PLAYERS, NAMES, strict=True))

    def deep(value):
        if isinstance(value, str):
            return swap.get(value, value)
        if isinstance(value, dict):
            return {deep(k): deep(v) for k, v in value.items()}
        return [deep(v) for v in value] if isinstance(value, list) else value

    for seat, name in enumerate(NAMES):
        conn.execute("UPDATE players SET name = ? WHERE seat = ?", (name, seat))
    for payment, payer, payee in conn.execute("SELECT id, payer, payee FROM payments").fetchall():
        conn.execute("UPDATE payments SET payer = ?, payee = ? WHERE id = ?", (swap[payer], swap[payee], payment))
    for settlement, result in conn.execute("SELECT id, result FROM settlements").fetchall():
        conn.execute("UPDATE settlements SET result = ? WHERE id = ?",
                     (json.dumps(deep(json.loads(result)), ensure_ascii=False), settlement))
    conn.execute("UPDATE sessions SET name = ?, currency = ?", (SESSION_NAME, CURRENCY))
    conn.execute("UPDATE corrections SET reason = ?", (REASON,))


@pytest.fixture(scope="session")
def hostile_ledger(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """Two sessions played at the command line, then written over by hand: session 1 settled and
    paid, with a deal taken back and one corrected; session 2 current, open, one deal corrected.
    Each session's stored tariff has a hostile title, note, name and contract, played."""
    from typer.testing import CliRunner

    from boston_ledger.cli.declarations import app
    from boston_ledger.core import i18n

    home = tmp_path_factory.mktemp("hostile")
    db = home / "ledger.db"
    env = at_home(home)

    def run(*args: str) -> None:
        done = CliRunner().invoke(app, list(args), env=env, catch_exceptions=False)
        assert done.exit_code == 0, (args, done.stdout, done.stderr)

    for session, deals in ((1, [("deal", "evil", "--declarer", "Anna", "--tricks", "8"),
                                ("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5",
                                 "--partner-tricks", "3"),
                                ("deal", "pass"), ("deal", "misere", "--declarer", "Vera", "--tricks", "0"),
                                ("edit", "2", "--tricks", "6", "--reason", "Boris took 6"), ("undo",),
                                ("settle", "--yes"), ("paid", "Boris", "Anna", "0.80")]),
                           (2, [("deal", "evil", "--declarer", "Vera", "--tricks", "6"),
                                ("deal", "junior", "--declarer", "Anna", "--partner", "Vera", "--tricks", "5",
                                 "--partner-tricks", "3"),
                                ("edit", "1", "--tricks", "8", "--reason", "Vera took 8")])):
        run("new", *PLAYERS, "--chip-value", "0.10", "--currency", "EUR")
        with by_hand(db) as conn:
            _hostile_tariff_text(conn, session)
        for args in deals:
            run(*args)
    with by_hand(db) as conn:
        _hostile_names(conn)
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    i18n.set_language("en")
    return db.read_bytes()


@pytest.fixture
def hostile(cli, isolated: Path, hostile_ledger: bytes):
    """A copy of the hostile ledger as this test's ledger."""
    isolated.write_bytes(hostile_ledger)
    isolated.chmod(0o600)
    return cli


def command_tree() -> dict[str, object]:
    """Every command of the program, by its words ('tariffs show'), as typer declares them."""
    import typer

    from boston_ledger.cli.declarations import app

    found: dict[str, object] = {}

    def walk(group, words: str) -> None:
        for name, command in group.commands.items():
            if hasattr(command, "commands"):  # a group (typer's own click: not click.Group)
                walk(command, f"{words}{name} ")
            else:
                found[words + name] = command

    walk(typer.main.get_command(app), "")
    return found


# The commands that read the ledger, each with the ways it is run ({dir}: a folder of the test's);
# each way runs for session 1 and session 2 where the command takes --session, and again with
# --json where it has it (but where it writes a file).
READING: dict[str, list[tuple[str, ...]]] = {
    "status": [()],
    "history": [(), ("--corrections",), ("--all",)],
    "settle": [()],  # session 1: its settlement shown; session 2: settled now
    "check": [(), ("--all",)],
    "sessions": [(), ("--all",)],
    "stats": [()],
    "ledger": [()],
    "payments": [()],
    "chart": [(), ("--svg", "{dir}/chart.svg"), ("--svg", "-")],
    "sheet": [(), ("--html", "{dir}/sheet.html"), ("--html", "-")],
    "rescore": [("1", "--condition", "simple"), ("2", "--condition", "simple")],
    "export": [("{dir}/export",)],
}
# The commands that write, in an order in which each does its work: session 2 played on (named: session 1
# is open again meanwhile)
WRITING: list[tuple[str, ...]] = [
    ("use", "1"), ("reopen", "--session", "1"), ("use", "2"),
    ("deal", "evil", "--declarer", SHOWN[0], "--tricks", "8", "--session", "2"),
    ("deal", "junior", "--declarer", SHOWN[2], "--partner", SHOWN[3], "--tricks", "5", "--partner-tricks", "3",
     "--session", "2"),
    ("edit", "3", "--tricks", "9", "--reason", "took 9", "--session", "2"),
    ("seat", SHOWN[1], "Dasha", "--own", "--session", "2"), ("undo", "--session", "2"),
    ("seat", SHOWN[3], "Dasha", "--session", "2"), ("undo", "--session", "2"), ("undo", "--session", "2"),
    ("settle", "--yes", "--session", "2"), ("paid", SHOWN[1], SHOWN[0], "0.10"), ("paid", "--cancel", "2"),
]
# The commands that read no ledger, or are run over it elsewhere
ELSEWHERE = {
    "new": "names typed are checked (test_names.py), a tariff file's words too (test_tariff_words.py)",
    "demo": "plays its own evening",
    "extend": "shows numbers, and the session's title as the deals of WRITING show it (others being open)",
    "serve": "the phone's pages and API: test_the_phone_shows_the_hostile_ledger_escaped",
    "tariffs list": "the shipped tariffs",
    "tariffs show": "a shipped tariff or a file, never a session's stored one; a file is checked",
    "tariffs check": "a file, checked: test_tariff_words.py",
    "tariffs new": "a file made from a shipped one or a checked file",
    "import": "the hostile ledger imported into a fresh one: test_an_imported_hostile_ledger_is_shown_escaped",
}


def reading_runs() -> list[tuple[str, ...]]:
    runs = []
    tree = command_tree()
    for name, ways in READING.items():
        options = {o for p in tree[name].params for o in getattr(p, "opts", ())}  # type: ignore[attr-defined]
        sessions = [("--session", "1"), ("--session", "2")] if "--session" in options else [()]
        for way in ways:
            writes = any("{dir}" in a or a == "-" for a in way)
            for chosen in sessions:
                runs.append((*name.split(), *way, *chosen))
                if "--json" in options and not writes:
                    runs.append((*name.split(), *way, "--json", *chosen))
    return runs


def test_every_command_is_run_over_the_hostile_ledger() -> None:
    """A new command is added to READING, WRITING or ELSEWHERE, or this fails."""
    assert set(command_tree()) == set(READING) | {w[0] for w in WRITING} | set(ELSEWHERE)


def assert_json(text: str) -> None:
    """JSON with nothing raw but its own line breaks, that reads back."""
    assert_clean(text, keep="\n")
    json.loads(text)


def assert_csv(path: Path) -> None:
    """A CSV file with no control character but its line ends, and no cell a spreadsheet would
    run: nothing starts with = + - @ (a tab or CR cannot: they are written out) but a number."""
    text = path.read_bytes().decode("utf-8-sig")
    assert_clean(text.replace("\r\n", ""), keep="")
    for row in csv.reader(io.StringIO(text, newline="")):
        for cell in row:
            assert not cell.startswith(("=", "+", "-", "@")) or re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", cell), (path, cell)


def assert_file(path: Path) -> str:
    """A file written for people: as its kind requires; its text."""
    if path.suffix == ".csv":
        assert_csv(path)
    else:
        assert_clean(path.read_text(encoding="utf-8"))
    return path.read_text(encoding="utf-8-sig")


@pytest.mark.parametrize("args", sampled(reading_runs(), 4), ids=" ".join)
def test_every_reading_command_shows_the_hostile_ledger_escaped(hostile, tmp_path: Path, args: tuple[str, ...]) -> None:
    out = tmp_path / "out"  # beside the ledger
    out.mkdir()
    args = tuple(a.replace("{dir}", str(out)) for a in args)
    result = hostile(*args)
    assert_clean(result.stdout, result.stderr)
    if "--json" in args:
        assert_json(result.stdout)
    written = [assert_file(f) for f in sorted(out.rglob("*")) if f.is_file()]
    assert written or not any(str(out) in a for a in args)
    if args[0] != "check":  # which says nothing when all holds
        said = result.stdout + result.stderr + "".join(written)
        assert any(mark in said for mark in ESCAPED), said  # the hostile text was there to be shown


def test_every_writing_command_shows_the_hostile_ledger_escaped(hostile) -> None:
    for args in WRITING:
        result = hostile(*args)
        assert_clean(result.stdout, result.stderr)
    result = hostile("status")  # session 1 is open again beside the current one: named on stderr, escaped
    assert_clean(result.stdout, result.stderr)
    assert "also open: session 1 " in result.stderr
    result = hostile("paid", NAMES[2], NAMES[0], "1", "--currency", "EUR", code=2)  # refused, quoting them
    assert_clean(result.stdout, result.stderr)
    assert hostile("check", "--all").stdout == ""


def test_json_gives_the_hostile_text_back_as_read(hostile) -> None:
    status = hostile.json("status")
    assert list(status["balances"]) == list(SHOWN) and status["currency"] == visible(CURRENCY, lines=False)
    assert {s["name"] for s in hostile.json("sessions")} == {visible(SESSION_NAME, lines=False)}
    assert {c["reason"] for c in hostile.json("history", "--corrections", "--session", "1")} == \
        {visible(REASON, lines=False)}
    assert {d["contract"] for d in hostile.json("history", "--session", "2")} == {CONTRACT, "junior"}


def test_the_sheet_s_file_and_its_standard_output_are_the_same(hostile, tmp_path: Path) -> None:
    hostile("sheet", "--html", str(tmp_path / "sheet.html"))
    page = (tmp_path / "sheet.html").read_text(encoding="utf-8")
    assert page == hostile("sheet", "--html", "-").stdout
    for name in SHOWN:
        assert html.escape(name) in page  # '\\x00=1+1', '\\x0d@SUM(1)Bo\\u202eris', '\\x0a+Gl...', ...


def test_the_export_writes_control_characters_out_before_its_formula_guard(hostile, tmp_path: Path) -> None:
    hostile("export", str(tmp_path / "out"), "--session", "1")
    with (tmp_path / "out" / "balances.csv").open(encoding="utf-8-sig", newline="") as f:
        header = next(csv.reader(f))
    assert header[1:5] == ["\\x00=1+1", "\\x1b]52;c;aGVsbG8=\\x07Anna", "\\x0d@SUM(1)Bo\\u202eris",
                           "\\x0a+Gl\\u2028eb\\x7f\\x9b"]
    with (tmp_path / "out" / "corrections.csv").open(encoding="utf-8-sig", newline="") as f:
        assert list(csv.reader(f))[1][2] == "\\x1b[2J+cmd|' /C calc'!A0\\x0d\\x0areason"


def test_the_phone_shows_the_hostile_ledger_escaped(hostile, isolated: Path) -> None:
    """The page, its API and its event stream, for the settled session and the open one, in English
    and Russian; the entry pages (`serve --entry`): a question, a refused answer, a deal recorded,
    the undo page."""
    from boston_ledger.serve.server import Served
    from serving import ENTRY, VIEW, Events, Phone, get

    for session in (1, 2):
        running = Served(isolated, session, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
        try:
            for lang in ("en", "ru"):
                page = get(running.port, f"/?t={VIEW}&lang={lang}")[2].decode()
                assert_clean(page)
                assert "\\x00=1+1" in page and "\\x1b]52" in page
                for api in ("/api/status?", "/api/history?", "/api/history?all=1&"):
                    assert_json(get(running.port, f"{api}t={VIEW}&lang={lang}")[2].decode())
                stream = Events(running.port, f"/events?t={VIEW}&lang={lang}")
                try:
                    assert_clean(stream.next()[1])
                finally:
                    stream.close()
            if session == 2:
                phone = Phone(running)
                # a name's button answers with the name as shown, which is the name as read: taken
                pages = [phone.html, phone.tap("solo").html, phone.tap(SHOWN[1]).html]
                assert phone.question() == "Rank"
                phone = Phone(running)
                pages += [phone.tap("pass").html, phone.tap("Record this deal").html]
                pages.append(phone.request("GET", f"/entry/undo?t={ENTRY}&lang=ru")[1])
                assert_clean(*pages)
                assert all("\\x07=HYPERLINK(" in page for page in pages)  # the session's name heads each
        finally:
            running.close()


SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


@pytest.mark.slow
@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed (Debian: libreoffice-calc-nogui)")
def test_libreoffice_runs_no_formula_of_the_hostile_ledger(hostile, tmp_path: Path) -> None:
    """LibreOffice opens every file of both sessions' exports: no cell is a formula, and every text
    cell shows what the file holds (the control characters written out)."""
    import subprocess

    from test_spreadsheet import spreadsheet_cells

    files = []
    for session in ("1", "2"):
        hostile("export", str(tmp_path / session), "--session", session)
        for path in sorted((tmp_path / session).iterdir()):
            files.append(path.rename(tmp_path / f"s{session}-{path.name}"))
    converted = tmp_path / "converted"
    done = subprocess.run(
        [SOFFICE, "--headless", f"-env:UserInstallation=file://{tmp_path / 'profile'}",
         "--infilter=CSV:44,34,76,1", "--convert-to", "fods", "--outdir", str(converted), *map(str, files)],
        capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr
    strings = 0
    for path in files:
        with path.open(encoding="utf-8-sig", newline="") as f:
            written = list(csv.reader(f))
        sheet = spreadsheet_cells(converted / path.with_suffix(".fods").name)
        assert len(sheet) == len(written), path.name
        for ours, theirs in zip(written, sheet, strict=True):
            # the sheet drops a row's empty cells at its end: theirs may be the shorter
            for value, (kind, text, formula) in zip(ours, theirs, strict=False):
                assert formula is None, (path.name, value, formula)
                if kind == "string":
                    assert text == value, (path.name, value, text)
                    strings += 1
    assert strings > 50


def test_an_imported_hostile_ledger_is_shown_escaped(cli, tmp_path: Path, hostile_ledger: bytes) -> None:
    """`import` of the hostile ledger, --dry-run and for real, then --list, and what the imported
    evenings show: escaped everywhere."""
    other, here = tmp_path / "other.db", tmp_path / "here.db"
    other.write_bytes(hostile_ledger)
    cli("new", "Anna", "Boris", "Vera", "Gleb", "--db", str(here))
    for args in (("--dry-run",), ()):
        result = cli("import", str(other), *args, "--db", str(here))
        assert_clean(result.stdout, result.stderr)
        assert any(mark in result.stdout for mark in ESCAPED), result.stdout
    listed = cli("import", "--list", "--db", str(here))
    assert_clean(listed.stdout, listed.stderr)
    for args in (("sessions", "--all"), ("ledger",), ("history", "--session", "2")):
        result = cli(*args, "--db", str(here))
        assert_clean(result.stdout, result.stderr)
