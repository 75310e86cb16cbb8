"""The schemas that earlier boston-ledgers left behind and no migration of today makes: two
released migrations were once edited in place. Frozen here as those versions wrote them, so that
their ledgers are recognised (store/identify.py) and brought up to date (store/repair.py) instead
of being refused as another program's database.

- `m001_initial` as 901e709 ... fb5f259 made it: `sessions` without `agreed_deals`, `deals`
  without `ace_turned` and `carte_blanche` (ebd6f22 added them to the migration itself).
- `m002_corrections` as 7377c60 made it (`corrections` without `old_deal`, nothing kept with the
  deals) and as 21dff91 ... ca4ec73 made it (`deals` without `balances` and `basket`; 2d37b36
  added them, with their backfill, to the migration itself).

Those versions applied migrations by `user_version` alone, so a ledger made by one of them and
opened by a later one has the later migrations on top: every such mix is recognised.

Never edit these texts, and never again edit a released migration: a change of the schema is a
new migration (tests/test_old_ledgers.py holds the schema each one leaves).
"""

from __future__ import annotations

APPEND_ONLY = ("sessions", "players", "deals", "transfers", "undos", "settlements")

# m001_initial of 901e709 ... fb5f259
INITIAL_901E709 = """
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    name TEXT,
    created_at TEXT NOT NULL,
    tariff_name TEXT NOT NULL,
    tariff_text TEXT NOT NULL,
    tariff_hash TEXT NOT NULL,
    chip_value TEXT NOT NULL,
    currency TEXT NOT NULL
) STRICT;
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    UNIQUE (session_id, seat),
    UNIQUE (session_id, name)
) STRICT;
CREATE TABLE deals (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    number INTEGER NOT NULL,
    contract TEXT NOT NULL,
    rank TEXT,
    declarer INTEGER REFERENCES players(id),
    partner INTEGER REFERENCES players(id),
    tricks INTEGER,
    partner_tricks INTEGER,
    boston INTEGER REFERENCES players(id),
    entered_at TEXT NOT NULL
) STRICT;
CREATE INDEX deals_by_session ON deals (session_id, id);
CREATE TABLE undos (
    deal_id INTEGER PRIMARY KEY REFERENCES deals(id),
    undone_at TEXT NOT NULL
) STRICT;
CREATE TABLE transfers (
    id INTEGER PRIMARY KEY,
    deal_id INTEGER NOT NULL REFERENCES deals(id),
    payer INTEGER REFERENCES players(id),
    payee INTEGER REFERENCES players(id),
    chips INTEGER NOT NULL CHECK (chips > 0),
    reason TEXT NOT NULL,
    CHECK (payer IS NOT NULL OR payee IS NOT NULL)
) STRICT;
CREATE INDEX transfers_by_deal ON transfers (deal_id);
CREATE TABLE settlements (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    settled_at TEXT NOT NULL,
    result TEXT NOT NULL
) STRICT;
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;
""" + "".join(
    f"""
CREATE TRIGGER {t}_no_update BEFORE UPDATE ON {t}
BEGIN SELECT RAISE(ABORT, '{t} are append-only: corrections are new entries'); END;
CREATE TRIGGER {t}_no_delete BEFORE DELETE ON {t}
BEGIN SELECT RAISE(ABORT, '{t} are append-only: corrections are new entries'); END;
"""
    for t in APPEND_ONLY
)

_CORRECTIONS_TRIGGERS = "".join(
    f"""
CREATE TRIGGER {t}_no_update BEFORE UPDATE ON {t}
BEGIN SELECT RAISE(ABORT, '{t} are append-only: corrections are new entries'); END;
CREATE TRIGGER {t}_no_delete BEFORE DELETE ON {t}
BEGIN SELECT RAISE(ABORT, '{t} are append-only: corrections are new entries'); END;
"""
    for t in ("corrections", "supersessions", "reopenings", "payments")
)

# m002_corrections of 7377c60
CORRECTIONS_7377C60 = """
CREATE TABLE corrections (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    number INTEGER NOT NULL,
    reason TEXT NOT NULL,
    corrected_at TEXT NOT NULL
) STRICT;
CREATE TABLE supersessions (
    deal_id INTEGER PRIMARY KEY REFERENCES deals(id),
    correction_id INTEGER NOT NULL REFERENCES corrections(id)
) STRICT;
CREATE TABLE reopenings (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    reopened_at TEXT NOT NULL
) STRICT;
CREATE TABLE payments (
    id INTEGER PRIMARY KEY,
    payer TEXT NOT NULL,
    payee TEXT NOT NULL,
    cents INTEGER NOT NULL CHECK (cents > 0),
    currency TEXT NOT NULL,
    paid_at TEXT NOT NULL
) STRICT;
ALTER TABLE deals ADD COLUMN correction_id INTEGER REFERENCES corrections(id);
""" + _CORRECTIONS_TRIGGERS

# m002_corrections of 21dff91 ... ca4ec73
CORRECTIONS_21DFF91 = """
CREATE TABLE corrections (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    number INTEGER NOT NULL,
    old_deal INTEGER NOT NULL REFERENCES deals(id),
    reason TEXT NOT NULL,
    corrected_at TEXT NOT NULL
) STRICT;
CREATE TABLE supersessions (
    deal_id INTEGER PRIMARY KEY REFERENCES deals(id),
    correction_id INTEGER NOT NULL REFERENCES corrections(id)
) STRICT;
CREATE TABLE reopenings (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    reopened_at TEXT NOT NULL
) STRICT;
CREATE TABLE payments (
    id INTEGER PRIMARY KEY,
    payer TEXT NOT NULL,
    payee TEXT NOT NULL,
    cents INTEGER NOT NULL CHECK (cents > 0),
    currency TEXT NOT NULL,
    paid_at TEXT NOT NULL
) STRICT;
ALTER TABLE deals ADD COLUMN correction_id INTEGER REFERENCES corrections(id);
""" + _CORRECTIONS_TRIGGERS

# What each migration of today was in the earlier versions (None: as today).
FIRST = {"901e709": INITIAL_901E709}
SECOND = {"7377c60": CORRECTIONS_7377C60, "21dff91": CORRECTIONS_21DFF91}

# A column that a rebuilt table gains and that cannot take its default: how to fill it from what
# the ledger holds. 7377c60 wrote no corrections; should a ledger of it hold one, the deal it
# corrected is the first that the correction superseded (as 21dff91 recorded `old_deal`).
FILLS = {
    ("corrections", "old_deal"): "(SELECT MIN(s.deal_id) FROM main.supersessions s WHERE s.correction_id = old.id)",
}
