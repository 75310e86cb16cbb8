"""Entering deals from a phone (`serve --entry`): the routes behind the second token.

The questions, their validation and their words are guided entry's (`app.entry`), the deal is
recorded by the application layer as `boston-ledger deal` records it (`app.deals.enter`: one
`BEGIN IMMEDIATE` transaction, so a phone and a terminal entering at once take turns), and
undo is `app.deals.undo`. The answers so far travel in the page's form, so nothing of a
dialogue is kept here. Each request opens the ledger for itself: read-only to ask and to show,
writable only to record or to take back (never without `--entry`)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from ..app import deals as deals_app
from ..app import entry as flow
from ..core import engine
from ..core.errors import LedgerError
from ..core.fields import FIELDS
from ..core.i18n import _
from ..store import read
from ..store.db import open_db, open_read_only
from ..store.records import Recorded, Session
from ..ui.deals import describe, next_lines
from . import entry_page
from .routes import HTML, Request, Response

FIELD = re.compile("|".join(f.name + (r"\.[0-9]" if f.kind == "tricks-each" else "") for f in FIELDS))
LONGEST = 120  # characters of an answer: a name is at most 40


class Entry:
    """The entry routes of one served session, behind their own token."""

    def __init__(self, path: Path, session_id: int, token: str, view_token: str,
                 written: Callable[[], None] = lambda: None) -> None:
        self.path, self.session_id, self.token, self.view_token = path, session_id, token, view_token
        self.written = written  # told after each write, so that the sheet shows it at once (not at the next look)

    def routes(self) -> dict[str, tuple[tuple[str, ...], Callable[[Request, str], Response]]]:
        """Path: (the methods it answers, its handler)."""
        return {"/entry": (("GET", "HEAD"), self.page), "/entry/step": (("POST",), self.step),
                "/entry/deal": (("POST",), self.deal), "/entry/undo": (("GET", "HEAD", "POST"), self.undo),
                "/entry/correct": (("GET", "HEAD", "POST"), self.correct)}

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        conn = open_read_only(self.path)
        try:
            yield conn
        finally:
            conn.close()

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        conn = open_db(self.path)
        try:
            yield conn
        finally:
            conn.close()
            self.written()

    def _place(self, conn: sqlite3.Connection, lang: str) -> entry_page.Place:
        session = deals_app.current(conn, self.session_id)
        state = read.state(conn, session)
        return entry_page.Place(session, state, engine.position(session.tariff, state),
                                self.token, lang, self.view_token)

    # ---- the routes --------------------------------------------------------------------------

    def page(self, req: Request, lang: str) -> Response:
        """The first question, after what was just done (a deal recorded, one taken back)."""
        with self._reading() as conn:
            place = self._place(conn, lang)
            notices: list[str] = []
            done, undone = _number(req.query, "done"), _number(req.query, "undone")
            if done is not None:
                notices = [_("Deal {number} recorded.", number=done),
                           *next_lines(place.session, place.state)]
            elif undone is not None:
                notices = [_("Deal {number} taken back; it stays on record as undone.", number=undone),
                           *next_lines(place.session, place.state)]
            elif (corrected := _number(req.query, "corrected")) is not None:
                notices = [_("Deal {number} corrected; the old entry stays on record.", number=corrected)]
            return self._asked(conn, place, {}, {}, notices)

    def step(self, req: Request, lang: str) -> Response:
        """An answer (or back, or an answer to change): the next question, or the deal shown."""
        answers, defaults = _answers(req.form)
        notices = []
        with self._reading() as conn:
            place = self._place(conn, lang)
            said = _field(req.form, "answer")
            if "back" in req.form:
                moved = flow.back(place.session, answers, _field(req.form, "back") or None)
                if moved is None:
                    notices.append(_("this is the first question; there is nothing to go back to"))
                else:
                    answers, earlier = moved
                    defaults |= earlier
            elif "change" in req.form:
                answers, earlier = flow.change(place.session, answers, _field(req.form, "change") or "")
                defaults |= earlier
            elif said is not None and FIELD.fullmatch(_field(req.form, "q") or ""):
                answers[_field(req.form, "q") or ""] = said
            return self._asked(conn, place, answers, defaults, notices,
                               correcting=_number(req.form, entry_page.CORRECT))

    def deal(self, req: Request, lang: str) -> Response:
        """Record the deal of the answers, as it was shown (its number): then the first question
        again (a redirect, so that reloading the page records nothing twice)."""
        answers, __ = _answers(req.form)
        number = _number(req.form, "number")
        with self._reading() as conn:
            place = self._place(conn, lang)
            found = flow.step(place.session, answers)
            if not isinstance(found, flow.Ready) or number is None:
                return self._asked(conn, place, answers, {}, [], status=400)
        try:
            with self._writing() as conn:
                entered = deals_app.enter(conn, found.deal, self.session_id, number=number)
        except LedgerError as e:
            with self._reading() as conn:
                return self._asked(conn, self._place(conn, lang), answers, {}, [], error=str(e), status=409)
        return Response(303, b"", HTML, {"Location": place.url("/entry", done=entered.number)})

    def undo(self, req: Request, lang: str) -> Response:
        """GET: the last deal and the button that takes it back; POST: take back the deal whose
        number the form says (the undo page's button sends the one it showed). Without the
        number, or when the last deal is another one by then, nothing is taken back: 409, and the
        page of the deal that is last now."""
        error: str | None = None
        if req.method == "POST":
            number = _number(req.form, "number")
            try:
                if number is None:
                    raise LedgerError(_("the form does not say which deal to take back; nothing was taken back"))
                with self._writing() as conn:
                    deals_app.undo(conn, self.session_id, number)
                with self._reading() as conn:
                    place = self._place(conn, lang)
                return Response(303, b"", HTML, {"Location": place.url("/entry", undone=number)})
            except LedgerError as e:
                error = str(e)
        with self._reading() as conn:
            place = self._place(conn, lang)
            last, said = _last_said(conn, place.session)
            html = entry_page.undo(place, last.number if last else None, said, error)
        return Response(409 if error else 200, html.encode(), HTML)

    def correct(self, req: Request, lang: str) -> Response:
        """GET: the last deal's answers, to change any of them, shown with what the correction
        changes; POST: record the correction of the deal whose number the form says (the last one;
        when it is another one by then, or the deal is unchanged, nothing is recorded: 409)."""
        number = _number(req.form if req.method == "POST" else req.query, "number")
        with self._reading() as conn:
            place = self._place(conn, lang)
            last, said = _last_said(conn, place.session)
            if last is None or number != last.number:
                return _not_last(place, last, said, number)
            if req.method != "POST":
                answers = flow.with_defaults(place.session, flow.answers_of(place.session, last.deal))
                return self._asked(conn, place, answers, {}, [], correcting=number)
            answers, __ = _answers(req.form)
            found = flow.step(place.session, answers)
            if not isinstance(found, flow.Ready):
                return self._asked(conn, place, answers, {}, [], correcting=number, status=400)
        try:
            with self._writing() as conn:  # checked again in the write: a deal entered meanwhile stops it
                deals_app.correct(conn, number, found.deal, _("corrected from the phone"), self.session_id,
                                  last=number)
            return Response(303, b"", HTML, {"Location": place.url("/entry", corrected=number)})
        except LedgerError as e:
            with self._reading() as conn:
                place = self._place(conn, lang)
                last, said = _last_said(conn, place.session)
                if last is None or number != last.number:  # a deal entered or taken back meanwhile
                    return _not_last(place, last, said, number, str(e))
                return self._asked(conn, place, answers, {}, [], error=str(e), correcting=number, status=409)

    def _asked(self, conn: sqlite3.Connection, place: entry_page.Place, answers: dict[str, str],
               defaults: dict[str, str], notices: list[str], error: str | None = None, status: int = 200,
               correcting: int | None = None) -> Response:
        """The page of the next question, or of the complete deal shown before it is recorded (or,
        `correcting` deal N, the correction shown with what it changes)."""
        session = place.session
        try:
            if correcting is None:
                deals_app.open_for_deals(session, place.state)
            else:
                deals_app.correctable(session)
        except LedgerError as e:
            return Response(status, entry_page.closed(place, [*notices, str(e)]).encode(), HTML)
        found = flow.step(session, answers, defaults)
        if isinstance(found, flow.Ready):
            try:
                shown = deals_app.preview(conn, session, found.deal) if correcting is None else \
                    deals_app.correction(conn, session, correcting, found.deal)
            except LedgerError as e:  # what only the deals before it decide (a petite when the belle turned
                if e.field is None or e.field not in answers:  # again): its question asked again, as at a terminal
                    raise
                answers, earlier = flow.change(session, answers, e.field)
                defaults, error = defaults | earlier, str(e)
                found = flow.step(session, answers, defaults)
            else:
                html = entry_page.confirmation(place, found, shown, answers, error)
                return Response(status, html.encode(), HTML)
        assert isinstance(found, flow.Question)  # flow.change took back the refused field's answer
        html = entry_page.question(place, found, answers, defaults, flow.answered(session, answers, defaults),
                                   [*notices, *([error] if error else [])], correcting)
        return Response(status, html.encode(), HTML)


def _field(form: Mapping[str, list[str]], name: str) -> str | None:
    """The first value a form (or a query) gives `name`, cut to a short text; None without one."""
    values = form.get(name)
    return values[0][:LONGEST] if values else None


def _not_last(place: entry_page.Place, last: Recorded | None, said: str | None, number: int | None,
              error: str | None = None) -> Response:
    """409: deal `number` is not the last deal (`last`, described as `said`); the page of the one
    that is, saying that nothing was corrected (`error`, when the write said it)."""
    error = error or _("deal {number} is no longer the last deal; nothing was corrected", number=number)
    return Response(409, entry_page.undo(place, last.number if last else None, said, error).encode(), HTML)


def _last_said(conn: sqlite3.Connection, session: Session) -> tuple[Recorded | None, str | None]:
    """The session's last standing deal and its words, as the undo and correction pages name it."""
    last = read.last_deal(conn, session)
    if last is None:
        return None, None
    return last, describe(session, last.deal, dealer=read.dealer_of(conn, session, last.number), number=last.number)


def _number(values: Mapping[str, list[str]], name: str) -> int | None:
    text = _field(values, name) or ""
    return int(text) if re.fullmatch("[0-9]{1,9}", text) else None


def _answers(form: Mapping[str, list[str]]) -> tuple[dict[str, str], dict[str, str]]:
    """The answers and defaults a form carries (fields of the flow only, each a short text)."""
    out: tuple[dict[str, str], dict[str, str]] = ({}, {})
    for name, values in form.items():
        for prefix, into in zip((entry_page.ANSWER, entry_page.DEFAULT), out, strict=True):
            if name.startswith(prefix) and FIELD.fullmatch(name[len(prefix):]) and values:
                into[name[len(prefix):]] = values[0][:LONGEST]
    return out
