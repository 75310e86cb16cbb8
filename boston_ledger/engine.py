"""The pure engine: (tariff, state before a deal, deal) -> the transfers of that deal.

No I/O. Parties are seats (0-based, in seat order) or BASKET. Every chip that moves is one
Transfer between two parties, so balances plus basket always sum to zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, NamedTuple, Sequence

from .errors import LedgerError
from .i18n import _, contract_name, contract_names, rank_name
from .tariff import PASS, Contract, Schedule, Tariff

BASKET = None  # the party that is the pool in the middle of the table
Party = int | None

# Why chips moved; the order in which a breakdown shows them.
REASONS = ("stake", "remise", "all-pass", "consolation", "contract", "overtricks", "undertricks", "slam",
           "basket", "labet", "boston", "carte-blanche")


class DealError(LedgerError):
    """A deal that the tariff or the table does not allow."""


@dataclass(frozen=True)
class Deal:
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


class Transfer(NamedTuple):
    """Chips moving from one party to another, and why (a tuple: millions of them are compared)."""

    payer: Party
    payee: Party
    chips: int
    reason: str


_tuple_new = tuple.__new__


@dataclass(frozen=True)
class State:
    """What the engine needs of the past: balances, basket, deals played, whether a stake is due."""

    balances: tuple[int, ...]
    basket: int = 0
    deals: int = 0
    stake_due: bool = True

    @classmethod
    def start(cls, players: int) -> State:
        return cls(balances=(0,) * players)


@dataclass(frozen=True)
class Position:
    """Where a deal falls: who deals, which tour of which partie, the payment multiplier."""

    number: int  # 1-based deal number in the session
    dealer: int
    partie: int
    tour: int
    multiplier: int

    @property
    def double(self) -> bool:
        return self.multiplier > 1


@dataclass(frozen=True)
class Outcome:
    transfers: tuple[Transfer, ...]
    made: bool | None  # None for an all-pass
    basket_won: bool
    scores: tuple[int, ...] = ()  # what each seat writes on a points score sheet for this deal


def position(tariff: Tariff, deals_before: int) -> Position:
    """The position of the deal that follows `deals_before` deals."""
    per_partie = tariff.deals_per_partie
    in_partie = deals_before % per_partie
    tour = in_partie // tariff.players
    return Position(
        number=deals_before + 1,
        dealer=deals_before % tariff.players,
        partie=deals_before // per_partie + 1,
        tour=tour + 1,
        multiplier=tariff.tours[tour],
    )


def schedule_of(contract: Contract, deal: Deal) -> Schedule:
    schedule = contract.with_partner if deal.partner is not None else contract.alone
    assert schedule is not None  # validate() guarantees it
    return schedule


def validate(tariff: Tariff, deal: Deal) -> None:
    """Raise DealError unless the deal can be scored under this tariff."""
    n = tariff.players
    seats = [("declarer", deal.declarer), ("partner", deal.partner), ("boston", deal.boston),
             ("carte-blanche", deal.carte_blanche)]
    for what, seat in seats:
        if seat is not None and not 0 <= seat < n:
            raise DealError(_("{what} seat {seat} is not at this table of {n}", what=what, seat=seat, n=n))
    if deal.ace_turned and not tariff.remise:
        raise DealError(_("--ace-turned counts only with the remise condition, which this session does not play; drop it"))
    if deal.carte_blanche is not None and not tariff.carte_blanche:
        raise DealError(_("the {name} tariff pays nothing for a blank hand; drop --carte-blanche", name=tariff.name))
    if deal.boston is not None and not tariff.boston:
        raise DealError(_("the {name} tariff pays no boston; drop --boston", name=tariff.name))
    if deal.contract == PASS:
        extra = [name for name, value in (
            ("--declarer", deal.declarer), ("--partner", deal.partner), ("--tricks", deal.tricks),
            ("--partner-tricks", deal.partner_tricks), ("--rank", deal.rank), ("--boston", deal.boston),
        ) if value is not None]
        if extra:
            raise DealError(_("an all-pass is not played, so it takes no {extra}; drop it", extra=extra[0]))
        return
    contract = tariff.contracts.get(deal.contract)
    if contract is None:
        raise DealError(_("the {name} tariff has no contract {contract!r}; it has {names} and pass", name=tariff.name, contract=contract_name(tariff, deal.contract), names=contract_names(tariff)))
    if deal.declarer is None:
        raise DealError(_("{contract} needs --declarer NAME", contract=contract_name(tariff, deal.contract)))
    if deal.partner is not None:
        if deal.partner == deal.declarer:
            raise DealError(_("the partner cannot be the declarer; name another player or drop --partner"))
        if contract.with_partner is None:
            raise DealError(_("{contract} is played alone; drop --partner", contract=contract_name(tariff, deal.contract)))
        if deal.partner_tricks is None:
            raise DealError(_("a deal with a partner needs --partner-tricks N (the partner's own tricks)"))
    else:
        if contract.alone is None:
            raise DealError(_("{contract} is played with a partner; add --partner NAME", contract=contract_name(tariff, deal.contract)))
        if deal.partner_tricks is not None:
            raise DealError(_("--partner-tricks needs --partner NAME; drop it when the declarer plays alone"))
    if deal.tricks is None:
        raise DealError(_("{contract} needs --tricks N (the declarer's own tricks)", contract=contract_name(tariff, deal.contract)))
    for what, t in (("--tricks", deal.tricks), ("--partner-tricks", deal.partner_tricks)):
        if t is not None and not 0 <= t <= tariff.tricks:
            raise DealError(_("{what} must be a whole number from 0 to {tricks}, not {t}", what=what, tricks=tariff.tricks, t=t))
    if (deal.tricks or 0) + (deal.partner_tricks or 0) > tariff.tricks:
        raise DealError(_("declarer and partner took {tricks} + {partner_tricks} tricks, more than the {deal_tricks} of a deal", tricks=deal.tricks, partner_tricks=deal.partner_tricks, deal_tricks=tariff.tricks))
    if deal.rank is not None and deal.rank not in contract.ranks:
        allowed = ", ".join(rank_name(tariff, r) for r in contract.ranks)
        raise DealError(_("{contract} has no rank {rank!r}; it is played as {allowed}", contract=contract_name(tariff, deal.contract),
                          rank=rank_name(tariff, deal.rank), allowed=allowed) if allowed else
                        _("{contract} has no rank {rank!r}; it is played without a rank; drop --rank",
                          contract=contract_name(tariff, deal.contract), rank=rank_name(tariff, deal.rank)))
    if deal.rank is None and contract.ranks and contract.default_rank is None:
        raise DealError(_("{contract} needs --rank ({names})", contract=contract_name(tariff, deal.contract), names=", ".join(rank_name(tariff, r) for r in contract.ranks)))
    if deal.boston is not None and "holder" not in (contract.boston_made, contract.boston_failed):
        raise DealError(_("{contract} is played without boston; drop --boston", contract=contract_name(tariff, deal.contract)))


def lines(schedule: Schedule, taken: int, tricks: int, rank: str | None = None,
          base_reason: str = "consolation") -> tuple[bool, list[tuple[str, int]]]:
    """Whether the contract is made with `taken` tricks, and the per-opponent payment lines.

    Each line is (reason, chips) before the rank and tour multipliers: the base payment
    (consolation), over- or undertricks, and the slam line that multiplies the rest at all
    tricks made or none taken.
    """
    base = schedule.base(rank)
    if schedule.kind == "null":
        return taken == 0, [(base_reason, base)]
    made = taken >= schedule.bar
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
    return made, [line for line in out if line[1] > 0]


def rank_of(contract: Contract, deal: Deal) -> str | None:
    return deal.rank or contract.default_rank


def made(tariff: Tariff, deal: Deal) -> bool | None:
    """Whether a deal's contract was made; None for an all-pass."""
    if deal.contract == PASS:
        return None
    contract = tariff.contracts[deal.contract]
    taken = (deal.tricks or 0) + (deal.partner_tricks or 0)
    return lines(schedule_of(contract, deal), taken, tariff.tricks, rank_of(contract, deal))[0]


def wins_basket(tariff: Tariff, deal: Deal) -> bool:
    """Whether the deal awards the basket (to the declaring side, or to the opponents of a
    failed lone purchase), so that the next deal opens with a stake."""
    if deal.contract == PASS or not tariff.has_basket:
        return False
    schedule = schedule_of(tariff.contracts[deal.contract], deal)
    return bool(made(tariff, deal)) or schedule.failed_basket == "opponents"


def _split(total: int, parties: Sequence[int]) -> list[int]:
    """Equal shares of `total` among parties, rounded down (the remainder is left over)."""
    return [total // len(parties)] * len(parties)


def play(tariff: Tariff, state: State, deal: Deal) -> Outcome:
    """The transfers of one deal. Raises DealError for a deal the tariff does not allow."""
    validate(tariff, deal)
    n = tariff.players
    pos = position(tariff, state.deals)
    out: list[Transfer] = []
    basket = state.basket

    def move(payer: Party, payee: Party, chips: int, reason: str) -> None:
        nonlocal basket
        if chips <= 0:
            return
        out.append(_tuple_new(Transfer, (payer, payee, chips, reason)))  # Transfer(...), without its slow __new__
        basket += (payee is BASKET) * chips - (payer is BASKET) * chips

    if state.stake_due:
        for seat in (range(n) if tariff.stake_payer == "each" else [pos.dealer]):
            move(seat, BASKET, tariff.stake, "stake")
    if deal.ace_turned:
        move(pos.dealer, BASKET, tariff.remise, "remise")
    if deal.carte_blanche is not None:
        for seat in range(n):
            if seat != deal.carte_blanche:
                move(seat, deal.carte_blanche, tariff.carte_blanche * pos.multiplier, "carte-blanche")

    if deal.contract == PASS:
        if tariff.all_pass == "double":
            content = basket  # the basket doubles: each pays a share, the dealer any remainder
            for seat in range(n):
                if seat != pos.dealer:
                    move(seat, BASKET, content // n, "all-pass")
            move(pos.dealer, BASKET, content - content // n * (n - 1), "all-pass")
        return Outcome(tuple(out), made=None, basket_won=False, scores=(0,) * n)

    contract = tariff.contracts[deal.contract]
    schedule = schedule_of(contract, deal)
    rank = rank_of(contract, deal)
    factor = (tariff.ranks[rank].multiplier if rank else 1) * pos.multiplier
    assert deal.declarer is not None and deal.tricks is not None
    side = [deal.declarer] + ([deal.partner] if deal.partner is not None else [])
    opponents = [s for s in range(n) if s not in side]
    own = {deal.declarer: deal.tricks, deal.partner: deal.partner_tricks}
    taken = sum(own[s] or 0 for s in side)
    base_reason = "consolation" if tariff.scoring == "chips" else "contract"
    made, pay = lines(schedule, taken, tariff.tricks, rank, base_reason)
    total = sum(chips for _, chips in pay) * factor
    scores = [0] * n
    basket_won = False

    if made:
        for member in side:
            scores[member] = total
            for opponent in opponents:
                for reason, chips in pay:
                    move(opponent, member, chips * factor, reason)
        if tariff.has_basket:
            for member, share in zip(side, _split(basket, side)):
                move(BASKET, member, share, "basket")
            basket_won = True
    else:
        failing = side if not schedule.shares else [
            s for s, share in zip(side, schedule.shares) if (own[s] or 0) < share
        ]
        for member in failing:
            scores[member] = -total
            for opponent in opponents:
                for reason, chips in pay:
                    move(member, opponent, chips * factor, reason)
        if schedule.failed_basket == "labet":
            labet = basket
            shares = _split(labet, failing)
            shares[0] += labet - sum(shares)  # the declarer (first of the side) pays any odd chip
            for member, share in zip(failing, shares):
                move(member, BASKET, share, "labet")
        elif schedule.failed_basket == "opponents":  # the basket goes to them, a remainder staying
            for opponent, share in zip(opponents, _split(basket, opponents)):
                move(BASKET, opponent, share, "basket")
            basket_won = True

    rule = contract.boston_made if made else contract.boston_failed
    slam = made and schedule.kind == "tricks" and taken == tariff.tricks
    amount = tariff.boston * pos.multiplier * (tariff.boston_slam if slam else 1)
    if rule == "holder" and deal.boston is not None:
        for seat in range(n):
            if seat != deal.boston:
                move(seat, deal.boston, amount, "boston")
    elif rule == "declarer-pays":
        for seat in range(n):
            if seat != deal.declarer:
                move(deal.declarer, seat, amount, "boston")
    return Outcome(tuple(out), made=made, basket_won=basket_won, scores=tuple(scores))


def advance(state: State, outcome: Outcome) -> State:
    """The state after a deal with this outcome."""
    balances = list(state.balances)
    basket = state.basket
    for t in outcome.transfers:
        if t.payer is BASKET:
            basket -= t.chips
        else:
            balances[t.payer] -= t.chips
        if t.payee is BASKET:
            basket += t.chips
        else:
            balances[t.payee] += t.chips
    return State(balances=tuple(balances), basket=basket, deals=state.deals + 1, stake_due=outcome.basket_won)


def replay(tariff: Tariff, deals: Iterable[Deal]) -> tuple[State, list[Outcome]]:
    """Play deals from the start of a session; the state after them and every outcome."""
    state = State.start(tariff.players)
    outcomes = []
    for deal in deals:
        outcome = play(tariff, state, deal)
        outcomes.append(outcome)
        state = advance(state, outcome)
    return state, outcomes


def zero_sum(state: State) -> bool:
    """The double-entry invariant: balances plus basket are zero."""
    return sum(state.balances) + state.basket == 0
