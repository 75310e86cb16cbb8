"""Every impossible deal and the one line that refuses it: the engine's problem (the field of
core/fields.py it names, what that field needs, the reason word for word), and, for a few, the
line the command line prints. One row per refusal of `engine.validate`, at the edges of each
range (a seat, a number of tricks, of honours, of players' tricks) so that a limit moved by one
is seen."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
import tomli_w

from boston_ledger.core import engine
from boston_ledger.core.engine import Deal
from boston_ledger.core.errors import DROP, GIVE, MEND
from boston_ledger.core.fields import BY_NAME
from boston_ledger.core.i18n import in_language
from boston_ledger.core.tariff_files import load, parse

TARIFFS = Path(__file__).resolve().parent.parent / "tariffs"
A, B, V, G = range(4)
CLASSIC_CONTRACTS = "junior, senior, solo, nine, misere, grand-misere, misere-ouvert, grand-misere-ouvert"


def house(name: str, change) -> object:
    """A shipped tariff with one house change (`change` edits its data as TOML reads it)."""
    data = tomllib.loads((TARIFFS / f"{name}.toml").read_text(encoding="utf-8"))
    data["tariff"]["name"] = f"house-{name}"
    change(data)
    return parse(tomli_w.dumps(data))


def pairs_only(data: dict) -> None:
    """classic's junior played only with a partner."""
    del data["contracts"]["junior"]["alone"]


TABLES = {
    "classic": lambda: load("classic"),
    "classic+partout": lambda: load("classic", ["misere-partout"]),
    "classic+remise": lambda: load("classic", ["remise"]),
    "american": lambda: load("american"),
    "fontainebleau": lambda: load("fontainebleau"),
    "foster": lambda: load("fontainebleau-foster"),
    "foster+honours": lambda: load("fontainebleau-foster", ["honours"]),
    "pairs-only": lambda: house("classic", pairs_only),
}

# (tariff, deal, field, remedy, the engine's words)
REFUSALS = [
    # seats: each field that names one, just past either end of the table
    ("classic", Deal("solo", -1, tricks=8), "declarer", MEND, "seat -1 is not at this table of 4"),
    ("classic", Deal("solo", 4, tricks=8), "declarer", MEND, "seat 4 is not at this table of 4"),
    ("classic", Deal("junior", A, 4, 5, 3), "partner", MEND, "seat 4 is not at this table of 4"),
    ("classic", Deal("junior", A, -1, 5, 3), "partner", MEND, "seat -1 is not at this table of 4"),
    ("classic", Deal("solo", A, tricks=8, boston=4), "boston", MEND, "seat 4 is not at this table of 4"),
    ("classic", Deal("solo", A, tricks=8, boston=-1), "boston", MEND, "seat -1 is not at this table of 4"),
    ("fontainebleau", Deal("solo", A, tricks=8, carte_blanche=4), "carte_blanche", MEND,
     "seat 4 is not at this table of 4"),
    # what the tariff does not play
    ("classic", Deal("solo", A, tricks=8, ace_turned=True), "ace_turned", DROP,
     "an ace turned counts only with the remise condition, which this session does not play"),
    ("classic", Deal("solo", A, tricks=8, carte_blanche=B), "carte_blanche", DROP,
     "the classic tariff pays nothing for a blank hand"),
    ("american", Deal("seven", A, tricks=7, boston=B), "boston", DROP, "the american tariff pays no boston"),
    ("classic", Deal("solo", A, tricks=8, honours=0), "honours", DROP, "the classic tariff scores no honours"),
    ("foster+honours", Deal("seven", A, tricks=7, rank="clubs", honours=5), "honours", MEND,
     "5 is not a number of honours from 0 to 4"),
    ("foster+honours", Deal("seven", A, tricks=7, rank="clubs", honours=-1), "honours", MEND,
     "-1 is not a number of honours from 0 to 4"),
    # a misdeal and an all-pass are not played
    ("classic", Deal("misdeal", tricks=0), "tricks", DROP, "a misdeal is not played"),
    ("classic", Deal("misdeal", partner=B), "partner", DROP, "a misdeal is not played"),
    ("classic", Deal("misdeal", rank="junior"), "rank", DROP, "a misdeal is not played"),
    ("classic", Deal("misdeal", team_tricks=8), "team_tricks", DROP, "a misdeal is not played"),
    ("classic", Deal("misdeal", partner_tricks=3), "partner_tricks", DROP, "a misdeal is not played"),
    ("classic", Deal("misdeal", boston=B), "boston", DROP, "a misdeal is not played"),
    ("classic+remise", Deal("misdeal", ace_turned=True), "ace_turned", DROP, "a misdeal is not played"),
    ("fontainebleau", Deal("misdeal", carte_blanche=B), "carte_blanche", DROP, "a misdeal is not played"),
    ("classic+partout", Deal("misdeal", tricks_each=(3, 3, 3, 4)), "tricks_each", DROP, "a misdeal is not played"),
    ("foster+honours", Deal("misdeal", honours=1), "honours", DROP, "a misdeal is not played"),
    ("classic", Deal("pass", tricks=0), "tricks", DROP, "an all-pass is not played"),
    ("classic", Deal("pass", rank="junior"), "rank", DROP, "an all-pass is not played"),
    ("classic", Deal("pass", boston=B), "boston", DROP, "an all-pass is not played"),
    ("foster+honours", Deal("pass", honours=1, tricks_each=(3, 3, 3, 4)), "honours", DROP,
     "an all-pass is played as misère partout, where only every player's tricks are said"),
    ("classic+partout", Deal("pass", A, tricks_each=(3, 3, 3, 4)), "declarer", DROP,
     "an all-pass is played as misère partout, where only every player's tricks are said"),
    # every player's tricks: only of an all-pass played as misère partout, all of them, 13 in all
    ("classic", Deal("pass", tricks_each=(3, 3, 3, 4)), "tricks_each", DROP,
     "every player's tricks count only with the misère partout condition, which this session does not play"),
    ("classic+partout", Deal("solo", A, tricks=8, tricks_each=(3, 3, 3, 4)), "tricks_each", DROP,
     "every player's tricks are said only of an all-pass played as misère partout"),
    ("classic+partout", Deal("pass"), "tricks_each", GIVE,
     "this session plays misère partout: an all-pass is played, so give every player's tricks in seat order, "
     "13 tricks in all"),
    ("classic+partout", Deal("pass", tricks_each=(3, 3, 7)), "tricks_each", MEND,
     "every player's tricks are needed, 4 numbers in seat order, not 3"),
    ("classic+partout", Deal("pass", tricks_each=(3, 3, 3, 3, 1)), "tricks_each", MEND,
     "every player's tricks are needed, 4 numbers in seat order, not 5"),
    ("classic+partout", Deal("pass", tricks_each=(3, 3, 3, 3)), "tricks_each", MEND,
     "every player's tricks must add up to the 13 tricks of a deal, not 12"),
    ("classic+partout", Deal("pass", tricks_each=(-1, 4, 5, 5)), "tricks_each", MEND,
     "every player's tricks must add up to the 13 tricks of a deal, not 13"),
    ("classic+partout", Deal("pass", tricks_each=(14, -1, 0, 0)), "tricks_each", MEND,
     "every player's tricks must add up to the 13 tricks of a deal, not 13"),
    # the contract and its declarer
    ("classic", Deal("septet", A, tricks=8), "contract", None,
     f"the classic tariff has no contract 'septet'; it has {CLASSIC_CONTRACTS} and pass"),
    ("classic", Deal("solo", tricks=8), "declarer", GIVE, "solo needs its declarer"),
    # the declaring side
    ("classic", Deal("junior", A, A, 5, 3), "partner", MEND,
     "the partner cannot be the declarer; choose another player"),
    ("classic", Deal("solo", A, B, 8, 1), "partner", DROP, "solo is played alone"),
    ("classic", Deal("junior", A, B, 5), "partner_tricks", GIVE,
     "a deal with a partner needs the partner's own tricks, or the pair's together"),
    ("pairs-only", Deal("junior", A, tricks=5), "partner", GIVE, "junior is played with a partner"),
    ("classic", Deal("solo", A, tricks=8, partner_tricks=2), "partner_tricks", DROP,
     "a declarer who plays alone has no partner's tricks"),
    ("classic", Deal("solo", A, tricks=8, team_tricks=9), "partner", GIVE,
     "the tricks of a pair together need a partner"),
    # the tricks
    ("classic", Deal("solo", A), "tricks", GIVE, "solo needs the declarer's tricks"),
    ("classic", Deal("solo", A, tricks=14), "tricks", MEND, "14 is not a number of tricks from 0 to 13"),
    ("classic", Deal("solo", A, tricks=-1), "tricks", MEND, "-1 is not a number of tricks from 0 to 13"),
    ("classic", Deal("junior", A, B, 5, 14), "partner_tricks", MEND, "14 is not a number of tricks from 0 to 13"),
    ("classic", Deal("junior", A, B, 5, -1), "partner_tricks", MEND, "-1 is not a number of tricks from 0 to 13"),
    ("classic", Deal("junior", A, B, team_tricks=14), "team_tricks", MEND, "14 is not a number of tricks from 0 to 13"),
    ("classic", Deal("junior", A, B, 5, team_tricks=-1), "team_tricks", MEND,
     "-1 is not a number of tricks from 0 to 13"),
    ("classic", Deal("junior", A, B, 5, 4, team_tricks=8), "team_tricks", MEND,
     "the declarer's 5 and the partner's 4 tricks are not the pair's 8 tricks together"),
    ("classic", Deal("junior", A, B, 0, 0, team_tricks=1), "team_tricks", MEND,
     "the declarer's 0 and the partner's 0 tricks are not the pair's 1 trick together"),
    ("classic", Deal("junior", A, B, 9, team_tricks=8), "tricks", MEND,
     "the declarer cannot have taken 9 of the pair's 8 tricks"),
    ("classic", Deal("junior", A, B, 2, team_tricks=1), "tricks", MEND,
     "the declarer cannot have taken 2 of the pair's 1 trick"),
    ("classic", Deal("junior", A, B, partner_tricks=9, team_tricks=8), "partner_tricks", MEND,
     "the partner cannot have taken 9 of the pair's 8 tricks"),
    ("classic", Deal("junior", A, B, partner_tricks=2, team_tricks=1), "partner_tricks", MEND,
     "the partner cannot have taken 2 of the pair's 1 trick"),
    ("classic", Deal("junior", A, B, 8, 6), "partner_tricks", MEND,
     "declarer and partner took 8 + 6 tricks, more than the 13 of a deal"),
    # the pair's tricks said together, where who took how many decides who pays
    ("classic", Deal("junior", A, B, team_tricks=7), "tricks", GIVE,
     "the pair took 7 tricks together, fewer than the 8 they needed, so who took how many decides who pays: "
     "give the declarer's own tricks"),
    ("classic", Deal("junior", A, B, team_tricks=1), "tricks", GIVE,
     "the pair took 1 trick together, fewer than the 8 they needed, so who took how many decides who pays: "
     "give the declarer's own tricks"),
    # the rank
    ("classic", Deal("solo", A, tricks=8, rank="first"), "rank", MEND,
     "solo has no rank 'first'; it is played as junior, senior"),
    ("classic", Deal("misere", A, tricks=0, rank="junior"), "rank", DROP, "misere is played without a rank"),
    ("foster", Deal("seven", A, tricks=7), "rank", GIVE, "seven needs its rank: clubs, spades, hearts, diamonds"),
    # the honours: a trump contract made only
    ("foster+honours", Deal("seven", A, tricks=6, rank="clubs", honours=2), "honours", DROP,
     "honours count only for a trump contract made"),
    ("foster+honours", Deal("little-misere", A, tricks=0, honours=2), "honours", DROP,
     "honours count only for a trump contract made"),
    # the boston: who held it, where it pays
    ("classic", Deal("misere", A, tricks=0, boston=B), "boston", DROP, "misere made pays no boston"),
    ("fontainebleau", Deal("misere", A, tricks=0, boston=B), "boston", DROP, "misere made pays no boston"),
]


def refusal(tariff, deal: Deal) -> engine.DealError:
    with pytest.raises(engine.DealError) as raised:
        engine.validate(tariff, deal)
    with pytest.raises(engine.DealError) as played:  # play refuses it the same
        engine.play(tariff, engine.State.start(tariff.players), deal)
    assert (played.value.field, str(played.value)) == (raised.value.field, str(raised.value))
    return raised.value


@pytest.mark.parametrize("table, deal, field, remedy, words", REFUSALS,
                         ids=[f"{r[0]}-{r[1].contract}-{r[2]}-{i}" for i, r in enumerate(REFUSALS)])
def test_each_impossible_deal_is_refused_with_its_field_and_reason(table: str, deal: Deal, field: str,
                                                                    remedy: str | None, words: str) -> None:
    e = refusal(TABLES[table](), deal)
    assert field in BY_NAME
    assert (e.field, e.remedy, str(e)) == (field, remedy, words)


def test_a_contract_played_without_boston_refuses_its_holder() -> None:
    """american's misères pay no boston at all, made or failed."""
    e = refusal(house("classic", lambda d: d["contracts"]["misere"].update(boston_failed="none")),
                Deal("misere", A, tricks=1, boston=B))
    assert (e.field, e.remedy, str(e)) == ("boston", DROP, "misere is played without boston")


def test_french_boston_s_simple_alone_is_the_dealer_s_only(cli) -> None:
    """Foster, p. 181: "If the fourth player demands, the other three having passed, and no one
    accepts", he plays alone; the player on the dealer's right speaks first, so the fourth is the
    dealer. Anyone else who demands has a partner."""
    french = load("french")
    boris_deals = engine.State.start(4)._replace(deals=1)
    with pytest.raises(engine.DealError) as refused:
        engine.play(french, boris_deals, Deal("simple", A, tricks=5, rank="belle", turned="hearts"))
    assert (refused.value.field, refused.value.remedy, str(refused.value)) == (
        "declarer", MEND, "simple is played alone only by the dealer, forced to when nobody accepted the demand: "
        "name the dealer as its declarer, or give the partner who accepted")
    assert engine.play(french, boris_deals, Deal("simple", B, tricks=5, rank="belle", turned="hearts")).made
    assert engine.play(french, boris_deals, Deal("simple", A, partner=V, tricks=5, partner_tricks=3, rank="belle",
                                                 turned="hearts")).made
    cli("new", "Anna", "Boris", "Vera", "Gleb", "--tariff", "french")
    said = cli("deal", "simple", "--rank", "belle", "--declarer", "Boris", "--tricks", "5", "--turned", "hearts",
               code=2).stderr
    assert said == "boston-ledger: error: --declarer: simple is played alone only by the dealer, forced to when " \
        "nobody accepted the demand: name the dealer as its caller, or give the partner who accepted\n"
    assert cli.json("status")["deals"] == 0  # nothing recorded
    cli("deal", "simple", "--rank", "belle", "--declarer", "Anna", "--tricks", "5", "--turned", "hearts")


# The deals at the very edge of what may be said, which score.
ACCEPTED = [
    ("classic", Deal("solo", G, tricks=0)),
    ("classic", Deal("solo", A, tricks=13, boston=G)),
    ("classic", Deal("junior", G, A, 13, 0)),
    ("classic", Deal("junior", A, B, 0, 13)),
    ("classic", Deal("junior", A, B, 13, team_tricks=13)),
    ("classic", Deal("junior", A, B, partner_tricks=13, team_tricks=13)),
    ("classic", Deal("junior", A, B, 5, team_tricks=5)),
    ("classic", Deal("junior", A, B, 5, 2, team_tricks=7)),  # all three said, adding up
    ("classic", Deal("junior", A, B, 0, 7, team_tricks=7)),
    ("classic", Deal("junior", A, B, team_tricks=8)),  # made: who took how many pays nothing
    ("classic", Deal("junior", A, B, team_tricks=0, tricks=0)),
    ("classic", Deal("misere", A, tricks=1, boston=A)),
    ("classic", Deal("solo", A, tricks=8, rank="senior")),
    ("classic+partout", Deal("pass", tricks_each=(13, 0, 0, 0))),
    ("classic+partout", Deal("pass", tricks_each=(0, 0, 0, 13))),
    ("classic+remise", Deal("solo", A, tricks=8, ace_turned=True)),
    ("classic+remise", Deal("pass", ace_turned=True)),
    ("fontainebleau", Deal("pass", carte_blanche=G)),
    ("fontainebleau", Deal("solo", A, tricks=8, carte_blanche=G)),
    ("foster+honours", Deal("seven", A, tricks=7, rank="clubs", honours=4)),
    ("foster+honours", Deal("seven", A, tricks=7, rank="clubs", honours=0)),
    ("foster", Deal("pass", tricks_each=(4, 3, 3, 3))),
    ("foster", Deal("misdeal")),
]


@pytest.mark.parametrize("table, deal", ACCEPTED, ids=[f"{t}-{d.contract}-{i}" for i, (t, d) in enumerate(ACCEPTED)])
def test_a_deal_at_the_edge_of_what_may_be_said_scores(table: str, deal: Deal) -> None:
    tariff = TABLES[table]()
    engine.validate(tariff, deal)
    engine.play(tariff, engine.State.start(tariff.players), deal)


def test_a_house_tariff_with_fewer_honours_counts_to_its_own_highest() -> None:
    tariff = load("fontainebleau-foster", ["honours"])
    most = len(tariff.honours) - 1
    e = refusal(tariff, Deal("seven", A, tricks=7, rank="clubs", honours=most + 1))
    assert str(e) == f"{most + 1} is not a number of honours from 0 to {most}"


@pytest.mark.parametrize("args, said", [
    (("solo", "--tricks", "8"), "solo needs its declarer (--declarer NAME)"),
    (("solo", "--declarer", "Anna"), "solo needs the declarer's tricks (--tricks N)"),
    (("solo", "--declarer", "Anna", "--tricks", "8", "--partner-tricks", "2"),
     "a declarer who plays alone has no partner's tricks; drop --partner-tricks"),
    (("junior", "--declarer", "Anna", "--partner", "Boris", "--team-tricks", "7"),
     "the pair took 7 tricks together, fewer than the 8 they needed, so who took how many decides who pays: "
     "give the declarer's own tricks (--tricks N)"),
    (("junior", "--declarer", "Anna", "--partner", "Boris", "--tricks", "9", "--team-tricks", "8"),
     "--tricks: the declarer cannot have taken 9 of the pair's 8 tricks"),
    (("junior", "--declarer", "Anna", "--partner", "Boris", "--tricks", "8", "--partner-tricks", "6"),
     "--partner-tricks: declarer and partner took 8 + 6 tricks, more than the 13 of a deal"),
    (("misere", "--declarer", "Anna", "--tricks", "0", "--boston", "Boris"),
     "misere made pays no boston; drop --boston"),
    (("misere", "--declarer", "Anna", "--tricks", "0", "--rank", "junior"),
     "misere is played without a rank; drop --rank"),
])
def test_the_command_line_prints_the_refusal_with_the_option(table, args: tuple[str, ...], said: str) -> None:
    assert table("deal", *args, code=2).stderr == f"boston-ledger: error: {said}\n"
    assert table.json("status")["deals"] == 0


@pytest.mark.parametrize("table, deal, words", [
    ("classic", Deal("junior", A, B, 8, 6), "играющий и партнёр взяли 8 + 6\u00a0— больше, чем 13 взяток в сдаче"),
    ("classic+partout", Deal("pass"), "в этом вечере условие «мизер-парту»: общий пас разыгрывается, поэтому укажите "
                                      "взятки каждого игрока по порядку рассадки, всего 13 взяток"),
    ("classic+partout", Deal("pass", tricks_each=(3, 3, 7)), "нужны взятки каждого игрока: 4 числа по порядку "
                                                             "рассадки, а не 3"),
    ("classic+partout", Deal("pass", tricks_each=(3, 3, 3, 3)), "взятки всех игроков в сумме должны дать 13 взяток "
                                                                "сдачи, а не 12"),
    ("classic", Deal("junior", A, B, team_tricks=1), "пара взяла вместе 1 из 8 нужных. Платит тот, кто недобрал "
                                                     "своих взяток: укажите взятки самого играющего"),
    # contracts and ranks by their Russian names in the tariff file
    ("classic", Deal("solo", A), "соло: нужны взятки самого играющего"),
    ("classic", Deal("solo", tricks=8), "соло: нужен играющий"),
    ("classic", Deal("misere", A, tricks=0, boston=B), "мизер: сыгранная игра бостона не платит"),
    ("classic", Deal("solo", A, B, 8, 1), "соло: игра без партнёра"),
    ("classic", Deal("junior", A, tricks=5, rank="senior"),
     "младшая не играется в масти «старшая»; допустимые масти: младшая"),
    ("classic", Deal("misere", A, tricks=0, rank="junior"), "мизер: игра без ранга"),
    ("foster", Deal("seven", A, tricks=7), "семь: укажите ранг (трефы, пики, червы, бубны)"),
])
def test_a_refusal_in_russian(table: str, deal: Deal, words: str) -> None:
    """The refusals whose count is always the deal's tricks or the table's seats, whose English
    singular never shows (the Russian catalogue finds them by it), and those that name a contract
    or a rank, in Russian by the tariff file's Russian name."""
    with in_language("ru"):
        assert str(refusal(TABLES[table](), deal)) == words
