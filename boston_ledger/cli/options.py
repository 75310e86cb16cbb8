"""The options a command line may carry before or after its command, read the same way by both
ways into the program (main.py's quick path, declarations.py's typer): `--lang` anywhere
(language.py), `--db` and `--session` given before the command moved after it, where the
command declares them. And which session a command works on: `--session ID`, else the
terminal's BOSTON_LEDGER_SESSION, else the ledger's current session."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

from .language import choose

if TYPE_CHECKING:
    from ..app.evenings import Chosen

MOVED = ("--db", "--session")  # options of the commands, also accepted before the command
SESSION_ENV = "BOSTON_LEDGER_SESSION"


def prepare(argv: list[str]) -> list[str]:
    """The command line as the commands read it: its language chosen (`--lang` taken out), and
    `--db PATH` / `--session ID` written before the command moved after it."""
    words = choose(argv)
    head: list[str] = []
    moved: list[str] = []
    i = 0
    while i < len(words) and words[i].startswith("-") and words[i] != "--":
        word = words[i]
        if word.partition("=")[0] in MOVED:
            step = 1 if "=" in word else 2
            moved += words[i:i + step]
            i += step
            continue
        head.append(word)
        i += 1
    if not moved:
        return words
    rest = words[i:]
    end = rest.index("--") if "--" in rest else len(rest)
    return head + rest[:end] + moved + rest[end:]


def session_id(option: str | None, environ: Mapping[str, str] = os.environ) -> Chosen | None:
    """The session this command line chooses: `--session ID`, else $BOSTON_LEDGER_SESSION (a
    number that remembers it came from there), else None (the ledger's current session, or for a
    command that writes, `app.evenings.evening`). A value that is not a session number is an error."""
    from ..app.evenings import Chosen
    from ..app.inputs import whole

    if option is not None:
        found = whole(option, "--session", 1, 10**9)
        return None if found is None else Chosen(found)
    chosen = environ.get(SESSION_ENV, "").strip()
    found = whole(chosen, SESSION_ENV, 1, 10**9) if chosen else None
    return None if found is None else Chosen(found, SESSION_ENV)
