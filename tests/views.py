"""The views of a scripted evening as a person sees them, for the snapshot tests (test_views.py):
every command that shows something, run in-process on a fixed evening at a fixed moment, in one
language, at one terminal width, with colours or without. A second evening is played by four
ordinary full names (17 and 18 characters), without colours: the widths at which a name must
give way.

    python tests/views.py           # writes tests/snapshots/*.txt anew (after a change you meant)
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
LANGUAGES = ("en", "ru")
WIDTHS = (40, 60, 80, 120)
COLOURS = (False, True)
LONG = ("Margaret Thompson", "Christopher Wilson", "Eleanor Fitzgerald", "Richard Montgomery")
MOMENT = "2026-11-27T19:30:00+00:00"

# (what is run, whether its output is a view to keep): the evening, then every view of it; a deal
# whose output is not kept is recorded through the app layer, as `deal` records it, undrawn
SCRIPT: list[tuple[tuple[str, ...], bool]] = [
    (("new", "Anna", "Boris", "Vera", "Gleb", "--chip-value", "0.10", "--currency", "EUR", "--name", "Friday"), True),
    (("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4",
      "--boston", "Vera"), True),
    (("deal", "pass"), True),
    (("deal", "senior", "--declarer", "Anna", "--tricks", "6"), True),
    (("deal", "solo", "--declarer", "Vera", "--tricks", "7", "--rank", "senior"), True),
    (("deal", "misere", "--declarer", "Gleb", "--tricks", "1"), True),
    *[((("deal", "junior", "--declarer", ("Anna", "Boris", "Vera", "Gleb")[n % 4], "--partner",
         ("Vera", "Gleb", "Anna", "Boris")[n % 4], "--tricks", str(4 + n % 3), "--partner-tricks", str(2 + n % 4)),
        False)) for n in range(26)],
    (("deal", "nine", "--declarer", "Boris", "--tricks", "13"), True),  # the double tours begin at deal 33
    (("deal", "junior", "--declarer", "Gleb", "--partner", "Anna", "--team-tricks", "9"), True),
    (("deal", "solo", "--declarer", "Anna", "--tricks", "9"), False),
    (("undo",), True),
    (("edit", "3", "--tricks", "7", "--reason", "Anna took 7, not 6"), True),
    (("status",), True),
    (("history",), True),
    (("history", "--corrections"), True),
    (("chart",), True),
    (("rescore", "1", "--tariff", "fontainebleau"), True),
    (("sheet",), True),
    (("settle", "--yes"), True),
    (("new", "Dasha", "Egor", "Zhenya", "Zoya", "--tariff", "samouchitel", "--deals", "4", "--chip-value", "0.05"),
     True),
    (("deal", "6", "--declarer", "Dasha", "--partner", "Egor", "--tricks", "6", "--partner-tricks", "4", "--rank",
      "first"), True),
    (("deal", "small-null", "--declarer", "Zoya", "--tricks", "1"), True),
    (("status",), True),
    (("history",), True),
    (("settle", "--yes"), True),
    (("paid", "Vera", "Boris", "1.00", "--currency", "EUR"), True),
    (("sessions",), True),
    (("ledger",), True),
    (("payments",), True),
    (("stats",), True),
    (("tariffs", "list"), True),
    (("tariffs", "show", "classic"), True),
    (("deal", "--help"), True),
]

LONG_NAMES: list[tuple[tuple[str, ...], bool]] = [
    (("new", *LONG, "--chip-value", "0.05", "--currency", "USD", "--name", "Friday at Toms"), True),
    (("deal", "junior", "--declarer", "Christopher", "--partner", "Richard", "--tricks", "5", "--partner-tricks", "4",
      "--boston", "Eleanor"), True),
    (("deal", "pass"), True),
    (("deal", "pass"), False),
    (("deal", "senior", "--declarer", "Margaret", "--tricks", "7"), True),  # the basket of 160, won
    (("deal", "misere", "--declarer", "Eleanor", "--tricks", "1"), True),
    (("deal", "misdeal"), True),
    *[((("deal", "solo", "--declarer", LONG[n % 4], "--tricks", str(6 + n % 3)), False)) for n in range(10)],
    (("deal", "nine", "--declarer", "Richard", "--tricks", "13"), True),
    (("deal", "junior", "--declarer", "Eleanor", "--partner", "Margaret", "--team-tricks", "9"), False),
    (("undo",), True),
    (("edit", "4", "--tricks", "8", "--reason", "Margaret took 8"), True),
    (("status",), True),
    (("history",), True),
    (("sheet",), True),
    (("settle", "--yes"), True),
    (("paid", "Christopher", "Margaret", "0.50"), True),
    (("ledger",), True),
    (("payments",), True),
    (("sessions",), True),
    (("chart",), True),
]
EVENINGS = {"evening": SCRIPT, "long-names": LONG_NAMES}


def capture(lang: str, width: int, colour: bool, home: Path, evening: str = "evening") -> str:
    """What the evening's script shows, command by command, in a ledger made afresh under `home`."""
    from typer.testing import CliRunner

    from boston_ledger.cli.declarations import app
    from boston_ledger.store import write
    from conftest import played

    environ = {"BOSTON_LEDGER_DB": str(home / "ledger.db"), "XDG_CONFIG_HOME": str(home / "config"),
               "HOME": str(home), "COLUMNS": str(width), "LINES": "50", "TZ": "UTC", "TERM": "xterm-256color"}
    environ |= {"FORCE_COLOR": "1", "TTY_COMPATIBLE": "1"} if colour else {"NO_COLOR": "1"}
    saved = {k: os.environ.get(k) for k in (*environ, "NO_COLOR", "FORCE_COLOR", "TTY_COMPATIBLE", "LANG",
                                            "LANGUAGE", "LC_ALL", "LC_MESSAGES", "BOSTON_LEDGER_SESSION")}
    for k in saved:
        os.environ.pop(k, None)
    os.environ.update(environ)
    time.tzset()
    was, write.now = write.now, lambda: MOMENT
    from typer import rich_utils  # its help reads $FORCE_COLOR once, when first imported: as this run has it

    forced, rich_utils.FORCE_TERMINAL = rich_utils.FORCE_TERMINAL, True if colour else None
    out = []
    try:
        runner = CliRunner()
        undrawn: list[tuple[str, ...]] = []  # deals in a row recorded undrawn: the ledger opened once for them
        for args, shown in EVENINGS[evening]:
            if not shown and args[0] == "deal":
                undrawn.append(args[1:])
                continue
            if undrawn:
                played(home / "ledger.db", *undrawn)
                undrawn.clear()
            result = runner.invoke(app, ["--lang", lang, *args], catch_exceptions=False)
            assert result.exit_code == 0, (args, result.stdout, result.stderr)
            if shown:
                out.append(f"$ boston-ledger {' '.join(args)}\n{result.stdout}")
        if undrawn:
            played(home / "ledger.db", *undrawn)
    finally:
        write.now = was
        rich_utils.FORCE_TERMINAL = forced
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
        time.tzset()
    return "\n".join(out)


def name(lang: str, width: int, colour: bool, evening: str = "evening") -> str:
    return ("" if evening == "evening" else f"{evening}-") + f"{lang}-{width}-{'colour' if colour else 'no-colour'}.txt"


def snapshots() -> list[tuple[str, str, int, bool]]:
    """Every snapshot kept: (evening, language, width, colour); the long names without colours."""
    return [(evening, lang, width, colour) for evening in EVENINGS for lang in LANGUAGES for width in WIDTHS
            for colour in (COLOURS if evening == "evening" else (False,))]


if __name__ == "__main__":
    import tempfile

    target = Path(sys.argv[1]) if len(sys.argv) > 1 else SNAPSHOTS
    target.mkdir(parents=True, exist_ok=True)
    for evening, lang, width, colour in snapshots():
        with tempfile.TemporaryDirectory() as home:
            (target / name(lang, width, colour, evening)).write_text(
                capture(lang, width, colour, Path(home), evening), encoding="utf-8")
    print(f"wrote {target}")
