"""The ledger's invariants as pure checks: each takes what is stored and returns problems.

A problem names the session, the deal when there is one, and what was expected and found.
`boston-ledger check` prints them; every write checks its own before it commits.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple, Protocol

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
        where = _("session {id}", id=self.session) + (
            _(", deal {number}", number=self.deal) if self.deal is not None else "")
        return f"{where}: {self.what}"


# A reference check's row (store.audit.foreign_references): the deal's number, what points outside its
# session, and that session; ("orphans", their count) for transfers of no deal.
Reference = tuple[int | None, str, int | None]


class KeptDeal(Protocol):
    """A deal as the ledger keeps it (store.records.Recorded), as far as the replay reads it."""

    @property
    def number(self) -> int: ...
    @property
    def deal(self) -> Deal: ...
    @property
    def transfers(self) -> tuple[Transfer, ...]: ...
    @property
    def balances(self) -> tuple[int, ...]: ...
    @property
    def basket(self) -> int | None: ...


def imbalance(state: State) -> int:
    """What balances plus basket (plus the chips of those who left the table) sum to: zero, by
    double entry."""
    return sum(state.balances) + state.basket + sum(chips for __, chips in state.away)


def zero_sum(session_id: int, state: State) -> list[Problem]:
    """Balances plus basket sum to zero."""
    total = imbalance(state)
    if total:
        return [Problem(session_id, None, _("balances plus basket sum to {total}, expected 0", total=total))]
    return []


def references(session_id: int, rows: Iterable[Reference]) -> list[Problem]:
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


def replay(session_id: int, tariff: Tariff, players: int, recorded: Iterable[KeptDeal],
           changes: Mapping[int, Sequence[engine.Change]] | None = None) -> list[Problem]:
    """Replay a session's standing deals as stored (store.records.Recorded: number, deal, kept
    balances and basket, transfers) through the engine and the session's tariff, holding each
    deal's number, kept balances and transfers to the engine's. The first difference, in words
    (empty when every deal holds): later deals depend on it, so one report is enough. The table
    changes before deal N as `changes[N]` says."""
    rows = list(recorded)
    steps = engine.replaying(tariff, (row.deal for row in rows), changes=changes)
    for expected, row in enumerate(rows, 1):
        if row.number != expected:
            return [_misnumbered(session_id, row.number, expected)]
        try:
            step = next(steps)
        except engine.DealError as e:
            return [Problem(session_id, row.number, _("the deal no longer scores: {e}", e=e))]
        found = difference(session_id, players, row.number, row.balances, row.basket, row.transfers, step.after,
                           step.outcome)
        if found:
            return found
    return []


def _misnumbered(session_id: int, number: int, expected: int) -> Problem:
    return Problem(session_id, number, _("the deal is numbered {number}; it is deal {expected} of the session",
                                         number=number, expected=expected))


def difference(session_id: int, players: int, number: int, balances: tuple[int, ...], basket: int | None,
               transfers: tuple[Transfer, ...], after: State, outcome: Outcome) -> list[Problem]:
    """How a stored deal (its kept balances and basket, its transfers) differs from the replay's
    state after it and outcome, in words; empty when it does not."""
    if balances != after.balances or basket != after.basket:
        return [Problem(session_id, number, _(
            "stored balances after the deal {stored}, basket {basket}; the replay gives {replayed}, "
            "basket {replayed_basket}", stored=list(balances), basket=basket, replayed=list(after.balances),
            replayed_basket=after.basket))]
    if tuple(outcome.transfers) == tuple(transfers):
        return []
    problems = [  # the engine's are well formed; are these?
        Problem(session_id, number,
                _("transfer {t} is not a movement of chips between two parties of the session", t=t))
        for t in transfers
        if t.chips <= 0 or t.payer == t.payee or not all(p is BASKET or 0 <= p < players for p in (t.payer, t.payee))]
    expected = [t for t in outcome.transfers if t not in transfers]
    found = [t for t in transfers if t not in outcome.transfers]
    return [*problems, Problem(session_id, number,
                               _("stored transfers differ from the replay: expected {expected}, found {found}",
                                 expected=_brief(expected), found=_brief(found))
                               + ("" if expected or found else _(" (in another order)")))]


def _brief(transfers: Iterable[Transfer]) -> str:
    return "[" + ", ".join(f"{_party(t.payer)}→{_party(t.payee)} {t.chips} {reason(t.reason)}" for t in transfers) + "]"


def _party(seat: int | None) -> str:
    return _("basket") if seat is BASKET else _("seat {seat}", seat=seat)
