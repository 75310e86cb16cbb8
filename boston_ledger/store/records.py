"""What the readers return: immutable records of sessions, deals, corrections and payments."""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any, NamedTuple

from ..core.engine import BASKET, Change, Deal, Transfer
from ..core.fields import STORED
from ..core.tariff import Tariff


class Seating(NamedTuple):
    """A change of the table (`boston-ledger seat`): from deal `from_deal` on, the person `sitter`
    plays in `seat` with `account`'s money (people by the order they joined the session)."""

    id: int
    from_deal: int
    seat: int
    sitter: int
    account: int
    made_at: str


class Session(NamedTuple):
    id: int
    name: str | None
    created_at: str
    tariff: Tariff
    chip_value: Decimal
    currency: str
    people: tuple[str, ...]  # everyone who played or whose money it is, by the order they joined
    people_ids: tuple[int, ...]  # their ids in the ledger
    settled: bool
    agreed_deals: int | None = None
    demo: bool = False  # the demonstration evening: left out of the money and statistics across evenings
    seatings: tuple[Seating, ...] = ()  # the changes of the table, in the order they were made

    @property
    def present(self) -> tuple[int, ...]:
        """The people who took part, by the order they joined: the first players, and whoever
        sat in or whose money was played at a standing change of the table (one named in a change
        taken back stays a player of the session, but took no part)."""
        found = set(range(self.tariff.players))
        for s in self.seatings:
            found |= {s.sitter, s.account}
        return tuple(sorted(found))

    @property
    def players(self) -> tuple[str, ...]:
        """Who sits in each seat now (after every change of the table)."""
        return self.sitting()

    def table(self, number: int | None = None) -> tuple[tuple[int, int], ...]:
        """Each seat's (sitter, account) at deal `number` (None: now), as people of the session."""
        seats = [(i, i) for i in range(self.tariff.players)]
        for s in self.seatings:
            if number is None or s.from_deal <= number:
                seats[s.seat] = (s.sitter, s.account)
        return tuple(seats)

    def sitting(self, number: int | None = None) -> tuple[str, ...]:
        """Who sat in each seat at deal `number` (None: who sits now)."""
        return tuple(self.people[sitter] for sitter, __ in self.table(number))

    def at(self, number: int) -> Session:
        """The session as its table was at deal `number`: the changes made later left out (an
        earlier deal is corrected with the names of those who played it)."""
        return self._replace(seatings=tuple(s for s in self.seatings if s.from_deal <= number))

    def pending(self, deals: int) -> Seating | None:
        """The last change of the table when it was made after the last of the `deals` deals (it
        holds from the next one): what undo takes back first."""
        last = self.seatings[-1] if self.seatings else None
        return last if last is not None and last.from_deal == deals + 1 else None

    def changes(self) -> dict[int, list[Change]]:
        """The changes of the table by the deal before which they were made (engine.replaying)."""
        out: dict[int, list[Change]] = {}
        for s in self.seatings:
            out.setdefault(s.from_deal, []).append(Change(s.seat, s.account))
        return out

    def seat(self, player_id: int | None, number: int, account: bool = False) -> int | None:
        """The seat of a person at deal `number`: where he sat (`account`: the seat that played his
        money). A person of another session, or at no seat then, raises ValueError."""
        if player_id is None:
            return None
        person = self.people_ids.index(player_id)
        if not self.seatings:  # everyone in his own seat, on his own money (the usual evening)
            if person >= self.tariff.players:
                raise ValueError(player_id)
            return person
        return [seat[account] for seat in self.table(number)].index(person)

    def seats(self) -> dict[object, int | None]:
        """`seat` by player id for many rows of this session: in the usual evening (no change of
        the table) each player's seat; empty when the table changed. An id not in it is asked of
        `seat` itself (the same seat, or the same ValueError)."""
        if self.seatings:
            return {}
        known: dict[object, int | None] = {None: None}
        known.update((player_id, person) for person, player_id in enumerate(self.people_ids[:self.tariff.players]))
        return known

    def person_id(self, seat: int | None, number: int, account: bool = False) -> int | None:
        """The id of who sat in `seat` at deal `number` (`account`: whose money it played)."""
        if seat is None:
            return None
        if not self.seatings and 0 <= seat < self.tariff.players:  # the usual evening: each in his own seat
            return self.people_ids[seat]
        return self.people_ids[self.table(number)[seat][account]]

    def party_name(self, seat: int | None, number: int | None = None) -> str:
        """A party of a deal's transfers: the basket, or the account a seat played."""
        return "basket" if seat is BASKET else self.people[self.table(number)[seat][1]]


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


def stored_deal(session: Session, number: int, entry: tuple[Any, ...],
                seats: dict[object, int | None] | None = None) -> Deal:
    """The Deal `number` of an entry's columns (ENTRY, as stored): player ids read as the seats
    they sat in at that deal (an id not of this session raises ValueError), a flag as a bool, every
    seat's tricks from their JSON. `seats`: the session's `seats()`, when many deals are read."""
    known = seats or {}
    values: dict[str, Any] = {}  # by field, of the type its kind (core.fields) gives it
    for (name, kind), value in zip(_KINDS, entry, strict=True):
        if kind == "player":
            value = known[value] if value in known else session.seat(value, number)
        elif kind == "flag":
            value = bool(value)
        elif kind == "tricks-each" and value is not None:
            value = tricks_each(value)
        values[name] = value
    return Deal(**values)


_KINDS = tuple((f.name, f.kind) for f in STORED)  # each stored field's name and kind, read once per deal


def entry_of(session: Session, number: int, deal: Deal) -> tuple[object, ...]:
    """Deal `number`'s columns as stored (ENTRY's order): for a seat the id of who sat in it, 0 or
    1 for a flag, JSON for every seat's tricks."""
    out: list[object] = []
    for f in STORED:
        value = getattr(deal, f.name)
        if f.kind == "player":
            value = session.person_id(value, number)
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
