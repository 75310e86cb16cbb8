"""The model of a tariff: the numbers and rule choices of one Boston system, as read from its file.

A tariff is data: the engine knows the mechanisms (tables, the basket, bonuses, multipliers),
the tariff file holds every number and every choice (`tariff_files.py` reads and checks it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .errors import LedgerError

PASS = "pass"
BOSTON_RULES = ("holder", "none", "declarer-pays")
FAILED_BASKET = ("labet", "opponents", "none")
SCORING = ("chips", "points")
ALL_PASS = ("double", "nothing")
STAKE_PAYERS = ("each", "dealer")
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

    `consolation` is the base payment: one number, or one per rank (`by_rank`).
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

    def base(self, rank: str | None) -> int:
        return self.by_rank[rank] if self.by_rank and rank is not None else self.consolation


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


@dataclass(frozen=True)
class Basket:
    """The basket's rules: the stake, the remise, what an all-pass does, and the odd chips."""

    stake: int
    stake_payer: str
    remise: int
    all_pass: str
    pass_names: tuple[str, ...]
    all_pass_remainder: str = "dealer"
    labet_odd_chip: str = "declarer"
    share_remainder: str = "stays"


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
        w = word.strip().casefold().replace("_", "-").replace(" ", "-")
        if w == PASS or w in (n.casefold() for n in self.basket.pass_names):
            return PASS
        for key, contract in self.contracts.items():
            if w == key.casefold() or w in (n.casefold() for n in contract.names):
                return key
        return None

    def rank_key(self, word: str) -> str | None:
        w = word.strip().casefold()
        for key, rank in self.ranks.items():
            if w == key.casefold() or w in (n.casefold() for n in rank.names):
                return key
        return None
