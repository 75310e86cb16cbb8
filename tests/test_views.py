"""What a person sees, held still: every view of a scripted evening (tests/views.py) in English and
Russian, at 40, 60, 80 and 120 columns, with colours and without, and of an evening of four long
names without colours, is the snapshot in tests/snapshots/.

A change to a view that was meant: `python tests/views.py` writes the snapshots anew; look at the
difference (`git diff tests/snapshots`) before committing it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import views


# each evening, language, width and colour is in the quick subset (-m "not slow"); every combination
# of them in the whole suite
QUICK = {("evening", "en", 40, False), ("evening", "ru", 80, True), ("evening", "en", 120, True),
         ("evening", "ru", 120, False), ("evening", "en", 60, False), ("long-names", "en", 60, False),
         ("long-names", "ru", 80, False)}


@pytest.mark.parametrize("evening, lang, width, colour", [
    pytest.param(*snapshot, id=views.name(*snapshot[1:], evening=snapshot[0]).removesuffix(".txt"),
                 marks=() if snapshot in QUICK else pytest.mark.slow)
    for snapshot in views.snapshots()])
def test_the_views_look_as_they_did(evening: str, lang: str, width: int, colour: bool, tmp_path: Path) -> None:
    expected = (views.SNAPSHOTS / views.name(lang, width, colour, evening)).read_text(encoding="utf-8")
    shown = views.capture(lang, width, colour, tmp_path, evening)
    assert shown.splitlines() == expected.splitlines()


def test_no_line_is_wider_than_the_terminal() -> None:
    for evening, lang, width, colour in views.snapshots():
        plain = _plain(views.SNAPSHOTS / views.name(lang, width, colour, evening))
        wide = [line for line in plain.splitlines() if len(line) > width and not line.startswith("$ ")]
        assert not wide, (evening, lang, width, wide[:3])


def test_nothing_is_cut() -> None:
    """rich cuts what does not fit with '…': no view of either evening, at any width, does (but the
    tariff's tables and typer's help, which are drawn otherwise)."""
    for evening, lang, width, colour in views.snapshots():
        shown = _plain(views.SNAPSHOTS / views.name(lang, width, colour, evening)).split("\n$ ")
        drawn_otherwise = ("boston-ledger tariffs show", "boston-ledger deal --help")
        cut = [line for view in shown if not view.startswith(drawn_otherwise)
               for line in view.splitlines()[1:] if "…" in line]
        assert not cut, (evening, lang, width, cut[:3])


def _plain(path: Path) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", path.read_text(encoding="utf-8"))
