"""The evening in HTML, fragment by fragment: the one escape of a value (`e`), changes and standings
coloured, a deal's words with its result, the settlement, and the document around a page. The
score sheet's file (`sheet --html`: ui/sheet.py) and the phones' pages (serve/page.py,
serve/entry_page.py) are made of these, so that what one shows escaped the other does too."""

from __future__ import annotations

import re

from html import escape

from ..core.controls import visible
from ..core.i18n import _, language, verdict
from ..app.money import Since
from ..core.settlement import Settled
from ..store.records import Session
from .settlement import basket_share, payment_lines, settlement_heading, since_parts
from .text import amount, chips, number


def e(value: object) -> str:
    """A value as HTML text, quotes included (so it is safe in an attribute too), every control
    character written out as the terminal shows it (`\\x1b`, `\\u202e`: core.controls.visible):
    a ledger may hold one that an earlier version or another tool wrote, and a bare CR would end
    a line of the page's event stream in a browser."""
    return escape(visible(str(value)), quote=True)


def _kind(n: int | float) -> str:
    return "up" if n > 0 else "down" if n < 0 else "none"


def signed(n: int, kind: str = "") -> str:
    """A change, coloured by the style sheet: +4, -3, or a dot for none (`kind`: a class more)."""
    shown = f"+{n}" if n > 0 else number(n) if n else "·"
    return f'<span class="{kind + " " if kind else ""}{_kind(n)}">{shown}</span>'


def standing(n: int, kind: str = "") -> str:
    """Where someone stands, coloured: 12, -8, 0 (`kind`: a class more)."""
    return f'<span class="{kind + " " if kind else ""}{_kind(n)}">{number(n)}</span>'


def standing_money(cents: int, currency: str) -> str:
    """Money won or lost, coloured, as ui.text.amount writes it."""
    return f'<span class="{_kind(cents)}">{e(amount(cents, currency))}</span>'


def deal_words(said: str) -> str:
    """A deal's words made safe for HTML, a name and the tricks after it kept on one line at 360 px
    («Пётр 5 + Никита 4»): the sheet file and the phone alike."""
    return re.sub(r" (?=\d)", "\u00a0", e(said))


def told(said: str, made: bool | None, tariff: object, contract: str) -> str:
    """A deal's words and, when it was played, whether its contract was made, marked for colour:
    as ui.deals.with_result says it."""
    if made is None:
        return deal_words(said)
    word = f'<span class="{"made" if made else "failed"}">{e(verdict(tariff, contract, made))}</span>'
    return _("{deal} — {result}", deal=deal_words(said), result=word)


def settlement(session: Session, settled: Settled, note: str = "", paid: Since | None = None) -> str:
    """The settlement: each player's net chips (or points) and money, then who pays whom; `note`
    above the table (a settlement not recorded yet says so); what was paid since and what is
    still owed (`paid`) below."""
    unit = _("net chips") if session.tariff.has_basket else _("net points")
    rows = "".join(f'<tr><th scope="row">{e(name)}</th><td>{e(chips(net))}</td>'
                   f'<td>{standing_money(cents, session.currency)}</td></tr>'
                   for name, net, cents in zip(settled.players, settled.net_chips, settled.cents, strict=True))
    pays = "".join(f"<li>{e(line)}</li>" for line in payment_lines(settled.players, settled.payments,
                                                                      session.currency))
    share = basket_share(settled)
    return (f'<section class="settlement"><h2>{e(settlement_heading(session))}</h2>'
            + (f'<p class="note">{e(note)}</p>' if note else "") + (f'<p class="note">{e(share)}</p>' if share else "")
            + f'<table><thead><tr><th scope="col">{e(_("player"))}</th><th scope="col">{e(unit)}</th>'
            f'<th scope="col">{e(_("money"))}</th></tr></thead><tbody>{rows}</tbody></table>'
            f'<ul class="payments">{pays}</ul>{_since(settled, paid)}</section>')


def _since(settled: Settled, paid: Since | None) -> str:
    if paid is None:
        return ""
    made, owed = since_parts(settled, paid)
    return (f'<div class="since"><h3>{e(_("Paid since the settlement:"))}</h3><ul class="paid">'
            + "".join(f"<li>{e(line)}</li>" for line in made)
            + f'</ul><h3>{e(_("Still owed:"))}</h3><ul class="payments owed">'
            + "".join(f"<li>{e(line)}</li>" for line in owed) + "</ul></div>")


def document(title: str, body: str, head: str = "", attributes: str = "") -> str:
    """A whole page around `body`: its language, the viewport for phones, the title; `head` (the
    style, links, scripts) and `attributes` of the body as the page needs them, already HTML."""
    return ("<!DOCTYPE html>\n"
            f'<html lang="{e(language())}">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{e(title)}</title>\n{head}</head>\n<body{attributes}>\n{body}\n</body>\n</html>\n")
