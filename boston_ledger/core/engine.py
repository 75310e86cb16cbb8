"""The pure engine: (tariff, state before a deal, deal) -> the transfers of that deal.

No I/O. Parties are seats (0-based, in seat order) or BASKET. Every chip that moves is one
Transfer between two parties, so balances plus basket always sum to zero.
"""

from __future__ import annotations

from typing import Iterable, NamedTuple, Sequence

from .errors import LedgerError
from .i18n import _, contract_name, contract_names, rank_name
from .tariff import PASS, Contract, Schedule, Tariff

BASKET = None  # the party that is the pool in the middle of the table
Party = int | None

# Why chips moved; the order in which a breakdown shows them.
REASONS = ("stake", "remise", "all-pass", "misere-partout", "consolation", "contract", "overtricks", "undertricks",
           "misere-tricks", "slam", "premium", "basket", "labet", "boston", "carte-blanche")


class DealError(LedgerError):
    """A deal that the tariff or the table does not allow."""


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


class Transfer(NamedTuple):
    """Chips moving from one party to another, and why (a tuple: millions of them are compared)."""

    payer: Party
    payee: Party
    chips: int
    reason: str


_tuple_new = tuple.__new__


class State(NamedTuple):
    """What the engine needs of the past: balances, basket, deals played, whether a stake is due."""

    balances: tuple[int, ...]
    basket: int = 0
    deals: int = 0
    stake_due: bool = True

    @classmethod
    def start(cls, players: int) -> State:
        return cls(balances=(0,) * players)


class Position(NamedTuple):
    """Where a deal falls: who deals, which tour of which partie, the payment multiplier."""

    number: int  # 1-based deal number in the session
    dealer: int
    partie: int
    tour: int
    multiplier: int

    @property
    def double(self) -> bool:
        return self.multiplier > 1


class Outcome(NamedTuple):
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


def _turn(tariff: Tariff, deals_before: int) -> tuple[int, int]:
    """The dealer and the multiplier of `position(tariff, deals_before)`, all that `play` needs
    of it, without building a Position."""
    players = tariff.players
    return deals_before % players, tariff.tours[deals_before % (players * len(tariff.tours)) // players]


def stake_due(tariff: Tariff, state: State) -> bool:
    """Whether the next deal opens with a stake: after the basket is won (and at the first
    deal), or at every deal when the tariff says so."""
    return state.stake_due or tariff.basket.stake_at == "every-deal"


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
            raise DealError(_("{what} seat {seat} is not at this table of {n}", what=what, seat=seat, n=n),
                            what.replace("-", "_"))
    if deal.ace_turned and not tariff.basket.remise:
        raise DealError(_("--ace-turned counts only with the remise condition, which this session does not play; drop it"),
                        "ace_turned")
    if deal.carte_blanche is not None and not tariff.carte_blanche:
        raise DealError(_("the {name} tariff pays nothing for a blank hand; drop --carte-blanche", name=tariff.name),
                        "carte_blanche")
    if deal.boston is not None and not tariff.boston:
        raise DealError(_("the {name} tariff pays no boston; drop --boston", name=tariff.name), "boston")
    if deal.contract == PASS:
        extra = [name for name, value in (
            ("--declarer", deal.declarer), ("--partner", deal.partner), ("--tricks", deal.tricks),
            ("--partner-tricks", deal.partner_tricks), ("--rank", deal.rank), ("--boston", deal.boston),
        ) if value is not None]
        if extra:
            raise DealError(_("an all-pass is not played, so it takes no {extra}; drop it", extra=extra[0])
                            if tariff.basket.all_pass != "misere-partout" else
                            _("an all-pass is played as misère partout, with no {extra}; give each player's tricks "
                              "with --tricks-each and drop {extra}", extra=extra[0]), "contract")
        _validate_partout(tariff, deal.tricks_each)
        return
    if deal.tricks_each is not None:
        raise DealError(_("--tricks-each is for an all-pass played as misère partout; drop it"), "tricks_each")
    contract = tariff.contracts.get(deal.contract)
    if contract is None:
        raise DealError(_("the {name} tariff has no contract {contract!r}; it has {names} and pass", name=tariff.name, contract=contract_name(tariff, deal.contract), names=contract_names(tariff)),
                        "contract")
    if deal.declarer is None:
        raise DealError(_("{contract} needs --declarer NAME", contract=contract_name(tariff, deal.contract)), "declarer")
    if deal.partner is not None:
        if deal.partner == deal.declarer:
            raise DealError(_("the partner cannot be the declarer; name another player or drop --partner"), "partner")
        if contract.with_partner is None:
            raise DealError(_("{contract} is played alone; drop --partner", contract=contract_name(tariff, deal.contract)),
                            "partner")
        if deal.partner_tricks is None:
            raise DealError(_("a deal with a partner needs --partner-tricks N (the partner's own tricks)"),
                            "partner_tricks")
    else:
        if contract.alone is None:
            raise DealError(_("{contract} is played with a partner; add --partner NAME", contract=contract_name(tariff, deal.contract)),
                            "partner")
        if deal.partner_tricks is not None:
            raise DealError(_("--partner-tricks needs --partner NAME; drop it when the declarer plays alone"),
                            "partner_tricks")
    if deal.tricks is None:
        raise DealError(_("{contract} needs --tricks N (the declarer's own tricks)", contract=contract_name(tariff, deal.contract)),
                        "tricks")
    for what, t in (("--tricks", deal.tricks), ("--partner-tricks", deal.partner_tricks)):
        if t is not None and not 0 <= t <= tariff.tricks:
            raise DealError(_("{what} must be a whole number from 0 to {tricks}, not {t}", what=what, tricks=tariff.tricks, t=t),
                            what[2:].replace("-", "_"))
    if (deal.tricks or 0) + (deal.partner_tricks or 0) > tariff.tricks:
        raise DealError(_("declarer and partner took {tricks} + {partner_tricks} tricks, more than the {deal_tricks} of a deal", tricks=deal.tricks, partner_tricks=deal.partner_tricks, deal_tricks=tariff.tricks),
                        "partner_tricks")
    if deal.rank is not None and deal.rank not in contract.ranks:
        allowed = ", ".join(rank_name(tariff, r) for r in contract.ranks)
        raise DealError(_("{contract} has no rank {rank!r}; it is played as {allowed}", contract=contract_name(tariff, deal.contract),
                          rank=rank_name(tariff, deal.rank), allowed=allowed) if allowed else
                        _("{contract} has no rank {rank!r}; it is played without a rank; drop --rank",
                          contract=contract_name(tariff, deal.contract), rank=rank_name(tariff, deal.rank)), "rank")
    if deal.rank is None and contract.ranks and contract.default_rank is None:
        raise DealError(_("{contract} needs --rank ({names})", contract=contract_name(tariff, deal.contract), names=", ".join(rank_name(tariff, r) for r in contract.ranks)),
                        "rank")
    if deal.boston is not None and "holder" not in (contract.boston_made, contract.boston_failed):
        raise DealError(_("{contract} is played without boston; drop --boston", contract=contract_name(tariff, deal.contract)),
                        "boston")


def _validate_partout(tariff: Tariff, tricks_each: tuple[int, ...] | None) -> None:
    """An all-pass's tricks of each player: given exactly when misère partout is played."""
    n, tricks = tariff.players, tariff.tricks
    if tariff.basket.all_pass != "misere-partout":
        if tricks_each is not None:
            raise DealError(_("--tricks-each counts only with the misère partout condition, which this session "
                              "does not play; drop it"), "tricks_each")
        return
    if tricks_each is None:
        raise DealError(_("this session plays misère partout: an all-pass is played, so give every player's "
                          "tricks in seat order, e.g. --tricks-each 3,4,2,4 ({tricks} in all)", tricks=tricks),
                        "tricks_each")
    if len(tricks_each) != n:
        raise DealError(_("--tricks-each needs the tricks of all {n} players in seat order, not {count}",
                          n=n, count=len(tricks_each)), "tricks_each")
    if any(not 0 <= t <= tricks for t in tricks_each) or sum(tricks_each) != tricks:
        raise DealError(_("--tricks-each must add up to the {tricks} tricks of a deal, not {total}",
                          tricks=tricks, total=sum(tricks_each)), "tricks_each")


def lines(schedule: Schedule, taken: int, tricks: int, rank: str | None = None,
          base_reason: str = "consolation") -> tuple[bool, list[tuple[str, int]]]:
    """Whether the contract is made with `taken` tricks, and the per-opponent payment lines.

    Each line is (reason, chips) before the rank and tour multipliers: the base payment
    (consolation; a failed contract's own when the tariff gives one), over- or undertricks,
    the slam line that multiplies those at all tricks made or none taken, and the premium,
    which the slam does not multiply. A misère that costs its value per trick taken has one
    line for them.
    """
    base = schedule.base(rank)
    if schedule.kind == "null":
        if taken and schedule.failed_per_trick:
            return False, [("misere-tricks", base * taken)]
        return taken == 0, [(base_reason, base)]
    made = taken >= schedule.bar
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


def _split(total: int, parties: Sequence[int], remainder: str = "stays") -> list[int]:
    """Equal shares of `total` among parties, rounded down; what does not divide stays where it
    is (`stays`) or goes to the first of them (`first`), as the tariff's basket says."""
    shares = [total // len(parties)] * len(parties)
    if remainder == "first":
        shares[0] += total - sum(shares)
    return shares


class Plan:
    """What a deal pays whatever the state before it, as `play` works it out: its validation, the
    lines of the contract, and per tour multiplier the transfers between players and the scores.

    A replay of a long session meets the same deals again and again; it makes each distinct
    deal's plan once (`plan`) and hands it to `play` with the deal. `play` uses a plan only
    with the very tariff and deal objects it was made from, so the result is the same with or
    without one.
    """

    __slots__ = ("tariff", "deal", "passed", "contract", "schedule", "side", "opponents", "own", "taken",
                 "made", "pay", "rank_multiplier", "failing", "basket_won", "rule", "slam", "_pieces")

    def pieces(self, multiplier: int) -> tuple:
        """(carte-blanche, contract payments, boston) transfers and the scores, at this multiplier."""
        found = self._pieces.get(multiplier)
        if found is None:
            found = self._pieces[multiplier] = _pieces(self, multiplier)
        return found


def plan(tariff: Tariff, deal: Deal) -> Plan:
    """The part of `play` that depends on the deal alone. Raises DealError like `play`."""
    validate(tariff, deal)
    p = Plan()
    p.tariff, p.deal, p._pieces = tariff, deal, {}
    p.passed = deal.contract == PASS
    if p.passed:
        p.made, p.basket_won = None, False
        return p
    contract = p.contract = tariff.contracts[deal.contract]
    schedule = p.schedule = schedule_of(contract, deal)
    rank = rank_of(contract, deal)
    p.rank_multiplier = tariff.ranks[rank].multiplier if rank else 1
    assert deal.declarer is not None and deal.tricks is not None
    side = p.side = [deal.declarer] + ([deal.partner] if deal.partner is not None else [])
    p.opponents = [s for s in range(tariff.players) if s not in side]
    own = p.own = {deal.declarer: deal.tricks, deal.partner: deal.partner_tricks}
    taken = p.taken = sum(own[s] or 0 for s in side)
    base_reason = "consolation" if tariff.scoring == "chips" else "contract"
    p.made, p.pay = lines(schedule, taken, tariff.tricks, rank, base_reason)
    if p.made:
        p.failing = None
        p.basket_won = tariff.has_basket
    else:
        p.failing = side if not schedule.shares else [
            s for s, share in zip(side, schedule.shares) if (own[s] or 0) < share
        ]
        p.basket_won = schedule.failed_basket == "opponents"
    p.rule = contract.boston_made if p.made else contract.boston_failed
    p.slam = p.made and schedule.kind == "tricks" and taken == tariff.tricks
    return p


_shared: dict[tuple, Transfer] = {}  # the same transfer in many plans, kept once (less memory to walk)


def _one(transfer: Transfer) -> Transfer:
    key = (transfer, tuple(map(type, transfer)))  # the same values of the same types
    found = _shared.get(key)
    if found is None:
        if len(_shared) >= 1 << 14:
            _shared.clear()
        found = _shared[key] = transfer
    return found


def _pieces(p: Plan, multiplier: int) -> tuple:
    tariff, deal, n = p.tariff, p.deal, p.tariff.players
    blank: list[Transfer] = []
    if deal.carte_blanche is not None:
        chips = tariff.carte_blanche * multiplier
        if chips > 0:
            blank = [_tuple_new(Transfer, (seat, deal.carte_blanche, chips, "carte-blanche"))
                     for seat in range(n) if seat != deal.carte_blanche]
    if p.passed:
        partout = _partout(tariff, deal.tricks_each, multiplier) if deal.tricks_each is not None else []
        return tuple(map(_one, blank)), tuple(map(_one, partout)), (), (0,) * n
    factor = p.rank_multiplier * multiplier
    total = sum(chips for _, chips in p.pay) * factor
    scaled = [(reason, chips * factor) for reason, chips in p.pay if chips * factor > 0]
    scores = [0] * n
    payments = []
    if p.made:
        for member in p.side:
            scores[member] = total
            for opponent in p.opponents:
                for reason, chips in scaled:
                    payments.append(_tuple_new(Transfer, (opponent, member, chips, reason)))
    else:
        for member in p.failing:
            scores[member] = -total
            for opponent in p.opponents:
                for reason, chips in scaled:
                    payments.append(_tuple_new(Transfer, (member, opponent, chips, reason)))
    boston = []
    doubled = p.slam and (tariff.boston_slam_for == "anyone" or deal.boston in p.side)
    amount = tariff.boston * multiplier * (tariff.boston_slam if doubled else 1)
    if amount > 0:
        if p.rule == "holder" and deal.boston is not None:
            boston = [_tuple_new(Transfer, (seat, deal.boston, amount, "boston"))
                      for seat in range(n) if seat != deal.boston]
        elif p.rule == "declarer-pays":
            boston = [_tuple_new(Transfer, (deal.declarer, seat, amount, "boston"))
                      for seat in range(n) if seat != deal.declarer]
    return tuple(map(_one, blank)), tuple(map(_one, payments)), tuple(map(_one, boston)), tuple(scores)


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
        out += [_tuple_new(Transfer, (loser, seat, share, "misere-partout"))
                for loser, share in zip(losers, shares) if share > 0]
    return out


def play(tariff: Tariff, state: State, deal: Deal, planned: Plan | None = None) -> Outcome:
    """The transfers of one deal. Raises DealError for a deal the tariff does not allow.

    `planned` is `plan(tariff, deal)` when the caller has it (see Plan); without it, or with
    one made from other objects, the plan is made here.
    """
    # The hot path of every replay: a chip moves only when there is one to move (chips > 0),
    # and `basket` follows what the transfers so far have put into the basket or taken out.
    p = planned if planned is not None and planned.tariff is tariff and planned.deal is deal else plan(tariff, deal)
    n = tariff.players
    dealer, multiplier = _turn(tariff, state.deals)
    basket = state.basket
    rules = tariff.basket
    out: list[Transfer] = []
    if stake_due(tariff, state):
        chips = rules.stake
        if chips > 0:
            for seat in (range(n) if rules.stake_payer == "each" else [dealer]):
                out.append(_tuple_new(Transfer, (seat, BASKET, chips, "stake")))  # Transfer(...), without its slow __new__
                basket += chips
    if deal.ace_turned:
        chips = rules.remise
        if chips > 0:
            out.append(_tuple_new(Transfer, (dealer, BASKET, chips, "remise")))
            basket += chips
    blank, payments, boston, scores = p.pieces(multiplier)
    out += blank  # between players: the basket stays as it is

    if p.passed:
        out += payments  # misère partout: between players; the basket neither doubles nor is won
        if rules.all_pass == "double":
            content = basket  # the basket doubles: each pays a share, one of them any remainder
            odd = dealer if rules.all_pass_remainder == "dealer" else (dealer + 1) % n
            chips = content // n
            if chips > 0:
                for seat in range(n):
                    if seat != odd:
                        out.append(_tuple_new(Transfer, (seat, BASKET, chips, "all-pass")))
            chips = content - content // n * (n - 1)
            if chips > 0:
                out.append(_tuple_new(Transfer, (odd, BASKET, chips, "all-pass")))
        return Outcome(tuple(out), None, False, scores)

    out += payments
    if p.made:
        if tariff.has_basket:
            for member, share in zip(p.side, _split(basket, p.side, rules.share_remainder)):
                if share > 0:
                    out.append(_tuple_new(Transfer, (BASKET, member, share, "basket")))
    elif p.schedule.failed_basket == "labet":
        labet = basket
        shares = _split(labet, p.failing)
        odd = 0 if rules.labet_odd_chip == "declarer" or len(p.failing) < 2 else 1
        shares[odd] += labet - sum(shares)  # the declarer (first of the side) or the partner pays any odd chip
        for member, share in zip(p.failing, shares):
            if share > 0:
                out.append(_tuple_new(Transfer, (member, BASKET, share, "labet")))
    elif p.schedule.failed_basket == "opponents":  # the basket goes to them
        for opponent, share in zip(p.opponents, _split(basket, p.opponents, rules.share_remainder)):
            if share > 0:
                out.append(_tuple_new(Transfer, (BASKET, opponent, share, "basket")))
    out += boston
    return Outcome(tuple(out), p.made, p.basket_won, scores)


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
    return State(tuple(map(int.__add__, state.balances, change[:n])), state.basket + change[n],
                 state.deals + 1, outcome.basket_won)


def replay(tariff: Tariff, deals: Iterable[Deal]) -> tuple[State, list[Outcome]]:
    """Play deals from the start of a session; the state after them and every outcome."""
    state = State.start(tariff.players)
    outcomes = []
    for deal in deals:
        outcome = play(tariff, state, deal)
        outcomes.append(outcome)
        state = advance(state, outcome)
    return state, outcomes
