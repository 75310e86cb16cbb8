"""`boston-ledger import OTHER.db`: another laptop's evenings and payments brought in once each,
an evening changed on both sides shown with both versions and left out, a tampered evening refused
at the deal where its replay parts, another spelling joined by --same and taken back with the
import, --dry-run writing nothing, all of it in one transaction."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from boston_ledger.store import merge, schema
from conftest import FIXTURES

JUNIOR = ["deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4",
          "--boston", "Vera"]


def counts(path: Path) -> dict[str, int]:
    """How many rows each table holds."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {n: conn.execute(f'SELECT COUNT(*) FROM "{n}"').fetchone()[0] for n in names}
    finally:
        conn.close()


def evening(cli, db: Path, players: list[str], *deals: list[str], settle: bool = True) -> None:
    cli("new", *players, "--db", str(db), "--yes")
    for args in deals:
        cli(*args, "--db", str(db))
    if settle:
        cli("settle", "--yes", "--db", str(db))


@pytest.fixture
def two(tmp_path: Path, made) -> tuple[Path, Path]:
    """This laptop's ledger (one settled evening of the worked example's first deal) and another's
    (a settled evening with Алёна written in small letters, and a payment): each made once for the
    run (conftest.made), copied for each test."""
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    here.write_bytes(made(("new", "Anna", "Boris", "Vera", "Gleb", "--yes"), tuple(JUNIOR), ("settle", "--yes"),
                          ("new", "Алена", "Boris", "Vera", "Gleb", "--yes"), blank=True))  # Алёна as here writes her
    there.write_bytes(made(("new", "Anna", "Boris", "Vera", "алёна", "--yes"),
                           ("deal", "senior", "--declarer", "Anna", "--tricks", "6"), ("settle", "--yes"),
                           ("paid", "Boris", "Anna", "5.00", "--yes"), blank=True))
    return here, there


def test_importing_twice_brings_once(cli, two: tuple[Path, Path]) -> None:
    here, there = two
    done = cli("import", str(there), "--db", str(here))
    assert "session 1 there: Anna, Boris, Vera, Алена, 1 deal, settled → session 3 here" in done.stdout
    assert "'алёна' is written 'Алена' here." in done.stdout
    assert "Import 1 recorded: 1 evening, 1 payment." in done.stdout
    # the worked example's deal 1 here (Anna -20, Boris +16, Vera -12, Gleb +16); a senior alone made one
    # over there (a stake of 10 each, 8 from each, the basket of 40: Anna +54, the others -18); Boris paid
    # Anna 5.00 there
    book = cli.json("ledger", "--db", str(here))[""]
    assert book["balances"] == {"Anna": "29.00", "Boris": "3.00", "Gleb": "16.00", "Vera": "-30.00",
                                "Алена": "-18.00"}
    assert book["paid"] == 1
    assert [s["id"] for s in cli.json("sessions", "--db", str(here))] == [1, 2, 3]
    assert cli.json("stats", "--db", str(here))["players"]["Алена"]["sessions"] == 2  # hers and the one brought
    assert cli("check", "--all", "--db", str(here)).stdout == ""

    before = counts(here)
    again = cli("import", str(there), "--db", str(here))
    assert "1 evening is here already, as it is there." in again.stdout
    assert "1 payment is here already." in again.stdout and "Nothing new to import." in again.stdout
    assert counts(here) == before  # not a row more: not even an import's
    assert "Nothing new to import." in cli("import", str(here), "--db", str(here)).stdout  # itself
    assert counts(here) == before


def test_the_money_of_both_laptops_adds_up(cli, two: tuple[Path, Path]) -> None:
    here, there = two
    alone_here = cli.json("ledger", "--db", str(here))[""]["balances"]
    alone_there = cli.json("ledger", "--db", str(there))[""]["balances"]
    cli("import", str(there), "--db", str(here))
    merged = cli.json("ledger", "--db", str(here))[""]["balances"]
    cents = {}
    for side in (alone_here, {"Алена" if k == "алёна" else k: v for k, v in alone_there.items()}):
        for name, value in side.items():
            cents[name] = cents.get(name, 0) + round(float(value) * 100)
    assert {k: round(float(v) * 100) for k, v in merged.items()} == cents


def test_an_evening_changed_on_both_laptops_is_a_conflict_with_both_versions(cli, two: tuple[Path, Path]) -> None:
    here = two[0]
    copy = here.with_name("copy.db")
    shutil.copyfile(here, copy)  # the evening of Алена (session 2) goes to the other laptop too
    cli("deal", "pass", "--db", str(copy), "--session", "2")
    cli("deal", "pass", "--db", str(copy), "--session", "2")
    cli("deal", "solo", "--declarer", "Vera", "--tricks", "9", "--db", str(here), "--session", "2")
    before = counts(here)
    done = cli("import", str(copy), "--db", str(here), code=1)
    out = done.stdout
    assert ("Conflict, left out: session 2 here and session 2 there are one evening, changed on both sides "
            "(they part at deal 1):") in out
    # solo made with 9 (one over): 20 from each, the basket of 40 hers; two all-pass deals: 40 each in the basket
    assert "here:  Алена, Boris, Vera, Gleb, 1 deal, open" in out
    assert "balances Алена -30, Boris -30, Vera +90, Gleb -30, basket 0" in out
    assert "there: Алена, Boris, Vera, Gleb, 2 deals, open" in out
    assert "balances Алена -40, Boris -40, Vera -40, Gleb -40, basket 160" in out
    assert "1 evening is here already" in out and "Nothing new to import." in out
    assert counts(here) == before


def test_another_spelling_is_joined_and_undone_with_its_import(cli, tmp_path: Path) -> None:
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    evening(cli, here, ["Александр", "Boris", "Vera", "Gleb"], JUNIOR)
    evening(cli, there, ["Саша", "Boris", "Vera", "Gleb"], ["deal", "senior", "--declarer", "Саша", "--tricks", "6"])
    alone = cli.json("ledger", "--db", str(here))[""]["balances"]

    done = cli("import", str(there), "--same", "Саша=Александр", "--db", str(here))
    assert "'Саша' is written 'Александр' here." in done.stdout
    merged = cli.json("ledger", "--db", str(here))[""]["balances"]
    assert "Саша" not in merged and merged["Александр"] == "34.00"  # -20 here, +54 there
    assert "Саша=Александр" in cli("import", "--list", "--db", str(here)).stdout
    again = cli("import", str(there), "--db", str(here))  # the joined spelling is remembered
    assert "Nothing new to import." in again.stdout

    undone = cli("import", "--undo", "1", "--db", str(here))
    assert "Import 1 undone" in undone.stdout
    assert cli.json("ledger", "--db", str(here))[""]["balances"] == alone
    assert [s["id"] for s in cli.json("sessions", "--db", str(here))] == [1]
    assert "undone" in cli("import", "--list", "--db", str(here)).stdout
    assert "undone already" in cli("import", "--undo", "1", "--db", str(here), code=2).stderr

    cli("import", str(there), "--db", str(here))  # without --same: two people
    apart = cli.json("ledger", "--db", str(here))[""]["balances"]
    assert apart["Александр"] == "-20.00" and apart["Саша"] == "54.00"


def test_one_spelling_is_taken_back_and_the_evenings_stay(cli, tmp_path: Path) -> None:
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    evening(cli, here, ["Александр", "Boris", "Vera", "Gleb"], JUNIOR)
    evening(cli, there, ["Саша", "Boris", "Vera", "Zoe"], ["deal", "senior", "--declarer", "Саша", "--tricks", "6"])
    evening(cli, there, ["Саша", "Boris", "Vera", "Gleb"], ["deal", "pass"], settle=False)
    cli("paid", "Саша", "Boris", "1.00", "--yes", "--db", str(there))
    cli("import", str(there), "--same", "Саша=Александр", "--same", "Zoe=Gleb", "--db", str(here))
    assert "Саша" not in cli.json("ledger", "--db", str(here))[""]["balances"]
    cli("use", "3", "--db", str(here))  # the open evening brought

    error = cli("import", "--undo-same", "Петя=Александр", "--db", str(here), code=2).stderr
    assert "no standing import joined Петя=Александр" in error and error.count("\n") == 1
    done = cli("import", "--undo-same", "саша=Александр", "--db", str(here))
    assert "Import 1 undone, and its 2 evenings brought again as import 2: саша=Александр no longer joins." \
        in done.stdout
    # two players again: Александр -20 here; Саша +54 there (a senior made, Zoe written Gleb still), paid 1.00
    book = cli.json("ledger", "--db", str(here))[""]
    assert book["balances"]["Александр"] == "-20.00" and book["balances"]["Саша"] == "55.00"
    assert "Zoe" not in book["balances"] and book["paid"] == 1
    assert [s["players"][0] for s in cli.json("sessions", "--db", str(here))] == ["Александр", "Саша", "Саша"]
    assert cli.json("status", "--db", str(here))["session"] == 5  # the open evening's new copy
    assert [(i["id"], i["undone_at"] is None, i["same"]) for i in cli.json("import", "--list", "--db", str(here))] \
        == [(1, False, [{"there": "Саша", "here": "Александр"}, {"there": "Zoe", "here": "Gleb"}]),
            (2, True, [{"there": "Zoe", "here": "Gleb"}])]
    assert cli("check", "--all", "--db", str(here)).stdout == ""
    assert "Nothing new to import." in cli("import", str(there), "--db", str(here)).stdout
    assert "no standing import joined" in cli("import", "--undo-same", "Саша=Александр", "--db", str(here),
                                              code=2).stderr


def test_json_says_which_import_was_undone_and_which_brought_the_evenings_again(cli, tmp_path: Path) -> None:
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    evening(cli, here, ["Александр", "Boris", "Vera", "Gleb"], JUNIOR)
    evening(cli, there, ["Саша", "Boris", "Vera", "Gleb"], ["deal", "pass"])
    cli("import", str(there), "--same", "Саша=Александр", "--db", str(here))
    done = cli.json("import", "--undo-same", "Саша=Александр", "--db", str(here))
    assert done["undone"]["id"] == 1 and done["undone"]["undone_at"] is not None
    assert done["again"]["import"] == 2 and done["again"]["brought"][0]["players"][0] == "Саша"
    assert done["again"]["players"]["new"] == ["Саша"] and done["again"]["players"]["same"] == []


def test_a_spelling_is_not_taken_back_from_an_evening_continued_since(cli, tmp_path: Path) -> None:
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    evening(cli, here, ["Александр", "Boris", "Vera", "Gleb"], JUNIOR)
    evening(cli, there, ["Саша", "Boris", "Vera", "Gleb"], ["deal", "pass"], settle=False)
    cli("import", str(there), "--same", "Саша=Александр", "--db", str(here))
    cli("deal", "pass", "--session", "2", "--db", str(here))  # the evening brought goes on here
    before = counts(here)
    error = cli("import", "--undo-same", "Саша=Александр", "--db", str(here), code=2).stderr
    assert "no longer as they are in" in error and "nothing was changed" in error
    assert counts(here) == before
    moved = tmp_path / "gone.db"
    there.rename(moved)
    assert "which is not there" in cli("import", "--undo-same", "Саша=Александр", "--db", str(here), code=2).stderr
    assert "takes nothing else" in cli("import", "--undo-same", "Саша=Александр", "--list", "--db", str(here),
                                       code=2).stderr
    assert counts(here) == before


def test_a_spelling_is_not_taken_back_while_a_later_import_may_have_joined_it(cli, tmp_path: Path) -> None:
    here, there, third = tmp_path / "here.db", tmp_path / "there.db", tmp_path / "third.db"
    evening(cli, here, ["Александр", "Boris", "Vera", "Gleb"], JUNIOR)
    evening(cli, there, ["Саша", "Boris", "Vera", "Gleb"], ["deal", "pass"])
    evening(cli, third, ["Саша", "Anna", "Vera", "Gleb"], ["deal", "pass"])
    cli("import", str(there), "--same", "Саша=Александр", "--db", str(here))
    cli("import", str(third), "--db", str(here))  # the spelling joined there too, standing
    before = counts(here)
    error = cli("import", "--undo-same", "Саша=Александр", "--db", str(here), code=2).stderr
    assert "import 2, made since, may have joined Саша=Александр too" in error
    assert counts(here) == before


def test_a_spelling_nobody_has_is_refused(cli, two: tuple[Path, Path]) -> None:
    here, there = two
    before = counts(here)
    error = cli("import", str(there), "--same", "Petya=Anna", "--db", str(here), code=2).stderr
    assert "nobody called 'Petya' has played in" in error and error.count("\n") == 1
    assert "--same takes two spellings" in cli("import", str(there), "--same", "Anna", "--db", str(here),
                                               code=2).stderr
    assert counts(here) == before


def test_a_tampered_evening_is_refused_at_the_deal_where_its_replay_parts(cli, tmp_path: Path) -> None:
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    evening(cli, here, ["Anna", "Boris", "Vera", "Gleb"], JUNIOR)
    evening(cli, there, ["W", "X", "Y", "Z"], ["deal", "pass"], ["deal", "solo", "--declarer", "X", "--tricks", "9"],
            ["deal", "pass"])
    evening(cli, there, ["P", "Q", "R", "S"], ["deal", "pass"])
    conn = sqlite3.connect(there)  # as anyone can, with sqlite3: deal 2 says X won more
    conn.execute("DROP TRIGGER deals_no_update")
    conn.execute("UPDATE deals SET balances = '[-30, 100, -30, -30]' WHERE session_id = 1 AND number = 2")
    conn.execute(schema._trigger("deals", "UPDATE"))
    conn.commit()
    conn.close()
    done = cli("import", str(there), "--db", str(here), code=1)
    assert "Refused, left out: session 1 there (W, X, Y, Z) does not replay as stored: session 1, deal 2: " \
           "stored balances after the deal [-30, 100, -30, -30]" in done.stdout
    assert "session 2 there: P, Q, R, S, 1 deal, settled → session 2 here" in done.stdout  # the sound one comes
    assert [s["players"][0] for s in cli.json("sessions", "--db", str(here))] == ["Anna", "P"]
    again = json.loads(cli("import", str(there), "--json", "--db", str(here), code=1).stdout)
    (refused,) = again["refused"]
    assert refused["there"] == 1 and refused["players"] == ["W", "X", "Y", "Z"]
    assert refused["problem"].startswith("session 1, deal 2: stored balances after the deal")
    assert again["evenings"]["refused"] == 1 and again["evenings"]["already"] == 1 and again["left_out"] is True


def test_dry_run_shows_what_would_come_and_writes_nothing(cli, two: tuple[Path, Path]) -> None:
    here, there = two
    before, image = counts(here), here.read_bytes()
    done = cli("import", str(there), "--dry-run", "--db", str(here))
    assert done.stdout.startswith(f"From {there}, an import would bring:\n")
    assert "session 1 there: Anna, Boris, Vera, Алена, 1 deal, settled\n" in done.stdout
    assert "1 payment: Boris → Anna 5.00" in done.stdout and "Nothing recorded (--dry-run)." in done.stdout
    assert counts(here) == before and here.read_bytes() == image


def test_payments_come_along_once(cli, two: tuple[Path, Path]) -> None:
    here, there = two
    cli("import", str(there), "--db", str(here))
    copy = here.with_name("copy.db")
    shutil.copyfile(here, copy)
    cli("paid", "Vera", "Gleb", "1.00", "--yes", "--db", str(copy))  # paid on the other laptop since
    done = cli("import", str(copy), "--db", str(here))
    assert "1 payment: Vera → Gleb 1.00" in done.stdout and "1 payment is here already." in done.stdout
    assert [(p["from"], p["to"]) for p in cli.json("payments", "--db", str(here))] == [("Boris", "Anna"),
                                                                                       ("Vera", "Gleb")]
    cli("paid", "--cancel", "1", "--db", str(copy))  # cancelled there, standing here: shown, never decided
    out = cli("import", str(copy), "--db", str(here), code=1).stdout
    assert "Conflict, left out: the payment Boris → Anna 5.00" in out and "was cancelled there; here it stands" in out
    assert len(cli.json("payments", "--db", str(here))) == 2


def test_an_import_is_all_or_nothing(cli, two: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    here, there = two
    before = counts(here)

    def broken(*args: object) -> int:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(merge, "record_import", broken)  # after the evenings and payments were written
    cli("import", str(there), "--db", str(here), code=2)
    assert counts(here) == before


def test_an_earlier_ledger_is_imported_once_brought_up_to_date(cli, tmp_path: Path) -> None:
    here, old = tmp_path / "here.db", tmp_path / "old.db"
    evening(cli, here, ["Anna", "Boris", "Vera", "Gleb"], JUNIOR)
    shutil.copyfile(FIXTURES / "earlier" / "v10.db", old)
    error = cli("import", str(old), "--db", str(here), code=2).stderr
    assert "is not a boston-ledger database of this version" in error and error.count("\n") == 1
    cli("status", "--db", str(old))  # brought up to date: every evening given its identity
    twin = tmp_path / "twin.db"
    shutil.copyfile(FIXTURES / "earlier" / "v10.db", twin)
    cli("status", "--db", str(twin))
    ids = [sorted(merge.identities(sqlite3.connect(p))) for p in (old, twin)]
    assert ids[0] == ids[1] and len(ids[0]) == 6  # two copies migrated apart know the same evenings
    done = cli("import", str(old), "--db", str(here))
    assert "Import 1 recorded: 6 evenings, 2 payments." in done.stdout  # one cancelled, as there
    assert "Nothing new to import." in cli("import", str(twin), "--db", str(here)).stdout
    assert cli("check", "--all", "--db", str(here)).stdout == ""


def test_the_phone_sees_an_imported_evening(cli, two: tuple[Path, Path]) -> None:
    from serving import balance_in, deals_in, view

    here, there = two
    cli("import", str(there), "--db", str(here))
    cli("use", "3", "--db", str(here))
    sheet = view(here).sheet
    assert deals_in(sheet) == 1
    assert balance_in(sheet, "Anna") == 54 and balance_in(sheet, "Алена") == -18  # a senior alone, one over


def test_an_evening_continued_there_is_brought_forward(cli, tmp_path: Path) -> None:
    """An evening imported, then played on and settled over there: the next import brings the rest
    (the evening there, whole, in place of the one here), never a conflict; undone, the evening
    here stands again as it was."""
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    evening(cli, there, ["Anna", "Boris", "Vera", "Gleb"], JUNIOR, settle=False)
    cli("new", "Dima", "Eva", "Fedor", "Gosha", "--db", str(here), "--yes")
    cli("import", str(there), "--db", str(here))
    cli("use", "2", "--db", str(here))
    before = cli.json("ledger", "--db", str(here))
    cli("deal", "senior", "--declarer", "Anna", "--tricks", "6", "--db", str(there))
    cli("undo", "--db", str(there))
    cli("seat", "Gleb", "Dima", "--own", "--db", str(there))
    cli("deal", "solo", "--declarer", "Vera", "--tricks", "8", "--db", str(there))
    cli("edit", "1", "--tricks", "6", "--reason", "six", "--db", str(there))
    cli("settle", "--yes", "--db", str(there))
    done = cli("import", str(there), "--db", str(here))
    assert ("session 1 there: Anna, Boris, Vera, Gleb, Dima, 2 deals, settled → session 3 here, continuing session 2"
            " here" in done.stdout) and "Conflict" not in done.stdout
    assert cli.json("ledger", "--db", str(here)) == cli.json("ledger", "--db", str(there))
    assert [s["id"] for s in cli.json("sessions", "--db", str(here))] == [1, 3]
    assert cli.json("status", "--db", str(here))["session"] == 3  # the current evening followed
    assert cli("check", "--all", "--db", str(here)).stdout == ""
    assert "1 evening is here already" in cli("import", str(there), "--db", str(here)).stdout
    cli("reopen", "--session", "3", "--db", str(here))
    cli("deal", "pass", "--session", "3", "--db", str(here))  # continued here since
    assert "1 evening is here already, and continued here since." in cli("import", str(there), "--db",
                                                                          str(here)).stdout
    cli("import", "--undo", "2", "--db", str(here))
    assert [s["id"] for s in cli.json("sessions", "--db", str(here))] == [1, 2]
    assert cli.json("ledger", "--db", str(here)) == before


def test_an_evening_continued_on_both_sides_is_a_conflict(cli, tmp_path: Path) -> None:
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    evening(cli, there, ["Anna", "Boris", "Vera", "Gleb"], JUNIOR, settle=False)
    cli("new", "Dima", "Eva", "Fedor", "Gosha", "--db", str(here), "--yes")
    cli("import", str(there), "--db", str(here))
    cli("deal", "pass", "--session", "2", "--db", str(here))
    cli("deal", "senior", "--declarer", "Anna", "--tricks", "6", "--db", str(there))
    done = cli("import", str(there), "--db", str(here), code=1)
    assert "Conflict, left out: session 2 here and session 1 there" in done.stdout
    assert "they part at deal 2" in done.stdout


def test_json_says_what_an_import_did_and_would_do(cli, two: tuple[Path, Path]) -> None:
    here, there = two
    before = counts(here)
    would = cli.json("import", str(there), "--dry-run", "--db", str(here))
    assert counts(here) == before
    assert would["dry_run"] is True and would["import"] is None and would["source"] == str(there)
    assert would["evenings"] == {"added": 1, "fast_forwarded": 0, "already": 0, "continued_here": 0,
                                 "conflicts": 0, "refused": 0}
    assert would["brought"] == [{"there": 1, "here": None, "name": None, "players": ["Anna", "Boris", "Vera", "Алена"],
                                 "deals": 1, "settled": True, "continues": None}]
    # алёна is Алена here; the other three had played here already; nobody is new
    assert would["players"] == {"matched": ["Anna", "Boris", "Vera", "Алена"], "new": [],
                                "written_as": {"алёна": "Алена"}, "same": []}
    assert would["payments"]["added"] == 1 and would["payments"]["already"] == 0
    assert [(p["from"], p["to"], p["amount"]) for p in would["payments"]["brought"]] == [("Boris", "Anna", "5.00")]
    assert would["left_out"] is False

    done = cli.json("import", str(there), "--db", str(here))
    assert done["import"] == 1 and done["dry_run"] is False
    assert done["brought"][0]["here"] == 3
    again = cli.json("import", str(there), "--db", str(here))
    assert again["import"] is None and again["brought"] == []
    assert again["evenings"]["already"] == 1 and again["payments"] == {"added": 0, "already": 1, "brought": [],
                                                                        "conflicts": []}
    listed = cli.json("import", "--list", "--db", str(here))
    assert [(i["id"], i["sessions"], i["undone_at"]) for i in listed] == [(1, [3], None)]
    undone = cli.json("import", "--undo", "1", "--db", str(here))
    assert undone["id"] == 1 and undone["sessions"] == [3] and undone["undone_at"] is not None


def test_json_shows_a_conflict_and_an_alias(cli, tmp_path: Path) -> None:
    here, there = tmp_path / "here.db", tmp_path / "there.db"
    evening(cli, here, ["Александр", "Boris", "Vera", "Gleb"], JUNIOR, settle=False)
    shutil.copyfile(here, there)  # the same evening on both laptops, then a deal on each
    cli("deal", "pass", "--db", str(here))
    cli("deal", "senior", "--declarer", "Boris", "--tricks", "6", "--db", str(there))
    cli("settle", "--yes", "--db", str(there))
    evening(cli, there, ["Саша", "Zoe", "Vera", "Gleb"], ["deal", "pass"])
    out = cli("import", str(there), "--same", "Саша=Александр", "--json", "--db", str(here), code=1).stdout
    done = json.loads(out)
    assert done["evenings"]["conflicts"] == 1 and done["left_out"] is True
    conflict = done["conflicts"][0]
    assert conflict["parts_at"] == 2 and conflict["here"]["session"] == 1 and conflict["there"]["deals"] == 2
    assert list(conflict["here"]["balances"]) == ["Александр", "Boris", "Vera", "Gleb"]
    assert conflict["there"]["settled"] is True and "deals" in conflict["differs"]
    assert done["brought"][0]["players"] == ["Александр", "Zoe", "Vera", "Gleb"]
    assert done["players"]["same"] == [{"there": "Саша", "here": "Александр"}]
    assert done["players"]["written_as"] == {"Саша": "Александр"} and done["players"]["new"] == ["Zoe"]
