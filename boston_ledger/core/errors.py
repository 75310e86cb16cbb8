"""The one exception type the core raises for anything a user can fix."""

from __future__ import annotations


class LedgerError(Exception):
    """Bad input or state: the CLI prints the message as one line and exits with status 2.

    `field` names the part of a deal that is wrong (a field of `engine.Deal`), when one is: guided
    entry asks that part again instead of ending the dialogue. `suggestion` is the one word a
    "did you mean" proposes, which guided entry takes for a yes."""

    def __init__(self, message: str = "", field: str | None = None, suggestion: str | None = None):
        super().__init__(message)
        self.field = field
        self.suggestion = suggestion
