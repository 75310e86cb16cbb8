"""The ladders of a tariff: a contract ranked higher never pays less when made, nor costs less
when failed, than a lower contract of the same form at the same number of tricks.

A tariff's `ladders` list its contracts from the lowest to the highest, ladder by ladder (the
trick contracts in the order of purchases, the misères in theirs). Two contracts of one ladder
are compared when they are of the same form: the same way (alone, or with a partner, at the
pair's tricks together) and the same kind (a trick table, or a misère made on no trick), the
higher one in a suit ranked no lower (its rank's multiplier no smaller), at every number of
tricks where both are made or both failed. Nothing here changes what a deal pays: `tariffs
check` warns, a test holds the shipped tariffs to it.

Where a source's own tables break a ladder (Foster's Fontainebleau pays a bid in clubs less
than the bid below it in diamonds), the tariff lists the pair in `ladder_exceptions`: its
breaches are the source's, listed by `tariffs check` and `tariffs show`, not warned of.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from . import engine
from .i18n import _, contract_name, ngettext, rank_name
from .tariff import Contract, Schedule, Tariff

WAYS = ("alone", "with_partner")


@dataclass(frozen=True)
class Breach:
    """A higher contract paying less made (or costing less failed) than a lower one."""

    tariff: Tariff
    lower: str
    higher: str
    way: str
    lower_rank: str | None
    higher_rank: str | None
    tricks: int
    made: bool
    low: int  # chips per opponent of the lower contract
    high: int

    def __str__(self) -> str:
        t = self.tariff

        def named(key: str, rank: str | None) -> str:
            return contract_name(t, key) + (f" ({rank_name(t, rank)})" if rank and rank != key else "")

        values = {"higher": named(self.higher, self.higher_rank), "lower": named(self.lower, self.lower_rank),
                  "high": self.high, "low": self.low,
                  "way": _("with a partner") if self.way == "with_partner" else _("alone")}
        return (ngettext("ladders: {higher}, {way}, made with {n} trick pays {high}, less than the lower "
                         "{lower}'s {low}", "ladders: {higher}, {way}, made with {n} tricks pays {high}, less than the "
                         "lower {lower}'s {low}", self.tricks, **values) if self.made else
                ngettext("ladders: {higher}, {way}, failed with {n} trick costs {high}, less than the lower "
                         "{lower}'s {low}", "ladders: {higher}, {way}, failed with {n} tricks costs {high}, less than "
                         "the lower {lower}'s {low}", self.tricks, **values))


def amount(tariff: Tariff, schedule: Schedule, rank: str | None, taken: int) -> tuple[bool, int]:
    """Whether a contract is made with `taken` tricks, and the chips each opponent receives or pays
    (the rank's multiplier included, in a simple tour)."""
    made, pay = engine.lines(schedule, taken, tariff.tricks, rank)
    return made, sum(chips for __, chips in pay) * (tariff.ranks[rank].multiplier if rank else 1)


def breaches(tariff: Tariff) -> list[Breach]:
    """Where the tariff's ladders do not hold, besides the exceptions it lists as its source's: the
    first trick count of each pair of contracts (and way and ranks) that breaks them."""
    return [b for b in _all(tariff) if (b.lower, b.higher) not in tariff.ladder_exceptions]


def exceptions(tariff: Tariff) -> list[Breach]:
    """The breaches the tariff lists as its source's own (`ladder_exceptions`)."""
    return [b for b in _all(tariff) if (b.lower, b.higher) in tariff.ladder_exceptions]


def _all(tariff: Tariff) -> list[Breach]:
    out = []
    for ladder in tariff.ladders:
        present = [key for key in ladder if key in tariff.contracts]
        for i, lower in enumerate(present):
            for higher in present[i + 1:]:
                out += _compare(tariff, lower, higher)
    return out


def unknown(tariff: Tariff, known: set[str]) -> list[str]:
    """The names in the ladders that are no contract in `known` (the tariff's and its conditions')."""
    return [key for ladder in tariff.ladders for key in ladder if key not in known]


def _pairs(tariff: Tariff, low: Contract, high: Contract) -> Iterator[tuple[str | None, str | None]]:
    def multiplier(rank: str | None) -> int:
        return tariff.ranks[rank].multiplier if rank else 1

    for a in low.ranks or (None,):
        for b in high.ranks or (None,):
            if multiplier(b) >= multiplier(a):
                yield a, b


def _compare(tariff: Tariff, lower: str, higher: str) -> list[Breach]:
    low, high = tariff.contracts[lower], tariff.contracts[higher]
    out = []
    for way in WAYS:
        a_schedule, b_schedule = getattr(low, way), getattr(high, way)
        if a_schedule is None or b_schedule is None or a_schedule.kind != b_schedule.kind:
            continue
        for a, b in _pairs(tariff, low, high):
            for taken in range(tariff.tricks, -1, -1):
                a_made, a_chips = amount(tariff, a_schedule, a, taken)
                b_made, b_chips = amount(tariff, b_schedule, b, taken)
                if a_made == b_made and b_chips < a_chips:
                    out.append(Breach(tariff, lower, higher, way, a, b, taken, a_made, a_chips, b_chips))
                    break
    return out
