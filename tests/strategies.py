"""Hypothesis strategies: any deal a classic table could enter."""

from __future__ import annotations

from hypothesis import strategies as st

from boston_ledger.engine import Deal
from boston_ledger.tariff import PASS, Tariff


@st.composite
def deals(draw, tariff: Tariff) -> Deal:
    n = tariff.players
    key = draw(st.sampled_from([PASS, *tariff.contracts]))
    if key == PASS:
        return Deal(PASS)
    contract = tariff.contracts[key]
    ways = [w for w in ("alone", "with_partner") if getattr(contract, w) is not None]
    way = draw(st.sampled_from(ways))
    declarer = draw(st.integers(0, n - 1))
    rank = draw(st.sampled_from([None, *contract.ranks]))
    holder_rule = "holder" in (contract.boston_made, contract.boston_failed)
    boston = draw(st.none() | st.integers(0, n - 1)) if holder_rule else None
    if way == "alone":
        return Deal(key, declarer, None, draw(st.integers(0, tariff.tricks)), None, rank, boston)
    partner = draw(st.integers(0, n - 1).filter(lambda s: s != declarer))
    tricks = draw(st.integers(0, tariff.tricks))
    partner_tricks = draw(st.integers(0, tariff.tricks - tricks))
    return Deal(key, declarer, partner, tricks, partner_tricks, rank, boston)
