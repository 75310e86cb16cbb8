"""One function per command: the values as typed in, the application's result shown out.

Both ways into the program call these by keyword: the quick parser for a plain `deal` or
`status` (quick.py), typer for everything else (declarations.py). Nothing here imports typer,
so that `deal` and `status` start fast; rich draws the views (ui/).
"""

from __future__ import annotations

import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..app import deals as deals_app
from ..app import sessions as sessions_app
from ..app.inputs import chip_value as read_chip_value
from ..app.inputs import currency as read_currency
from ..app.inputs import reason_text, session_name, whole
from ..core.engine import Deal
from ..core.fields import BY_NAME
from ..core.errors import LedgerError
from ..core.i18n import _, condition_names, ngettext, speak_words, strerror
from ..app import opening
from ..app.deals import Session
from .guard import PROG, read_only, slow, waiting
from . import options
from .options import SESSION_ENV

if TYPE_CHECKING:  # rich is loaded only by a command that draws
    from ..app.evenings import Picked
    from ..ui.term import Console


def connect(db: str | None) -> sqlite3.Connection:
    """The ledger the command line names (it is closed when the command ends: `guard`); on a
    read-only file system, opened for reading only, and said so."""
    conn = opening.connect(db, waiting, slow)
    if getattr(conn, "read_only", False):
        read_only(conn.path)
    return conn


def _console() -> Console:
    from ..ui.text import console

    return console()


def _json(data: object) -> None:
    from ..ui.text import emit_json

    emit_json(data)


def _say(text: object, err: bool = False) -> None:
    """A plain line, as the console shows text (what a terminal would obey made visible); on
    stderr, a message (broken between words at a terminal, one line elsewhere)."""
    from ..ui.text import message, say

    if err:
        message(str(text), err=True)
    else:
        say(text)


def _evening(conn: sqlite3.Connection, session: str | None) -> Picked | None:
    """The evening a command that writes works on (`app.evenings.evening`): the one the command
    line names, else the ledger's current one when no other is open; else, at a terminal, the one
    the person there picks (None: none), and without one, a refusal that lists them."""
    from ..app.evenings import Evening, evening

    def choose(evenings: Sequence[Evening]) -> int | None:
        from ..ui import evenings as shown
        from ..ui import guided

        if not guided.interactive():
            raise LedgerError(shown.undecided(evenings, SESSION_ENV))
        return shown.choose(evenings, SESSION_ENV)

    return evening(conn, options.session_id(session), choose)


def _beside(conn: sqlite3.Connection, chosen: int | None, session: Session) -> None:
    """When the command line named no evening and others are open, say on stderr which one a view
    shows."""
    if chosen is not None:
        return
    from ..app.evenings import open_evenings

    others = open_evenings(conn, besides=session.id)
    if others:
        from ..ui.evenings import beside

        _say(beside(session, others), err=True)


def _titled(picked: Picked) -> None:
    """The evening a write went to, as a heading, when other evenings are open."""
    if picked.others:
        from ..ui.deals import session_title

        _console().print(session_title(picked.session), style="bold")


# ---- the evening ---------------------------------------------------------------------------


def new(players: list[str], tariff: str = "classic", chip_value: str = "1", currency: str = "",
        name: str | None = None, condition: list[str] | None = None, deals: str | None = None,
        yes: bool = False, db: str | None = None) -> None:
    """Start a session and make it current; while an evening with deals is open, only once a
    person at a terminal says so (Enter: no), or with `yes`."""
    from ..app.evenings import MOST_DEALS, Evening, open_evenings
    from ..app.tariffs import load
    from ..ui import guided

    t = load(tariff, condition or ())
    agreed = whole(deals, "--deals", 1, MOST_DEALS)
    value = read_chip_value(chip_value)
    code = read_currency(currency) if currency else ""
    from ..app.inputs import table_names

    names = table_names(players, t)
    label = session_name(name)
    here = options.session_id(None)  # the session this terminal plays, if it chooses one
    out = _console()

    def start(conn: sqlite3.Connection) -> tuple[Session | None, list[Evening]]:
        """The new session (None when the person at the terminal keeps to the open evenings: the
        default), and the evenings it leaves open. Asked only when one of them has deals: an
        evening without any is no debt left behind (and a command that writes asks which evening
        it is for while it is open)."""
        from ..ui.evenings import is_open

        left = open_evenings(conn)
        if any(e.deals for e in left) and not yes:
            said = "; ".join(map(is_open, left))
            if not guided.interactive():
                raise LedgerError(_("{said}; settle it first (`{prog} settle`), or start another evening anyway with "
                                    "`{prog} new ... --yes` (`{prog} use {id}` goes back to it)", said=said,
                                    prog=PROG, id=left[0].id) if len(left) == 1 else
                                  _("{said}; settle those that have ended first (`{prog} settle --session N`), or "
                                    "start another evening anyway with `{prog} new ... --yes`", said=said, prog=PROG))
            out.print(said[:1].upper() + said[1:] + ".")
            if not guided.confirm(_("Start another evening anyway?"), default=False):
                return None, left
        return sessions_app.new(conn, names, t, value, code, label, agreed), left

    # everything typed is checked by now: a ledger that does not exist yet appears with this session in it
    session, left = opening.create(db, start, waiting)
    if session is None:
        out.print(ngettext("Nothing started; session {ids} stays open (`{prog} settle` ends it).",
                           "Nothing started; sessions {ids} stay open (`{prog} settle --session N` ends one).",
                           len(left), ids=", ".join(str(e.id) for e in left), prog=PROG))
        return
    out.print(_("Session {id} started: {names} (seat order; {name} deals first).", id=session.id,
                names=", ".join(names), name=names[0]))
    from ..ui.text import amount

    worth = amount(value, code)
    out.print(_("Tariff {name}: {title}. One chip = {value}.", name=t.name,
                title=_(t.title), value=worth) if t.has_basket else
              _("Tariff {name}: {title}. One point = {value}.", name=t.name,
                title=_(t.title), value=worth))
    if t.applied:
        out.print(_("Conditions: {names}.", names=condition_names(t, t.applied)))
    if agreed:
        out.print(ngettext("The session lasts {n} deal.", "The session lasts {n} deals.", agreed))
    if left:
        out.print((_("Session {id} stays open: `{prog} use {id}` goes back to it.", id=left[0].id, prog=PROG)
                   if len(left) == 1 else _("Sessions {ids} stay open: `{prog} use N` goes back to one.",
                                            ids=", ".join(str(e.id) for e in left), prog=PROG)) + " " +
                  _("Two tables at once: `export {var}=N` in each table's terminal keeps it to its own evening; "
                    "without it, a command that writes asks which evening it is for.", var=SESSION_ENV))
        if not all(e.deals for e in left):
            out.print(_("An evening without deals that nobody will play is closed by `{prog} settle --session N`.",
                        prog=PROG))
    _still_chosen(here, session.id)


def _still_chosen(here: int | None, made_current: int) -> None:
    """When this terminal's BOSTON_LEDGER_SESSION names another session than the one just made
    current, say that it still decides here."""
    if here is not None and here != made_current:
        _console().print(_("{var}={here} in this terminal still chooses session {here}; `export {var}={id}` "
                           "to play session {id} here.", var=SESSION_ENV, here=here, id=made_current))


def deal(db: str | None = None, session: str | None = None, **typed: str | bool | None) -> None:
    """Record one deal of the session and show what moved and why (`deal --help`); `typed` are the
    deal's fields as typed (core.fields)."""
    from ..ui.deals import banners, deal_table, next_lines, session_label

    conn = connect(db)
    picked = _evening(conn, session)
    if picked is None:
        _console().print(_("Nothing recorded."))
        return
    evening = deals_app.playable(conn, picked.session.id)
    named = bool(picked.others)  # other evenings are open: what is shown names this one
    contract = typed.pop("contract", None)
    asked = False
    try:
        if contract is None:
            raise LedgerError(_("deal needs a CONTRACT, e.g. `boston-ledger deal junior --declarer NAME --tricks N`"),
                              "contract")
        d = deals_app.typed_deal(evening, str(contract), **typed)
    except LedgerError as e:  # at a terminal, what is missing or wrong is asked; every other answer stays
        from ..ui import guided  # here: a complete deal imports no question of guided entry

        if e.field is None or not guided.interactive():
            raise
        from ..app.entry import typed_answers

        asked = True
        answers = typed_answers(evening, {"contract": contract, **typed})
        if typed.get("tricks") is not None and all(typed.get(f) is None for f in
                                                    ("partner", "partner_tricks", "team_tricks")):
            answers["partner"] = "-"  # the declarer's tricks and no partner: played alone
        said = guided.deal(evening, answers, lambda d: deal_table(deals_app.preview(conn, evening, d), named),
                           typed=[f for f in answers if f != "contract"])
        if said is None:
            _console().print(_("Nothing recorded."))
            return
        d = said
    entered = deals_app.enter(conn, d, evening.id)
    out = _console()
    if asked:
        out.print(_("Deal {number} of {session} recorded.", number=entered.number, session=session_label(evening))
                  if named else _("Deal {number} recorded.", number=entered.number))
    else:
        out.print(deal_table(entered, named))
    for banner in banners(evening.tariff, entered.position, entered.after, entered.outcome.redealt):
        out.print(banner, style="bold yellow")
    for line in next_lines(entered.session, entered.after):
        out.print(line)
    t = evening.tariff
    boston_asked = BY_NAME["boston"].asked  # whether guided entry would have asked who held the boston
    if not asked and d.boston is None and boston_asked is not None and \
            boston_asked(t, t.contracts.get(d.contract), entered.outcome.made):
        out.print(_("No boston named; if somebody held it: `{prog} edit {number} --boston NAME`", prog=PROG,
                    number=entered.number), style="dim")


def edit(number: str, reason: str | None = None, yes: bool = False, db: str | None = None,
         session: str | None = None, **typed: str | bool | None) -> None:
    """Correct an earlier deal: what is given (`typed`, the deal's fields as typed) replaces what
    deal N had, the rest stays; every deal after it is replayed; the old entry stays on record.
    At a terminal the correction is shown first, with what it changes for each player, and
    recorded once confirmed (`yes`: at once); `edit N` alone asks what to change."""
    from ..app import entry
    from ..ui import guided
    from ..ui.deals import change_table, correction_view, describe

    conn = connect(db)
    n = whole(number, "N", 1, 10**9)
    assert n is not None
    picked = _evening(conn, session)
    if picked is None:
        _console().print(_("Nothing corrected."))
        return
    evening = picked.session
    deals_app.correctable(evening)  # before anything is asked: a reason typed is never thrown away
    _titled(picked)
    asking = guided.interactive()
    if reason is None and not asking:
        reason_text(reason)
    old = deals_app.entered_deal(conn, evening, n)
    then = evening.at(n)  # the table as it was at deal N: its players are named as they sat
    given = entry.typed_answers(then, typed)
    answers = entry.edited(then, old, given)
    d = None
    if given or not asking:
        try:
            d = entry.complete(then, answers, [f for f in given if f != "contract"])
        except LedgerError as e:  # at a terminal, what is missing or wrong is asked; the rest stays
            if not asking or e.field is None:
                raise
    out = _console()

    def shown(d: Deal) -> object:
        return correction_view(deals_app.correction(conn, evening, n, d))

    confirmed = asking and not yes
    if asking and (d is None or d == old):
        d = guided.deal(then, answers, shown, unchanged=old, question=_("Record this correction?"),
                        typed=[f for f in given if f != "contract"])
        confirmed = d is not None
    elif confirmed:
        assert d is not None
        out.print(shown(d))
        confirmed = guided.confirm(_("Record this correction?"))
        d = d if confirmed else None
    if d is None:
        out.print(_("Nothing corrected."))
        return
    if reason is None:
        reason = str(guided.ask(_("Why is deal {number} corrected?", number=n), reason_text))
    done = deals_app.correct(conn, n, d, reason_text(reason), evening.id)
    if confirmed:
        out.print(_("Deal {number} corrected; the old entry stays on record.", number=n))
        return
    out.print(_("Deal {number} corrected: {was} → {now}; the old entry stays on record.", number=n,
                was=describe(evening, done.was, dealer=done.dealer, number=n),
                now=describe(evening, d, dealer=done.dealer, number=n)))
    out.print(change_table(evening, done.before, done.after, done.basket))


def status(db: str | None = None, as_json: bool = False, session: str | None = None) -> None:
    """Balances, basket, deals so far, the tour and who deals next (`status --help`)."""
    chosen = options.session_id(session)
    conn = connect(db)
    found = sessions_app.status(conn, chosen)
    if as_json:
        from ..ui import data

        _json(data.status(found))
        return
    from ..ui.deals import standing_view, status_lines

    _beside(conn, chosen, found.session)
    out = _console()
    for line in status_lines(found.session, found.state):
        out.print(line)
    out.print(standing_view(found.session, found.standing,
                            found.state.basket if found.session.tariff.has_basket else None, found.money))
    from ..ui.seats import table_lines

    for line in table_lines(found):
        out.print(line)


def history(corrections: bool = False, last: str = "40", show_all: bool = False, db: str | None = None,
            as_json: bool = False, session: str | None = None) -> None:
    """The session's deals with their results."""
    from ..ui import data
    from ..ui.deals import correction_legend, corrections_table, history_view

    chosen = options.session_id(session)
    conn = connect(db)
    if corrections:
        evening, audit = deals_app.corrections(conn, chosen)
        if as_json:
            _json(data.corrections(evening, audit))
        elif not audit:
            _console().print(_("Session {id} has no corrected deal.", id=evening.id))
        else:
            _console().print(corrections_table(evening, audit))
        return
    count = whole(last, "--last", 1, 10**9)
    found = deals_app.history(conn, None if show_all else count, chosen)
    if as_json:
        _json(data.history(found))
        return
    _beside(conn, chosen, found.session)
    out = _console()
    rows = found.rows
    if not rows:
        out.print(_("Session {id} has no deals yet.", id=found.session.id))
        return
    out.print(history_view(found.session, rows, found.corrected, found.extensions))
    legend = correction_legend(found.corrected, (w.recorded.number for w in rows))
    for line in legend:
        out.print(line)
    if legend:
        out.print(_("`{prog} history --corrections` shows each corrected deal as it was before.", prog=PROG))
    if len(rows) < found.total:
        out.print(_("deals {first}–{last} of {total}; `{prog} history --all` shows every deal",
                    first=rows[0].recorded.number, last=rows[-1].recorded.number, total=found.total, prog=PROG))
    if found.undone:
        out.print(ngettext("{n} deal taken back with undo (kept on record).",
                            "{n} deals taken back with undo (kept on record).", found.undone))


def seat(out: str, into: str, own: bool = False, db: str | None = None, session: str | None = None) -> None:
    """Change the table from the next deal (`seat --help`)."""
    from ..app import seats
    from ..ui.seats import reseated_lines

    conn = connect(db)
    picked = _evening(conn, session)
    if picked is None:
        _console().print(_("Nothing changed."))
        return
    _titled(picked)
    done = seats.change(conn, out, into, own, picked.session.id)
    console = _console()
    for line in reseated_lines(done):
        console.print(line)


def undo(db: str | None = None, session: str | None = None) -> None:
    """Take back the last deal, or the change of the table after it (it stays on record as
    undone); who deals next, as after a deal."""
    from ..ui.deals import balances_table, describe, next_lines
    from ..ui.deals import change_words

    conn = connect(db)
    picked = _evening(conn, session)
    if picked is None:
        _console().print(_("Nothing taken back."))
        return
    done = deals_app.undo(conn, picked.session.id)
    _titled(picked)
    out = _console()
    if done.last is None:
        assert done.seating is not None
        out.print(_("{change}: taken back; it stays on record as undone.", change=change_words(done.session,
                                                                                             done.seating)))
    else:
        out.print(_("Deal {number} ({deal}) taken back; it stays on record as undone.", number=done.last.number,
                    deal=describe(done.session, done.last.deal, number=done.last.number)))
    if done.points is not None:  # on points: what each has written, and no basket
        out.print(balances_table(done.session, done.points, None))
    else:
        out.print(balances_table(done.session, done.after.balances, done.after.basket))
    for line in next_lines(done.session, done.after):
        out.print(line)


def settle(db: str | None = None, as_json: bool = False, yes: bool = False, session: str | None = None) -> None:
    """End the session: share the basket, turn chips into money, list who pays whom. At a
    terminal the settlement is shown first and recorded when confirmed (`--yes`: at once)."""
    from ..ui import guided
    from ..ui.settlement import earlier_line, settlement_lines

    conn = connect(db)
    picked = _evening(conn, session)
    if picked is None:
        _console().print(_("Nothing recorded."))
        return
    chosen: int = picked.session.id
    shown = None
    if not yes and not as_json and guided.interactive():
        pending, result, paid = sessions_app.settlement(conn, chosen, empty=True)
        if not pending.settled:
            out = _console()
            if result.deals:
                for line in settlement_lines(pending, result, paid):
                    out.print(line)
            else:
                out.print(_("Session {id} has no deals: settling it closes it, with nothing to pay.", id=pending.id))
            if not guided.confirm(_("Record this settlement? The session then takes no more deals.")):
                out.print(_("Nothing recorded."))
                return
            chosen, shown = pending.id, result.deals
    found = sessions_app.settle(conn, chosen, shown)
    if as_json:
        from ..ui import data

        _json(data.settlement(found.settled, found.paid))
        return
    out = _console()
    if not found.fresh:
        out.print(_("Session {id} was already settled; here is its settlement (`{prog} reopen` opens it again "
                    "to correct it).", id=found.session.id, prog=PROG))
    elif not found.settled.deals:
        out.print(_("Session {id} had no deals: it is closed, with nothing to pay.", id=found.session.id))
        return
    else:
        out.print(_("Session {id} is settled.", id=found.session.id))
        if shown is not None:  # the settlement was shown before it was confirmed
            return
    for line in settlement_lines(found.session, found.settled, found.paid):
        out.print(line)
    for when, earlier in found.earlier:  # a reopened session: what it was settled at before, on record
        out.print(earlier_line(when, earlier), style="dim")


def extend(deals: str, db: str | None = None, session: str | None = None) -> None:
    """Agree N more deals for the evening: its agreed number grows by N."""
    from ..app.evenings import MOST_DEALS
    from ..app.evenings import extend as extended
    from ..ui.deals import agreed_left, extension_words, next_lines

    more = whole(deals, "N", 1, MOST_DEALS)
    assert more is not None
    conn = connect(db)
    picked = _evening(conn, session)
    if picked is None:
        _console().print(_("Nothing recorded."))
        return
    done = extended(conn, more, picked.session.id)
    _titled(picked)
    out = _console()
    assert done.session.agreed_deals is not None
    out.print(extension_words(more, done.state.deals, done.session.agreed_deals) + ".")
    for line in [agreed_left(done.session, done.state), *next_lines(done.session, done.state)]:
        out.print(line)


def check(all_sessions: bool = False, db: str | None = None, as_json: bool = False,
          session: str | None = None) -> int:
    """Check the ledger's invariants: nothing printed and exit 0 when all hold, else each problem
    and exit 1."""
    from ..app import check as checks

    from ..app.opening import Untrusted

    chosen = options.session_id(session)
    try:
        conn = connect(db)
    except Untrusted as e:  # what is foreign in its schema, at length: nothing else is read
        if as_json:
            _json([{"problem": found.words, "sql": found.text} for found in e.found])
        else:
            _say(_("{path} is not opened: it is not exactly a ledger that boston-ledger made.", path=e.path))
            for found in e.found:
                _say(found.words + ("" if found.text is None else ":"))
                if found.text is not None:
                    _say("    " + " ".join(found.text.split()))
            _say(_("`boston-ledger import --salvage {path} --db NEW.db` reads its rows by plain SELECTs alone, "
                   "replays every evening and writes it into the clean ledger NEW.db.", path=e.path))
        return 1
    damaged = checks.damaged(conn)
    picked = None if all_sessions or chosen is None else [deals_app.current(conn, chosen, sound=False).id]
    problems = checks.check(conn, picked, every=all_sessions)
    if as_json:
        from ..ui import data

        _json(data.damage(damaged) + data.problems(problems))
    else:
        for row in damaged:
            _say(row)
        for problem in problems:
            _say(problem)
    return 1 if problems or damaged else 0


def reopen(db: str | None = None, session: str | None = None) -> None:
    """Open the settled session again to correct it."""
    conn = connect(db)
    picked = _evening(conn, session)
    if picked is None:
        _console().print(_("Nothing reopened."))
        return
    evening = sessions_app.reopen(conn, picked.session.id)
    _console().print(_("Session {id} reopened; its earlier settlement stays on record. "
                       "Correct it with `{prog} edit N ...`, then settle it again.", id=evening.id, prog=PROG))


def sessions(last: str | None = None, show_all: bool = False, db: str | None = None, as_json: bool = False) -> None:
    """The sessions in the ledger: the latest 40 (`--last N`), or every one (`--all`, and `--json`
    unless `--last` is given)."""
    count = whole(last, "--last", 1, 10**9)
    conn = connect(db)
    rows = sessions_app.listing(conn, None if show_all or (as_json and count is None) else count or 40)
    if as_json:
        from ..ui import data

        _json(data.sessions(rows))
        return
    from ..ui.tables import sessions_table

    out = _console()
    out.print(sessions_table(rows))
    total = sessions_app.count(conn)
    if len(rows) < total:
        out.print(_("sessions {first}–{last} of {total}; `{prog} sessions --all` shows every one",
                    first=rows[0].session.id, last=rows[-1].session.id, total=total, prog=PROG))


def use(session_id: str, db: str | None = None) -> None:
    """Make another session current."""
    conn = connect(db)
    n = whole(session_id, "ID", 1, 10**9)
    assert n is not None
    session = sessions_app.use(conn, n)
    _console().print(_("Session {id} is current: {names}.", id=session.id, names=", ".join(session.players)))
    from ..app.evenings import open_evenings

    others = open_evenings(conn, besides=session.id)
    if others:  # the current session alone does not decide a write while another evening is open
        _console().print(_("Other evenings are open ({ids}): a command that writes still asks which evening it is "
                           "for; `export {var}={id}` in this table's terminal keeps it to session {id}.",
                           ids=", ".join(str(e.id) for e in others), var=SESSION_ENV, id=session.id))
    _still_chosen(options.session_id(None), session.id)


# ---- across evenings ---------------------------------------------------------------------------


def stats(player: str | None = None, since: str | None = None, db: str | None = None,
          as_json: bool = False) -> None:
    """Statistics across sessions."""
    from ..app import stats as statistics
    from ..app.inputs import since_date

    conn = connect(db)
    found = statistics.collect(conn, player, since_date(since))
    if as_json:
        from ..ui import data

        _json(data.stats(found))
        return
    from ..ui.tables import stats_tables

    out = _console()
    for item in stats_tables(found):
        out.print(item)


def chart(svg: Path | None = None, db: str | None = None, as_json: bool = False, session: str | None = None) -> None:
    """Each player's running balance over the deals of the session."""
    from ..ui import chart as pictures
    from ..ui.deals import session_title

    chosen = options.session_id(session)
    conn = connect(db)
    evening, series = deals_app.chart(conn, chosen)
    if as_json:
        _json(dict(zip(evening.players, series, strict=True)))
        return
    _beside(conn, chosen, evening)
    if svg is None:
        out = _console()
        for line in pictures.terminal(evening.players, series, width=out.width):
            out.print(line)
        return
    picture = pictures.svg(f"{session_title(evening)}: {evening.tariff.name}", evening.players, series)
    _write(Path(svg), picture)


def _write(path: Path, text: str) -> None:
    """A file for people written whole (app.files.write_atomically), and said so; `-` is
    standard output."""
    from ..app.files import write_atomically

    if str(path) == "-":
        _say(text.rstrip("\n"))
        return
    def whole_text(f: TextIO) -> None:
        f.write(text)

    try:
        write_atomically(path, whole_text)
    except OSError as e:
        raise LedgerError(_("cannot write {path}: {error}", path=path, error=strerror(e))) from None
    _console().print(_("wrote {path}", path=path))


def ledger(db: str | None = None, as_json: bool = False) -> None:
    """What each person owes or is owed over all settled sessions, less payments."""
    from ..app.money import books

    found = books(connect(db))
    if as_json:
        from ..ui import data

        _json(data.books(found))
        return
    from ..ui.tables import book_lines

    out = _console()
    for line in book_lines(found):
        out.print(line)


def paid(payer: str | None = None, payee: str | None = None, amount: str | None = None,
         currency: str | None = None, cancel: str | None = None, yes: bool = False, db: str | None = None) -> None:
    """Record money paid from one person to another, or cancel a payment recorded. A payment of
    more than is owed, or the same one again within the hour, is recorded once a person at a
    terminal says so, or with `yes`."""
    from ..app.money import Doubt, pay
    from ..app.money import cancel as cancelled
    from ..ui.text import amount as shown

    if cancel is not None:
        if payer is not None or currency is not None:
            raise LedgerError(_("`paid --cancel ID` takes no FROM TO AMOUNT nor --currency: it cancels payment ID "
                                "as it was recorded"))
        n = whole(cancel, "--cancel", 1, 10**9)
        assert n is not None
        taken_back = cancelled(connect(db), n)
        _console().print(_("Payment {id} cancelled: {payer} paid {payee} {amount} no longer counts in the ledger; "
                           "it stays on record.", id=taken_back.id, payer=taken_back.payer, payee=taken_back.payee,
                           amount=shown(taken_back.cents, taken_back.currency)))
        return
    if payer is None or payee is None or amount is None:
        raise LedgerError(_("paid needs FROM TO AMOUNT, e.g. `{prog} paid Vera Anna 4.00`; "
                            "`{prog} paid --cancel ID` cancels a payment", prog=PROG))
    conn = connect(db)
    try:
        done = pay(conn, payer, payee, amount, currency, sure=yes)
    except Doubt as doubt:
        from ..ui import guided
        from ..ui.tables import doubt_line

        said = doubt_line(doubt)
        if not guided.interactive():
            raise LedgerError(_("{doubt}; nothing was recorded: give --yes to record it all the same", doubt=said)) \
                from None
        _console().print(said[:1].upper() + said[1:] + ".")
        if not guided.confirm(_("Record this payment?"), default=False):
            _console().print(_("Nothing recorded."))
            return
        done = pay(conn, payer, payee, amount, currency, sure=True)
    _console().print(_("Recorded payment {id}: {payer} paid {payee} {amount}.", id=done.id, payer=done.payer,
                       payee=done.payee, amount=shown(done.cents, done.currency)))


def payments(db: str | None = None, as_json: bool = False) -> None:
    """The payments recorded with `paid`, cancelled ones too."""
    from ..app.money import payments as recorded

    found = recorded(connect(db))
    if as_json:
        from ..ui import data

        _json(data.payments(found))
        return
    from ..ui.tables import payments_table

    _console().print(payments_table(found))



def import_ledger(other: str | None = None, same: list[str] | None = None, dry_run: bool = False,
                  undo: str | None = None, show_list: bool = False, db: str | None = None,
                  salvage: bool = False, as_json: bool = False, undo_same: str | None = None) -> int:
    """Bring another ledger's evenings and payments into this one (`dry_run`: say what would come;
    `salvage`: a ledger written by hand, read by plain SELECTs and replayed); or take an import back
    (`undo`), or one spelling it joined (`undo_same`), or list the imports (`as_json`: as JSON). Exit 1
    when something was left out."""
    from ..app import imports
    from ..ui import data

    if undo_same is not None:
        if other is not None or same or dry_run or salvage or undo is not None or show_list:
            raise LedgerError(_("`import --undo-same THERE=HERE` takes nothing else"))
        respelt = imports.undo_same(connect(db), undo_same)
        if as_json:
            _json({"undone": data.imports([respelt.undone])[0], "again": data.imported(respelt.again, False)})
            return 0
        _say(ngettext("Import {id} undone, and its {n} evening brought again as import {again}: {spelling} no "
                      "longer joins.",
                      "Import {id} undone, and its {n} evenings brought again as import {again}: {spelling} no "
                      "longer joins.", len(respelt.again.sessions), id=respelt.undone.id,
                      again=respelt.again.import_id, spelling=undo_same.strip()))
        return 0
    if undo is not None or show_list:
        if other is not None or same or dry_run or salvage or (undo is not None and show_list):
            raise LedgerError(_("`import --undo ID` and `import --list` take nothing else"))
        conn = connect(db)
        if show_list:
            if as_json:
                _json(data.imports(imports.listing(conn)))
                return 0
            from ..ui.tables import imports_table

            _console().print(imports_table(imports.listing(conn)))
            return 0
        n = whole(undo, "--undo", 1, 10**9)
        assert n is not None
        brought = imports.undo(conn, n)
        if as_json:
            _json(data.imports([brought])[0])
            return 0
        _console().print(ngettext(
            "Import {id} undone: its {n} evening and its payments stay on record, and no longer count.",
            "Import {id} undone: its {n} evenings and its payments stay on record, and no longer count.",
            len(brought.sessions), id=brought.id))
        return 0
    if other is None:
        raise LedgerError(_("import needs the ledger to bring in: `{prog} import OTHER.db`", prog=PROG))
    from ..ui.imports import lines

    said: list[str] = []
    if salvage:
        def target() -> sqlite3.Connection:
            if not dry_run:  # a clean ledger to copy into: made when there is none yet
                opening.create(db, lambda conn: True, waiting, slow)
            return connect(db)

        done, said = imports.salvage(target, Path(other).expanduser(), same or (), dry_run)
    else:
        done = imports.bring(connect(db), Path(other).expanduser(), same or (), dry_run)
    if as_json:
        _json(data.imported(done, dry_run, said))
        return 1 if done.plan.left_out or said else 0
    for line in lines(done, dry_run):
        _say(line)
    for line in said:
        _say(_("Left out in salvage: {what}", what=line))
    return 1 if done.plan.left_out or said else 0


def rescore(session_id: str, tariff: str | None = None, condition: list[str] | None = None,
            db: str | None = None, as_json: bool = False) -> None:
    """Replay a recorded session under another tariff or conditions; nothing is changed."""
    from ..app.rescore import rescore as replayed
    from ..app.tariffs import load

    conn = connect(db)
    n = whole(session_id, "ID", 1, 10**9)
    assert n is not None
    if tariff is None:  # its own tariff, with the conditions given turned on
        found = replayed(conn, n, None, condition or ())
    else:
        found = replayed(conn, n, load(tariff, condition or ()))
    if as_json:
        from ..ui import data

        _json(data.rescored(found))
        return
    from ..ui.tables import rescore_table

    _console().print(rescore_table(found))


def export(directory: Path, db: str | None = None, session: str | None = None) -> None:
    """Write the session as CSV files for a spreadsheet."""
    from ..app import export as exporter

    chosen = options.session_id(session)
    conn = connect(db)
    evening = deals_app.current(conn, chosen)
    written = exporter.write(conn, evening, Path(directory))
    _beside(conn, chosen, evening)
    out = _console()
    for path in written:
        out.print(_("wrote {path}", path=path))


def sheet(html: Path | None = None, db: str | None = None, session: str | None = None) -> None:
    """The evening as its score sheet: plain text to paste into a messenger, or an HTML page."""
    from ..ui import sheet as sheets

    chosen = options.session_id(session)
    conn = connect(db)
    found = sessions_app.sheet(conn, chosen)
    _beside(conn, chosen, found.status.session)
    if html is None:
        _say(sheets.text(found).rstrip("\n"))
        return
    from .. import __version__

    _write(Path(html), sheets.page(found, f"boston-ledger {__version__}"))


def demo(db: str | None = None) -> None:
    """Play a scripted classic evening deal by deal into the ledger, then settle it."""
    from ..app import demo as script
    from ..ui.deals import banners, deal_table, result_word, where
    from ..ui.settlement import settlement_lines
    from ..ui.term import Text
    from ..ui.text import amount, basket_word

    session, before = opening.create(db, script.start, waiting)
    conn = connect(db)
    out = _console()
    players = [_(name) for name in script.PLAYERS]
    out.print(Text(_("A classic Boston evening: {names} ({first} deals first), tariff {tariff}, one chip = {value}.",
                     names=", ".join(players), first=players[0], tariff="classic",
                     value=amount(session.chip_value, session.currency)), style="bold"))
    out.print(_("Each line is what one player would type; notable deals show what moved and why.") + "\n")
    for entered, note in script.play(conn, session):
        command = script.command_line(session.players, entered.deal, session.tariff)
        for banner in banners(session.tariff, entered.position, entered.after, entered.outcome.redealt):
            out.print(banner, style="bold yellow")
        if note:
            out.print()
            out.print(Text(_(note), style="bold"))
            out.print(f"$ {command}", soft_wrap=True)
            out.print(deal_table(entered))
        else:
            # a name and its balance are never broken apart: a no-break space (ui/term.py)
            balances = "  ".join(f"{n}\u00a0{b}" for n, b in zip(session.players, entered.after.balances, strict=True))
            out.print(f"$ {command}", soft_wrap=True)
            result = result_word(entered.outcome, session.tariff, entered.deal.contract)
            place = where(entered.position, session.tariff.tours)
            out.print("    " + _("deal {number}", number=entered.number) + f", {place}: "
                      f"{result} · {balances} · {basket_word()}\u00a0{entered.after.basket}")
    found = script.finish(conn, session, before)
    out.print("\n$ boston-ledger settle")
    for line in settlement_lines(found.session, found.settled):
        out.print(line)
    out.print("\n" + _("The demo evening is session {id} of your ledger ({path}), kept to be looked at: "
                       "`{prog} history --session {id}`, `{prog} sheet --session {id}`, on the phones `{prog} serve "
                       "--session {id}`. The money and the statistics across evenings (`ledger`, `stats`) leave it "
                       "out.", id=session.id, path=opening.path(db), prog=PROG))
    out.print(_("Your own evening: `{prog} new Anna Boris Vera Gleb --chip-value 0.10`.", prog=PROG) if before is None
              else _("Session {id}, which was current, is current again.", id=before))


# ---- tariffs -----------------------------------------------------------------------------------


def tariffs_list(as_json: bool = False) -> None:
    """Every shipped tariff, one line each."""
    from ..app.tariffs import shipped_tariffs

    found = shipped_tariffs()
    if as_json:
        from ..ui import data

        _json(data.tariffs(found))
        return
    from ..ui.tables import tariffs_table

    _console().print(tariffs_table(found))


def tariffs_show(name: str, condition: list[str] | None = None, as_json: bool = False) -> None:
    """The tariff's tables laid out like the seed's, and the conditions it supports."""
    from ..app.tariffs import load
    from ..ui.tariff import tariff_data, tariff_tables

    t = load(name, condition or ())
    if as_json:
        _json(tariff_data(t))
        return
    speak_words(t.words)  # its tables in its game's words
    out = _console()
    for item in tariff_tables(t, out.width):
        out.print(item)


def tariffs_check(path: str) -> int:
    """Validate a tariff file: every problem with its location, exit 2 when there is any."""
    from ..app.tariffs import check as checked
    from ..app.tariffs import ladder_exceptions, ladder_warnings

    tariff, problems = checked(path)
    if problems:
        for problem in problems:
            _say(_("{prog}: error: {message}", prog=PROG, message=" ".join(problem.split())), err=True)
        return 2
    assert tariff is not None
    _say(_("ok: {path} is a valid tariff: {name}, {contracts} contracts, {conditions} conditions", path=path,
            name=tariff.name, contracts=len(tariff.contracts), conditions=len(tariff.conditions)))
    for warning in ladder_warnings(tariff):  # a tariff that plays, but may not be what its author meant
        _say(_("{prog}: warning: {message}", prog=PROG, message=warning), err=True)
    for exception in ladder_exceptions(tariff):  # as its source prints them, and says so
        _say(_("as the source has it: {message}", message=exception))
    return 0


def tariffs_new(name: str, source: str = "classic", force: bool = False) -> None:
    """Write a starting copy of a tariff for you to edit."""
    from ..app.tariffs import new as write_copy

    path = write_copy(name, source, force)
    _say(_("wrote {path}: edit it, check it with `{prog} tariffs check {path}`, use it with "
            "`{prog} new ... --tariff {path}`", path=path, prog=PROG))


# ---- on the players' phones --------------------------------------------------------------------


def serve(session: str | None = None, port: str = "8765", lan: bool = False, token_file: Path | None = None,
          entry: bool = False, db: str | None = None, host: str | None = None) -> int:
    """Serve the session's sheet, read-only, to the phones at the table until Ctrl-C; with
    `entry`, also a page that enters deals, behind a second link."""
    from ..serve import missing_extra

    if missing_extra():
        raise LedgerError(_("serve needs its extra: pip install 'boston-ledger[serve]'"))
    from ..core.i18n import language
    from ..serve.server import Served, listen_address
    from ..serve.tokens import kept_token, new_token

    session_id = whole(session, "--session", 1, 10**9)
    if entry:  # it writes: to the evening the command line names, else one that is not in doubt
        picked = _evening(connect(db), session)
        if picked is None:
            _say(_("Nothing started."))
            return 0
        session_id = picked.session.id
    number = whole(port, "--port", 0, 65535)
    assert number is not None
    host = listen_address(host, lan)
    token = kept_token(Path(token_file).expanduser()) if token_file else new_token()
    entry_token = new_token() if entry else None
    try:
        served = Served(opening.path(db), session_id, host, number, token, language(), entry_token=entry_token)
    except OSError as e:
        raise LedgerError(_("cannot listen on {host}:{port}: {error}; choose another port with --port N",
                            host=host, port=number, error=strerror(e))) from None
    try:
        if served.networked:
            _say(_("Anyone on this network who has the link can read the evening."), err=True)
            if entry:
                _say(_("Anyone on this network who has the entry link can enter deals and take them back."), err=True)
        print(_("Session {id} on the phones: {url}", id=served.evening.session_id, url=served.url), flush=True)
        if served.entry_url:
            print(_("Entering deals from a phone, for the score-keeper only (a second link, its own key): {url}",
                    url=served.entry_url), flush=True)
        if not served.networked:  # no phone can reach it: no code to scan
            print(_("This machine only: for the phones at the table, start it with --lan."), flush=True)
        elif served.scannable:
            links = [(_("the sheet"), served.url)]
            if served.entry_url:
                links.append((_("entering deals"), served.entry_url))
            from ..ui.qr import codes

            sys.stdout.write(codes(links))
        print(_("Ctrl-C stops it.") if served.entry_url else _("Read-only; Ctrl-C stops it."), flush=True)
        served.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        served.close()
    print(_("Stopped."), flush=True)
    return 0
