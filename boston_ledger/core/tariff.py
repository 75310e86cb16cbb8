"""The model of a tariff: the numbers and rule choices of one Boston system, as read from its file.

A tariff is data: the engine knows the mechanisms (tables, the basket, bonuses, multipliers),
the tariff file holds every number and every choice (`tariff_files.py` reads and checks it).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from .errors import LedgerError

PASS = "pass"
BOSTON_RULES = ("holder", "none", "declarer-pays")
FAILED_BASKET = ("labet", "opponents", "none")
SCORING = ("chips", "points")
ALL_PASS = ("double", "nothing", "misere-partout")  # what an all-pass does: the basket doubles, nothing, or
# everybody plays a misère (misère partout)
STAKE_PAYERS = ("each", "dealer")
STAKE_AT = ("start-and-award", "every-deal")  # when the stake is due: the first deal and the first after the
# basket is won, or every deal
BOSTON_SLAM_FOR = ("anyone", "declaring-side")  # whose boston a slam multiplies
ALL_PASS_REMAINDER = ("dealer", "eldest")  # who pays what does not divide when the basket doubles
LABET_ODD_CHIP = ("declarer", "partner")  # who pays the odd chip of a labet split by two
SHARE_REMAINDER = ("stays", "first")  # a basket share-out that does not divide: left in it, or to the first
LIMIT = 10**6  # no tariff number is larger than this


class TariffError(LedgerError):
    """A tariff file that cannot be used; the message says where and what is expected."""

    def __init__(self, message: str, problems: list[str] | None = None):
        super().__init__(message)
        self.problems = problems or [message]


@dataclass(frozen=True)
class Rank:
    key: str
    names: tuple[str, ...]
    multiplier: int


@dataclass(frozen=True)
class Schedule:
    """How a contract pays: a trick table (`tricks`) or a value made on no trick (`null`).

    `consolation` is the base payment: one number, or one per rank (`by_rank`); a failed
    contract's base is `failed_consolation` when the tariff gives one (else the same), and
    `premium` is added to every payment after the slam's doubling. A `null` schedule with
    `failed_per_trick` costs its value for every trick taken when it fails.
    """

    key: str
    kind: str
    bar: int
    consolation: int
    per_trick: int
    per_undertrick: int
    slam: int
    slam_against: int
    slam_against_undertricks: int
    shares: tuple[int, ...]
    failed_basket: str
    by_rank: dict[str, int] = field(default_factory=dict)
    failed_consolation: int | None = None
    failed_by_rank: dict[str, int] = field(default_factory=dict)
    premium: int = 0
    failed_per_trick: bool = False

    def base(self, rank: str | None) -> int:
        return self.by_rank[rank] if self.by_rank and rank is not None else self.consolation

    def failed_base(self, rank: str | None) -> int:
        """The base payment of the contract failed."""
        if self.failed_by_rank and rank is not None:
            return self.failed_by_rank[rank]
        return self.base(rank) if self.failed_consolation is None else self.failed_consolation


@dataclass(frozen=True)
class Contract:
    key: str
    names: tuple[str, ...]
    ranks: tuple[str, ...]
    default_rank: str | None
    alone: Schedule | None
    with_partner: Schedule | None
    boston_made: str
    boston_failed: str


@dataclass(frozen=True)
class Condition:
    key: str
    title: str
    seed: str
    in_force: bool  # already part of this tariff: turning it on changes nothing
    names: tuple[str, ...] = ()  # the words a player may use for it (the seed's Russian title first)


@dataclass(frozen=True)
class Basket:
    """The basket's rules: the stake, the remise, what an all-pass does, and the odd chips.

    The defaults are the classic rules; old stored tariff texts, written before these were keys
    of the file, read with them.
    """

    stake: int
    stake_payer: str
    remise: int
    all_pass: str
    pass_names: tuple[str, ...]
    all_pass_remainder: str = "dealer"
    labet_odd_chip: str = "declarer"
    share_remainder: str = "stays"
    stake_at: str = "start-and-award"
    partout_per_trick: int = 0  # misère partout: what the loser pays per trick of difference


@dataclass(frozen=True)
class Tariff:
    name: str
    title: str
    source: str
    scoring: str
    players: int
    tricks: int
    ranks: dict[str, Rank]
    tours: tuple[int, ...]
    basket: Basket
    boston: int
    boston_slam: int
    carte_blanche: int
    schedules: dict[str, Schedule]
    contracts: dict[str, Contract]
    conditions: dict[str, Condition]
    applied: tuple[str, ...]
    notes: tuple[str, ...]
    text: str
    boston_slam_for: str = "anyone"
    ladders: tuple[tuple[str, ...], ...] = ()  # contracts from the lowest to the highest, ladder by ladder

    @property
    def digest(self) -> str:
        """A short hash of the tariff's full text, naming exactly this tariff."""
        import hashlib  # here: a deal never shows the hash, and hashlib is slow to import

        return hashlib.sha256(self.text.encode()).hexdigest()[:12]

    @property
    def deals_per_partie(self) -> int:
        return self.players * len(self.tours)

    @property
    def has_basket(self) -> bool:
        return self.scoring == "chips"

    def contract_key(self, word: str) -> str | None:
        """The contract (or `pass`) a player's word means, in English or Russian."""
        if lookup(word, [(PASS, self.basket.pass_names)]) is not None:
            return PASS
        return lookup(word, ((key, c.names) for key, c in self.contracts.items()))

    def rank_key(self, word: str) -> str | None:
        """The suit rank a player's word means."""
        return lookup(word, ((key, r.names) for key, r in self.ranks.items()))

    def condition_key(self, word: str) -> str | None:
        """The condition a player's word means: its key or one of its names (the seed's titles)."""
        return lookup(word, ((key, c.names) for key, c in self.conditions.items()))


def folded(word: str) -> str:
    """A word as lookups compare it: case, spaces, dashes and underscores aside
    ("Петит-мизер уверт" is "петит-мизер-уверт")."""
    return "-".join(word.casefold().replace("_", "-").replace("-", " ").split())


def lookup(word: str, entries: Iterable[tuple[str, Iterable[str]]]) -> str | None:
    """The key of the entry (key, its names) that a player's word names, or None: the one
    lookup of contracts, ranks and conditions."""
    w = folded(word)
    for key, names in entries:
        if w == folded(key) or any(w == folded(n) for n in names if isinstance(n, str)):
            return key
    return None
