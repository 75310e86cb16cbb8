"""The pieces every view is made of: the console, numbers with their colours, times, JSON."""

from __future__ import annotations

import json
import sys
from typing import Any

from rich.console import Console
from rich.text import Text

from ..core.i18n import _


def console() -> Console:
    """The console of every view. Text is shown as given: no markup, no highlighting, and no
    `:name:` emoji codes (a player called `:fire:` stays so; rich's emoji table is slow to load)."""
    return Console(highlight=False, markup=False, emoji=False)


def emit_json(data: Any) -> None:
    """JSON on stdout, non-ASCII escaped only when the output cannot carry UTF-8."""
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("-", "")
    print(json.dumps(data, ensure_ascii=not encoding.startswith("utf"), indent=2))


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
    if n > 0:
        return Text(f"+{n}", style="green")
    if n < 0:
        return Text(str(n), style="red")
    return Text("·", style="dim")


def balance(n: int) -> Text:
    return Text(str(n), style="bold green" if n > 0 else "bold red" if n < 0 else "bold")


def amount(cents: int, currency: str) -> str:
    """Money as it is shown: '12.30 RUB', or '12.30' without a currency."""
    from ..core.settlement import money

    return money(cents) + (f" {currency}" if currency else "")
