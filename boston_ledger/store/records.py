"""What the readers return: immutable records of sessions, deals, corrections and payments."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any, NamedTuple

from ..core.engine import BASKET, Deal, Transfer
from ..core.fields import STORED
from ..core.tariff import Tariff


class Session(NamedTuple):
    id: int
    name: str | None
    created_at: str
    tariff: Tariff
    chip_value: Decimal
    currency: str
    players: tuple[str, ...]
    player_ids: tuple[int, ...]
    settled: bool
    agreed_deals: int | None = None
    demo: bool = False  # the demonstration evening: left out of the money and statistics across evenings

    def seat(self, player_id: int | None) -> int | None:
        return None if player_id is None else self.player_ids.index(player_id)

    def party_name(self, seat: int | None) -> str:
        return "basket" if seat is BASKET else self.players[seat]


# The columns of a deal as the players entered it (core.fields.STORED), in that order.
ENTRY = ", ".join(f"d.{f.name}" for f in STORED)


class Recorded(NamedTuple):
    """A deal as stored, with its transfers (seats for parties)."""

    id: int
    number: int
    deal: Deal
    entered_at: str
    transfers: tuple[Transfer, ...]
    balances: tuple[int, ...] = ()  # as kept after the deal (empty when the kept text is damaged)
    basket: int | None = None


class Extension(NamedTuple):
    """More deals agreed for an evening (`extend N`): how many, after which deal, when, and the
    agreed number it made."""

    deals: int
    after_deal: int  # the deals the session had when they were agreed
    extended_at: str
    agreed: int  # the agreed number of deals it made


class Evening(NamedTuple):
    """A session as a table tells it from another: its number, name, players, how many deals it
    has and when the last was entered, whether it is settled."""

    id: int
    name: str | None
    players: tuple[str, ...]
    deals: int
    last_at: str | None  # when its last standing deal was entered; None before the first
    settled: bool
    demo: bool = False
    current: bool = False  # the ledger's current session (`use ID`, `new`)


class Correction(NamedTuple):
    number: int
    reason: str
    corrected_at: str
    was: Deal
    now: Deal


class PaymentRecord(NamedTuple):
    """Money paid from one person to another between evenings."""

    id: int
    payer: str
    payee: str
    cents: int
    currency: str
    paid_at: str
    cancelled_at: str | None = None  # when `paid --cancel` took it back (it stays on record)


def stored_deal(session: Session, entry: tuple[Any, ...]) -> Deal:
    """The Deal of an entry's columns (ENTRY, as stored): player ids read as seats (an id not of
    this session raises ValueError), a flag as a bool, every seat's tricks from their JSON."""
    values: dict[str, Any] = {}  # by field, of the type its kind (core.fields) gives it
    for f, value in zip(STORED, entry, strict=True):
        if f.kind == "player":
            value = session.seat(value)
        elif f.kind == "flag":
            value = bool(value)
        elif f.kind == "tricks-each" and value is not None:
            value = tricks_each(value)
        values[f.name] = value
    return Deal(**values)


def entry_of(session: Session, deal: Deal) -> tuple[object, ...]:
    """A deal's columns as stored (ENTRY's order): player ids for seats, 0 or 1 for a flag, JSON
    for every seat's tricks."""
    out: list[object] = []
    for f in STORED:
        value = getattr(deal, f.name)
        if f.kind == "player":
            value = None if value is None else session.player_ids[value]
        elif f.kind == "flag":
            value = int(bool(value))
        elif f.kind == "tricks-each" and value is not None:
            value = json.dumps(list(value))
        out.append(value)
    return tuple(out)


def tricks_each(text: str) -> tuple[int, ...]:
    """Misère partout's tricks of each player, as stored (a JSON list of whole numbers); a damaged
    value reads as no tricks at all, which the engine refuses (`check` reports the deal)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return ()
    if type(value) is not list or any(type(t) is not int for t in value):
        return ()
    return tuple(value)
