"""What `check` asks of the ledger besides the replay: rows that point where they should not."""

from __future__ import annotations

import sqlite3

GONE = "SELECT deal_id FROM undos UNION SELECT deal_id FROM supersessions"


def foreign_references(conn: sqlite3.Connection, session_id: int, gone_only: bool = False) -> list[tuple]:
    """Rows of a session that point outside it, as (deal number, what, other session):
    deals and transfers naming a player of another session ("deal", "transfer"), corrections
    crossing sessions ("correction", "superseded deal"), and transfers of no deal
    ("orphans", the count).

    `gone_only` looks at the deals taken back or superseded alone: the replay of the standing
    deals meets any other player of theirs (a seat of another session cannot match it)."""
    scope = f" AND d.id IN ({GONE})" if gone_only else ""
    rows = conn.execute(
        f"""
        SELECT d.number, 'deal' AS what, p.session_id
          FROM deals d JOIN players p ON p.id IN (d.declarer, d.partner, d.boston, d.carte_blanche)
         WHERE d.session_id = ? AND p.session_id != d.session_id{scope}
        UNION ALL
        SELECT d.number, 'transfer', p.session_id
          FROM transfers t JOIN deals d ON d.id = t.deal_id
          JOIN players p ON p.id IN (t.payer, t.payee)
         WHERE d.session_id = ? AND p.session_id != d.session_id{scope}
        """, (session_id, session_id)).fetchall()
    rows += conn.execute(
        """
        SELECT c.number, 'correction', NULL FROM corrections c JOIN deals d ON d.id = c.old_deal
         WHERE c.session_id = ? AND d.session_id != c.session_id
        UNION ALL
        SELECT d.number, 'superseded deal', NULL FROM supersessions s JOIN corrections c ON c.id = s.correction_id
          JOIN deals d ON d.id = s.deal_id
         WHERE (c.session_id = ? OR d.session_id = ?) AND d.session_id != c.session_id
        """, (session_id, session_id, session_id)).fetchall()
    orphans = conn.execute(
        "SELECT COUNT(*) FROM transfers t LEFT JOIN deals d ON d.id = t.deal_id WHERE d.id IS NULL"
    ).fetchone()[0]
    if orphans:
        rows.append((None, "orphans", orphans))
    return [tuple(r) for r in rows]
