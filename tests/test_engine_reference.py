"""`play` is still the engine it was: every tariff text as shipped before the rules' second
reading (kept in fixtures/tariffs-b121005, as sessions stored them), random deals and states,
against the verbatim earlier `play` and `advance` in reference_engine.py, so that a session
recorded then replays as it was recorded."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reference_engine as before
from boston_ledger.core import engine
from boston_ledger.core.engine import Deal, State
from boston_ledger.core.tariff_files import load, parse

from conftest import examples
from strategies import deals

EARLIER = Path(__file__).resolve().parent / "fixtures" / "tariffs-b121005"


# The texts sessions stored before the second reading: what the engine must still play as it did.
STORED = [parse(path.read_text(encoding="utf-8"), path.name) for path in sorted(EARLIER.glob("*.toml"))]


def states(tariff) -> st.SearchStrategy[State]:
    chips = st.integers(-10_000, 10_000)
    return st.builds(State, st.tuples(*[chips] * tariff.players), st.integers(0, 2_000) | st.sampled_from([0, 1, 3]),
                     st.integers(0, 500), st.booleans(), redeals=st.just(0),  # those tariffs never deal again
                     seated=st.just(()), away=st.just(()),  # the earlier engine knew no change of the table
                     overtime=st.just(0), extra=st.just(0))  # nor a basket played for after a partie


def result(f, *args):
    """What a call gives, exactly (repr tells 1 from True), or the error it raises."""
    try:
        return repr(f(*args))
    except Exception as e:  # the same error, with the same words
        return f"{type(e).__name__}: {e}"


@pytest.mark.slow
@pytest.mark.parametrize("tariff", STORED, ids=[f"{t.name}{'+' if t.applied else ''}" for t in STORED])
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_play_is_the_engine_it_was(tariff, data) -> None:
    deal, state = data.draw(deals(tariff)), data.draw(states(tariff))
    expected = result(before.play, tariff, state, deal)
    assert result(engine.play, tariff, state, deal) == expected
    outcome = before.play(tariff, state, deal)
    assert engine.advance(state, outcome) == before.advance(state, outcome)


def test_the_stored_texts_are_those_sessions_kept() -> None:
    """The fixtures are the texts the earlier boston-ledger stored (their hashes are in its ledgers)."""
    assert {t.name + ("+" if t.applied else ""): t.digest for t in STORED} == {
        "classic": "5665571b39ba", "classic+": "33b1098f60c5", "fontainebleau": "ab4c095f2a58",
        "fontainebleau+": "fc3735fad3ef", "samouchitel": "7103e7838b24", "tambov": "62831b417827",
        "tambov+": "97374444a215"}


@pytest.mark.slow
@settings(max_examples=examples(300), deadline=None)
@given(contract=st.sampled_from(["pass", "junior", "solo", "misere", "nine", "nope"]),
       seats=st.lists(st.none() | st.integers(-1, 5), min_size=4, max_size=4),
       tricks=st.none() | st.integers(-1, 14), partner_tricks=st.none() | st.integers(-1, 14),
       rank=st.sampled_from([None, "junior", "senior", "x"]), ace=st.booleans(), state=states(STORED[0]))
def test_a_deal_the_tariff_refuses_is_refused_alike(contract, seats, tricks, partner_tricks, rank, ace, state) -> None:
    tariff = next(t for t in STORED if t.name == "classic" and t.applied)  # as stored then, remise among its conditions
    deal = Deal(contract, seats[0], seats[1], tricks, partner_tricks, rank, seats[2], ace, seats[3])
    expected = result(before.play, tariff, state, deal)
    assert result(engine.play, tariff, state, deal) == expected


def test_a_seat_keeps_the_type_it_was_given() -> None:
    classic, state = load("classic"), State((0, 0, 0, 0), 0, 0, False)
    for seat in (1, True):  # seat 1 written as True: the transfers say it as it was given
        assert repr(engine.play(classic, state, Deal("solo", seat, None, 9))) == \
            repr(before.play(classic, state, Deal("solo", seat, None, 9)))
