"""The entry page on the score-keeper's phone, in HTML: the questions of guided entry
(`app.entry`) as large buttons, a wrong answer's reason above them, the deal shown before it is
recorded with every answer a button that changes it. Every value is escaped here (ui.html.e) and
every text goes through `_()`; the answers so far travel in the form's hidden fields, so the
server keeps no dialogue of its own. No script is needed: each tap sends the form."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from ..app.deals import Corrected, Entered
from ..app.entry import Item, Question, Ready
from ..core.engine import Position, State
from ..core.i18n import _
from ..store.records import Session
from ..ui.deals import changes, correction_words, describe, net_by_reason, session_label, where, why
from ..ui.html import document as html_document
from ..ui.html import e, signed, standing, told
from ..ui.text import basket_word
from .page import LOOK

ANSWER = "a."  # a hidden field of an answer so far: a.FIELD
DEFAULT = "d."  # of a default (an answer taken back, offered again): d.FIELD
CORRECT = "correct"  # the number of the deal being corrected, when the questions correct one


@dataclass(frozen=True)
class Place:
    """Where the page is: the session, where it stands and the next deal's position, the link's
    token and language."""

    session: Session
    state: State
    next: Position
    token: str
    lang: str
    view_token: str

    def url(self, path: str, **more: object) -> str:
        return path + "?" + urlencode({"t": self.token, "lang": self.lang, **more})


def _hidden(answers: Mapping[str, str], defaults: Mapping[str, str], correcting: int | None = None) -> str:
    fields = [(ANSWER + k, v) for k, v in answers.items()] + [(DEFAULT + k, v) for k, v in defaults.items()]
    fields += [(CORRECT, str(correcting))] if correcting is not None else []
    return "".join(f'<input type="hidden" name="{e(k)}" value="{e(v)}">' for k, v in fields)


def _head(place: Place) -> str:
    session, pos = place.session, place.next
    t = session.tariff
    heading = _("Deal {number}", number=pos.number)
    if len(t.tours) <= 1 and session.agreed_deals:
        heading += " " + _("of {count}", count=session.agreed_deals)
    about = " · ".join(x for x in (where(pos, t.tours) if len(t.tours) > 1 else "",
                                   _("dealer {name}", name=session.players[pos.dealer])) if x)
    title = session_label(session)
    return (f'<header><h1>{e(_("Entering a deal"))} · {e(title)}</h1><p class="now">{e(heading)}</p>'
            f'<p class="where{" double" if pos.double else ""}">{e(about)}</p></header>')


def _notices(lines: Iterable[str], kind: str = "notice") -> str:
    shown = [f"<p>{e(line)}</p>" for line in lines if line]
    return f'<div class="{kind}" role="status">{"".join(shown)}</div>' if shown else ""


def _so_far(items: Iterable[Item]) -> str:
    said = [f"<li><span>{e(i.label)}</span> <b>{e(i.value)}</b></li>" for i in items]
    return f'<ul class="so-far">{"".join(said)}</ul>' if said else ""


def _nav(place: Place) -> str:
    return (f'<nav class="entry-nav"><a href="{e(place.url("/entry/undo"))}">{e(_("Take back the last deal"))}</a>'
            f'<a href="{e("/?" + urlencode({"t": place.view_token, "lang": place.lang}))}">{e(_("The sheet"))}</a>'
            "</nav>")


def question(place: Place, q: Question, answers: Mapping[str, str], defaults: Mapping[str, str],
             items: Iterable[Item], notices: Iterable[str] = (), correcting: int | None = None) -> str:
    """A question: its words, its reason when it is asked again, a large button per choice."""
    kind = {"player": "players", "number": "numbers", "word": "words", "yes-no": "words"}[q.kind]
    buttons = []
    for c in q.choices:
        mark = " chosen" if q.default is not None and c.answer == q.default else ""
        buttons.append(f'<button type="submit" name="answer" value="{e(c.answer)}" class="choice{mark}">'
                       f"{e(c.label)}</button>")
    if q.nobody:
        mark = " chosen" if q.default is not None and q.default_label == q.nobody else ""
        buttons.append(f'<button type="submit" name="answer" value="-" class="choice nobody{mark}">'
                       f'{e(q.nobody)}</button>')
    error = f'<p class="error" role="alert">{e(q.error)}</p>' if q.error else ""
    body = (f'{_head(place)}{_notices(notices)}'
            f'<form method="post" action="{e(place.url("/entry/step"))}" class="ask" data-field="{e(q.field)}">'
            f'{_hidden(answers, defaults, correcting)}<input type="hidden" name="q" value="{e(q.field)}">'
            f'<h2 class="question">{e(q.text)}</h2>{error}'
            f'<div class="choices {kind}">{"".join(buttons)}</div>'
            + (f'<button type="submit" name="back" value="{e(q.field)}" class="back">← {e(_("Back"))}</button>'
               if answers else "")  # the first question has nothing to go back to
            + f'</form>{_so_far(items)}{_nav(place)}')
    return document(f'{q.text} · {_("Entering a deal")}', body)


def confirmation(place: Place, ready: Ready, shown: Entered | Corrected, answers: Mapping[str, str],
                 error: str | None = None) -> str:
    """The deal before it is recorded (a new one: what it moves and why; a correction: the deal
    before and after, and what it changes for each player), the button that records it, and each
    answer a button that changes it."""
    if isinstance(shown, Corrected):
        correcting, shown_html, action, words = shown.number, correction(shown), "/entry/correct", \
            _("Record this correction")
    else:
        correcting, shown_html, action, words = None, breakdown(shown), "/entry/deal", _("Record this deal")
    buttons = "".join(f'<button type="submit" name="change" value="{e(item.field)}" class="item">'
                      f'<span>{i}) {e(item.label)}</span> <b>{e(item.value)}</b></button>'
                      for i, item in enumerate(ready.items, 1))
    alert = f'<p class="error" role="alert">{e(error)}</p>' if error else ""
    body = (f'{_head(place)}{alert}{shown_html}'
            f'<form method="post" action="{e(place.url(action))}" class="record">'
            f'{_hidden(answers, {})}<input type="hidden" name="number" value="{shown.number}">'
            f'<button type="submit" class="primary">{e(words)}</button></form>'
            f'<form method="post" action="{e(place.url("/entry/step"))}" class="change">'
            f'{_hidden(answers, {}, correcting)}'
            f'<h2>{e(_("Change an answer"))}</h2><div class="items">{buttons}</div>'
            f'<button type="submit" name="back" value="" class="back">← {e(_("Back"))}</button></form>'
            f'<p class="cancel"><a href="{e(place.url("/entry"))}">{e(_("Record nothing"))}</a></p>{_nav(place)}')
    return document(_("Record this correction?") if correcting is not None else _("Record this deal?"), body)


def correction(c: Corrected) -> str:
    """A correction before it is recorded: the deal before and after, and each player's (and the
    basket's) standing at the end of the session before and after it."""
    session = c.session
    heads = "".join(f"<th>{e(session.people[p])}</th>" for p in session.present) + \
        (f'<th class="bk">{e(basket_word())}</th>' if session.tariff.has_basket else "")
    rows = "".join(f'<tr><th scope="row">{e(label)}</th>' + "".join(f"<td>{cell(v)}</td>" for v in values) + "</tr>"
                   for (label, values), cell in zip(changes(session, c.before, c.after, c.basket),
                                                    (standing, standing, signed), strict=True))
    return (f'<section class="preview deal"><h3>{e(correction_words(c))}</h3>'
            f'<table><thead><tr><th></th>{heads}</tr></thead><tbody>{rows}</tbody></table></section>')


def breakdown(shown: Entered) -> str:
    """A deal's table: what each reason moved for each player (and the basket), the deal's
    change, everyone's balance after it (on points: the scores)."""
    session, deal, outcome = shown.session, shown.deal, shown.outcome
    heads = "".join(f"<th>{e(name)}</th>" for name in session.players)
    if shown.points is not None:  # points: the deal's scores and what each has written after it
        rows = (f'<tr><th scope="row">{e(_("this deal"))}</th>'
                + "".join(f"<td>{signed(n)}</td>" for n in outcome.scores) + "</tr>")
        foot = (f'<tr><th scope="row">{e(_("score"))}</th>' + "".join(f"<td>{standing(n)}</td>" for n in shown.points)
                + "</tr>")
    else:
        heads += f'<th class="bk">{e(basket_word())}</th>'
        n = len(session.players)
        lines = net_by_reason(outcome.transfers, n)
        said = {key: why(key, outcome.made, moved, deal.declarer, session.tariff, deal.contract)
                for key, moved in lines.items()}
        rows = "".join(f'<tr><th scope="row">{e(said[key])}</th>'
                       + "".join(f"<td>{signed(v)}</td>" for v in moved) + "</tr>" for key, moved in lines.items())
        total = [sum(col) for col in zip(*lines.values(), strict=True)] if lines else [0] * (n + 1)
        after = [*shown.after.balances, shown.after.basket]
        foot = (f'<tr><th scope="row">{e(_("this deal"))}</th>' + "".join(f"<td>{signed(v)}</td>" for v in total)
                + f'</tr><tr><th scope="row">{e(_("balance"))}</th>' + "".join(f"<td>{standing(v)}</td>" for v in after)
                + "</tr>")
    head = told(describe(session, deal), outcome.made, session.tariff, deal.contract)
    return (f'<section class="preview deal"><h3>{head}</h3>'
            f'<table><thead><tr><th></th>{heads}</tr></thead><tbody>{rows}</tbody><tfoot>{foot}</tfoot></table>'
            "</section>")


def undo(place: Place, number: int | None, said: str | None, error: str | None = None) -> str:
    """The last deal, and the button that takes it back (it stays on record as undone)."""
    alert = f'<p class="error" role="alert">{e(error)}</p>' if error else ""
    if number is None:
        main = f'<p class="notice">{e(_("there is no deal to take back in this session"))}</p>'
    else:
        main = (f'<h2 class="question">{e(_("Take back deal {number} ({deal})?", number=number, deal=said))}</h2>'
                f'<p>{e(_("It stays on record as undone."))}</p>'
                f'<form method="post" action="{e(place.url("/entry/undo"))}" class="record">'
                f'<input type="hidden" name="number" value="{number}">'
                f'<button type="submit" class="primary danger">{e(_("Take it back"))}</button></form>'
                f'<p class="cancel"><a href="{e(place.url("/entry/correct", number=number))}">'
                f'{e(_("Correct it instead"))}</a></p>')
    body = (f'{_head(place)}{alert}{main}<p class="cancel"><a href="{e(place.url("/entry"))}">'
            f'{e(_("Keep it and enter a deal"))}</a></p>')
    return document(_("Take back the last deal"), body)


def closed(place: Place, lines: list[str]) -> str:
    """A session that takes no more deals here: what was just done, and why not."""
    return document(lines[-1], f"{_head(place)}{_notices(lines)}{_nav(place)}")


def document(title: str, body: str) -> str:
    """The whole page (no inline script or style: the Content-Security-Policy forbids them)."""
    # the token goes to no other origin; the page's forms say their own
    return html_document(title, f"<main>{body}</main>", '<meta name="referrer" content="same-origin">\n' + LOOK
                         + '<script src="/static/entry.js" defer></script>\n', ' class="entry"')
