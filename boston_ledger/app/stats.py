"""Statistics across sessions: who declared what, how often it was made, who wins with whom."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from ..core import engine
from ..core.tariff import PASS
from ..store import read
from ..store.records import entry_reader
from .money import person


@dataclass(frozen=True)
class Swing:
    """A player's biggest gain or loss in one deal."""

    chips: int
    session: int
    deal: int


@dataclass
class Declared:
    declared: int = 0
    made: int = 0


@dataclass
class PlayerStats:
    sessions: int = 0
    deals: int = 0
    declared: dict[str, Declared] = field(default_factory=dict)  # by contract, in the order first declared
    declared_total: int = 0
    made_total: int = 0
    net_chips: Fraction = Fraction(0)
    money: dict[str, int] = field(default_factory=dict)  # cents by currency, over settled sessions
    biggest_win: Swing | None = None
    biggest_loss: Swing | None = None

    @property
    def success_rate(self) -> float | None:
        return round(self.made_total / self.declared_total, 3) if self.declared_total else None


@dataclass(frozen=True)
class Partnership:
    players: tuple[str, str]
    deals: int
    made: int

    @property
    def success_rate(self) -> float:
        return round(self.made / self.deals, 3)


@dataclass(frozen=True)
class Stats:
    players: dict[str, PlayerStats]
    partnerships: list[Partnership]  # the most successful first
    best: Partnership | None
    worst: Partnership | None


def collect(conn: sqlite3.Connection, player: str | None = None, since: date | None = None) -> Stats:
    """Everything `stats` shows. Each deal's change per player is the difference of the balances
    kept with it and with the deal before (the sum of its transfers, which `check` holds).

    A session's deals are read once, as a stream, and each is looked at only for what differs
    from deal to deal (the balances kept with it); what the players entered is counted by
    distinct entry and scored once per entry, after the session's last deal."""
    names = read.people(conn)
    wanted = None if player is None else person(conn, player, "--player")
    per: dict[str, PlayerStats] = {}
    pairs: dict[tuple[str, str], list[int]] = {}

    def entry(name: str) -> PlayerStats:
        found = per.get(name)
        if found is None:
            found = per[name] = PlayerStats()
        return found

    if wanted is not None:
        entry(wanted)
    for session in read.sessions(conn):
        if since is not None and date.fromisoformat(session.created_at[:10]) < since:
            continue
        who = [names[p.casefold()] for p in session.players]
        stats = [entry(name) for name in who]
        seats = range(len(who))
        best = [0] * len(who)  # each seat's biggest gain in one deal of this session (0: none yet)...
        best_at = [0] * len(who)  # ...and the deal where it came first
        worst = [0] * len(who)
        worst_at = [0] * len(who)
        entered: dict[tuple, int] = {}  # how often each distinct entry was played, in order of first play
        before = (0,) * len(who)
        final = None
        for row in read.deal_rows(conn, session):  # streamed
            after = read.kept(row.balances)
            for seat in seats:
                change = after[seat] - before[seat]
                if change > best[seat]:
                    best[seat], best_at[seat] = change, row.number
                elif change < worst[seat]:
                    worst[seat], worst_at[seat] = change, row.number
            before = after
            final = row
            entered[row.entry] = entered.get(row.entry, 0) + 1
        deals = sum(entered.values())
        for seat, e in enumerate(stats):
            e.sessions += 1
            e.deals += deals
            if best[seat] and (e.biggest_win is None or best[seat] > e.biggest_win.chips):
                e.biggest_win = Swing(best[seat], session.id, best_at[seat])
            if worst[seat] and (e.biggest_loss is None or worst[seat] < e.biggest_loss.chips):
                e.biggest_loss = Swing(worst[seat], session.id, worst_at[seat])
        deal_of = entry_reader(session)
        for key, times in entered.items():
            deal = deal_of(key)
            if deal.contract == PASS or deal.declarer is None:
                continue
            made = int(bool(engine.made(session.tariff, deal)))
            e = stats[deal.declarer]
            kind = e.declared.get(deal.contract)
            if kind is None:
                kind = e.declared[deal.contract] = Declared()
            kind.declared += times
            kind.made += made * times
            e.declared_total += times
            e.made_total += made * times
            if deal.partner is not None:
                pair = tuple(sorted((who[deal.declarer], who[deal.partner]), key=str.casefold))
                record = pairs.setdefault(pair, [0, 0])
                record[0] += times
                record[1] += made * times
        if final is not None:
            share = Fraction(final.basket or 0, len(who)) if session.tariff.has_basket else 0
            for seat, e in enumerate(stats):
                e.net_chips += before[seat] + share
        if session.settled:
            result = read.settlement(conn, session)
            for e, cents in zip(stats, result.cents):
                e.money[session.currency] = e.money.get(session.currency, 0) + cents
    partnerships = [Partnership(p, d, m) for p, (d, m) in pairs.items()]
    if wanted is not None:
        per = {wanted: per[wanted]}
        partnerships = [p for p in partnerships if wanted in p.players]
    ranked = sorted(partnerships, key=lambda p: (-p.success_rate, -p.deals, p.players))
    return Stats(per, ranked, ranked[0] if ranked else None,
                 min(ranked, key=lambda p: (p.success_rate, -p.deals, p.players)) if len(ranked) > 1 else None)
