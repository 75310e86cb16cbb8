"""What `check` asks of the ledger besides the replay: rows that point where they should not."""

from __future__ import annotations

import sqlite3

from ..core.fields import STORED
from ..core.invariants import Reference

PLAYERS = ", ".join(f"d.{f.name}" for f in STORED if f.kind == "player")  # a deal's columns naming players


def foreign_references(conn: sqlite3.Connection, session_id: int) -> list[Reference]:
    """Rows of a session that point outside it, as (deal number, what, other session): deals
    and transfers naming a player of another session ("deal", "transfer"), corrections crossing
    sessions ("correction", "superseded deal"). A transfer is looked up among all players only when
    it names one not of its session's (a season's transfers are many, its players few)."""
    rows = conn.execute(
        f"""
        SELECT d.number, 'deal' AS what, p.session_id
          FROM deals d JOIN players p ON p.id IN ({PLAYERS})
         WHERE d.session_id = ?1 AND p.session_id != d.session_id
        UNION ALL
        SELECT d.number, 'transfer', p.session_id
          FROM transfers t JOIN deals d ON d.id = t.deal_id
          JOIN players p ON p.id IN (t.payer, t.payee)
         WHERE d.session_id = ?1 AND p.session_id != d.session_id
           AND (t.payer NOT IN (SELECT id FROM players WHERE session_id = ?1)
                OR t.payee NOT IN (SELECT id FROM players WHERE session_id = ?1))
        """, (session_id,)).fetchall()
    rows += conn.execute(
        """
        SELECT c.number, 'correction', NULL FROM corrections c JOIN deals d ON d.id = c.old_deal
         WHERE c.session_id = ? AND d.session_id != c.session_id
        UNION ALL
        SELECT d.number, 'superseded deal', NULL FROM supersessions s JOIN corrections c ON c.id = s.correction_id
          JOIN deals d ON d.id = s.deal_id
         WHERE (c.session_id = ? OR d.session_id = ?) AND d.session_id != c.session_id
        """, (session_id, session_id, session_id)).fetchall()
    return [tuple(r) for r in rows]


def orphan_transfers(conn: sqlite3.Connection) -> int:
    """How many transfers of the ledger point at no deal (of no session)."""
    return int(conn.execute("SELECT COUNT(*) FROM transfers t LEFT JOIN deals d ON d.id = t.deal_id"
                            " WHERE d.id IS NULL").fetchone()[0])
