"""How a tariff looks: its rules in words and its tables laid out like the seed's, from the
same data the engine uses."""

from __future__ import annotations

from typing import Any

from rich.box import SIMPLE_HEAD
from rich.table import Table

from ..core import columns, engine, ladders
from ..core.i18n import N_, _, condition_name, condition_names, contract_name, ngettext, rank_name, reason
from ..core.tariff import MISDEAL, PASS, Schedule, Tariff
from .text import chip_count, number


FAILED_BASKET = {"labet": N_("labet"), "opponents": N_("to opponents"), "none": "—",
                 "as-each": N_("as to each opponent")}


# a row of the tariff's tables: its label, its bar, what a failure puts in the basket, and the
# amounts from all tricks down to none (schedule_row)
_Row = tuple[str, str, str, list[str]]


def schedule_row(schedule: Schedule, tricks: int, factor: int, rank: str | None = None) -> list[str]:
    """A schedule's amounts from all tricks down to none, signed as the seed prints them."""
    out = []
    for taken in range(tricks, -1, -1):
        made, pay = engine.lines(schedule, taken, tricks, rank)
        amount = sum(c for _, c in pay) * factor
        out.append(f"+{amount}" if made else f"-{amount}")
    return out


ALL_PASS = {"double": N_("all pass: the basket doubles"), "nothing": N_("all pass: nothing is paid"),
            "misere-partout": N_("all pass: everybody plays a misère (misère partout, deal pass --tricks-each); "
                                 "who took the most tricks pays each other player {chips} per trick of difference, "
                                 "players tied for the most share that and pay each other nothing; the basket "
                                 "neither doubles nor is won"),
            "misere-partout-pool": N_("all pass: everybody plays a misère (misère partout, deal pass --tricks-each); "
                                      "who took the fewest tricks takes the basket, players tied for the fewest "
                                      "share it; nothing else is paid")}
STAKE_AT = {"start-and-award": N_("stake {stake} from {payer} at the first deal and after the basket is won"),
            "every-deal": N_("stake {stake} from {payer} at every deal"),
            "empty": N_("stake {stake} from {payer} whenever the basket is empty when a deal begins")}
ALL_PASS_REMAINDER = {"dealer": N_("the dealer pays what does not divide when the basket doubles"),
                      "eldest": N_("the player after the dealer pays what does not divide when the basket doubles")}
LABET_ODD_CHIP = {"declarer": N_("two failing partners split the labet, the declarer paying any odd chip"),
                  "partner": N_("two failing partners split the labet, the partner paying any odd chip")}
PARTOUT_ODD_CHIP = N_("players tied for the most tricks of a misère partout share each payment, the earliest "
                      "seat of them paying any odd chip")
SHARE_REMAINDER = {"stays": N_("a basket shared out leaves what does not divide in the basket"),
                   "first": N_("a basket shared out gives what does not divide to the first sharer from the declarer")}


def _rules(t: Tariff) -> list[str]:
    """The tariff's mechanisms in words, from the very values the engine plays by."""
    if not t.has_basket:
        lines = [_("{players} players; a score sheet of points: no basket, no stake, no boston; "
                   "all pass scores nothing; settled by the pairwise differences of the scores", players=t.players)]
    else:
        rules = t.basket
        payer = _("each player") if rules.stake_payer == "each" else _("the dealer alone")
        stake = _(STAKE_AT[rules.stake_at], stake=chip_count(rules.stake), payer=payer)
        all_pass = _(ALL_PASS[rules.all_pass], chips=chip_count(rules.partout_per_trick))
        lines = [(ngettext("{n} player; {stake}; {all_pass}; boston pays {boston} from each other player",
                           "{n} players; {stake}; {all_pass}; boston pays {boston} from each other player", t.players,
                           stake=stake, all_pass=all_pass, boston=chip_count(t.boston)) if t.boston
                  else ngettext("{n} player; {stake}; {all_pass}; no boston is paid",
                                "{n} players; {stake}; {all_pass}; no boston is paid", t.players, stake=stake,
                                all_pass=all_pass))
                 + ((_(" (×{times} in a slam)", times=t.boston_slam) if t.boston_slam_for == "anyone" else
                     _(" (×{times} in a slam, when the slam's declaring side holds it)", times=t.boston_slam))
                    if t.boston_slam > 1 and t.boston else "")]
        if rules.pool_limit:
            lines.append(_("pools of at most {limit} each, played for in turn: a made contract takes the first "
                           "pool, a failed declarer doubles the first pool, and what would put a pool above {limit} "
                           "starts the next one", limit=chip_count(rules.pool_limit)))
        low = [contract_name(t, key) for key, c in t.contracts.items()
               if any(s is not None and not s.takes_basket for s in (c.alone, c.with_partner))]
        if low:
            lines.append(_("made, these take nothing from the basket: {contracts}", contracts=", ".join(low)))
        if rules.concede:
            saved = [contract_name(t, key) for key, c in t.contracts.items() if any(
                s is not None and s.takes_basket and not s.takes_pool(True) for s in (c.alone, c.with_partner))]
            lines.append(_("\"I pay\" (deal --conceded, no tricks): the bid is paid without over-tricks")
                         + (_("; conceded, these take nothing from the basket: {contracts}", contracts=", ".join(saved))
                            if saved else ""))
        if rules.divide_every:
            lines.append(ngettext(
                "after every {n} deal (a misdeal dealt again is none) the basket is divided equally among {who}, "
                "what does not divide staying, and the next deal opens with a stake",
                "after every {n} deals (a game; a misdeal dealt again is none) the basket is divided equally among "
                "{who}, what does not divide staying, and the next deal opens with a stake", rules.divide_every,
                who=_("all the players") if rules.divide_among == "all" else
                _("all but the side that failed that deal")))
        if any(s.pays == "beside" for s in t.schedules.values()):
            lines.append(_("partners: each pays, or is paid by, the one adversary at that partner's side (on the "
                           "right, else on the left); the pair divides the basket won, and puts a failure's payment "
                           "into it once between them, the declarer the odd chip"))
        if rules.misdeal_penalty or rules.misdeal_dealer == "same":
            lines.append(_("misdeal (deal misdeal): {who}; the misdealer pays {chips} into the basket",
                           who=_("the same dealer deals again") if rules.misdeal_dealer == "same" else
                           _("the next player deals"), chips=chip_count(rules.misdeal_penalty)))
        if t.honours:
            lines.append(_("honours (deal --honours N, the trump's A K Q J the declarer held), paid as over-tricks "
                           "when a trump contract is made: {scale}", scale=", ".join(
                               _("{honours} as {overtricks}", honours=h, overtricks=o)
                               for h, o in enumerate(t.honours) if o)))
        if rules.remise:
            lines.append(_("remise: the dealer pays {chips} into the basket when the turned trump is an ace",
                           chips=chip_count(rules.remise)))
        if t.carte_blanche:
            lines.append(_("carte blanche: {chips} from each other player to who declares a blank hand",
                           chips=chip_count(t.carte_blanche)))
        if t.jack:
            lines.append(_("the diamond jack (deal --jack NAME): {chips} to its holder from each other player, times "
                           "the tour, in every deal played but a misère", chips=chip_count(t.jack)))
        if rules.stake_doubles and set(t.tours) != {1}:
            lines.append(_("the stake is multiplied with the tour's payments"))
        lines.append(_("odd chips: {rules}", rules="; ".join(
            ([_(ALL_PASS_REMAINDER[rules.all_pass_remainder])] if rules.all_pass == "double" else [])
            + ([_(PARTOUT_ODD_CHIP)] if rules.all_pass == "misere-partout" else [])
            + ([_(LABET_ODD_CHIP[rules.labet_odd_chip])] if any(
                s.shares and s.failed_basket == "labet" for s in t.schedules.values()) or not t.schedules else [])
            + [_(SHARE_REMAINDER[rules.share_remainder])])))
    premiums: dict[str, set[int]] = {}
    for key, contract in t.contracts.items():
        for schedule in (contract.with_partner, contract.alone):
            if schedule is not None and schedule.premium:
                premiums.setdefault(key, set()).add(schedule.premium)
    if premiums:
        lines.append(_("premium on every payment, made or failed (a slam does not double it): {premiums}",
                       premiums=", ".join(f"{contract_name(t, key)} {'/'.join(map(str, sorted(values)))}"
                                          for key, values in premiums.items())))
    shown = [" < ".join(contract_name(t, key) for key in ladder if key in t.contracts) for ladder in t.ladders]
    shown = [ladder for ladder in shown if " < " in ladder]
    if shown:
        lines.append(_("ladders, the lowest contract first (a higher one never pays less made nor costs less "
                       "failed at the same tricks): {ladders}", ladders="; ".join(shown)))
    grouped: dict[tuple[str, str | None, str], list[str | None]] = {}
    for breach in ladders.exceptions(t):
        grouped.setdefault((breach.lower, breach.lower_rank, breach.higher), []).append(breach.higher_rank)
    if grouped:
        def named(key: str, ranks: list[str | None]) -> str:
            shown = ", ".join(rank_name(t, r) for r in dict.fromkeys(ranks) if r)
            return contract_name(t, key) + (f" ({shown})" if shown else "")

        lines.append(_("exceptions to the ladders, as the source's own tables have them (a higher contract paying "
                       "less made, or costing less failed, than a lower one at the same tricks): {pairs}",
                       pairs="; ".join(_("{higher} below {lower}", higher=named(high, ranks), lower=named(low, [rank]))
                                       for (low, rank, high), ranks in grouped.items())))
    if len(t.tours) > 1 and set(t.tours) == {1}:
        lines.append(ngettext("a partie is {n} tour of {players} deals ({deals} deals); nothing is doubled",
                              "a partie is {n} tours of {players} deals each ({deals} deals); nothing is doubled",
                              len(t.tours), players=t.players, deals=t.deals_per_partie))
    elif len(t.tours) > 1:
        multipliers = " ".join(str(m) for m in t.tours)
        lines.append(ngettext("a partie is {n} tour of {players} deals; tour multipliers {multipliers} "
                              "(payments between players; the basket is never multiplied)",
                              "a partie is {n} tours of {players} deals each; tour multipliers {multipliers} "
                              "(payments between players; the basket is never multiplied)", len(t.tours),
                              players=t.players, multipliers=multipliers) if t.has_basket else
                     ngettext("a partie is {n} tour of {players} deals; tour multipliers {multipliers} "
                              "(payments between players)",
                              "a partie is {n} tours of {players} deals each; tour multipliers {multipliers} "
                              "(payments between players)", len(t.tours), players=t.players,
                              multipliers=multipliers))
    return lines


def tariff_tables(t: Tariff, width: int = 200) -> list[Table | str]:
    """The tariff laid out like the seed's: one row per contract, way and rank, by tricks.

    In a console narrower than that table, each contract becomes a column instead, a few
    contracts to a table, so that no number is cut.
    """
    out: list[Table | str] = [
        f"{_(t.title)} — {t.name} ({t.digest})" + (_(", with {conditions}", conditions=condition_names(t, t.applied))
                                               if t.applied else ""),
        _("source: {source}", source=_(t.source)),
        *_rules(t),
        *map(_, t.notes),
        *([abbreviations(t)] if t.abbreviations else []),
    ]
    if t.turns:  # paid by the suit turned: the table by suit, as Foster prints it
        out.append(by_suit(t))
        return out
    what = (_("Chips each member of the declaring side receives from (+) or pays to (-) each opponent")
            if t.has_basket else _("Points each member of the declaring side scores (+) or loses (-)"))
    rows: list[_Row] = []
    nulls = Table(title=_("Misères, nulls and other no-trick contracts (made when the declarer takes no trick)"),
                  title_justify="left")
    nulls.add_column(_("contract"), no_wrap=True)
    nulls.add_column(_("made: each opponent pays") if t.has_basket else _("made: scores"), justify="right")
    nulls.add_column(_("failed: pays each opponent") if t.has_basket else _("failed: loses"), justify="right")
    if t.has_basket:
        nulls.add_column(_("failed: basket"))
    for key, contract in t.contracts.items():
        ways = [(_("with a partner"), contract.with_partner), (_("alone"), contract.alone)]
        for way, schedule in ways:
            if schedule is None:
                continue
            for rank in contract.ranks or [None]:
                factor = t.ranks[rank].multiplier if rank else 1
                label = contract_name(t, key) + (f" ({rank_name(t, rank)})" if rank and rank != key else "")
                if contract.with_partner is not None and contract.alone is not None:
                    label += f", {way}"
                failing = schedule.failed_basket  # a labet by the game's name for it
                basket = reason("labet") if failing == "labet" else _(FAILED_BASKET[failing])
                if schedule.kind == "null":
                    if schedule.takes:
                        label += " " + ngettext("(made with exactly {n} trick)", "(made with exactly {n} tricks)",
                                                schedule.takes)
                    value = str(schedule.base(rank) * factor)
                    failed = _("{chips} per trick taken", chips=value) if schedule.failed_per_trick else value
                    nulls.add_row(label, value, failed, *([basket] if t.has_basket else []))
                    continue
                bar = str(schedule.bar) + (f" ({'+'.join(map(str, schedule.shares))})" if schedule.shares else "")
                rows.append((label, bar, basket, schedule_row(schedule, t.tricks, factor, rank)))
    if rows:
        wide = (max(len(r[0]) for r in rows) + 12 + (17 if t.has_basket else 0)
                + sum(max(len(r[3][i]) for r in rows) + 3 for i in range(t.tricks + 1)))
        out += _wide(t, what, rows) if wide <= width else _narrow(t, what, rows, width)
    if nulls.row_count:
        out.append(nulls)
    if any(c.with_partner is not None for c in t.contracts.values()):
        out.append(_("with a partner, the tricks are the pair's together")
                   + (_("; a member who took the share owed neither pays nor receives when the pair fails")
                      if any(s.shares for s in t.schedules.values()) else ""))
    if t.conditions:
        conditions = Table(title=_("Conditions a session may agree (new --condition NAME)"), title_justify="left")
        conditions.add_column(_("condition"))
        conditions.add_column(_("what it changes"))
        for key, c in t.conditions.items():
            state = _(" (on)") if key in t.applied else _(" (already so in this tariff)") if c.in_force else ""
            conditions.add_row(condition_name(t, key) + state, _(c.title))
        out.append(conditions)
    return out


def by_suit(t: Tariff) -> Table:
    """A table paid by suit laid out as Foster prints French Boston's (p. 182): a row per bid, its
    honours and its extra trick, a column per suit; what a slam pays below its bid."""
    table = Table(title=_("Chips each adversary pays, by the suit the bid is paid in"), title_justify="left")
    table.add_column(_("bid"))
    suits = columns.suits(t)
    for suit in suits:
        table.add_column(rank_name(t, suit), justify="right")

    def row(label: str, value: int) -> None:
        table.add_row(label, *(str(value * t.ranks[suit].multiplier) for suit in suits))

    shown: set[str] = set()
    for contract in t.contracts.values():
        for way, schedule in ((_("alone"), contract.alone), (_("with a partner"), contract.with_partner)):
            if schedule is None or schedule.key in shown:
                continue
            shown.add(schedule.key)
            users = [contract_name(t, k) for k, c in t.contracts.items() if schedule in (c.alone, c.with_partner)]
            label = ", ".join(users) + (f" ({way})" if contract.alone and contract.with_partner else "")
            if schedule.kind == "null":
                row(label, schedule.consolation)
                continue
            share = f" ({'+'.join(map(str, schedule.shares))})" if schedule.shares else ""
            row(ngettext("{bid}: {n} trick", "{bid}: {n} tricks", schedule.bar, bid=label, n=schedule.bar) + share,
                schedule.consolation)
            for held in (3, 4):
                if len(schedule.honours) > held and schedule.honours[held]:
                    row("  " + ngettext("{n} honour", "{n} honours", held, n=held), schedule.honours[held])
            row("  " + _("each extra trick"), schedule.per_trick)
            if schedule.slam_at:
                table.add_row("  " + ngettext("slam: {n} trick", "slam: {n} tricks", schedule.slam_at,
                                              n=schedule.slam_at) + ", " + ", ".join(
                    f"{rank_name(t, r)} {v}" for r, v in schedule.slam_value.items()), *("" for __ in suits))
    return table


def abbreviations(t: Tariff) -> str:
    """The tariff's abbreviations in a line: 'abbreviations: p, п for pass; gm, гм for grand-misere'."""
    def name(key: str) -> str:
        return _("pass") if key == PASS else _("misdeal") if key == MISDEAL else contract_name(t, key)

    return _("abbreviations: {words}", words="; ".join(_("{words} for {contract}", words=", ".join(words),
                                                           contract=name(key))
                                                         for key, words in t.abbreviations.items()))


def tariff_data(t: Tariff) -> dict[str, Any]:
    """A tariff's tables as data: per contract, way and rank, the amount at each number of tricks."""
    contracts = {}
    for key, contract in t.contracts.items():
        ways = {}
        for way, schedule in (("with_partner", contract.with_partner), ("alone", contract.alone)):
            if schedule is None:
                continue
            ways[way] = {
                (rank or ""): {str(taken): int(value) for taken, value in
                               zip(range(t.tricks, -1, -1),
                                   schedule_row(schedule, t.tricks, t.ranks[rank].multiplier if rank else 1, rank),
                                   strict=True)}
                for rank in (shown_ranks(t, contract.ranks) or [None])
            }
        contracts[key] = {"names": list(contract.names), "ranks": list(contract.ranks), "ways": ways}
    return {
        "name": t.name, "title": t.title, "source": t.source, "hash": t.digest, "scoring": t.scoring,
        "players": t.players, "tricks": t.tricks, "stake": t.basket.stake, "stake_payer": t.basket.stake_payer,
        "basket": {k: list(v) if isinstance(v, tuple) else v for k, v in t.basket._asdict().items()},
        "boston": t.boston, "tours": list(t.tours), "contracts": contracts,
        "abbreviations": {k: list(v) for k, v in t.abbreviations.items()},
        "conditions": {k: {"title": c.title, "in_force": c.in_force, "on": k in t.applied}
                       for k, c in t.conditions.items()},
    }


def shown_ranks(t: Tariff, ranks: tuple[str, ...]) -> tuple[str, ...]:
    """The ranks a contract's table is shown in: its own, or every suit where it pays by the suit turned."""
    return columns.suits(t) if any(t.ranks[r].column for r in ranks) else ranks


def _wide(t: Tariff, what: str, rows: list[_Row]) -> list[Table]:
    table = Table(title=_("{what}, by tricks taken", what=what), title_justify="left")
    table.add_column(_("contract"))
    table.add_column(_("bar"), justify="right")
    if t.has_basket:
        table.add_column(_("failed: basket"))
    for taken in range(t.tricks, -1, -1):
        table.add_column(str(taken), justify="right", no_wrap=True)
    for label, bar, basket, values in rows:
        table.add_row(label, bar, *([basket] if t.has_basket else []), *values)
    return [table]


def _narrow(t: Tariff, what: str, rows: list[_Row], width: int) -> list[Table | str]:
    per_table = max(1, (width - 8) // 14)  # a column holds «противникам» whole (11 cells and its padding)
    out: list[Table | str] = [_("{what}, by tricks taken (one column per contract):", what=what)]
    for start in range(0, len(rows), per_table):
        chunk = rows[start:start + per_table]
        table = Table(box=SIMPLE_HEAD, pad_edge=False)
        table.add_column(_("tricks"), justify="right", no_wrap=True)
        for label, bar, basket, __ in chunk:
            head = f"{label}\n" + _("bar {bar}", bar=bar) + (f"\n{basket}" if t.has_basket else "")
            table.add_column(head, justify="right", no_wrap=False, min_width=6)
        for i, taken in enumerate(range(t.tricks, -1, -1)):
            table.add_row(str(taken), *(number(values[i]) for *_, values in chunk))
        out.append(table)
    return out
