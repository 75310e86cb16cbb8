"""The exported CSV opens in a spreadsheet: LibreOffice headless reads it back with its Cyrillic
names and its numbers intact. `.ci/run` installs LibreOffice (Debian's libreoffice-calc-nogui)
when it is absent; elsewhere this test skips."""

from __future__ import annotations

import csv
import shutil
import subprocess
from pathlib import Path

import pytest

NAMES = ["Аня", "Борис", "Вера", "Глеб"]
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed (Debian: libreoffice-calc-nogui)")
def test_libreoffice_reads_the_export_back(cli, tmp_path: Path) -> None:
    cli("new", *NAMES, "--chip-value", "0.10", "--currency", "RUB")
    cli("deal", "младшая", "--declarer", "Борис", "--partner", "Глеб", "--tricks", "5", "--partner-tricks", "4",
        "--boston", "Вера")
    cli("deal", "пас")
    cli("deal", "старшая", "--declarer", "Аня", "--tricks", "6")
    result = cli.json("settle")
    out = tmp_path / "export"
    cli("export", str(out))
    converted = tmp_path / "converted"
    for name in ("balances.csv", "settlement.csv"):
        # open the file as a spreadsheet (UTF-8, comma separated) and save it again as CSV
        done = subprocess.run(
            [SOFFICE, "--headless", f"-env:UserInstallation=file://{tmp_path / 'profile'}",
             "--infilter=CSV:44,34,76,1", "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1",
             "--outdir", str(converted), str(out / name)],
            capture_output=True, text=True, timeout=240)
        assert done.returncode == 0, done.stderr
    with (converted / "balances.csv").open(encoding="utf-8") as f:
        rows = list(csv.reader(f))
    assert rows[0][0].lstrip("\ufeff") == "deal" and rows[0][1:] == [*NAMES, "basket"]
    assert rows[1:] == [["1", "-20", "16", "-12", "16", "0"], ["2", "-40", "-4", "-32", "-4", "80"],
                        ["3", "64", "-12", "-40", "-12", "0"]]
    with (converted / "settlement.csv").open(encoding="utf-8") as f:
        settled = {row[0].lstrip("\ufeff"): row for row in csv.reader(f)}
    for name in NAMES:
        assert float(settled[name][2]) == float(result["money"][name])  # the numbers survive as numbers
        assert settled[name][3] == "RUB"
