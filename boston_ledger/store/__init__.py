"""The ledger in SQLite: where it lives and what a file is, schema and migrations, opening it, one
reader per concept, the writers."""

from ..core.errors import LedgerError

WAIT_LIMIT = 60.0  # seconds of waiting for another writer (its lock on the file) before giving up


class StorageError(LedgerError):
    """A database that cannot be used as it is."""
