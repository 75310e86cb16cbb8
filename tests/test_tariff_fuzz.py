"""Any TOML text gives a Tariff or a TariffError, never another exception: random text, random
documents of the tariff's own words, and the shipped tariffs with their values replaced, keys
dropped and conditions turned on. A tariff that is read is then shown and played without error.

Derandomized, without deadlines: the same cases every run, however busy the machine (a quarter as
many as each test names in a run of the suite; HYPOTHESIS_PROFILE=thorough: all of them)."""

from __future__ import annotations

import copy
import json
import tempfile
import tomllib
from collections import Counter
from contextlib import suppress
from datetime import UTC, date
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boston_ledger.core import engine
from boston_ledger.core.tariff import Tariff, TariffError
from boston_ledger.core.tariff_files import check, load, parse, with_conditions
from boston_ledger.ui.tariff import tariff_data, tariff_tables
from conftest import examples
from strategies import deals

pytestmark = pytest.mark.slow  # some hundreds of tariffs read: the whole suite, not the quick subset

TARIFFS = Path(__file__).resolve().parent.parent / "tariffs"
SHIPPED = {p.stem: tomllib.loads(p.read_text(encoding="utf-8")) for p in sorted(TARIFFS.glob("*.toml"))}
FUZZ = settings(deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))

WORDS = sorted({"tariff", "name", "title", "source", "scoring", "players", "tricks", "conditions", "extends",
                "ranks", "names", "multiplier", "partie", "tours", "basket", "stake", "stake_payer", "remise",
                "all_pass", "pass_names", "all_pass_remainder", "labet_odd_chip", "share_remainder", "boston",
                "amount", "slam_multiplier", "bonuses", "carte_blanche", "schedules", "kind", "bar", "shares",
                "consolation", "per_trick", "per_undertrick", "slam", "slam_against", "slam_against_undertricks",
                "failed_basket", "value", "contracts", "default_rank", "alone", "with_partner", "boston_made",
                "boston_failed", "seed", "set", "remove", "in_force", "notes", "junior", "senior", "solo", "pass",
                "classic", "chips", "points", "null", "holder", "none", "each", "dealer", "double",
                "nothing", "labet"})
HOSTILE_TEXT = ["", " ", "\x1b]52;c;aGk=\x07", "\u202e", "\x00", "a" * 300, "classic", "samouchitel.toml",
                "contracts.junior", "~nobody/x", "../x", "\udcff".encode("utf-8", "surrogatepass").decode("latin-1")]

scalars = st.one_of(
    st.integers(-2**63, 2**63 - 1), st.sampled_from([0, 1, 2, 4, 8, 13, 52, 100, 10**6, 10**6 + 1, -1]),
    st.floats(allow_nan=True, allow_infinity=True), st.booleans(),
    st.text(max_size=12), st.sampled_from(WORDS), st.sampled_from(HOSTILE_TEXT),
    st.dates(min_value=date(1, 1, 1)), st.times(), st.datetimes(timezones=st.just(UTC)),
)
keys = st.one_of(st.sampled_from(WORDS), st.text(min_size=1, max_size=8))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5),
                      max_leaves=30)


def outcome(text: str, conditions: tuple[str, ...] = ()) -> Tariff | None:
    """Read the text every way a tariff is read; the Tariff, or None when it is refused. Any other
    exception fails the test."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "t.toml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        found, problems = check(str(path))
        assert (found is None) == bool(problems)
        assert all(isinstance(p, str) and p for p in problems)
        try:
            parsed = parse(text, "t.toml")
        except TariffError:
            parsed = None
        try:
            loaded = load(str(path), conditions)
        except TariffError:
            loaded = None
    if loaded is not None or parsed is not None:
        use(loaded or parsed)
    return loaded


def use(t: Tariff) -> None:
    """Show the tariff and play a few deals of it: a tariff that reads must work."""
    json.dumps(tariff_data(t))
    tariff_tables(t, 100)
    for name in t.conditions:
        with suppress(TariffError):
            with_conditions(t, [name])


def as_toml(data: dict) -> str | None:
    try:
        return tomli_w.dumps(data)
    except (TypeError, ValueError):  # something TOML cannot write (a lone surrogate...)
        return None


def tried(test, n: int) -> Counter:
    """Run a fuzz test of `n` examples (as many as this run tries) and count what its cases were,
    for the test to say it tried what its name says: generated cases can all be filtered away."""
    cases: Counter = Counter()
    settings(FUZZ, max_examples=examples(n))(test)(cases)
    return cases


def test_any_text() -> None:
    @given(st.text(max_size=200))
    def read(cases: Counter, text: str) -> None:
        cases["text"] += 1
        outcome(text)

    assert tried(read, 200)["text"] >= examples(200) * 0.9


def test_any_document_of_tariff_words() -> None:
    @given(st.dictionaries(keys, values, max_size=8))
    def read(cases: Counter, data: dict) -> None:
        text = as_toml(data)
        if text is not None:
            cases["document"] += 1
            outcome(text)

    assert tried(read, 200)["document"] >= examples(200) * 0.8


@st.composite
def mutated(draw) -> tuple[str, dict, tuple[str, ...]]:
    """A shipped tariff with some values replaced and some keys removed, and conditions to turn on."""
    name = draw(st.sampled_from(sorted(SHIPPED)))
    data = copy.deepcopy(SHIPPED[name])
    for _ in range(draw(st.integers(1, 4))):
        node, path = data, []
        while isinstance(node, dict) and node and draw(st.booleans()):
            key = draw(st.sampled_from(sorted(node)))
            path.append(key)
            if not isinstance(node[key], dict):
                break
            node = node[key]
        if not path:
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        if draw(st.integers(0, 3)) == 0:
            del parent[path[-1]]
        else:
            parent[path[-1]] = draw(values)
    conditions = tuple(draw(st.lists(st.sampled_from(["simple", "remise", "labet", "nosuch", "solo"]), max_size=2)))
    return name, data, conditions


def test_a_shipped_tariff_changed_anywhere() -> None:
    @given(mutated())
    def read(cases: Counter, case) -> None:
        __, data, conditions = case
        text = as_toml(data)
        if text is not None:
            cases["mutated"] += 1
            if outcome(text, conditions) is not None:
                cases["mutated and valid"] += 1

    cases = tried(read, 300)
    assert cases["mutated"] >= examples(300) * 0.8 and cases["mutated and valid"] >= examples(300) * 0.1, cases


def test_a_valid_changed_tariff_plays() -> None:
    """A shipped tariff with one number changed (most stay valid): its deals play without error."""
    @given(st.data())
    def play(cases: Counter, data) -> None:
        name = data.draw(st.sampled_from(sorted(SHIPPED)))
        doc = copy.deepcopy(SHIPPED[name])
        table = data.draw(st.sampled_from([k for k in ("schedules", "basket", "boston", "tariff") if k in doc]))
        entry = doc[table] if table != "schedules" else doc[table][data.draw(st.sampled_from(sorted(doc[table])))]
        numbers = [k for k, v in entry.items() if isinstance(v, int) and not isinstance(v, bool)]
        if numbers:
            entry[data.draw(st.sampled_from(numbers))] = data.draw(st.integers(0, 60))
        try:
            t = parse(tomli_w.dumps(doc), f"{name}.toml")
        except TariffError:
            return
        cases["played"] += 1
        state = engine.State.start(t.players)
        for d in data.draw(st.lists(deals(t), max_size=8)):
            try:
                out = engine.play(t, state, d)
            except engine.DealError:
                continue
            state = engine.advance(state, out)
            assert sum(state.balances) + state.basket == 0

    assert tried(play, 150)["played"] >= examples(150) * 0.5
