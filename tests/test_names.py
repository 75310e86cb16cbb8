"""Names that look the same are the same name: `name_key` folds case, compatibility forms (NFKC)
and the characters that show as nothing (Default_Ignorable_Code_Point); every place that
compares names uses it (new, a seat by name, guided entry, paid, ledger, stats)."""

from __future__ import annotations

import sys
import unicodedata

import pytest

from boston_ledger.app.inputs import IGNORABLE, name_key, table_names
from boston_ledger.core.errors import LedgerError
from boston_ledger.core.tariff_files import load

# Default_Ignorable_Code_Point as DerivedCoreProperties.txt lists it (Unicode 14.0 to 16.0)
DEFAULT_IGNORABLE = [(0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
                     (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
                     (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
                     (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF)]


def test_the_ignorable_ranges_are_unicode_s() -> None:
    listed = {c for low, high in DEFAULT_IGNORABLE for c in range(low, high + 1)}
    found = {c for c in range(sys.maxunicode + 1) if IGNORABLE.fullmatch(chr(c))}
    assert found == listed
    assert len(found) == 4174
    # what unicodedata does know agrees: every one is a format, mark, filler letter or unassigned
    assert {unicodedata.category(chr(c)) for c in found} <= {"Cf", "Mn", "Lo", "Cn"}


@pytest.mark.parametrize("a, b", [("Anna", "An\u200dna"), ("Anna", "Ａnna"), ("Anna", "ANNA"), ("Anna", "an\u00adna"),
                                  ("Anna", "\ufeffAnna\u200b"), ("Straße", "STRASSE"), ("ﬁona", "Fiona"),
                                  ("Anna Maria", "Anna\u00a0Maria"), ("Ёлка", unicodedata.normalize("NFD", "Ёлка")),
                                  ("Ⅸ", "ix"), ("❤\ufe0f", "❤")])
def test_look_alikes_have_one_key(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize("a, b", [("Anna", "Anya"), ("Анна", "Anna"), ("Ёлка", "Елка"), ("👩‍💻", "👩")])
def test_different_names_have_different_keys(a: str, b: str) -> None:
    assert name_key(a) != name_key(b)


def test_a_key_is_stable() -> None:
    for text in ("Anna", "ǅ", "ﬃ", "ẞ", "İstanbul", "ΐ", "\u1e9b\u0323", "ｶﾞ"):
        assert name_key(name_key(text)) == name_key(text), text


@pytest.mark.parametrize("names", [["Anna", "Boris", "Vera", "Ａnna"], ["Anna", "Boris", "Vera", "An\u200dna"],
                                   ["Anna", "Boris", "Vera", "\u200d"], ["Anna", "Boris", "Vera", "a" + "\u0301" * 38],
                                   ["Anna", "Boris", "Vera", "a" + "\u0301" * 5]])
def test_table_names_refuses_look_alikes_and_invisible_names(names: list[str]) -> None:
    with pytest.raises(LedgerError):
        table_names(names, load("classic"))


@pytest.mark.parametrize("name", ["Ｇleb", "Gle\u0301b", "Tiê\u0301n", "Nguyễn", "स्त्री", "👩‍💻", "1️⃣",
                                  "x" + "\u0301" * 4])
def test_real_names_with_marks_and_joiners_are_kept(name: str) -> None:
    assert table_names(["Anna", "Boris", "Vera", name], load("classic"))[3] == unicodedata.normalize("NFC", name)


def test_every_lookup_goes_by_the_key(cli) -> None:
    cli("new", "Ａnna", "Boris", "Vera", "Gleb", "--chip-value", "0.10")
    cli("deal", "solo", "--declarer", "anna", "--tricks", "9")  # typed plainly: the fullwidth Anna
    cli("deal", "solo", "--declarer", "An\u200dna", "--tricks", "9")
    assert cli.json("status")["balances"]["Ａnna"] > 0
    cli("settle")
    assert "Ａnna" in cli.json("ledger")[""]["balances"]
    cli("paid", "Boris", "ANNA", "1.00")
    assert cli.json("stats", "--player", "a\u00adnna")["players"].keys() == {"Ａnna"}
    cli("new", "Anna", "Boris", "Vera", "Gleb")  # the same people on another evening: one person in the books
    cli("deal", "solo", "--declarer", "Anna", "--tricks", "9")
    cli("settle")
    books = cli.json("ledger")[""]["balances"]
    assert [n for n in books if name_key(n) == "anna"] == ["Ａnna"]  # as first written
    assert cli.json("stats")["players"]["Ａnna"]["sessions"] == 2
