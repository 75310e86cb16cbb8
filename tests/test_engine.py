"""The basket, labet, boston, tours and the zero-sum invariant, on the pure engine."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from boston_ledger.core import engine, invariants
from boston_ledger.core.engine import BASKET, Change, Deal, State
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
    positions = [engine.position(CLASSIC, State((0,) * 4, deals=k)) for k in range(81)]
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


# ---- the state between deals: who deals, the replay, the table's changes ---------------------


def test_a_misdeal_dealt_again_by_the_same_dealer_is_not_a_turn() -> None:
    """American: the misdealer deals again, so Anna deals the deals after her two misdeals; the
    deals are numbered all the same. Classic: the deal passes to the next player."""
    american = load("american")
    steps = list(engine.replaying(american, [Deal("misdeal"), Deal("misdeal"), Deal("pass", tricks_each=(4, 3, 3, 3)),
                                             Deal("pass", tricks_each=(4, 3, 3, 3))]))
    assert [(s.number, s.position.dealer, s.outcome.redealt) for s in steps] == [
        (1, 0, True), (2, 0, True), (3, 0, False), (4, 1, False)]
    assert (steps[-1].after.deals, steps[-1].after.redeals, steps[-1].after.played) == (4, 2, 2)
    assert engine.redeals(american, Deal("misdeal")) and not engine.redeals(american, Deal("pass"))
    assert not engine.redeals(CLASSIC, Deal("misdeal"))
    classic = list(engine.replaying(CLASSIC, [Deal("misdeal"), Deal("pass")]))
    assert [s.position.dealer for s in classic] == [0, 1] and classic[-1].after.redeals == 0
    assert engine.position(american, State((0,) * 4, deals=5, redeals=2)) == engine.Position(
        number=6, dealer=3, partie=1, tour=1, multiplier=1, deal=4)


def test_the_parties_and_tours_count_whole_deals() -> None:
    positions = [engine.position(CLASSIC, State((0,) * 4, deals=k)) for k in range(82)]
    assert [(p.partie, p.tour, p.dealer) for p in positions[39:42]] == [(1, 10, 3), (2, 1, 0), (2, 1, 1)]
    assert positions[41].partie == 2 and isinstance(positions[41].partie, int)
    assert positions[36].double and not positions[31].double


def test_when_a_stake_is_due() -> None:
    """classic: at the start and after the basket is won; american: whenever the pool is empty;
    the simple game: every deal."""
    american, simple = load("american"), load("classic", ["simple"])
    fresh, full = State.start(4), State(balances=(-1, 0, 0, 0), basket=1, deals=3, stake_due=False)
    assert [engine.stake_due(t, s) for t in (CLASSIC, american, simple) for s in (fresh, full)] == [
        True, False, True, False, True, True]
    assert not engine.stake_due(american, full._replace(stake_due=True))
    assert engine.stake_due(american, full._replace(basket=0))


def test_which_fields_a_tariff_plays() -> None:
    fontainebleau, foster = load("fontainebleau"), load("fontainebleau-foster", ["honours"])
    remise, partout = load("classic", ["remise"]), load("classic", ["misere-partout"])
    fields = ("boston", "honours", "carte_blanche", "ace_turned", "tricks_each", "tricks", "declarer", "rank")
    played = {name: [f for f in fields if engine.plays(t, f) is True] for name, t in
              [("classic", CLASSIC), ("fontainebleau", fontainebleau), ("foster", foster), ("remise", remise),
               ("partout", partout)]}
    base = ["tricks", "declarer", "rank"]
    assert played == {"classic": ["boston", *base], "fontainebleau": ["boston", "carte_blanche", *base],
                      "foster": ["honours", "tricks_each", *base], "remise": ["boston", "ace_turned", *base],
                      "partout": ["boston", "tricks_each", *base]}
    from boston_ledger.core.tariff_files import locate, parse, with_conditions

    text = locate("classic").read_text(encoding="utf-8")
    assert text.count("\namount = 2\n") == text.count("\nremise = 2\n") == 1
    one = parse(text.replace("\namount = 2\n", "\namount = 1\n").replace("\nremise = 2\n", "\nremise = 1\n"))
    assert one.boston == 1 and engine.plays(one, "boston")
    assert with_conditions(one, ["remise"]).basket.remise == 1
    assert engine.plays(with_conditions(one, ["remise"]), "ace_turned")
    text = locate("fontainebleau").read_text(encoding="utf-8")
    assert text.count("\ncarte_blanche = 10\n") == 1
    assert engine.plays(parse(text.replace("\ncarte_blanche = 10\n", "\ncarte_blanche = 1\n")), "carte_blanche")


def test_the_pair_s_tricks_filled_in_from_what_the_table_said() -> None:
    """The pair's 7 and one member's own: the other's follow, both kept; else the deal as said."""
    assert engine.filled(Deal("junior", A, B, 5, team_tricks=7)) == Deal("junior", A, B, 5, 2, team_tricks=7)
    assert engine.filled(Deal("junior", A, B, None, 2, team_tricks=7)) == Deal("junior", A, B, 5, 2, team_tricks=7)
    assert engine.filled(Deal("junior", A, B, 0, team_tricks=7)) == Deal("junior", A, B, 0, 7, team_tricks=7)
    assert engine.filled(Deal("junior", A, B, 7, team_tricks=7)) == Deal("junior", A, B, 7, 0, team_tricks=7)
    assert engine.filled(Deal("junior", A, B, None, 0, team_tricks=7)) == Deal("junior", A, B, 7, 0, team_tricks=7)
    assert engine.filled(Deal("junior", A, B, None, 7, team_tricks=7)) == Deal("junior", A, B, 0, 7, team_tricks=7)
    for as_said in (Deal("junior", A, B, team_tricks=7), Deal("junior", A, B, 5, 2, team_tricks=7),
                    Deal("junior", A, B, 5, 2), Deal("junior", A, None, 5, team_tricks=7),
                    Deal("junior", A, B, 8, team_tricks=7), Deal("junior", A, B, None, 8, team_tricks=7)):
        assert engine.filled(as_said) == as_said
    assert engine.own_tricks(Deal("junior", A, B, None, 2, team_tricks=7)) == {A: 5, B: 2}
    assert engine.own_tricks(Deal("junior", A, B, 5, team_tricks=7)) == {A: 5, B: 2}


def test_who_took_how_many_decides_only_a_failed_pair_with_shares() -> None:
    junior, solo = CLASSIC.contracts["junior"], CLASSIC.contracts["solo"]
    assert [engine.split_decides(CLASSIC, junior, t) for t in (0, 7, 8, 13)] == [True, True, False, False]
    assert not engine.split_decides(CLASSIC, solo, 3)  # played alone
    samouchitel = load("samouchitel")  # a pair without shares: both pay alike
    assert not engine.split_decides(samouchitel, samouchitel.contracts["5"], 3, "first")


def test_made_and_the_basket_won() -> None:
    american = load("american")
    assert [engine.made(CLASSIC, d) for d in (Deal("pass"), Deal("misdeal"), Deal("solo", A, tricks=8),
                                               Deal("solo", A, tricks=7), Deal("junior", A, B, 4, 4))] == [
        None, None, True, False, True]
    assert [engine.wins_basket(american, d) for d in (Deal("misdeal"), Deal("pass", tricks_each=(4, 3, 3, 3)),
                                                       Deal("five", A, tricks=6), Deal("seven", A, tricks=7),
                                                       Deal("seven", A, tricks=6))] == [None, False, True, True, False]
    assert not engine.wins_basket(american, Deal("five", A, conceded=True))  # "I pay": five takes no pool
    assert engine.wins_basket(CLASSIC, Deal("junior", A, tricks=4))  # to the opponents
    assert not engine.wins_basket(load("samouchitel"), Deal("7", A, tricks=8, rank="first"))  # no basket


def test_a_person_s_chips_at_the_table_and_away() -> None:
    """Gleb (3) left with -3, Dasha (4) plays seat 4; a sixth person, never seated, holds nothing."""
    state = State(balances=(-40, -10, -10, 0), basket=63, deals=2, seated=(0, 1, 2, 4), away=((3, -3),))
    assert state.holdings(6) == ((-40, -10, -10, -3, 0, 0), (True, True, True, False, True, False))


def test_changes_of_the_table_one_after_another() -> None:
    state = State(balances=(-40, -10, -10, -23), basket=83, deals=2)
    after, shares = engine.reseated(state, [Change(3, 4), Change(2, 5)])
    assert shares == (20, 15) and after.basket == 48
    assert after.accounts == (0, 1, 5, 4) and after.away == ((2, 5), (3, -3))
    assert engine.reseated(state, []) == (state, ())
    assert engine.reseated(state, [Change(3, 3)]) == (state, (0,))  # a substitute takes nothing
    anna, share = engine.reseat(state, Change(0, 4))  # the first seat too
    assert (anna.accounts, anna.away, share) == ((4, 1, 2, 3), ((0, -20),), 20)
    back, share = engine.reseat(after, Change(2, 2))  # Vera comes back with what she took; Dasha (5) leaves
    assert back.balances == (-40, -10, 5, 0) and back.away == ((3, -3), (5, 12)) and share == 12
    try:
        engine.reseat(state, Change(4, 5))
    except engine.SeatError as e:
        assert str(e) == "seat 4 is not at this table of 4"
    else:
        raise AssertionError("a fifth seat was taken")
    try:
        engine.reseat(state, Change(1, 0))
    except engine.SeatError as e:
        assert str(e) == "an account is played in one seat at a time"
    else:
        raise AssertionError("one account took two seats")
    try:
        engine.reseat(state, Change(-1, 5))
    except engine.SeatError as e:
        assert str(e) == "seat -1 is not at this table of 4"
    else:
        raise AssertionError("a seat before the first was taken")


def test_a_replay_from_the_middle_with_the_table_changed() -> None:
    """From a state and the points written by then; Dasha (4) takes Gleb's seat before deal 3, and
    Gleb comes back after the last deal (changes[5])."""
    samouchitel = load("samouchitel")
    start = State(balances=(15, -5, -5, -5), deals=2)
    deals = [Deal("7", A, tricks=8, rank="first"), Deal("7", B, tricks=7, rank="first")]
    steps = list(engine.replaying(samouchitel, deals, start, (15, 0, 0, 0), {3: [Change(3, 4)]}))
    assert [s.number for s in steps] == [3, 4]
    assert steps[0].changes == ((Change(3, 4), 0),) and steps[1].changes == ()
    assert steps[0].before.accounts == (0, 1, 2, 4) and steps[0].before.away == ((3, -5),)
    assert [s.scores for s in steps] == [(30, 0, 0, 0), (30, 13, 0, 0)]
    assert steps[-1].after.balances == (15 + 45 - 13, -5 - 15 + 39, -5 - 15 - 13, 0 - 15 - 13)
    whole = [Deal("solo", A, tricks=8), Deal("pass")]
    back = engine.replayed(CLASSIC, whole, {2: [Change(3, 4)], 3: [Change(3, 3)]})
    assert back.accounts == (0, 1, 2, 3) and back.seated == ()
    assert engine.replayed(CLASSIC, whole, {2: [Change(3, 4)]}).accounts == (0, 1, 2, 4)
    assert engine.replayed(CLASSIC, [], {1: [Change(3, 4)]}).accounts == (0, 1, 2, 4)
    assert engine.replayed(CLASSIC, []) == State.start(4)
    assert [s.scores for s in engine.replaying(CLASSIC, whole)] == [(16, 0, 0, 0), (16, 0, 0, 0)]
    assert engine.replayed(CLASSIC, whole) == list(engine.replaying(CLASSIC, whole))[-1].after
