"""The pure engine: (tariff, state before a deal, deal) -> the transfers of that deal.

No I/O. Parties are seats (0-based, in seat order) or BASKET. Every chip that moves is one
Transfer between two parties, so balances plus basket always sum to zero.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import NamedTuple

from . import columns
from .errors import DROP, GIVE, MEND, LedgerError
from .i18n import N_, _, contract_name, contract_names, ngettext, rank_name, tariff_name
from .tariff import MISDEAL, PASS, Contract, Schedule, Tariff

BASKET = None  # the party that is the pool in the middle of the table
Party = int | None

# Why chips moved; the order in which a breakdown shows them.
REASONS = ("stake", "remise", "misdeal", "all-pass", "misere-partout", "consolation", "contract", "overtricks",
           "undertricks", "misere-tricks", "slam", "slam-value",
           "premium", "honours", "basket", "labet", "penalty", "boston",
           "carte-blanche", "jack", "division")


class DealError(LedgerError):
    """A deal that the tariff or the table does not allow: what is wrong with `field`, which
    needs mending unless `remedy` says it is to be given or dropped. `number`, when a replay met
    it, is the deal's number in its session."""

    number: int | None = None

    def __init__(self, message: str, field: str, remedy: str | None = MEND):
        super().__init__(message, field, remedy=remedy)


class Deal(NamedTuple):
    """One deal as entered at the table; seats are 0-based positions in seat order."""

    contract: str
    declarer: int | None = None
    partner: int | None = None
    tricks: int | None = None
    partner_tricks: int | None = None
    rank: str | None = None
    boston: int | None = None
    ace_turned: bool = False  # remise: the trump turned by the dealer is an ace
    carte_blanche: int | None = None  # the seat that declared a blank hand
    tricks_each: tuple[int, ...] | None = None  # misère partout: every seat's tricks of an all-pass played
    team_tricks: int | None = None  # a pair's tricks together, as the table said them (the two's own may be unsaid)
    honours: int | None = None  # how many of the trump's four honours (A K Q J) the declaring side held
    conceded: bool = False  # the adversaries said "I pay": the bid is paid without over-tricks, no trick counted
    turned: str | None = None  # the suit turned up this deal (a rank's key), where a rank pays by it (core/columns)
    jack: int | None = None  # the seat that held the diamond jack, where the tariff pays it


class Transfer(NamedTuple):
    """Chips moving from one party to another, and why."""

    payer: Party
    payee: Party
    chips: int
    reason: str


class State(NamedTuple):
    """What the engine needs of the past: balances, basket, deals entered, whether a stake is due,
    and how many of the deals were misdeals after which the same dealer dealt again; and, once the
    table has changed, whose money each seat plays and the chips of those who left it.

    Accounts are the people of a session by the order they joined (the first ones in seat order).
    `balances` are the seats', each its account's; `away` are the accounts no seat plays, with
    their chips. Balances plus basket plus the chips away sum to zero."""

    balances: tuple[int, ...]
    basket: int = 0
    deals: int = 0
    stake_due: bool = True
    redeals: int = 0
    seated: tuple[int, ...] = ()  # each seat's account; () while each seat plays its first player's
    away: tuple[tuple[int, int], ...] = ()  # (account, chips) of those who left the table, by account
    belle: str | None = None  # the suit turned on the game's first deal, where ranks pay by it (core/columns)
    # where a game's pool is played for until won after its agreed deals (`Tariff.until_pool_won`): the deals
    # played after their games' agreed ones, in all, and in the game being played (0 once another opens)
    overtime: int = 0
    extra: int = 0

    @classmethod
    def start(cls, players: int) -> State:
        return cls(balances=(0,) * players)

    @property
    def played(self) -> int:
        """The deals that count as deals of the game: a misdeal dealt again by the same dealer does not."""
        return self.deals - self.redeals

    @property
    def accounts(self) -> tuple[int, ...]:
        """Each seat's account."""
        return self.seated or tuple(range(len(self.balances)))

    def holdings(self, people: int) -> tuple[tuple[int, ...], tuple[bool, ...]]:
        """Each of `people` accounts' chips (a seat's balance, or the chips it took away; none for
        one who never had money of his own, a substitute), and whether it is at the table."""
        chips, seated = [0] * people, [False] * people
        for account, held in self.away:
            chips[account] = held
        for account, balance in zip(self.accounts, self.balances, strict=True):
            chips[account], seated[account] = balance, True
        return tuple(chips), tuple(seated)


class Position(NamedTuple):
    """Where a deal falls: who deals, which tour of which partie, the payment multiplier; its
    number among the deals of its partie, and whether it comes after the partie's tours (its
    basket played for until won: simple tours counted on after the last)."""

    number: int  # 1-based deal number in the session (its record: misdeals counted)
    dealer: int
    partie: int
    tour: int
    multiplier: int
    deal: int = 1  # 1-based number of the deal in its partie (misdeals dealt again not counted)
    overtime: bool = False  # after the partie's agreed deals, the basket played for until won

    @property
    def double(self) -> bool:
        return self.multiplier > 1


class Outcome(NamedTuple):
    transfers: tuple[Transfer, ...]
    made: bool | None  # None for an all-pass or a misdeal
    stake_next: bool  # whether the next deal opens with a stake (the basket was won, or a misdeal left one due)
    scores: tuple[int, ...] = ()  # what each seat writes on a points score sheet for this deal
    redealt: bool = False  # a misdeal after which the same dealer deals again
    belle: str | None = None  # the game's belle after this deal (core/columns)
    overtime: bool = False  # the deal came after its partie's agreed deals (Position.overtime)


def position(tariff: Tariff, state: State) -> Position:
    """The position of the deal that follows `state`. Misdeals after which the same dealer dealt
    again neither pass the deal nor count in the tour; where the tariff plays a partie's basket
    for until won, deals after the partie's agreed ones stay in it while the basket holds chips
    (simple tours counted on), and the next partie counts its deals from its own first."""
    per_partie = tariff.deals_per_partie
    turns = state.played
    regular = turns - state.overtime  # the deals played within their parties' agreed ones
    dealer = turns % tariff.players
    if tariff.until_pool_won and regular and regular % per_partie == 0 and state.basket > 0:
        return Position(number=state.deals + 1, dealer=dealer, partie=regular // per_partie,
                        tour=len(tariff.tours) + state.extra // tariff.players + 1, multiplier=1,
                        deal=per_partie + state.extra + 1, overtime=True)
    in_partie = regular % per_partie
    tour = in_partie // tariff.players
    return Position(
        number=state.deals + 1,
        dealer=dealer,
        partie=regular // per_partie + 1,
        tour=tour + 1,
        multiplier=tariff.tours[tour],
        deal=in_partie + 1,
    )


def dealer(tariff: Tariff, deals_before: int, redeals: int = 0) -> int:
    """Who deals after `deals_before` deals, `redeals` of them misdeals dealt again by the same dealer."""
    return (deals_before - redeals) % tariff.players


def carried(state: State, overtime: bool, redealt: bool) -> tuple[int, int]:
    """The deals played after their parties' agreed ones (`State.overtime`, `State.extra`) once a
    deal has been played at `state`, after them or not; a misdeal dealt again counts in neither."""
    if redealt:
        return state.overtime, state.extra
    return state.overtime + overtime, state.extra + 1 if overtime else 0


def new_game(tariff: Tariff, state: State) -> bool:
    """Whether the deal after `state` opens a game: the first of its deals (a game whose pool is
    played for until won goes on after its agreed deals while the pool holds chips)."""
    return position(tariff, state).deal == 1


def agreed_played(state: State) -> int:
    """The deals played that count among the agreed ones: not a misdeal dealt again, nor a deal
    after a partie's agreed ones while its basket was played for until won."""
    return state.played - state.overtime


def over(tariff: Tariff, state: State, agreed: int | None) -> bool:
    """Whether the `agreed` deals are played and no more are dealt: after them a pool played for until
    won is dealt for while it holds chips."""
    return agreed is not None and agreed_played(state) >= agreed and not (tariff.until_pool_won and state.basket > 0)


def redeals(tariff: Tariff, deal: Deal) -> bool:
    """Whether the same dealer deals again after this deal (a misdeal, where the tariff says so)."""
    return deal.contract == MISDEAL and tariff.basket.misdeal_dealer == "same"


def stake_due(tariff: Tariff, state: State) -> bool:
    """Whether the next deal opens with a stake: after the basket is won (and at the first
    deal), at every deal, or whenever the basket is empty, as the tariff says."""
    if tariff.basket.stake_at == "empty":
        return state.basket == 0 or game_starts(tariff, state)
    return state.stake_due or tariff.basket.stake_at == "every-deal"


def game_starts(tariff: Tariff, state: State) -> bool:
    """Whether the next deal opens a game after which the basket is divided (`divide_every`)."""
    every = tariff.basket.divide_every
    return bool(every) and state.played % every == 0


def stake(tariff: Tariff, pos: Position) -> int:
    """What one payer of the stake puts in at this deal: the stake, times the tour where the tariff
    doubles it with the tour's payments."""
    return tariff.basket.stake * (pos.multiplier if tariff.basket.stake_doubles else 1)


def schedule_of(contract: Contract, deal: Deal) -> Schedule:
    schedule = contract.with_partner if deal.partner is not None else contract.alone
    assert schedule is not None  # validate() guarantees it
    return schedule


# What only a played contract has, which neither a misdeal nor an all-pass takes.
PLAYED_ONLY = ("declarer", "partner", "tricks", "partner_tricks", "team_tricks", "rank", "boston", "conceded", "jack")
SEATS = ("declarer", "partner", "boston", "carte_blanche", "jack")  # the fields that name a seat


def _given(deal: Deal, field: str) -> bool:
    value = getattr(deal, field)
    return value is not None and value is not False


def validate(tariff: Tariff, deal: Deal) -> None:
    """Raise DealError unless the deal can be scored under this tariff. Each refusal says why in
    the game's words and names the field it concerns, with what that field needs (errors.GIVE,
    DROP or MEND): each way into the program says the field in its own terms."""
    _validate_table(tariff, deal)
    if deal.contract == MISDEAL:
        _validate_unplayed(deal, (*PLAYED_ONLY, "carte_blanche", "tricks_each", "honours", "ace_turned", "turned"),
                           _("a misdeal is not played"))
        return
    if deal.contract == PASS:
        _validate_unplayed(deal, (*PLAYED_ONLY, "honours"), _("an all-pass is not played") if not tariff.basket.partout
                           else _("an all-pass is played as misère partout, where only every player's tricks are said"))
        _validate_partout(tariff, deal.tricks_each)
        _validate_turned(tariff, deal)
        return
    if deal.tricks_each is not None:
        raise DealError(_("every player's tricks are said only of an all-pass played as misère partout"),
                        "tricks_each", remedy=DROP)
    contract = tariff.contracts.get(deal.contract)
    if contract is None:
        raise DealError(_("the {name} tariff has no contract {contract!r}; it has {names} and pass",
                          name=tariff_name(tariff), contract=contract_name(tariff, deal.contract),
                          names=contract_names(tariff)),
                        "contract", None)
    if deal.declarer is None:
        raise DealError(_("{contract} needs its declarer", contract=contract_name(tariff, deal.contract)), "declarer",
                        remedy=GIVE)
    _validate_side(tariff, contract, deal)
    if deal.conceded:
        _validate_unplayed(deal, ("tricks", "partner_tricks", "team_tricks"),
                           _("a deal conceded (\"I pay\") counts no tricks"))
    else:
        _validate_tricks(tariff, deal)
    _validate_rank(tariff, contract, deal)
    _validate_turned(tariff, deal)
    made = is_made(schedule_of(contract, deal), counted(tariff, deal))
    if deal.partner is not None and deal.tricks is None and deal.partner_tricks is None and not deal.conceded and \
            split_decides(tariff, contract, taken(deal), deal.rank):
        raise DealError(ngettext("the pair took {n} trick together, fewer than the {bar} they needed, so who took "
                                 "how many decides who pays: give the declarer's own tricks",
                                 "the pair took {n} tricks together, fewer than the {bar} they needed, so who took "
                                 "how many decides who pays: give the declarer's own tricks",
                                 taken(deal), bar=schedule_of(contract, deal).bar), "tricks", remedy=GIVE)
    if deal.honours is not None and not (schedule_of(contract, deal).kind == "tricks" and contract.ranks and made):
        raise DealError(_("honours count only for a trump contract made"), "honours", remedy=DROP)
    if deal.boston is not None and not takes_boston(contract):
        raise DealError(_("{contract} is played without boston", contract=contract_name(tariff, deal.contract)),
                        "boston", remedy=DROP)
    if deal.boston is not None and not holder_counts(contract, made):
        raise DealError(_("{contract} made pays no boston", contract=contract_name(tariff, deal.contract)), "boston",
                        remedy=DROP)
    if deal.jack is not None and not contract.jack:
        raise DealError(_("in {contract} the diamond jack has no value", contract=contract_name(tariff, deal.contract)),
                        "jack", remedy=DROP)


def _validate_turned(tariff: Tariff, deal: Deal) -> None:
    """The suit turned up: said of every deal played where a rank pays by it, and a suit."""
    if deal.turned is None and plays(tariff, "turned"):
        raise DealError(_("say which suit was turned up this deal"), "turned", remedy=GIVE)
    if deal.turned is not None and deal.turned not in columns.suits(tariff):
        raise DealError(_("{rank} is not a suit that can be turned up; turn one of {suits}",
                          rank=rank_name(tariff, deal.turned),
                          suits=", ".join(rank_name(tariff, s) for s in columns.suits(tariff))), "turned")


def plays(tariff: Tariff, field: str) -> bool:
    """Whether deals under this tariff say `field` at all: who held the boston, the honours, a
    blank hand, an ace turned and every player's tricks only where the tariff pays for them."""
    said = PLAYS.get(field)
    return True if said is None else said(tariff)


PLAYS: dict[str, Callable[[Tariff], bool]] = {  # the fields only some tariffs play, and which
    "boston": lambda t: t.boston > 0, "honours": lambda t: t.most_honours > 0,
    "carte_blanche": lambda t: t.carte_blanche > 0, "ace_turned": lambda t: t.basket.remise > 0,
    "tricks_each": lambda t: t.basket.partout, "turned": lambda t: t.turns, "jack": lambda t: t.jack > 0,
    "conceded": lambda t: t.basket.concede}


# Why each field a tariff does not play is refused (every player's tricks: _validate_partout), said
# only when refused: a replay of a club's season validates every deal.
UNPLAYED = {
    "ace_turned": N_("an ace turned counts only with the remise condition, which this session does not play"),
    "carte_blanche": N_("the {name} tariff pays nothing for a blank hand"),
    "boston": N_("the {name} tariff pays no boston"),
    "honours": N_("the {name} tariff scores no honours"),
    "conceded": N_("the {name} tariff has no \"I pay\": enter the tricks taken"),
    "turned": N_("the {name} tariff pays by no suit turned up"),
    "jack": N_("the {name} tariff pays nothing for the diamond jack")}


def _validate_table(tariff: Tariff, deal: Deal) -> None:
    """The seats a deal names are at the table, and what it says is something the tariff plays."""
    n = tariff.players
    for field in SEATS:
        seat = getattr(deal, field)
        if seat is not None and not 0 <= seat < n:
            raise DealError(_("seat {seat} is not at this table of {n}", seat=seat, n=n), field)
    for field, why in UNPLAYED.items():
        value = getattr(deal, field)
        if value is not None and value is not False and not plays(tariff, field):
            raise DealError(_(why, name=tariff_name(tariff)), field, remedy=DROP)
    if deal.honours is not None and not 0 <= deal.honours <= tariff.most_honours:
        raise DealError(_("{n} is not a number of honours from 0 to {most}", n=deal.honours,
                          most=tariff.most_honours), "honours")


def _validate_unplayed(deal: Deal, fields: tuple[str, ...], why: str) -> None:
    """A deal that is not played as a contract says none of `fields`."""
    extra = next((f for f in fields if _given(deal, f)), None)
    if extra is not None:
        raise DealError(why, extra, remedy=DROP)


def _validate_side(tariff: Tariff, contract: Contract, deal: Deal) -> None:
    """The declaring side: alone or with a partner, as the contract is played (its name said only
    when it is refused: a replay of a club's season validates every deal)."""
    if deal.partner is not None:
        if deal.partner == deal.declarer:
            raise DealError(_("the partner cannot be the declarer; choose another player"), "partner")
        if contract.with_partner is None:
            raise DealError(_("{contract} is played alone", contract=contract_name(tariff, deal.contract)), "partner",
                            remedy=DROP)
        if deal.partner_tricks is None and deal.team_tricks is None and not deal.conceded:
            raise DealError(_("a deal with a partner needs the partner's own tricks, or the pair's together"),
                            "partner_tricks", remedy=GIVE)
        return
    if contract.alone is None:
        raise DealError(_("{contract} is played with a partner", contract=contract_name(tariff, deal.contract)),
                        "partner", remedy=GIVE)
    if deal.partner_tricks is not None:
        raise DealError(_("a declarer who plays alone has no partner's tricks"), "partner_tricks", remedy=DROP)
    if deal.team_tricks is not None:
        raise DealError(_("the tricks of a pair together need a partner"), "partner", remedy=GIVE)


def _validate_tricks(tariff: Tariff, deal: Deal) -> None:
    """The tricks said: each a number of the deal's, and the pair's own adding up to their total."""
    if deal.tricks is None and deal.team_tricks is None:
        raise DealError(_("{contract} needs the declarer's tricks", contract=contract_name(tariff, deal.contract)),
                        "tricks", remedy=GIVE)
    for field in ("tricks", "partner_tricks", "team_tricks"):
        t = getattr(deal, field)
        if t is not None and not 0 <= t <= tariff.tricks:
            raise DealError(_("{t} is not a number of tricks from 0 to {tricks}", t=t, tricks=tariff.tricks), field)
    mine, theirs, team = deal.tricks, deal.partner_tricks, deal.team_tricks
    if team is not None and mine is not None and theirs is not None and mine + theirs != team:
        raise DealError(ngettext("the declarer's {tricks} and the partner's {partner_tricks} tricks are not the "
                                 "pair's {n} trick together",
                                 "the declarer's {tricks} and the partner's {partner_tricks} tricks are not the "
                                 "pair's {n} tricks together", team, tricks=mine, partner_tricks=theirs), "team_tricks")
    if team is not None and mine is not None and mine > team:
        raise DealError(ngettext("the declarer cannot have taken {own} of the pair's {n} trick",
                                 "the declarer cannot have taken {own} of the pair's {n} tricks", team, own=mine),
                        "tricks")
    if team is not None and theirs is not None and theirs > team:
        raise DealError(ngettext("the partner cannot have taken {own} of the pair's {n} trick",
                                 "the partner cannot have taken {own} of the pair's {n} tricks", team, own=theirs),
                        "partner_tricks")
    if (mine or 0) + (theirs or 0) > tariff.tricks:
        raise DealError(ngettext("declarer and partner took {tricks} + {partner_tricks} tricks, more than the {n} "
                                 "of a deal", "declarer and partner took {tricks} + {partner_tricks} tricks, more "
                                 "than the {n} of a deal", tariff.tricks, tricks=mine, partner_tricks=theirs),
                        "partner_tricks")


def _validate_rank(tariff: Tariff, contract: Contract, deal: Deal) -> None:
    """The rank said is one the contract is played at; one is said where the contract has no default
    (the names said only when it is refused)."""
    if deal.rank is not None and deal.rank not in contract.ranks:
        name = contract_name(tariff, deal.contract)
        allowed = ", ".join(rank_name(tariff, r) for r in contract.ranks)
        if not allowed:
            raise DealError(_("{contract} is played without a rank", contract=name), "rank", remedy=DROP)
        raise DealError(_("{contract} has no rank {rank!r}; it is played as {allowed}", contract=name,
                          rank=rank_name(tariff, deal.rank), allowed=allowed), "rank")
    if deal.rank is None and contract.ranks and contract.default_rank is None:
        raise DealError(_("{contract} needs its rank: {names}", contract=contract_name(tariff, deal.contract),
                          names=", ".join(rank_name(tariff, r) for r in contract.ranks)), "rank", remedy=GIVE)


def split_decides(tariff: Tariff, contract: Contract, team: int, rank: str | None = None) -> bool:
    """Whether a pair's `team` tricks, said only together, leave who pays unknown: when the pair
    failed a contract whose members answer each for his own share (the declarer's own decide)."""
    schedule = contract.with_partner
    return schedule is not None and bool(schedule.shares) and \
        not lines(schedule, team, tariff.tricks, rank or contract.default_rank)[0]


def filled(deal: Deal) -> Deal:
    """The deal with the pair's total and one member's own tricks said, and the other's own
    following from them (both kept, as the table said them); else as it is."""
    mine, theirs, team = deal.tricks, deal.partner_tricks, deal.team_tricks
    if team is None or deal.partner is None or (mine is None) == (theirs is None):
        return deal
    if mine is not None and 0 <= mine <= team:
        return deal._replace(partner_tricks=team - mine)
    if theirs is not None and 0 <= theirs <= team:
        return deal._replace(tricks=team - theirs)
    return deal


def _validate_partout(tariff: Tariff, tricks_each: tuple[int, ...] | None) -> None:
    """An all-pass's tricks of each player: given exactly when misère partout is played."""
    n, tricks = tariff.players, tariff.tricks
    if not plays(tariff, "tricks_each"):
        if tricks_each is not None:
            raise DealError(_("every player's tricks count only with the misère partout condition, which this "
                              "session does not play"), "tricks_each", remedy=DROP)
        return
    if tricks_each is None:
        raise DealError(ngettext("this session plays misère partout: an all-pass is played, so give every player's "
                                 "tricks in seat order, {n} trick in all",
                                 "this session plays misère partout: an all-pass is played, so give every player's "
                                 "tricks in seat order, {n} tricks in all", tricks), "tricks_each", remedy=GIVE)
    if len(tricks_each) != n:
        raise DealError(ngettext("every player's tricks are needed, {n} number in seat order, not {count}",
                                 "every player's tricks are needed, {n} numbers in seat order, not {count}", n,
                                 count=len(tricks_each)), "tricks_each")
    if any(not 0 <= t <= tricks for t in tricks_each) or sum(tricks_each) != tricks:
        raise DealError(ngettext("every player's tricks must add up to the {n} trick of a deal, not {total}",
                                 "every player's tricks must add up to the {n} tricks of a deal, not {total}", tricks,
                                 total=sum(tricks_each)), "tricks_each")


def lines(schedule: Schedule, taken: int, tricks: int, rank: str | None = None,
          base_reason: str = "consolation") -> tuple[bool, list[tuple[str, int]]]:
    """Whether the contract is made with `taken` tricks, and the per-opponent payment lines.

    Each line is (reason, chips) before the rank and tour multipliers: the base payment
    (consolation; a failed contract's own when the tariff gives one), over- or undertricks,
    the slam line that multiplies those at all tricks made or none taken, and the premium,
    which the slam does not multiply. A misère that costs its value per trick taken has one
    line for them. A printed table (`table`) pays its value for the tricks taken, shown as the
    value at the bar and the over-tricks beyond it, or its value for the tricks short.
    """
    made = is_made(schedule, taken)
    if schedule.kind == "table":
        if not made:
            return False, [("undertricks", schedule.failed_table[schedule.bar - taken - 1])]
        value, at_bar = schedule.made_table[taken - schedule.bar], schedule.made_table[0]
        return True, [line for line in (("contract", at_bar), ("overtricks", value - at_bar)) if line[1] > 0]
    base = schedule.base(rank)
    if schedule.kind == "null":
        if taken and schedule.failed_per_trick:
            return False, [("misere-tricks", base * taken)]
        return made, [(base_reason, base)]
    if not made:
        base = schedule.failed_base(rank)
    if made:
        count, reason, per, slam = taken - schedule.bar, "overtricks", schedule.per_trick, \
            schedule.slam if taken == tricks else 1
    elif taken == 0:
        count, reason, per, slam = schedule.slam_against_undertricks, "undertricks", schedule.per_undertrick, \
            schedule.slam_against
    else:
        count, reason, per, slam = schedule.bar - taken, "undertricks", schedule.per_undertrick, 1
    out = [(base_reason, base), (reason, count * per)]
    if slam > 1:
        out.append(("slam", (base + count * per) * (slam - 1)))
    out.append(("premium", schedule.premium))
    return made, [line for line in out if line[1] > 0]


def is_made(schedule: Schedule, taken: int) -> bool:
    """Whether a contract of this schedule is made with `taken` tricks (`lines` says what it pays)."""
    if schedule.kind == "null":
        return not (taken and schedule.failed_per_trick) and taken == schedule.takes
    return taken >= schedule.bar


HOLDER_COUNTS = ("holder", "declarer-pays-unless-holder")  # the boston rules under which its holder matters


def takes_boston(contract: Contract) -> bool:
    """Whether a deal of this contract may say who held the boston: its holder is paid, or a
    failed declarer who held it himself pays nobody."""
    return contract.boston_made in HOLDER_COUNTS or contract.boston_failed in HOLDER_COUNTS


def holder_counts(contract: Contract, made: bool) -> bool:
    """Whether who held the boston changes what a deal of this contract pays, made or failed."""
    return (contract.boston_made if made else contract.boston_failed) in HOLDER_COUNTS


def rank_of(contract: Contract, deal: Deal) -> str | None:
    """The rank a deal of this contract is played at: the one said, else the contract's default
    (the one answer, for scoring and for saying what was played)."""
    return deal.rank or contract.default_rank


def made(tariff: Tariff, deal: Deal) -> bool | None:
    """Whether a deal's contract was made; None for an all-pass or a misdeal."""
    if deal.contract in (PASS, MISDEAL):
        return None
    contract = tariff.contracts[deal.contract]
    return is_made(schedule_of(contract, deal), counted(tariff, deal))


def counted(tariff: Tariff, deal: Deal) -> int:
    """The tricks a played deal is scored at: those the declaring side took, or, when the
    adversaries conceded ("I pay"), just what the bid needs (no over-trick)."""
    if not deal.conceded:
        return taken(deal)
    schedule = schedule_of(tariff.contracts[deal.contract], deal)
    return schedule.takes if schedule.kind == "null" else schedule.bar


def taken(deal: Deal) -> int:
    """The tricks of the declaring side: the pair's together as said, else the declarer's (and the
    partner's) own."""
    return deal.team_tricks if deal.team_tricks is not None else (deal.tricks or 0) + (deal.partner_tricks or 0)


def own_tricks(deal: Deal) -> dict[int | None, int | None]:
    """Each member's own tricks, as far as they were said (or follow from the pair's together and
    the other's own, either way round)."""
    full = filled(deal)
    return {deal.declarer: full.tricks, deal.partner: full.partner_tricks}


def wins_basket(tariff: Tariff, deal: Deal) -> bool | None:
    """Whether the deal awards the basket (to the declaring side, or to the opponents of a
    failed lone purchase), so that the next deal opens with a stake; None for a misdeal, which
    leaves that as the deal before it did."""
    if deal.contract == MISDEAL:
        return None
    if deal.contract == PASS or not tariff.has_basket:
        return False
    return _awards(tariff, schedule_of(tariff.contracts[deal.contract], deal), bool(made(tariff, deal)), deal.conceded)


def _awards(tariff: Tariff, schedule: Schedule, made: bool, conceded: bool = False) -> bool:
    """Whether a played deal awards the basket: a made contract whose schedule takes it (played
    out or conceded), or a failed one whose basket goes to the opponents."""
    return tariff.has_basket and (schedule.takes_pool(conceded) if made else schedule.failed_basket == "opponents")


def _split(total: int, parties: Sequence[int], remainder: str = "stays") -> list[int]:
    """Equal shares of `total` among parties, rounded down; what does not divide stays where it
    is (`stays`) or goes to the first of them (`first`), as the tariff's basket says."""
    shares = [total // len(parties)] * len(parties)
    if remainder == "first":
        shares[0] += total - sum(shares)
    return shares


def _partout(tariff: Tariff, taken: tuple[int, ...], multiplier: int) -> list[Transfer]:
    """Misère partout: whoever took the most tricks pays each other player the tariff's chips per
    trick of difference; players tied for the most share each payment equally (an odd chip paid
    by the earliest seat of them) and pay each other nothing."""
    most = max(taken)
    losers = [seat for seat, t in enumerate(taken) if t == most]
    out = []
    for seat, t in enumerate(taken):
        if t == most:
            continue
        total = tariff.basket.partout_per_trick * (most - t) * multiplier
        shares = [total // len(losers)] * len(losers)
        for i in range(total - sum(shares)):
            shares[i] += 1
        out += [Transfer(loser, seat, share, "misere-partout") for loser, share in zip(losers, shares, strict=True)
                if share > 0]
    return out


def _partout_pool(tariff: Tariff, taken: tuple[int, ...], basket: int) -> list[Transfer]:
    """Misère partout for the basket: whoever took the fewest tricks takes it (its first pool);
    players tied for the fewest share it, what does not divide staying as the tariff says."""
    fewest = min(taken)
    winners = [seat for seat, t in enumerate(taken) if t == fewest]
    shares = _split(tariff.basket.first_pool(basket), winners, tariff.basket.share_remainder)
    return [Transfer(BASKET, seat, share, "misere-partout") for seat, share in zip(winners, shares, strict=True)
            if share > 0]


def play(tariff: Tariff, state: State, deal: Deal, pos: Position | None = None) -> Outcome:
    """The transfers of one deal, and the basket's division when it ends a game. Raises DealError
    for a deal the tariff does not allow. `pos`: the deal's position, when the caller has it."""
    outcome = _play(tariff, state, deal, position(tariff, state) if pos is None else pos)
    every = tariff.basket.divide_every
    if not every or redeals(tariff, deal) or (state.played + 1) % every:
        return outcome
    n = tariff.players
    basket = state.basket + moves(outcome.transfers, n)[n]
    among = list(range(n))
    if tariff.basket.divide_among == "not-failed" and outcome.made is False:
        among = [s for s in among if s not in (deal.declarer, deal.partner)]
    division = [Transfer(BASKET, seat, share, "division") for seat, share in
                zip(among, _split(basket, among), strict=True) if share > 0]
    return outcome._replace(transfers=outcome.transfers + tuple(division))


def _play(tariff: Tariff, state: State, deal: Deal, pos: Position) -> Outcome:
    """The transfers of one deal as it was played, at `pos`."""
    validate(tariff, deal)
    n = tariff.players
    dealer, multiplier = pos.dealer, pos.multiplier
    by = tariff.contracts[deal.contract].alone_by if deal.contract in tariff.contracts else ""
    if by == "dealer" and deal.partner is None and deal.declarer != dealer:
        raise DealError(_("{contract} is played alone only by the dealer, forced to when nobody accepted the demand: "
                          "name the dealer as its declarer, or give the partner who accepted",
                          contract=contract_name(tariff, deal.contract)), "declarer")
    rules = tariff.basket
    out: list[Transfer] = []
    basket = state.basket  # what the transfers so far have put into the basket or taken out

    def move(payer: Party, payee: Party, chips: int, reason: str) -> None:
        nonlocal basket
        if chips > 0:  # a chip moves only when there is one to move
            out.append(Transfer(payer, payee, chips, reason))
            basket += chips * ((payee is BASKET) - (payer is BASKET))

    # a misdeal plays no card: no stake, a stake due stays due, except that an empty basket is filled first (a new
    # game's stake waits for its first deal)
    if stake_due(tariff, state) and (deal.contract != MISDEAL or (rules.stake_at == "empty" and state.basket == 0
                                                                  and not game_starts(tariff, state))):
        chips = stake(tariff, pos)
        for seat in (range(n) if rules.stake_payer == "each" else [dealer]):
            move(seat, BASKET, chips, "stake")
    belle = columns.belle(pos.deal == 1, state.belle, deal.turned) if tariff.turns else None
    if deal.contract == MISDEAL:  # a house penalty aside, nothing more moves
        move(dealer, BASKET, rules.misdeal_penalty, "misdeal")
        return Outcome(tuple(out), None, state.stake_due, (0,) * n, redeals(tariff, deal), belle, pos.overtime)
    if deal.ace_turned:
        move(dealer, BASKET, rules.remise, "remise")
    if deal.carte_blanche is not None:
        for seat in range(n):
            if seat != deal.carte_blanche:
                move(seat, deal.carte_blanche, tariff.carte_blanche * multiplier, "carte-blanche")

    if deal.contract == PASS:
        if deal.tricks_each is not None and rules.all_pass == "misere-partout-pool":  # the fewest take the basket
            for transfer in _partout_pool(tariff, deal.tricks_each, basket):
                move(*transfer)
        elif deal.tricks_each is not None:  # misère partout: between players; the basket neither doubles nor is won
            out += _partout(tariff, deal.tricks_each, multiplier)
        if rules.all_pass == "double":  # the basket doubles: each pays a share, one of them any remainder
            content = basket
            odd = dealer if rules.all_pass_remainder == "dealer" else (dealer + 1) % n
            for seat in range(n):
                if seat != odd:
                    move(seat, BASKET, content // n, "all-pass")
            move(odd, BASKET, content - content // n * (n - 1), "all-pass")
        return Outcome(tuple(out), None, False, (0,) * n, belle=belle, overtime=pos.overtime)

    contract = tariff.contracts[deal.contract]
    schedule = schedule_of(contract, deal)
    declared = rank_of(contract, deal)
    try:  # the suit the rank pays by: itself, or the one the deal turned up (core/columns)
        rank = columns.suit(tariff, declared, deal.turned, belle)
    except columns.ColumnError as e:
        raise DealError(str(e), e.field or "rank", e.remedy or MEND) from None
    factor = (tariff.ranks[rank].multiplier if rank else 1) * multiplier
    assert deal.declarer is not None
    side = [deal.declarer] + ([deal.partner] if deal.partner is not None else [])
    opponents = [s for s in range(n) if s not in side]
    own = own_tricks(deal)
    side_took = counted(tariff, deal)
    made, pay = lines(schedule, side_took, tariff.tricks, rank, tariff.base_payment)
    if made and deal.honours and schedule.honours:  # the schedule's own honours row
        pay.append(("honours", schedule.honours[deal.honours]))
    elif made and deal.honours:  # paid as over-tricks, at the schedule's rate
        pay.append(("honours", tariff.honours[deal.honours] * schedule.per_trick))
    slam_value = columns.slam(schedule, declared, side_took) if made else None
    if slam_value is not None:  # the schedule's slam instead of its table, times the tour only
        pay, factor = [("slam-value", slam_value)], multiplier
    total = sum(chips for __, chips in pay) * factor
    scores = [0] * n
    failing = side if made or not schedule.shares else [
        s for s, share in zip(side, schedule.shares, strict=True) if (own[s] or 0) < share]
    facing = columns.faced(schedule, side, side if made else failing, opponents, n)
    paid = [(reason, chips * factor) for reason, chips in pay if chips * factor > 0]  # as `move` moves them
    for member in side if made else failing:
        scores[member] = total if made else -total
        for opponent in facing[member]:
            payer, payee = (opponent, member) if made else (member, opponent)
            out.extend([Transfer(payer, payee, chips, reason) for reason, chips in paid])
    pair = schedule.pays == "beside"  # the pair divides the basket, and puts a failure's payment in once
    if made:
        stake_next = _awards(tariff, schedule, True, deal.conceded)
        if stake_next:  # the basket, or its first pool
            for member, share in zip(side, _split(rules.first_pool(basket), side,
                                                  "first" if pair else rules.share_remainder), strict=True):
                move(BASKET, member, share, "basket")
    else:
        stake_next = _awards(tariff, schedule, False)
        if schedule.failed_basket == "as-each":  # into the basket what he pays each opponent
            penalties = _split(total, failing, "first") if pair else [total] * len(failing)
            for member, penalty in zip(failing, penalties, strict=True):
                move(member, BASKET, penalty, "penalty")
        if schedule.failed_basket == "labet":
            labet = rules.first_pool(basket)  # the basket doubles (its first pool, where pools have a limit)
            shares = _split(labet, failing)
            odd = 0 if rules.labet_odd_chip == "declarer" or len(failing) < 2 else 1
            shares[odd] += labet - sum(shares)  # the declarer (first of the side) or the partner pays any odd chip
            for member, share in zip(failing, shares, strict=True):
                move(member, BASKET, share, "labet")
        elif schedule.failed_basket == "opponents":  # the basket goes to them
            for opponent, share in zip(opponents, _split(basket, opponents, rules.share_remainder), strict=True):
                move(BASKET, opponent, share, "basket")
    slam = made and schedule.kind == "tricks" and side_took == tariff.tricks
    doubled = slam and (tariff.boston_slam_for == "anyone" or deal.boston in side)
    amount = tariff.boston * multiplier * (tariff.boston_slam if doubled else 1)
    rule = contract.boston_made if made else contract.boston_failed
    if rule == "holder" and deal.boston is not None:
        for seat in range(n):
            if seat != deal.boston:
                move(seat, deal.boston, amount, "boston")
    elif rule == "declarer-pays" or (rule == "declarer-pays-unless-holder" and deal.boston != deal.declarer):
        for seat in range(n):
            if seat != deal.declarer:
                move(deal.declarer, seat, amount, "boston")
    if deal.jack is not None and contract.jack:  # the diamond jack's holder, from each other player
        for seat in range(n):
            if seat != deal.jack:
                move(seat, deal.jack, tariff.jack * multiplier, "jack")
    return Outcome(tuple(out), made, stake_next, tuple(scores), belle=belle, overtime=pos.overtime)


def moves(transfers: Iterable[Transfer], players: int) -> list[int]:
    """Each party's net change from these transfers: the players in seat order, then the basket
    (the one place where transfers become changes per player)."""
    change = [0] * (players + 1)
    for payer, payee, chips, __ in transfers:
        change[players if payer is BASKET else payer] -= chips
        change[players if payee is BASKET else payee] += chips
    return change


def advance(state: State, outcome: Outcome) -> State:
    """The state after a deal with this outcome."""
    n = len(state.balances)
    change = moves(outcome.transfers, n)
    overtime, extra = carried(state, outcome.overtime, outcome.redealt)
    return state._replace(balances=tuple(map(int.__add__, state.balances, change[:n])),
                          basket=state.basket + change[n], deals=state.deals + 1, stake_due=outcome.stake_next,
                          redeals=state.redeals + outcome.redealt, belle=outcome.belle, overtime=overtime, extra=extra)


class Change(NamedTuple):
    """A change of the table before a deal: from then on `seat` plays `account`'s money (the
    account it played already: a substitute sits in; another: the seat's account leaves)."""

    seat: int
    account: int


class SeatError(LedgerError):
    """A change of the table that cannot be."""


def reseat(state: State, change: Change) -> tuple[State, int]:
    """The state after a change of the table, and the chips the leaving account took from the
    basket. A substitute (the seat's account stays) changes no chip. Otherwise the seat's account
    leaves with its balance and its equal share of the basket in whole chips (what does not divide
    stays in the basket), and the incoming account brings what it had when it left the table
    (nothing, when it is new)."""
    seated = list(state.accounts)
    if not 0 <= change.seat < len(seated):
        raise SeatError(_("seat {seat} is not at this table of {n}", seat=change.seat, n=len(seated)))
    if seated[change.seat] == change.account:
        return state, 0
    if change.account in seated:
        raise SeatError(_("an account is played in one seat at a time"))
    share = state.basket // len(seated)
    away = dict(state.away)
    away[seated[change.seat]] = state.balances[change.seat] + share
    balances = list(state.balances)
    balances[change.seat] = away.pop(change.account, 0)
    seated[change.seat] = change.account
    return state._replace(balances=tuple(balances), basket=state.basket - share,
                          seated=() if seated == list(range(len(seated))) else tuple(seated),
                          away=tuple(sorted(away.items()))), share


def reseated(state: State, changes: Iterable[Change]) -> tuple[State, tuple[int, ...]]:
    """The state after these changes of the table, one after another, and each one's share of the
    basket taken."""
    shares = []
    for change in changes:
        state, share = reseat(state, change)
        shares.append(share)
    return state, tuple(shares)


class Step(NamedTuple):
    """One deal of a replay: where it fell, the state before and after it, what it moved, and
    what each seat has written on a points score sheet through it; the changes of the table made
    before it, each with the chips its leaving account took from the basket."""

    deal: Deal
    position: Position
    before: State
    outcome: Outcome
    after: State
    scores: tuple[int, ...]
    changes: tuple[tuple[Change, int], ...] = ()

    @property
    def number(self) -> int:
        return self.position.number


def replaying(tariff: Tariff, deals: Iterable[Deal], state: State | None = None,
              scores: Sequence[int] | None = None,
              changes: Mapping[int, Sequence[Change]] | None = None) -> Iterator[Step]:
    """Play deals one after another, from the start of a session or from `state` (with the
    `scores` written by then), the table changed before deal N as `changes[N]` says: the one
    replay, which `check`, `rescore`, history, corrections and entering a deal all go through. A
    deal that no longer scores raises its DealError with the deal's `number`."""
    state = State.start(tariff.players) if state is None else state
    written = tuple(scores) if scores is not None else (0,) * tariff.players
    for deal in deals:
        made = (changes or {}).get(state.deals + 1, ())
        state, shares = reseated(state, made) if made else (state, ())
        pos = position(tariff, state)
        try:
            outcome = play(tariff, state, deal, pos)
        except DealError as e:
            e.number = state.deals + 1
            raise
        after = advance(state, outcome)
        written = tuple(map(int.__add__, written, outcome.scores))
        yield Step(deal, pos, state, outcome, after, written, tuple(zip(made, shares, strict=True)))
        state = after


def replayed(tariff: Tariff, deals: Iterable[Deal], changes: Mapping[int, Sequence[Change]] | None = None) -> State:
    """The state after these deals, played from the start of a session with the table changed as
    `changes` says (those after the last deal too)."""
    state = State.start(tariff.players)
    for step in replaying(tariff, deals, changes=changes):
        state = step.after
    return reseated(state, (changes or {}).get(state.deals + 1, ()))[0]
