"""The basket, labet, boston, tours and the zero-sum invariant, on the pure engine."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from boston_ledger.core import engine, invariants
from boston_ledger.core.engine import BASKET, Deal, State
from boston_ledger.core.tariff_files import load

from strategies import deals

CLASSIC = load("classic")
A, B, V, G = range(4)


def run(*ds: Deal, state: State | None = None) -> State:
    state = state or State.start(4)
    for d in ds:
        state = engine.advance(state, engine.play(CLASSIC, state, d))
    return state


def by_reason(outcome: engine.Outcome, reason: str) -> list[tuple]:
    return [(t.payer, t.payee, t.chips) for t in outcome.transfers if t.reason == reason]


def test_worked_example() -> None:
    s1 = run(Deal("junior", B, G, 5, 4, boston=V))
    assert (s1.balances, s1.basket, s1.stake_due) == ((-20, 16, -12, 16), 0, True)
    s2 = run(Deal("pass"), state=s1)
    assert (s2.balances, s2.basket) == ((-40, -4, -32, -4), 80)
    s3 = run(Deal("senior", A, None, 6), state=s2)
    assert (s3.balances, s3.basket) == ((64, -12, -40, -12), 0)


def test_stake_only_at_start_and_after_the_basket_is_won() -> None:
    s = run(Deal("pass"))
    assert s.basket == 80 and not s.stake_due
    out = engine.play(CLASSIC, s, Deal("pass"))
    assert by_reason(out, "stake") == []
    assert sum(c for *_, c in by_reason(out, "all-pass")) == 80


def test_all_pass_dealer_pays_the_remainder() -> None:
    state = State(balances=(-10, -10, -11, -10), basket=41, deals=1, stake_due=False)  # dealer B
    out = engine.play(CLASSIC, state, Deal("pass"))
    assert by_reason(out, "all-pass") == [(A, BASKET, 10), (V, BASKET, 10), (G, BASKET, 10), (B, BASKET, 11)]


def test_award_remainder_stays_in_the_basket() -> None:
    state = State(balances=(-21, -20, -20, -20), basket=81, deals=1, stake_due=False)
    out = engine.play(CLASSIC, state, Deal("junior", B, G, 5, 3))
    assert by_reason(out, "basket") == [(BASKET, B, 40), (BASKET, G, 40)]
    assert engine.advance(state, out).basket == 1


def test_labet_both_fail_declarer_pays_odd_chip() -> None:
    state = State(balances=(-21, -20, -20, -20), basket=81, deals=1, stake_due=False)
    out = engine.play(CLASSIC, state, Deal("junior", B, G, 4, 2))
    assert by_reason(out, "labet") == [(B, BASKET, 41), (G, BASKET, 40)]
    assert by_reason(out, "consolation") == [(B, A, 2), (B, V, 2), (G, A, 2), (G, V, 2)]
    assert engine.advance(state, out).basket == 162


def test_partner_who_took_his_share_neither_pays_nor_receives() -> None:
    """Boris 2 + Gleb 5 of junior's 7: the pair failed, and Boris, short of his share, pays it all
    (consolation and undertricks to each adversary, the labet), Gleb nothing."""
    out = engine.play(CLASSIC, State.start(4), Deal("junior", B, G, 2, 5))
    after_stakes = [t for t in out.transfers if t.reason != "stake"]
    assert engine.moves(after_stakes, 4) == [4, -48, 4, 0, 40]  # Anna, Boris, Vera, Gleb, the basket
    assert all(G not in (t.payer, t.payee) for t in after_stakes)


def test_failed_lone_purchase_gives_basket_to_opponents() -> None:
    state = State(balances=(-10, -11, -10, -10), basket=41, deals=1, stake_due=False)
    out = engine.play(CLASSIC, state, Deal("junior", B, None, 3))
    assert by_reason(out, "basket") == [(BASKET, A, 13), (BASKET, V, 13), (BASKET, G, 13)]
    assert by_reason(out, "labet") == []
    assert by_reason(out, "consolation") == [(B, A, 2), (B, V, 2), (B, G, 2)]
    after = engine.advance(state, out)
    assert after.basket == 2 and after.stake_due


def test_misere_boston_rules() -> None:
    made = engine.play(CLASSIC, State.start(4), Deal("misere", B, None, 0))
    assert by_reason(made, "boston") == []
    assert by_reason(made, "basket") == [(BASKET, B, 40)]
    failed = engine.play(CLASSIC, State.start(4), Deal("misere", B, None, 1))
    assert by_reason(failed, "boston") == [(B, A, 2), (B, V, 2), (B, G, 2)]
    assert by_reason(failed, "labet") == [(B, BASKET, 40)]


def test_positions_dealer_tours_and_parties() -> None:
    positions = [engine.position(CLASSIC, k) for k in range(81)]
    assert [p.dealer for p in positions[:6]] == [0, 1, 2, 3, 0, 1]
    assert [p.tour for p in positions[:9]] == [1, 1, 1, 1, 2, 2, 2, 2, 3]
    assert all(p.multiplier == 1 for p in positions[:32])
    assert all(p.multiplier == 2 and p.tour in (9, 10) for p in positions[32:40])
    assert (positions[40].partie, positions[40].tour, positions[40].multiplier) == (2, 1, 1)
    assert positions[80].partie == 3


def test_double_tour_doubles_players_not_basket() -> None:
    simple = State.start(4)
    double = State(balances=(0, 0, 0, 0), basket=0, deals=32, stake_due=True)
    d = Deal("junior", B, G, 5, 4, boston=V)
    o1, o2 = engine.play(CLASSIC, simple, d), engine.play(CLASSIC, double, d)
    for reason in ("consolation", "overtricks", "boston"):
        assert [c * 2 for *_, c in by_reason(o1, reason)] == [c for *_, c in by_reason(o2, reason)]
    for reason in ("stake", "basket"):
        assert by_reason(o1, reason) == by_reason(o2, reason)


@settings(max_examples=60, deadline=None)
@given(st.lists(deals(CLASSIC), min_size=1, max_size=120))
def test_zero_sum_after_every_deal(ds: list[Deal]) -> None:
    state = State.start(4)
    for d in ds:
        out = engine.play(CLASSIC, state, d)
        assert all(t.chips > 0 and t.payer != t.payee for t in out.transfers)
        after = engine.advance(state, out)
        assert invariants.imbalance(after) == 0
        # the basket rules, checked from the outside: what it holds after each kind of deal
        staked = state.basket + (40 if state.stake_due else 0)
        assert sum(c for *_, c in by_reason(out, "stake")) == staked - state.basket
        made = engine.made(CLASSIC, d)
        if made is None:
            assert after.basket == 2 * staked and not after.stake_due
        elif made:
            side = 1 + (d.partner is not None)
            assert after.basket == staked % side and after.stake_due
        elif d.partner is None and d.contract in ("junior", "senior"):
            assert after.basket == staked % 3 and after.stake_due
        else:
            assert after.basket == 2 * staked and not after.stake_due
        # only the declaring side and its opponents pay each other; the basket never pays a loser
        losers = set() if made in (None, True) else {d.declarer, d.partner}
        assert not any(t.payer is BASKET and t.payee in losers for t in out.transfers)
        state = after


def test_whether_a_deal_awards_the_basket_is_one_answer_for_the_engine_and_the_ledger() -> None:
    """A house tariff whose lone purchase, made, leaves the basket where it is (`takes_basket =
    false`) and, failed, gives it to the opponents: the stake the next deal owes is the same
    whether the engine plays the deal or the ledger reads it back (`wins_basket`)."""
    from boston_ledger.core.tariff_files import locate, parse

    text = locate("classic").read_text(encoding="utf-8").replace(
        'slam_against_undertricks = 5\nfailed_basket = "opponents"\n',
        'slam_against_undertricks = 5\nfailed_basket = "opponents"\ntakes_basket = false\n', 1)
    tariff = parse(text)
    assert tariff.contracts["junior"].alone.takes_basket is False
    start = State.start(4)
    for tricks in (4, 6):  # failed, made
        deal = Deal("junior", declarer=0, tricks=tricks)
        outcome = engine.play(tariff, start, deal)
        assert outcome.stake_next == engine.wins_basket(tariff, deal) == (tricks == 4), tricks
