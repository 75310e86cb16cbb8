"""The quick parser: a plain `deal` or `status` command line read without typer, over the options
`declarations.py` declares for them (a test holds the two together). Anything unusual (help,
an unknown or repeated option, a value that looks like an option) is left to typer."""

from __future__ import annotations

# option -> (parameter, takes a value); what `cli.deal` and `cli.status` declare
QUICK: dict[str, tuple[str | None, dict[str, tuple[str, bool]]]] = {
    "deal": ("contract", {
        "--declarer": ("declarer", True), "--partner": ("partner", True), "--tricks": ("tricks", True),
        "--partner-tricks": ("partner_tricks", True), "--team-tricks": ("team_tricks", True),
        "--rank": ("rank", True), "--boston": ("boston", True), "--ace-turned": ("ace_turned", False),
        "--carte-blanche": ("carte_blanche", True), "--tricks-each": ("tricks_each", True), "--db": ("db", True),
        "--session": ("session", True),
    }),
    "status": (None, {"--db": ("db", True), "--session": ("session", True), "--json": ("as_json", False)}),
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
