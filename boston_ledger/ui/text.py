"""The pieces every view is made of: the console, plain lines, numbers with their colours, times,
JSON. Text from outside is made safe to show by one rule (`core.controls.visible`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any, TextIO

from ..core.controls import CONTROL_IN_LINES, visible
from ..core.i18n import _, ngettext, speaking
from .term import Console, Text
from .widths import packed, terminal_width, words, wrapped


def say(text: object = "", err: bool = False) -> None:
    """One plain line on stdout (or stderr), as visible() shows it."""
    print(visible(str(text)), file=sys.stderr if err else sys.stdout)


def message(text: str | Sequence[str], err: bool = False, indent: str = "  ", between: str = " ") -> None:
    """A message, or a line of pieces (`between` two of them: a menu's choices), on stdout (or
    stderr), as visible() shows it: one line where a program reads it; on a terminal, broken to its
    width between words (or pieces), never inside one as the terminal would, the next lines after
    the message's own leading spaces and `indent`."""
    stream = sys.stderr if err else sys.stdout
    said = [visible(text)] if isinstance(text, str) else [visible(piece) for piece in text]
    width = terminal_width(stream)
    if width is None:
        print(between.join(said), file=stream)
        return
    lead = said[0][:len(said[0]) - len(said[0].lstrip(" "))]
    pieces = words(said[0]) + said[1:] if isinstance(text, str) else [said[0].lstrip(" "), *said[1:]]
    lines = packed(pieces, width - len(lead), " " if isinstance(text, str) else between, indent)
    print("\n".join(lead + line for line in lines), file=stream)


def lines_at(text: str, stream: TextIO) -> list[str]:
    """A line of text as `stream` shows it: whole where a program reads it; on a terminal, broken
    to its width between words (a prompt's last line is where the answer is typed)."""
    width = terminal_width(stream)
    return [text] if width is None else wrapped(text, width)


def console(width: int | None = None) -> Console:
    """The console of every view (term.Console): standard output, every text made visible."""
    return Console(width=width)


def json_text(data: Any, ascii: bool = False) -> str:
    """What `--json` prints, its closing newline included (the server's API sends the same):
    what visible() escapes is written as \\u escapes (the same JSON), never raw."""
    text = json.dumps(data, ensure_ascii=ascii, indent=2)
    return CONTROL_IN_LINES.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


def emit_json(data: Any) -> None:
    """JSON on stdout (json_text), non-ASCII escaped only when the output cannot carry UTF-8."""
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("-", "")
    sys.stdout.write(json_text(data, ascii=not encoding.startswith("utf")))


def basket_word() -> str:
    return _("basket")


def local_time(stamp: str) -> str:
    """A stored moment (UTC, ISO 8601) as this machine's local time, its date as the output's language
    writes it: '2026-11-30 21:05', '30.11.2026 21:05'."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(stamp).astimezone().strftime(f"{speaking().date} %H:%M")
    except ValueError:
        return stamp


def number(n: int | str) -> str:
    """A number with the output's language's minus sign ('-5'; in Russian '−5')."""
    text = str(n)
    return speaking().minus + text[1:] if text.startswith("-") else text


def signed(n: int) -> Text:
    """A change of chips, green for gains and red for losses."""
    if n > 0:
        return Text(f"+{n}", style="green")
    if n < 0:
        return Text(number(n), style="red")
    return Text("·", style="dim")


def balance(n: int) -> Text:
    return Text(number(n), style="bold green" if n > 0 else "bold red" if n < 0 else "bold")


def amount(value: int | Decimal, currency: str) -> str:
    """Money as it is shown: cents (an int) or a decimal amount (a chip's value), with its
    currency as the output's language writes it (`core.i18n.Language.money`): '$12.30' and
    '12.30 RUB' in English, '12,30 $' and '12,30 ₽' in Russian; '12.30' without one. (JSON keeps
    '12.30': `core.settlement.money`.)"""
    from ..core.settlement import money

    digits = (money(value) if isinstance(value, int) else str(value)).replace(".", speaking().decimal)
    shown = currency_sign(currency)
    if not shown:
        return number(digits)
    if len(shown) > 1 or shown.isalpha():  # a code or a word: after the amount
        return f"{number(digits)} {shown}"
    minus, unsigned = (speaking().minus, digits[1:]) if digits.startswith("-") else ("", digits)
    return minus + speaking().money.format(sign=shown, number=unsigned)


def currency_sign(code: str) -> str:
    """A currency as the current language shows it: 'RUB' is '₽' in Russian."""
    return speaking().signs.get(code, code)


def chip_count(n: int) -> str:
    """A number of chips said in words, in the form the count needs: '1 chip', '5 chips'."""
    return ngettext("{n} chip", "{n} chips", n)


def chips(value: int | float | Fraction) -> str:
    """Net chips (or points), which a basket's share-out may make fractional: '12', '9.5' ('9,5')."""
    return number(str(int(value) if float(value).is_integer() else float(value)).replace(".", speaking().decimal))
