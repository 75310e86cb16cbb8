"""CSV export read back: deals, transfers, balances after each deal, settlement."""

from __future__ import annotations

import csv
from collections import defaultdict
from decimal import Decimal
from pathlib import Path

NAMES = ["Аня", "Борис", "Вера", "Глеб"]


def read(path: Path) -> list[dict]:
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8 with a BOM: spreadsheets read Cyrillic right
    with path.open(encoding="utf-8-sig", newline="") as f:
        return list(csv.DictReader(f))


def test_export_reads_back(cli, tmp_path: Path) -> None:
    cli("new", *NAMES, "--chip-value", "0.10")
    cli("deal", "junior", "--declarer", "Борис", "--partner", "Глеб", "--tricks", "5",
        "--partner-tricks", "4", "--boston", "Вера")
    cli("deal", "pass")
    cli("deal", "senior", "--declarer", "Аня", "--tricks", "6")
    cli("deal", "solo", "--declarer", "Вера", "--tricks", "7")
    out = tmp_path / "вечер"
    cli("export", str(out))
    names = sorted(p.name for p in out.iterdir())
    assert names == ["balances.csv", "deals.csv", "transfers.csv"]

    deals = read(out / "deals.csv")
    assert [d["contract"] for d in deals] == ["junior", "pass", "senior", "solo"]
    assert [d["dealer"] for d in deals] == NAMES
    assert [d["result"] for d in deals] == ["made", "all pass", "made", "failed"]
    assert deals[0]["declarer"] == "Борис" and deals[0]["boston"] == "Вера"
    # a column for each field the tariff plays: classic has no remise, blank hand, honours, misère partout
    assert list(deals[0])[5:-2] == ["contract", "declarer", "partner", "rank", "team_tricks", "tricks",
                                    "partner_tricks", "boston"]

    net: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for t in read(out / "transfers.csv"):
        net[t["deal"]][t["from"]] -= int(t["chips"])
        net[t["deal"]][t["to"]] += int(t["chips"])
    assert all(sum(v.values()) == 0 for v in net.values())
    assert net["1"]["Вера"] == -12 and net["1"]["basket"] == 0

    balances = read(out / "balances.csv")
    status = cli.json("status")
    last = balances[-1]
    assert {n: int(last[n]) for n in NAMES} == status["balances"]
    assert int(last["basket"]) == status["basket"]
    assert [int(b["Аня"]) for b in balances[:3]] == [-20, -40, 64]

    result = cli.json("settle")
    cli("export", str(out))
    settled = read(out / "settlement.csv")
    assert {r["player"]: r["money"] for r in settled} == result["money"]
    suggested = read(out / "suggested-payments.csv")
    assert sum(Decimal(p["amount"]) for p in suggested) == sum(
        -Decimal(m) for m in result["money"].values() if m.startswith("-"))
    assert not (out / "payments.csv").exists()  # nothing was paid yet


def test_export_keeps_undone_deals(cli, tmp_path: Path) -> None:
    cli("new", *NAMES)
    cli("deal", "solo", "--declarer", "Вера", "--tricks", "7")
    cli("undo")
    cli("deal", "solo", "--declarer", "Вера", "--tricks", "8")
    cli("export", str(tmp_path / "x"))
    undone = read(tmp_path / "x" / "undone.csv")
    assert [(u["deal"], u["declarer"], u["tricks"]) for u in undone] == [("1", "Вера", "7")]
    assert undone[0]["undone_at"]
    assert [d["tricks"] for d in read(tmp_path / "x" / "deals.csv")] == ["8"]


def test_a_second_export_leaves_no_stale_file(cli, tmp_path: Path) -> None:
    cli("new", *NAMES)
    cli("deal", "solo", "--declarer", "Вера", "--tricks", "9")
    cli("settle")
    cli("export", str(tmp_path / "x"))
    assert (tmp_path / "x" / "settlement.csv").exists()
    cli("reopen")
    cli("edit", "1", "solo", "--declarer", "Вера", "--tricks", "7", "--reason", "seven")
    cli("export", str(tmp_path / "x"))
    assert not (tmp_path / "x" / "settlement.csv").exists()
    assert not (tmp_path / "x" / "suggested-payments.csv").exists()
    assert (tmp_path / "x" / "corrections.csv").exists()


FORMULAS = ['=HYPERLINK("http://x","y")', "+1+cmd|' /C calc'!A0", "@SUM(1)", "-2+3"]
STARTS = ("=", "+", "-", "@", "\t", "\r")


def formula_evening(cli, out: Path) -> None:
    """An evening whose players' names, and a correction's reason, a spreadsheet would run as formulas:
    every one of the eight files written."""
    cli("new", "--chip-value", "0.10", "--currency", "RUB", "--", *FORMULAS)  # '-2+3' is no option
    a, b, c, d = FORMULAS
    cli("deal", "junior", f"--declarer={b}", f"--partner={d}", "--tricks", "5", "--partner-tricks", "4",
        f"--boston={c}")
    cli("deal", "pass")
    cli("deal", "solo", f"--declarer={c}", "--tricks", "7")
    cli("undo")
    cli("deal", "senior", f"--declarer={a}", "--tricks", "6")
    cli("edit", "1", "junior", f"--declarer={b}", f"--partner={d}", "--tricks", "5", "--partner-tricks", "3",
        "--reason", "=1+1 was wrong")
    cli("settle")
    cli("paid", "--", b, a, "0.10")
    cli("export", str(out))


def test_no_cell_of_any_file_reads_as_a_formula(cli, tmp_path: Path) -> None:
    out = tmp_path / "x"
    formula_evening(cli, out)
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted(["balances.csv", "corrections.csv", "deals.csv", "payments.csv", "settlement.csv",
                            "suggested-payments.csv", "transfers.csv", "undone.csv"])
    seen, numbers = set(), 0
    for name in names:
        with (out / name).open(encoding="utf-8-sig", newline="") as f:
            for row in csv.reader(f):  # the header row too
                for value in row:
                    if value.startswith(STARTS):  # only a plain number may start so
                        Decimal(value)
                        numbers += 1
                    if value.startswith("'") and value[1:].startswith(STARTS):
                        seen.add(value[1:])
    assert set(FORMULAS) <= seen and "=1+1 was wrong" in seen
    assert numbers > 10  # negative chips and money stay numbers
    with (out / "balances.csv").open(encoding="utf-8-sig", newline="") as f:
        assert next(csv.reader(f)) == ["deal", *("'" + n for n in FORMULAS), "basket"]
