"""Foster's Bostons played as he plays them: American Boston's pool (played out or "I pay", the
pools divided after every twelfth deal, a misdeal no deal), Boston de Fontainebleau with partners,
and Russian Boston. Every expected balance is computed by hand from Foster's printed figures
(Foster's Complete Hoyle, 1914: the winning and losing tables, p. 171; the misères, p. 172; Table
No. 1, p. 177), deal by deal, in the comments beside it."""

from __future__ import annotations

import pytest

from boston_ledger.core import engine
from boston_ledger.core.engine import BASKET, Deal, State
from boston_ledger.core.tariff_files import load
from conftest import PLAYERS

A, B, V, G = range(4)  # Anna, Boris, Vera, Gleb in seat order; the deal passes from Anna to Boris...
FONTAINEBLEAU, RUSSIAN = load("fontainebleau-foster"), load("russian-foster")

# An American evening of two games (--deals 24): the deal, then Anna, Boris, Vera, Gleb and the pool
# after it. Played out (tricks given) a made five or six takes the pool and its over-tricks; "I pay"
# (--conceded) pays the bid alone and leaves the pool to a pool bid (p. 173). A misdeal: the same
# dealer deals again and forfeits a red (10) to the pool; an empty pool is filled first (p. 165).
AMERICAN_EVENING = [
    # game 1
    (("five", "--declarer", "Anna", "--conceded"), (26, -22, -22, -22, 40)),  # stake 10 each; 12 each, pool stays
    (("six", "--declarer", "Boris", "--tricks", "8"), (10, 66, -38, -38, 0)),  # played out: 16 each and the 40
    (("five", "--declarer", "Vera", "--tricks", "5"), (-12, 44, 28, -60, 0)),  # stake; 12 each and the 40
    (("six", "--declarer", "Gleb", "--conceded"), (-37, 19, 3, -25, 40)),  # stake; 15 each; the pool stays
    (("six", "--declarer", "Anna", "--tricks", "4"), (-149, 43, 27, -1, 80)),  # put in for 2: 24 each; doubles
    (("seven", "--declarer", "Boris", "--conceded"), (-167, 177, 9, -19, 0)),  # a pool bid: 18 each and the 80
    (("misdeal",), (-177, 167, -11, -29, 50)),  # Vera: the empty pool filled (40), her red (10)
    (("five", "--declarer", "Gleb", "--tricks", "7"), (-190, 154, -24, 60, 0)),  # Vera deals again; 13 and the 50
    (("pass", "--tricks-each", "6,2,5,0"), (-310, 184, -24, 110, 40)),  # stake; Anna pays 4, 1, 6 red (p. 172)
    (("eight", "--declarer", "Vera", "--tricks", "7"), (-287, 207, -133, 133, 80)),  # 23 to each (p. 171); doubles
    (("five", "--declarer", "Boris", "--conceded"), (-299, 243, -145, 121, 80)),  # 12 each; the pool stays
    (("five", "--declarer", "Vera", "--tricks", "6"), (-311, 231, -29, 109, 0)),  # played out: 12 and the 80
    # the twelfth deal: stake; six put in for 1: 15 each, doubles 40; then the pool of 80 divided, 20 each
    (("six", "--declarer", "Anna", "--tricks", "5"), (-386, 256, -4, 134, 0)),
    # game 2: a fresh pool
    (("seven", "--declarer", "Anna", "--tricks", "10"), (-290, 224, -36, 102, 0)),  # stake; 22 each (p. 168)
    (("ten", "--declarer", "Boris", "--conceded"), (-342, 380, -88, 50, 0)),  # stake; 42 each (p. 169), the pool
    (("misdeal",), (-352, 370, -108, 40, 50)),  # Vera: stake, then her red
    (("five", "--declarer", "Vera", "--conceded"), (-364, 358, -72, 28, 50)),  # 12 each; the pool stays
    (("six", "--declarer", "Gleb", "--tricks", "13"), (-384, 338, -92, 138, 0)),  # 20 each and the 50
    (("pass", "--tricks-each", "4,4,4,1"), (-404, 318, -112, 158, 40)),  # stake; each pays Gleb a red (p. 173)
    (("five", "--declarer", "Anna", "--tricks", "4"), (-477, 329, -101, 169, 80)),  # 11 each; doubles
    (("five", "--declarer", "Boris", "--conceded"), (-489, 365, -113, 157, 80)),
    (("pass", "--tricks-each", "5,5,1,2"), (-524, 330, -73, 187, 80)),  # Anna and Boris tie: 35 each (p. 173)
    (("eight", "--declarer", "Gleb", "--conceded"), (-547, 307, -96, 336, 0)),  # 23 each and the 80
    (("misdeal",), (-557, 287, -106, 326, 50)),  # Boris: stake, then his red
    (("six", "--declarer", "Vera", "--tricks", "5"), (-542, 302, -201, 341, 100)),  # 15 each; doubles 50
    (("nine", "--declarer", "Anna", "--tricks", "12"), (-325, 263, -240, 302, 0)),  # 39 each and the 100
    (("misdeal",), (-335, 253, -250, 282, 50)),  # Gleb: stake, then his red
    # the twenty-fourth deal: 12 each, the pool stays; then the 50 divided, 12 each, the 2 left staying
    (("five", "--declarer", "Gleb", "--conceded"), (-335, 253, -250, 330, 2)),
]


@pytest.mark.slow  # two games through the command line
def test_an_american_evening_of_two_games_plays_the_pool_as_foster_does(cli) -> None:
    cli("new", *PLAYERS, "--tariff", "american", "--deals", "24")
    banners = []
    for number, (deal, after) in enumerate(AMERICAN_EVENING, 1):
        out = cli("deal", *deal).stdout
        status = cli.json("status")
        assert (*status["balances"].values(), status["basket"]) == after, (number, deal)
        assert sum(status["balances"].values()) + status["basket"] == 0  # the pool included
        banners += [number] * out.count("★ Game")
        assert ("game over: pool divided" in out) == (number in (13, 28))
    assert banners == [13, 28]  # the twelfth real deal of each game (the misdeals are none)
    history = cli.json("history")
    assert [d["description"] for d in history[:2]] == ['five Anna, "I pay"', "six Boris 8"]
    status = cli.json("status")
    assert status["deals"] == 24 and status["deals_left"] == 0
    settled = cli.json("settle", "--yes")
    assert settled["deals"] == 24 and settled["basket"] == 2  # what did not divide; settle shares it
    assert cli("check").exit_code == 0


def test_played_out_or_i_pay_on_the_engine() -> None:
    """p. 173: a made five played out is paid its over-tricks and takes the pool; "I pay" pays the
    bid alone, and the pool only to a pool bid."""
    american = load("american")
    calm = State((0, 0, 0, 0), basket=40, deals=1, stake_due=False)
    played = engine.play(american, calm, Deal("five", A, tricks=8))
    assert [(t.payer, t.payee, t.chips) for t in played.transfers if t.payee == A] == \
        [(B, A, 12), (B, A, 1), (V, A, 12), (V, A, 1), (G, A, 12), (G, A, 1), (BASKET, A, 40)]  # 13 each: five/8
    conceded = engine.play(american, calm, Deal("five", A, conceded=True))
    assert [(t.payer, t.payee, t.chips) for t in conceded.transfers] == [(B, A, 12), (V, A, 12), (G, A, 12)]
    with pytest.raises(engine.DealError, match="counts no tricks"):
        engine.play(american, calm, Deal("five", A, tricks=5, conceded=True))
    with pytest.raises(engine.DealError, match="has no \"I pay\""):
        engine.play(load("classic"), calm, Deal("junior", A, conceded=True))


def test_the_partie_ends_after_the_twelfth_real_deal_not_the_misdeal(cli) -> None:
    """The issue's steps: a misdeal, then eleven fives: the banner waits for the twelfth real deal."""
    cli("new", "A", "B", "C", "D", "--tariff", "american", "--deals", "12")
    assert "★" not in cli("deal", "misdeal").stdout
    for __ in range(11):
        assert "★" not in cli("deal", "five", "--declarer", "a", "--tricks", "5").stdout
    status = cli("status").stdout
    assert "11 deals played" in status and "1 of the 12 agreed deals left" in status
    assert cli.json("status")["deals"] == 11
    last = cli("deal", "five", "--declarer", "a", "--tricks", "5").stdout
    assert "★ Game 1 ends with this deal" in last and "That was the last of the 12 agreed deals" in last
    assert "12 deals played" in cli("status").stdout and "12 deals played" in cli("sheet").stdout


def test_foster_s_fontainebleau_partners_pay_135(cli) -> None:
    """p. 178, A calling seven diamonds with Y as partner: "the pair win only nine tricks. Each pays 135
    counters to the adversary sitting next him, and then they make up 135 more between them for the
    pool." Foster's A, Y, B, Z sit in this order."""
    cli("new", "A", "Y", "B", "Z", "--tariff", "fontainebleau-foster", "--deals", "12")
    cli("deal", "seven", "--declarer", "A", "--partner", "Y", "--team-tricks", "9", "--rank", "diamonds")
    status = cli.json("status")
    # A pays Z, Y pays B (the adversary beside each); 135 into the pool, the bidder the odd counter; A's stake 5
    assert status["balances"] == {"A": -5 - 135 - 68, "Y": -135 - 67, "B": 135, "Z": 135}
    assert status["basket"] == 5 + 135
    # made: each adversary pays the partner beside him; the pair divides the pool, the bidder the odd counter
    cli("deal", "six", "--declarer", "B", "--partner", "Z", "--team-tricks", "10", "--rank", "hearts")
    status = cli.json("status")  # six with a partner is valued as nine: hearts 100, one over-trick 5
    assert status["balances"] == {"A": -208 - 105, "Y": -202 - 5 - 105, "B": 135 + 105 + 73, "Z": 135 + 105 + 72}
    assert status["basket"] == 0


def test_partners_opposite_each_pay_the_adversary_on_their_right() -> None:
    """Partners who do not sit together: each pays the adversary on his right (the seat before his)."""
    calm = State((0, 0, 0, 0), basket=0, deals=1, stake_due=False)
    failed = engine.play(FONTAINEBLEAU, calm, Deal("five", A, partner=V, team_tricks=7, tricks=4, rank="clubs"))
    paid: dict[tuple[int, int], int] = {}
    for t in failed.transfers:
        if t.payer is not BASKET and t.payee is not BASKET:
            paid[t.payer, t.payee] = paid.get((t.payer, t.payee), 0) + t.chips
    assert paid == {(A, G): 75, (V, B): 75}  # five with a partner is valued as eight clubs: 70, one short 5


def test_fontainebleau_s_twelfth_hand_failed_leaves_the_pool_to_his_adversaries(cli) -> None:
    """p. 178: "At the end of the game, or on the twelfth hand, if the caller does not succeed, he pays
    the pool as usual, and his adversaries then divide it amongst themselves"."""
    cli("new", "A", "Y", "B", "Z", "--tariff", "fontainebleau-foster", "--deals", "12")
    for __ in range(11):  # each dealer 5 in turn; 10 from each and the pool to A
        cli("deal", "five", "--declarer", "A", "--tricks", "5", "--rank", "clubs")
    cli("deal", "nine", "--declarer", "Y", "--tricks", "6", "--rank", "hearts")  # 115 each and to the pool
    status = cli.json("status")  # Z's 5 and Y's 115: 120 divided among A, B and Z, 40 each
    assert status["balances"] == {"A": 485 + 40, "Y": -585, "B": -10 + 40, "Z": -10 + 40} and status["basket"] == 0


def test_i_pay_in_fontainebleau_saves_only_the_over_tricks() -> None:
    """p. 178: "If the adversaries declare to pay before the second trick, they can save nothing but
    possible over-tricks": the pool goes with the bid."""
    calm = State((0, 0, 0, 0), basket=40, deals=1, stake_due=False)
    outcome = engine.play(FONTAINEBLEAU, calm, Deal("seven", A, rank="hearts", conceded=True))
    assert engine.moves(outcome.transfers, 4) == [3 * 60 + 45, -60 - 5, -60, -60, -40]  # the pool and Boris's 5


def test_russian_boston_carte_blanche_and_partners_four_over(cli) -> None:
    """p. 183: carte blanche "receives 10 counters from each other player"; with a partner "the two must
    make four tricks more than the proposal"; honours always count."""
    cli("new", "A", "Y", "B", "Z", "--tariff", "russian-foster", "--deals", "12")
    cli("deal", "seven", "--declarer", "A", "--partner", "Y", "--team-tricks", "11", "--rank", "hearts",
        "--honours", "3", "--carte-blanche", "B")
    status = cli.json("status")
    # seven with a partner is valued as eleven hearts, 140; three honours as two over-tricks, 10; the pool (A's
    # own 5) divided, the bidder the odd counter; B's carte blanche, 10 from each
    assert status["balances"] == {"A": -5 + 150 + 3 - 10, "Y": 150 + 2 - 10, "B": -150 + 30, "Z": -150 - 10}
    assert status["basket"] == 0
    cli("deal", "six", "--declarer", "B", "--partner", "Z", "--team-tricks", "9", "--rank", "clubs")
    status = cli.json("status")  # valued as ten clubs, 110, one short 5: 115 to the adversary beside each
    assert status["balances"] == {"A": 138 + 115, "Y": 142 - 5 + 115, "B": -120 - 115 - 58, "Z": -160 - 115 - 57}
    assert status["basket"] == 5 + 115
    assert cli("deal", "five", "--declarer", "A", "--partner", "Y", "--team-tricks", "9", "--rank", "clubs",
               code=2).stderr.count("played alone") == 1  # five is played alone in Russian Boston
    assert cli("deal", "seven", "--declarer", "A", "--tricks", "7", "--rank", "clubs", "--honours", "4"
               ).exit_code == 0  # honours need no condition


@pytest.mark.parametrize("name", ["american", "american-decimal", "fontainebleau-foster", "russian-foster"])
def test_zero_sum_after_every_deal_the_pool_included(name: str) -> None:
    """Every deal, the divisions and the carte blanche included, moves chips between the parties only."""
    t = load(name)
    state = State.start(4)
    ranked = {"rank": "diamonds"} if name.endswith("foster") else {}
    deals = [Deal("five", A, tricks=6, **ranked), Deal("misdeal"), Deal("six", B, conceded=True, **ranked)]
    deals += [Deal("seven", V, tricks=4, **ranked), Deal("eight", G, tricks=12, **ranked)] * 6
    if name.endswith("foster"):
        deals.append(Deal("seven", A, partner=V, team_tricks=8, tricks=5, rank="hearts"))
    if name == "russian-foster":
        deals.append(Deal("eight", B, tricks=8, rank="spades", carte_blanche=G, honours=4))
    for deal in deals:
        state = engine.advance(state, engine.play(t, state, deal))
        assert sum(state.balances) + state.basket == 0
    assert state.played == len(deals) - 1


def test_an_edit_turns_i_pay_into_a_hand_played_out_and_back(cli) -> None:
    """Tricks given to a conceded deal mean it was played out; --conceded given to a played one drops
    its tricks."""
    cli("new", *PLAYERS, "--tariff", "american")
    cli("deal", "five", "--declarer", "Anna", "--conceded")
    cli("edit", "1", "--tricks", "7", "--reason", "played out")
    status = cli.json("status")  # five taking seven: 13 each, and the pool of 40
    assert status["balances"] == {"Anna": -10 + 39 + 40, "Boris": -23, "Vera": -23, "Gleb": -23}
    cli("edit", "1", "--conceded", "--reason", "they said I pay")
    status = cli.json("status")
    assert status["balances"] == {"Anna": -10 + 36, "Boris": -22, "Vera": -22, "Gleb": -22} and status["basket"] == 40
