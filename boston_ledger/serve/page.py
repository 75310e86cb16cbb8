"""The evening as the paper sheet, on the phones: players and balances, the basket, whose deal and
which tour, the last deals with what moved and why, the settlement once settled. It is made of
the evening's HTML fragments (ui/html.py, as `sheet --html` is): every value escaped by `e`, every
text through `_()`; the page's script only swaps the sheet that the server sends."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from ..app.sessions import Sheet
from ..core.i18n import _, condition_names, ngettext, tariff_name
from ..store.records import Correction
from ..ui.seats import table_lines
from ..ui.deals import change_words, MARK, coming, correction_note, describe, money_note, session_label, where, why
from ..ui.html import document as html_document
from ..ui.html import e, settlement, signed, standing, standing_money, told
from ..ui.text import amount, basket_word

# every served page's look: light or dark as the phone is, the icon, the style sheet
LOOK = ('<meta name="color-scheme" content="light dark">\n'
        '<link rel="icon" href="/static/icon.svg" type="image/svg+xml">\n'
        '<link rel="stylesheet" href="/static/serve.css">\n')


@dataclass(frozen=True)
class Shown:
    """A sheet with its data as the API gives it (`status --json`, the last deals of `history --json`)."""

    sheet: Sheet
    status: dict[str, Any]
    deals: list[dict[str, Any]]


def title(shown: Shown) -> str:
    session = shown.sheet.status.session
    return _("Boston · {session}", session=session_label(session))


def sheet(shown: Shown) -> str:
    """The part of the page that an update replaces."""
    st = shown.sheet.status
    session, state = st.session, st.state
    t = session.tariff
    parts = [f'<div class="sheet" data-deals="{state.deals}" data-settled="{int(session.settled)}">',
             _head(shown), _players(shown)]
    if t.has_basket:
        parts.append(f'<p class="basket" data-basket="{state.basket}"><span>{e(basket_word())}</span> '
                     f'<b>{state.basket}</b></p>')
    notes = coming(session, state)
    if note := money_note(session, state.basket if t.has_basket else None):
        notes.append(note)
    notes += table_lines(st)  # who sits for whom, who left the table with what
    changed = shown.sheet.changed
    if isinstance(changed, Correction):
        notes.insert(0, _("deal {number} corrected: {was} → {now}", number=changed.number,
                          was=describe(session, changed.was, dealer=shown.sheet.changed_dealer, number=changed.number),
                          now=describe(session, changed.now, dealer=shown.sheet.changed_dealer, number=changed.number)))
    elif changed is not None:
        notes.insert(0, _("deal {number} taken back: {deal}", number=changed.number,
                          deal=describe(session, changed.deal, dealer=shown.sheet.changed_dealer,
                                        number=changed.number)))
    if notes:
        parts.append('<ul class="notes">' + "".join(f"<li>{e(n)}</li>" for n in notes) + "</ul>")
    if shown.sheet.final:
        assert shown.sheet.settled is not None  # a final sheet is a settled one
        parts.append(settlement(session, shown.sheet.settled, paid=shown.sheet.paid))
    parts.append(_deals(shown))
    parts.append("</div>")
    return "\n".join(parts)


def _head(shown: Shown) -> str:
    st = shown.sheet.status
    session, state, pos = st.session, st.state, st.next
    t = session.tariff
    played = ngettext("{n} deal played", "{n} deals played", state.played)
    unit = _("chip") if t.has_basket else _("point")
    worth = f"{unit} = {amount(session.chip_value, session.currency)}"
    tariff = _("tariff {name}", name=tariff_name(t)) + (f" ({condition_names(t, t.applied)})" if t.applied else "")
    if session.settled:
        now = f'<p class="now settled">{e(_("The evening is settled"))} · {e(played)}</p>'
    else:
        heading = _("Deal {number}", number=pos.number)
        if len(t.tours) <= 1 and session.agreed_deals:
            heading += " " + _("of {count}", count=session.agreed_deals)
        now = f'<p class="now">{e(heading)}</p>'
        if len(t.tours) > 1:
            now += f'<p class="where{" double" if pos.double else ""}">{e(where(pos, t.tours))}</p>'

    return (f'<header><h1>{e(title(shown))}</h1>{now}'
            f'<p class="meta">{e(tariff)} · {e(worth)}{"" if session.settled else " · " + e(played)}</p></header>')


def _players(shown: Shown) -> str:
    st = shown.sheet.status
    session = st.session
    last = shown.deals[-1]["changes"] if shown.deals else {}
    dealer = None if session.settled else st.next.dealer
    cards = []
    money = st.money or (None,) * len(session.players)
    for seat, (name, value, cents) in enumerate(zip(session.players, st.standing, money, strict=True)):
        mark = f'<span class="dealer">{e(_("deals next"))}</span>' if seat == dealer else ""
        change = f'<span class="last">{e(_("last deal"))} {signed(last[name])}</span>' if name in last else ""
        worth = f'<span class="money">{standing_money(cents, session.currency)}</span>' if cents is not None else ""
        cards.append(f'<li class="player{" dealing" if seat == dealer else ""}" data-player="{e(name)}" '
                     f'data-balance="{value}"><span class="name">{e(name)}</span>{mark}'
                     f'<span class="balance">{standing(value)}</span>{worth}{change}</li>')
    return f'<ul class="players">{"".join(cards)}</ul>'


def _deals(shown: Shown) -> str:
    session = shown.sheet.status.session
    t = session.tariff
    if not shown.deals:
        return f'<p class="empty">{e(_("Session {id} has no deals yet.", id=session.id))}</p>'
    out = [f'<section class="deals"><h2>{e(_("Last deals"))}</h2>']
    walked = {w.recorded.number: w for w in shown.sheet.history.rows}  # positions: misdeals dealt again counted
    for d in reversed(shown.deals):
        sat = session.sitting(d["deal"])  # who sat in each seat at that deal
        parties = [*sat, *(["basket"] if t.has_basket else [])]
        heads = "".join(f"<th>{e(name)}</th>" for name in sat) + \
            (f'<th class="bk">{e(basket_word())}</th>' if t.has_basket else "")
        played = walked[d["deal"]]
        corrected = shown.sheet.history.corrected.get(d["deal"])
        mark, note = ("", "") if corrected is None else \
            (f" {e(MARK)}", f'<p class="corrected">{e(MARK)} {e(correction_note(corrected))}</p>')
        declarer = played.recorded.deal.declarer
        tour = where(played.position, t.tours) if len(t.tours) > 1 else ""
        about = " · ".join(x for x in (tour, _("dealer {name}", name=d["dealer"])) if x)
        note += "".join(f'<p class="about">{e(change_words(session, s))}</p>' for s in session.seatings
                        if s.from_deal == d["deal"])  # the table changed before this deal
        rows = [f'<tr><th scope="row">{e(why(key, d["made"], [moved[p] for p in parties], declarer, t, d["contract"]))}'
                '</th>'
                + "".join(f"<td>{signed(moved[p])}</td>" for p in parties) + "</tr>" for key, moved in d["why"].items()]
        total = f'<tr><th scope="row">{e(_("this deal"))}</th>' + \
            "".join(f"<td>{signed(d['changes'][p] if p in d['changes'] else d['basket_change'])}</td>"
                    for p in parties) + "</tr>"
        double = " in-double" if d["multiplier"] > 1 else ""
        out.append(
            f'<article class="deal{double}" data-deal="{d["deal"]}">'
            f'<h3><span class="num">{d["deal"]}</span> {told(d["description"], d["made"], t, d["contract"])}'
            f'{mark}</h3>'
            f'<p class="about">{e(about)}</p>{note}'
            f'<table><thead><tr><th></th>{heads}</tr></thead><tbody>{"".join(rows)}</tbody>'
            f'<tfoot>{total}</tfoot></table></article>')
    out.append("</section>")
    return "".join(out)


def document(view_title: str, sheet_html: str, token: str, lang: str, version: int) -> str:
    """The whole page: the sheet, the offline notice, the style sheet and the script (no inline
    script or style: the Content-Security-Policy forbids them)."""
    events = "/events?" + urlencode({"t": token, "lang": lang})
    return html_document(
        view_title,
        f'<main id="sheet" aria-live="polite">{sheet_html}</main>'
        f'<p id="offline" class="offline" hidden>{e(_("No connection to the score-keeper; trying again…"))}</p>'
        f'<footer>{e(_("Read-only: the sheet updates by itself after each deal."))}</footer>',
        '<meta name="referrer" content="no-referrer">\n' + LOOK
        + '<script src="/static/serve.js" defer></script>\n',
        f' data-events="{e(events)}" data-version="{version}"')


def refusal(text: str) -> str:
    """A short page for a refused request (the text is already in the client's language)."""
    return html_document(text, f'<main><p class="refused">{e(text)}</p></main>', LOOK)
