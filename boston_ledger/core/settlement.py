"""Settlement: share the basket, turn chips into money to the cent, and the fewest payments.

Pure arithmetic on exact fractions; money is in integer cents.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from typing import Sequence


@dataclass(frozen=True)
class Payment:
    payer: int
    payee: int
    cents: int


@dataclass(frozen=True)
class Settlement:
    net_chips: tuple[Fraction, ...]
    cents: tuple[int, ...]
    payments: tuple[Payment, ...]


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

    def record(self) -> dict:
        """The settlement as the ledger keeps it and `settle --json` prints it."""
        name = self.players
        return {
            "net_chips": dict(zip(name, self.net_chips)),
            "money": {n: money(c) for n, c in zip(name, self.cents)},
            "payments": [{"from": name[p.payer], "to": name[p.payee], "amount": money(p.cents)}
                         for p in self.payments],
            "basket": self.basket,
            "chip_value": self.chip_value,
            "currency": self.currency,
            "deals": self.deals,
        }

    @classmethod
    def from_record(cls, players: Sequence[str], record: dict) -> Settled:
        """A kept settlement read back (`record` is what `record()` wrote)."""
        seat = {n: i for i, n in enumerate(players)}
        return cls(
            players=tuple(players), net_chips=tuple(record["net_chips"][n] for n in players),
            cents=tuple(cents_of(record["money"][n]) for n in players),
            payments=tuple(Payment(seat[p["from"]], seat[p["to"]], cents_of(p["amount"])) for p in record["payments"]),
            basket=record["basket"], chip_value=record["chip_value"], currency=record["currency"],
            deals=record["deals"],
        )


def net_chips(balances: Sequence[int], basket: int) -> tuple[Fraction, ...]:
    """Each player's balance plus an equal share of the basket."""
    share = Fraction(basket, len(balances))
    return tuple(b + share for b in balances)


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


def fewest_payments(cents: Sequence[int]) -> tuple[Payment, ...]:
    """The fewest payments that bring every result to zero.

    With k people not at zero, the minimum is k minus the largest number of groups the
    results can be split into that each sum to zero; the search finds that split exactly
    (cheap for a table of players), then each group of m settles in m - 1 payments.
    """
    people = [i for i, c in enumerate(cents) if c]
    groups = _best_split(tuple(cents[i] for i in people))
    payments: list[Payment] = []
    for group in groups:
        left = {people[i]: cents[people[i]] for i in group}
        while any(left.values()):
            debtor = min(left, key=lambda p: (left[p], p))
            creditor = max(left, key=lambda p: (left[p], -p))
            amount = min(-left[debtor], left[creditor])
            payments.append(Payment(debtor, creditor, amount))
            left[debtor] += amount
            left[creditor] -= amount
    return tuple(payments)


def _best_split(values: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The most groups of indices into `values` that each sum to zero and cover them all."""

    @lru_cache(maxsize=None)
    def best(mask: int) -> tuple[tuple[int, ...], ...]:
        if not mask:
            return ()
        first = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << first)
        choice: tuple[tuple[int, ...], ...] | None = None
        sub = rest
        while True:  # every subset of `rest`, joined with `first`
            group = sub | (1 << first)
            members = tuple(i for i in range(len(values)) if group >> i & 1)
            if sum(values[i] for i in members) == 0:
                candidate = (members,) + best(mask & ~group)
                if choice is None or len(candidate) > len(choice):
                    choice = candidate
            if sub == 0:
                break
            sub = (sub - 1) & rest
        assert choice is not None, "results that do not sum to zero"
        return choice

    return list(best((1 << len(values)) - 1))


def settle(balances: Sequence[int], basket: int, chip_value: Decimal) -> Settlement:
    nets = net_chips(balances, basket)
    cents = to_cents(nets, chip_value)
    return Settlement(nets, cents, fewest_payments(cents))


def settled(players: Sequence[str], balances: Sequence[int], basket: int, deals: int, chip_value: Decimal,
            currency: str) -> Settled:
    """The settlement of a session that stands at these balances and basket after `deals` deals."""
    result = settle(balances, basket, chip_value)
    return Settled(tuple(players), tuple(_number(n) for n in result.net_chips), result.cents, result.payments,
                   basket, str(chip_value), currency, deals)


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
