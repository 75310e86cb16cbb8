"""The model of a tariff: the numbers and rule choices of one Boston system, as read from its file.

A tariff is data: the engine knows the mechanisms (tables, the basket, bonuses, multipliers),
the tariff file holds every number and every choice (`tariff_files.py` reads it, `tariff_reader.py` checks
it: the keys of a table are the fields of the record it fills).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar

from .errors import LedgerError
from .i18n import SEEDS, SOURCE, GameWords, _, language

T = TypeVar("T")

PASS = "pass"
MISDEAL = "misdeal"  # the dealer misdealt and the deal passes to the next player: no card is played
BOSTON_RULES = ("holder", "none", "declarer-pays", "declarer-pays-unless-holder")  # who pays the boston, to
# whom: its holder receives it; nobody; the declarer pays it to each other player (unless he holds it)
FAILED_BASKET = ("labet", "opponents", "none", "as-each")  # a failed declarer doubles the basket (labet); the
# basket goes to the opponents; nothing; or he pays into it what he pays each opponent
SCORING = ("chips", "points")
ALL_PASS = ("double", "nothing", "misere-partout", "misere-partout-pool")  # what an all-pass does: the basket
# doubles, nothing, or everybody plays a misère (misère partout): whoever takes the most tricks pays the others,
# or whoever takes the fewest takes the basket
STAKE_PAYERS = ("each", "dealer")
STAKE_AT = ("start-and-award", "every-deal", "empty")  # when the stake is due: the first deal and the first after
# the basket is won, every deal, or whenever the basket is empty
MISDEAL_DEALER = ("next", "same")  # who deals after a misdeal: the next player, or the misdealer again
BOSTON_SLAM_FOR = ("anyone", "declaring-side")  # whose boston a slam multiplies
ALL_PASS_REMAINDER = ("dealer", "eldest")  # who pays what does not divide when the basket doubles
LABET_ODD_CHIP = ("declarer", "partner")  # who pays the odd chip of a labet split by two
BASE_PAYMENT = ("consolation", "contract")  # the reason the base payment of a contract is recorded under
ALONE_BY = ("dealer",)  # who alone may play a contract alone: the dealer (French Boston's forced demander)
GENDERS = ("masculine", "feminine", "neuter")  # of a contract's shown Russian name: what its deal's verdict agrees with
SHARE_REMAINDER = ("stays", "first")  # a basket share-out that does not divide: left in it, or to the first
PAYS = ("each", "beside")  # a side's payments: every member with every opponent, or each with the one beside him
DIVIDE_AMONG = ("all", "not-failed")  # who divides the basket at a game's end: everyone, or all but a failed side
LIMIT = 10**6  # no tariff number is larger than this
COLUMNS = ("turned", "petite", "belle")  # a rank that pays by a suit the deal turns up (core/columns.py): the suit
# turned this deal, the petite (the suit turned, none when the belle turns again), the belle (turned on the game's
# first deal)


class TariffError(LedgerError):
    """A tariff file that cannot be used; the message says where and what is expected."""

    def __init__(self, message: str, problems: list[str] | None = None):
        super().__init__(message)
        self.problems = problems or [message]


NONE: Mapping[str, int] = MappingProxyType({})  # an empty table that stays empty
NO_WORDS: Mapping[str, tuple[str, ...]] = MappingProxyType({})


class Rank(NamedTuple):
    key: str
    names: tuple[str, ...]
    multiplier: int
    column: str = ""  # one of COLUMNS: the rank pays as the suit the deal turned up says; "": it is a suit


class Schedule(NamedTuple):
    """How a contract pays: a trick table (`tricks`), a value made on no trick (`null`), or a
    printed table of what is paid by tricks taken and by tricks short (`table`).

    `consolation` is the base payment: one number, or one per rank (`by_rank`); a failed
    contract's base is `failed_consolation` when the tariff gives one (else the same), and
    `premium` is added to every payment after the slam's doubling. A `null` schedule with
    `failed_per_trick` costs its value for every trick taken when it fails.
    """

    key: str
    kind: str
    failed_basket: str
    bar: int = 0  # the tricks a contract needs (`tricks`, `table`)
    consolation: int = 0
    per_trick: int = 0
    per_undertrick: int = 0
    slam: int = 1
    slam_against: int = 1
    slam_against_undertricks: int = 0
    shares: tuple[int, ...] = ()
    by_rank: Mapping[str, int] = NONE
    failed_consolation: int | None = None
    failed_by_rank: Mapping[str, int] = NONE
    premium: int = 0
    failed_per_trick: bool = False
    takes_basket: bool = True  # made, the declaring side takes the basket (false: a bid too low to take it)
    takes: int = 0  # a `null` schedule is made when the declarer takes exactly this many tricks
    made_table: tuple[int, ...] = ()  # a `table` schedule: what is paid made, by tricks taken from the bar up
    failed_table: tuple[int, ...] = ()  # a `table` schedule: what is paid failed, by tricks short from 1
    takes_basket_conceded: bool | None = None  # made but conceded ("I pay"): whether it takes the basket (None:
    # as `takes_basket`)
    pays: str = "each"  # "beside": each member of the side pays (or is paid by) only the opponent beside him
    # (on his right, else on his left); the pair divides the basket won and puts a failure's payment into it
    # once between them, the declarer the odd chip either way

    def takes_pool(self, conceded: bool) -> bool:
        """Whether a made deal of this schedule takes the basket, played out or conceded."""
        return self.takes_basket if not conceded or self.takes_basket_conceded is None else self.takes_basket_conceded
    honours: tuple[int, ...] = ()  # what 0, 1, 2... honours pay made (before the rank's multiplier), where this
    # schedule's honours are its own and not the tariff's over-tricks
    slam_at: int = 0  # the tricks from which a made contract is a slam paying `slam_value` instead (0: none)
    slam_value: Mapping[str, int] = NONE  # the slam's value by the rank declared, times the tour only

    def base(self, rank: str | None) -> int:
        """The base payment of the contract made (a rank that names a column and no value of its own,
        before the deal resolves it: the plain value; only whether the contract is made is asked then)."""
        return self.by_rank.get(rank, 0) if self.by_rank and rank is not None else self.consolation

    def failed_base(self, rank: str | None) -> int:
        """The base payment of the contract failed."""
        if self.failed_by_rank and rank is not None:
            return self.failed_by_rank.get(rank, 0)
        return self.base(rank) if self.failed_consolation is None else self.failed_consolation


class Contract(NamedTuple):
    key: str
    names: tuple[str, ...]
    ranks: tuple[str, ...]
    default_rank: str | None
    alone: Schedule | None
    with_partner: Schedule | None
    boston_made: str
    boston_failed: str
    jack: bool = True  # where the tariff pays the diamond jack (`[bonuses] jack`): its holder is paid in this contract
    gender: str = ""  # the grammatical gender of its first Russian name (GENDERS); "" unknown: the verdict names «игра»
    alone_by: str = ""  # who may play it alone: "" anyone; "dealer" the dealer only (ALONE_BY)


class Condition(NamedTuple):
    key: str
    title: str
    seed: str
    in_force: bool  # already part of this tariff: turning it on changes nothing
    names: tuple[str, ...] = ()  # the words a player may use for it (the seed's Russian title first)


class Basket(NamedTuple):
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
    misdeal_names: tuple[str, ...] = ()  # the words for a misdeal besides "misdeal"
    misdeal_penalty: int = 0  # what the misdealer pays into the basket (a house option; 0: nothing moves)
    pool_limit: int = 0  # the most one pool holds (0: no limit); the basket is a row of pools played for in turn
    misdeal_dealer: str = "next"  # who deals after a misdeal: the next player, or the same one again
    concede: bool = False  # the adversaries may concede ("I pay"): a deal says so instead of its tricks
    divide_every: int = 0  # the basket is divided equally after every this many deals (a game; 0: only at settle),
    # what does not divide staying, and the next deal opens with a stake
    divide_among: str = "all"  # who divides it: everyone, or all but the side that failed the game's last deal
    stake_doubles: bool = False  # the stake is multiplied as the tour's payments are (French Boston's 20 in the
    # doubles)

    @property
    def partout(self) -> bool:
        """Whether an all-pass is played as misère partout (every player's tricks are entered)."""
        return self.all_pass in ("misere-partout", "misere-partout-pool")

    def first_pool(self, basket: int) -> int:
        """What a win takes and a labet doubles: the first pool of the basket (all of it without a limit)."""
        return min(basket, self.pool_limit) if self.pool_limit else basket

    def pools(self, basket: int) -> list[int]:
        """The pools the basket holds, the first one first: each full but the last."""
        if not self.pool_limit or basket <= self.pool_limit:
            return [basket]
        full, rest = divmod(basket, self.pool_limit)
        return [self.pool_limit] * full + ([rest] if rest else [])


_DERIVED: dict[tuple[int, str], tuple[object, Any]] = {}  # (id of a tariff, what): (that tariff, its value)


def _derived(tariff: Tariff, what: str, compute: Callable[[Tariff], T]) -> T:
    """What `compute` derives from a tariff's tables, worked out once per tariff (held by identity: a
    tariff is never changed, and a replay asks it of every deal)."""
    key = (id(tariff), what)
    hit = _DERIVED.get(key)
    if hit is None or hit[0] is not tariff:
        if len(_DERIVED) >= 256:  # a few tariffs in any one run; a test that makes thousands keeps no more
            _DERIVED.clear()
        hit = _DERIVED[key] = (tariff, compute(tariff))
    return hit[1]


def _most_honours(tariff: Tariff) -> int:
    own = max((len(s.honours) for s in tariff.schedules.values()), default=0)
    return max(len(tariff.honours), own) - 1 if tariff.honours or own else 0


class Tariff(NamedTuple):
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
    ladder_exceptions: tuple[tuple[str, str], ...] = ()  # (lower, higher): where the source's own tables break them
    # the over-tricks paid for 0, 1, 2... honours held by a made declarer (none: not scored)
    honours: tuple[int, ...] = ()
    base_payment: str = ""  # what the base payment of a contract is called: "consolation" (the Russian seeds' word,
    # the default of a chips tariff) or "contract" (the default of a points one)
    # short words that name a contract (or pass, misdeal) whole, by its key, even where they begin other names
    # ("p" pass, "gm" grand-misere): the commonest words win their shortest beginnings
    abbreviations: Mapping[str, tuple[str, ...]] = NO_WORDS
    until_pool_won: bool = False  # after the agreed deals, deals go on while the pool holds chips, in the game that
    # ended (French Boston: "it is played for until won")
    jack: int = 0  # what the holder of the diamond jack (a deal's `jack`) receives from each other player, times the
    # tour (0: the tariff does not pay it)
    words: GameWords = SEEDS  # the game's own words where they are not the seeds' ([words]; core/i18n.py)

    @property
    def turns(self) -> bool:
        """Whether a deal says the suit turned up: some rank pays by it (core/columns.py)."""
        return _derived(self, "turns", lambda t: any(r.column for r in t.ranks.values()))

    @property
    def most_honours(self) -> int:
        """The most honours a deal may say (0: the tariff scores none)."""
        return _derived(self, "most_honours", _most_honours)

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
        """The contract (or `pass`) a player's word means, in English or Russian, by any unique
        beginning of one of its names."""
        return self.find_contract(word).key

    def find_contract(self, word: str) -> Found:
        """What a player's word names among the contracts, pass and misdeal (`find`), the tariff's
        abbreviations first."""
        return find(word, [(PASS, (PASS, *self.basket.pass_names)),
                           *((key, c.names) for key, c in self.contracts.items()),
                           (MISDEAL, (MISDEAL, *self.basket.misdeal_names))], short=self.abbreviations.items())

    def refusal(self, word: str) -> str | None:
        """Why the game refuses what a player's word names (its [words.refused], by a whole name),
        in the language spoken; None when it refuses no such thing."""
        for refused in self.words.refused.values():
            if any(folded(name) == folded(word) for name in refused.names):
                return refused.why.get(language()) or refused.why.get(SOURCE)
        return None

    def rank_key(self, word: str) -> str | None:
        """The suit rank a player's word means (`find_rank`)."""
        return self.find_rank(word).key

    def find_rank(self, word: str, among: Iterable[str] | None = None) -> Found:
        """What a player's word names among the ranks (only those `among`, when given)."""
        keys = self.ranks if among is None else [k for k in self.ranks if k in among]
        return find(word, ((key, self.ranks[key].names) for key in keys))

    def condition_key(self, word: str) -> str | None:
        """The condition a player's word means: its key or one of its names (the seed's titles),
        by any unique beginning (`find_condition`)."""
        return self.find_condition(word).key

    def find_condition(self, word: str) -> Found:
        """What a player's word names among the conditions."""
        return find(word, ((key, c.names) for key, c in self.conditions.items()))


def folded(word: str) -> str:
    """A word as lookups compare it: compatibility forms, case, ё and е, and spaces, dashes and
    underscores aside ("Петит-мизер уверт" is "петит-мизер-уверт", "ЖЁЛТЫЙ" is "желтый")."""
    text = unicodedata.normalize("NFKC", word).casefold().replace("ё", "е")
    return "-".join(text.replace("_", "-").replace("-", " ").split())


class Found(NamedTuple):
    """What a player's word names among some entries: the entry's key when it names one; else the
    keys of the entries a beginning fits (`candidates`, more than one), or the words it looks
    like (`close`, for a "did you mean")."""

    key: str | None
    candidates: tuple[str, ...] = ()
    close: tuple[str, ...] = ()


def find(word: str, entries: Iterable[tuple[str, Iterable[str]]],
         key: Callable[[str], str] = folded, short: Iterable[tuple[str, Iterable[str]]] = ()) -> Found:
    """The one lookup of a word a player typed among entries (key, its other names), compared by
    `key`: a whole name or abbreviation first (`short`: an entry's key and the words that name it
    whole only, "gm" for grand-misere), then a beginning of names of one entry only (not for a
    number: "1" is not the beginning of "13"), then the words it looks like.

    Contracts, ranks and conditions are compared as `folded` words; players by their names'
    comparison key (`app.inputs`); tariffs by their names."""
    wanted = key(word)
    table = [(k, [k, *(n for n in names if isinstance(n, str))]) for k, names in entries]
    if not wanted:
        return Found(None)
    whole = [k for k, words in [*table, *short] if any(key(w) == wanted for w in words if isinstance(w, str))]
    if whole:
        return Found(whole[0]) if len(set(whole)) == 1 else Found(None, tuple(dict.fromkeys(whole)))
    if not wanted.isdigit():
        begun = [k for k, words in table if any(key(w).startswith(wanted) for w in words)]
        if len(begun) == 1:
            return Found(begun[0])
        if begun:
            return Found(None, tuple(begun))
    import difflib  # here: only a word that names nothing needs it

    spelled: dict[str, tuple[str, str]] = {}  # a compared word: its entry's key, the word as written
    for k, words in table:
        for w in words:
            spelled.setdefault(key(w), (k, w))
    close: dict[str, str] = {}  # the entry's key: its word closest to the one typed
    for match in difflib.get_close_matches(wanted, list(spelled), n=6, cutoff=0.6):
        close.setdefault(*spelled[match])
    return Found(None, close=tuple(close.values())[:3])


def lookup(word: str, entries: Iterable[tuple[str, Iterable[str]]]) -> str | None:
    """The key of the entry (key, its names) that a player's word names, or None (`find`)."""
    return find(word, entries).key


def either(words: Iterable[str]) -> str:
    """Words as alternatives: 'junior', 'junior or senior', 'junior, senior or solo'."""
    listed = list(words)
    if len(listed) < 2:
        return "".join(listed)
    return _("{some} or {last}", some=", ".join(listed[:-1]), last=listed[-1])


def suggestion(found: Found) -> str | None:
    """The one word a "did you mean" proposes, if it proposes one only."""
    return found.close[0] if len(found.close) == 1 else None


def did_you_mean(found: Found) -> str:
    """'; did you mean junior?' for a word that looks like some names, else nothing."""
    return _("; did you mean {words}?", words=either(found.close)) if found.close else ""


def ambiguous(found: Found, word: str, name: Callable[[str], str] = str) -> str | None:
    """What to say of a beginning that fits more than one entry (each named by `name`), or None."""
    if not found.candidates:
        return None
    return _("{word!r} could be {names}; type more of it", word=word.strip(),
             names=either(name(k) for k in found.candidates))
