"""The `boston-ledger` program. `deal` and `status`, run many times an evening, start without
typer: their command lines are read here by a small parser over the options `cli.py` declares
(a test holds the two together). Anything unusual goes to the full command line."""

from __future__ import annotations

import os
import sys

from .i18n import choose

# option -> (parameter, takes a value); what `cli.deal` and `cli.status` declare
QUICK: dict[str, tuple[str | None, dict[str, tuple[str, bool]]]] = {
    "deal": ("contract", {
        "--declarer": ("declarer", True), "--partner": ("partner", True), "--tricks": ("tricks", True),
        "--partner-tricks": ("partner_tricks", True), "--rank": ("rank", True), "--boston": ("boston", True),
        "--ace-turned": ("ace_turned", False), "--carte-blanche": ("carte_blanche", True), "--db": ("db", True),
    }),
    "status": (None, {"--db": ("db", True), "--json": ("as_json", False)}),
}


def quick_values(args: list[str]) -> dict[str, object] | None:
    """The values of a plain `deal` or `status` command line, or None when it is anything else
    (help, an unknown or repeated option, a value that looks like an option...)."""
    if not args or args[0] not in QUICK:
        return None
    positional, options = QUICK[args[0]]
    values: dict[str, object] = {}
    words = iter(args[1:])
    for word in words:
        if word.startswith("-"):
            name, eq, inline = word.partition("=")
            if name not in options:
                return None
            param, takes = options[name]
            if param in values or (eq and not takes):
                return None
            if not takes:
                values[param] = True
                continue
            value = inline if eq else next(words, None)
            if value is None or (not eq and value.startswith("-")):
                return None
            values[param] = value
        elif positional is not None and positional not in values:
            values[positional] = word
        else:
            return None
    return values


def main() -> None:
    """Run boston-ledger; a terminal that cannot show a character gets a stand-in."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if "_BOSTON_LEDGER_COMPLETE" not in os.environ:
        args = choose(sys.argv[1:])
        values = quick_values(args)
        if values is not None:
            from . import shell

            command = getattr(shell, args[0])
            shell.guarded(lambda: command(**values), lambda: f"{shell.PROG} {args[0]}")
    from .cli import app

    app()
