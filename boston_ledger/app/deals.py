"""The deals of an evening: enter one, preview it, take the last back, correct an earlier one,
and read them back with where each fell and what it left.

Each write is one transaction that reads, checks and writes; the engine computes, the store
keeps. Nothing here prints.
"""

from __future__ import annotations

import re
import sqlite3
from typing import Iterable, Iterator, NamedTuple, Sequence

from ..core import engine, invariants
from ..core.engine import Deal, Outcome, Position, State
from ..core.errors import LedgerError
from ..core.fields import FIELDS, Field
from ..core.i18n import _, contract_name, contract_names, ngettext, rank_name
from ..core.tariff import PASS, Schedule, Tariff, ambiguous, did_you_mean, suggestion
from ..store import read, write
from ..store.db import MAX_CHIPS, writing
from ..store.records import Correction, Recorded, Session
from .inputs import nobody, seat_of, whole

def current(conn: sqlite3.Connection, session_id: int | None = None) -> Session:
    """The session a command works on: `session_id` when the command line chose one (--session,
    or the terminal's BOSTON_LEDGER_SESSION), else the ledger's current session (`use ID`).
    The one place that picks it."""
    return read.session(conn, read.current_session_id(conn) if session_id is None else session_id)


def typed_deal(session: Session, contract: str, **typed: str | bool | None) -> Deal:
    """The deal a user typed (the contract, and each other field of core.fields by its name: its
    text, a flag as a bool), with names and words resolved against the session and its tariff,
    checked by the engine. Each error names the field that is wrong (LedgerError.field).

    `team_tricks`, with a partner, is the pair's tricks together: the declarer's and the
    partner's own follow from it and one of them (`team_split`)."""
    values = {f.name: typed_value(session, f, text) for f in FIELDS
              for text in [contract if f.name == "contract" else typed.get(f.name)] if text not in (None, False)}
    team = values.pop("team_tricks", None)
    deal = Deal(**values)  # type: ignore[arg-type]
    if team is not None:
        deal = team_split(session, deal, team)  # type: ignore[arg-type]
    engine.validate(session.tariff, deal)
    return deal


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
            return seat_of(session, str(text), field.option)
        if field.kind == "tricks":
            return whole(str(text), field.option, 0, field.most if field.most is not None else t.tricks)
        if field.kind == "tricks-each":
            return each_tricks(str(text), t.tricks)
        return text is True  # a flag
    except LedgerError as e:
        raise LedgerError(str(e), field.name, e.suggestion) from None


def contract_of(tariff: Tariff, word: str) -> str:
    """The contract (or pass) a user's word names: any unique beginning of one of its names;
    else an error naming the candidates, or the contract a typo looks like."""
    found = tariff.find_contract(word)
    if found.key is not None:
        return found.key
    message = ambiguous(found, word, lambda key: _("pass") if key == PASS else contract_name(tariff, key)) or (
        _("the {tariff} tariff has no contract {contract!r}{hint}", tariff=tariff.name, contract=word,
          hint=did_you_mean(found)) if found.close else
        _("the {tariff} tariff has no contract {contract!r}; use one of {choices} or pass", tariff=tariff.name,
          contract=word, choices=contract_names(tariff)))
    raise LedgerError(message, "contract", suggestion(found))


def rank_of(tariff: Tariff, word: str, among: Sequence[str] | None = None, option: str | None = "--rank") -> str:
    """The suit rank a user's word names (only those `among`, when given), as contract_of();
    the error begins with the option when there is one."""
    found = tariff.find_rank(word, among)
    if found.key is not None:
        return found.key
    choices = ", ".join(rank_name(tariff, r) for r in (tariff.ranks if among is None else among))
    message = ambiguous(found, word, lambda key: rank_name(tariff, key)) or (
        (_("--rank must be one of {choices}, not {rank!r}", choices=choices, rank=word) if option else
         _("choose one of {choices}", choices=choices)) + did_you_mean(found))
    raise LedgerError(message, "rank", suggestion(found))


def team_split(session: Session, deal: Deal, team: int) -> Deal:
    """The deal with the pair's tricks together (`--team-tricks`), kept as said.

    With one of the two's own tricks given, the other's are the rest, and both are kept too.
    Without, nothing is invented: when the pair made the contract, or failed it where both pay
    alike (no shares), the split changes no payment and stays unsaid; when the pair failed a
    contract of shares, it decides who pays, and the declarer's own tricks are needed (`--tricks`)."""
    t = session.tariff
    if deal.partner is None:
        raise LedgerError(_("--team-tricks is the tricks of a pair together; add --partner NAME, or give "
                            "--tricks N when the declarer plays alone"), "partner")
    names = session.players
    mine, theirs = deal.tricks, deal.partner_tricks
    if mine is not None and theirs is not None and mine + theirs != team:
        raise LedgerError(ngettext("{declarer} {tricks} + {partner} {partner_tricks} is not {n} trick together; "
                                   "give --team-tricks or the tricks of each, not both",
                                   "{declarer} {tricks} + {partner} {partner_tricks} is not {n} tricks together; "
                                   "give --team-tricks or the tricks of each, not both", team,
                                   declarer=names[deal.declarer or 0], partner=names[deal.partner], tricks=mine,
                                   partner_tricks=theirs), "team_tricks")
    for own, who in ((mine, deal.declarer), (theirs, deal.partner)):
        if own is not None and own > team:
            raise LedgerError(ngettext("{name} cannot have taken {own} of the pair's {n} trick",
                                       "{name} cannot have taken {own} of the pair's {n} tricks", team,
                                       name=names[who or 0], own=own), "tricks" if who == deal.declarer else
                              "partner_tricks")
    if mine is None and theirs is not None:
        mine = team - theirs
    elif mine is None:
        if split_matters(t, deal.contract, team):
            bar = _pair_schedule(t, deal.contract).bar
            raise LedgerError(ngettext("{declarer} and {partner} took {n} trick together, fewer than the {bar} they "
                                       "needed, so who took how many decides who pays: give {declarer}'s own tricks "
                                       "with --tricks N",
                                       "{declarer} and {partner} took {n} tricks together, fewer than the {bar} they "
                                       "needed, so who took how many decides who pays: give {declarer}'s own tricks "
                                       "with --tricks N", team, declarer=names[deal.declarer or 0],
                                       partner=names[deal.partner], bar=bar), "tricks")
        return deal._replace(team_tricks=team)
    return deal._replace(tricks=mine, partner_tricks=team - mine, team_tricks=team)


def _pair_schedule(tariff: Tariff, contract: str) -> Schedule:
    found = tariff.contracts[contract].with_partner if contract in tariff.contracts else None
    if found is None:
        raise LedgerError(_("{contract} is played alone; drop --partner", contract=contract_name(tariff, contract)),
                          "partner")
    return found


def split_matters(tariff: Tariff, contract: str, team: int) -> bool:
    """Whether a pair's `team` tricks together leave the payments to how they are split: only
    when the pair failed a contract whose members answer each for his own share."""
    schedule = _pair_schedule(tariff, contract)
    return bool(schedule.shares) and not engine.lines(schedule, team, tariff.tricks)[0]


def each_tricks(text: str | None, tricks: int) -> tuple[int, ...] | None:
    """`--tricks-each 3,4,2,4`: every player's tricks in seat order (the engine checks that they
    are the table's and add up to the deal's)."""
    if text is None:
        return None
    words = [w for w in re.split(r"[,;\s]+", text.strip()) if w]
    if not words:
        raise LedgerError(_("--tricks-each needs every player's tricks in seat order, such as 3,4,2,4"))
    return tuple(whole(w, "--tricks-each", 0, tricks) or 0 for w in words)


def open_for_deals(session: Session, played: int | None = None) -> None:
    if session.settled:
        raise LedgerError(_("session {id} is settled and takes no more deals; start another with `boston-ledger new`, "
                            "or `boston-ledger reopen` it to correct it", id=session.id))
    if played is not None and session.agreed_deals is not None and played >= session.agreed_deals:
        raise LedgerError(ngettext("the {n} agreed deal of session {id} is played; settle it with `boston-ledger settle`",
                                   "the {n} agreed deals of session {id} are played; settle it with "
                                   "`boston-ledger settle`", session.agreed_deals, id=session.id))


def playable(conn: sqlite3.Connection, session_id: int | None = None) -> Session:
    """The session a deal would go into (default: the one this command line plays), when it
    takes one more: not settled, its agreed deals not all played."""
    session = current(conn, session_id)
    open_for_deals(session, read.state(conn, session).played)
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
    before = read.state(conn, session)
    outcome = engine.play(session.tariff, before, deal)
    return _entered(conn, session, before, deal, outcome, recorded=False)


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
        open_for_deals(session, before.played)
        if number is not None and number != before.deals + 1:
            raise LedgerError(_("deal {number} was entered meanwhile; nothing was recorded: look at this deal "
                                "again, as deal {next}", number=before.deals, next=before.deals + 1))
        outcome = engine.play(session.tariff, before, deal)
        after = engine.advance(before, outcome)
        _within_limits(after)
        deal_id = write.record_deal(conn, session, before.deals + 1, deal, outcome, after)
        _verify(conn, session, expected=after, before=before, deal_id=deal_id)
    return _entered(conn, session, before, deal, outcome, recorded=True)


def _entered(conn: sqlite3.Connection, session: Session, before: State, deal: Deal, outcome: Outcome,
             recorded: bool) -> Entered:
    points = None
    if not session.tariff.has_basket:
        points = points_standing(conn, session)
        if not recorded:
            points = tuple(a + b for a, b in zip(points, outcome.scores))
    return Entered(session, before.deals + 1, engine.position(session.tariff, before.deals, before.redeals), deal, outcome,
                   before, engine.advance(before, outcome), points)


def _within_limits(state: State) -> None:
    if max([abs(state.basket), *map(abs, state.balances)]) > MAX_CHIPS:
        raise LedgerError(_("this would take the basket or a balance beyond what the ledger can hold; settle the session and start a new one"))


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
                        redealt=stored.redeals != before.redeals)
        if engine.advance(before, moved) != stored:
            problems.append("the stored transfers of the deal do not add up to the stored balances")
    if problems:
        raise LedgerError(_("internal error, nothing recorded: {problem}", problem=problems[0]))
    return stored


class Undone(NamedTuple):
    session: Session
    last: Recorded
    after: State
    points: tuple[int, ...] | None  # on points, what each player has written after it


def undo(conn: sqlite3.Connection, session_id: int | None = None, number: int | None = None) -> Undone:
    """Take back the last standing deal; it stays on record as undone. `number`, when given, is
    the number of the deal asked to be taken back: when the last deal is another one by then,
    nothing is taken back."""
    with writing(conn):
        session = current(conn, session_id)
        if session.settled:
            raise LedgerError(_("session {id} is settled; its deals can no longer be taken back "
                                "(`boston-ledger reopen` opens it again to correct it)", id=session.id))
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


def walk(session: Session, recorded: Iterable[Recorded], redeals: int = 0) -> Iterator[Walked]:
    """The recorded deals in order with their positions and the state after each (`redeals`: the
    misdeals dealt again by the same dealer before the first of them, `read.redeals`).

    On chips the balances kept with each deal are read as they are (so a tail of a long session
    is enough); what each player of a points session has written is replayed through the engine from its first
    deal (points sessions are short: an agreed number of deals).
    """
    t = session.tariff
    state = State.start(len(session.players))
    scores = (0,) * len(session.players)
    if t.has_basket:  # the balances after each deal are kept with it: no need to start from the first
        for r in recorded:
            pos = engine.position(t, r.number - 1, redeals)
            redealt = engine.redeals(t, r.deal)
            redeals += redealt
            outcome = Outcome(r.transfers, made=engine.made(t, r.deal), stake_next=False, redealt=redealt)
            after = State(balances=r.balances, basket=r.basket or 0, deals=r.number, redeals=redeals)
            yield Walked(r, pos, outcome, after, r.balances)
        return
    for r in recorded:  # a points session's points is replayed from its first deal
        pos = engine.position(t, state.deals, state.redeals)
        outcome = engine.play(t, state, r.deal)
        scores = tuple(a + b for a, b in zip(scores, outcome.scores))
        state = engine.advance(state, outcome)
        yield Walked(r, pos, outcome, state, scores)


def series(session: Session, walked: Iterable[Walked]) -> list[list[int]]:
    """Each player's running standing from 0 through every deal: the lines of a chart."""
    lines = [[0] for __ in session.players]
    for w in walked:
        for line, value in zip(lines, w.standing):
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


def history(conn: sqlite3.Connection, last: int | None, session_id: int | None = None) -> History:
    """A session's deals (default: the one this command line plays), only the `last` few when given."""
    session = current(conn, session_id)
    tail = None if last is None or not session.tariff.has_basket else last
    recorded = list(read.deals(conn, session, tail=tail))
    rows = list(walk(session, recorded, read.redeals(conn, session, recorded[0].number) if recorded else 0))
    if last is not None and len(rows) > last:
        rows = rows[-last:]
    return History(session, rows, read.state(conn, session).deals, read.undone_count(conn, session))


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
    before: tuple[int, ...]  # balances, or on points the points
    after: tuple[int, ...]
    basket: tuple[int, int]  # before and after
    dealer: int  # the seat that dealt it


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


def correct(conn: sqlite3.Connection, number: int, deal: Deal, reason: str,
            session_id: int | None = None, last: int | None = None) -> Corrected:
    """Replace deal `number` and replay every deal after it (the basket, labets and double tours
    depend on the past). The old entries stay on record, superseded by the correction. `last`,
    when given, is the number of the session's last deal as the correction was shown: when the
    last deal is another one by then, nothing is corrected."""
    with writing(conn):
        session = current(conn, session_id)
        if session.settled:
            raise LedgerError(_("session {id} is settled; `boston-ledger reopen` it first to correct a deal", id=session.id))
        if last is not None and getattr(read.last_deal(conn, session), "number", None) != last:
            raise LedgerError(_("deal {number} is no longer the last deal; nothing was corrected", number=last))
        standing_deals = _numbered(conn, session, number)
        if deal == standing_deals[number - 1].deal:
            raise LedgerError(_("deal {number} was entered just so; there is nothing to correct", number=number))
        done, replayed = _corrected(conn, session, standing_deals, number, deal)
        later = standing_deals[number - 1:]
        cid = write.record_correction(conn, session, number, later[0].id, reason, [r.id for r in later])
        for offset, ((d, outcome, state), original) in enumerate(zip(replayed, later)):
            write.record_deal(conn, session, number + offset, d, outcome, state, correction_id=cid,
                              entered_at=None if offset == 0 else original.entered_at)
        _verify(conn, session, expected=replayed[-1][2])
    return done


def correction(conn: sqlite3.Connection, session: Session, number: int, deal: Deal) -> Corrected:
    """What replacing deal `number` would change, through the end of the session; nothing is written."""
    return _corrected(conn, session, _numbered(conn, session, number), number, deal)[0]


def _corrected(conn: sqlite3.Connection, session: Session, standing_deals: list[Recorded], number: int,
               deal: Deal) -> tuple[Corrected, list[tuple[Deal, Outcome, State]]]:
    """Deal `number` replaced and every later deal replayed: the result, and each replayed deal
    with its outcome and the state after it."""
    before = read.state(conn, session)
    entered = [r.deal for r in standing_deals]
    entered[number - 1] = deal
    state, __ = engine.replay(session.tariff, entered[: number - 1])
    dealer = engine.position(session.tariff, number - 1, state.redeals).dealer
    replayed = []
    for d in entered[number - 1:]:
        outcome = engine.play(session.tariff, state, d)
        state = engine.advance(state, outcome)
        _within_limits(state)
        replayed.append((d, outcome, state))
    points = not session.tariff.has_basket
    done = Corrected(session, number, standing_deals[number - 1].deal, deal,
                     _scores(session, [r.deal for r in standing_deals]) if points else before.balances,
                     _scores(session, entered) if points else state.balances, (before.basket, state.basket), dealer)
    return done, replayed


def _scores(session: Session, deals: list[Deal]) -> tuple[int, ...]:
    """What each player of a points session has written after these deals."""
    state, outcomes = engine.replay(session.tariff, deals)
    return tuple(sum(o.scores[i] for o in outcomes) for i in range(len(session.players)))
