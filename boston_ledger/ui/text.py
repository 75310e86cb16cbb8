"""The pieces every view is made of: the console, plain lines, numbers with their colours, times,
JSON; and the one place where text from outside is made safe to show (`visible`)."""

from __future__ import annotations

import json
import re
import sys
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING, Any

from ..core.i18n import _, language

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

# What a terminal would obey rather than show: C0 controls but newline and tab (ESC starts the
# sequences that move the cursor, clear the screen, set the title or the clipboard: OSC 52), DEL,
# C1 controls (U+009B is an 8-bit CSI), the bidirectional marks, embeddings, overrides and
# isolates (text shown in another order than it is read), and lone surrogates (undecodable bytes
# of a command line or a file name).
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every character a terminal would obey shown as an escape such as `\\x1b`.

    Everything printed goes through it: the console (console()), plain lines (say()) and JSON
    (emit_json()); names, titles, tariff words, reasons and paths come from outside."""
    return UNSAFE.sub(_escape, text)


def say(text: object = "", err: bool = False) -> None:
    """One plain line on stdout (or stderr), as visible() shows it."""
    print(visible(str(text)), file=sys.stderr if err else sys.stdout)


def console(width: int | None = None) -> Console:
    """The console of every view: rich, and text shown as given: no markup, no highlighting, no
    `:name:` emoji codes (a player called `:fire:` stays so; rich's emoji table is slow to load),
    every text made visible."""
    return _console_class()(highlight=False, markup=False, emoji=False, width=width)


@cache
def _console_class() -> type:
    from rich.console import Console, RenderHook
    from rich.segment import Segment

    class Shown:
        """A renderable whose every text segment is made visible (rich's own control segments
        pass): the last word on what reaches the terminal, whatever a view built."""

        def __init__(self, inner: Any):
            self.inner = inner

        def __rich_console__(self, out: Console, options: Any) -> Any:
            for s in out.render(self.inner, options):
                yield s if s.control or not UNSAFE.search(s.text) else Segment(visible(s.text), s.style)

    class Hook(RenderHook):
        def process_renderables(self, renderables: list) -> list:
            return [Shown(r) for r in renderables]

    class VisibleConsole(Console):
        """Strings (printed, table cells, titles) are made visible before they are laid out, so
        that their width is measured right; anything else at the end (Shown)."""

        def __init__(self, **options: Any):
            super().__init__(**options)
            self.push_render_hook(Hook())

        def render_str(self, text: str, **options: Any) -> Any:
            return super().render_str(visible(text), **options)

        def on_broken_pipe(self) -> None:
            """The reader of our output went away: print no more, and leave the exit status to
            the guard (rich would exit 1, even after a command has recorded what it was asked to)."""
            self.quiet = True
            raise BrokenPipeError

    return VisibleConsole


def json_text(data: Any, ascii: bool = False) -> str:
    """What `--json` prints, its closing newline included (the server's API sends the same):
    what visible() escapes is written as \\u escapes (the same JSON), never raw."""
    text = json.dumps(data, ensure_ascii=ascii, indent=2)
    return UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


def emit_json(data: Any) -> None:
    """JSON on stdout (json_text), non-ASCII escaped only when the output cannot carry UTF-8."""
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("-", "")
    sys.stdout.write(json_text(data, ascii=not encoding.startswith("utf")))


def basket_word() -> str:
    return _("basket")


def local_time(stamp: str) -> str:
    """A stored moment (UTC, ISO 8601) as this machine's local time: '2026-11-30 21:05'."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp


def signed(n: int) -> Text:
    """A change of chips, green for gains and red for losses."""
    from rich.text import Text

    if n > 0:
        return Text(f"+{n}", style="green")
    if n < 0:
        return Text(str(n), style="red")
    return Text("·", style="dim")


def balance(n: int) -> Text:
    from rich.text import Text

    return Text(str(n), style="bold green" if n > 0 else "bold red" if n < 0 else "bold")


SIGNS = {"RUB": "₽"}  # currencies shown by their sign in Russian


def amount(value: int | Decimal, currency: str) -> str:
    """Money as it is shown: cents (an int) or a decimal amount (a chip's value), with its
    currency: '12.30 RUB', '12.30' without one; in Russian with the decimal comma and the
    rouble's sign, '12,30 ₽'. (JSON keeps '12.30': `core.settlement.money`.)"""
    from ..core.settlement import money

    digits = money(value) if isinstance(value, int) else str(value)
    if language() == "ru":
        digits = digits.replace(".", ",")
        currency = SIGNS.get(currency, currency)
    return digits + (f" {currency}" if currency else "")


def chips(value: int | float) -> str:
    """Net chips (or points), which a basket's share-out may make fractional: '12', '9.5' ('9,5')."""
    text = str(int(value) if float(value).is_integer() else float(value))
    return text.replace(".", ",") if language() == "ru" else text
