"""How a view fits the width it is shown in: players' names shortened to a unique beginning with
their legend, tables of the players' columns laid out so that nothing is cut, and lines broken
between their pieces (a player and his money, a choice, a word), never inside one.

rich, left to itself, narrows every column of a table that is too wide and cuts what no longer
fits (`-…` for a number, a player's column down to nothing); the views here measure first and
choose a layout in which every number and every name is whole."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Sequence
from typing import IO

from rich.cells import cell_len
from rich.console import Console as RichConsole
from rich.console import ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text as RichText

from ..app.inputs import player_key
from ..core.controls import visible
from ..core.i18n import _
from .term import SHEET, Console

SHORTEST = 3  # a name is never shortened below this many cells


def short_names(names: Sequence[str], cells: int) -> tuple[str, ...]:
    """Each name as it is shown in at most `cells` terminal cells where it can be: whole when it
    fits; else its longest beginning that ends a word and fits; else its first `cells` cells. A
    short name is always a beginning of its name that no other name begins with, as a player is
    found when typed (app.inputs), so that it is longer than `cells` where it must be: Anna and
    Annabel at 3 cells are Anna and Annab."""
    keys = [player_key(name) for name in names]

    def unique(beginning: str, i: int) -> bool:
        key = player_key(beginning)
        return bool(key) and not any(other.startswith(key) for j, other in enumerate(keys) if j != i)

    shown = []
    for i, name in enumerate(names):
        if cell_len(visible(name)) <= cells:
            shown.append(name)
            continue
        ends = [name[:m.end()] for m in re.finditer(r"\S+", name)]
        whole_words = [b for b in ends[:-1] if cell_len(visible(b)) <= cells and unique(b, i)]
        if whole_words:
            shown.append(whole_words[-1])
            continue
        end = 0
        while end < len(name) and (cell_len(visible(name[:end + 1])) <= cells or not unique(name[:end].rstrip(), i)):
            end += 1
        while end < len(name) and cell_len(name[end]) == 0:  # a mark stays on its letter
            end += 1
        shown.append(name[:end].rstrip())
    return tuple(shown)


def legend(names: Sequence[str], shown: Sequence[str]) -> list[str]:
    """What each shortened name stands for, in seat order: 'Margaret = Margaret Thompson'; nothing
    when no name was shortened."""
    return [_("{short} = {name}", short=short, name=name) for name, short in zip(names, shown, strict=True)
            if short != name]


def legend_lines(names: Sequence[str], shown: Sequence[str], width: int) -> list[str]:
    """The legend of shortened names as lines of `width` cells, broken between names."""
    said = legend(names, shown)
    return packed([s + ("," if i < len(said) - 1 else "") for i, s in enumerate(said)], width)


def words(text: str) -> list[str]:
    """The words of a text, as a line may be broken between them: at spaces, tabs and line breaks,
    not at a no-break space (U+00A0), which joins what must stay on one line."""
    return re.findall(r"[^ \t\n]+", text)


def packed(pieces: Iterable[str], width: int, between: str = " ", indent: str = "") -> list[str]:
    """Pieces of a line on as few lines of `width` cells as they fit on whole, `between` two of them
    on one line, every line but the first after `indent`. A piece too wide for a line of its own
    starts one and is broken between its words; a word too wide for a line has one to itself."""
    room = width - cell_len(indent)
    said: list[tuple[str, str | None]] = []  # each piece or word, with what joins it to the line before
    for piece in pieces:
        if cell_len(visible(piece)) <= room:
            said.append((piece, between))
        else:  # on a line of its own, then word by word
            said += [(word, " " if n else None) for n, word in enumerate(words(piece))]
    lines: list[str] = []
    for text, joint in said:
        if lines and joint is not None and cell_len(visible(lines[-1] + joint + text)) <= width:
            lines[-1] += joint + text
        else:
            lines.append((indent if lines else "") + text)
    return lines


def wrapped(text: str, width: int, indent: str = "") -> list[str]:
    """A line of text as lines of `width` cells, broken between words; the next lines after
    `indent`."""
    return packed(words(text), width, " ", indent)


def terminal_width(stream: IO[str]) -> int | None:
    """How many cells wide the terminal that `stream` writes to is ($COLUMNS first, as rich reads
    it), or None when it writes to no terminal."""
    try:
        if not stream.isatty():
            return None
        size = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        return None
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else size or None


# ---- tables ------------------------------------------------------------------------------------


def _measuring() -> RichConsole:
    """A console that measures what views show, wider than any line."""
    return Console(width=10_000)


def widest(renderable: RenderableType) -> int:
    """The most cells a renderable (a table) takes, laid out unbounded as it is shown."""
    console = _measuring()
    return Measurement.get(console, console.options, renderable).maximum


def _lines(cell: object, cells: int) -> int:
    """How many lines a cell's text takes in `cells` cells, broken between words as rich breaks it."""
    text = cell.plain if isinstance(cell, RichText) else str(cell)
    return sum(len(packed([w for w in line.split(" ") if w], cells)) or 1 for line in text.split("\n"))


def fit(table: Table, width: int) -> bool:
    """Whether `table` can be drawn in `width` cells with nothing cut (no number, no word of a
    name or a label broken or replaced by '…'); when it can, its columns are given the widths that
    make it so: each column as wide as its longest word, then, as long as there is room, the row
    that the fewest cells make a line shorter is made so (the tallest rows first among equals); what
    is left is shared alike by the columns whose cells are still broken (not their heads: a row of
    names is broken all alike)."""
    console = _measuring()
    options = console.options  # made anew at each look (it asks the terminal's size): once here
    spans = []
    for column in table.columns:  # each cell measured once: rich draws the columns at the widths given
        sizes = [Measurement.get(console, options, cell) for cell in (column.header, *column.cells)]
        high = max([m.maximum for m in sizes] + [column.min_width or 0])
        spans.append((high if column.no_wrap else max([m.minimum for m in sizes] + [column.min_width or 0]), high))
        column.width = high  # as it would be laid out unbounded
    whole = Measurement.get(console, options, table)  # with every width given: the frame added
    if whole.maximum <= width:
        return True
    frame = whole.maximum - sum(high for __, high in spans)  # the borders and the padding
    widths = [low for low, __ in spans]
    spare = width - frame - sum(widths)
    if spare < 0:
        for column in table.columns:  # laid out as rich would, should it be drawn after all
            column.width = None
        return False
    rows = list(zip(*([column.header, *column.cells] for column in table.columns), strict=True))
    while spare > 0:
        best: tuple[int, int, list[int]] | None = None  # (cells it takes, minus the row's height, widths)
        for row in rows:
            tall = max(_lines(cell, w) for cell, w in zip(row, widths, strict=True))
            if tall == 1:
                continue
            wider = list(widths)
            for j, cell in enumerate(row):  # every cell as tall as the row grows till it is a line shorter
                while wider[j] < spans[j][1] and _lines(cell, wider[j]) >= tall:
                    wider[j] += 1
            cost = sum(wider) - sum(widths)
            if all(_lines(cell, w) < tall for cell, w in zip(row, wider, strict=True)) and 0 < cost <= spare \
                    and (best is None or (cost, -tall) < best[:2]):
                best = (cost, -tall, wider)
        if best is None:
            break
        widths, spare = best[2], spare - best[0]
    broken = [j for j in range(len(spans)) if any(_lines(row[j], widths[j]) > 1 for row in rows[1:])]
    while spare > 0 and (growing := [j for j in broken if widths[j] < spans[j][1]]):  # the rest shared alike
        for j in growing[:spare]:
            widths[j] += 1
        spare -= len(growing[:spare])
    for column, cells in zip(table.columns, widths, strict=True):
        column.width = cells
    return True


def name_limits(names: Sequence[str]) -> list[int]:
    """The widths to try the players' names at when they do not fit whole, from the longest down
    to the shortest, each giving other short names than the one before."""
    limits: list[int] = []
    seen = {tuple(names)}
    for cells in range(max(cell_len(visible(n)) for n in names) - 1, SHORTEST - 1, -1):
        shown = short_names(names, cells)
        if shown not in seen:
            seen.add(shown)
            limits.append(cells)
    return limits


def new_table(boxed: bool = True, tight: bool = False) -> Table:
    """A table to fill: in rich's box with a heavy head; or unboxed, with no lines between the
    columns, a rule under the head and between sections (the score sheet's), and two cells between
    two columns (`tight`: one)."""
    if boxed:
        return Table()
    return Table(box=SHEET, show_edge=False, pad_edge=False, padding=(0, 0 if tight else 1, 0, 0))


LOOKS = ((True, False), (False, False), (False, True))  # (boxed, tight), from the most spacious


def players_table(build: Callable[[Sequence[str], bool, bool], Table], players: Sequence[str], width: int,
                  shorten: bool = True) -> tuple[Table, tuple[str, ...]] | None:
    """The table `build` makes (from the names over the players' columns, whether it is boxed and
    whether it is tight) at its best in `width` cells, and the names it shows: the whole names
    (broken between words where they must), else (with `shorten`) the names shortened a cell less
    at a time (each on one line: shortened to fit); each in a box, else without the box's lines,
    else with a cell between two columns. None when none of them fits."""
    for cells in [None, *(name_limits(players) if shorten else [])]:
        shown = tuple(players) if cells is None else short_names(players, cells)
        heads = shown if cells is None else [name.replace(" ", "\u00a0") for name in shown]  # a short name whole
        for boxed, tight in LOOKS:
            made = build(heads, boxed, tight)
            if fit(made, width):
                return made, shown
    return None


class AtWidth:
    """A view laid out when it is drawn, at the width it is given: `lay(width)` makes it."""

    def __init__(self, lay: Callable[[int], Sequence[RenderableType]]) -> None:
        self.lay = lay

    def __rich_console__(self, console: RichConsole, options: ConsoleOptions) -> RenderResult:
        yield from self.lay(options.max_width)

    def __rich_measure__(self, console: RichConsole, options: ConsoleOptions) -> Measurement:
        from rich.console import Group

        return Measurement.get(console, options, Group(*self.lay(options.max_width)))


def players_view(build: Callable[[Sequence[str], bool, bool], Table], players: Sequence[str]) -> AtWidth:
    """A table of the players' columns (players_table) as drawn at the width it is given, the legend
    of the names it shortened before it; narrower than any such table can be, its rows as lines."""
    def lay(width: int) -> list[RenderableType]:
        found = players_table(build, players, width)
        if found is None:  # narrower than the narrowest table: its rows as lines
            shown = short_names(players, SHORTEST)
            made = build(shown, False, True)
            return [*legend_lines(players, shown, width),
                    *records(made, width, labelled=made.columns[0].header not in shown)]
        return [*legend_lines(players, found[1], width), found[0]]

    return AtWidth(lay)


def fitted(table: Table) -> AtWidth:
    """A table as drawn at the width it is given: as it is where it fits (fit), else each row as
    lines of its own, so that nothing is cut (records)."""
    return AtWidth(lambda width: [table] if fit(table, width) else records(table, width))


def records(table: Table, width: int, labelled: bool = True) -> list[str]:
    """A table's rows as lines of `width` cells: its title, then per row its first cell (unless the
    rows have no `labelled` column), and each other cell that holds something after its column's
    heading ('deals 17'; a semicolon between two), broken between them."""
    def plain(cell: object) -> str:
        return " ".join(words(cell.plain if isinstance(cell, RichText) else str(cell)))

    lines = [plain(table.title)] if table.title else []
    heads = [plain(column.header) for column in table.columns]
    first = 1 if labelled else 0
    for row in zip(*(column.cells for column in table.columns), strict=True):
        said = [" ".join(part for part in (head, plain(cell)) if part)
                for head, cell in zip(heads[first:], row[first:], strict=True) if plain(cell)]
        pieces = [plain(row[0]) + (":" if said else "")] if labelled else []
        pieces += [piece + (";" if i < len(said) - 1 else "") for i, piece in enumerate(said)]
        lines += packed(pieces, width, indent="    ")
    return lines
