"""The engine's `play` and `advance` as they were before the replay was made fast (kept
verbatim): test_engine_plan.py holds the engine to them."""

from __future__ import annotations

from boston_ledger.core.engine import (BASKET, Deal, Outcome, Party, State, Transfer, _split, lines, position,
                                  rank_of, schedule_of, validate)
from boston_ledger.core.tariff import PASS, Tariff

_tuple_new = tuple.__new__


def play(tariff: Tariff, state: State, deal: Deal) -> Outcome:
    """The transfers of one deal. Raises DealError for a deal the tariff does not allow."""
    validate(tariff, deal)
    n = tariff.players
    pos = position(tariff, State(balances=(), deals=state.deals))
    out: list[Transfer] = []
    basket = state.basket

    def move(payer: Party, payee: Party, chips: int, reason: str) -> None:
        nonlocal basket
        if chips <= 0:
            return
        out.append(_tuple_new(Transfer, (payer, payee, chips, reason)))  # Transfer(...), without its slow __new__
        basket += (payee is BASKET) * chips - (payer is BASKET) * chips

    if state.stake_due:
        for seat in (range(n) if tariff.basket.stake_payer == "each" else [pos.dealer]):
            move(seat, BASKET, tariff.basket.stake, "stake")
    if deal.ace_turned:
        move(pos.dealer, BASKET, tariff.basket.remise, "remise")
    if deal.carte_blanche is not None:
        for seat in range(n):
            if seat != deal.carte_blanche:
                move(seat, deal.carte_blanche, tariff.carte_blanche * pos.multiplier, "carte-blanche")

    if deal.contract == PASS:
        if tariff.basket.all_pass == "double":
            content = basket  # the basket doubles: each pays a share, the dealer any remainder
            for seat in range(n):
                if seat != pos.dealer:
                    move(seat, BASKET, content // n, "all-pass")
            move(pos.dealer, BASKET, content - content // n * (n - 1), "all-pass")
        return Outcome(tuple(out), made=None, stake_next=False, scores=(0,) * n)

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
    stake_next = False

    if made:
        for member in side:
            scores[member] = total
            for opponent in opponents:
                for reason, chips in pay:
                    move(opponent, member, chips * factor, reason)
        if tariff.has_basket:
            for member, share in zip(side, _split(basket, side), strict=True):
                move(BASKET, member, share, "basket")
            stake_next = True
    else:
        failing = side if not schedule.shares else [
            s for s, share in zip(side, schedule.shares, strict=True) if (own[s] or 0) < share
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
            for member, share in zip(failing, shares, strict=True):
                move(member, BASKET, share, "labet")
        elif schedule.failed_basket == "opponents":  # the basket goes to them, a remainder staying
            for opponent, share in zip(opponents, _split(basket, opponents), strict=True):
                move(BASKET, opponent, share, "basket")
            stake_next = True

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
    return Outcome(tuple(out), made=made, stake_next=stake_next, scores=tuple(scores))


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
    return State(balances=tuple(balances), basket=basket, deals=state.deals + 1, stake_due=outcome.stake_next)
