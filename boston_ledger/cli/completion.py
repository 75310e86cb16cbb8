"""Shell completion: the players, contracts (their Russian names too), ranks and sessions of the
ledger a command line names. Completion never complains: on any trouble it offers nothing."""

from __future__ import annotations

import sqlite3
from typing import Any

from ..app.deals import Session


def _ledger(ctx: Any) -> sqlite3.Connection | None:
    """The ledger a command line names, if there is one (or None)."""
    from ..app import opening

    try:
        return opening.connect(ctx.params.get("db")) if opening.path(ctx.params.get("db")).is_file() else None
    except Exception:  # completion never complains
        return None


def _session(ctx: Any) -> Session | None:
    """The session a command line works on (--session, $BOSTON_LEDGER_SESSION, else the
    current one) of the ledger it names (or None)."""
    from ..app.deals import current
    from .options import session_id

    conn = _ledger(ctx)
    try:
        return current(conn, session_id(ctx.params.get("session"))) if conn is not None else None
    except Exception:  # completion never complains
        return None


def _matching(words: list[str], incomplete: str) -> list[str]:
    """The words that begin as typed (compared as names are: case, ё and е aside), each once,
    in the letters typed (`бор` gives `борис`: the shell keeps only what begins as typed, and
    a name is found whatever its case)."""
    from ..app.inputs import player_key

    begun = player_key(incomplete)
    found = (w if w.startswith(incomplete) else w.upper() if incomplete.isupper() else
             w.lower() if incomplete.islower() else incomplete + w[len(incomplete):]
             for w in words if player_key(w).startswith(begun))
    return list(dict.fromkeys(found))


def player(ctx: Any, incomplete: str) -> list[str]:
    """The players of the current session."""
    session = _session(ctx)
    return _matching(list(session.players), incomplete) if session else []


def contract(ctx: Any, incomplete: str) -> list[str]:
    """The contracts of the current session's tariff and pass, by key and by their Russian names."""
    session = _session(ctx)
    if session is None:
        return []
    t = session.tariff
    words = [*t.contracts, "pass", *(n for c in t.contracts.values() for n in c.names if not n.isascii()),
             *(n for n in t.basket.pass_names if not n.isascii())]
    return _matching(words, incomplete)


def rank(ctx: Any, incomplete: str) -> list[str]:
    session = _session(ctx)
    if session is None:
        return []
    return _matching([*session.tariff.ranks, *(n for r in session.tariff.ranks.values() for n in r.names
                                                if not n.isascii())], incomplete)


def sessions(ctx: Any, incomplete: str) -> list[tuple[str, str]]:
    """The ledger's sessions by id, each with its players (and name) as the help shells show."""
    from ..app.sessions import listing

    conn = _ledger(ctx)
    try:
        rows = listing(conn) if conn is not None else []
    except Exception:  # completion never complains
        return []
    return [(str(r.session.id), ", ".join(r.session.players) + (f" “{r.session.name}”" if r.session.name else ""))
            for r in rows if str(r.session.id).startswith(incomplete.strip())]
