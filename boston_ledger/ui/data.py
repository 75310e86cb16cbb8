"""What `--json` prints: each command's result as plain data for scripts (keys in English)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..app.deals import History, Walked
from ..app.imports import Done, Side
from ..app.money import Book, Since
from ..app.rescore import Rescored
from ..app.sessions import Listed, Status
from ..app.stats import Partnership, PlayerStats, Stats, Swing
from ..core import engine
from ..core.i18n import N_
from ..core.invariants import Problem
from ..core.settlement import Settled, money
from ..core.tariff import Tariff
from ..store.damage import Damage
from ..store.merge import Brought, PaymentRow
from ..store.records import Correction, PaymentRecord, Session
from .deals import describe, net_by_reason, steps


def status(s: Status) -> dict[str, Any]:
    session, state, pos = s.session, s.state, s.next
    t = session.tariff
    tours = len(t.tours) > 1
    return {
        "session": session.id,
        "name": session.name,
        "tariff": t.name,
        "tariff_hash": t.digest,
        "scoring": t.scoring,
        "conditions": list(t.applied),
        "players": list(session.players),
        "balances": dict(zip(session.players, s.standing, strict=True)),
        "net": dict(zip(session.players, state.balances, strict=True)),
        "basket": state.basket,
        "agreed_deals": session.agreed_deals,
        "deals_left": None if session.agreed_deals is None else session.agreed_deals - engine.agreed_played(state),
        "extensions": [{"deals": e.deals, "after_deal": e.after_deal, "agreed_deals": e.agreed,
                        "extended_at": e.extended_at} for e in s.extensions],
        "deals": state.played,
        "partie": pos.partie if tours else None,
        "tour": pos.tour if tours else None,
        "multiplier": pos.multiplier,
        "double": pos.double,
        "overtime": pos.overtime,
        "dealer": session.players[pos.dealer],
        "stake_due": engine.stake_due(t, state),
        "money": None if s.money is None else dict(zip(session.players, map(money, s.money), strict=True)),
        "chip_value": str(session.chip_value),
        "currency": session.currency,
        "settled": session.settled,
        "people": people(s),
    }


def people(s: Status) -> list[dict[str, Any]]:
    """Everyone who played or whose money it is, by the order they joined: where he sits (a seat
    from 1, or None), whose money that seat plays, whether his money left the table with him, his
    own chips and money (as settling now gives them)."""
    session, state = s.session, s.state
    chips = state.holdings(len(session.people))[0]
    away = dict(state.away)
    table = session.table()
    out = []
    cents = None if s.settled is None else dict(zip(session.present, s.settled.cents, strict=True))
    for person in session.present:
        name = session.people[person]
        seat = next((i for i, (sitter, __) in enumerate(table) if sitter == person), None)
        out.append({"name": name, "seat": None if seat is None else seat + 1,
                    "playing_for": None if seat is None else session.people[table[seat][1]],
                    "away": person in away, "chips": chips[person],
                    "money": None if cents is None else money(cents[person])})
    return out


def history(h: History) -> list[dict[str, Any]]:
    return [deal(h.session, w, h.corrected.get(w.recorded.number)) for w in h.rows]


def deal(session: Session, w: Walked, corrected: Correction | None = None) -> dict[str, Any]:
    """A deal of the history: `balances` and `basket` are where it left them, `changes` and
    `basket_change` what it moved, `why` what each reason moved (the lines of the deal's table
    in the terminal, per player and the basket; empty on points); `corrected`, when a correction
    made its entry, when and why (else null). Players are named as they sat at that deal; `table`
    says whose money each seat played, once the table has changed."""
    names = session.sitting(w.recorded.number)
    chips = session.tariff.has_basket
    moved = [change for change, __ in steps(session, w)]
    parties = (*names, "basket")
    why = {r: dict(zip(parties, row, strict=True))
           for r, row in net_by_reason(w.outcome.transfers, len(names)).items()} if chips else {}
    return {
        "deal": w.recorded.number, "partie": w.position.partie, "tour": w.position.tour,
        "multiplier": w.position.multiplier, "dealer": names[w.position.dealer],
        "contract": w.recorded.deal.contract,
        "description": describe(session, w.recorded.deal, dealer=w.position.dealer, number=w.recorded.number),
        "made": w.outcome.made, "balances": dict(zip(names, w.standing, strict=True)),
        "basket": w.after.basket if chips else 0,
        "double": w.position.double, "overtime": w.position.overtime,
        "changes": dict(zip(names, moved, strict=False)),  # moved ends with the basket's: basket_change
        "basket_change": moved[len(names)] if chips else 0, "why": why,
        "corrected": None if corrected is None else {"corrected_at": corrected.corrected_at,
                                                     "reason": corrected.reason},
        "table": [{"player": session.people[sitter], "money_of": session.people[account]}
                  for sitter, account in session.table(w.recorded.number)] if session.seatings else None,
    }


def corrections(session: Session, audit: Sequence[Correction]) -> list[dict[str, Any]]:
    return [{"deal": c.number, "corrected_at": c.corrected_at, "reason": c.reason,
             "was": describe(session, c.was, number=c.number), "now": describe(session, c.now, number=c.number)}
            for c in audit]


def sessions(rows: Sequence[Listed]) -> list[dict[str, Any]]:
    return [{
        "id": r.session.id, "name": r.session.name, "date": r.session.created_at[:10],
        "players": list(r.session.players), "tariff": r.session.tariff.name,
        "conditions": list(r.session.tariff.applied), "deals": r.deals,
        "state": N_("settled") if r.session.settled else N_("open"), "current": r.current,
        "result": r.settled.record()["money"] if r.settled else None, "currency": r.session.currency,
        "demo": r.session.demo,
    } for r in rows]


def stats(s: Stats) -> dict[str, Any]:
    def partnership(p: Partnership | None) -> dict[str, Any] | None:
        return None if p is None else {"players": list(p.players), "deals": p.deals, "made": p.made,
                                       "success_rate": p.success_rate}

    return {
        "players": {name: player(e) for name, e in s.players.items()},
        "partnerships": [partnership(p) for p in s.partnerships],
        "best_partnership": partnership(s.best),
        "worst_partnership": partnership(s.worst),
        "partnership_min_deals": s.min_deals,
        "money_over": "settled sessions",
        "settled_sessions": s.settled,
        "unsettled_sessions": s.unsettled,
    }


def player(e: PlayerStats) -> dict[str, Any]:
    def swings(by_currency: dict[str, Swing]) -> dict[str, Any]:
        return {code: {"chips": w.chips, "money": str(w.money), "session": w.session, "deal": w.deal}
                for code, w in by_currency.items()}

    return {
        "sessions": e.sessions, "deals": e.deals,
        "declared": {k: {"declared": v.declared, "made": v.made} for k, v in e.declared.items()},
        "declared_total": e.declared_total, "made_total": e.made_total, "success_rate": e.success_rate,
        "money": {code: money(c) for code, c in e.money.items()},
        "biggest_win": swings(e.biggest_win), "biggest_loss": swings(e.biggest_loss),
    }


def settlement(settled: Settled, paid: Since | None) -> dict[str, Any]:
    """`settle --json`: the settlement as kept, then the payments recorded toward it since
    (`paid_since`: each payment, and the `amount` of it counted toward this evening) and who
    still pays whom after them (`still_owed`: the settlement's `payments` when nothing was paid)."""
    names = settled.players
    owed = settled.payments if paid is None else paid.owed
    return {**settled.record(),
            "paid_since": [] if paid is None else [
                {"id": t.payment.id, "date": t.payment.paid_at, "from": t.payment.payer, "to": t.payment.payee,
                 "amount": money(t.cents), "payment_amount": money(t.payment.cents)} for t in paid.paid],
            "still_owed": [{"from": names[p.payer], "to": names[p.payee], "amount": money(p.cents)} for p in owed]}


def books(found: Sequence[Book]) -> dict[str, Any]:
    return {b.currency: {
        "balances": {n: money(c) for n, c in zip(b.names, b.cents, strict=True)},
        "payments": [{"from": b.names[p.payer], "to": b.names[p.payee], "amount": money(p.cents)}
                     for p in b.payments],
        "paid": b.paid,
    } for b in found}


def payments(found: Sequence[PaymentRecord]) -> list[dict[str, Any]]:
    return [{"id": p.id, "date": p.paid_at, "from": p.payer, "to": p.payee, "amount": money(p.cents),
             "currency": p.currency, "cancelled": p.cancelled_at is not None, "cancelled_at": p.cancelled_at}
            for p in found]


def rescored(r: Rescored) -> dict[str, Any]:
    return {"session": r.session.id, "tariff": r.tariff.name,
            "players": {name: {"recorded": a, "rescored": b, "difference": b - a}
                        for name, a, b in zip(r.session.players, r.recorded.balances, r.rescored.balances,
                                              strict=True)},
            "basket": {"recorded": r.recorded.basket, "rescored": r.rescored.basket}}


def damage(found: Sequence[Damage]) -> list[dict[str, Any]]:
    return [{"table": d.table, "key": d.key, "problem": d.what} for d in found]


def problems(found: Sequence[Problem]) -> list[dict[str, Any]]:
    return [{"session": p.session, "deal": p.deal, "problem": p.what} for p in found]


def tariffs(found: Sequence[Tariff]) -> list[dict[str, Any]]:
    return [{"name": t.name, "title": t.title, "source": t.source, "conditions": list(t.conditions)} for t in found]


def imported(done: Done, dry_run: bool, salvaged: Sequence[str] = ()) -> dict[str, Any]:
    """`import --json`: what the import brought (with --dry-run, would bring), what was here already, and
    what was left out. Evenings by their numbers there (`here`: the number each got here); `fast_forwarded`,
    those brought whole as the continuation of one here (`continues`, its number here)."""
    plan = done.plan
    made = dict(zip((e.id for e in plan.evenings), done.sessions, strict=False))
    continues = dict(plan.continues)
    return {
        "source": plan.source,
        "dry_run": dry_run,
        "import": done.import_id,
        "evenings": {"added": len(plan.evenings) - len(continues), "fast_forwarded": len(continues),
                     "already": plan.already, "continued_here": plan.behind, "conflicts": len(plan.conflicts),
                     "refused": len(plan.refused)},
        "brought": [{"there": e.id, "here": made.get(e.id), "name": e.name, "players": list(e.players),
                     "deals": e.deals, "settled": e.settled, "continues": continues.get(e.id)}
                    for e in plan.evenings],
        "conflicts": [{"here": _side(c.here), "there": _side(c.there), "parts_at": c.parts_at,
                       "differs": list(c.differs)} for c in plan.conflicts],
        "refused": [{"there": r.there.id, "players": list(r.there.players), "problem": r.problem}
                    for r in plan.refused],
        "players": {"matched": sorted(set(plan.players) - set(plan.new_players)), "new": list(plan.new_players),
                    "written_as": dict(plan.renamed),
                    "same": [{"there": a, "here": b} for a, b in plan.aliases]},
        "payments": {"added": len(plan.payments), "already": plan.payments_here,
                     "brought": [_payment(p) for p in plan.payments],
                     "conflicts": [_payment(p) for p in plan.payment_conflicts]},
        "left_out": plan.left_out or bool(salvaged),
        "salvage_left_out": list(salvaged),
    }


def _payment(p: PaymentRow) -> dict[str, Any]:
    return {"date": p.paid_at, "from": p.payer, "to": p.payee, "amount": money(p.cents), "currency": p.currency,
            "cancelled_at": p.cancelled_at}


def _side(side: Side) -> dict[str, Any]:
    e = side.evening
    return {"session": e.id, "name": e.name, "players": list(e.players), "deals": e.deals, "settled": e.settled,
            "last_at": e.last_at, "balances": dict(zip(e.players, side.balances, strict=False)),
            "basket": side.basket}


def imports(found: Sequence[Brought]) -> list[dict[str, Any]]:
    """`import --list --json` (and `--undo ID --json`, the one undone)."""
    return [{"id": b.id, "source": b.source, "imported_at": b.imported_at, "sessions": list(b.sessions),
             "payments": list(b.payments), "same": [{"there": a, "here": h} for a, h in b.aliases],
             "undone_at": b.undone_at} for b in found]
