"""`check`: every invariant of a session, held by a full replay of its standing deals.

Every standing deal is played by the engine with the session's stored tariff; its number, each
of its stored transfers (in id order) and its kept balances are held to the engine's result
(`core.invariants.replay`), after the rows that would misread seats (`store.audit`).
"""

from __future__ import annotations

import sqlite3

from ..core import invariants
from ..core.i18n import _, in_words
from ..core.invariants import Problem
from ..store import audit, damage, read
from ..store.damage import Damage


def damaged(conn: sqlite3.Connection) -> list[Damage]:
    """Every damaged row of the ledger, in words (`store.damage`)."""
    return damage.scan(conn)


def check(conn: sqlite3.Connection, session_ids: list[int] | None = None, every: bool = False) -> list[Problem]:
    """Every problem of these sessions (default: the current one; `every`: all of the ledger's)."""
    ids = read.session_ids(conn) if every else [read.current_session_id(conn)] if session_ids is None else session_ids
    orphans = audit.orphan_transfers(conn)  # of no session: said with the first one checked
    return [p for i, session_id in enumerate(ids) for p in check_session(conn, session_id, 0 if i else orphans)]


def check_session(conn: sqlite3.Connection, session_id: int, orphans: int = 0) -> list[Problem]:
    """Every invariant of one session (and `orphans`, transfers of no deal, said with it), in its game's words."""
    rows = audit.foreign_references(conn, session_id) + ([(None, "orphans", orphans)] if orphans else [])
    broken = invariants.references(session_id, rows)
    if broken:  # the rest would misread seats
        return broken
    try:
        session = read.session(conn, session_id)
        with in_words(session.tariff.words):  # each session's lines in its own game's words
            return invariants.replay(session_id, session.tariff, len(session.players), read.deals(conn, session),
                                     session.changes())
    except (sqlite3.Error, KeyboardInterrupt):
        raise
    except Exception as e:  # a damaged row the replay cannot read (`damaged` names it)
        return [Problem(session_id, None, _("it cannot be replayed ({kind}: {e}); its damaged rows are listed "
                                            "above", kind=type(e).__name__, e=e))]
