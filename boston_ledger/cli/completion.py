"""Shell completion: the players, contracts and ranks of the current session of the ledger a
command line names. Completion never complains: on any trouble it offers nothing."""

from __future__ import annotations

from typing import Any

from ..store.records import Session


def _session(ctx: Any) -> Session | None:
    """The session a command line works on (--session, $BOSTON_LEDGER_SESSION, else the
    current one) of the ledger it names (or None)."""
    from ..app.deals import current
    from ..store.db import open_db, resolve_path
    from .options import session_id

    path = resolve_path(ctx.params.get("db"))
    if not path.is_file():
        return None
    try:
        return current(open_db(path), session_id(ctx.params.get("session")))
    except Exception:  # completion never complains
        return None


def _matching(words: list[str], incomplete: str) -> list[str]:
    return [w for w in words if w.casefold().startswith(incomplete.casefold())]


def player(ctx: Any, incomplete: str) -> list[str]:
    """The players of the current session."""
    session = _session(ctx)
    return _matching(list(session.players), incomplete) if session else []


def contract(ctx: Any, incomplete: str) -> list[str]:
    """The contracts of the current session's tariff, and pass."""
    session = _session(ctx)
    return _matching([*session.tariff.contracts, "pass"], incomplete) if session else []


def rank(ctx: Any, incomplete: str) -> list[str]:
    session = _session(ctx)
    return _matching(list(session.tariff.ranks), incomplete) if session else []
