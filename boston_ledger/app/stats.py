"""Statistics across sessions: who declared what, how often it was made, who wins with whom.

Chips are worth what each session agreed (its chip value, in its currency): what is added up or
compared across sessions is money, per currency, never chips of different values."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from ..core import engine
from ..core.engine import Deal
from ..core.tariff import PASS, Tariff
from ..store import read
from .inputs import name_key
from .money import people, person


@dataclass(frozen=True)
class Swing:
    """A player's biggest gain or loss in one deal, by its money (the chips at their session's value)."""

    chips: int
    money: Decimal
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
    money: dict[str, int] = field(default_factory=dict)  # the net: cents by currency, over settled sessions
    biggest_win: dict[str, Swing] = field(default_factory=dict)  # by currency
    biggest_loss: dict[str, Swing] = field(default_factory=dict)

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


MIN_PARTNERSHIP_DEALS = 5  # deals played together before a partnership is called best or worst


@dataclass(frozen=True)
class Stats:
    players: dict[str, PlayerStats]
    partnerships: list[Partnership]  # the most successful first
    best: Partnership | None  # of those with at least `min_deals` deals together
    worst: Partnership | None  # another one, less successful than the best; None when none is
    min_deals: int = MIN_PARTNERSHIP_DEALS
    settled: int = 0  # the sessions counted that are settled: the money covers these
    unsettled: int = 0  # the sessions counted that are not (their deals count, not their money)
    named_by: dict[str, Tariff] = field(default_factory=dict)  # a contract's key -> the tariff whose words
    # name it: that of the first session it was declared in (american's grand-misere is not classic's)


def collect(conn: sqlite3.Connection, player: str | None = None, since: date | None = None,
            min_deals: int = MIN_PARTNERSHIP_DEALS) -> Stats:
    """Everything `stats` shows. Each deal's change per player is the difference of the balances
    kept with it and with the deal before (the sum of its transfers, which `check` holds).

    A session's deals are read once, as a stream, and each is looked at only for what differs
    from deal to deal (the balances kept with it); what the players entered is counted by
    distinct entry and scored once per entry, after the session's last deal."""
    names = people(conn)
    wanted = None if player is None else person(names, player, "--player")
    per: dict[str, PlayerStats] = {}
    pairs: dict[tuple[str, str], list[int]] = {}

    def entry(name: str) -> PlayerStats:
        found = per.get(name)
        if found is None:
            found = per[name] = PlayerStats()
        return found

    if wanted is not None:
        entry(wanted)
    counted = [0, 0]  # sessions not settled, settled
    named_by: dict[str, Tariff] = {}
    for session in read.sessions(conn):
        if session.demo or (since is not None and date.fromisoformat(session.created_at[:10]) < since):
            continue
        who = {p: names[name_key(session.people[p])] for p in session.present}  # by person of the session
        stats = {p: entry(name) for p, name in who.items()}
        n = session.tariff.players
        best: dict[int, tuple[int, int]] = {}  # each account's biggest gain in one deal of this session, and where
        worst: dict[int, tuple[int, int]] = {}
        sat = dict.fromkeys(who, 0)  # the deals each person played
        entered: dict[tuple[Deal, tuple[tuple[int, int], ...]], int] = {}  # each distinct deal, with who sat where
        before = (0,) * n
        changed = bool(session.seatings)  # a seat's balance is its account's: read what each deal moved
        for row in read.deals(conn, session, transfers=changed):  # streamed
            table = session.table(row.number)
            moved = engine.moves(row.transfers, n)[:n] if changed else \
                [a - b for a, b in zip(row.balances, before, strict=True)]
            for seat, change in enumerate(moved):
                account = table[seat][1]
                if change > best.get(account, (0, 0))[0]:
                    best[account] = (change, row.number)
                elif change < worst.get(account, (0, 0))[0]:
                    worst[account] = (change, row.number)
                sat[table[seat][0]] += 1
            before = row.balances
            entered[(row.deal, table)] = entered.get((row.deal, table), 0) + 1
        code = session.currency
        for someone, e in stats.items():
            e.sessions += 1
            e.deals += sat[someone]
            gained, lost = best.get(someone), worst.get(someone)
            win = e.biggest_win.get(code)
            if gained and (win is None or worth(gained[0], session.chip_value) > win.money):
                e.biggest_win[code] = Swing(gained[0], worth(gained[0], session.chip_value), session.id, gained[1])
            loss = e.biggest_loss.get(code)
            if lost and (loss is None or worth(lost[0], session.chip_value) < loss.money):
                e.biggest_loss[code] = Swing(lost[0], worth(lost[0], session.chip_value), session.id, lost[1])
        for (deal, table), times in entered.items():
            if deal.contract == PASS or deal.declarer is None:
                continue
            made = int(bool(engine.made(session.tariff, deal)))
            e = stats[table[deal.declarer][0]]
            named_by.setdefault(deal.contract, session.tariff)
            kind = e.declared.get(deal.contract)
            if kind is None:
                kind = e.declared[deal.contract] = Declared()
            kind.declared += times
            kind.made += made * times
            e.declared_total += times
            e.made_total += made * times
            if deal.partner is not None:
                first, second = sorted((who[table[deal.declarer][0]], who[table[deal.partner][0]]), key=str.casefold)
                record = pairs.setdefault((first, second), [0, 0])
                record[0] += times
                record[1] += made * times
        if wanted is None or wanted in who.values():
            counted[session.settled] += 1
        result = read.settlement(conn, session)
        if result is not None:  # settled: the money as the settlement has it, per person
            for name, cents in zip(result.players, result.cents, strict=True):
                e = entry(names[name_key(name)])
                e.money[code] = e.money.get(code, 0) + cents
    partnerships = [Partnership(p, d, m) for p, (d, m) in pairs.items()]
    if wanted is not None:
        per = {wanted: per[wanted]}
        partnerships = [p for p in partnerships if wanted in p.players]
    ranked = sorted(partnerships, key=lambda p: (-p.success_rate, -p.deals, p.players))
    best_pair, worst_pair = ranked_ends(ranked, min_deals)
    return Stats(per, ranked, best_pair, worst_pair, min_deals, counted[1], counted[0], named_by)


def worth(chips: int, chip_value: Decimal) -> Decimal:
    """Chips as money at their session's value: to the cent at least (52 at 1 is 52.00), exactly
    (3 at 0.005 is 0.015)."""
    value = chips * chip_value
    exponent = value.as_tuple().exponent
    return value.quantize(CENT) if isinstance(exponent, int) and exponent > -2 else value


CENT = Decimal("0.01")


def ranked_ends(ranked: list[Partnership], min_deals: int) -> tuple[Partnership | None, Partnership | None]:
    """The most and the least successful of the partnerships with `min_deals` deals together or
    more: never the same pair, and the least only when it did worse than the most."""
    enough = [p for p in ranked if p.deals >= min_deals]
    if not enough:
        return None, None
    best = enough[0]
    worst = min(enough[1:], key=lambda p: (p.success_rate, -p.deals, p.players), default=None)
    return best, worst if worst is not None and worst.success_rate < best.success_rate else None
