"""Foster's Boston: American Boston (american, american-decimal) and Boston de Fontainebleau
(fontainebleau-foster), held to the figures Foster's Complete Hoyle (1914) prints.

The tables below are copied from the book a second time, on purpose: the tariff files are held to
them cell by cell. The evenings are computed by hand from those tables, deal by deal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from boston_ledger.app import entry
from boston_ledger.app.deals import current
from boston_ledger.core import engine, ladders
from boston_ledger.core.engine import BASKET, Deal, State
from boston_ledger.core.tariff_files import load
from boston_ledger.store.db import open_db
from conftest import PLAYERS

A, B, V, G = range(4)  # Anna, Boris, Vera, Gleb; Foster's A, Y, B, Z sit in this order
AMERICAN, DECIMAL, FONTAINEBLEAU = load("american"), load("american-decimal"), load("fontainebleau-foster")
BIDS = ["five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen"]

# "BOSTON.", WINNING TABLE, p. 171: bid (5..13) -> paid by each adversary for 5..13 tricks taken
WINNING = {
    5: [12, 12, 13, 13, 14, 14, 14, 15, 15], 6: [15, 16, 16, 17, 18, 19, 20, 20], 7: [18, 20, 21, 22, 23, 24, 26],
    8: [23, 24, 26, 28, 29, 31], 9: [32, 34, 36, 39, 41], 10: [42, 45, 48, 52], 11: [63, 68, 72], 12: [106, 114],
    13: [166],
}
# the American system, p. 171: "not to pay the successful bidder for any over-tricks"
FLAT = {5: 10, 6: 15, 7: 20, 8: 25, 9: 35, 10: 45, 11: 65, 12: 105, 13: 170}
# the losing table, p. 171: bid -> paid to each adversary when short by 1, 2, ...
LOSING = {
    5: [11, 21, 31, 41, 50], 6: [15, 24, 35, 45, 55, 66], 7: [19, 29, 40, 50, 60, 72, 82],
    8: [23, 34, 46, 56, 67, 78, 89, 110], 9: [33, 44, 57, 68, 82, 92, 103, 115, 127],
    10: [44, 56, 70, 82, 94, 107, 119, 132, 145, 157], 11: [67, 80, 95, 109, 123, 138, 151, 165, 180, 194, 208],
    12: [113, 130, 148, 165, 182, 200, 217, 234, 252, 270, 286, 304],
    13: [177, 198, 222, 241, 262, 284, 305, 326, 348, 369, 390, 412, 433],
}
# "reduced to the American decimal system, in which form it is commonly found in the clubs", p. 172
DECIMAL_LOSING = {
    5: [10, 20, 30, 40, 50], 6: [15, 25, 35, 45, 55, 65], 7: [20, 30, 40, 50, 60, 70, 80],
    8: [25, 35, 45, 55, 70, 85, 100, 115], 9: [35, 45, 55, 65, 80, 95, 110, 125, 140],
    10: [45, 55, 70, 80, 95, 110, 125, 140, 155, 170], 11: [70, 80, 95, 110, 125, 140, 155, 170, 185, 200, 220],
    12: [120, 130, 145, 160, 180, 200, 220, 240, 260, 280, 300, 320],
    13: [180, 200, 220, 240, 260, 280, 300, 320, 340, 360, 390, 420, 450],
}
MISERES = {"little-misere": 20, "grand-misere": 40, "little-spread": 80, "grand-spread": 160}  # p. 172
# "BOSTON DE FONTAINEBLEAU.", TABLE No. 1, p. 177: clubs and spades, hearts, diamonds
TABLE_1 = {"five": (10, 20, 30), "six": (30, 40, 50), "seven": (50, 60, 70), "eight": (70, 80, 90),
           "nine": (90, 100, 110), "ten": (110, 120, 130), "eleven": (130, 140, 150), "twelve": (150, 160, 170),
           "thirteen": (400, 450, 500), "spread-slam": (600, 700, 800)}
TABLE_1_NO_TRUMP = {"little-misere": 75, "piccolissimo": 100, "grand-misere": 150, "little-spread": 200,
                    "grand-spread": 250}
TABLE_2 = {"thirteen": (250, 300, 350), "spread-slam": (350, 400, 450)}

CALM = State((0, 0, 0, 0), basket=40, deals=1, stake_due=False)  # a pool of 40, no stake due, dealer Boris


def paid(outcome, seat: int) -> list[int]:
    """What each other seat paid `seat` (negative: was paid by him) in this deal, players only."""
    out = []
    for other in range(4):
        if other != seat:
            out.append(sum(t.chips for t in outcome.transfers if t.payer == other and t.payee == seat)
                       - sum(t.chips for t in outcome.transfers if t.payer == seat and t.payee == other))
    return out


def into_basket(outcome) -> int:
    return engine.moves(outcome.transfers, 4)[4]


# ---- American Boston: the worked figures of the text -------------------------------------------


def test_seven_taking_ten_is_22_and_ten_taking_ten_is_42() -> None:
    """pp. 168-169: "the payment for seven bid and ten taken, is only 22 counters; while the payment
    for ten bid and ten taken is 42"."""
    assert paid(engine.play(AMERICAN, CALM, Deal("seven", A, tricks=10)), A) == [22, 22, 22]
    assert paid(engine.play(AMERICAN, CALM, Deal("ten", A, tricks=10)), A) == [42, 42, 42]


def test_eight_taking_seven_loses_23_to_each_adversary() -> None:
    """p. 170: "losing 23 white counters to each of his adversaries"."""
    outcome = engine.play(AMERICAN, CALM, Deal("eight", A, tricks=7))
    assert paid(outcome, A) == [-23, -23, -23] and outcome.made is False
    assert into_basket(outcome) == 40  # and he doubles the pool


@pytest.mark.parametrize("bid", range(5, 14))
def test_every_cell_of_the_winning_and_losing_tables(bid: int) -> None:
    key = BIDS[bid - 5]
    for taken in range(14):
        ours = paid(engine.play(AMERICAN, CALM, Deal(key, A, tricks=taken)), A)
        clubs = paid(engine.play(DECIMAL, CALM, Deal(key, A, tricks=taken)), A)
        if taken >= bid:
            assert ours == [WINNING[bid][taken - bid]] * 3, (bid, taken)
            assert clubs == [FLAT[bid]] * 3, (bid, taken)
        else:
            assert ours == [-LOSING[bid][bid - taken - 1]] * 3, (bid, taken)
            assert clubs == [-DECIMAL_LOSING[bid][bid - taken - 1]] * 3, (bid, taken)


def test_i_pay_is_the_bid_without_over_tricks() -> None:
    """p. 173: "the bidder must accept the amount of his bid without any over-tricks": his own tricks."""
    assert paid(engine.play(AMERICAN, CALM, Deal("nine", A, tricks=9)), A) == [32] * 3
    assert paid(engine.play(DECIMAL, CALM, Deal("nine", A, tricks=9)), A) == [35] * 3


@pytest.mark.parametrize("tariff", [AMERICAN, DECIMAL], ids=["american", "american-decimal"])
def test_misères_pay_and_cost_their_value_and_are_pool_bids(tariff) -> None:
    for key, value in MISERES.items():
        made = engine.play(tariff, CALM, Deal(key, V, tricks=0))
        assert paid(made, V) == [value] * 3 and into_basket(made) == -40  # a pool bid: the pool is his
        failed = engine.play(tariff, CALM, Deal(key, V, tricks=2))
        assert paid(failed, V) == [-value] * 3 and into_basket(failed) == 40  # no over-tricks; he doubles the pool


# ---- American Boston: misère partout (pp. 172-173) ---------------------------------------------


def test_misère_partout_the_most_tricks_pays_each_the_difference_in_red() -> None:
    """A 6, Y 2, B 5, Z 0: A loses 18 - 7 = 11 red: 4 to Y, 1 to B, 6 to Z. The pool is untouched."""
    outcome = engine.play(AMERICAN, CALM, Deal("pass", tricks_each=(6, 2, 5, 0)))
    assert paid(outcome, A) == [-40, -10, -60] and into_basket(outcome) == 0


def test_misère_partout_two_tied_pay_35_white_each() -> None:
    """A and Y each take 5, B 1, Z 2: "The 7 red counters lost by A and Y being divided, shows a loss
    of 35 white counters for each of them"; between themselves they pay nothing."""
    outcome = engine.play(AMERICAN, CALM, Deal("pass", tricks_each=(5, 1, 5, 2)))
    change = engine.moves(outcome.transfers, 4)
    assert change == [-35, 40, -35, 30, 0]
    assert not [t for t in outcome.transfers if {t.payer, t.payee} == {A, V}]


def test_misère_partout_three_tied_each_pay_the_fourth_a_red() -> None:
    """"If three players take four tricks apiece, they each pay the fourth man a red counter"."""
    outcome = engine.play(DECIMAL, CALM, Deal("pass", tricks_each=(4, 4, 4, 1)))
    assert sorted((t.payer, t.payee, t.chips) for t in outcome.transfers) == [(A, G, 10), (B, G, 10), (V, G, 10)]


# ---- American Boston: the pool ---------------------------------------------------------------


def test_only_a_pool_bid_conceded_takes_the_pool_and_any_failure_doubles_it() -> None:
    """p. 173: a lower bid does not take the pool "unless the other players compel him to play the
    hand out"; "I pay" saves it. A deal entered with its tricks was played out."""
    assert into_basket(engine.play(AMERICAN, CALM, Deal("five", A, conceded=True))) == 0  # not a pool bid
    assert into_basket(engine.play(AMERICAN, CALM, Deal("six", A, conceded=True))) == 0
    assert into_basket(engine.play(AMERICAN, CALM, Deal("five", A, tricks=7))) == -40  # played out
    assert into_basket(engine.play(AMERICAN, CALM, Deal("seven", A, conceded=True))) == -40  # "seven or better"
    assert into_basket(engine.play(AMERICAN, CALM, Deal("seven", A, tricks=7))) == -40
    assert into_basket(engine.play(AMERICAN, CALM, Deal("five", A, tricks=4))) == 40  # "whether he has made a pool
    assert into_basket(engine.play(DECIMAL, CALM, Deal("twelve", A, tricks=3))) == 40  # bid or not"


def test_the_pool_holds_25_red_and_surplus_pools_are_played_for_in_turn() -> None:
    """p. 165: "the surplus used to start a fresh pool. Any player winning a pool is entitled to 25 red
    counters at the most"; p. 173: the failing caller "must double the first one"."""
    rules = AMERICAN.basket
    almost = State((0, 0, 0, 0), basket=240, deals=1, stake_due=False)
    failed = engine.play(AMERICAN, almost, Deal("nine", A, tricks=8))
    assert into_basket(failed) == 240  # doubled: 480, a full pool of 250 and a fresh one of 230
    after = engine.advance(almost, failed)
    assert rules.pools(after.basket) == [250, 230]
    won = engine.play(AMERICAN, after, Deal("seven", B, tricks=7))
    assert into_basket(won) == -250  # the first, full pool; the fresh one is played for next
    assert rules.pools(engine.advance(after, won).basket) == [230]
    doubled = engine.play(AMERICAN, after, Deal("seven", B, tricks=6))
    assert into_basket(doubled) == 250  # the first pool doubled: 730 = 250 + 250 + 230
    assert rules.pools(engine.advance(after, doubled).basket) == [250, 250, 230]


def test_each_puts_a_red_into_an_empty_pool_only() -> None:
    start = engine.play(AMERICAN, State.start(4), Deal("five", A, tricks=5))
    assert [t for t in start.transfers if t.reason == "stake"] == [engine.Transfer(s, BASKET, 10, "stake")
                                                                  for s in range(4)]
    assert not [t for t in engine.play(AMERICAN, CALM, Deal("six", A, tricks=6)).transfers if t.reason == "stake"]


def test_american_games_of_twelve_count_real_deals_only_and_never_play_on_for_the_pool() -> None:
    """p. 173: the pool divided after every twelfth deal; a misdeal dealt again is no deal of the
    game. Two games, each opening with a misdeal and its twelve fives failed (the pool doubled each
    time): game 2 opens at the 13th real deal, the pool is divided at the end of each, and no deal
    is ever played on after a game's twelve (that is French Boston's rule, not American)."""
    game = [Deal("misdeal")] + [Deal("five", A, tricks=4)] * 12
    steps = list(engine.replaying(AMERICAN, game + game))
    at = [(s.number, s.position.partie, s.position.deal, s.position.overtime) for s in steps]
    assert at[0] == (1, 1, 1, False) and at[1] == (2, 1, 1, False) and at[12] == (13, 1, 12, False)
    assert at[13] == (14, 2, 1, False) and at[14] == (15, 2, 1, False) and at[25] == (26, 2, 12, False)
    for number in (13, 26):  # the twelfth real deal of each game divides the pool, a remainder below 4 staying
        step = steps[number - 1]
        assert any(t.reason == "division" for t in step.outcome.transfers) and 0 <= step.after.basket < 4
    assert all(s.after.overtime == 0 and s.after.extra == 0 for s in steps)
    assert engine.agreed_played(steps[24].after) == 23 and not engine.over(AMERICAN, steps[24].after, 24)
    assert engine.over(AMERICAN, steps[25].after, 24)
    for step in steps:
        assert sum(step.after.balances) + step.after.basket == 0


def test_a_misdeal_keeps_the_dealer_and_forfeits_a_red() -> None:
    state = State.start(4)
    dealers = []
    for deal in [Deal("five", A, conceded=True), Deal("misdeal"), Deal("misdeal"), Deal("six", B, tricks=6),
                 Deal("pass", tricks_each=(4, 3, 3, 3))]:
        dealers.append(engine.position(AMERICAN, state).dealer)
        outcome = engine.play(AMERICAN, state, deal)
        if deal.contract == "misdeal":
            assert [(t.payer, t.payee, t.chips) for t in outcome.transfers] == [(B, BASKET, 10)]
        state = engine.advance(state, outcome)
    assert dealers == [A, B, B, B, V] and state.played == 3


# ---- Boston de Fontainebleau -----------------------------------------------------------------


def test_nine_hearts_taking_six_pays_115_to_each_and_115_to_the_pool() -> None:
    """p. 177: "He bids nine hearts, and wins six tricks only. He must pay each adversary 115 white
    counters"; p. 178: he "pays into it the same amount that he loses to each adversary"."""
    outcome = engine.play(FONTAINEBLEAU, CALM, Deal("nine", A, tricks=6, rank="hearts"))
    assert paid(outcome, A) == [-115] * 3
    assert [t.chips for t in outcome.transfers if t.payer == A and t.payee is BASKET and t.reason == "penalty"] == [115]
    assert into_basket(outcome) == 5 + 115  # and the dealer's five


@pytest.mark.parametrize("key, values", TABLE_1.items())
def test_table_no_1_by_suit_with_over_tricks_at_five(key: str, values: tuple[int, int, int]) -> None:
    bar = 13 if key in ("thirteen", "spread-slam") else BIDS.index(key) + 5
    for rank, value in zip(("clubs", "spades", "hearts", "diamonds"), (values[0], *values), strict=True):
        for taken in range(14):
            outcome = engine.play(FONTAINEBLEAU, CALM, Deal(key, A, tricks=taken, rank=rank))
            expected = value + 5 * (taken - bar) if taken >= bar else -(value + 5 * (bar - taken))
            assert paid(outcome, A) == [expected] * 3, (key, rank, taken)


def test_table_no_2_reduces_the_slams() -> None:
    reduced = load("fontainebleau-foster", ["table-2"])
    for key, values in TABLE_2.items():
        for rank, value in zip(("spades", "hearts", "diamonds"), values, strict=True):
            assert paid(engine.play(reduced, CALM, Deal(key, A, tricks=13, rank=rank)), A) == [value] * 3


def test_the_no_trump_bids_piccolissimo_takes_one_trick_exactly() -> None:
    for key, value in TABLE_1_NO_TRUMP.items():
        made = 1 if key == "piccolissimo" else 0
        won = engine.play(FONTAINEBLEAU, CALM, Deal(key, G, tricks=made))
        assert paid(won, G) == [value] * 3 and into_basket(won) == 5 - 45  # the pool goes with every success
        lost = engine.play(FONTAINEBLEAU, CALM, Deal(key, G, tricks=made + 1))
        assert paid(lost, G) == [-value] * 3 and into_basket(lost) == 5 + value
    assert engine.play(FONTAINEBLEAU, CALM, Deal("piccolissimo", G, tricks=0)).made is False


def test_each_dealer_feeds_the_pool_five_and_every_success_takes_it() -> None:
    outcome = engine.play(FONTAINEBLEAU, CALM, Deal("five", A, tricks=5, rank="clubs"))  # dealer Boris
    assert [(t.payer, t.chips) for t in outcome.transfers if t.reason == "stake"] == [(B, 5)]
    assert paid(outcome, A) == [10] * 3 and into_basket(outcome) == -40


def test_misère_partout_the_fewest_tricks_divide_the_pool() -> None:
    """p. 176: "The player or players taking the least number of tricks win or divide the pool. There
    are no other losses or gains"; an odd counter stays in the pool (the house's reading)."""
    pool = State((0, 0, 0, 0), basket=96, deals=2, stake_due=False)  # dealer Vera adds 5: 101
    outcome = engine.play(FONTAINEBLEAU, pool, Deal("pass", tricks_each=(4, 2, 2, 5)))
    assert engine.moves(outcome.transfers, 4) == [0, 50, 50 - 5, 0, -95]  # 101 // 2 each, 1 stays
    alone = engine.play(FONTAINEBLEAU, pool, Deal("pass", tricks_each=(4, 1, 3, 5)))
    assert engine.moves(alone.transfers, 4) == [0, 101, -5, 0, -96]


def test_honours_count_as_over_tricks_for_a_made_trump_bid_only() -> None:
    """p. 176: four honours "score as for four over-tricks; if three, as for two", at 5 each (p. 177)."""
    honours = load("fontainebleau-foster", ["honours"])
    assert paid(engine.play(honours, CALM, Deal("seven", A, tricks=8, rank="diamonds", honours=4)), A) == [95] * 3
    assert paid(engine.play(honours, CALM, Deal("seven", A, tricks=7, rank="diamonds", honours=3)), A) == [80] * 3
    assert paid(engine.play(honours, CALM, Deal("seven", A, tricks=7, rank="diamonds", honours=2)), A) == [70] * 3
    for wrong, tariff in ((Deal("seven", A, tricks=6, rank="hearts", honours=4), honours),
                          (Deal("little-misere", A, tricks=0, honours=3), honours),
                          (Deal("seven", A, tricks=7, rank="hearts", honours=3), FONTAINEBLEAU)):
        with pytest.raises(engine.DealError):
            engine.play(tariff, CALM, wrong)


def test_table_no_1_breaks_its_ladder_where_foster_prints_it_so() -> None:
    assert ladders.breaches(FONTAINEBLEAU) == [] and ladders.breaches(AMERICAN) == ladders.breaches(DECIMAL) == []
    found = {(b.lower, b.lower_rank, b.higher, b.higher_rank) for b in ladders.exceptions(FONTAINEBLEAU)}
    assert ("five", "diamonds", "six", "clubs") in found and ("eleven", "diamonds", "twelve", "spades") in found
    assert all(low == "diamonds" and high in ("clubs", "spades") for __, low, ___, high in found)


# ---- an evening of each American tariff, at the table -----------------------------------------

EVENING = [  # the deal, who deals it
    (("five", "--declarer", "Boris", "--tricks", "3"), "Anna"),  # put in for 2; the pool doubles: 80
    (("six", "--declarer", "Vera", "--tricks", "4"), "Boris"),  # 160
    (("seven", "--declarer", "Gleb", "--tricks", "5"), "Vera"),  # 320: a full pool of 250 and a fresh one of 70
    (("nine", "--declarer", "Anna", "--tricks", "10"), "Gleb"),  # takes the full pool; the fresh one stays
    (("misdeal",), "Anna"),  # a red into the pool: 80
    (("pass", "--tricks-each", "6,2,5,0"), "Anna"),  # the same dealer deals again
    (("little-misere", "--declarer", "Vera", "--tricks", "0"), "Boris"),  # a pool bid: takes the surplus pool
    (("five", "--declarer", "Gleb", "--conceded"), "Vera"),  # the empty pool refilled; "I pay": five leaves it
    (("ten", "--declarer", "Boris", "--conceded"), "Gleb"),  # "I pay": 42, and the pool
    (("eight", "--declarer", "Anna", "--tricks", "7"), "Anna"),
    (("pass", "--tricks-each", "5,1,5,2"), "Boris"),
    (("pass", "--tricks-each", "4,4,4,1"), "Vera"),
    (("twelve", "--declarer", "Gleb", "--tricks", "11"), "Gleb"),
]
# balances of Anna, Boris, Vera, Gleb and the pool after each deal, by hand from Foster's tables; after the
# twelfth deal (the misdeal is none) the 160 left in the pool is divided, 40 each (p. 173)
FOSTER_EVENING = [(11, -113, 11, 11, 80), (35, -89, -141, 35, 160), (64, -60, -112, -212, 320),
                  (416, -94, -146, -246, 70), (406, -94, -146, -246, 80), (296, -54, -136, -186, 80),
                  (276, -74, 4, -206, 0), (254, -96, -18, -180, 40), (212, 70, -60, -222, 0),
                  (93, 83, -47, -209, 80), (58, 123, -82, -179, 80), (48, 113, -92, -149, 80),
                  (201, 266, 61, -528, 0)]
CLUB_EVENING = [(10, -110, 10, 10, 80), (35, -85, -145, 35, 160), (65, -55, -115, -215, 320),
                (420, -90, -150, -250, 70), (410, -90, -150, -250, 80), (300, -50, -140, -190, 80),
                (280, -70, 0, -210, 0), (260, -90, -20, -190, 40), (215, 85, -65, -235, 0),
                (90, 100, -50, -220, 80), (55, 140, -85, -190, 80), (45, 130, -95, -160, 80),
                (205, 290, 65, -560, 0)]


@pytest.mark.parametrize("tariff, expected", [("american", FOSTER_EVENING), ("american-decimal", CLUB_EVENING)])
def test_an_evening_with_the_pool_full_and_a_surplus_pool_played_for(cli, tariff: str, expected, tmp_path: Path) \
        -> None:
    cli("new", *PLAYERS, "--tariff", tariff, "--deals", "12", "--chip-value", "0.01", "--currency", "USD")
    for (deal, dealer), after in zip(EVENING, expected, strict=True):
        heading = cli("deal", *deal).stdout.splitlines()[0]
        assert heading.endswith(f"dealer {dealer}"), (deal, heading)
        status = cli.json("status")
        assert (*status["balances"].values(), status["basket"]) == after, deal
        assert sum(status["balances"].values()) + status["basket"] == 0  # every chip is somewhere
        if deal[0] == "seven":
            assert "2 pools on the table: 250 + 70" in cli("status").stdout
    assert "agreed deals of session 1 are played" in cli("deal", "six", "--declarer", "Anna", "--tricks", "6",
                                                         code=2).stderr  # twelve deals, the misdeal not counted
    assert cli("check").exit_code == 0
    history = cli.json("history")
    assert [d["dealer"] for d in history][4:6] == ["Anna", "Anna"]
    assert history[4]["description"] == "misdeal by Anna, who deals again"
    other = "american-decimal" if tariff == "american" else "american"
    rescored = cli.json("rescore", "1", "--tariff", other)
    final = (CLUB_EVENING if tariff == "american" else FOSTER_EVENING)[-1]
    assert tuple(p["rescored"] for p in rescored["players"].values()) == final[:4]
    assert rescored["basket"]["rescored"] == final[4]
    settled = cli.json("settle", "--yes")  # the pool was divided after the twelfth deal: nothing left
    assert settled["basket"] == 0 and settled["deals"] == 12  # the misdeal is no deal
    assert settled["net_chips"] == dict(zip(PLAYERS, expected[-1][:4], strict=True))
    assert {name: float(m) for name, m in settled["money"].items()} == {
        name: chips / 100 for name, chips in zip(PLAYERS, expected[-1][:4], strict=True)}
    cli("export", str(tmp_path / "out"))
    deals_csv = (tmp_path / "out" / "deals.csv").read_text(encoding="utf-8-sig")
    assert "tricks_each" in deals_csv and "honours" not in deals_csv
    assert cli("stats").exit_code == 0 and "misdeal by Anna, who deals again" in cli("sheet").stdout


# ---- entering ----------------------------------------------------------------------------------


def test_guided_entry_asks_the_bids_in_order_and_never_a_partner(cli, isolated: Path) -> None:
    cli("new", *PLAYERS, "--tariff", "american")
    conn = open_db(isolated)
    try:
        session = current(conn)
        first = entry.step(session, {})
        assert [c.answer for c in first.choices] == [
            "five", "six", "seven", "little-misere", "eight", "nine", "grand-misere", "ten", "eleven",
            "little-spread", "twelve", "grand-spread", "thirteen", "pass", "misdeal"]
        answers = {"contract": "boston", "declarer": "Vera", "conceded": "no", "tricks": "5"}
        asked = [i.field for i in entry.answered(session, answers)]
        assert asked == ["contract", "declarer", "conceded", "tricks"]  # "I pay" first: then no tricks are asked
        assert entry.step(session, answers).deal == Deal("five", V, tricks=5)
        assert entry.step(session, {**answers, "conceded": "yes"}).deal == Deal("five", V, conceded=True)
        assert entry.step(session, {"contract": "pass"}).field == "tricks_each.0"
        assert entry.step(session, {"contract": "misdeal"}).deal == Deal("misdeal")
    finally:
        conn.close()


def test_fontainebleau_asks_the_suit_in_russian_too(cli, isolated: Path) -> None:
    cli("new", *PLAYERS, "--tariff", "fontainebleau-foster", "--condition", "honours")
    conn = open_db(isolated)
    try:
        session = current(conn)
        answers = {"contract": "девять", "declarer": "Anna", "partner": "-", "rank": "черв", "conceded": "no",
                   "tricks": "10"}
        question = entry.step(session, answers)
        assert question.field == "honours" and question.default == "0" and len(question.choices) == 5
        assert entry.step(session, {**answers, "honours": "3"}).deal == Deal("nine", A, tricks=10, rank="hearts",
                                                                             honours=3)
        assert entry.step(session, {**answers, "tricks": "8"}).deal.honours is None  # failed: not asked
    finally:
        conn.close()
    out = cli("--lang", "ru", "deal", "девять", "--rank", "бубны", "--declarer", "Vera", "--tricks", "9").stdout
    assert "девять в бубнах: Vera без партнёра — 9 взяток; сыграно" in out  # nine may take a partner
    refused = cli("deal", "nine", "--rank", "junior", "--declarer", "Vera", "--tricks", "9", code=2).stderr
    assert "--rank: no suit 'junior' here; choose one of clubs, spades, hearts, diamonds" in refused


def test_tariffs_check_lists_foster_s_own_exceptions_and_show_prints_the_tables(cli, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    checked = cli("tariffs", "check", "fontainebleau-foster")
    assert checked.stderr == "" and "as the source has it: ladders: six (clubs), alone, made with 13 tricks pays " \
                                     "65, less than the lower five (diamonds)'s 70" in checked.stdout
    assert cli("tariffs", "check", "american").stdout.count("\n") == 1
    rows = {}
    for line in cli("tariffs", "show", "american").stdout.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if cells:
            rows[cells[0]] = cells[1:]
    assert rows["seven"] == ["7", "doubles the pool", "+26", "+24", "+23", "+22", "+21", "+20", "+18", "-19", "-29",
                             "-40", "-50", "-60", "-72", "-82"]
    assert rows["grand-spread"] == ["160", "160", "doubles the pool"]
    assert "американский бостон" in cli("--lang", "ru", "tariffs", "show", "american").stdout.lower()
    american = json.loads(cli("tariffs", "show", "american", "--json").stdout)["basket"]
    assert (american["pool_limit"], american["stake_at"], american["misdeal_dealer"], american["misdeal_penalty"],
            american["partout_per_trick"]) == (250, "empty", "same", 10, 10)
    classic = json.loads(cli("tariffs", "show", "classic", "--json").stdout)["basket"]
    assert (classic["pool_limit"], classic["misdeal_dealer"], classic["misdeal_penalty"]) == (0, "next", 0)


def test_the_phone_enters_and_shows_an_american_evening(cli, isolated: Path) -> None:
    """The phone's entry page asks the same questions (bids in Foster's order, no partner) and the
    sheet on the phones shows who deals again after a misdeal."""
    from boston_ledger.serve.server import Served
    from serving import ENTRY, VIEW, Phone, get

    cli("new", *PLAYERS, "--tariff", "american")
    running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    try:
        phone = Phone(running)
        page = phone.html
        assert page.index(">five<") < page.index(">six<") < page.index(">little-misere<") < page.index(">thirteen<")
        page = phone.tap("misdeal").tap("Record this deal").html
        assert "Deal 1 recorded." in page and "Next: deal 2, dealt by Anna." in page
        page = phone.tap("seven").tap("Anna").tap("no").tap("10").html
        assert "Partner" not in page
        page = phone.tap("Record this deal").html
        assert "Deal 2 recorded." in page and "Next: deal 3, dealt by Boris." in page
        sheet = get(running.port, f"/?t={VIEW}")[2].decode()
        assert "misdeal by Anna, who deals again" in sheet and "seven Anna\u00a010" in sheet
    finally:
        running.close()
    status = cli.json("status")
    # the misdeal found the pool empty: a red from each, then Anna's forfeit (50); seven taking ten: 22 each
    assert status["balances"] == {"Anna": -10 - 10 + 3 * 22 + 50, "Boris": -32, "Vera": -32, "Gleb": -32}


@pytest.mark.parametrize("doc", ["rules.en.md", "rules.ru.md"])
def test_the_rules_print_the_tables_the_program_plays(doc: str) -> None:
    """docs/rules.*.md lay out each new tariff's table as `tariffs show` does, row for row (the Russian
    one with the true minus)."""
    from boston_ledger.ui.tariff import schedule_row

    text = (Path(__file__).resolve().parent.parent / "docs" / doc).read_text(encoding="utf-8")
    for name, heading in (("american", "`boston-ledger tariffs show american`"),
                          ("american-decimal", "`boston-ledger tariffs show american-decimal`"),
                          ("fontainebleau-foster", "`boston-ledger tariffs show fontainebleau-foster`")):
        tariff = load(name)
        block = text[text.index(heading):].split("\n\n")[1]
        rows = {cells[0]: cells[1:] for cells in ([c.strip().replace("−", "-") for c in line.strip("|").split("|")]
                                                  for line in block.splitlines()[2:])}
        expected = {}
        for key, contract in tariff.contracts.items():
            schedule = contract.alone
            for rank in contract.ranks or [None]:
                if schedule.kind != "null":
                    expected[key + (f" ({rank})" if rank else "")] = [
                        str(schedule.bar), *schedule_row(schedule, 13, 1, rank)]
        assert {k: [v[0], *v[2:]] for k, v in rows.items()} == expected, (doc, name)


def test_a_misdeal_dealt_again_moves_neither_the_tour_nor_the_agreed_deals_on_the_phone(cli, isolated: Path) -> None:
    """Four misdeals of Anna's, each dealt again, then her seven: the page says it was still the
    first tour, and with two deals agreed the entry page still takes the one left (the count of
    deals played leaves misdeals dealt again out, as `deal` and `status` do)."""
    from boston_ledger.serve.server import Served
    from serving import ENTRY, VIEW, get

    cli("new", *PLAYERS, "--tariff", "american", "--deals", "2")
    for __ in range(4):
        cli("deal", "misdeal")
    cli("deal", "seven", "--declarer", "Anna", "--tricks", "7")
    running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    try:
        sheet = get(running.port, f"/?t={VIEW}")[2].decode()
        entry = get(running.port, f"/entry?t={ENTRY}")[2].decode()
    finally:
        running.close()
    last = sheet[sheet.index('data-deal="5"'):]
    assert "game 1, round 1 · dealer Anna" in last[:last.index("</article>")]
    assert "are played" not in entry and ">seven<" in entry
