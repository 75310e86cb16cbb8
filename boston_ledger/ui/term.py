"""The terminal, drawn by rich: rich's console and text made to show text from outside as
`visible()` (core.controls) writes it, and the boxes of the score sheet.

Every view prints through `Console` (rich's, with no markup, highlighting or emoji codes: a player
called `[bold]` or `:fire:` stays so) and builds its styled text with `Text` (rich's, its strings
made visible as they are given, so that they are measured as they are shown).

A no-break space (U+00A0) joins what a line must not be broken between ('Vera\u00a0-683'): rich
breaks lines at it as at any space, so while rich lays text out it stands as a character that is no
space (KEEP), and it reaches the terminal as a plain space."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from rich import box
from rich.console import Console as RichConsole
from rich.console import ConsoleOptions, ConsoleRenderable, RenderHook
from rich.segment import Segment
from rich.style import Style
from rich.text import Text as RichText

from ..core.controls import CONTROL_IN_LINES, visible


KEEP = "\ufdd0"  # a noncharacter (no text holds one), one cell wide: a no-break space being laid out


def _laid_out(text: str) -> str:
    """A string as rich lays it out: made visible, each no-break space a KEEP."""
    return visible(text).replace("\u00a0", KEEP)


class Text(RichText):
    """rich's styled text, every string it is given made visible, its no-break spaces kept."""

    def __init__(self, text: str = "", style: str | Style = "", **options: Any) -> None:
        super().__init__(_laid_out(text), style, **options)

    def append(self, text: RichText | str, style: str | Style | None = None) -> Text:
        super().append(_laid_out(text) if isinstance(text, str) else text, style)
        return self  # as rich's returns itself, for chaining


class _Visible:
    """A renderable whose every text segment is made visible (rich's own control segments pass):
    the last word on what reaches the terminal, whatever a view built."""

    def __init__(self, inner: ConsoleRenderable) -> None:
        self.inner = inner

    def __rich_console__(self, console: RichConsole, options: ConsoleOptions) -> Iterable[Segment]:
        for s in console.render(self.inner, options):
            if s.control or not (CONTROL_IN_LINES.search(s.text) or KEEP in s.text):
                yield s
            else:
                yield Segment(visible(s.text).replace(KEEP, " "), s.style)


class _Hook(RenderHook):
    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_Visible(r) for r in renderables]


class Console(RichConsole):
    """The console of every view: standard output (its width, colours as rich finds them: none
    but on a terminal, $NO_COLOR, $FORCE_COLOR, $TTY_COMPATIBLE), text shown as given and made
    visible: strings (printed, table cells, titles) before they are laid out, anything else at the
    end."""

    def __init__(self, **options: Any) -> None:
        super().__init__(highlight=False, markup=False, emoji=False, **options)
        self.push_render_hook(_Hook())

    def render_str(self, text: str, **options: Any) -> RichText:
        return super().render_str(_laid_out(text), **options)

    def on_broken_pipe(self) -> None:
        """The reader of our output went away: print no more, and leave the exit status to the
        guard (rich would exit 1, even after a command has recorded what it was asked to)."""
        self.quiet = True
        raise BrokenPipeError


# rich's SIMPLE_HEAD with a rule between sections too: the line drawn between tours
SHEET = box.Box("    \n    \n ── \n    \n ── \n ── \n    \n    \n")
