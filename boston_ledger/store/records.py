"""What the readers return: immutable records of sessions, deals, corrections and payments."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Callable, NamedTuple

from ..core.engine import BASKET, Deal, Transfer
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

    @property
    def seats(self) -> dict[int | None, int | None]:
        """Player id to seat, with None (the basket) to None: for reading many rows."""
        return {None: None, **{pid: seat for seat, pid in enumerate(self.player_ids)}}

    def party_name(self, seat: int | None) -> str:
        return "basket" if seat is BASKET else self.players[seat]


# The columns of a deal as the players entered it, in the order of `StoredDeal.entry`.
ENTRY = ("d.contract, d.rank, d.declarer, d.partner, d.tricks, d.partner_tricks, d.boston, d.ace_turned, d.carte_blanche,"
         " d.tricks_each")
ENTRY_COLUMNS = ENTRY.count(",") + 1


class StoredDeal(NamedTuple):
    """A standing deal's row as stored: for the readers of long sessions (`check`, `export`,
    `stats`), which turn an entry into a Deal once per distinct entry (`entry_reader`)."""

    id: int
    number: int
    entered_at: str
    balances: str | None  # the balances kept after the deal, as stored (JSON text)
    basket: int | None
    entry: tuple  # the ENTRY columns: what the players entered, player ids for seats
    transfers: object  # () unless asked: a tuple of (payer id, payee id, chips, reason), or a JSON text


class Recorded(NamedTuple):
    """A deal as stored, with its transfers (seats for parties)."""

    id: int
    number: int
    deal: Deal
    entered_at: str
    transfers: tuple[Transfer, ...]
    balances: tuple = ()  # as kept after the deal (empty when the kept text is damaged)
    basket: int | None = None


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


MEMO = 1 << 14  # distinct entries remembered by a reader of a long session (then it starts afresh)


def entry_reader(session: Session) -> Callable[[tuple], Deal]:
    """The Deal of an entry's columns (ENTRY, as stored).

    A long session repeats the same entries: each distinct one is read once and its Deal (an
    immutable value) shared. The columns are STRICT (text, integer or NULL), so equal keys are
    the same values. A player id not of this session raises ValueError.
    """
    made: dict[tuple, Deal] = {}
    seat = session.seat

    def deal(key: tuple) -> Deal:
        found = made.get(key)
        if found is None:
            contract, rank, declarer, partner, tricks, partner_tricks, boston, ace_turned, blank, each = key
            found = Deal(contract=contract, declarer=seat(declarer), partner=seat(partner), tricks=tricks,
                         partner_tricks=partner_tricks, rank=rank, boston=seat(boston),
                         ace_turned=bool(ace_turned), carte_blanche=seat(blank),
                         tricks_each=None if each is None else tricks_each(each))
            if len(made) >= MEMO:
                made.clear()
            made[key] = found
        return found

    return deal


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
