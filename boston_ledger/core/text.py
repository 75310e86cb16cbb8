"""The characters a text from outside may not hold: what a terminal, a browser's event stream or a
reader would obey or reorder rather than show."""

from __future__ import annotations

import re

# What a tariff's words, titles and table names may not hold (a user's file; a stored tariff is read
# as it was accepted): C0 controls (a line break too: they are single lines), DEL, C1 controls, the
# bidirectional marks, embeddings, overrides and isolates, lone surrogates. A bare CR ends a line of
# the page's event stream in a browser, ESC starts a terminal sequence, a bidi control shows text in
# another order than it is read. (ui/term.visible shows CONTROL_IN_LINES's characters escaped.)
_MARKS = "\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff"
CONTROL = re.compile(f"[\x00-\x1f{_MARKS}]")
CONTROL_IN_LINES = re.compile(f"[\x00-\x08\x0b-\x1f{_MARKS}]")  # a line break and a tab allowed
