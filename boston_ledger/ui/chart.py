"""Pictures of a session: each player's running balance over the deals, in the terminal or as SVG."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..core.controls import visible
from ..core.i18n import _, ngettext
from .text import number

BARS = "▁▂▃▄▅▆▇█"
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")


def sparkline(values: Sequence[int], low: int, high: int, width: int) -> str:
    """Values as a line of block characters scaled to [low, high], resampled to `width`."""
    if not values:
        return ""
    width = max(width, 2)
    if len(values) > width:  # resample, always keeping the first and the last (now)
        values = [values[round(i * (len(values) - 1) / (width - 1))] for i in range(width)]
    span = (high - low) or 1
    return "".join(BARS[min(len(BARS) - 1, int((v - low) / span * (len(BARS) - 1) + 0.5))] for v in values)


def terminal(names: Sequence[str], series: Sequence[Sequence[int]], width: int = 100) -> list[str]:
    """One line per player, of at most `width` cells: name, last balance, lowest and highest, and the
    line of the evening; names too long to leave the line ten cells shortened (widths.short_names),
    their legend first."""
    from rich.cells import cell_len

    from .widths import legend_lines, short_names

    every = [v for s in series for v in s] or [0]
    low, high = min([*every, 0]), max([*every, 0])
    figures = 2 + 3 * 6 + 2 + 2  # '  ', three numbers of six cells a space apart, '  '
    shown = short_names(names, max(3, width - figures - 10))
    pad = max(cell_len(visible(n)) for n in shown)
    line = max(10, min(width - 40, width - pad - figures))
    lines = [*legend_lines(names, shown, width),
             f"{'':{pad}}  {_('now'):>6} {_('low'):>6} {_('high'):>6}  "
             + ngettext("running balance over {n} deal (scale {low} .. {high})",
                        "running balance over {n} deals (scale {low} .. {high})", len(series[0]) - 1,
                        low=number(low), high=number(high))]
    for name, values in zip(shown, series, strict=True):
        lines.append(f"{name}{' ' * (pad - cell_len(visible(name)))}  {number(values[-1]):>6} {number(min(values)):>6} "
                     f"{number(max(values)):>6}  {sparkline(values, low, high, line)}")
    return lines


def svg(title: str, names: Sequence[str], series: Sequence[Sequence[int]], width: int = 720,
        height: int = 360) -> str:
    """A self-contained SVG line chart: one line per player, the zero line, axes and a legend (its
    texts as visible() shows them: XML holds no control character)."""
    left, right, top, bottom = 60, 140, 40, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    every = [v for s in series for v in s] or [0]
    low, high = min([*every, 0]), max([*every, 0])
    span = (high - low) or 1
    steps = max(1, len(series[0]) - 1)

    def x(i: int) -> float:
        return left + plot_w * i / steps

    def y(v: int) -> float:
        return top + plot_h * (high - v) / span

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{left}" y="24" font-size="16">{escape(visible(title))}</text>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="black"/>',
        f'<line x1="{left}" y1="{y(0):.1f}" x2="{left + plot_w}" y2="{y(0):.1f}" '
        'stroke="#999" stroke-dasharray="4 3"/>',
        f'<text x="{left - 6}" y="{top + 4}" text-anchor="end">{high}</text>',
        f'<text x="{left - 6}" y="{top + plot_h + 4}" text-anchor="end">{low}</text>',
        f'<text x="{left - 6}" y="{y(0) + 4:.1f}" text-anchor="end">0</text>',
        f'<text x="{left + plot_w}" y="{height - 12}" text-anchor="end">'
        f'{escape(_("deal {number}", number=steps))}</text>',
        f'<text x="{left}" y="{height - 12}">{escape(_("start"))}</text>',
    ]
    for k, (name, values) in enumerate(zip(names, series, strict=True)):
        colour = COLOURS[k % len(COLOURS)]
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{points}"/>')
        ly = top + 18 * k + 10
        parts.append(f'<rect x="{left + plot_w + 16}" y="{ly - 9}" width="12" height="12" fill="{colour}"/>')
        parts.append(f'<text x="{left + plot_w + 34}" y="{ly + 2}">'
                     f'{escape(visible(name))} ({number(values[-1])})</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
