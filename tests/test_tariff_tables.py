"""Every number of the seed's classic tariff («Тариф платежей Бостон», the rules in
docs/rules.en.md), reproduced by playing deals through the engine."""

from __future__ import annotations

import pytest

from boston_ledger.core import engine
from boston_ledger.core.engine import Deal, State
from boston_ledger.core.tariff_files import load

CLASSIC = load("classic")
TRICKS = list(range(13, -1, -1))

# The rules' tables (junior); the senior suit pays exactly double every entry.
PAIR = [24, 10, 8, 6, 4, 2, -4, -6, -8, -10, -12, -14, -16, -56]
ALONE = [36, 16, 14, 12, 10, 8, 6, 4, 2, -4, -6, -8, -10, -24]
SOLO = [72, 32, 28, 24, 20, 16, -20, -24, -28, -32, -36, -40, -44, -136]
# The ladder above the solo: base = twice the solo's value at the bar (2 × 20 = 40), 4 a trick,
# made with 13 = 2 × (52 + 4) = 112, failed by k = 40 + 4k, no trick = 2 × 40 + 13 × 8 = 184.
NINE = [112, 52, 48, 44, 40, -44, -48, -52, -56, -60, -64, -68, -72, -184]
PHILADELPHIA = [120, 56, 52, 48, -52, -56, -60, -64, -68, -72, -76, -80, -84, -200]
SOVEREIGN = [136, 64, -68, -72, -76, -80, -84, -88, -92, -96, -100, -104, -108, -232]
GRAND_SOVEREIGN = [144, -148, -152, -156, -160, -164, -168, -172, -176, -180, -184, -188, -192, -392]

# The seed's own words for the senior suit (typo "13 взяток — 64" read as 12, the rules):
# «За положенные взятки 32 фиши; за 9 взяток — 40; за 10 взяток — 48; за 11 взяток — 56;
# за [12] взяток — 64 фиши. При тринадцатой взятке ... всего 144 фиши».
SOLO_SENIOR_MADE = {8: 32, 9: 40, 10: 48, 11: 56, 12: 64, 13: 144}
# «Прикуп младшей ... за 9 взяток — 4; за 10 — 6; за 11—8; за 12 — 10 ... Всех же фиш ... 24»
PAIR_JUNIOR_MADE = {8: 2, 9: 4, 10: 6, 11: 8, 12: 10, 13: 24}
# «Прикуп старшей ... За положенные взятки — 4 фиши; за 9 взяток—[8]; за 10 взяток—12;
# за 11 взяток—16; за 12 взяток — 20 фиш»
PAIR_SENIOR_MADE = {8: 4, 9: 8, 10: 12, 11: 16, 12: 20, 13: 48}


def per_opponent(contract: str, team: int, partnered: bool, rank: str | None = None, tariff=CLASSIC) -> int:
    """Chips the declarer receives from (+) or pays to (-) one opponent, contract lines only."""
    if partnered:
        declarer_tricks = team - 3 if team >= 8 else min(team, 4)
        deal = Deal(contract, 1, 3, declarer_tricks, team - declarer_tricks, rank)
    else:
        deal = Deal(contract, 1, None, team, None, rank)
    outcome = engine.play(tariff, State.start(4), deal)
    net = 0
    for t in outcome.transfers:
        if t.reason in ("consolation", "overtricks", "undertricks", "misere-tricks", "slam", "premium"):
            if t.payer == 0 and t.payee == 1:
                net += t.chips
            elif t.payer == 1 and t.payee == 0:
                net -= t.chips
    return net


@pytest.mark.parametrize("rank, factor", [("junior", 1), ("senior", 2)])
def test_pair_table(rank: str, factor: int) -> None:
    assert [per_opponent(rank, t, True) for t in TRICKS] == [v * factor for v in PAIR]


@pytest.mark.parametrize("rank, factor", [("junior", 1), ("senior", 2)])
def test_alone_table(rank: str, factor: int) -> None:
    assert [per_opponent(rank, t, False) for t in TRICKS] == [v * factor for v in ALONE]


@pytest.mark.parametrize("rank, factor", [("junior", 1), ("senior", 2)])
def test_solo_table(rank: str, factor: int) -> None:
    assert [per_opponent("solo", t, False, rank) for t in TRICKS] == [v * factor for v in SOLO]


@pytest.mark.parametrize("rank, factor", [("junior", 1), ("senior", 2)])
def test_nine_table_the_ladder_above_the_solo(rank: str, factor: int) -> None:
    assert [per_opponent("nine", t, False, rank) for t in TRICKS] == [v * factor for v in NINE]


@pytest.mark.parametrize("contract, table", [("philadelphia", PHILADELPHIA), ("sovereign", SOVEREIGN),
                                              ("grand-sovereign", GRAND_SOVEREIGN)])
@pytest.mark.parametrize("rank, factor", [("junior", 1), ("senior", 2)])
def test_the_ladder_of_the_conditions(contract: str, table: list[int], rank: str, factor: int) -> None:
    # Philadelphia: base 2 × 24 = 48, 13 = 2 × (56 + 4) = 120, 0 = 2 × 48 + 104 = 200; sovereign:
    # base 2 × 32 = 64, 13 = 2 × (64 + 4) = 136, 0 = 232; grand sovereign: base 2 × 72 = 144, made
    # only with 13 (already a slam), failed by k = 144 + 4k, 0 = 2 × 144 + 104 = 392
    t = load("classic", [contract])
    assert [per_opponent(contract, n, False, rank, t) for n in TRICKS] == [v * factor for v in table]


def test_seed_sentences() -> None:
    assert {t: per_opponent("solo", t, False, "senior") for t in SOLO_SENIOR_MADE} == SOLO_SENIOR_MADE
    assert {t: per_opponent("junior", t, True) for t in PAIR_JUNIOR_MADE} == PAIR_JUNIOR_MADE
    assert {t: per_opponent("senior", t, True) for t in PAIR_SENIOR_MADE} == PAIR_SENIOR_MADE
    # «за несыгранную игру — 4 фиши; за шлем по 4 фиши за взятку — 52. Всего 56 фиш»
    assert per_opponent("junior", 0, True) == -56
    # «за несыгранную игру — 32 фиши; за тринадцать взяток ... итого 104. Всего 136 фиш»
    assert per_opponent("solo", 0, False) == -136
    # lone purchase: «за восемь взяток сверх положенных ... Всего 36 фиш»; «Всего 24 фиши»
    assert per_opponent("junior", 13, False) == 36
    assert per_opponent("junior", 0, False) == -24


@pytest.mark.parametrize("contract, value", [("misere", 16), ("grand-misere", 32), ("misere-ouvert", 64)])
def test_misere_ladder(contract: str, value: int) -> None:
    assert per_opponent(contract, 0, False) == value
    for tricks in (1, 5, 13):
        assert per_opponent(contract, tricks, False) == -value


def test_grand_misere_ouverte_costs_each_trick() -> None:
    # «Каждая взятка наказывается ремизом»: 128 made; failed, 128 for every trick taken
    assert per_opponent("grand-misere-ouvert", 0, False) == 128
    assert [per_opponent("grand-misere-ouvert", t, False) for t in (1, 2, 3, 13)] == [-128, -256, -384, -1664]
    outcome = engine.play(CLASSIC, State.start(4), Deal("grand-misere-ouvert", 1, None, 3))
    lines = [(t.payer, t.payee, t.chips, t.reason) for t in outcome.transfers]
    # Boris took 3 tricks: 3 × 128 = 384 to each opponent on its own line; the labet (the basket
    # holds the stake of 40) and the boston he pays on a failed misère
    assert lines == [(s, None, 10, "stake") for s in range(4)] + [
        (1, 0, 384, "misere-tricks"), (1, 2, 384, "misere-tricks"), (1, 3, 384, "misere-tricks"),
        (1, None, 40, "labet"), (1, 0, 2, "boston"), (1, 2, 2, "boston"), (1, 3, 2, "boston")]


def test_consolation_is_its_own_line() -> None:
    outcome = engine.play(CLASSIC, State.start(4), Deal("junior", 1, 3, 5, 4))
    lines = {(t.reason, t.payer, t.payee): t.chips for t in outcome.transfers}
    assert lines[("consolation", 0, 1)] == 2
    assert lines[("overtricks", 0, 1)] == 2
    slam = engine.play(CLASSIC, State.start(4), Deal("junior", 1, 3, 10, 3))
    got = {t.reason: t.chips for t in slam.transfers if t.payer == 0 and t.payee == 1}
    assert got == {"consolation": 2, "overtricks": 10, "slam": 12}
