"""The export writes what it wrote before it was made fast, byte for byte (reference_export.py
is that code): a long chips session with deals taken back and corrected, a points session,
names and texts that CSV must quote, and kept balances in every spelling a hand could leave."""

from __future__ import annotations

import random
import shutil
import sqlite3
from decimal import Decimal
from pathlib import Path

import pytest

import reference_export as before
from boston_ledger.core import engine
from boston_ledger.app import export
from boston_ledger.app import deals as table, sessions
from boston_ledger.store import read, write
from boston_ledger.store.db import open_db, writing
from boston_ledger.core.engine import Deal
from boston_ledger.core.tariff_files import load


def build(path: Path, tariff_name: str, names: list[str], count: int, seed: int) -> None:
    tariff = load(tariff_name)
    conn = open_db(path, create=True)
    session_id = sessions.new(conn, names, tariff, Decimal("0.25"), "RUB", None,
                              None if tariff.has_basket else count + 10).id
    rng = random.Random(seed)
    entered = 0
    while entered < count:
        deal = random_deal(rng, tariff) if entered % 3 else rng.choice(SAMPLES)
        try:
            table.enter(conn, deal, session_id)
        except engine.DealError:
            continue
        entered += 1
        if entered in (5, 9):
            table.undo(conn)
    for deal in (Deal("solo", 1, None, 9), Deal("7", 1, None, 8, rank="second")):  # a deal of this tariff
        if deal.contract in tariff.contracts:
            table.correct(conn, 3, deal, "wrong, \"three\"", session_id)
    conn.close()


def random_deal(rng: random.Random, tariff) -> Deal:
    """Any deal, often one the tariff refuses (build() skips those)."""
    key = rng.choice([*tariff.contracts, "pass"])
    if key == "pass":
        return Deal("pass")
    contract = tariff.contracts[key]
    declarer = rng.randrange(tariff.players)
    partner = rng.choice([None, (declarer + 1) % tariff.players]) if contract.with_partner else None
    tricks = rng.randint(0, tariff.tricks)
    return Deal(key, declarer, partner, tricks, None if partner is None else rng.randint(0, tariff.tricks - tricks),
                rng.choice([None, *contract.ranks]), rng.choice([None, 0, 1, 2, 3]) if tariff.boston else None)


SAMPLES = [Deal("junior", 1, 3, 5, 4, boston=2), Deal("pass"), Deal("senior", 0, None, 6), Deal("solo", 2, None, 9),
           Deal("misere", 1, None, 0), Deal("junior", 2, 0, 4, 3, boston=3), Deal("nine", 0, None, 10, rank="senior"),
           Deal("5", 1, None, 5), Deal("6", 2, 0, 4, 2), Deal("pass")]


def exports(path: Path, out: Path) -> dict[str, bytes]:
    conn = open_db(path)
    session = table.current(conn)
    new, old = out / "new", out / "old"
    export.write(conn, session, new)
    before.write(conn, session, old)
    conn.close()
    written = sorted(p.name for p in new.iterdir())
    assert written == sorted(p.name for p in old.iterdir())
    for name in written:
        assert (new / name).read_bytes() == (old / name).read_bytes(), name
    return {name: (new / name).read_bytes() for name in written}


@pytest.fixture(scope="module")
def chips(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("chips") / "ledger.db"
    build(path, "classic", ['Jo, "the" Man', "Аня", "Li;x", "Zoë"], 160, 1)
    return path


def test_a_chips_session_with_names_to_quote(chips: Path, tmp_path: Path) -> None:
    files = exports(chips, tmp_path)
    assert {"deals.csv", "transfers.csv", "balances.csv", "undone.csv", "corrections.csv"} <= set(files)
    assert b'"Jo, ""the"" Man"' in files["transfers.csv"]


HOSTILE = ['=HYPERLINK("http://x","y")', "+1+cmd|' /C calc'!A0", "@SUM(1)", "-2+3"]


def test_names_a_spreadsheet_would_take_for_formulas(tmp_path: Path) -> None:
    path = tmp_path / "formulas.db"
    build(path, "classic", HOSTILE, 60, 3)  # deals taken back and corrected too
    conn = open_db(path)
    sessions.settle(conn)
    conn.close()
    files = exports(path, tmp_path)
    assert len(files) == 7
    assert b"'=HYPERLINK" in files["transfers.csv"] and b"'@SUM(1)" in files["balances.csv"]


def test_a_points_session(tmp_path: Path) -> None:
    path = tmp_path / "points.db"
    build(path, "samouchitel", ["A", "B", "C", "D"], 40, 2)
    exports(path, tmp_path)


def test_a_settled_session(chips: Path, tmp_path: Path) -> None:
    path = tmp_path / "settled.db"
    shutil.copy(chips, path)
    conn = open_db(path)
    sessions.settle(conn)
    conn.close()
    assert {"settlement.csv", "payments.csv"} <= set(exports(path, tmp_path))


@pytest.mark.parametrize("kept", ["[1,2,3,4]", "[ 1, 2, 3, 4]", "[1.0, 2, 3, 4]", "[-0, 0, 0, 0]", "[1e2, 0, 0, 0]",
                                  "[007, 0, 0, 0]", "[]", "[1]", "{}", "junk", "", None, '["a,b", "c\\"d", 0, 0]',
                                  "[123456789012345678901234567890, -1, 0, 0]", "[1, 2, 3, 4] "])
def test_kept_balances_in_any_spelling(chips: Path, tmp_path: Path, kept) -> None:
    path = tmp_path / "odd.db"
    shutil.copy(chips, path)
    conn = sqlite3.connect(path)
    conn.execute("DROP TRIGGER deals_no_update")
    conn.execute("UPDATE deals SET balances = ?, basket = CASE WHEN id % 2 THEN NULL ELSE basket END"
                 " WHERE id IN (SELECT id FROM deals d WHERE NOT EXISTS (SELECT 1 FROM supersessions s"
                 " WHERE s.deal_id = d.id) ORDER BY id LIMIT 12 OFFSET 20)", (kept,))
    conn.commit()
    conn.close()
    exports(path, tmp_path)


@pytest.mark.parametrize("statement", [
    "UPDATE deals SET entered_at = 'a,b' WHERE id % 3 = 0",
    "UPDATE deals SET entered_at = 'say \"when\"' WHERE id % 5 = 0",
    "UPDATE deals SET entered_at = 'two' || char(10) || 'lines' WHERE id % 4 = 0",
    "UPDATE deals SET entered_at = '' WHERE id % 4 = 1",
    "UPDATE transfers SET reason = 'x, y' WHERE id % 3 = 0",
    "UPDATE transfers SET reason = 'cr' || char(13) WHERE id % 5 = 0",
    "UPDATE transfers SET payer = 424242 WHERE id % 7 = 0 AND payer IS NOT NULL",  # no such player: 'basket'
    "UPDATE players SET name = 'a' || char(10) || 'b' WHERE id = 2",
    "UPDATE deals SET number = number + 1000 WHERE id % 9 = 0",
    "UPDATE deals SET number = -number WHERE id % 11 = 0",
    "UPDATE deals SET entered_at = '=1+1' WHERE id % 3 = 0",
    "UPDATE deals SET entered_at = '-12' WHERE id % 3 = 1",
    "UPDATE deals SET entered_at = '-1.5' WHERE id % 3 = 2",
    "UPDATE deals SET entered_at = '+x' WHERE id % 4 = 0",
    "UPDATE deals SET entered_at = char(9) || 'tab' WHERE id % 5 = 0",
    "UPDATE deals SET entered_at = char(13) || 'cr' WHERE id % 6 = 0",
    "UPDATE deals SET entered_at = '@x' WHERE id % 7 = 0",
    "UPDATE transfers SET reason = '=cmd|x' WHERE id % 3 = 0",
    "UPDATE transfers SET reason = '-5' WHERE id % 4 = 0",
    "UPDATE players SET name = '-7' WHERE id = 3",
    "UPDATE players SET name = '-' WHERE id = 4",
])
def test_texts_a_hand_could_leave(chips: Path, tmp_path: Path, statement: str) -> None:
    path = tmp_path / "odd.db"
    shutil.copy(chips, path)
    conn = sqlite3.connect(path)
    for table in ("deals", "transfers", "players"):
        conn.execute(f"DROP TRIGGER {table}_no_update")
    conn.execute(statement)
    conn.commit()
    conn.close()
    exports(path, tmp_path)
