"""What each deal moves, chip by chip: every contract of the shipped tariffs made and failed, an
all-pass, a misdeal and the conditions, each as the exact transfers (payer, payee, chips, why)
the engine makes from a fresh session, worked out by hand from the tariff's numbers in the
comments. Seats Anna, Boris, Vera, Gleb (0-3); None is the basket; Anna deals the first deal."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import tomli_w

from boston_ledger.core import engine
from boston_ledger.core.engine import BASKET as POT
from boston_ledger.core.engine import Deal, State
from boston_ledger.core.tariff_files import load, parse, with_conditions

TARIFFS = Path(__file__).resolve().parent.parent / "tariffs"
A, B, V, G = range(4)
CLASSIC = load("classic")
STAKES = [(A, POT, 10, "stake"), (B, POT, 10, "stake"), (V, POT, 10, "stake"), (G, POT, 10, "stake")]


def house(name: str, change, conditions: tuple[str, ...] = ()) -> object:
    """A shipped tariff with a house change (`change` edits its data as TOML reads it)."""
    data = tomllib.loads((TARIFFS / f"{name}.toml").read_text(encoding="utf-8"))
    data["tariff"]["name"] = f"house-{name}"
    change(data)
    tariff = parse(tomli_w.dumps(data))
    return with_conditions(tariff, conditions)


def moved(tariff, deal: Deal, state: State | None = None) -> list[tuple]:
    outcome = engine.play(tariff, state or State.start(tariff.players), deal)
    return [tuple(t) for t in outcome.transfers]


def each(payer, payees, chips: int, reason: str) -> list[tuple]:
    return [(payer, p, chips, reason) for p in payees]


def to(payee, payers, chips: int, reason: str) -> list[tuple]:
    return [(p, payee, chips, reason) for p in payers]


def lines_to(payee, payers, *lines: tuple[int, str]) -> list[tuple]:
    """Each payer pays `payee` each of the lines in turn."""
    return [(p, payee, chips, reason) for p in payers for chips, reason in lines]


def lines_from(payer, payees, *lines: tuple[int, str]) -> list[tuple]:
    return [(payer, p, chips, reason) for p in payees for chips, reason in lines]


# ---- classic: the solo, the nine, the misères ------------------------------------------------


def test_a_solo_made_with_an_overtrick() -> None:
    """Solo junior, 9 tricks: 16 consolation and 4 for the overtrick from each; the basket (40)."""
    assert moved(CLASSIC, Deal("solo", A, tricks=9)) == [
        *STAKES, *lines_to(A, (B, V, G), (16, "consolation"), (4, "overtricks")), (POT, A, 40, "basket")]
    outcome = engine.play(CLASSIC, State.start(4), Deal("solo", A, tricks=9))
    assert (outcome.made, outcome.stake_next, outcome.scores) == (True, True, (20, 0, 0, 0))


def test_a_senior_solo_slam_with_the_boston() -> None:
    """Solo senior, 13 tricks (×2): 16 + 5 × 4 = 36, the slam doubles it (+36), 144 from each;
    Boris held the boston: 2 from each other player."""
    assert moved(CLASSIC, Deal("solo", A, tricks=13, rank="senior", boston=B)) == [
        *STAKES, *lines_to(A, (B, V, G), (32, "consolation"), (40, "overtricks"), (72, "slam")),
        (POT, A, 40, "basket"), *to(B, (A, V, G), 2, "boston")]
    assert engine.play(CLASSIC, State.start(4), Deal("solo", A, tricks=13, rank="senior")).scores == (144, 0, 0, 0)


def test_a_solo_failed_by_two_and_by_thirteen() -> None:
    """Solo junior 6: 16 + 2 × 4 to each, and the labet (the basket's 40); 0 tricks: 16 + 13 × 4 = 68,
    doubled (+68): 136 to each ("Всего 136 фиш")."""
    failed = engine.play(CLASSIC, State.start(4), Deal("solo", A, tricks=6))
    assert [tuple(t) for t in failed.transfers] == [
        *STAKES, *lines_from(A, (B, V, G), (16, "consolation"), (8, "undertricks")), (A, POT, 40, "labet")]
    assert (failed.made, failed.stake_next, failed.scores) == (False, False, (-24, 0, 0, 0))
    assert moved(CLASSIC, Deal("solo", A, tricks=0)) == [
        *STAKES, *lines_from(A, (B, V, G), (16, "consolation"), (52, "undertricks"), (68, "slam")),
        (A, POT, 40, "labet")]


def test_a_nine_made_exactly() -> None:
    assert moved(CLASSIC, Deal("nine", V, tricks=9)) == [
        *STAKES, *to(V, (A, B, G), 40, "consolation"), (POT, V, 40, "basket")]


def test_the_misere_made_and_failed() -> None:
    """Misère made (no trick): 16 from each and the basket; failed: 16 to each, the labet, and the
    boston the declarer pays each other player unless he held it himself."""
    assert moved(CLASSIC, Deal("misere", B, tricks=0)) == [
        *STAKES, *to(B, (A, V, G), 16, "consolation"), (POT, B, 40, "basket")]
    assert moved(CLASSIC, Deal("misere", B, tricks=2, boston=V)) == [
        *STAKES, *each(B, (A, V, G), 16, "consolation"), (B, POT, 40, "labet"), *each(B, (A, V, G), 2, "boston")]
    assert moved(CLASSIC, Deal("misere", B, tricks=2, boston=B)) == [
        *STAKES, *each(B, (A, V, G), 16, "consolation"), (B, POT, 40, "labet")]


def test_the_grand_misere_ouverte_failed_costs_its_value_per_trick() -> None:
    assert moved(CLASSIC, Deal("grand-misere-ouvert", G, tricks=2)) == [
        *STAKES, *each(G, (A, B, V), 256, "misere-tricks"), (G, POT, 40, "labet"), *each(G, (A, B, V), 2, "boston")]
    assert moved(CLASSIC, Deal("grand-misere-ouvert", G, tricks=0)) == [
        *STAKES, *to(G, (A, B, V), 128, "consolation"), (POT, G, 40, "basket")]


# ---- classic: a pair, and a lone purchase ----------------------------------------------------


def test_a_pair_made_shares_the_basket_and_each_is_paid() -> None:
    """Boris 5 + Gleb 4, Vera the boston (the worked example): 2 consolation and 2 for the
    overtrick from each opponent to each of the pair; 20 of the basket each."""
    assert moved(CLASSIC, Deal("junior", B, G, 5, 4, boston=V)) == [
        *STAKES, *lines_to(B, (A, V), (2, "consolation"), (2, "overtricks")),
        *lines_to(G, (A, V), (2, "consolation"), (2, "overtricks")),
        (POT, B, 20, "basket"), (POT, G, 20, "basket"), *to(V, (A, B, G), 2, "boston")]


def test_a_pair_made_though_one_of_them_fell_short_of_his_share() -> None:
    """Boris 3 + Gleb 5: the pair's 8, made; shares decide nothing then."""
    outcome = engine.play(CLASSIC, State.start(4), Deal("junior", B, G, 3, 5))
    assert [tuple(t) for t in outcome.transfers] == [
        *STAKES, *to(B, (A, V), 2, "consolation"), *to(G, (A, V), 2, "consolation"),
        (POT, B, 20, "basket"), (POT, G, 20, "basket")]
    assert outcome.scores == (0, 2, 0, 2)


def test_a_pair_failed_both_short_split_the_labet() -> None:
    """Boris 4 (of his 5) + Gleb 2 (of his 3): each pays 2 + 2 × 2 to each opponent, the labet 20 each."""
    outcome = engine.play(CLASSIC, State.start(4), Deal("junior", B, G, 4, 2))
    assert [tuple(t) for t in outcome.transfers] == [
        *STAKES, *lines_from(B, (A, V), (2, "consolation"), (4, "undertricks")),
        *lines_from(G, (A, V), (2, "consolation"), (4, "undertricks")), (B, POT, 20, "labet"), (G, POT, 20, "labet")]
    assert (outcome.made, outcome.stake_next, outcome.scores) == (False, False, (0, -6, 0, -6))


@pytest.mark.parametrize("deal", [
    Deal("junior", B, G, 5, 2),
    Deal("junior", B, G, 5, team_tricks=7),  # the partner's own follow from the pair's and the declarer's
    Deal("junior", B, G, None, 2, team_tricks=7),  # and the declarer's from the pair's and the partner's
], ids=["each", "declarer-and-pair", "partner-and-pair"])
def test_only_the_partner_short_of_his_share_pays(deal: Deal) -> None:
    """Boris took his 5, Gleb 2 of his 3: the pair's 7 fail by one, and Gleb alone pays (2 + 2 to
    each opponent, the whole labet); Boris neither pays nor receives."""
    outcome = engine.play(CLASSIC, State.start(4), deal)
    assert [tuple(t) for t in outcome.transfers] == [
        *STAKES, *lines_from(G, (A, V), (2, "consolation"), (2, "undertricks")), (G, POT, 40, "labet")]
    assert outcome.scores == (0, 0, 0, -4)


def test_only_the_declarer_short_of_his_share_pays_the_labet_whole() -> None:
    state = State(balances=(-10, -11, -10, -10), basket=41, deals=1, stake_due=False)
    assert moved(CLASSIC, Deal("junior", B, G, 4, 3), state) == [
        *lines_from(B, (A, V), (2, "consolation"), (2, "undertricks")), (B, POT, 41, "labet")]


def test_a_pair_s_odd_chip_of_the_labet_as_the_house_says() -> None:
    state = State(balances=(-21, -20, -20, -20), basket=81, deals=1, stake_due=False)
    deal = Deal("junior", B, G, 4, 2)
    assert moved(CLASSIC, deal, state)[-2:] == [(B, POT, 41, "labet"), (G, POT, 40, "labet")]
    partner = house("classic", lambda d: d["basket"].update(labet_odd_chip="partner"))
    assert moved(partner, deal, state)[-2:] == [(B, POT, 40, "labet"), (G, POT, 41, "labet")]


def test_a_basket_shared_with_the_remainder_to_the_first() -> None:
    state = State(balances=(-21, -20, -20, -20), basket=81, deals=1, stake_due=False)
    deal = Deal("junior", B, G, 5, 3)
    assert moved(CLASSIC, deal, state)[-2:] == [(POT, B, 40, "basket"), (POT, G, 40, "basket")]
    first = house("classic", lambda d: d["basket"].update(share_remainder="first"))
    assert moved(first, deal, state)[-2:] == [(POT, B, 41, "basket"), (POT, G, 40, "basket")]
    # a failed lone purchase: the basket to the three opponents, the first of them the odd chips
    state = state._replace(basket=82)
    assert moved(first, Deal("junior", B, tricks=4), state)[-3:] == [
        (POT, A, 28, "basket"), (POT, V, 27, "basket"), (POT, G, 27, "basket")]


def test_a_lone_purchase_made_and_failed() -> None:
    """Junior alone, 5 tricks (its bar): 2 from each, the basket; 4 tricks: 2 + 2 to each, the
    basket to the three opponents (13 each, one chip stays), and the next deal opens with a stake."""
    assert moved(CLASSIC, Deal("junior", V, tricks=5)) == [
        *STAKES, *to(V, (A, B, G), 2, "consolation"), (POT, V, 40, "basket")]
    outcome = engine.play(CLASSIC, State.start(4), Deal("junior", V, tricks=4))
    assert [tuple(t) for t in outcome.transfers] == [
        *STAKES, *lines_from(V, (A, B, G), (2, "consolation"), (2, "undertricks")),
        (POT, A, 13, "basket"), (POT, B, 13, "basket"), (POT, G, 13, "basket")]
    assert (outcome.made, outcome.stake_next) == (False, True)


# ---- the basket at an all-pass, a misdeal, the conditions ------------------------------------


def test_an_all_pass_doubles_the_basket_the_dealer_paying_the_remainder() -> None:
    state = State(balances=(-10, -11, -10, -10), basket=41, deals=2, stake_due=False)  # Vera deals
    outcome = engine.play(CLASSIC, state, Deal("pass"))
    assert [tuple(t) for t in outcome.transfers] == [
        (A, POT, 10, "all-pass"), (B, POT, 10, "all-pass"), (G, POT, 10, "all-pass"), (V, POT, 11, "all-pass")]
    assert (outcome.made, outcome.stake_next, outcome.scores) == (None, False, (0, 0, 0, 0))
    eldest = house("classic", lambda d: d["basket"].update(all_pass_remainder="eldest"))
    assert moved(eldest, Deal("pass"), state) == [
        (A, POT, 10, "all-pass"), (B, POT, 10, "all-pass"), (V, POT, 10, "all-pass"), (G, POT, 11, "all-pass")]


def test_a_misdeal_moves_nothing_and_keeps_the_stake_due() -> None:
    outcome = engine.play(CLASSIC, State.start(4), Deal("misdeal"))
    assert outcome == engine.Outcome((), None, True, (0, 0, 0, 0), False)
    after = State(balances=(-10, -10, -10, -10), basket=40, deals=1, stake_due=False)
    assert engine.play(CLASSIC, after, Deal("misdeal")).stake_next is False
    fined = house("classic", lambda d: d["basket"].update(misdeal_penalty=5))
    assert moved(fined, Deal("misdeal"), after) == [(B, POT, 5, "misdeal")]  # Boris deals the second deal


def test_american_misdeal_fills_an_empty_pool_and_the_dealer_deals_again() -> None:
    """American: a misdeal before the game's first deal puts in only its forfeit (the stakes come with
    the first real deal); the misdealer pays 10 and deals again."""
    american = load("american")
    outcome = engine.play(american, State.start(4), Deal("misdeal"))
    assert [tuple(t) for t in outcome.transfers] == [(A, POT, 10, "misdeal")]
    assert (outcome.made, outcome.stake_next, outcome.redealt) == (None, True, True)
    full = State(balances=(-20, -10, -10, -10), basket=50, deals=1, stake_due=False, redeals=1)
    outcome = engine.play(american, full, Deal("misdeal"))
    assert [tuple(t) for t in outcome.transfers] == [(A, POT, 10, "misdeal")]  # Anna still deals
    assert (outcome.stake_next, outcome.redealt) == (False, True)


def test_the_simple_game_stakes_4_each_every_deal_and_fontainebleau_the_dealer_alone() -> None:
    simple = load("classic", ["simple"])
    state = State(balances=(0, 0, 0, 0), basket=0, deals=5, stake_due=False)  # Boris deals
    assert moved(simple, Deal("pass"), state)[:4] == [(seat, POT, 4, "stake") for seat in (A, B, V, G)]
    fontainebleau = load("fontainebleau")
    assert moved(fontainebleau, Deal("pass"), state._replace(stake_due=True))[:2] == [
        (B, POT, 50, "stake"), (A, POT, 12, "all-pass")]


def test_remise_the_dealer_pays_for_an_ace_turned() -> None:
    """classic with remise: the dealer (Anna) pays 2 into the basket, which the all-pass then doubles:
    42, each pays 10 and the dealer 12."""
    remise = load("classic", ["remise"])
    assert moved(remise, Deal("pass", ace_turned=True)) == [
        *STAKES, (A, POT, 2, "remise"), (B, POT, 10, "all-pass"), (V, POT, 10, "all-pass"),
        (G, POT, 10, "all-pass"), (A, POT, 12, "all-pass")]


def test_carte_blanche_each_pays_the_blank_hand() -> None:
    """Fontainebleau: a blank hand is paid 10 by each other player (doubled in a double tour)."""
    fontainebleau = load("fontainebleau")
    assert moved(fontainebleau, Deal("pass", carte_blanche=G)) == [
        (A, POT, 50, "stake"), *to(G, (A, B, V), 10, "carte-blanche"), (B, POT, 12, "all-pass"),
        (V, POT, 12, "all-pass"), (G, POT, 12, "all-pass"), (A, POT, 14, "all-pass")]
    double = State(balances=(0, 0, 0, 0), basket=0, deals=32, stake_due=False)
    assert moved(fontainebleau, Deal("solo", A, tricks=8, carte_blanche=G), double)[:3] == to(
        G, (A, B, V), 20, "carte-blanche")


def test_fontainebleau_doubles_the_boston_of_a_slam_for_the_declaring_side_only() -> None:
    fontainebleau = load("fontainebleau")
    assert moved(fontainebleau, Deal("solo", A, tricks=13, boston=A))[-3:] == to(A, (B, V, G), 4, "boston")
    assert moved(fontainebleau, Deal("solo", A, tricks=13, boston=B))[-3:] == to(B, (A, V, G), 2, "boston")
    assert moved(fontainebleau, Deal("solo", A, tricks=12, boston=A))[-3:] == to(A, (B, V, G), 2, "boston")


# ---- misère partout -------------------------------------------------------------------------


def test_misere_partout_the_most_tricks_pays_each_the_difference() -> None:
    """classic's condition: 2 a trick of difference; the stake due is still paid."""
    partout = load("classic", ["misere-partout"])
    outcome = engine.play(partout, State.start(4), Deal("pass", tricks_each=(5, 4, 2, 2)))
    assert [tuple(t) for t in outcome.transfers] == [
        *STAKES, (A, B, 2, "misere-partout"), (A, V, 6, "misere-partout"), (A, G, 6, "misere-partout")]
    assert (outcome.made, outcome.stake_next) == (None, False)
    double = State(balances=(0, 0, 0, 0), basket=40, deals=32, stake_due=False)
    assert moved(partout, Deal("pass", tricks_each=(2, 5, 3, 3)), double) == [
        (B, A, 12, "misere-partout"), (B, V, 8, "misere-partout"), (B, G, 8, "misere-partout")]


def test_misere_partout_tied_for_the_most_share_each_payment() -> None:
    """Three tied at 4: each pays the fourth 2 (Foster: "each pays only half the total" when two
    tie); 3 a trick (a house rate): an odd chip is paid by the earlier seat of the tied."""
    partout = load("classic", ["misere-partout"])
    state = State(balances=(0, 0, 0, 0), basket=40, deals=1, stake_due=False)
    assert moved(partout, Deal("pass", tricks_each=(4, 4, 1, 4)), state) == [
        (A, V, 2, "misere-partout"), (B, V, 2, "misere-partout"), (G, V, 2, "misere-partout")]
    three = house("classic", lambda d: d["conditions"]["misere-partout"]["set"]["basket"].update(partout_per_trick=3),
                  ("misere-partout",))
    assert moved(three, Deal("pass", tricks_each=(5, 5, 2, 1)), state) == [
        (A, V, 5, "misere-partout"), (B, V, 4, "misere-partout"), (A, G, 6, "misere-partout"),
        (B, G, 6, "misere-partout")]


def test_foster_misere_partout_the_fewest_take_the_pool() -> None:
    """Fontainebleau-Foster: the dealer's 5; the fewest tricks take the pool, shared, what does
    not divide staying."""
    foster = load("fontainebleau-foster")
    assert moved(foster, Deal("pass", tricks_each=(4, 3, 5, 1))) == [
        (A, POT, 5, "stake"), (POT, G, 5, "misere-partout")]
    state = State(balances=(-5, -5, -5, -5), basket=20, deals=4, stake_due=False)
    assert moved(foster, Deal("pass", tricks_each=(4, 3, 3, 3)), state) == [
        (A, POT, 5, "stake"), (POT, B, 8, "misere-partout"), (POT, V, 8, "misere-partout"),
        (POT, G, 8, "misere-partout")]


# ---- the other tariffs: printed tables, Foster's pool, premiums, points ------------------------


def test_american_pays_its_printed_table() -> None:
    """seven: 18 at 7 tricks, 21 at 9 (paid as 18 and 3 over), 29 for two short; each puts 10 into
    the empty pool, which a seven made takes and a failed one doubles."""
    american = load("american")
    assert moved(american, Deal("seven", A, tricks=9)) == [
        *STAKES, *lines_to(A, (B, V, G), (18, "contract"), (3, "overtricks")), (POT, A, 40, "basket")]
    assert moved(american, Deal("seven", A, tricks=7)) == [*STAKES, *to(A, (B, V, G), 18, "contract"),
                                                           (POT, A, 40, "basket")]
    assert moved(american, Deal("seven", A, tricks=5)) == [*STAKES, *each(A, (B, V, G), 29, "undertricks"),
                                                           (A, POT, 40, "labet")]
    assert moved(american, Deal("seven", A, tricks=6)) == [*STAKES, *each(A, (B, V, G), 19, "undertricks"),
                                                           (A, POT, 40, "labet")]


def test_american_five_takes_the_pool_played_out_and_not_conceded() -> None:
    """p. 173: a five played out takes the pool; "I pay" saves it (five is no pool bid)."""
    played = engine.play(load("american"), State.start(4), Deal("five", B, tricks=5))
    assert [tuple(t) for t in played.transfers] == [*STAKES, *to(B, (A, V, G), 12, "contract"), (POT, B, 40, "basket")]
    assert (played.made, played.stake_next) == (True, True)
    conceded = engine.play(load("american"), State.start(4), Deal("five", B, conceded=True))
    assert [tuple(t) for t in conceded.transfers] == [*STAKES, *to(B, (A, V, G), 12, "contract")]
    assert (conceded.made, conceded.stake_next) == (True, False)


def test_american_pool_limit_a_win_takes_the_first_pool_and_a_labet_doubles_it() -> None:
    american = load("american")
    state = State(balances=(-100, -100, -100, 0), basket=300, deals=1, stake_due=False)
    assert moved(american, Deal("seven", B, tricks=7), state)[-1] == (POT, B, 250, "basket")
    assert moved(american, Deal("seven", B, tricks=6), state)[-1] == (B, POT, 250, "labet")
    assert moved(american, Deal("little-misere", B, tricks=0), state) == [
        *to(B, (A, V, G), 20, "contract"), (POT, B, 250, "basket")]
    assert moved(american, Deal("little-misere", B, tricks=1), state) == [
        *each(B, (A, V, G), 20, "contract"), (B, POT, 250, "labet")]


def test_foster_a_bid_made_with_honours() -> None:
    """seven hearts, 9 tricks: 60, two over-tricks at 5, four honours paid as four over-tricks (20);
    the dealer's 5 in the pool, which goes with the successful play."""
    foster = load("fontainebleau-foster", ["honours"])
    assert moved(foster, Deal("seven", A, tricks=9, rank="hearts", honours=4)) == [
        (A, POT, 5, "stake"), *lines_to(A, (B, V, G), (60, "contract"), (10, "overtricks"), (20, "honours")),
        (POT, A, 5, "basket")]
    assert moved(foster, Deal("seven", A, tricks=7, rank="diamonds", honours=3))[1:4] == [
        (B, A, 70, "contract"), (B, A, 10, "honours"), (V, A, 70, "contract")]
    assert moved(foster, Deal("seven", A, tricks=7, rank="clubs", honours=2))[1:3] == [
        (B, A, 50, "contract"), (V, A, 50, "contract")]


def test_foster_a_failed_bid_pays_the_pool_what_it_pays_each() -> None:
    """five spades, 3 tricks: 10 and 5 for each of two short to each adversary, and the same 20
    into the pool (as-each)."""
    outcome = engine.play(load("fontainebleau-foster"), State.start(4), Deal("five", A, tricks=3, rank="spades"))
    assert [tuple(t) for t in outcome.transfers] == [
        (A, POT, 5, "stake"), *lines_from(A, (B, V, G), (10, "contract"), (10, "undertricks")),
        (A, POT, 20, "penalty")]
    assert (outcome.made, outcome.stake_next, outcome.scores) == (False, False, (-20, 0, 0, 0))


def test_foster_piccolissimo_is_made_on_exactly_one_trick() -> None:
    foster = load("fontainebleau-foster")
    assert moved(foster, Deal("piccolissimo", V, tricks=1)) == [
        (A, POT, 5, "stake"), *to(V, (A, B, G), 100, "contract"), (POT, V, 5, "basket")]
    assert moved(foster, Deal("piccolissimo", V, tricks=0)) == [
        (A, POT, 5, "stake"), *each(V, (A, B, G), 100, "contract"), (V, POT, 100, "penalty")]


def test_tambov_premium_is_paid_made_and_failed_and_not_doubled() -> None:
    """six with a partner (10 tricks, shares 6 and 4): 6 and the premium 2; failed by one, only
    Anna (5 of her 6) pays 2, 2 for the trick short and the premium 2, and the labet; six alone
    at 13: 4 + 7 × 2 doubled by the slam (+18), the premium 2 after."""
    tambov = load("tambov")
    assert moved(tambov, Deal("six", A, B, 6, 4)) == [
        *STAKES, *lines_to(A, (V, G), (6, "consolation"), (2, "premium")),
        *lines_to(B, (V, G), (6, "consolation"), (2, "premium")), (POT, A, 20, "basket"), (POT, B, 20, "basket")]
    assert moved(tambov, Deal("six", A, B, 5, 4)) == [
        *STAKES, *lines_from(A, (V, G), (2, "consolation"), (2, "undertricks"), (2, "premium")), (A, POT, 40, "labet")]
    assert moved(tambov, Deal("six", A, B, 0, 0)) == [
        *STAKES, *lines_from(A, (V, G), (2, "consolation"), (26, "undertricks"), (28, "slam"), (2, "premium")),
        *lines_from(B, (V, G), (2, "consolation"), (26, "undertricks"), (28, "slam"), (2, "premium")),
        (A, POT, 20, "labet"), (B, POT, 20, "labet")]
    assert moved(tambov, Deal("six", A, tricks=13)) == [
        *STAKES, *lines_to(A, (B, V, G), (4, "consolation"), (14, "overtricks"), (18, "slam"), (2, "premium")),
        (POT, A, 40, "basket")]


def test_samouchitel_points_each_writes_his_own() -> None:
    """Points, no basket: a seven of the first rank at 8 tricks is 13 + 2; failed, 13 from the
    declarer to each; a five with a partner, 3 + 2 to each of the pair, each writing it."""
    samouchitel = load("samouchitel")
    made = engine.play(samouchitel, State.start(4), Deal("7", A, tricks=8, rank="first"))
    assert [tuple(t) for t in made.transfers] == lines_to(A, (B, V, G), (13, "contract"), (2, "overtricks"))
    assert (made.made, made.stake_next, made.scores) == (True, False, (15, 0, 0, 0))
    failed = engine.play(samouchitel, State.start(4), Deal("7", A, tricks=5, rank="third"))
    assert [tuple(t) for t in failed.transfers] == each(A, (B, V, G), 11, "contract")
    assert failed.scores == (-11, 0, 0, 0)
    pair = engine.play(samouchitel, State.start(4), Deal("5", A, V, 5, 4, rank="first"))
    assert pair.scores == (5, 0, 5, 0)
    pair = engine.play(samouchitel, State.start(4), Deal("5", A, V, 4, 3, rank="second"))
    assert [tuple(t) for t in pair.transfers] == [*each(A, (B, G), 2, "contract"), *each(V, (B, G), 2, "contract")]
    assert pair.scores == (-2, 0, -2, 0)


def test_an_overtrick_of_one_chip_and_shares_of_one_chip_are_paid() -> None:
    """american five at 7 tricks: 13, paid as 12 and 1 over; misère partout at 1 a trick (a house
    rate): Anna and Boris tied at 4 share Vera's 1 (Anna pays it, Boris nothing) and Gleb's 2."""
    assert moved(load("american"), Deal("five", A, tricks=7))[4:6] == [(B, A, 12, "contract"), (B, A, 1, "overtricks")]
    one = house("classic", lambda d: d["conditions"]["misere-partout"]["set"]["basket"].update(partout_per_trick=1),
                ("misere-partout",))
    state = State(balances=(0, 0, 0, 0), basket=40, deals=1, stake_due=False)
    assert moved(one, Deal("pass", tricks_each=(4, 4, 3, 2)), state) == [
        (A, V, 1, "misere-partout"), (A, G, 1, "misere-partout"), (B, G, 1, "misere-partout")]


def test_foster_pool_shared_by_the_fewest_as_the_house_says() -> None:
    """The remainder of a pool shared by three to the first of them (a house rule); a pool of 1
    (a house stake of 1) shared by three gives nobody anything."""
    state = State(balances=(-5, -5, -5, -5), basket=20, deals=4, stake_due=False)
    first = house("fontainebleau-foster", lambda d: d["basket"].update(share_remainder="first"))
    assert moved(first, Deal("pass", tricks_each=(4, 3, 3, 3)), state) == [
        (A, POT, 5, "stake"), (POT, B, 9, "misere-partout"), (POT, V, 8, "misere-partout"),
        (POT, G, 8, "misere-partout")]
    small = house("fontainebleau-foster", lambda d: d["basket"].update(stake=1))
    assert moved(small, Deal("pass", tricks_each=(4, 3, 3, 3))) == [(A, POT, 1, "stake")]


def test_the_boston_house_rules_a_slam_for_anyone_and_the_declarer_paying_always() -> None:
    """A house classic whose slam doubles anyone's boston (Boris's, an opponent's: 4 from each),
    and whose failed misère's declarer pays the boston whoever held it (so nobody says who)."""
    anyone = house("classic", lambda d: d["boston"].update(slam_multiplier=2, slam_for="anyone"))
    assert moved(anyone, Deal("solo", A, tricks=13, boston=B))[-3:] == to(B, (A, V, G), 4, "boston")
    always = house("classic", lambda d: d["contracts"]["misere"].update(boston_failed="declarer-pays"))
    assert moved(always, Deal("misere", A, tricks=1))[-3:] == each(A, (B, V, G), 2, "boston")


def test_one_point_lines_and_a_pool_of_one_chip_each() -> None:
    """samouchitel's five of the third rank is worth 1 a player; Foster's first pool of 5 shared by
    three who took the fewest: 1 each, 2 stay."""
    samouchitel = load("samouchitel")
    assert moved(samouchitel, Deal("5", A, tricks=5, rank="third")) == to(A, (B, V, G), 1, "contract")
    assert moved(load("fontainebleau-foster"), Deal("pass", tricks_each=(4, 3, 3, 3))) == [
        (A, POT, 5, "stake"), (POT, B, 1, "misere-partout"), (POT, V, 1, "misere-partout"),
        (POT, G, 1, "misere-partout")]
