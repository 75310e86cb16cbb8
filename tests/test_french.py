"""French Boston (french), held to the figures Foster's Complete Hoyle (1914), "French Boston",
pp. 179-182, prints, and to the house readings where the text is silent (the rules' "French
Boston").

The table below is copied from the book a second time, on purpose: the tariff file is held to it
cell by cell. The evening is computed by hand from it, deal by deal."""

from __future__ import annotations

import csv

import json
from pathlib import Path

import pytest

from boston_ledger.app import entry
from boston_ledger.app.deals import current
from boston_ledger.core import engine
from boston_ledger.core.engine import BASKET, Deal, DealError, State
from boston_ledger.core.tariff_files import load
from boston_ledger.store.db import open_db
from conftest import PLAYERS, described, guided

A, B, V, G = range(4)  # Anna, Boris, Vera, Gleb
FRENCH = load("french")
SUITS = ("spades", "clubs", "diamonds", "hearts")  # Foster's columns, in his order
# p. 182: the bid's row, three honours, four honours, each extra trick; by suit ♠ ♣ ♢ ♡
TABLE = {
    "five": ((4, 8, 12, 16), (3, 6, 9, 12), (4, 8, 12, 16), (1, 2, 3, 4)),
    "six": ((6, 12, 18, 24), (4, 8, 12, 16), (6, 12, 18, 24), (2, 4, 6, 8)),
    "eight": ((8, 16, 24, 32), (6, 12, 18, 24), (8, 16, 24, 32), (4, 8, 12, 16)),
}
MISERES = {"petite-misere": (16, 32, 48, 64), "grand-misere": (32, 64, 96, 128),
           "misere-quatre-as": (32, 64, 96, 128), "petite-misere-sur-table": (64, 128, 192, 256),
           "grand-misere-sur-table": (64, 128, 192, 256)}  # "Misère sur table", one row for both (our reading)

# dealer Boris, a pool of 30 (40 once he has put in his 10), the belle diamonds
CALM = State((0, 0, 0, 0), basket=30, deals=5, stake_due=False, belle="diamonds")


def paid(outcome, seat: int) -> list[int]:
    """What each other seat paid `seat` (negative: was paid by him) in this deal, players only."""
    return [sum(t.chips for t in outcome.transfers if t.payer == other and t.payee == seat)
            - sum(t.chips for t in outcome.transfers if t.payer == seat and t.payee == other)
            for other in range(4) if other != seat]


def into_basket(outcome) -> int:
    return engine.moves(outcome.transfers, 4)[4]


def play(deal: Deal, state: State = CALM):
    outcome = engine.play(FRENCH, state, deal)
    assert sum(engine.moves(outcome.transfers, 4)) == 0
    return outcome


# ---- the table, cell by cell ------------------------------------------------------------------


@pytest.mark.parametrize("column, suit", list(enumerate(SUITS)))
def test_the_table_by_suit_as_foster_prints_it(column: int, suit: str) -> None:
    """Each row of p. 182 in each suit's column: the bid made exactly, with one extra trick, with
    three and four honours; the misères by the suit turned."""
    other = "spades" if suit != "spades" else "clubs"  # a petite in this suit: the belle is another
    bids = {"five": Deal("simple", B, tricks=5, rank="petite", turned=suit),
            "six": Deal("petite-independence", B, tricks=6, rank=suit, turned=other),
            "eight": Deal("grand-independence", B, tricks=8, rank=suit, turned=other)}
    state = CALM._replace(belle=other)
    for row, deal in bids.items():
        bid, three, four, extra = (values[column] for values in TABLE[row])
        assert paid(play(deal, state), B) == [bid] * 3, row
        assert paid(play(deal._replace(tricks=deal.tricks + 1), state), B) == [bid + extra] * 3, row
        assert paid(play(deal._replace(honours=3), state), B) == [bid + three] * 3, row
        assert paid(play(deal._replace(honours=4), state), B) == [bid + four] * 3, row
        failed = play(deal._replace(tricks=deal.tricks - 2), state)  # our reading: the row and 2 tricks short
        assert paid(failed, B) == [-(bid + 2 * extra)] * 3 and into_basket(failed) == 10 + 40, row  # the pool doubled
    for key, values in MISERES.items():
        assert paid(play(Deal(key, B, tricks=0, turned=suit), state), B) == [values[column]] * 3, key


def test_a_petite_misère_pays_64_with_hearts_turned_and_16_with_spades() -> None:
    """p. 182: "If a heart is turned, and little misère is played, the payment is 64 counters to or
    from each player. If a spade was turned, the payment would be 16 only.\""""
    hearts = play(Deal("petite-misere", V, tricks=0, turned="hearts"))
    assert paid(hearts, V) == [64, 64, 64] and into_basket(hearts) == -30  # and the pool
    assert paid(play(Deal("petite-misere", V, tricks=1, turned="hearts")), V) == [-64, -64, -64]
    assert paid(play(Deal("petite-misere", V, tricks=0, turned="spades")), V) == [16, 16, 16]


def test_a_petite_independence_in_clubs_with_two_extra_tricks_and_the_jack_is_22_from_each() -> None:
    """Six clubs 12, two extra tricks at 4, the diamond jack 2 (p. 182)."""
    outcome = play(Deal("petite-independence", G, tricks=8, rank="clubs", turned="spades", jack=G))
    assert paid(outcome, G) == [22, 22, 22] and into_basket(outcome) == -30
    doubled = play(Deal("petite-independence", G, tricks=8, rank="clubs", turned="spades", jack=G),
                   CALM._replace(deals=34))  # deal 35: a double
    assert paid(doubled, G) == [44, 44, 44] and into_basket(doubled) == -30 - 20 + 20  # the dealer's 20 taken too


def test_a_forced_demander_winning_eight_in_belle_has_a_slam_48_from_each_and_the_pool() -> None:
    """p. 181: "He gets the pool plus 24 counters from each player in petite, 48 in belle, double in
    the last eight deals"; the slam is paid instead of the row (our reading)."""
    belle = play(Deal("simple", B, tricks=8, rank="belle", turned="hearts"))  # Boris deals: the fourth to speak
    assert paid(belle, B) == [48, 48, 48] and into_basket(belle) == -30
    assert paid(play(Deal("simple", B, tricks=8, rank="petite", turned="hearts")), B) == [24, 24, 24]
    assert paid(play(Deal("simple", B, tricks=8, rank="belle", turned="hearts"), CALM._replace(deals=33)), B) == \
        [96, 96, 96]
    # seven in belle (diamonds): the row 12 and two extra tricks at 3
    assert paid(play(Deal("simple", B, tricks=7, rank="belle", turned="hearts")), B) == [18, 18, 18]


def test_a_forced_demander_is_paid_as_rules_md_says_above_and_below_eight() -> None:
    """RULES.md: the forced demander plays for five; eight or more is the slam (the pool and 48 each
    in belle, instead of the row: honours add nothing, the jack is paid aside); short of five he pays
    each adversary the row and its rate a trick short, and doubles the pool."""
    nine = play(Deal("simple", B, tricks=9, rank="belle", turned="hearts", honours=4, jack=A))
    assert {t.reason for t in nine.transfers} >= {"slam-value", "basket", "jack"}
    assert "honours" not in {t.reason for t in nine.transfers}
    assert [sum(t.chips for t in nine.transfers if t.payer == s and t.reason == "slam-value") for s in (A, V, G)] \
        == [48, 48, 48]
    assert into_basket(nine) == -30  # the dealer's 10 in, the pool of 40 out
    failed = play(Deal("simple", B, tricks=4, rank="belle", turned="hearts"))
    assert paid(failed, B) == [-15, -15, -15]  # belle diamonds: 12 and one trick short at 3
    assert into_basket(failed) == 10 + 40  # the dealer's 10, and the pool of 40 doubled


def test_partners_win_eight_between_them_each_adversary_paying_the_one_beside_him() -> None:
    """p. 181: "they win if they have eight between them no matter in what proportion, and then divide
    the pool"; each adversary pays one partner (our reading, as in Solo Whist), the odd counter of the
    pool to the demander (our reading)."""
    outcome = play(Deal("simple", A, partner=B, tricks=2, partner_tricks=7, rank="belle", turned="hearts"),
                   CALM._replace(basket=31))
    pays = {(t.payer, t.payee): t.chips for t in outcome.transfers if t.reason == "contract"}
    assert pays == {(G, A): 12, (V, B): 12}  # belle diamonds: 12 and one extra trick at 3
    assert sum(paid(outcome, A)) == 15 and sum(paid(outcome, B)) == 15
    assert [t.chips for t in outcome.transfers if t.payer is BASKET] == [21, 20]  # 31 and the dealer's 10
    slam = play(Deal("simple", A, partner=V, tricks=7, partner_tricks=6, rank="petite", turned="hearts"))
    # each faces the adversary on his right, the seat before his (the deal passing to the left)
    assert {(t.payer, t.payee): t.chips for t in slam.transfers if t.reason == "slam-value"} == {(G, A): 24, (B, V): 24}


def test_a_failed_partnership_where_only_the_acceptor_is_short() -> None:
    """p. 181: "whichever partner lacks his share (demander 5, acceptor 3) pays the adversaries and
    doubles the pool": the demander took his five, the acceptor one of his three."""
    outcome = play(Deal("simple", A, partner=V, tricks=6, partner_tricks=1, rank="petite", turned="clubs"))
    assert paid(outcome, A) == [0, 0, 0]  # the demander pays nobody
    assert paid(outcome, V) == [0, -10, -10]  # Anna nothing; clubs: 8 and one trick short at 2, to each adversary
    assert into_basket(outcome) == 10 + 40 and {t.payer for t in outcome.transfers if t.reason == "labet"} == {V}


def test_both_partners_short_each_pay_one_adversary_and_double_the_pool_together() -> None:
    """p. 181: "both pay if neither made his share"; the demander puts in the odd counter (our reading)."""
    outcome = play(Deal("simple", A, partner=V, tricks=4, partner_tricks=2, rank="belle", turned="hearts"),
                   CALM._replace(basket=31))
    pays = {(t.payer, t.payee): t.chips for t in outcome.transfers if t.reason == "contract"}
    # each pays the adversary on his right: diamonds 12, and two tricks short at 3 each
    assert pays == {(A, G): 12, (V, B): 12}
    labet = {t.payer: t.chips for t in outcome.transfers if t.reason == "labet"}
    assert labet == {A: 21, V: 20}  # 31 and the dealer's 10


def test_the_belle_turned_again_leaves_no_petite_and_misères_ignore_the_jack() -> None:
    with pytest.raises(DealError, match="no petite"):
        play(Deal("simple", B, tricks=5, rank="petite", turned="diamonds"))
    assert paid(play(Deal("neuf-belle", A, tricks=9, turned="diamonds")), A) == [36, 36, 36]  # 24 + 12 (our reading)
    with pytest.raises(DealError, match="diamond jack has no value"):
        play(Deal("grand-misere", A, tricks=0, turned="hearts", jack=B))
    with pytest.raises(DealError, match="suit was turned up"):
        play(Deal("neuf", A, tricks=9, rank="hearts"))
    thrown = play(Deal("pass", turned="hearts"))  # nothing moves but the dealer's 10
    assert [(t.payer, t.payee, t.chips) for t in thrown.transfers] == [(B, BASKET, 10)]


def test_the_first_deal_makes_the_belle_and_a_new_game_a_new_one() -> None:
    state = State.start(4)
    steps = list(engine.replaying(FRENCH, [Deal("pass", turned="clubs"), Deal("pass", turned="hearts")]))
    assert steps[-1].after.belle == "clubs"
    belle = Deal("simple", A, tricks=5, rank="belle", turned="hearts")
    state = steps[-1].after._replace(deals=40, basket=0)  # the pool was won: deal 41 opens a new game
    step = next(engine.replaying(FRENCH, [belle], state))
    assert step.after.belle == "hearts" and paid(step.outcome, A) == [16, 16, 16]
    step = next(engine.replaying(FRENCH, [belle], state._replace(basket=20)))  # played for until won
    assert step.after.belle == "clubs" and paid(step.outcome, A) == [8, 8, 8]


# ---- a French evening: forty deals, the last eight doubled ----------------------------------------

DEALS: list[tuple[list[str], tuple[int, int, int, int, int]]] = [  # a deal, and what it moves (A, B, V, G, pool)
    # 1, Anna deals: thrown up; diamonds turned, the belle of the game
    (["pass", "--turned", "diamonds"], (-10, 0, 0, 0, 10)),
    # 2, Boris: Vera's petite misère, hearts turned: 64 from each and the pool of 20
    (["petite-misere", "--declarer", "Vera", "--tricks", "0", "--turned", "hearts"], (-64, -74, 212, -64, -10)),
    # 3, Vera: Gleb's petite misère, spades turned: 16 from each and the pool of 10
    (["petite-misere", "--declarer", "Gleb", "--tricks", "0", "--turned", "spades"], (-16, -16, -26, 58, 0)),
    # 4, Gleb: Anna's petite independence in clubs, two extra tricks, the jack: 22 from each and the pool
    (["petite-independence", "--rank", "clubs", "--declarer", "Anna", "--tricks", "8", "--jack", "Anna",
      "--turned", "hearts"], (76, -22, -22, -32, 0)),
    # 5, Anna deals, and is the fourth to speak: forced to play alone in belle (diamonds), she wins eight:
    # 48 from each and the pool of her 10
    (["simple", "--rank", "belle", "--declarer", "Anna", "--tricks", "8", "--turned", "spades"],
     (144, -48, -48, -48, 0)),
    # 6, Boris: Vera demands, Anna accepts, petite clubs; Vera 6, Anna 1: Anna pays both adversaries
    # 8 and one trick short at 2, and doubles the pool of 10
    (["simple", "--rank", "petite", "--declarer", "Vera", "--partner", "Anna", "--tricks", "6", "--partner-tricks",
      "1", "--turned", "clubs"], (-30, 0, 0, 10, 20)),
]
THROWN = ["spades", "clubs", "hearts"]  # deals 7 to 32 thrown up, the dealer's 10 each
DOUBLES: list[tuple[list[str], tuple[int, int, int, int, int]]] = [
    # 33, Anna deals 20: Boris's petite misère, hearts turned, doubled: 128 from each and the pool (280 + 20)
    (["petite-misere", "--declarer", "Boris", "--tricks", "0", "--turned", "hearts"], (-148, 684, -128, -128, -280)),
    # 34, Boris deals 20: Gleb's petite independence in clubs, two extra tricks, the jack, doubled: 44 each
    (["petite-independence", "--rank", "clubs", "--declarer", "Gleb", "--tricks", "8", "--jack", "Gleb",
      "--turned", "diamonds"], (-44, -64, -44, 152, 0)),
    # 35, Vera deals 20 and is forced alone in belle, wins eight, doubled: 96 from each and the pool of her 20
    (["simple", "--rank", "belle", "--declarer", "Vera", "--tricks", "8", "--turned", "hearts"],
     (-96, -96, 288, -96, 0)),
]


@pytest.mark.slow  # forty deals through the command line
def test_a_french_evening_of_forty_deals_into_the_doubles(cli, tmp_path: Path) -> None:
    cli("new", *PLAYERS, "--tariff", "french", "--deals", "40")
    balances = [0, 0, 0, 0, 0]

    def enter(args: list[str], moved: tuple[int, ...] | None, number: int) -> None:
        cli("deal", *args)
        if moved is None:  # thrown up: the dealer's 10, 20 in the doubles
            moved = tuple(-(20 if 32 < number <= 40 else 10) if seat == (number - 1) % 4 else 0 for seat in range(4))
            moved = (*moved, -sum(moved))
        for i, chips in enumerate(moved):
            balances[i] += chips
        status = cli.json("status")
        assert [*status["balances"].values(), status["basket"]] == balances, (number, args)
        assert sum(status["balances"].values()) + status["basket"] == 0  # the pool included

    for number, (args, moved) in enumerate(DEALS, 1):
        enter(args, moved, number)
    refused = cli("deal", "simple", "--rank", "petite", "--declarer", "Vera", "--tricks", "5", "--turned", "diamonds",
                  code=2).stderr
    assert "the belle, diamonds, was turned again: this deal has no petite" in refused
    for number in range(7, 33):
        enter(["pass", "--turned", THROWN[number % 3]], None, number)
    assert balances[4] == 280
    assert "round 9 (double round ×2), dealer Anna" in (said := cli("status").stdout)
    assert "a contribution of 20 chips from the dealer, Anna" in said
    for number, (args, moved) in enumerate(DOUBLES, 33):
        enter(args, moved, number)
    for number in range(36, 41):
        enter(["pass", "--turned", "clubs"], None, number)
    assert balances == [-268, 284, 142, -258, 100]
    # the pool is played for until won (p. 179): simples, the dealer's 10, diamonds still the belle
    assert "all 40 agreed deals are played; the pool of 100 chips is played for until won" in cli("status").stdout
    enter(["pass", "--turned", "hearts"], None, 41)
    enter(["simple", "--rank", "belle", "--declarer", "Boris", "--tricks", "5", "--turned", "hearts"],
          (-12, -10 + 36 + 120, -12, -12, -110), 42)  # Boris deals, forced alone
    assert "agreed deals of session 1 are played" in cli("deal", "pass", "--turned", "clubs", code=2).stderr
    assert cli("check").exit_code == 0
    described = [d["description"] for d in cli.json("history")]
    assert "petite-independence clubs Anna 8, diamond jack Anna, hearts turned" in described
    assert "simple petite Vera 6 + Anna 1, clubs turned" in described
    cli("export", str(tmp_path / "out"))
    deals_csv = (tmp_path / "out" / "deals.csv").read_text(encoding="utf-8-sig")
    assert "turned" in deals_csv.splitlines()[0] and "jack" in deals_csv.splitlines()[0]
    assert "tricks_each" not in deals_csv.splitlines()[0]
    assert cli("stats").exit_code == 0 and "hearts turned" in cli("sheet").stdout
    settled = cli.json("settle", "--yes")  # the pool was won: nothing to divide
    assert settled["net_chips"] == {"Anna": -290, "Boris": 430, "Vera": 130, "Gleb": -270}


# ---- after the forty: the pool played for until won, then the next game's own forty ----------------


def thrown(number: int, stake: int) -> tuple[int, ...]:
    """A thrown-up deal `number` of the evening: its dealer (seat (number - 1) mod 4, the deal passing
    every deal, no misdeal here) puts `stake` in the pool."""
    moved = tuple(-stake if seat == (number - 1) % 4 else 0 for seat in range(4))
    return (*moved, stake)


def test_the_positions_of_a_game_played_on_for_its_pool_and_of_the_next_game() -> None:
    """p. 179: forty deals, the last eight doubled; the pool then "played for until won"; the next
    game's forty count from its own first deal, so its deals 33 to 40 are the doubles."""
    deals = [Deal("pass", turned="spades")] * 41 + [Deal("simple", B, tricks=5, rank="belle", turned="clubs")] + \
        [Deal("pass", turned="hearts")] * 40
    steps = list(engine.replaying(FRENCH, deals))
    at = {s.number: s.position for s in steps}
    assert (at[40].partie, at[40].deal, at[40].multiplier, at[40].overtime) == (1, 40, 2, False)
    assert (at[41].partie, at[41].deal, at[41].tour, at[41].multiplier, at[41].overtime) == (1, 41, 11, 1, True)
    assert (at[42].partie, at[42].deal, at[42].overtime) == (1, 42, True)
    assert (at[43].partie, at[43].deal, at[43].tour, at[43].dealer, at[43].overtime) == (2, 1, 1, V, False)
    assert (at[74].partie, at[74].deal, at[74].multiplier) == (2, 32, 1)
    assert (at[75].partie, at[75].deal, at[75].tour, at[75].multiplier) == (2, 33, 9, 2)
    assert (at[82].partie, at[82].deal, at[82].multiplier) == (2, 40, 2)
    assert steps[40].after.basket == 490 and steps[41].after.basket == 0  # deal 42 took the pool
    assert (steps[41].after.overtime, steps[41].after.extra) == (2, 2)
    assert (steps[42].after.overtime, steps[42].after.extra) == (2, 0)
    assert steps[41].after.belle == "spades" and steps[42].after.belle == "hearts"  # game 2's own belle
    assert engine.new_game(FRENCH, steps[41].after) and not engine.new_game(FRENCH, steps[40].after)
    assert not engine.over(FRENCH, steps[79].after, 80) and engine.agreed_played(steps[79].after) == 78
    # game 2's pool holds chips after its fortieth deal (record 82): played on for it in turn
    assert engine.position(FRENCH, steps[81].after).overtime and not engine.over(FRENCH, steps[81].after, 80)
    assert engine.over(FRENCH, steps[81].after._replace(basket=0), 80)
    for step in steps:
        assert sum(step.after.balances) + step.after.basket == 0


@pytest.mark.slow  # eighty-four deals through the command line
def test_a_french_evening_plays_on_for_the_pool_then_counts_the_next_game_from_its_first_deal(cli,
                                                                                           isolated: Path) -> None:
    """Game 1: forty deals thrown up (the dealer's 10, 20 in the last eight), its pool of 480 played for
    until won: deal 41 thrown up, deal 42 Boris's simple in belle (spades, the suit of deal 1) takes it.
    Game 2 opens at deal 43 with its own belle; its deal 32 (the evening's 74) is a simple, its deal 33
    (the evening's 75) doubled: the same petite independence pays 12, then 24, from each."""
    cli("new", *PLAYERS, "--tariff", "french", "--deals", "80")
    balances = [0, 0, 0, 0, 0]
    said: dict[int, str] = {}

    def enter(number: int, args: list[str], moved: tuple[int, ...]) -> None:
        said[number] = " ".join(cli("deal", *args).stdout.split())  # the words, however the terminal wrapped them
        for i, chips in enumerate(moved):
            balances[i] += chips
        assert sum(moved) == 0

    for number in range(1, 41):
        turned = "spades" if number == 1 else "clubs"  # spades, the belle of game 1
        enter(number, ["pass", "--turned", turned], thrown(number, 20 if number > 32 else 10))
    assert balances == [-120, -120, -120, -120, 480]
    assert "★ The rounds of game 1 are played and its pool holds 480 chips: it is played for until won, in simple " \
        "deals, or divided if the table settles." in said[40]
    status = " ".join(cli("status").stdout.split())
    assert "next: deal 41, game 1 after its rounds: the pool played for until won (simple deals), dealer Anna" \
        in status, status
    assert "all 40 agreed deals are played" not in status and "40 of the 80 agreed deals left" in status
    ru = " ".join(cli("--lang", "ru", "status").stdout.split())
    assert "партия 1 после своих кругов: банк разыгрывается до выигрыша (простые сдачи)" in ru, ru
    enter(41, ["pass", "--turned", "hearts"], thrown(41, 10))  # simples after the forty: the dealer's 10
    # Boris deals 10, and is forced alone in belle, spades: 4 from each, and the pool of 490 + 10
    enter(42, ["simple", "--rank", "belle", "--declarer", "Boris", "--tricks", "5", "--turned", "clubs"],
          (-4, -10 + 12 + 500, -4, -4, -490))
    assert balances == [-134, 382, -124, -124, 0]
    assert "★ Game 1 ends with this deal; the next deal opens game 2." in said[42]
    cli("undo")  # taken back, the state is read again from the deals: game 1 played on, one deal after its forty
    assert "next: deal 42, game 1 after its rounds" in " ".join(cli("status").stdout.split())
    cli("deal", "simple", "--rank", "belle", "--declarer", "Boris", "--tricks", "5", "--turned", "clubs")
    status = cli.json("status")
    assert (status["partie"], status["tour"], status["dealer"], status["overtime"]) == (2, 1, "Vera", False)
    assert status["deals_left"] == 40 and status["deals"] == 42
    assert "next: deal 43, game 2, round 1 (simple round), dealer Vera" in cli("status").stdout
    for number in range(43, 74):  # game 2's deals 1 to 31; deal 43 turns hearts, game 2's belle
        enter(number, ["pass", "--turned", "hearts" if number == 43 else "clubs"], thrown(number, 10))
    assert balances[4] == 310
    assert "game 2, round 8 (simple round)" in cli("status").stdout
    # deal 74, game 2's 32nd, Boris deals 10: Gleb's petite independence in clubs, 6 tricks: 12 from each, the pool
    enter(74, ["petite-independence", "--rank", "clubs", "--declarer", "Gleb", "--tricks", "6", "--turned", "spades"],
          (-12, -22, -12, 36 + 320, -310))
    # deal 75, game 2's 33rd, the first double: Vera deals 20; the same bid pays 24 from each and the pool of 20
    enter(75, ["petite-independence", "--rank", "clubs", "--declarer", "Gleb", "--tricks", "6", "--turned", "spades"],
          (-24, -24, -44, 72 + 20, 0))
    assert "★ The double rounds begin" in said[75] and "double round ×2" in said[75]
    for number in range(76, 82):
        enter(number, ["pass", "--turned", "clubs"], thrown(number, 20))
    # deal 82, game 2's 40th, Boris deals 20: Anna's petite misère, diamonds turned: 48 doubled, and the pool of 140
    enter(82, ["petite-misere", "--declarer", "Anna", "--tricks", "0", "--turned", "diamonds"],
          (96 * 3 + 140, -96 - 20, -96, -96, -120))
    assert "★ Game 2 ends with this deal" in said[82] and balances[4] == 0
    assert "all 80 agreed deals are played; settle the session" in cli("status").stdout
    history = cli.json("history", "--all")
    assert [(d["deal"], d["partie"], d["overtime"]) for d in history if d["deal"] in (40, 41, 42, 43)] == [
        (40, 1, False), (41, 1, True), (42, 1, True), (43, 2, False)]
    assert [d["multiplier"] for d in history if d["deal"] in (74, 75)] == [1, 2]
    for d in history:  # zero-sum after every deal, the pool included
        assert sum(d["balances"].values()) + d["basket"] == 0, d["deal"]
    assert [*history[-1]["balances"].values(), history[-1]["basket"]] == balances
    sheet = " ".join(cli("history", "--all").stdout.split())
    assert "game 1 after its rounds: the pool played for until won (simple deals)" in sheet
    assert sheet.count("after its rounds") == 1  # one heading over the deals played on
    tail = " ".join(cli("history", "--last", "41").stdout.split())  # from deal 42: read from where 41 left it
    assert tail.count("game 1 after its rounds") == 1 and "game 2, round 1 (simple round)" in tail
    assert [(d["deal"], d["partie"], d["tour"]) for d in cli.json("history", "--last", "41")[:2]] == [
        (42, 1, 11), (43, 2, 1)]
    printed = cli("sheet").stdout
    assert "game 1 after its rounds" in printed and "game 2, round 9 (double round ×2)" in printed
    assert cli("check").exit_code == 0
    cli("export", str(isolated.parent / "out"))
    rows = list(csv.DictReader((isolated.parent / "out" / "deals.csv").read_text(encoding="utf-8-sig").splitlines()))
    assert [(r["deal"], r["partie"], r["tour"], r["overtime"]) for r in rows if r["deal"] in ("40", "41", "42", "43")] \
        == [("40", "1", "10", ""), ("41", "1", "11", "yes"), ("42", "1", "11", "yes"), ("43", "2", "1", "")]
    assert cli.json("settle", "--yes")["net_chips"] == dict(zip(PLAYERS, balances[:4], strict=True))


# ---- entering ----------------------------------------------------------------------------------


def test_guided_entry_asks_the_suit_turned_first_then_the_bid_s_questions(cli, isolated: Path) -> None:
    cli("new", *PLAYERS, "--tariff", "french")
    conn = open_db(isolated)
    try:
        session = current(conn)
        first = entry.step(session, {})
        assert [c.answer for c in first.choices] == [
            "simple", "petite-independence", "petite-misere", "grand-independence", "grand-misere",
            "misere-quatre-as", "neuf", "neuf-petite", "neuf-belle", "petite-misere-sur-table",
            "grand-misere-sur-table", "pass", "misdeal"]
        answers = {"contract": "simple", "turned": "hearts", "declarer": "Vera", "partner": "Anna", "rank": "belle",
                   "team_tricks": "9", "jack": "", "honours": "3"}
        asked = [i.field for i in entry.answered(session, answers)]
        assert asked == ["contract", "turned", "declarer", "partner", "rank", "team_tricks", "jack", "honours"]
        assert entry.step(session, answers).deal == Deal("simple", V, partner=A, rank="belle", team_tricks=9,
                                                          turned="hearts", honours=3)
        pair = entry.step(session, {k: v for k, v in answers.items() if k != "honours"})
        assert pair.field == "honours" and "did Vera and Anna together hold?" in pair.text, pair.text
        alone = entry.step(session, {"contract": "petite-independence", "turned": "hearts", "declarer": "Vera",
                                     "rank": "clubs", "tricks": "7", "jack": ""})
        assert alone.field == "honours" and "did Vera hold?" in alone.text, alone.text
        misere = {"contract": "petite-misere", "turned": "spades", "declarer": "Vera", "tricks": "0"}
        assert entry.step(session, misere).deal == Deal("petite-misere", V, tricks=0, turned="spades")
        assert entry.step(session, {"contract": "pass"}).field == "turned"
        assert entry.step(session, {"contract": "misdeal"}).deal == Deal("misdeal")
    finally:
        conn.close()


def test_guided_entry_asks_again_what_the_deals_before_refuse(cli) -> None:
    """The first deal turned diamonds, the belle: a simple in petite with diamonds turned again is
    refused and its rank asked again, at the terminal."""
    cli("new", *PLAYERS, "--tariff", "french")
    cli("deal", "pass", "--turned", "diamonds")
    answers = "simple\ndiamonds\nVera\nAnna\npetite\n9\n\n\nbelle\ny\n"
    result = guided(["deal"], answers)
    assert result.exit_code == 0, result.output
    assert "the belle, diamonds, was turned again: this deal has no petite" in result.stderr
    assert described(cli, 2) == "simple belle Vera + Anna: 9, diamonds turned"


def test_tariffs_show_lays_out_foster_s_table_by_suit(cli, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert cli("tariffs", "check", "french").stderr == ""
    shown = json.loads(cli("tariffs", "show", "french", "--json").stdout)
    assert shown["basket"]["stake_doubles"] is True
    assert shown["contracts"]["petite-misere"]["ways"]["alone"]["hearts"]["0"] == 64  # by the suit turned
    rows = {}
    for line in cli("tariffs", "show", "french").stdout.splitlines():
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if cells:
            rows.setdefault(cells[0], []).append([int(c) for c in cells[1:] if c])
    assert rows["simple (alone): 5 tricks"] == [list(TABLE["five"][0])]
    assert rows["petite-independence: 6 tricks"] == [list(TABLE["six"][0])]
    assert rows["grand-independence: 8 tricks"] == [list(TABLE["eight"][0])]
    assert rows["3 honours"][2:5:2] == [list(TABLE["six"][1]), list(TABLE["eight"][1])]
    assert rows["each extra trick"][0] == list(TABLE["five"][3])
    assert rows["petite-misere"] == [list(MISERES["petite-misere"])]
    assert rows["petite-misere-sur-table, grand-misere-sur-table"] == [list(MISERES["grand-misere-sur-table"])]


def test_the_phone_asks_the_suit_turned_and_records_a_french_deal(cli, isolated: Path) -> None:
    from boston_ledger.serve.server import Served
    from serving import ENTRY, VIEW, Phone, get

    cli("new", *PLAYERS, "--tariff", "french")
    running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    try:
        phone = Phone(running)
        page = phone.tap("petite-misere").html
        assert "Which suit was turned up?" in page and ">hearts<" in page
        page = phone.tap("hearts").tap("Vera").tap("0").html
        assert "diamond jack" not in page  # not asked of a misère
        page = phone.tap("Record this deal").html
        assert "Deal 1 recorded." in page
        sheet = get(running.port, f"/?t={VIEW}")[2].decode()
        assert "petite-misere Vera\u00a00, hearts turned" in sheet
    finally:
        running.close()
    assert cli.json("status")["balances"] == {"Anna": -74, "Boris": -64, "Vera": 202, "Gleb": -64}


def test_a_newcomer_plays_on_in_the_game_s_belle(cli) -> None:
    """A change of the table keeps the game: the belle turned on deal 1 stays the belle."""
    cli("new", *PLAYERS, "--tariff", "french")
    cli("deal", "pass", "--turned", "diamonds")
    cli("seat", "Gleb", "Dasha", "--own")  # Gleb leaves with his 0 and a quarter of the pool (2)
    cli("deal", "neuf-belle", "--declarer", "Dasha", "--tricks", "9", "--turned", "hearts")
    status = cli.json("status")
    assert status["balances"]["Dasha"] == 108 + 8 + 10  # nine in diamonds, 36 from each; the pool (8, Boris's 10)
    assert sum(status["balances"].values()) + status["basket"] == -2  # the 2 Gleb took away
    assert cli("check").exit_code == 0


def test_the_phone_asks_again_what_the_deals_before_refuse(cli, isolated: Path) -> None:
    """As the terminal does: a simple in petite with the belle (diamonds) turned again is refused
    where the deal is shown, and its rank asked again with the reason; nothing is recorded until
    it is answered right."""
    from boston_ledger.serve.server import Served
    from serving import ENTRY, VIEW, Phone

    cli("new", *PLAYERS, "--tariff", "french")
    cli("deal", "pass", "--turned", "diamonds")
    running = Served(isolated, None, "127.0.0.1", 0, VIEW, entry_token=ENTRY).in_thread()
    try:
        phone = Phone(running).tap("simple").tap("diamonds").tap("Vera").tap("Anna").tap("petite").tap("9")
        phone = phone.tap("no one").tap("0")
        assert phone.status == 200, phone.html
        assert "the belle, diamonds, was turned again: this deal has no petite" in phone.html
        assert "Record this deal" not in phone.buttons() and "belle" in phone.buttons(), phone.buttons()
        page = phone.tap("belle").html
        assert "Record this deal" in phone.buttons(), page
        assert "Deal 2 recorded." in phone.tap("Record this deal").html
    finally:
        running.close()
    assert described(cli, 2) == "simple belle Vera + Anna: 9, diamonds turned"
