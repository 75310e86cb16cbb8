"""The exported CSV opens in a spreadsheet: LibreOffice headless reads it back with its Cyrillic
names and its numbers intact. `.ci/run` installs LibreOffice (Debian's libreoffice-calc-nogui)
when it is absent; elsewhere this test skips."""

from __future__ import annotations

import csv
import shutil
import subprocess
from itertools import zip_longest
from pathlib import Path

import pytest

NAMES = ["Аня", "Борис", "Вера", "Глеб"]
SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
pytestmark = pytest.mark.slow  # LibreOffice starts in seconds: the whole suite runs these, the quick subset not


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
    # open the files as a spreadsheet (UTF-8, comma separated) and save them again as CSV
    done = subprocess.run(
        [SOFFICE, "--headless", f"-env:UserInstallation=file://{tmp_path / 'profile'}",
         "--infilter=CSV:44,34,76,1", "--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1",
         "--outdir", str(converted), str(out / "balances.csv"), str(out / "settlement.csv")],
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


OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"


def spreadsheet_cells(path: Path) -> list[list[tuple[str, str, str | None]]]:
    """The cells of a flat OpenDocument spreadsheet: (value type, text shown, formula) per cell."""
    import xml.etree.ElementTree as ET

    rows = []
    for row in ET.parse(path).getroot().iter(f"{TABLE}table-row"):
        cells = []
        for c in row.iter(f"{TABLE}table-cell"):
            shown = "\n".join("".join(p.itertext()) for p in c if p.tag.endswith("}p"))
            cell = (c.get(f"{OFFICE}value-type", ""), shown, c.get(f"{TABLE}formula"))
            cells += [cell] * int(c.get(f"{TABLE}number-columns-repeated", "1"))
        while cells and cells[-1] == ("", "", None):
            cells.pop()
        rows.append(cells)
    return rows


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed (Debian: libreoffice-calc-nogui)")
def test_libreoffice_runs_no_formula_of_a_name(cli, tmp_path: Path) -> None:
    """Names a spreadsheet would run as formulas come back as text (behind the one apostrophe the
    export puts before them, which LibreOffice shows, as Excel does), numbers as numbers, in all
    eight files, headers included; LibreOffice saving them as CSV again writes the same cells."""
    from test_export import FORMULAS, formula_evening

    out = tmp_path / "export"
    formula_evening(cli, out)
    files = sorted(out.iterdir())
    assert len(files) == 8
    converted = tmp_path / "converted"
    for target in ("fods", "csv:Text - txt - csv (StarCalc):44,34,76,1"):
        done = subprocess.run(
            [SOFFICE, "--headless", f"-env:UserInstallation=file://{tmp_path / 'profile'}",
             "--infilter=CSV:44,34,76,1", "--convert-to", target, "--outdir", str(converted), *map(str, files)],
            capture_output=True, text=True, timeout=240)
        assert done.returncode == 0, done.stderr
    texts = numbers = 0
    for path in files:
        with path.open(encoding="utf-8-sig", newline="") as f:
            written = list(csv.reader(f))
        sheet = spreadsheet_cells(converted / path.with_suffix(".fods").name)
        assert len(sheet) == len(written), path.name
        for ours, theirs in zip(written, sheet, strict=True):
            assert len(theirs) <= len(ours)  # the empty cells at a row's end are dropped by the sheet
            for value, (kind, shown, formula) in zip_longest(ours, theirs, fillvalue=("", "", None)):
                assert formula is None, (path.name, value, formula)  # nothing runs
                if value.startswith("'"):
                    assert (kind, shown) == ("string", value), (path.name, value)  # the text as it is
                    assert value[1:] in (*FORMULAS, "=1+1 was wrong") or "=" in value
                    texts += 1
                elif value.lstrip("-").replace(".", "", 1).isdigit():
                    assert kind == "float" and float(shown) == float(value), (path.name, value)
                    numbers += 1
        with (converted / path.name).open(encoding="utf-8-sig", newline="") as f:
            assert same(list(csv.reader(f))) == same(written), path.name  # saved again: the same cells
    assert texts >= 30 and numbers >= 30


def same(rows: list[list[str]]) -> list[list[str | float]]:
    """Rows as a spreadsheet holds them: numbers as numbers (LibreOffice writes 4.20 as 4.2), no
    empty cells at the end of a row."""
    out = []
    for row in rows:
        cells = [float(v) if v.lstrip("-").replace(".", "", 1).isdigit() else v for v in row]
        while cells and cells[-1] == "":
            cells.pop()
        out.append(cells)
    return out
