"""The quick parser: a plain command line of the commands run most often or on the most data
(`deal`, `status`, `history`, `check`, `export`, `stats`) read without typer, whose loading
costs more than a `status` does, over the options `declarations.py` declares for them (a test
holds the two together). Anything unusual (help, an unknown or repeated option, a value that
looks like an option, a missing argument) is left to typer."""

from __future__ import annotations

from ..app.inputs import option
from ..core.fields import FIELDS

SESSION = {"--db": ("db", True), "--session": ("session", True)}
JSON = {"--json": ("as_json", False)}

# command -> (its argument, whether it must be given, {option: (parameter, takes a value)}): what
# declarations.py declares for these commands (a deal's fields from core.fields)
QUICK: dict[str, tuple[str | None, bool, dict[str, tuple[str, bool]]]] = {
    "deal": ("contract", False, {**{option(f.name): (f.name, f.kind != "flag") for f in FIELDS if f.kind != "contract"},
                                 **SESSION}),
    "status": (None, False, {**SESSION, **JSON}),
    "history": (None, False, {"--corrections": ("corrections", False), "--last": ("last", True),
                              "--all": ("show_all", False), **SESSION, **JSON}),
    "check": (None, False, {"--all": ("all_sessions", False), **SESSION, **JSON}),
    "export": ("directory", True, SESSION),
    "stats": (None, False, {"--player": ("player", True), "--since": ("since", True), "--db": ("db", True), **JSON}),
}


def quick_values(args: list[str]) -> dict[str, object] | None:
    """The values of a plain command line of QUICK's, or None when it is anything else (help, an
    unknown or repeated option, a value that looks like an option, a missing argument...)."""
    if not args or args[0] not in QUICK:
        return None
    positional, required, options = QUICK[args[0]]
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
    if required and positional not in values:
        return None
    return values
