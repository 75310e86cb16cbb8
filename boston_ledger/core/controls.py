"""Control characters: the one list of what text from outside may not carry raw into a terminal,
a page, a file or a spreadsheet, and `visible()`, which writes each of them out as an escape.

What is listed is what a reader would obey rather than show: C0 controls (ESC starts the
sequences that move a terminal's cursor, set its title or its clipboard: OSC 52; a bare CR ends a
line of a browser's event stream; NUL ends a string in C), DEL, C1 controls (U+009B is an 8-bit
CSI), the line and paragraph separators (U+2028, U+2029: a line break to Python's `splitlines`
and to JavaScript before 2019), the bidirectional marks, embeddings, overrides and isolates (text
shown in another order than it is read), and lone surrogates (undecodable bytes of a command line
or a file name). A tariff file's words may not hold them (`core.tariff_files`); what the ledger
or the command line holds anyway is shown escaped by every output (docs/hostile-text.md)."""

from __future__ import annotations

import re

MARKS = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"  # beyond C0
CONTROL = re.compile(f"[\x00-\x1f{MARKS}]")  # in a single line (a name, a word, a title, a cell)
CONTROL_IN_LINES = re.compile(f"[\x00-\x08\x0b-\x1f{MARKS}]")  # in text of several lines: LF and TAB are its own


def escape(char: str) -> str:
    """One control character written out: `\\x1b`, `\\u202e`."""
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, lines: bool = True) -> str:
    """`text` with every control character written out as an escape such as `\\x1b`; with
    `lines`, line breaks and tabs are kept (a terminal, a page), else written out too (a
    spreadsheet's cell). Escaping again changes nothing: a backslash is left as it is."""
    unsafe = CONTROL_IN_LINES if lines else CONTROL
    return unsafe.sub(lambda m: escape(m.group()), text) if unsafe.search(text) else text
