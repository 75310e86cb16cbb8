"""What a person sees, held still: every view of a scripted evening (tests/views.py) in English and
Russian, at 40, 80 and 120 columns, with colours and without, is the snapshot in tests/snapshots/.

A change to a view that was meant: `python tests/views.py` writes the snapshots anew; look at the
difference (`git diff tests/snapshots`) before committing it."""

from __future__ import annotations

from pathlib import Path

import pytest

import views


# each language, width and colour is in the quick subset (-m "not slow"); every combination of them
# in the whole suite
QUICK = {("en", 40, False), ("ru", 80, True), ("en", 120, True), ("ru", 120, False)}


@pytest.mark.parametrize("lang, width, colour", [
    pytest.param(lang, width, colour, id=f"{lang}-{width}-{'colour' if colour else 'no-colour'}",
                 marks=() if (lang, width, colour) in QUICK else pytest.mark.slow)
    for lang in views.LANGUAGES for width in views.WIDTHS for colour in views.COLOURS])
def test_the_views_look_as_they_did(lang: str, width: int, colour: bool, tmp_path: Path) -> None:
    expected = (views.SNAPSHOTS / views.name(lang, width, colour)).read_text(encoding="utf-8")
    shown = views.capture(lang, width, colour, tmp_path)
    assert shown.splitlines() == expected.splitlines()


def test_no_line_is_wider_than_the_terminal() -> None:
    import re

    for lang in views.LANGUAGES:
        for width in views.WIDTHS:
            for colour in views.COLOURS:
                text = (views.SNAPSHOTS / views.name(lang, width, colour)).read_text(encoding="utf-8")
                plain = re.sub(r"\x1b\[[0-9;]*m", "", text)
                wide = [line for line in plain.splitlines() if len(line) > width and not line.startswith("$ ")]
                assert not wide, (lang, width, wide[:3])
