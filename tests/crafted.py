"""A corpus of crafted ledgers: a sound ledger changed with sqlite3 alone, as anyone can change a
file sent to them (the red team's kinds, and a few more).

`FOREIGN`: schemas boston-ledger did not make (refused at open). `DAMAGED`: rows no command
writes, in a schema left exactly as it was (the append-only triggers dropped, the rows changed,
the triggers made again; a STRICT table's type made loose for a moment through
`writable_schema`, then its text put back), each with the words `check --all` says about it.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

ENDLESS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"

# name: SQL run on a sound ledger (one session, deal 1 a made solo, settled and reopened), and what the
# one-line refusal names
FOREIGN = {
    "trojan trigger": ("CREATE TRIGGER evil AFTER INSERT ON deals BEGIN INSERT INTO payments"
                       "(payer, payee, cents, currency, paid_at) VALUES ('Q', 'P', 100000, '', '2026-01-01'); END;",
                       "a trigger boston-ledger did not make: evil"),
    "endless view": ("ALTER TABLE players RENAME TO players_real; CREATE VIEW players AS " + ENDLESS +
                     " SELECT p.* FROM players_real p, c;",
                     "a view boston-ledger did not make: players"),
    "endless trigger": ("CREATE TRIGGER t BEFORE INSERT ON deals BEGIN SELECT count(*) FROM (" + ENDLESS +
                        " SELECT x FROM c); END;", "a trigger boston-ledger did not make: t"),
    "append-only trigger dropped": ("DROP TRIGGER deals_no_update;",
                                    "a trigger boston-ledger made is missing: deals_no_update"),
    "extra column": ("ALTER TABLE payments ADD COLUMN note TEXT;",
                     "a table changed from what boston-ledger made: payments"),
    "extra index": ("CREATE INDEX spy ON deals (contract);", "an index boston-ledger did not make: spy"),
}

# name: (the change, as statements run with the append-only triggers away, and the table, and
# words of what `check --all` says)
DAMAGED = {
    "tricks not a number": ("UPDATE deals SET tricks = 'abc' WHERE number = 1", "deals", "tricks is 'abc' (text)"),
    "team tricks not a number": ("UPDATE deals SET team_tricks = 'x' WHERE number = 1", "deals",
                                 "team_tricks is 'x' (text)"),
    "chips not a number": ("UPDATE transfers SET chips = 'x' WHERE id = 1", "transfers", "chips is 'x' (text)"),
    "agreed deals not a number": ("UPDATE sessions SET agreed_deals = 'x'", "sessions",
                                  "agreed_deals is 'x' (text)"),
    "declarer dangling": ("UPDATE deals SET declarer = 999 WHERE number = 1", "deals",
                          "declarer 999 names a row of players that is not there"),
    "payer dangling": ("UPDATE transfers SET payer = 999 WHERE id = 1", "transfers",
                       "payer 999 names a row of players that is not there"),
    "player deleted": ("DELETE FROM players WHERE seat = 3", "", "names a row of players that is not there"),
    "chip value not money": ("UPDATE sessions SET chip_value = 'abc'", "sessions",
                             "chip_value is 'abc', not an amount of money"),
    "unknown contract": ("UPDATE deals SET contract = 'nosuch' WHERE number = 1", "deals",
                         "contract 'nosuch' is not one of the session's tariff"),
    "balances not JSON": ("UPDATE deals SET balances = 'not json' WHERE number = 1", "deals",
                          "balances is 'not json', not a list of whole numbers in JSON"),
    "balances not a list": ("UPDATE deals SET balances = '{\"a\":1}' WHERE number = 1", "deals",
                            "not a list of whole numbers in JSON"),
    "balances too short": ("UPDATE deals SET balances = '[1,2]' WHERE number = 1", "deals",
                           "has 2 players' balances; the session has 4 players"),
    "settlement not JSON": ("UPDATE settlements SET result = 'nope'", "settlements",
                            "result is 'nope', not a settlement kept in JSON"),
    "payment cents not a number": ("INSERT INTO payments (payer, payee, cents, currency, paid_at)"
                                   " VALUES ('Anna', 'Boris', 'x', '', '2026-01-01')", "payments",
                                   "cents is 'x' (text)"),
    "correction of no deal": ("INSERT INTO corrections (session_id, number, old_deal, reason, corrected_at)"
                              " VALUES (1, 1, 999, 'x', '2026-01-01')", "corrections",
                              "old_deal 999 names a row of deals that is not there"),
    "a fifth player": ("INSERT INTO players (session_id, seat, name) VALUES (1, 4, 'Eve')", "sessions",
                       "never sat down at the table"),
    "deal number at the limit": ("UPDATE deals SET number = 9223372036854775807 WHERE number = 1", "deals",
                                 "number is 9223372036854775807, out of its range"),
    "deal moved to another session": ("INSERT INTO sessions (name, created_at, tariff_name, tariff_text,"
                                      " tariff_hash, chip_value, currency) SELECT 'other', created_at,"
                                      " tariff_name, tariff_text, tariff_hash, chip_value, currency FROM sessions;"
                                      " UPDATE deals SET session_id = 2 WHERE number = 1", "deals",
                                      "names a player or deal of session 1"),
}
LOOSE = {"tricks not a number": "deals", "team tricks not a number": "deals", "chips not a number": "transfers",
         "agreed deals not a number": "sessions", "payment cents not a number": "payments"}


def foreign(path: Path, kind: str) -> None:
    """The ledger at `path` given a schema of `kind` (FOREIGN) boston-ledger did not make."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.executescript(FOREIGN[kind][0])
    finally:
        conn.close()


def damage(path: Path, kind: str) -> None:
    """The ledger at `path` given damaged rows of `kind` (DAMAGED), its schema left as it was."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("PRAGMA foreign_keys = OFF")
        triggers = [r[0] for r in conn.execute("SELECT sql FROM sqlite_master WHERE type = 'trigger'")]
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")]
        loose = LOOSE.get(kind)
        if loose is not None:
            _loosen(conn, loose, True)
            conn.close()
            conn = sqlite3.connect(path, isolation_level=None)
        for name in names:
            conn.execute(f"DROP TRIGGER {name}")
        conn.executescript(DAMAGED[kind][0])
        for sql in triggers:
            conn.execute(sql)
        if loose is not None:
            _loosen(conn, loose, False)
    finally:
        conn.close()


def _loosen(conn: sqlite3.Connection, table: str, loose: bool) -> None:
    """A STRICT table's SQL text made plain (any value goes in), or put back, through writable_schema."""
    conn.execute("PRAGMA writable_schema = ON")
    before, after = (") STRICT", ")") if loose else (")", ") STRICT")
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,)).fetchone()[0]
    changed = sql[:sql.rindex(before)] + after if loose else sql + " STRICT"
    conn.execute("UPDATE sqlite_master SET sql = ? WHERE name = ?", (changed, table))
    conn.execute("PRAGMA writable_schema = OFF")
