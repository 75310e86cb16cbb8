"""Every earlier ledger is brought up to date: ledgers made by each schema that ever shipped
(tests/fixtures/earlier, made by the old commits themselves; see its README) are recognised,
migrated with every deal, transfer and balance as their own program left them, and `check --all`
passes. And the schema each migration leaves is frozen (tests/fixtures/schema-steps): a released
migration is never edited in place again."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from boston_ledger.store import schema
from boston_ledger.store.schema import APPLICATION_ID, SCHEMA_VERSION
from conftest import FIXTURES, STEPS, frozen_migrations, frozen_schema, schema_of

EARLIER = FIXTURES / "earlier"
LEDGERS = sorted(p.stem for p in EARLIER.glob("*.db"))
# made by 901e709 ... fb5f259, whose engine played a solo or nine entered without a rank as its first
FIRST_RANK = {"v1-901e709", "v1-901e709-later"}


def contents(path: Path) -> dict[str, dict[int, dict]]:
    """Every row of every table of ours, by table and rowid, read without writing."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    conn.row_factory = sqlite3.Row
    try:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                             "AND name NOT LIKE 'sqlite_%' AND name != '_sqlite_migrations'")]
        return {t: {r[0]: dict(r) for r in conn.execute(f'SELECT _rowid_ AS "rowid:", * FROM "{t}"')} for t in tables}
    finally:
        conn.close()


def test_the_corpus_holds_every_schema_that_shipped() -> None:
    """A ledger `vN` for every schema N up to today's, as the program of its commit wrote it (the
    variants of a schema edited in place beside them), each with what that program said of it."""
    versions = {f"v{n}" for n in range(1, SCHEMA_VERSION + 1)}
    missing = sorted(versions - set(LEDGERS))
    assert not missing, (f"no ledger of {', '.join(missing)} in tests/fixtures/earlier: add its label to build.py "
                         "(the commit that introduced the schema) and run python tests/fixtures/earlier/build.py LABEL")
    assert set(LEDGERS) >= {"v1-901e709", "v1-901e709-later", "v2-7377c60", "v2-21dff91", "v4-marked"}
    for label in LEDGERS:
        assert (EARLIER / f"{label}.json").exists(), label
    for label in versions:
        conn = sqlite3.connect(f"file:{EARLIER / label}.db?mode=ro&immutable=1", uri=True)
        try:
            assert conn.execute("PRAGMA user_version").fetchone()[0] == int(label[1:]), label
        finally:
            conn.close()


@pytest.mark.parametrize("label", LEDGERS)
def test_an_earlier_ledger_is_brought_up_to_date_unchanged(label: str, tmp_path: Path, cli) -> None:
    path = tmp_path / "old.db"
    shutil.copyfile(EARLIER / f"{label}.db", path)
    said = json.loads((EARLIER / f"{label}.json").read_text(encoding="utf-8"))
    before = contents(path)

    result = cli("check", "--all", "--db", str(path))  # recognised, migrated, every session replayed
    assert result.stdout == "" and result.stderr == ""

    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert schema_of(conn) == frozen_schema()  # exactly a new ledger's schema
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()

    after = contents(path)
    written_out = []
    for table, rows in before.items():
        assert after[table].keys() == rows.keys(), table  # not a row more or less
        for rowid, row in rows.items():
            now = {k: after[table][rowid][k] for k in row}
            if table == "deals" and now["rank"] != row["rank"]:
                written_out.append((row["contract"], row["rank"], now["rank"]))
                now["rank"] = row["rank"]
            assert now == row, (table, rowid)
    if label in FIRST_RANK:  # the rank those versions played a solo without one at, written out
        assert written_out and set(written_out) == {("solo", None, "junior")}
    else:
        assert written_out == []

    for session, was in said["sessions"].items():  # as the program that made the ledger said it
        status = cli.json("status", "--session", session, "--db", str(path))
        assert {k: status[k] for k in was} == was, session

    current = cli.json("status", "--db", str(path))["session"]  # (its second evening is open too: named)
    cli("undo", "--db", str(path), "--session", str(current))  # and it takes writes again
    assert cli("check", "--all", "--db", str(path)).stdout == ""


def test_a_ledger_of_an_earlier_schema_is_left_untouched_when_it_cannot_be_brought_up(tmp_path: Path, cli) -> None:
    """7377c60 wrote no corrections; a correction that supersedes nothing has no deal to name."""
    path = tmp_path / "odd.db"
    shutil.copyfile(EARLIER / "v2-7377c60.db", path)
    conn = sqlite3.connect(path)
    conn.execute("INSERT INTO corrections (session_id, number, reason, corrected_at) VALUES (1, 1, 'x', 'now')")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    result = cli("status", "--db", str(path), code=2)
    assert "could not be brought up to date" in result.stderr and result.stderr.count("\n") == 1
    assert path.read_bytes() == before


def test_each_migration_leaves_its_frozen_schema() -> None:
    names = schema.migration_names()
    assert frozen_migrations() == names, \
        "each migration has its frozen schema in tests/fixtures/schema-steps (a new one: a new file)"
    for steps, name in enumerate(names, 1):
        conn = schema.made_by(steps)
        try:
            assert schema_of(conn) == frozen_schema(STEPS / f"{name}.sql"), \
                f"{name} no longer leaves the schema it shipped with: add a migration instead of editing it"
        finally:
            conn.close()


RELEASED = [(f"v{n}", name) for n, name in enumerate(schema.migration_names(), 1)] + [("v4-marked", "m004_tricks_each")]


@pytest.mark.parametrize("label, step", RELEASED)
def test_the_frozen_schemas_are_what_the_released_versions_left(label: str, step: str) -> None:
    conn = sqlite3.connect(f"file:{EARLIER / label}.db?mode=ro&immutable=1", uri=True)  # leaves no -shm behind
    try:
        assert schema_of(conn) == frozen_schema(STEPS / f"{step}.sql")
    finally:
        conn.close()
