"""Paying by the suit turned up, and partners who each face one adversary: the mechanisms French
Boston brought (Foster, "French Boston", pp. 179-182), declared in its tariff file and kept here,
out of the engine's main loop.

- A rank with a `column` names no suit of its own: it pays by the suit the deal turned up
  (`turned`), by the petite (the suit turned, none when the belle turns again) or by the belle
  (the suit turned on the game's first deal). `suit` resolves it; the suit's multiplier pays.
- A schedule with `slam_at` pays its `slam_value` (by the rank declared, times the tour only)
  instead of its table when the side takes that many tricks.
- A schedule that `pays = "beside"`: each adversary pays, or is paid by, the member of the side beside him.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import GIVE, LedgerError
from .i18n import _, rank_name
from .tariff import Schedule, Tariff


class ColumnError(LedgerError):
    """A rank that names no suit this deal (a petite when the belle turned again)."""


def suits(tariff: Tariff) -> tuple[str, ...]:
    """The ranks that are suits (the ones a card turned up can be)."""
    return tuple(key for key, rank in tariff.ranks.items() if not rank.column)


def belle(first_of_game: bool, before: str | None, turned: str | None) -> str | None:
    """The belle after a deal: the suit turned on the game's first deal (on the first deal that turned
    one, when the game opened with a misdeal); None where nothing is turned."""
    return turned if first_of_game or before is None else before


def suit(tariff: Tariff, rank: str | None, turned: str | None, belle: str | None) -> str | None:
    """The suit a rank pays by in a deal that turned up `turned`, the game's belle being `belle`."""
    if rank is None or not tariff.ranks[rank].column:
        return rank
    column = tariff.ranks[rank].column
    if column == "belle":
        found = belle if belle is not None else turned  # the game's first deal: what it turns is the belle
    elif column == "petite" and turned is not None and turned == (belle if belle is not None else turned):
        raise ColumnError(_("the belle, {suit}, was turned again: this deal has no petite; play in belle",
                            suit=rank_name(tariff, turned)), "rank")
    else:
        found = turned
    if found is None:
        raise ColumnError(_("{rank} pays by the suit turned up this deal: say which suit was turned",
                            rank=rank_name(tariff, rank)), "turned", remedy=GIVE)
    return found


def slam(schedule: Schedule, declared: str | None, taken: int) -> int | None:
    """What a made contract's slam pays each adversary before the tour's multiplier (by the rank
    declared, belle or petite), or None when the side did not reach the schedule's slam."""
    if not schedule.slam_at or taken < schedule.slam_at or declared is None:
        return None
    return schedule.slam_value[declared]


def beside(member: int, side: Sequence[int], players: int) -> int:
    """The adversary beside a member of a side: on his right (the seat before his, the deal passing
    to the left), else, when that is his partner, on his left (house reading of Foster's partners,
    Fontainebleau's "the adversary beside him" and French Boston's "as in Solo Whist")."""
    right = (member - 1) % players
    return right if right not in side else (member + 1) % players


def faced(schedule: Schedule, side: Sequence[int], paying: Sequence[int], opponents: Sequence[int],
          players: int) -> dict[int, Sequence[int]]:
    """The adversaries each paying member of the side faces: all of them, unless the schedule pays
    `beside` and the whole side pays or is paid (one failing member alone pays them all)."""
    if schedule.pays != "beside" or len(side) < 2 or len(paying) < len(side):
        return dict.fromkeys(paying, opponents)
    return {member: (beside(member, side, players),) for member in paying}
