"""A tariff file's words, titles and table names are plain text (issue 23): `tariffs check` and
`new --tariff` refuse a control character in them (CR, LF in a single-line word, ESC, C1, the
bidirectional controls), naming the place; nothing is written. Texts of several lines (notes,
source, a condition's seed) may hold line breaks and tabs."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomli_w
import tomllib

from conftest import PLAYERS, rename_contract

CLASSIC = Path(__file__).resolve().parent.parent / "tariffs" / "classic.toml"


def tariff(tmp_path: Path, change) -> Path:
    data = tomllib.loads(CLASSIC.read_text(encoding="utf-8"))
    data["tariff"]["name"] = "mine"
    change(data)
    path = tmp_path / "mine.toml"
    path.write_text(tomli_w.dumps(data), encoding="utf-8")
    return path


CASES = {  # where: (how the file is changed, what the error names)
    "a contract's key, CR": (lambda d: rename_contract(d, "ju\rnior"), "[contracts]: the name 'ju\\rnior'"),
    "a contract's key, bidi override": (lambda d: rename_contract(d, "solo\u202e"), "[contracts]: the name"),
    "a contract's name, LF": (lambda d: d["contracts"]["solo"]["names"].append("so\nlo"),
                              "[contracts.solo] names:"),
    "a contract's name, ESC": (lambda d: d["contracts"]["solo"]["names"].append("x\x1b[2J"),
                               "[contracts.solo] names:"),
    "a rank's name, C1 (CSI)": (lambda d: d["ranks"]["senior"]["names"].append("odd\x9b2J"),
                                "[ranks.senior] names:"),
    "a rank's key, isolate": (lambda d: d["ranks"].update({"r\u2066": {"names": ["r"]}}), "[ranks]: the name"),
    "the title, CR": (lambda d: d["tariff"].update(title="Classic\rBoston"), "[tariff] title:"),
    "the title, LRM": (lambda d: d["tariff"].update(title="Classic\u200eBoston"), "[tariff] title:"),
    "the title, line separator": (lambda d: d["tariff"].update(title="Classic\u2028Boston"), "[tariff] title:"),
    "a note, paragraph separator": (lambda d: d.update(notes=["one\u2029two"]), "top level notes:"),
    "the source, ESC": (lambda d: d["tariff"].update(source="seed \x1b]52;c;aGVsbG8=\x07"), "[tariff] source:"),
    "a condition's title, TAB": (lambda d: d["conditions"]["simple"].update(title="simple\tgame"),
                                 "[conditions.simple] title:"),
    "a condition's key, DEL": (lambda d: d["conditions"].update({"x\x7f": {"title": "x"}}),
                               "[conditions]: the name"),
    "a pass name, NUL": (lambda d: d["basket"].update(pass_names=["pass\x00"]), "[basket] pass_names:"),
    "a note, CR": (lambda d: d.update(notes=["one\rtwo"]), "top level notes:"),
    "a seed, ESC": (lambda d: d["conditions"]["simple"].update(seed="\x1b[31m"), "[conditions.simple] seed:"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_control_characters_are_refused_with_their_place(case: str, cli, tmp_path: Path, isolated: Path) -> None:
    change, place = CASES[case]
    path = tariff(tmp_path, change)
    found = cli("tariffs", "check", str(path), code=2)
    assert place in found.stderr and "control character U+" in found.stderr, found.stderr
    made = cli("new", *PLAYERS, "--tariff", str(path), code=2)
    assert made.stderr.count("\n") == 1 and made.stderr.startswith("boston-ledger: error: ")
    assert "\r" not in made.stderr and "\x1b" not in made.stderr
    assert not isolated.exists()  # nothing written


def test_texts_of_several_lines_keep_their_line_breaks(cli, tmp_path: Path) -> None:
    def change(d: dict) -> None:
        d["notes"] = ["one line\nand another\tand a tab"]
        d["tariff"]["source"] = "the seed,\nread twice"
        d["conditions"]["simple"]["seed"] = "«1. Простая игра»\nline two"

    path = tariff(tmp_path, change)
    assert cli("tariffs", "check", str(path)).stderr == ""
    cli("new", *PLAYERS, "--tariff", str(path))


def test_a_stored_tariff_is_read_as_it_was_accepted() -> None:
    """A ledger may already hold one (an earlier version accepted it): it is read (and shown escaped
    by every output: test_hostile_text.py runs every command over such a ledger)."""
    from boston_ledger.core.tariff_files import parse

    data = tomllib.loads(CLASSIC.read_text(encoding="utf-8"))
    rename_contract(data, "ju\rnior")
    assert "ju\rnior" in parse(tomli_w.dumps(data), "stored").contracts
