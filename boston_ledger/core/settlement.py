"""Settlement: share the basket, turn chips into money to the cent, and the fewest payments.

Pure arithmetic on exact fractions; money is in integer cents.
"""

from __future__ import annotations

import bisect
import heapq
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any


@dataclass(frozen=True)
class Payment:
    payer: int
    payee: int
    cents: int


@dataclass(frozen=True)
class Settled:
    """A session's settlement as it is kept and shown: per player in seat order his net chips
    (a basket share may make them fractional) and money in cents, and the payments by seat."""

    players: tuple[str, ...]
    net_chips: tuple[int | float, ...]
    cents: tuple[int, ...]
    payments: tuple[Payment, ...]
    basket: int
    chip_value: str
    currency: str
    deals: int

    def record(self) -> dict[str, Any]:
        """The settlement as the ledger keeps it and `settle` prints it as JSON."""
        name = self.players
        return {
            "net_chips": dict(zip(name, self.net_chips, strict=True)),
            "money": {n: money(c) for n, c in zip(name, self.cents, strict=True)},
            "payments": [{"from": name[p.payer], "to": name[p.payee], "amount": money(p.cents)}
                         for p in self.payments],
            "basket": self.basket,
            "chip_value": self.chip_value,
            "currency": self.currency,
            "deals": self.deals,
        }

    @classmethod
    def from_record(cls, players: Sequence[str], record: dict[str, Any]) -> Settled:
        """A kept settlement read back (`record` is what `record()` wrote)."""
        seat = {n: i for i, n in enumerate(players)}
        return cls(
            players=tuple(players), net_chips=tuple(record["net_chips"][n] for n in players),
            cents=tuple(cents_of(record["money"][n]) for n in players),
            payments=tuple(Payment(seat[p["from"]], seat[p["to"]], cents_of(p["amount"])) for p in record["payments"]),
            basket=record["basket"], chip_value=record["chip_value"], currency=record["currency"],
            deals=record["deals"],
        )


def net_chips(balances: Sequence[int], basket: int, sharing: Sequence[bool] | None = None) -> tuple[Fraction, ...]:
    """Each player's balance plus an equal share of the basket (only those `sharing` it, when
    given: the players at the table, not those who left it with their share)."""
    shares = [True] * len(balances) if sharing is None else list(sharing)
    share = Fraction(basket, sum(shares))
    return tuple(b + share if takes else Fraction(b) for b, takes in zip(balances, shares, strict=True))


def to_cents(nets: Sequence[Fraction], chip_value: Decimal) -> tuple[int, ...]:
    """Money in cents, rounded by largest remainder so the results still sum to zero.

    Ties go to the earlier seat, so the result is the same every time.
    """
    exact = [n * Fraction(chip_value) * 100 for n in nets]
    floors = [x.numerator // x.denominator for x in exact]
    missing = -sum(floors)  # sum(exact) is zero, so this is the number of cents to hand out
    order = sorted(range(len(exact)), key=lambda i: (-(exact[i] - floors[i]), i))
    cents = list(floors)
    for i in order[:missing]:
        cents[i] += 1
    return tuple(cents)


# The work the exact search may do, in steps (one step: one person looked at in one group of
# people): a count, not a time, so that the same results give the same payments on any machine.
# 2**18 covers up to 14 people not at zero, after equal and opposite amounts are paired off.
EXACT_STEPS = 1 << 18
# The work the search for groups of three that cancel may do, in pairs of people looked at: all
# pairs of 2,000 people; above that the search stops where the budget ends.
TRIPLE_STEPS = 2_000_000


def fewest_payments(cents: Sequence[int]) -> tuple[Payment, ...]:
    """The fewest payments that bring every result to zero, or close to it for a crowd.

    With k people not at zero, k - g payments settle them, where g is the number of groups they
    are split into that each sum to zero: each group of m settles in m - 1 payments, the biggest
    debtor paying the biggest creditor. `zero_sum_groups` finds the most groups exactly for a
    table of players, and as many as it can cheaply for a club's ledger: never more than
    n - 1 payments, every result cleared to the cent, the same payments every time.
    """
    people = [i for i, c in enumerate(cents) if c]
    payments: list[Payment] = []
    for group in zero_sum_groups([cents[i] for i in people]):
        payments += _pay_off([people[i] for i in group], cents)
    return tuple(payments)


def _pay_off(group: list[int], cents: Sequence[int]) -> list[Payment]:
    """The payments that clear a group whose results sum to zero: the biggest debtor pays the
    biggest creditor what he can (ties: the earlier person), until all are at zero; each payment
    clears one of the two, the last one both, so a group of m makes at most m - 1."""
    debtors = [(cents[p], p) for p in group if cents[p] < 0]  # most owed first
    creditors = [(-cents[p], p) for p in group if cents[p] > 0]  # most due first
    heapq.heapify(debtors)
    heapq.heapify(creditors)
    out = []
    while debtors:
        owes, debtor = heapq.heappop(debtors)
        due, creditor = heapq.heappop(creditors)
        amount = min(-owes, -due)
        out.append(Payment(debtor, creditor, amount))
        if owes + amount:
            heapq.heappush(debtors, (owes + amount, debtor))
        if due + amount:
            heapq.heappush(creditors, (due + amount, creditor))
    assert not creditors, "results that do not sum to zero"
    return out


def zero_sum_groups(values: Sequence[int]) -> list[tuple[int, ...]]:
    """Indices into `values` (none zero, summing to zero) split into groups that each sum to
    zero, as many as can be found, in the order of their first members.

    1. Equal and opposite amounts are paired off: some best split always has such a pair as a
       group of its own.
    2. When what is left is small enough for the budget (EXACT_STEPS), the most groups are found
       exactly, and the split is the best there is.
    3. Otherwise groups of three that cancel are taken greedily, in the order of their members
       (within TRIPLE_STEPS), then what is left is split exactly if it now fits the budget, or
       else settles as one group.
    """
    assert sum(values) == 0, "results that do not sum to zero"
    groups, left = _opposites(values)
    if _fits(left):
        return sorted(groups + _most_groups(values, left))
    found, left = _triples(values, left)
    groups += found
    groups += _most_groups(values, left) if _fits(left) else [tuple(left)] if left else []
    return sorted(groups)


def _fits(left: list[int]) -> bool:
    return len(left) * (1 << len(left)) <= EXACT_STEPS


def _opposites(values: Sequence[int]) -> tuple[list[tuple[int, ...]], list[int]]:
    """Pairs of equal and opposite amounts, each person in order with the last one after him who
    cancels him and is not paired yet; and everybody else, in order."""
    waiting: dict[int, deque[int]] = {}  # by amount, the people of that amount not yet paired, in order
    for i, v in enumerate(values):
        waiting.setdefault(v, deque()).append(i)
    paired: list[tuple[int, ...]] = []
    rest: list[int] = []
    taken: set[int] = set()
    for i, v in enumerate(values):
        if i in taken:  # paired with somebody before him
            continue
        waiting[v].popleft()  # himself: all before him are paired or left over
        partners = waiting.get(-v)
        if partners:
            j = partners.pop()
            taken.add(j)
            paired.append((i, j))
        else:
            rest.append(i)
    return paired, rest


def _triples(values: Sequence[int], left: list[int]) -> tuple[list[tuple[int, ...]], list[int]]:
    """Groups of three whose amounts cancel, taken greedily: each person in order with the first
    two after him that complete a group (within TRIPLE_STEPS pairs looked at); and everybody
    else, in order."""
    where: dict[int, list[int]] = {}  # by amount, the people of that amount still free, in order
    for i in left:
        where.setdefault(values[i], []).append(i)
    used: set[int] = set()
    found: list[tuple[int, ...]] = []
    steps = 0
    for x, a in enumerate(left):
        if a in used:
            continue
        for b in left[x + 1:]:
            steps += 1
            if steps > TRIPLE_STEPS:
                break
            if b in used:
                continue
            third = where.get(-values[a] - values[b], [])
            at = bisect.bisect_right(third, b)
            if at < len(third):
                group = (a, b, third[at])
                for i in group:
                    where[values[i]].remove(i)
                used.update(group)
                found.append(group)
                break
        if steps > TRIPLE_STEPS:
            break
    return found, [i for i in left if i not in used]


def _most_groups(values: Sequence[int], members: list[int]) -> list[tuple[int, ...]]:
    """The most groups summing to zero that `members` (summing to zero) split into, exactly.

    most[mask] is the most zero-sum groups that the people of `mask` make when it is peeled one
    person at a time and each zero-sum mask on the way closes a group: the best over the masks
    one person smaller, plus one when `mask` itself sums to zero (k * 2**k steps for k people).
    Peeling everybody the best way passes the zero-sum masks whose differences are the groups.
    """
    k = len(members)
    amounts = [values[i] for i in members]
    total = [0] * (1 << k)
    most = [0] * (1 << k)
    for mask in range(1, 1 << k):
        low = mask & -mask
        total[mask] = total[mask ^ low] + amounts[low.bit_length() - 1]
        best = 0
        rest = mask
        while rest:
            bit = rest & -rest
            if most[mask ^ bit] > best:
                best = most[mask ^ bit]
            rest ^= bit
        most[mask] = best + (total[mask] == 0)
    groups = []
    mask = start = (1 << k) - 1
    while mask:
        bits = [1 << i for i in range(k) if mask >> i & 1]
        mask ^= max(bits, key=lambda bit: most[mask ^ bit])  # the first of the best: the same every time
        if total[mask] == 0:
            groups.append(tuple(members[i] for i in range(k) if (start ^ mask) >> i & 1))
            start = mask
    return groups


def settled(players: Sequence[str], balances: Sequence[int], basket: int, deals: int, chip_value: Decimal,
            currency: str, sharing: Sequence[bool] | None = None) -> Settled:
    """The settlement of a session that stands at these balances and basket after `deals` deals:
    the basket shared (among those `sharing` it), money to the cent, the fewest payments."""
    nets = net_chips(balances, basket, sharing)
    cents = to_cents(nets, chip_value)
    return Settled(tuple(players), tuple(_number(n) for n in nets), cents, fewest_payments(cents), basket,
                   str(chip_value), currency, deals)


def _number(value: Fraction) -> int | float:
    """A chip count for JSON: whole when it is whole (a basket share may be a fraction)."""
    return int(value) if value.denominator == 1 else float(value)


def cents_of(amount: str) -> int:
    """A money string as `money` writes it ('12.30', '-0.05'), in cents."""
    return int(Decimal(amount) * 100)


def money(cents: int) -> str:
    """Cents as a decimal string: 1230 -> '12.30', -5 -> '-0.05'."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"
