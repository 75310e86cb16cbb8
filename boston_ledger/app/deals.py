"""The deals of an evening: enter one, preview it, take the last back, correct an earlier one,
and read them back with where each fell and what it left.

Each write is one transaction that reads, checks and writes; the engine computes, the store
keeps. Nothing here prints.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple

from ..core import engine, invariants
from ..core.engine import Deal, Outcome, Position, State
from ..core.errors import MEND, LedgerError
from ..core.fields import FIELDS, Field
from ..core.i18n import _, contract_name, contract_names, ngettext, rank_name, tariff_name
from ..core.tariff import PASS, Tariff, ambiguous, did_you_mean, suggestion
from ..store import read, write
from ..store.db import MAX_CHIPS, writing
from ..store.records import Correction, Extension, Recorded, Seating
from ..store.records import Session as Session  # re-exported: the command line names a session through app/
from .evenings import current as current  # re-exported: the session a command works on (app.evenings)
from .inputs import nobody, seat_of, whole




def typed_deal(session: Session, contract: str, **typed: str | bool | None) -> Deal:
    """The deal a user typed (the contract, and each other field of core.fields by its name: its
    text, a flag as a bool), with names and words resolved against the session and its tariff,
    checked by the engine. Each error names the field that is wrong (LedgerError.field).

    `team_tricks`, with a partner, is the pair's tricks together: with one member's own tricks
    given too, the other's follow and are kept as well (`engine.filled`)."""
    values: dict[str, Any] = {  # by field, of the type its kind gives it (typed_value)
        f.name: typed_value(session, f, text) for f in FIELDS
        for text in [contract if f.name == "contract" else typed.get(f.name)] if text not in (None, False)}
    deal = Deal(**values)
    engine.validate(session.tariff, deal)
    return engine.filled(deal)


def typed_value(session: Session, field: Field, text: str | bool) -> object:
    """A field's value as a user typed it (`text`; a flag's is True); an error names the field."""
    t = session.tariff
    try:
        if field.kind == "contract":
            return contract_of(t, str(text))
        if field.kind == "rank":
            return rank_of(t, str(text))
        if field.kind == "player":
            if field.nobody and nobody(str(text), session.players):
                return None  # "--partner none": nobody
            return seat_of(session, str(text), None)
        if field.kind == "tricks":
            return whole(str(text), None, 0, field.most if field.most is not None else t.tricks)
        if field.kind == "tricks-each":
            return each_tricks(str(text), t.tricks)
        return text is True  # a flag
    except LedgerError as e:
        raise LedgerError(str(e), field.name, e.suggestion, None if field.kind == "contract" else MEND) from None


def contract_of(tariff: Tariff, word: str) -> str:
    """The contract (or pass) a user's word names: any unique beginning of one of its names;
    else an error naming the candidates, or the contract a typo looks like."""
    found = tariff.find_contract(word)
    if found.key is not None:
        return found.key
    refused = None if found.candidates else tariff.refusal(word)  # a beginning of its names is theirs
    if refused:
        raise LedgerError(refused, "contract")
    message = ambiguous(found, word, lambda key: _("pass") if key == PASS else contract_name(tariff, key)) or (
        _("the {tariff} tariff has no contract {contract!r}{hint}", tariff=tariff_name(tariff), contract=word,
          hint=did_you_mean(found)) if found.close else
        _("the {tariff} tariff has no contract {contract!r}; use one of {choices} or pass", tariff=tariff_name(tariff),
          contract=word, choices=", ".join((contract_names(tariff), _("misdeal")))))
    raise LedgerError(message, "contract", suggestion(found))


def rank_of(tariff: Tariff, word: str, among: Sequence[str] | None = None) -> str:
    """The suit rank a user's word names (only those `among`, when given), as contract_of()."""
    found = tariff.find_rank(word, among)
    if found.key is not None:
        return found.key
    refused = None if found.candidates else tariff.refusal(word)
    if refused:
        raise LedgerError(refused, "rank", None, MEND)
    if not tariff.ranks:
        raise LedgerError(_("{rank!r}: ranks change no payment in this game; drop --rank", rank=word), "rank")
    choices = ", ".join(rank_name(tariff, r) for r in (tariff.ranks if among is None else among))
    message = ambiguous(found, word, lambda key: rank_name(tariff, key)) or (
        _("no rank {rank!r} here; choose one of {choices}", rank=word, choices=choices) + did_you_mean(found))
    raise LedgerError(message, "rank", suggestion(found), MEND)


def each_tricks(text: str | None, tricks: int) -> tuple[int, ...] | None:
    """Every player's tricks in seat order, `3,4,2,4` (the engine checks that they are the
    table's and add up to the deal's)."""
    if text is None:
        return None
    words = [w for w in re.split(r"[,;\s]+", text.strip()) if w]
    if not words:
        raise LedgerError(_("every player's tricks are needed in seat order, such as 3,4,2,4"))
    return tuple(whole(w, None, 0, tricks) or 0 for w in words)


def open_for_deals(session: Session, state: State | None = None) -> None:
    if session.settled:
        raise LedgerError(_("session {id} is settled and takes no more deals; start another with `boston-ledger new`, "
                            "or `boston-ledger reopen` it to correct it", id=session.id))
    if state is not None and session.agreed_deals is not None and engine.over(session.tariff, state,
                                                                              session.agreed_deals):
        raise LedgerError(ngettext("the {n} agreed deal of session {id} is played; settle it with "
                                   "`boston-ledger settle`",
                                   "the {n} agreed deals of session {id} are played; settle it with "
                                   "`boston-ledger settle`", session.agreed_deals, id=session.id))


def playable(conn: sqlite3.Connection, session_id: int | None = None) -> Session:
    """The session a deal would go into (default: the one this command line plays), when it
    takes one more: not settled, its agreed deals not all played."""
    session = current(conn, session_id)
    open_for_deals(session, read.state(conn, session))
    return session


class Entered(NamedTuple):
    """A deal scored (and recorded, or only previewed): where it fell and what it moved."""

    session: Session
    number: int
    position: Position
    deal: Deal
    outcome: Outcome
    before: State
    after: State
    points: tuple[int, ...] | None = None  # on points, what each player has written after it; None on chips


def preview(conn: sqlite3.Connection, session: Session, deal: Deal) -> Entered:
    """What the deal would move if it were recorded now; nothing is written."""
    return _entered(session, _step(conn, session, read.state(conn, session), deal))


def enter(conn: sqlite3.Connection, deal: Deal, session_id: int | None = None,
          number: int | None = None) -> Entered:
    """Score a deal and record it, all in one transaction.

    `session_id` is the session whose players the deal's seats refer to (default: the current
    one), so a `new` in another terminal meanwhile cannot shift the deal into another session.
    `number`, when given, is the deal's number as it was shown before it was confirmed: when
    another deal came in meanwhile (from a terminal, or the same form sent twice), nothing is
    recorded, since the deal falls elsewhere than was shown.
    """
    with writing(conn):
        session = current(conn, session_id)
        before = read.state(conn, session)
        open_for_deals(session, before)
        if number is not None and number != before.deals + 1:
            raise LedgerError(_("deal {number} was entered meanwhile; nothing was recorded: look at this deal "
                                "again, as deal {next}", number=before.deals, next=before.deals + 1))
        step = _step(conn, session, before, deal)
        _within_limits(step.after)
        deal_id = write.record_deal(conn, session, step.number, deal, step.outcome, step.after)
        _verify(conn, session, expected=step.after, before=before, deal_id=deal_id)
    return _entered(session, step)


def _step(conn: sqlite3.Connection, session: Session, before: State, deal: Deal) -> engine.Step:
    """The deal played after the session's deals so far (`before`; on points, after what each
    player has written)."""
    written = None if session.tariff.has_basket else points_standing(conn, session)
    return next(engine.replaying(session.tariff, [deal], before, written))


def _entered(session: Session, step: engine.Step) -> Entered:
    return Entered(session, step.number, step.position, step.deal, step.outcome, step.before, step.after,
                   None if session.tariff.has_basket else step.scores)


def _within_limits(state: State) -> None:
    if max([abs(state.basket), *map(abs, state.balances)]) > MAX_CHIPS:
        raise LedgerError(_("this would take the basket or a balance beyond what the ledger can hold; settle the "
                            "session and start a new one"))


def _verify(conn: sqlite3.Connection, session: Session, expected: State | None = None,
            before: State | None = None, deal_id: int | None = None) -> State:
    """The invariants that concern a write, checked inside its transaction before it commits:
    the stored balances sum to zero, are what the engine computed, and are the balances before
    plus the transfers stored for the deal. (`boston-ledger check` replays whole sessions.)"""
    stored = read.state(conn, session)
    problems = [str(p) for p in invariants.zero_sum(session.id, stored)]
    if expected is not None and stored != expected:
        problems.append(_("stored state {stored} differs from the engine's {expected}", stored=stored,
                          expected=expected))
    if before is not None and deal_id is not None:
        moved = Outcome(read.transfers_of(conn, session, deal_id), None, stored.stake_due,
                        redealt=stored.redeals != before.redeals, belle=stored.belle,
                        overtime=stored.overtime != before.overtime)
        if engine.advance(before, moved) != stored:
            problems.append("the stored transfers of the deal do not add up to the stored balances")
    if problems:
        raise LedgerError(_("internal error, nothing recorded: {problem}", problem=problems[0]))
    return stored


class Undone(NamedTuple):
    session: Session
    last: Recorded | None  # the deal taken back, or None when it was a change of the table
    after: State
    points: tuple[int, ...] | None  # on points, what each player has written after it
    seating: Seating | None = None  # the change of the table taken back (the session is as before it)


def undo(conn: sqlite3.Connection, session_id: int | None = None, number: int | None = None) -> Undone:
    """Take back the last standing deal, or the change of the table made after it; it stays on
    record as undone. `number`, when given, is the number of the deal asked to be taken back: when
    the last deal is another one by then, nothing is taken back."""
    with writing(conn):
        session = current(conn, session_id)
        if session.settled:
            raise LedgerError(_("session {id} is settled; its deals can no longer be taken back "
                                "(`boston-ledger reopen` opens it again to correct it)", id=session.id))
        seating = session.pending(read.state(conn, session).deals)
        if seating is not None and number is not None:
            raise LedgerError(_("the table was changed after deal {number}; nothing was taken back: `boston-ledger "
                                "undo` takes back that change first", number=number))
        if seating is not None:
            write.record_seating_undo(conn, seating.id)
            after_change = current(conn, session.id)
            after = _verify(conn, after_change)
            return Undone(after_change, None, after, None if session.tariff.has_basket else
                          points_standing(conn, after_change), seating)
        last = read.last_deal(conn, session)
        if last is None:
            raise LedgerError(_("there is no deal to take back in this session"))
        if number is not None and number != last.number:
            raise LedgerError(_("the last deal is deal {last} now, not {number}; nothing was taken back",
                                last=last.number, number=number))
        write.record_undo(conn, last.id)
        after = _verify(conn, session)
    return Undone(session, last, after, None if session.tariff.has_basket else points_standing(conn, session))


class Walked(NamedTuple):
    """A recorded deal with where it fell and the state after it."""

    recorded: Recorded
    position: Position
    outcome: Outcome
    after: State
    standing: tuple[int, ...]  # what each player stands at: the balance, or on points the score


def walk(session: Session, recorded: Iterable[Recorded], before: State | None = None) -> Iterator[Walked]:
    """The recorded deals in order with their positions and the state after each (`before`: where
    the session stood before the first of them, `read.before`; the session's start when None).

    On chips the balances kept with each deal are read as they are (so a tail of a long session
    is enough); what each player of a points session has written is replayed through the engine from its first
    deal (points sessions are short: an agreed number of deals).
    """
    t = session.tariff
    if t.has_basket:  # the balances after each deal are kept with it: no need to start from the first
        state = before or State.start(t.players)
        for r in recorded:
            pos = engine.position(t, state)
            redealt = engine.redeals(t, r.deal)
            overtime, extra = engine.carried(state, pos.overtime, redealt)
            outcome = Outcome(r.transfers, made=engine.made(t, r.deal), stake_next=False, redealt=redealt,
                              overtime=pos.overtime)
            state = State(balances=r.balances, basket=r.basket or 0, deals=r.number,
                          redeals=state.redeals + redealt, overtime=overtime, extra=extra)
            yield Walked(r, pos, outcome, state, r.balances)
        return
    rows = list(recorded)  # a points session's points is replayed from its first deal
    for r, step in zip(rows, engine.replaying(t, (r.deal for r in rows), changes=session.changes()), strict=True):
        yield Walked(r, step.position, step.outcome, step.after, step.scores)


def series(session: Session, walked: Iterable[Walked]) -> list[list[int]]:
    """Each player's running standing from 0 through every deal: the lines of a chart."""
    lines = [[0] for __ in session.players]
    for w in walked:
        # strict=False: a deal's kept balances, when damaged, are shorter (`check` reports them; the
        # views show what is kept)
        for line, value in zip(lines, w.standing, strict=False):
            line.append(value)
    return lines


def chart(conn: sqlite3.Connection, session_id: int | None = None) -> tuple[Session, list[list[int]]]:
    """A session (default: the one this command line plays) and its chart's lines (`series`)."""
    session = current(conn, session_id)
    return session, series(session, walk(session, read.deals(conn, session)))


def points_standing(conn: sqlite3.Connection, session: Session) -> tuple[int, ...]:
    """A points session's standing: what each player has written, replayed from the deals."""
    points = (0,) * len(session.players)
    for w in walk(session, read.deals(conn, session, transfers=False)):
        points = w.standing
    return points


class History(NamedTuple):
    session: Session
    rows: list[Walked]
    total: int  # standing deals in all
    undone: int  # deals taken back
    corrected: dict[int, Correction]  # by number, the standing deals a correction made, with it (read.corrected)
    extensions: tuple[Extension, ...] = ()  # more deals agreed (`extend N`), the earliest first
    played: int | None = None  # the deals of the game played (misdeals dealt again not counted); None: `total`


def history(conn: sqlite3.Connection, last: int | None, session_id: int | None = None) -> History:
    """A session's deals (default: the one this command line plays), only the `last` few when given."""
    session = current(conn, session_id)
    tail = None if last is None or not session.tariff.has_basket else last
    recorded = list(read.deals(conn, session, tail=tail))
    rows = list(walk(session, recorded, read.before(conn, session, recorded[0].number) if recorded else None))
    if last is not None and len(rows) > last:
        rows = rows[-last:]
    state = read.state(conn, session)
    return History(session, rows, state.deals, read.undone_count(conn, session),
                   read.corrected(conn, session), tuple(read.extensions(conn, session)), state.played)


# ---- corrections -----------------------------------------------------------------------------


def corrections(conn: sqlite3.Connection, session_id: int | None = None) -> tuple[Session, list[Correction]]:
    """A session (default: the one this command line plays) and the audit of its corrections."""
    session = current(conn, session_id)
    return session, read.corrections(conn, session)


class Corrected(NamedTuple):
    session: Session
    number: int
    was: Deal
    now: Deal
    before: tuple[int, ...]  # each person's chips, or on points the points (those of session.present)
    after: tuple[int, ...]
    basket: tuple[int, int]  # before and after
    dealer: int  # the seat that dealt it
    state: State  # after it, the changes of the table since the last deal included


def _numbered(conn: sqlite3.Connection, session: Session, number: int) -> list[Recorded]:
    """The session's standing deals, which have a deal `number` (else a clear error)."""
    standing_deals = list(read.deals(conn, session, transfers=False))
    if not 1 <= number <= len(standing_deals):
        raise LedgerError(_("there is no deal {number} in session {id}; its deals are 1 to {count}",
                            number=number, id=session.id, count=len(standing_deals)) if standing_deals else
                          _("session {id} has no deals yet", id=session.id))
    return standing_deals


def entered_deal(conn: sqlite3.Connection, session: Session, number: int) -> Deal:
    """Deal `number` of the session as it stands (an edit starts from it)."""
    return _numbered(conn, session, number)[number - 1].deal


def correctable(session: Session) -> None:
    """Refused (LedgerError) when the session's deals cannot be corrected: it is settled. Every
    way of correcting asks this before it asks anything else, so nothing typed is thrown away."""
    if session.settled:
        raise LedgerError(_("session {id} is settled; `boston-ledger reopen` it first to correct a deal",
                            id=session.id))


def correct(conn: sqlite3.Connection, number: int, deal: Deal, reason: str,
            session_id: int | None = None, last: int | None = None) -> Corrected:
    """Replace deal `number` and replay every deal after it (the basket, labets and double tours
    depend on the past). The old entries stay on record, superseded by the correction. `last`,
    when given, is the number of the session's last deal as the correction was shown: when the
    last deal is another one by then, nothing is corrected."""
    with writing(conn):
        session = current(conn, session_id)
        correctable(session)
        if last is not None and getattr(read.last_deal(conn, session), "number", None) != last:
            raise LedgerError(_("deal {number} is no longer the last deal; nothing was corrected", number=last))
        standing_deals = _numbered(conn, session, number)
        if deal == standing_deals[number - 1].deal:
            raise LedgerError(_("deal {number} was entered just so; there is nothing to correct", number=number))
        done, replayed = _corrected(conn, session, standing_deals, number, deal)
        later = standing_deals[number - 1:]
        cid = write.record_correction(conn, session, number, later[0].id, reason, [r.id for r in later])
        for offset, (step, original) in enumerate(zip(replayed, later, strict=True)):
            write.record_deal(conn, session, step.number, step.deal, step.outcome, step.after, correction_id=cid,
                              entered_at=None if offset == 0 else original.entered_at)
        _verify(conn, session, expected=done.state)
    return done


def correction(conn: sqlite3.Connection, session: Session, number: int, deal: Deal) -> Corrected:
    """What replacing deal `number` would change, through the end of the session; nothing is written."""
    return _corrected(conn, session, _numbered(conn, session, number), number, deal)[0]


def _corrected(conn: sqlite3.Connection, session: Session, standing_deals: list[Recorded], number: int,
               deal: Deal) -> tuple[Corrected, list[engine.Step]]:
    """Deal `number` replaced and every later deal replayed: the result, and each replayed deal
    (its outcome and the state after it)."""
    t = session.tariff
    before = read.state(conn, session)
    entered = [r.deal for r in standing_deals]
    entered[number - 1] = deal
    changes = session.changes()
    replayed = []
    for step in engine.replaying(t, entered, changes=changes):
        _within_limits(step.after)
        replayed.append(step)
    after = engine.reseated(replayed[-1].after, changes.get(len(entered) + 1, ()))[0]  # made since the last deal
    if t.has_basket:
        was, now = by_person(session, before), by_person(session, after)
    else:
        was = by_person(session, before, points_standing(conn, session))
        now = by_person(session, after, replayed[-1].scores)
    done = Corrected(session, number, standing_deals[number - 1].deal, deal, was, now,
                     (before.basket, after.basket), replayed[number - 1].position.dealer, after)
    return done, replayed[number - 1:]


def by_person(session: Session, state: State, scores: Sequence[int] | None = None) -> tuple[int, ...]:
    """Each person's chips at `state` (the seats' accounts' balances, and the chips of those who
    left the table), or on points each person's `scores` (a seat's, for the account it plays);
    the people who took part (session.present), by the order they joined."""
    if scores is None:
        chips = state.holdings(len(session.people))[0]
    else:
        held = [0] * len(session.people)
        for account, written in zip(state.accounts, scores, strict=True):
            held[account] = written
        chips = tuple(held)
    return tuple(chips[p] for p in session.present)
