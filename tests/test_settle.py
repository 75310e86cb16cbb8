"""Settlement: the basket shared, money to the cent summing to zero, the fewest payments."""

from __future__ import annotations

import itertools
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boston_ledger.core import settlement
from boston_ledger.core.settlement import fewest_payments
from conftest import PLAYERS
from test_cli import WORKED


def brute_force_minimum(cents: list[int]) -> int:
    """The fewest payments by the textbook bound: nonzero people minus the most zero-sum groups."""
    people = [c for c in cents if c]
    best = 0
    # try every assignment of people to groups (tiny n only)
    for labels in itertools.product(range(len(people)), repeat=len(people)):
        groups: dict[int, int] = {}
        for label, c in zip(labels, people, strict=True):
            groups[label] = groups.get(label, 0) + c
        if all(v == 0 for v in groups.values()):
            best = max(best, len(groups))
    return len(people) - best


def rebuild(payments, n: int) -> list[int]:
    got = [0] * n
    for p in payments:
        assert p.cents > 0 and p.payer != p.payee
        got[p.payer] -= p.cents
        got[p.payee] += p.cents
    return got


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(-5000, 5000), min_size=3, max_size=3), st.integers(0, 400),
       st.sampled_from(["0.10", "0.01", "1", "0.333", "2.5", "0.07"]))
def test_money_sums_to_zero_and_payments_rebuild_it(three: list[int], basket: int, value: str) -> None:
    balances = [*three, -sum(three) - basket]
    result = settlement.settled("ABCD", balances, basket, 1, Decimal(value), "")
    nets = settlement.net_chips(balances, basket)
    assert all(abs(shown - net) < 1e-9 for shown, net in zip(result.net_chips, nets, strict=True))  # whole or a float
    assert sum(result.cents) == 0
    for net, cents in zip(nets, result.cents, strict=True):
        assert abs(net * Fraction(Decimal(value)) * 100 - cents) < 1  # rounded, never by a cent or more
    assert rebuild(result.payments, 4) == list(result.cents)
    assert len(result.payments) == brute_force_minimum(list(result.cents)) <= 3


def test_pairs_that_cancel_take_two_payments() -> None:
    payments = settlement.fewest_payments([500, -500, 300, -300])
    assert len(payments) == 2  # greedy largest-to-largest would need 3


def test_money_format() -> None:
    assert [settlement.money(c) for c in (1230, -5, 0, -120)] == ["12.30", "-0.05", "0.00", "-1.20"]


def test_settle_through_the_cli(table) -> None:
    for args in WORKED:
        table(*args)
    table("deal", "pass")  # a new stake (40), doubled: 80 left to share out
    result = table.json("settle")
    assert set(result) >= {"net_chips", "money", "payments"}
    assert result["basket"] == 80
    # balances after deal 4: each paid stake 10 and a quarter of 40
    assert result["net_chips"] == {"Anna": 64 - 20 + 20, "Boris": -12 - 20 + 20,
                                   "Vera": -40 - 20 + 20, "Gleb": -12 - 20 + 20}
    assert all(type(chips) is int for chips in result["net_chips"].values())  # whole chips print as 44, not 44.0
    assert result["money"] == {"Anna": "6.40", "Boris": "-1.20", "Vera": "-4.00", "Gleb": "-1.20"}
    assert (result["chip_value"], result["deals"]) == ("0.10", 4)  # the three of the worked example and the pass
    assert sum(Decimal(m) for m in result["money"].values()) == 0
    paid = dict.fromkeys(PLAYERS, Decimal(0))
    for p in result["payments"]:
        paid[p["from"]] -= Decimal(p["amount"])
        paid[p["to"]] += Decimal(p["amount"])
    assert {k: str(v) for k, v in paid.items()} == result["money"]
    assert len(result["payments"]) == 3
    # settled: shown again unchanged, and no more deals or undos
    assert table.json("settle") == result
    err = table("deal", "pass", code=2).stderr
    assert "settled" in err and err.count("\n") == 1
    table("undo", code=2)
    assert table.json("status")["settled"] is True


@pytest.mark.parametrize("cents, payments", [
    ([-1, 1, 0, 0], [(0, 1, 1)]),  # a cent each way; those at zero neither pay nor are paid
    ([0, -1, 2, -1], [(1, 2, 1), (3, 2, 1)]),
    ([5, -3, -2, 0, 1, -1], [(1, 0, 3), (2, 0, 2), (5, 4, 1)]),
])
def test_the_smallest_amounts_are_paid_and_nobody_at_zero_pays(cents: list[int], payments: list[tuple]) -> None:
    assert [(p.payer, p.payee, p.cents) for p in fewest_payments(cents)] == payments


def test_fractional_basket_share_rounds_to_the_cent(cli) -> None:
    cli("new", *PLAYERS, "--chip-value", "0.01", "--currency", "rub")
    cli("deal", "junior", "--declarer", "Boris", "--tricks", "3")  # basket 40 to three: 13 each, 1 stays
    cli("deal", "pass")  # stake again: 41, doubled to 82 (the dealer Boris pays 11)
    status = cli.json("status")
    assert status["balances"] == {"Anna": -11, "Boris": -49, "Vera": -11, "Gleb": -11}
    assert status["basket"] == 82
    result = cli.json("settle")
    assert result["net_chips"] == {"Anna": 9.5, "Boris": -28.5, "Vera": 9.5, "Gleb": 9.5}
    # exact 0.095 / -0.285: two cents go to the largest remainders, earlier seats first
    assert result["money"] == {"Anna": "0.10", "Boris": "-0.28", "Vera": "0.09", "Gleb": "0.09"}
    assert result["currency"] == "RUB"


def test_settle_text_lists_payments(table) -> None:
    for args in WORKED:
        table(*args)
    out = table("settle").stdout
    assert "Settlement of session 1" in out
    assert "Vera pays Anna 4.00" in out
