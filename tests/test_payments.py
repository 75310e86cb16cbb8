"""The fewest payments between people, from a table of four to a club's ledger of a thousand:
every result cleared to the cent, never more than n - 1 payments, the exact minimum where it is
cheap to find, and the same payments every time."""

from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boston_ledger.core.settlement import fewest_payments


def most_zero_sum_groups(values: tuple[int, ...]) -> int:
    """The oracle: the most groups summing to zero that `values` split into, by trying, for the
    first of them, every group he can be in (3**n work: small n only)."""

    @cache
    def most(left: frozenset[int]) -> int:
        if not left:
            return 0
        first, *others = sorted(left)
        best = -1
        for mask in range(1 << len(others)):
            group = {first, *(o for i, o in enumerate(others) if mask >> i & 1)}
            if sum(values[i] for i in group) == 0:
                rest = most(left - group)
                if rest >= 0:
                    best = max(best, 1 + rest)
        return best

    return most(frozenset(range(len(values))))


def minimum(cents: list[int]) -> int:
    people = tuple(c for c in cents if c)
    return len(people) - most_zero_sum_groups(people)


def balanced(values: list[int]) -> list[int]:
    """The values with one more person who makes them sum to zero."""
    return [*values, -sum(values)]


def assert_clears(cents: list[int], payments) -> None:
    """The payments bring every result to zero exactly; only debtors pay, only creditors are paid."""
    left = list(cents)
    for p in payments:
        assert p.cents > 0 and cents[p.payer] < 0 < cents[p.payee], p
        left[p.payer] += p.cents
        left[p.payee] -= p.cents
    assert left == [0] * len(cents)
    assert len(payments) <= max(0, sum(1 for c in cents if c) - 1)


small = st.lists(st.sampled_from([0, 1, 2, 3, 5, 7, 10, 100, 250]).flatmap(
    lambda v: st.sampled_from([v, -v])), min_size=1, max_size=8).map(balanced)
wide = st.lists(st.integers(-10**9, 10**9), min_size=1, max_size=8).map(balanced)


nonzero = st.integers(-30, 30).filter(bool)
planted = st.lists(st.lists(nonzero, min_size=2, max_size=4).map(balanced).filter(all), min_size=2, max_size=3).map(
    lambda groups: [c for g in groups for c in g]).filter(lambda cents: len(cents) <= 10).flatmap(st.permutations)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.one_of(small, wide, planted))
def test_few_people_get_the_exact_minimum(cents: list[int]) -> None:
    payments = fewest_payments(cents)
    assert_clears(cents, payments)
    assert len(payments) == minimum(cents)
    assert fewest_payments(tuple(cents)) == payments  # the same every time


crowd = st.lists(st.one_of(st.integers(-50, 50), st.integers(-10**6, 10**6)), min_size=10, max_size=80).map(balanced)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(crowd)
def test_a_crowd_is_cleared_in_at_most_n_minus_one_payments(cents: list[int]) -> None:
    payments = fewest_payments(cents)
    assert_clears(cents, payments)
    assert fewest_payments(list(cents)) == payments


def test_a_club_of_200_and_of_1000_is_settled() -> None:
    """A club's `ledger` covers everyone who ever played: the search is bounded by a count of
    steps, so that this completes whatever the machine."""
    rng = random.Random(12)
    for n in (200, 1000):
        cents = balanced([rng.randint(-50_000, 50_000) for __ in range(n - 1)])
        payments = fewest_payments(cents)
        assert_clears(cents, payments)
        assert len(payments) < n - 1  # groups of three that cancel were found among so many
        assert fewest_payments(cents) == payments


def test_equal_and_opposite_amounts_pay_each_other() -> None:
    rng = random.Random(3)
    amounts = [rng.randint(1, 10**6) for __ in range(500)]
    cents = amounts + [-a for a in amounts]
    rng.shuffle(cents)
    payments = fewest_payments(cents)
    assert_clears(cents, payments)
    assert len(payments) == 500  # one payment per pair, the least there can be


def test_groups_of_three_beyond_the_exact_search() -> None:
    """Fifteen people, no two cancelling: more than the exact search takes. The five groups of
    three that cancel are still found: ten payments, the least there can be (the biggest debtor
    paying the biggest creditor over all fifteen would make fourteen)."""
    rng = random.Random(4)
    cents = []
    for __ in range(5):
        a, b = rng.randint(1, 10**6), rng.randint(1, 10**6)
        cents += [a, b, -(a + b)]
    rng.shuffle(cents)
    payments = fewest_payments(cents)
    assert_clears(cents, payments)
    assert len(payments) == 10


def test_a_table_of_four_pays_as_before() -> None:
    """Where two pairs cancel, each pays the other of his pair: the payments `settle` has always
    shown for a table of four."""
    pays = [(p.payer, p.payee, p.cents) for p in fewest_payments([500, -500, -500, 500])]
    assert pays == [(2, 0, 500), (1, 3, 500)]
    pays = [(p.payer, p.payee, p.cents) for p in fewest_payments([-700, 300, 500, -100])]
    assert pays == [(0, 2, 500), (0, 1, 200), (3, 1, 100)]
