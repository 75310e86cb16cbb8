"""Stateful property tests over every shipped tariff and condition: random deals and undos
into a real ledger; the invariants hold after every step and undo restores the exact state."""

from __future__ import annotations

import shutil
import tempfile
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from boston_ledger.app import check as checks
from boston_ledger.core import engine
from boston_ledger.app import deals as table, sessions
from boston_ledger.store import read
from boston_ledger.store.db import open_db
from boston_ledger.core.tariff_files import load, shipped

from conftest import examples
from strategies import deals


def configurations() -> list[tuple[str, tuple[str, ...]]]:
    """Every shipped tariff bare, with each of its conditions, and with all that change something."""
    out = []
    for name in shipped():
        tariff = load(name)
        out.append((name, ()))
        out += [(name, (c,)) for c in tariff.conditions]
        active = tuple(c for c, cond in tariff.conditions.items() if not cond.in_force)
        if active:
            out.append((name, active))
    return out


CONFIGURATIONS = configurations()


class LedgerMachine(RuleBasedStateMachine):
    @initialize(config=st.sampled_from(CONFIGURATIONS))
    def start(self, config: tuple[str, tuple[str, ...]]) -> None:
        self.folder = tempfile.mkdtemp()
        self.conn = open_db(Path(self.folder) / "t.db", create=True)
        self.tariff = load(config[0], config[1])
        self.session_id = sessions.new(self.conn, ["A", "B", "C", "D"], self.tariff, Decimal("0.1"), "").id
        self.states = [engine.State.start(4)]
        self.entered: list[engine.Deal] = []

    def teardown(self) -> None:
        if hasattr(self, "conn"):
            self.conn.close()
            shutil.rmtree(self.folder, ignore_errors=True)

    @rule(data=st.data())
    def enter_a_deal(self, data) -> None:
        deal = data.draw(deals(self.tariff, engine.position(self.tariff, self.states[-1]).dealer))
        entered = table.enter(self.conn, deal, self.session_id)
        assert entered.before == self.states[-1]
        self.states.append(entered.after)
        self.entered.append(deal)

    @precondition(lambda self: len(getattr(self, "states", [])) > 1)
    @rule()
    def undo(self) -> None:
        table.undo(self.conn)
        self.states.pop()
        self.entered.pop()

    @precondition(lambda self: len(getattr(self, "states", [])) > 1)
    @rule(data=st.data())
    def correct_an_earlier_deal(self, data) -> None:
        number = data.draw(st.integers(1, len(self.entered)))
        deal = data.draw(deals(self.tariff, engine.position(self.tariff, self.states[number - 1]).dealer))
        if deal == self.entered[number - 1]:
            return
        entered = [*self.entered[:number - 1], deal, *self.entered[number:]]
        state = engine.State.start(4)  # the corrected session equals a fresh one entered so
        states = [state]
        try:
            for d in entered:
                state = engine.advance(state, engine.play(self.tariff, state, d))
                states.append(state)
        except engine.DealError:  # a later deal the table could not have played so (its dealer moved)
            with pytest.raises(engine.DealError):
                table.correct(self.conn, number, deal, "a test", self.session_id)
            return
        table.correct(self.conn, number, deal, "a test", self.session_id)
        self.entered, self.states = entered, states

    @invariant()
    def stored_state_is_the_expected_one(self) -> None:
        if hasattr(self, "conn"):
            session = read.session(self.conn, self.session_id)
            assert read.state(self.conn, session) == self.states[-1]

    @invariant()
    def every_check_passes(self) -> None:
        if hasattr(self, "conn"):
            assert checks.check_session(self.conn, self.session_id) == []


LedgerMachine.TestCase.settings = settings(max_examples=examples(60), stateful_step_count=25, deadline=None)
TestLedger = pytest.mark.slow(LedgerMachine.TestCase)  # evenings into real ledgers: the whole suite


def test_every_configuration_is_loadable() -> None:
    assert len(CONFIGURATIONS) >= 4 + 3 * 10
    for name, conditions in CONFIGURATIONS:
        assert load(name, conditions).applied == conditions
