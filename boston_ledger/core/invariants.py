"""The ledger's invariants as pure checks: each takes what is stored and returns problems.

A problem names the session, the deal when there is one, and what was expected and found.
`boston-ledger check` prints them; every write checks its own before it commits.
"""

from __future__ import annotations

from typing import Callable, Iterable, NamedTuple, Protocol

from . import engine
from .engine import BASKET, Deal, Outcome, State, Transfer
from .i18n import N_, _, reason
from .tariff import Tariff

WHAT = {"deal": N_("deal"), "transfer": N_("transfer"), "correction": N_("correction"),
        "superseded deal": N_("superseded deal")}


class Problem(NamedTuple):
    session: int
    deal: int | None
    what: str

    def __str__(self) -> str:
        where = _("session {id}", id=self.session) + (_(", deal {number}", number=self.deal) if self.deal is not None else "")
        return f"{where}: {self.what}"


def imbalance(state: State) -> int:
    """What balances plus basket sum to: zero, by double entry."""
    return sum(state.balances) + state.basket


def zero_sum(session_id: int, state: State) -> list[Problem]:
    """Balances plus basket sum to zero."""
    total = imbalance(state)
    if total:
        return [Problem(session_id, None, _("balances plus basket sum to {total}, expected 0", total=total))]
    return []


def references(session_id: int, rows: Iterable[tuple]) -> list[Problem]:
    """The rows that point outside their session (store.audit.foreign_references), as problems."""
    problems = []
    for number, what, other in rows:
        if what == "orphans":
            problems.append(Problem(session_id, None, _("{orphans} transfers point at no deal", orphans=other)))
        elif what in ("deal", "transfer"):
            problems.append(Problem(session_id, number, _("a {what} names a player of session {other}",
                                                          what=_(WHAT[what]), other=other)))
        else:
            problems.append(Problem(session_id, number, _("a {what} belongs to a correction of another session",
                                                          what=_(WHAT[what]))))
    return problems


class Reading(Protocol):
    """How a replay reads one stored deal (`replay`): its number, its plan, and what differs
    between what is stored with it and what the engine gives (nothing, when nothing does)."""

    def number(self, row: object) -> int: ...
    def plan(self, row: object) -> engine.Plan: ...
    def differs(self, row: object, after: State, outcome: Outcome) -> object: ...


DOUBT = "doubt"  # what a quick reading says when it cannot tell what differs


def replay(session_id: int, tariff: Tariff, players: int, rows: Iterable, reading: Reading,
           start: State | None = None) -> tuple[State, object]:
    """Replay stored deals through the engine and the session's tariff, holding each deal's
    number, kept balances and transfers to the engine's; the state reached and the first
    difference (a list of problems, or what the reading says: empty or None when every deal
    holds), after which it stops: later deals depend on this one, so one report is enough."""
    state = State.start(players) if start is None else start
    for row in rows:
        number = reading.number(row)
        if number != state.deals + 1:
            return state, [_misnumbered(session_id, number, state.deals + 1)]
        try:
            plan = reading.plan(row)
        except engine.DealError as e:
            return state, [Problem(session_id, number, _("the deal no longer scores: {e}", e=e))]
        outcome = engine.play(tariff, state, plan.deal, plan)
        after = engine.advance(state, outcome)
        found = reading.differs(row, after, outcome)
        if found:
            return state, found
        state = after
    return state, None


def _misnumbered(session_id: int, number: int, expected: int) -> Problem:
    return Problem(session_id, number, _("the deal is numbered {number}; it is deal {expected} of the session",
                                         number=number, expected=expected))


class Exact:
    """The replay's reading of recorded deals (store.records.Recorded): values compared as
    values, and what differs said in words."""

    def __init__(self, session_id: int, tariff: Tariff, players: int):
        self.session_id, self.tariff, self.players = session_id, tariff, players

    def number(self, row) -> int:
        return row.number

    def plan(self, row) -> engine.Plan:
        return engine.plan(self.tariff, row.deal)

    def differs(self, row, after: State, outcome: Outcome) -> list[Problem]:
        return difference(self.session_id, self.players, row.number, row.balances, row.basket, row.transfers,
                          after, outcome)


def difference(session_id: int, players: int, number: int, balances: tuple, basket: int | None,
               transfers: tuple[Transfer, ...], after: State, outcome: Outcome) -> list[Problem]:
    """How a stored deal (its kept balances and basket, its transfers) differs from the replay's
    state after it and outcome, in words; empty when it does not."""
    if balances != after.balances or basket != after.basket:
        return [Problem(session_id, number, _("stored balances after the deal {stored}, basket {basket}; the replay gives {replayed}, "
            "basket {replayed_basket}", stored=list(balances), basket=basket, replayed=list(after.balances),
            replayed_basket=after.basket))]
    if tuple(outcome.transfers) == tuple(transfers):
        return []
    problems = [  # the engine's are well formed; are these?
        Problem(session_id, number, _("transfer {t} is not a movement of chips between two parties of the session", t=t))
        for t in transfers
        if t.chips <= 0 or t.payer == t.payee or not all(p is BASKET or 0 <= p < players for p in (t.payer, t.payee))]
    expected = [t for t in outcome.transfers if t not in transfers]
    found = [t for t in transfers if t not in outcome.transfers]
    return problems + [Problem(session_id, number,
                               _("stored transfers differ from the replay: expected {expected}, found {found}",
                                 expected=_brief(expected), found=_brief(found))
                               + ("" if expected or found else _(" (in another order)")))]


def _brief(transfers: Iterable[Transfer]) -> str:
    return "[" + ", ".join(f"{_party(t.payer)}→{_party(t.payee)} {t.chips} {reason(t.reason)}" for t in transfers) + "]"


def _party(seat: int | None) -> str:
    return _("basket") if seat is BASKET else _("seat {seat}", seat=seat)


def plans(tariff: Tariff, deal_of: Callable[[tuple], Deal], memo: int) -> Callable[[tuple], engine.Plan]:
    """Each distinct entry's plan made once (a long session repeats a few thousand entries)."""
    made: dict[tuple, engine.Plan] = {}

    def planned(entry: tuple) -> engine.Plan:
        found = made.get(entry)
        if found is None:
            found = engine.plan(tariff, deal_of(entry))  # DealError: the replay reports it
            if len(made) >= memo:
                made.clear()
            made[entry] = found
        return found

    return planned
