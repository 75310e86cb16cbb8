"""`check` replays every standing deal: every kind of tampering with a ledger is reported, in
words, at the deal where it is."""

from __future__ import annotations

import random
import shutil
import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest

from boston_ledger.app import check as checks
from boston_ledger.core import engine
from boston_ledger.app import deals as table, sessions
from boston_ledger.store import read, write
from boston_ledger.store.db import open_db, writing
from boston_ledger.core.engine import Deal
from boston_ledger.core.tariff_files import load

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]


def random_deal(rng: random.Random, tariff) -> Deal:
    roll = rng.random()
    if roll < 0.1:
        return Deal("pass")
    declarer = rng.randrange(4)
    boston = rng.choice([None, 0, 1, 2, 3])
    if roll < 0.6:
        partner = rng.choice([s for s in range(4) if s != declarer])
        tricks = rng.randint(2, 9)
        return Deal(rng.choice(["junior", "senior"]), declarer, partner, tricks, rng.randint(0, 13 - tricks),
                    boston=boston)
    if roll < 0.8:
        return Deal(rng.choice(["solo", "nine"]), declarer, None, rng.randint(6, 11),
                    rank=rng.choice(["junior", "senior"]), boston=boston)
    return Deal(rng.choice([k for k in tariff.contracts if "misere" in k]), declarer, None, rng.choice([0, 0, 1]))


def build(path: Path, deals: int, seed: int = 7) -> None:
    """Two sessions, the first with an undone deal and a correction among its deals."""
    tariff = load("classic")
    conn = open_db(path, create=True)
    first = sessions.new(conn, PLAYERS, tariff, Decimal("0.10"), "EUR").id
    rng = random.Random(seed)
    session, state = read.session(conn, first), engine.State.start(4)
    with writing(conn):  # as `deal` records them, in one transaction
        for number in range(1, deals + 1):
            deal = random_deal(rng, tariff)
            outcome = engine.play(tariff, state, deal)
            state = engine.advance(state, outcome)
            write.record_deal(conn, session, number, deal, outcome, state)
    table.undo(conn)
    table.enter(conn, Deal("solo", 2, None, 9), first)
    table.correct(conn, deals - 5, Deal("junior", 1, 3, 5, 4, boston=0), "entered wrong", first)
    second = sessions.new(conn, ["W", "X", "Y", "Z"], tariff, Decimal("1"), "").id
    for _ in range(5):
        table.enter(conn, random_deal(rng, tariff), second)
    write.set_current(conn, first)
    conn.close()


@pytest.fixture(scope="module")
def sound(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("sound") / "ledger.db"
    build(path, 60)
    return path


def tampered(sound: Path, tmp_path: Path, *statements: str) -> Path:
    path = tmp_path / "ledger.db"
    shutil.copy(sound, path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA foreign_keys = OFF")  # as a hand at the file would
    triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for trigger, __ in triggers:
        conn.execute(f"DROP TRIGGER {trigger}")  # the tables are append-only: drop that first
    for statement in statements:
        conn.execute(statement)
    for __, sql in triggers:  # and made again as they were: else the schema is not ours, and refused at open
        conn.execute(sql)
    conn.commit()
    conn.close()
    return path


def problems(path: Path) -> list[str]:
    conn = open_db(path)
    found = checks.check(conn, every=True)
    conn.close()
    return [str(p) for p in found]


# A standing deal of the first session in the middle of it, and one of its transfers.
DEAL = ("(SELECT d.id FROM deals d WHERE d.session_id = 1 AND d.number = 30"
        " AND NOT EXISTS (SELECT 1 FROM supersessions s WHERE s.deal_id = d.id))")
TRANSFER = f"(SELECT max(t.id) FROM transfers t WHERE t.deal_id = {DEAL})"
FIRST = f"(SELECT min(t.id) FROM transfers t WHERE t.deal_id = {DEAL})"


def test_a_sound_ledger_has_no_problem(sound: Path) -> None:
    conn = open_db(sound)
    assert checks.check(conn, every=True) == []


@pytest.mark.parametrize("statements, words", [
    pytest.param([f"UPDATE transfers SET chips = chips + 1 WHERE id = {TRANSFER}"],
                 "session 1, deal 30: stored transfers differ from the replay", id="chips"),
    pytest.param([f"UPDATE transfers SET reason = 'boston' WHERE id = {FIRST}"],
                 "session 1, deal 30: stored transfers differ from the replay", id="reason"),
    pytest.param([f"UPDATE transfers SET reason = reason || ' ' WHERE id = {TRANSFER}"],
                 "session 1, deal 30: stored transfers differ from the replay", id="reason-space"),
    pytest.param([f"UPDATE transfers SET payer = CASE payer WHEN 1 THEN 2 ELSE 1 END WHERE id = {TRANSFER}"
                  " AND payer IS NOT NULL",
                  f"UPDATE transfers SET payee = CASE payee WHEN 1 THEN 2 ELSE 1 END WHERE id = {TRANSFER}"
                  " AND payer IS NULL"],
                 "session 1, deal 30: stored transfers differ from the replay", id="party"),
    pytest.param(["UPDATE transfers SET payee = CASE WHEN payee IS NULL THEN CASE payer WHEN 1 THEN 2 ELSE 1 END END"
                  f" WHERE id = (SELECT min(t.id) FROM transfers t WHERE t.deal_id = {DEAL} AND t.payer IS NOT NULL)"],
                 "session 1, deal 30: stored transfers differ from the replay", id="basket-for-a-player"),
    pytest.param([f"DELETE FROM transfers WHERE id = {TRANSFER}"],
                 "session 1, deal 30: stored transfers differ from the replay", id="missing"),
    pytest.param([f"INSERT INTO transfers (deal_id, payer, payee, chips, reason)"
                  f" SELECT deal_id, payer, payee, chips, reason FROM transfers WHERE id = {TRANSFER}"],
                 "session 1, deal 30: stored transfers differ from the replay", id="extra-copy"),
    pytest.param([f"INSERT INTO transfers (deal_id, payer, payee, chips, reason) VALUES ({DEAL}, 1, 2, 3, 'x')"],
                 "session 1, deal 30: stored transfers differ from the replay", id="extra"),
    pytest.param(["CREATE TEMP TABLE a AS SELECT payer, payee, chips, reason FROM transfers"
                  f" WHERE id = {FIRST}",
                  f"UPDATE transfers SET (payer, payee, chips, reason) = (SELECT payer, payee, chips, reason"
                  f" FROM transfers WHERE id = {TRANSFER}) WHERE id = {FIRST}",
                  f"UPDATE transfers SET (payer, payee, chips, reason) = (SELECT * FROM a) WHERE id = {TRANSFER}"],
                 "(in another order)", id="order"),
    pytest.param([f"UPDATE transfers SET id = (SELECT max(id) + 1 FROM transfers) WHERE id = {FIRST}"],
                 "(in another order)", id="order-by-id"),
    pytest.param([f"UPDATE deals SET balances = replace(balances, '[', '[1') WHERE id = {DEAL}"],
                 "session 1, deal 30: stored balances after the deal", id="kept-balance"),
    pytest.param([f"UPDATE deals SET basket = basket + 1 WHERE id = {DEAL}"],
                 "session 1, deal 30: stored balances after the deal", id="kept-basket"),
    pytest.param([f"UPDATE deals SET basket = NULL WHERE id = {DEAL}"],
                 "session 1, deal 30: stored balances after the deal", id="kept-basket-null"),
    pytest.param([f"UPDATE deals SET balances = '[1.5, 0, 0, 0]' WHERE id = {DEAL}"],
                 "session 1, deal 30: stored balances after the deal", id="kept-not-whole"),
    pytest.param([f"UPDATE deals SET balances = '5' WHERE id = {DEAL}"],
                 "session 1, deal 30: stored balances after the deal", id="kept-not-a-list"),
    pytest.param([f"UPDATE deals SET number = 31 WHERE id = {DEAL}"], "session 1, deal 31: the deal is numbered 31",
                 id="number"),
    pytest.param([f"UPDATE deals SET declarer = CASE declarer WHEN 1 THEN 2 ELSE 1 END, partner = NULL,"
                  f" partner_tricks = NULL WHERE id = {DEAL} AND declarer IS NOT NULL",
                  f"UPDATE deals SET contract = 'solo', declarer = 1, tricks = 9"
                  f" WHERE id = {DEAL} AND contract = 'pass'"],
                 "session 1, deal 30: ", id="entry"),
    pytest.param([f"UPDATE deals SET contract = 'whist' WHERE id = {DEAL}"],
                 "session 1, deal 30: the deal no longer scores", id="no-longer-scores"),
    pytest.param([f"UPDATE transfers SET payee = (SELECT id FROM players WHERE name = 'W') WHERE id = {TRANSFER}"],
                 "session 1, deal 30: a transfer names a player of session 2", id="other-session-transfer"),
    pytest.param([f"UPDATE deals SET declarer = (SELECT id FROM players WHERE name = 'X') WHERE id = {DEAL}"],
                 "session 1, deal 30: a deal names a player of session 2", id="other-session-deal"),
    pytest.param(["UPDATE transfers SET payer = (SELECT id FROM players WHERE name = 'Y')"
                  " WHERE id = (SELECT max(t.id) FROM transfers t JOIN undos u ON u.deal_id = t.deal_id)"],
                 "a transfer names a player of session 2", id="other-session-undone"),
    pytest.param(["UPDATE deals SET boston = (SELECT id FROM players WHERE name = 'Z')"
                  " WHERE id = (SELECT min(deal_id) FROM supersessions)"],
                 "a deal names a player of session 2", id="other-session-superseded"),
    pytest.param(["UPDATE corrections SET old_deal = (SELECT max(id) FROM deals WHERE session_id = 2)"],
                 "belongs to a correction of another session", id="correction-crossed"),
    pytest.param([f"UPDATE transfers SET deal_id = 999999 WHERE id = {TRANSFER}"], "1 transfers point at no deal",
                 id="orphan"),
    pytest.param([f"INSERT INTO undos (deal_id, undone_at) VALUES ({DEAL}, 'now')"],
                 "session 1, deal 31: the deal is numbered 31", id="a-gap"),
])
def test_every_tampering_is_reported(sound: Path, tmp_path: Path, statements, words) -> None:
    found = problems(tampered(sound, tmp_path, *statements))
    assert any(words in p for p in found), found


@pytest.mark.parametrize("statement", [
    f"UPDATE deals SET balances = replace(balances, ', ', ',') WHERE id = {DEAL}",  # the same numbers, spelt closer
    f"UPDATE deals SET balances = replace(balances, '[', '[ ') WHERE id = {DEAL}",
    "UPDATE transfers SET reason = 'x'"
    " WHERE id = (SELECT max(t.id) FROM transfers t JOIN undos u ON u.deal_id = t.deal_id)",
])
def test_what_the_full_checks_accept_is_accepted(sound: Path, tmp_path: Path, statement) -> None:
    assert problems(tampered(sound, tmp_path, statement)) == []


def test_a_change_anywhere_in_a_long_session_is_found_where_it_is(tmp_path: Path) -> None:
    path = tmp_path / "long.db"
    build(path, 400, seed=3)
    rng = random.Random(11)
    for round_ in range(6):
        number = rng.randint(1, 390)
        deal = (f"(SELECT d.id FROM deals d WHERE d.session_id = 1 AND d.number = {number} AND NOT EXISTS"
                " (SELECT 1 FROM supersessions s WHERE s.deal_id = d.id) AND NOT EXISTS"
                " (SELECT 1 FROM undos u WHERE u.deal_id = d.id))")
        change = rng.choice([f"UPDATE transfers SET chips = chips + 1 WHERE id = (SELECT min(id) FROM transfers"
                             f" WHERE deal_id = {deal})",
                             f"UPDATE deals SET basket = basket + 2 WHERE id = {deal}"])
        (tmp_path / str(round_)).mkdir()
        found = problems(tampered(path, tmp_path / str(round_), change))
        assert found and found[0].startswith(f"session 1, deal {number}:"), (change, found)
