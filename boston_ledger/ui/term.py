"""The terminal: how every view is laid out and written. Text in styled parts, tables with
borders, lines wrapped to the terminal's width, colours only where a terminal shows them.

It draws as rich draws (the boxes, the padding, how a table too wide for the terminal gives up
width and wraps its cells), so that the views look as the full command line's help pages, which
typer draws with rich; loading rich costs a plain `deal` more than all the rest of its work."""

from __future__ import annotations

import os
import re
import sys
import unicodedata
from functools import lru_cache
from typing import Sequence, Union

# ---- what is shown: text from outside made safe ----------------------------------------------

# What a terminal would obey rather than show: C0 controls but newline and tab (ESC starts the
# sequences that move the cursor, clear the screen, set the title or the clipboard: OSC 52), DEL,
# C1 controls (U+009B is an 8-bit CSI), the bidirectional marks, embeddings, overrides and
# isolates (text shown in another order than it is read), and lone surrogates (undecodable bytes
# of a command line or a file name).
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _escape(match: re.Match) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every character a terminal would obey shown as an escape such as `\\x1b`.

    Everything printed goes through it: every text a view shows (Text, and so the console and its
    tables), plain lines (ui.text.say) and JSON (ui.text.emit_json); names, titles, tariff words,
    reasons and paths come from outside."""
    return UNSAFE.sub(_escape, text) if UNSAFE.search(text) else text


# ---- cells: the width of text in a terminal --------------------------------------------------


@lru_cache(maxsize=4096)
def _char_cells(ch: str) -> int:
    code = ord(ch)
    if code < 0x7F:
        return 1 if code >= 0x20 or code == 0 else 0
    if code < 0xA0 or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


_ASCII = re.compile(r"[\x20-\x7e]*")


def cell_len(text: str) -> int:
    """How many terminal cells `text` takes: two for a wide (East Asian) character, none for a
    combining mark."""
    if _ASCII.fullmatch(text):
        return len(text)
    return sum(map(_char_cells, text))


def set_cell_size(text: str, total: int) -> str:
    """`text` cut or padded with spaces to exactly `total` cells."""
    size = cell_len(text)
    if size < total:
        return text + " " * (total - size)
    if size == total:
        return text
    taken, used = _fit(text, total)
    return taken + " " * (total - used)


def _fit(text: str, cells: int) -> tuple[str, int]:
    """The longest start of `text` within `cells` cells, and the cells it takes."""
    used = 0
    for i, ch in enumerate(text):
        width = _char_cells(ch)
        if used + width > cells:
            return text[:i], used
        used += width
    return text, used


def _chop(text: str, width: int) -> list[str]:
    """`text` folded into pieces of at most `width` cells, as rich folds a word too long for a
    line: a character wider than `width` takes a piece of its own (at the very start, after an
    empty piece), and a character of no width stays with the one before it."""
    pieces, start, used = [], 0, 0
    for i, ch in enumerate(text):
        w = _char_cells(ch)
        if w and used + w > width:
            pieces.append(text[start:i])
            start, used = i, 0
        used += w
    if used:
        pieces.append(text[start:])
    return pieces


# ---- styled text -----------------------------------------------------------------------------

ATTRIBUTES = {"bold": "1", "dim": "2", "italic": "3"}
COLOURS = {"red": "31", "green": "32", "yellow": "33", "cyan": "36"}


def _words(style: str) -> tuple[list[str], set[str]]:
    """The words a style turns on, in order, and those it turns off ('not bold')."""
    said = style.split()
    on: list[str] = []
    off: set[str] = set()
    for i, word in enumerate(said):
        if word == "not":
            continue
        if i and said[i - 1] == "not":
            off.add(word)
        else:
            on.append(word)
    return on, off


def _combined(base: str, over: str) -> str:
    """Style `over` laid on `base`: 'bold' on 'cyan' is 'bold cyan'; 'not bold' takes bold off;
    a colour replaces a colour."""
    if not base:
        return over
    if not over:
        return base
    words = base.split()
    on, off = _words(over)
    words = [w for w in words if w not in off]
    for word in on:
        if word in COLOURS:
            words = [w for w in words if w not in COLOURS] + [word]
        elif word not in words:
            words.append(word)
    return " ".join(words)


def _sgr(style: str, colour: bool) -> str:
    """The escape codes of `style` ('not bold' is no code)."""
    on, __ = _words(style)
    codes = [ATTRIBUTES[w] for w in ATTRIBUTES if w in on]
    if colour:
        codes += [COLOURS[w] for w in on if w in COLOURS]
    return ";".join(codes)


class Text:
    """Text in parts, each with its style ('bold', 'dim', 'green', 'bold red', 'not bold')."""

    def __init__(self, text: str = "", style: str = ""):
        self.parts: list[tuple[str, str]] = [(visible(text), style)] if text else []

    def append(self, text: Union[str, "Text"], style: str = "") -> "Text":
        if isinstance(text, Text):
            self.parts += [(t, _combined(style, s)) for t, s in text.parts]
        elif text:
            self.parts.append((visible(text), style))
        return self

    @classmethod
    def assemble(cls, *pieces: Union[str, "Text"]) -> "Text":
        out = cls()
        for piece in pieces:
            out.append(piece)
        return out

    @property
    def plain(self) -> str:
        return "".join(t for t, _ in self.parts)

    def styled(self, base: str) -> "Text":
        """This text with `base` under each part's own style."""
        out = Text()
        out.parts = [(t, _combined(base, s)) for t, s in self.parts]
        return out


Shown = Union[str, Text]


def _as_text(value: Shown, style: str = "") -> Text:
    if isinstance(value, Text):
        return value.styled(style) if style else value
    return Text(value, style)


class _Line:
    """One line of output: its parts, and its width in cells."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[tuple[str, str]]):
        self.parts = parts

    @property
    def plain(self) -> str:
        return "".join(t for t, _ in self.parts)

    def cells(self) -> int:
        return cell_len(self.plain)

    def cut(self, start: int, end: int) -> "_Line":
        """The characters from `start` to `end` (offsets in the plain text)."""
        out, at = [], 0
        for t, s in self.parts:
            lo, hi = max(start, at), min(end, at + len(t))
            if lo < hi:
                out.append((t[lo - at:hi - at], s))
            at += len(t)
        return _Line(out)

    def crop_to(self, width: int, ellipsis: bool) -> "_Line":
        """The line cut to `width` cells, ending with … when `ellipsis` and it was longer."""
        if self.cells() <= width:
            return self
        keep = width - 1 if ellipsis else width
        out, used = [], 0
        for t, s in self.parts:
            taken, w = _fit(t, keep - used)
            used += w
            if taken:
                out.append((taken, s))
            if used >= keep or len(taken) < len(t):
                break
        if keep > used:
            out.append((" " * (keep - used), ""))
        if ellipsis:
            style = out[-1][1] if out else (self.parts[-1][1] if self.parts else "")
            out.append(("…", style))
        return _Line(out)

    def rstrip(self) -> "_Line":
        plain = self.plain
        return self.cut(0, len(plain.rstrip()))

    def justified(self, width: int, justify: str, ellipsis: bool) -> "_Line":
        """Padded with spaces to `width` cells, on the right (left), the left (right) or both
        sides (center); cut when longer."""
        if justify == "left":
            line = self.crop_to(width, ellipsis)
            return _Line(line.parts + [(" " * (width - line.cells()), "")]) if line.cells() < width else line
        line = self.rstrip().crop_to(width, ellipsis)
        free = width - line.cells()
        if justify == "right":
            return _Line([(" " * free, "")] + line.parts) if free > 0 else line
        left = free // 2
        return _Line([(" " * left, "")] + line.parts + [(" " * (free - left), "")])


_WORD = re.compile(r"\s*\S+\s*")


def _breaks(text: str, width: int, fold: bool) -> list[int]:
    """Where a line of `text` breaks to fit `width` cells: word by word, a word longer than a
    line folded (`fold`) or left to be cut."""
    found: list[int] = []
    offset = 0
    for match in _WORD.finditer(text):
        start, word = match.start(), match.group()
        length = cell_len(word.rstrip())
        if width - offset >= length:
            offset += cell_len(word)
        elif length > width:
            if fold:
                pieces = _chop(word, width)
                for i, piece in enumerate(pieces):
                    if start:
                        found.append(start)
                    if i == len(pieces) - 1:
                        offset = cell_len(piece)
                    else:
                        start += len(piece)
            else:
                if start:
                    found.append(start)
                offset = cell_len(word)
        elif offset and start:
            found.append(start)
            offset = cell_len(word)
    return found


def _lines(text: Text, width: int, justify: str = "default", wrap: bool = True,
           ellipsis: bool = False) -> list[_Line]:
    """`text` as lines of at most `width` cells: split at its newlines, then wrapped at words
    (unless not `wrap`), then justified; what is still too long is cut (with … for `ellipsis`)."""
    whole = _Line(list(text.parts))
    if "\t" in whole.plain:
        whole = _Line([(t.expandtabs(8), s) for t, s in whole.parts])
    plain = whole.plain
    out: list[_Line] = []
    start = 0
    for piece in plain.split("\n"):
        line = whole.cut(start, start + len(piece))
        start += len(piece) + 1
        if wrap:
            offsets = [0, *_breaks(piece, width, fold=not ellipsis), len(piece)]
            parts = [line.cut(a, b) for a, b in zip(offsets, offsets[1:])]
            parts = [_strip_end(p, width) for p in parts]
        else:
            parts = [line]
        for p in parts:
            out.append(p.justified(width, justify, ellipsis) if justify != "default" else p.crop_to(width, ellipsis))
    return out


def _strip_end(line: _Line, width: int) -> _Line:
    """Trailing spaces past `width` dropped (a wrapped line keeps the one space it ends with)."""
    plain = line.plain
    excess = len(plain) - width
    if excess > 0:
        spaces = len(plain) - len(plain.rstrip())
        return line.cut(0, len(plain) - min(spaces, excess))
    return line


def _measure(text: Text) -> tuple[int, int]:
    """The fewest cells `text` can take (its longest word) and the most (its longest line)."""
    plain = text.plain
    lines = plain.splitlines()
    most = max(map(cell_len, lines)) if lines else 0
    words = plain.split()
    return (max(map(cell_len, words)) if words else most), most


# ---- tables ----------------------------------------------------------------------------------


class Box:
    """The characters of a table's borders, in rich's layout: eight lines of four (left, the
    line or space, the divider, right): top, header, below the header, row, between sections,
    above a footer, footer, bottom."""

    def __init__(self, drawing: str, ascii: bool = False):
        self.lines = drawing.splitlines()
        self.ascii = ascii

    def rule(self, index: int, widths: Sequence[int], edge: bool) -> str:
        left, line, cross, right = self.lines[index]
        middle = cross.join(line * w for w in widths)
        return f"{left}{middle}{right}" if edge else middle

    def verticals(self, index: int) -> tuple[str, str, str]:
        left, _, divider, right = self.lines[index]
        return left, divider, right


HEAVY_HEAD = Box("┏━┳┓\n┃ ┃┃\n┡━╇┩\n│ ││\n├─┼┤\n├─┼┤\n│ ││\n└─┴┘\n")
SIMPLE_HEAD = Box("    \n    \n ── \n    \n    \n    \n    \n    \n")
SHEET = Box("    \n    \n ── \n    \n ── \n ── \n    \n    \n")  # SIMPLE_HEAD with a rule between sections
ASCII = Box("+--+\n| ||\n|-+|\n| ||\n|-+|\n|-+|\n| ||\n+--+\n", ascii=True)


class _Column:
    __slots__ = ("header", "justify", "no_wrap", "style", "min_width", "cells")

    def __init__(self, header: Shown, justify: str, no_wrap: bool, style: str, min_width: int | None):
        self.header, self.justify, self.no_wrap, self.style, self.min_width = header, justify, no_wrap, style, min_width
        self.cells: list[Text] = []


class Table:
    """Columns with a header, rows in sections, a title above; laid out for the console's
    width when printed."""

    def __init__(self, *headers: str, title: str | None = None, title_justify: str = "center",
                 box: Box = HEAVY_HEAD, show_edge: bool = True, pad_edge: bool = True,
                 padding: tuple[int, int] = (1, 1)):
        self.title, self.title_justify = title, title_justify
        self.box, self.show_edge, self.pad_edge, self.padding = box, show_edge, pad_edge, padding
        self.columns: list[_Column] = []
        self.rows: list[tuple[str, bool]] = []  # each row's style and whether a section ends after it
        for header in headers:
            self.add_column(header)

    def add_column(self, header: Shown = "", justify: str = "left", no_wrap: bool = False, style: str = "",
                   min_width: int | None = None) -> None:
        self.columns.append(_Column(header, justify, no_wrap, style, min_width))

    def add_row(self, *cells: Shown | None, style: str | None = None) -> None:
        for column, cell in zip(self.columns, [*cells, *[""] * (len(self.columns) - len(cells))]):
            column.cells.append(_as_text(cell if cell is not None else "", column.style))
        self.rows.append((style or "", False))

    def add_section(self) -> None:
        if self.rows:
            self.rows[-1] = (self.rows[-1][0], True)

    @property
    def row_count(self) -> int:
        return len(self.rows)

    # -- layout

    def _pads(self, index: int) -> tuple[int, int]:
        left, right = self.padding
        if not self.pad_edge:
            if index == 0:
                left = 0
            if index == len(self.columns) - 1:
                right = 0
        return left, right

    def _extra(self) -> int:
        return (2 if self.show_edge else 0) + len(self.columns) - 1

    def _range(self, index: int, most: int) -> tuple[int, int]:
        """The fewest and the most cells a column takes, its padding included, within `most`."""
        column = self.columns[index]
        pad = sum(self._pads(index))
        lows, highs = [], []
        for cell in [_as_text(column.header), *column.cells]:
            if most - pad < 1:
                low = high = most
            else:
                low, high = _measure(cell)
                high = min(high, most - pad)
                low = min(low, high)
                low, high = low + pad, high + pad
                high = min(high, most)
                low = min(low, high)
            lows.append(low)
            highs.append(high)
        low, high = max(lows), max(highs)
        high = min(high, most)
        low = min(low, high)
        if column.min_width is not None:
            low, high = max(low, column.min_width + pad), max(high, column.min_width + pad)
        return low, high

    def widths(self, width: int) -> list[int]:
        """Each column's width in cells, its padding included, for a console `width` wide."""
        most = width - self._extra()
        if most < 1:
            return [0] * len(self.columns)
        widths = [self._range(i, most)[1] or 1 for i in range(len(self.columns))]
        if sum(widths) > most:
            widths = _collapse(widths, [not c.no_wrap for c in self.columns], most)
            if sum(widths) > most:
                widths = _reduce(sum(widths) - most, [1] * len(widths), widths, widths)
            widths = [self._range(i, w)[1] if w >= 1 else 0 for i, w in enumerate(widths)]
        return widths

    def measure(self, width: int = 10_000) -> int:
        """The most cells the table takes in a console `width` wide."""
        most = sum(self.widths(width))
        return sum(self._range(i, most)[1] for i in range(len(self.columns))) + self._extra()

    def render(self, width: int, colour: bool, ascii: bool) -> list[_Line]:
        if not self.columns:
            return [_Line([])]
        widths = self.widths(width)
        table_width = sum(widths) + self._extra()
        box = ASCII if ascii and not self.box.ascii else self.box
        out: list[_Line] = []
        if self.title:
            out += _lines(Text(self.title, "italic"), table_width, justify=self.title_justify)
        edge = self.show_edge
        if edge:
            out.append(_Line([(box.rule(0, widths, True), "")]))
        count = len(self.rows) + 1
        for index in range(count):
            header = index == 0
            row_style, section_ends = ("", False) if header else self.rows[index - 1]
            cells = []
            for i, (column, w) in enumerate(zip(self.columns, widths)):
                left, right = self._pads(i)
                inner = max(w - left - right, 0)
                content = _as_text(column.header, "bold") if header else column.cells[index - 1]
                if row_style:
                    content = content.styled(row_style)
                lines = _lines(content, inner, justify=column.justify, wrap=not column.no_wrap, ellipsis=True) \
                    if inner else [_Line([])]
                cells.append([_Line([(" " * left, "")] + line.parts + [(" " * right, "")]).justified(w, "left", False)
                              for line in lines])
            height = max(len(c) for c in cells)
            for c, w in zip(cells, widths):
                blank = [_Line([(" " * w, "")])] * (height - len(c))
                c[:] = blank + c if header else c + blank
            left, divider, right = box.verticals(1 if header else 6 if index == count - 1 else 3)
            for n in range(height):
                parts: list[tuple[str, str]] = [(left, "")] if edge else []
                for i, c in enumerate(cells):
                    if i:
                        parts.append((divider, ""))
                    parts += c[n].parts
                if edge:
                    parts.append((right, ""))
                out.append(_Line(parts))
            if header:
                out.append(_Line([(box.rule(2, widths, edge), "")]))
            elif section_ends and index < count - 1:
                out.append(_Line([(box.rule(4, widths, edge), "")]))
        if edge:
            out.append(_Line([(box.rule(7, widths, True), "")]))
        return out


def _reduce(total: int, ratios: list[int], maximums: list[int], values: list[int]) -> list[int]:
    """`total` taken from `values` in proportion to `ratios`, at most `maximums` from each."""
    ratios = [r if m else 0 for r, m in zip(ratios, maximums)]
    left_ratio, left = sum(ratios), total
    if not left_ratio:
        return list(values)
    out = []
    for ratio, most, value in zip(ratios, maximums, values):
        if ratio and left_ratio > 0:
            taken = min(most, round(ratio * left / left_ratio))
            out.append(value - taken)
            left -= taken
            left_ratio -= ratio
        else:
            out.append(value)
    return out


def _collapse(widths: list[int], wrapable: list[bool], most: int) -> list[int]:
    """The widest columns that may wrap made narrower, in turn, until the table fits `most`."""
    total = sum(widths)
    excess = total - most
    if any(wrapable):
        while total and excess > 0:
            widest = max(w for w, ok in zip(widths, wrapable) if ok)
            second = max(w if ok and w != widest else 0 for w, ok in zip(widths, wrapable))
            ratios = [1 if (w == widest and ok) else 0 for w, ok in zip(widths, wrapable)]
            if not any(ratios) or not widest - second:
                break
            widths = _reduce(excess, ratios, [min(excess, widest - second)] * len(widths), widths)
            total = sum(widths)
            excess = total - most
    return widths


# ---- the console -----------------------------------------------------------------------------

Printable = Union[str, Text, Table, Sequence["Printable"]]


class Console:
    """Where views are printed: standard output, `width` cells wide (the terminal's, $COLUMNS,
    else 80), with colours when it is a terminal that shows them ($NO_COLOR keeps bold and dim
    only; $FORCE_COLOR or $TTY_COMPATIBLE=1 asks for them anywhere). Every string is made visible
    (`visible`) before it is measured."""

    def __init__(self, width: int | None = None, colour: bool | None = None, file=None):
        self._width, self._colour, self._file = width, colour, file

    @property
    def file(self):
        return self._file if self._file is not None else sys.stdout

    def _terminal(self) -> bool:
        env = os.environ
        if env.get("TTY_COMPATIBLE") in ("0", "1"):
            return env["TTY_COMPATIBLE"] == "1"
        if "FORCE_COLOR" in env:
            return env["FORCE_COLOR"] != ""
        try:
            return bool(self.file.isatty())
        except (AttributeError, ValueError):
            return False

    @property
    def width(self) -> int:
        if self._width is not None:
            return self._width
        terminal = self._terminal()
        if terminal and os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
            return 80
        columns = os.environ.get("COLUMNS", "")
        if columns.isdigit():
            return int(columns)
        width = 0
        for fd in (0, 1, 2):
            try:
                width = os.get_terminal_size(fd).columns
                break
            except (AttributeError, ValueError, OSError):
                pass
        return width or 80

    def styles(self) -> tuple[bool, bool]:
        """Whether styles are written at all, and whether colours are among them."""
        if self._colour is not None:
            return self._colour, self._colour
        if not self._terminal() or os.environ.get("TERM", "").lower() in ("dumb", "unknown"):
            return False, False
        return True, os.environ.get("NO_COLOR", "") == ""

    def lines(self, item: Printable, style: str = "", soft_wrap: bool = False) -> list[_Line]:
        """What `item` is on the screen, line by line (text left to the terminal to wrap when
        `soft_wrap`)."""
        if isinstance(item, Table):
            return item.render(self.width, True, self._ascii())
        if isinstance(item, (list, tuple)):
            return [line for inner in item for line in self.lines(inner, style, soft_wrap)]
        text = _as_text(item, style)
        if soft_wrap:
            return _lines(text, 10**9, wrap=False)
        return _lines(text, self.width)

    def _ascii(self) -> bool:
        encoding = (getattr(self.file, "encoding", None) or "utf-8").lower()
        return not encoding.startswith("utf")

    def render(self, item: Printable, style: str = "", soft_wrap: bool = False) -> str:
        """`item` as it is written: lines, each ending with a newline."""
        styled, colour = self.styles()
        out = []
        width = self.width
        for line in self.lines(item, style, soft_wrap):
            if not soft_wrap:  # nothing runs past the edge of the console
                line = line.crop_to(width, ellipsis=False)
            if not styled:
                out.append(line.plain)
            else:
                for text, s in line.parts:
                    codes = _sgr(s, colour) if s else ""
                    out.append(f"\x1b[{codes}m{text}\x1b[0m" if codes and text else text)
            out.append("\n")
        return "".join(out)

    def print(self, item: Printable = "", style: str = "", soft_wrap: bool = False) -> None:
        self.file.write(self.render(item, style, soft_wrap))
        self.file.flush()
