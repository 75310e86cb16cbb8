"""Hypothesis strategies: any deal a table could enter under a given tariff."""

from __future__ import annotations

from itertools import pairwise

from hypothesis import strategies as st

from boston_ledger.core.engine import Deal
from boston_ledger.core.tariff import MISDEAL, PASS, Tariff


@st.composite
def deals(draw, tariff: Tariff, dealer: int | None = None) -> Deal:
    """A deal of `tariff`; a contract that only the dealer plays alone (`alone_by`) is declared by
    `dealer` when the deal's dealer is given (else by anyone, as a deal the engine refuses)."""
    n = tariff.players
    seat = st.integers(0, n - 1)
    extras = {
        "ace_turned": draw(st.booleans()) if tariff.basket.remise else False,
        "carte_blanche": draw(st.none() | seat) if tariff.carte_blanche else None,
    }
    suits = [key for key, r in tariff.ranks.items() if not r.column]
    if tariff.turns:  # French Boston: every deal played turns a suit up
        extras["turned"] = draw(st.sampled_from(suits))
    petite = {key for key, r in tariff.ranks.items() if r.column == "petite"}  # none when the belle turns again:
    # which the deals before decide, so no deal drawn here is played in it
    redeal = [MISDEAL] if tariff.basket.misdeal_dealer == "same" else []  # the same dealer deals again
    key = draw(st.sampled_from([PASS, *redeal, *(k for k, c in tariff.contracts.items()
                                                  if not c.ranks or set(c.ranks) - petite)]))
    if key == MISDEAL:
        return Deal(MISDEAL)
    if key == PASS:
        if tariff.basket.partout:  # every player's tricks, the deal's in all
            cuts = sorted(draw(st.lists(st.integers(0, tariff.tricks), min_size=n - 1, max_size=n - 1)))
            bounds = [0, *cuts, tariff.tricks]
            return Deal(PASS, tricks_each=tuple(b - a for a, b in pairwise(bounds)), **extras)
        return Deal(PASS, **extras)
    contract = tariff.contracts[key]
    ways = [w for w in ("alone", "with_partner") if getattr(contract, w) is not None]
    way = draw(st.sampled_from(ways))
    declarer = draw(seat)
    ranks = [r for r in contract.ranks if r not in petite] if contract.default_rank is None else \
        [None, *contract.ranks]
    rank = draw(st.sampled_from(ranks)) if ranks else None
    holder_rule = "holder" in (contract.boston_made, contract.boston_failed)
    boston = draw(st.none() | seat) if holder_rule and tariff.boston else None
    if tariff.jack and contract.jack:
        extras["jack"] = draw(st.none() | seat)
    if way == "alone":
        if contract.alone_by == "dealer" and dealer is not None:
            declarer = dealer
        return Deal(key, declarer, None, draw(st.integers(0, tariff.tricks)), None, rank, boston, **extras)
    partner = draw(seat.filter(lambda s: s != declarer))
    tricks = draw(st.integers(0, tariff.tricks))
    partner_tricks = draw(st.integers(0, tariff.tricks - tricks))
    return Deal(key, declarer, partner, tricks, partner_tricks, rank, boston, **extras)
