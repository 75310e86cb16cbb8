"""The one exception type the core raises for anything a user can fix."""


class LedgerError(Exception):
    """Bad input or state: the CLI prints the message as one line and exits with status 2."""
