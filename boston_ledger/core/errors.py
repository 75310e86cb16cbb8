"""The one exception type the core raises for anything a user can fix."""

from __future__ import annotations

# What a problem with a field asks of whoever gave it: give the field (it is missing), drop it
# (the deal takes none), or mend its value. Each way into the program says it in its own words:
# the command line with the field's option, guided entry and the phone by asking its question.
GIVE, DROP, MEND = "give", "drop", "mend"


class LedgerError(Exception):
    """Bad input or state: the CLI prints the message as one line and exits with status 2.

    `field` names the part of a deal that is wrong (a field of `engine.Deal`, a name of
    `core.fields`), when one is: guided entry asks that part again instead of ending the
    dialogue. `remedy` (GIVE, DROP or MEND) says what the field needs; the message itself says
    why in the game's words, never in a command line's. `suggestion` is the one word a "did you
    mean" proposes, which guided entry takes for a yes."""

    def __init__(self, message: str = "", field: str | None = None, suggestion: str | None = None,
                 remedy: str | None = None):
        super().__init__(message)
        self.field = field
        self.suggestion = suggestion
        self.remedy = remedy
