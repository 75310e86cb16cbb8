"""The evening's score sheet to share: plain text for a messenger (no escape codes, 40 columns),
or a self-contained web page (inline CSS, the chart inline as SVG, nothing fetched) that prints
on A4 and reads on a phone.

The page is made of the evening's HTML fragments (ui/html.py, which the phones' pages are made
of too: one escape for both) and this sheet's own, the running table and the chart.
"""

from __future__ import annotations

from collections.abc import Mapping

from rich.cells import cell_len

from ..app.deals import History
from ..app.money import Since
from ..app.sessions import Sheet
from ..core.controls import visible
from ..core.i18n import _, condition_names, ngettext, number_sign, tariff_name
from ..core.settlement import Settled
from ..store.records import Session
from . import chart
from .deals import between, correction_legend, played, score_lines, session_title, steps, tour_heading
from .html import deal_words, document, e, settlement, signed, standing
from .settlement import basket_share, payment_lines, settlement_heading, since_lines
from .term import KEEP
from .text import amount, basket_word, chips, local_time
from .widths import packed, wrapped

WIDTH = 40  # the plain sheet fits a phone's messenger


def heading_parts(session: Session, history: History) -> list[list[str]]:
    """Who played what and when, line by line in parts: the session and its date; the tariff and
    the chip's value; the players and the deals played."""
    t = session.tariff
    worth = amount(session.chip_value, session.currency)
    unit = _("one chip = {value}", value=worth) if t.has_basket else _("one point = {value}", value=worth)
    conditions = _(" with {conditions}", conditions=condition_names(t, t.applied)) if t.applied else ""
    played = history.total if history.played is None else history.played  # a misdeal dealt again is no deal
    return [
        [session_title(session), local_time(session.created_at)[:10]],
        [_("tariff {name}", name=tariff_name(t)) + conditions, unit],
        [", ".join(session.players), ngettext("{n} deal played", "{n} deals played", played)],
    ]


def legend(history: History) -> list[str]:
    """The corrected deals of the sheet, when and why each (under its deals)."""
    return correction_legend(history.corrected, (w.recorded.number for w in history.rows))


def not_yet() -> str:
    return _("Not settled yet; settled now, it would be:")


# ---- plain text --------------------------------------------------------------------------------


def text(sheet: Sheet, width: int = WIDTH) -> str:
    """The sheet as plain text: a line per deal with what was played, a line with where it
    left every player and the basket, a rule at each tour (deals.score_lines); then the
    settlement."""
    history = sheet.history
    session = history.session
    lines = [line for parts in heading_parts(session, history) for line in packed(parts, width, " · ")] + [""]
    if not history.rows:
        lines.append(_("Session {id} has no deals yet.", id=session.id))
        return "\n".join(lines) + "\n"
    sheet_lines, names = score_lines(session, history.rows, width, changes=False, spread=True,
                                     corrected=history.corrected,
                                     agreed=between(session, history.rows, history.extensions))
    lines += [line.plain.replace(KEEP, " ") for line in sheet_lines]  # a no-break space laid out, as printed
    notes = legend(history)
    if notes:
        lines.append("")
        lines += [line for note in notes for line in wrapped(note, width, "  ")]
    if sheet.settled is not None:
        lines.append("")
        lines += wrapped(not_yet(), width) if not sheet.final else []
        lines += settlement_text(session, sheet.settled, dict(zip(session.players, names, strict=True)), width,
                                 sheet.paid)
    return "\n".join(lines) + "\n"


def settlement_text(session: Session, settled: Settled, shown: Mapping[str, str], width: int = WIDTH,
                    paid: Since | None = None) -> list[str]:
    """The settlement as lines of text: heading, each person's chips and money (a player's name as
    the sheet's columns show it, `shown`; a name with the numbers too wide for a line has a line of
    its own), who pays whom; what was paid since and what is still owed (`paid`)."""
    names = [shown.get(name, name) for name in settled.players]
    pad = max(cell_len(visible(n)) for n in names)
    rows = []
    for name, net, cents in zip(names, settled.net_chips, settled.cents, strict=True):
        figures = f"{chips(net):>7} {amount(cents, session.currency):>14}"
        if pad + 1 + cell_len(figures) <= width:
            rows.append(f"{name}{' ' * (pad - cell_len(visible(name)))} {figures}".rstrip())
        else:
            rows += [name, " " * max(0, width - cell_len(figures)) + figures]
    share = basket_share(settled)
    said = [settlement_heading(session), *([share] if share else []),
            *payment_lines(settled.players, settled.payments, session.currency),
            *since_lines(settled, paid)]
    head = 2 if share else 1  # the heading and where the basket went, above the rows
    return [line for part in said[:head] for line in wrapped(part, width, "  ")] + rows + \
        [line for part in said[head:] for line in wrapped(part, width, "  ")]


# ---- HTML --------------------------------------------------------------------------------------


def _change(change: int, level: int) -> str:
    return f"<td>{signed(change, 'change')}{standing(level, 'level')}</td>"


def running_table(history: History) -> str:
    """The running table: a row per deal with what was played and, for every player and the
    basket, the change and where it then stands; a heading row at each tour."""
    session = history.session
    names = list(session.players) + ([basket_word()] if session.tariff.has_basket else [])
    head = "".join(f'<th scope="col">{e(n)}</th>' for n in names)
    rows: list[str] = []
    notes = between(session, history.rows, history.extensions)

    def noted(after: int) -> None:
        rows.extend(f'<tr class="note"><td></td><td class="deal" colspan="{len(names) + 1}">{e(line)}</td></tr>'
                    for line in notes.get(after, ()))

    noted(0)
    for w, tour in zip(history.rows, tour_heading(session, history.rows), strict=True):
        if tour is not None:
            kind = "tour double" if w.position.double else "tour"
            rows.append(f'<tr class="{kind}"><th colspan="{len(names) + 2}" scope="colgroup">{e(tour)}</th></tr>')
        kind = "" if w.outcome.made is None else ' class="made"' if w.outcome.made else ' class="failed"'
        dealer = e(_("dealer {name}", name=session.sitting(w.recorded.number)[w.position.dealer]))
        words = deal_words(played(session, w, corrected=history.corrected))
        rows.append(f'<tr{kind}><td class="number">{w.recorded.number}</td>'
                    f'<td class="deal">{words}<span class="dealer">{dealer}</span></td>'
                    + "".join(_change(c, level) for c, level in steps(session, w)) + "</tr>")
        noted(w.recorded.number)
    return (f'<table class="sheet"><thead><tr><th scope="col">{e(number_sign())}</th>'
            f'<th scope="col" class="deal">{e(_("deal"))}</th>{head}'
            f'</tr></thead>\n<tbody>\n' + "\n".join(rows) + "\n</tbody></table>")


def chart_figure(history: History) -> str:
    """Each player's running standing as an inline SVG picture."""
    from ..app.deals import series

    session = history.session
    picture = chart.svg(_("Each player's standing, deal by deal"), session.players, series(session, history.rows))
    return f'<figure class="chart">{picture}</figure>'


STYLE = """
@page { size: A4; margin: 12mm; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { font: 15px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; color: #111;
       margin: 0 auto; padding: 12px; max-width: 60rem; background: #fff; }
h1 { font-size: 1.35rem; margin: 0 0 .2rem; }
h2 { font-size: 1.1rem; margin: 1.2rem 0 .4rem; }
header p { margin: .1rem 0; color: #444; }
.part { display: inline-block; max-width: 100%; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
table.sheet { width: 100%; }
th, td { padding: .2rem .35rem; text-align: right; vertical-align: top; }
thead th { border-bottom: 2px solid #333; white-space: nowrap; }
td.number { color: #666; }
td.deal, th.deal { text-align: left; }
table.sheet tbody td { border-bottom: 1px solid #e3e3e3; }
tr.tour th { text-align: left; padding-top: .6rem; border-bottom: 1px solid #333; font-weight: 600; }
tr.tour.double th { color: #8a4b00; background: #fff4e0; }
.change { display: block; font-size: .78em; color: #666; }
.change.up { color: #17702c; } .change.down { color: #b3261e; }
.level { font-weight: 600; } .level.down { color: #b3261e; }
tr.made td.deal { box-shadow: inset 3px 0 #17702c; } tr.failed td.deal { box-shadow: inset 3px 0 #b3261e; }
td.deal { padding-left: .5rem; }
.dealer { display: block; font-size: .78em; color: #777; }
.settlement th[scope=row], .settlement thead th:first-child { text-align: left; }
.settlement td, .settlement th { padding: .2rem .8rem .2rem 0; }
.settlement .up { color: #17702c; font-weight: 600; } .settlement .down { color: #b3261e; font-weight: 600; }
.payments { padding-left: 1.2rem; } .note { color: #8a4b00; }
ul.corrected { list-style: none; padding-left: 0; margin: .4rem 0; color: #444; font-size: .9em; }
figure.chart { margin: 1rem 0; } figure.chart svg { width: 100%; height: auto; }
footer { margin-top: 1.5rem; color: #777; font-size: .8rem; }
@media (max-width: 40rem) {
  body { font-size: 14px; padding: 8px; }
  th, td { padding: .15rem .2rem; }
  .dealer { display: none; }
  td.deal { overflow-wrap: anywhere; }
  /* the names over the columns of numbers stand on end, whole, so the table fits a phone */
  table.sheet thead th:not(.deal):not(:first-child) { writing-mode: vertical-rl; transform: rotate(180deg);
                                                      text-align: left; vertical-align: bottom; }
}
@media print {
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  .scroll { overflow: visible; }
  thead { display: table-header-group; }
  tr, figure.chart, section.settlement { break-inside: avoid; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""


def page(sheet: Sheet, made_by: str = "boston-ledger") -> str:
    """The whole page of an evening: heading, running table, settlement, chart; self-contained."""
    history = sheet.history
    session = history.session
    parts = heading_parts(session, history)
    # each part kept whole on a line where it fits (a date is not broken at its hyphens)
    heading, *details = (" · ".join(f'<span class="part">{e(part)}</span>' for part in line) for line in parts)
    body = [f"<header><h1>{heading}</h1>" + "".join(f"<p>{line}</p>" for line in details) + "</header>"]
    if history.rows:
        body.append(f'<div class="scroll">{running_table(history)}</div>')
        if notes := legend(history):
            body.append('<ul class="corrected">' + "".join(f"<li>{e(note)}</li>" for note in notes) + "</ul>")
    else:
        body.append(f"<p>{e(_('Session {id} has no deals yet.', id=session.id))}</p>")
    if sheet.settled is not None:
        body.append(settlement(session, sheet.settled, "" if sheet.final else not_yet(), sheet.paid))
    if history.rows:
        body.append(chart_figure(history))
    body.append(f"<footer>{e(made_by)}</footer>")
    return document(" · ".join(parts[0]), "\n".join(body), f"<style>{STYLE}</style>\n")
