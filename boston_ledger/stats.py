"""Statistics across sessions: who declared what, how often it was made, who wins with whom."""

from __future__ import annotations

import sqlite3
from datetime import date
from decimal import Decimal
from fractions import Fraction

from . import engine, ledger, storage
from .engine import BASKET
from .errors import LedgerError
from .i18n import _
from .tariff import PASS


def since_date(text: str | None) -> date | None:
    if text is None:
        return None
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise LedgerError(_("--since must be a date such as 2026-01-31, not {clip}", clip=ledger.clip(text))) from None


def collect(conn: sqlite3.Connection, player: str | None = None, since: date | None = None) -> dict:
    """Everything `stats` shows, as plain data (the JSON of `stats --json`)."""
    names = ledger.people(conn)
    wanted = None if player is None else ledger.person(conn, player, "--player")
    per: dict[str, dict] = {}
    pairs: dict[tuple[str, str], list[int]] = {}

    def entry(name: str) -> dict:
        return per.setdefault(name, {"sessions": 0, "deals": 0, "declared": {}, "declared_total": 0,
                                     "made_total": 0, "success_rate": None, "net_chips": Fraction(0),
                                     "money": {}, "biggest_win": None, "biggest_loss": None})

    if wanted is not None:
        entry(wanted)
    for session in storage.sessions(conn):
        if since is not None and date.fromisoformat(session.created_at[:10]) < since:
            continue
        who = [names[p.casefold()] for p in session.players]
        for name in who:
            entry(name)["sessions"] += 1
        final = None
        for w in ledger.iter_walk(session, storage.iter_deals(conn, session)):  # streamed
            final = w.after
            deal, n = w.recorded.deal, len(who)
            change = [0] * n
            for t in w.outcome.transfers:
                if t.payer is not BASKET:
                    change[t.payer] -= t.chips
                if t.payee is not BASKET:
                    change[t.payee] += t.chips
            for seat, name in enumerate(who):
                e = entry(name)
                e["deals"] += 1
                for key, better in (("biggest_win", lambda a, b: a > b), ("biggest_loss", lambda a, b: a < b)):
                    best = e[key]
                    if (change[seat] > 0 if key == "biggest_win" else change[seat] < 0) and (
                            best is None or better(change[seat], best["chips"])):
                        e[key] = {"chips": change[seat], "session": session.id, "deal": w.recorded.number}
            if deal.contract == PASS or deal.declarer is None:
                continue
            made = bool(engine.made(session.tariff, deal))
            e = entry(who[deal.declarer])
            kind = e["declared"].setdefault(deal.contract, {"declared": 0, "made": 0})
            kind["declared"] += 1
            kind["made"] += made
            e["declared_total"] += 1
            e["made_total"] += made
            if deal.partner is not None:
                pair = tuple(sorted((who[deal.declarer], who[deal.partner]), key=str.casefold))
                record = pairs.setdefault(pair, [0, 0])
                record[0] += 1
                record[1] += made
        if final is not None:
            share = Fraction(final.basket, len(who))
            for seat, name in enumerate(who):
                entry(name)["net_chips"] += final.balances[seat] + (share if session.tariff.has_basket else 0)
        if session.settled:
            result = storage.settlement(conn, session)
            for name in who:
                money = entry(name)["money"]
                cents = int(Decimal(result["money"][session.players[who.index(name)]]) * 100)
                money[session.currency] = money.get(session.currency, 0) + cents
    for e in per.values():
        e["success_rate"] = round(e["made_total"] / e["declared_total"], 3) if e["declared_total"] else None
        e["net_chips"] = int(e["net_chips"]) if e["net_chips"].denominator == 1 else float(e["net_chips"])
        e["money"] = {code: _money(c) for code, c in e["money"].items()}
    partnerships = [{"players": list(p), "deals": d, "made": m, "success_rate": round(m / d, 3)}
                    for p, (d, m) in pairs.items()]
    if wanted is not None:
        per = {wanted: per[wanted]}
        partnerships = [p for p in partnerships if wanted in p["players"]]
    ranked = sorted(partnerships, key=lambda p: (-p["success_rate"], -p["deals"], p["players"]))
    return {
        "players": per,
        "partnerships": ranked,
        "best_partnership": ranked[0] if ranked else None,
        "worst_partnership": min(ranked, key=lambda p: (p["success_rate"], -p["deals"], p["players"]))
        if len(ranked) > 1 else None,
    }


def _money(cents: int) -> str:
    from .settlement import money

    return money(cents)
