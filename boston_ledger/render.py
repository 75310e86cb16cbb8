"""How the ledger looks to people: rich tables of deals, balances, history, settlement, tariffs."""

from __future__ import annotations

from typing import Iterable, Sequence

from rich import box
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from . import engine
from .engine import BASKET, REASONS, Deal, Outcome, Position, State, Transfer
from .storage import Session
from .tariff import PASS, Schedule, Tariff
from .i18n import N_, _, contract_name, plural, rank_name, reason

FAILED_BASKET = {"labet": N_("labet"), "opponents": N_("to opponents"), "none": "—"}




def basket_word() -> str:
    return _("basket")


def local_time(stamp: str) -> str:
    """A stored moment (UTC, ISO 8601) as this machine's local time: '2026-11-30 21:05'."""
    from datetime import datetime

    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return stamp


def signed(n: int) -> Text:
    """A change of chips, green for gains and red for losses."""
    if n > 0:
        return Text(f"+{n}", style="green")
    if n < 0:
        return Text(str(n), style="red")
    return Text("·", style="dim")


def balance(n: int) -> Text:
    return Text(str(n), style="bold green" if n > 0 else "bold red" if n < 0 else "bold")


def describe(session: Session, deal: Deal, boston: bool = True) -> str:
    """A deal in a few words: 'junior Boris 5 + Gleb 4, boston Vera'."""
    if deal.contract == PASS:
        return _("all pass")
    name = session.players
    assert deal.declarer is not None
    contract = session.tariff.contracts.get(deal.contract)
    rank = deal.rank
    if rank is None and contract is not None and len(contract.ranks) > 1:
        rank = contract.ranks[0]
    head = contract_name(session.tariff, deal.contract) + (f" {rank_name(session.tariff, rank)}" if rank and rank != deal.contract else "")
    who = f"{name[deal.declarer]} {deal.tricks}"
    if deal.partner is not None:
        who += f" + {name[deal.partner]} {deal.partner_tricks}"
    elif contract is not None and contract.with_partner is not None:
        who += " " + _("alone")
    holder = _(", boston {name}", name=name[deal.boston]) if boston and deal.boston is not None else ""
    return f"{head} {who}{holder}"


def result_word(outcome: Outcome) -> str:
    return "—" if outcome.made is None else _("made") if outcome.made else _("failed")


def banners(tariff: Tariff, pos: Position) -> list[str]:
    """What a table announces at this deal: the double tours begin, a partie ends."""
    out = []
    first_double = next((i for i, m in enumerate(tariff.tours) if m > 1), None)
    deal_in_partie = (pos.number - 1) % tariff.deals_per_partie
    if first_double is not None and len(tariff.tours) > 1 and deal_in_partie == first_double * tariff.players:
        out.append(_("★ The double tours begin: every payment between players is ×{multiplier} "
                     "until the partie ends.", multiplier=pos.multiplier))
    if len(tariff.tours) > 1 and deal_in_partie == tariff.deals_per_partie - 1:
        out.append(_("★ Partie {partie} ends with this deal; the next deal opens partie {next}.",
                     partie=pos.partie, next=pos.partie + 1))
    return out


def where(pos: Position) -> str:
    """Partie and tour, and whether the tour is double."""
    kind = _("double tour ×{multiplier}", multiplier=pos.multiplier) if pos.double else _("simple tour")
    return _("partie {partie}, tour {tour} ({kind})", partie=pos.partie, tour=pos.tour, kind=kind)


def parties(session: Session) -> list[int | None]:
    return [*range(len(session.players)), BASKET]


def net_by_reason(transfers: Iterable[Transfer], n: int) -> dict[str, list[int]]:
    """Per reason, the net change of each party (players, then the basket last)."""
    rows: dict[str, list[int]] = {}
    for t in transfers:
        row = rows.setdefault(t.reason, [0] * (n + 1))
        row[n if t.payer is BASKET else t.payer] -= t.chips
        row[n if t.payee is BASKET else t.payee] += t.chips
    return {r: rows[r] for r in sorted(rows, key=lambda r: REASONS.index(r) if r in REASONS else 99)}


def deal_table(session: Session, number: int, pos: Position, deal: Deal, outcome: Outcome,
               after: State, sheet: Sequence[int] | None = None) -> Group:
    """What moved and why in one deal, then everyone's balance (or, on points, the score sheet)."""
    n = len(session.players)
    place = " · " + where(pos) if len(session.tariff.tours) > 1 else \
        " " + _("of {count}", count=session.agreed_deals) if session.agreed_deals else ""
    heading = Text(_("Deal {number}", number=number) + place
                   + " · " + _("dealer {name}", name=session.players[pos.dealer]) + "\n", style="bold")
    heading.append(describe(session, deal) + (f" — {result_word(outcome)}" if outcome.made is not None else ""),
                   style="not bold")
    if sheet is not None:
        table = Table()
        table.add_column("")
        for name in session.players:
            table.add_column(name, justify="right")
        table.add_row(_("this deal"), *map(signed, outcome.scores))
        table.add_row(Text(_("score"), style="bold"), *map(balance, sheet))
        return Group(heading, table)
    table = Table()
    table.add_column(_("why"))
    for name in session.players:
        table.add_column(name, justify="right")
    table.add_column(basket_word(), justify="right", style="cyan")
    total = [0] * (n + 1)
    for why, row in net_by_reason(outcome.transfers, n).items():
        table.add_row(reason(why), *map(signed, row))
        total = [a + b for a, b in zip(total, row)]
    table.add_section()
    table.add_row(_("this deal"), *map(signed, total))
    table.add_row(Text(_("balance"), style="bold"), *map(balance, [*after.balances, after.basket]))
    return Group(heading, table)


def balances_table(session: Session, values: Sequence[int], basket: int | None) -> Table:
    """Each player's balance (or score), and the basket when the tariff has one."""
    table = Table()
    for name in session.players:
        table.add_column(name, justify="right")
    cells = list(values)
    if basket is not None:
        table.add_column(basket_word(), justify="right", style="cyan")
        cells.append(basket)
    table.add_row(*map(balance, cells))
    return table


def status_lines(session: Session, state: State) -> list[str]:
    pos = engine.position(session.tariff, state.deals)
    t = session.tariff
    label = _("session {id}", id=session.id) + (f" “{session.name}”" if session.name else "")
    unit = _("chip") if t.has_basket else _("point")
    conditions = _(" with {conditions}", conditions=", ".join(t.applied)) if t.applied else ""
    lines = [
        f"{label}: {', '.join(session.players)} · " + _("tariff {name}", name=t.name) + f"{conditions} ({t.digest}) · "
        f"{unit} {session.chip_value}{' ' + session.currency if session.currency else ''}",
        plural(state.deals, "{n} deal played|{n} deals played")
        + (" · " + _("settled") if session.settled else
           " · " + _("next: deal {number}", number=pos.number) + ", " + (f"{where(pos)}, " if len(t.tours) > 1 else "")
           + _("dealer {name}", name=session.players[pos.dealer])),
    ]
    if not session.settled and state.stake_due and t.stake:
        if t.stake_payer == "each":
            lines.append(_("the next deal opens with a stake of {stake} from each player", stake=t.stake))
        else:
            lines.append(_("the next deal opens with a stake of {stake} from the dealer, {name}", stake=t.stake,
                           name=session.players[pos.dealer]))
    if session.agreed_deals is not None and not session.settled:
        left = session.agreed_deals - state.deals
        lines.append(_("{left} of the {count} agreed deals remain", left=left, count=session.agreed_deals) if left
                     else _("all {count} agreed deals are played; settle the session", count=session.agreed_deals))
    if not t.has_basket:
        lines.append(_("scores as written on the sheet:"))
    return lines


def history_table(session: Session, rows: Sequence, width: int = 200) -> Table:
    """One line per deal (rows are ledger.Walked): what was played and each player's change.

    When a line of every column would not fit in `width`, the dealer's column goes first (the
    dealer turns round the table; `status` and each deal's heading name him), then the
    boston's, so that a deal's line does not wrap when it can be helped."""
    from rich.measure import Measurement

    console = Console(width=10_000)  # to measure the table unbounded
    table = _history(session, rows, dealer=True, holder=True)
    for dealer, holder in ((False, True), (False, False)):
        if Measurement.get(console, console.options, table).maximum <= width:
            break
        table = _history(session, rows, dealer, holder)
    return table


def _history(session: Session, rows: Sequence, dealer: bool, holder: bool) -> Table:
    t = session.tariff
    n = len(session.players)
    holder = holder and t.boston > 0
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0))
    columns = ["#"] + ([N_("tour")] if len(t.tours) > 1 else []) + ([N_("dealer")] if dealer else []) \
        + [N_("deal")] + ([N_("boston")] if holder else [])
    for col in columns:
        table.add_column(_(col) if col != "#" else col, justify="right" if col == "#" else "left",
                         no_wrap=col != "deal")
    for name in session.players:
        table.add_column(name, justify="right")
    if t.has_basket:
        table.add_column(basket_word(), justify="right", style="cyan")
    for w in rows:
        deal, pos, outcome = w.recorded.deal, w.position, w.outcome
        if t.has_basket:
            change = [0] * (n + 1)
            for x in outcome.transfers:
                change[n if x.payer is BASKET else x.payer] -= x.chips
                change[n if x.payee is BASKET else x.payee] += x.chips
            cells = [*map(signed, change[:n]), str(w.after.basket)]
        else:
            cells = list(map(signed, outcome.scores))
        played = describe(session, deal, boston=False) + ("" if outcome.made is None else f": {result_word(outcome)}")
        row = [str(w.recorded.number)]
        if len(t.tours) > 1:
            row.append(f"{pos.partie}.{pos.tour}" + (f" ×{pos.multiplier}" if pos.double else ""))
        row += [session.players[pos.dealer]] if dealer else []
        row.append(played)
        if holder:
            row.append("" if deal.boston is None else session.players[deal.boston])
        table.add_row(*row, *cells)
    if not t.has_basket and rows:
        table.add_section()
        table.add_row(*([""] * (len(columns) - 1)), _("score"), *map(balance, rows[-1].sheet))
    return table


def settlement_heading(session: Session) -> str:
    code = f" {session.currency}" if session.currency else ""
    if session.tariff.has_basket:
        return _("Settlement of session {id} (one chip = {value})", id=session.id, value=f"{session.chip_value}{code}")
    return _("Settlement of session {id} (one point = {value})", id=session.id, value=f"{session.chip_value}{code}")


def settlement_table(session: Session, result: dict) -> Table:
    code = f" {session.currency}" if session.currency else ""
    table = Table()
    table.add_column(_("player"))
    table.add_column(_("net chips") if session.tariff.has_basket else _("net points"), justify="right")
    table.add_column(_("money"), justify="right")
    for name in session.players:
        chips = result["net_chips"][name]
        money = result["money"][name]
        style = "green" if not money.startswith("-") and money != "0.00" else "red" if money.startswith("-") else ""
        table.add_row(name, str(chips), Text(money + code, style=style))
    return table


def payment_lines(session: Session, result: dict) -> list[str]:
    code = f" {session.currency}" if session.currency else ""
    if not result["payments"]:
        return [_("nobody owes anybody anything")]
    return [_("{payer} pays {payee} {amount}", payer=p["from"], payee=p["to"], amount=p["amount"] + code)
            for p in result["payments"]]


def schedule_row(schedule: Schedule, tricks: int, factor: int, rank: str | None = None) -> list[str]:
    """A schedule's amounts from all tricks down to none, signed as the seed prints them."""
    out = []
    for taken in range(tricks, -1, -1):
        made, pay = engine.lines(schedule, taken, tricks, rank)
        amount = sum(c for _, c in pay) * factor
        out.append(f"+{amount}" if made else f"-{amount}")
    return out


def _rules(t: Tariff) -> list[str]:
    """The tariff's mechanisms in words."""
    if not t.has_basket:
        lines = [_("{players} players; a score sheet of points: no basket, no stake, no boston; "
                   "all pass scores nothing; settled by the pairwise differences of the scores", players=t.players)]
    else:
        payer = _("each player") if t.stake_payer == "each" else _("the dealer alone")
        lines = [_("{players} players; stake {stake} from {payer} at the first deal and after the basket is won; "
                   "all pass: the basket doubles; boston pays {boston} from each other player",
                   players=t.players, stake=t.stake, payer=payer, boston=t.boston)
                 + (_(" (×{times} in a slam)", times=t.boston_slam) if t.boston_slam > 1 else "")]
        if t.remise:
            lines.append(_("remise: the dealer pays {chips} into the basket when the turned trump is an ace",
                           chips=t.remise))
        if t.carte_blanche:
            lines.append(_("carte blanche: {chips} from each other player to who declares a blank hand",
                           chips=t.carte_blanche))
    if len(t.tours) > 1:
        multipliers = " ".join(str(m) for m in t.tours)
        lines.append(_("a partie is {tours} tours of {players} deals; tour multipliers {multipliers} "
                       "(payments between players; the basket is never multiplied)", tours=len(t.tours),
                       players=t.players, multipliers=multipliers) if t.has_basket else
                     _("a partie is {tours} tours of {players} deals; tour multipliers {multipliers} "
                       "(payments between players)", tours=len(t.tours), players=t.players,
                       multipliers=multipliers))
    return lines


def tariff_tables(t: Tariff, width: int = 200) -> list[Table | str]:
    """The tariff laid out like the seed's: one row per contract, way and rank, by tricks.

    In a console narrower than that table, each contract becomes a column instead, a few
    contracts to a table, so that no number is cut.
    """
    out: list[Table | str] = [
        f"{_(t.title)} — {t.name} ({t.digest})" + (_(", with {conditions}", conditions=", ".join(t.applied))
                                               if t.applied else ""),
        _("source: {source}", source=t.source),
        *_rules(t),
        *map(_, t.notes),
    ]
    what = (_("Chips each member of the declaring side receives from (+) or pays to (-) each opponent")
            if t.has_basket else _("Points each member of the declaring side scores (+) or loses (-)"))
    rows: list[tuple[str, str, str, list[str]]] = []
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
                basket = _(FAILED_BASKET[schedule.failed_basket])
                if schedule.kind == "null":
                    value = str(schedule.base(rank) * factor)
                    nulls.add_row(label, value, value, *([basket] if t.has_basket else []))
                    continue
                bar = str(schedule.bar) + (f" ({'+'.join(map(str, schedule.shares))})" if schedule.shares else "")
                rows.append((label, bar, basket, schedule_row(schedule, t.tricks, factor, rank)))
    if rows:
        wide = (max(len(r[0]) for r in rows) + 12 + (17 if t.has_basket else 0)
                + sum(max(len(r[3][i]) for r in rows) + 3 for i in range(t.tricks + 1)))
        out += _wide(t, what, rows) if wide <= width else _narrow(t, what, rows, width)
    if nulls.row_count:
        out.append(nulls)
    out.append(_("with a partner, the tricks are the pair's together")
               + (_("; a member who took his share neither pays nor receives when the pair fails")
                  if any(s.shares for s in t.schedules.values()) else ""))
    if t.conditions:
        conditions = Table(title=_("Conditions a session may agree (new --condition NAME)"), title_justify="left")
        conditions.add_column(_("condition"))
        conditions.add_column(_("what it changes"))
        for key, c in t.conditions.items():
            state = _(" (on)") if key in t.applied else _(" (already so in this tariff)") if c.in_force else ""
            conditions.add_row(key + state, _(c.title))
        out.append(conditions)
    return out


def tariff_data(t: Tariff) -> dict:
    """A tariff's tables as data: per contract, way and rank, the amount at each number of tricks."""
    contracts = {}
    for key, contract in t.contracts.items():
        ways = {}
        for way, schedule in (("with_partner", contract.with_partner), ("alone", contract.alone)):
            if schedule is None:
                continue
            ways[way] = {
                (rank or ""): {str(taken): int(value) for taken, value in
                               zip(range(t.tricks, -1, -1), schedule_row(schedule, t.tricks,
                                                                         t.ranks[rank].multiplier if rank else 1, rank))}
                for rank in (contract.ranks or [None])
            }
        contracts[key] = {"names": list(contract.names), "ranks": list(contract.ranks), "ways": ways}
    return {
        "name": t.name, "title": t.title, "source": t.source, "hash": t.digest, "scoring": t.scoring,
        "players": t.players, "tricks": t.tricks, "stake": t.stake, "stake_payer": t.stake_payer,
        "boston": t.boston, "tours": list(t.tours), "contracts": contracts,
        "conditions": {k: {"title": c.title, "in_force": c.in_force, "on": k in t.applied}
                       for k, c in t.conditions.items()},
    }


def _wide(t: Tariff, what: str, rows: list) -> list[Table]:
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


def _narrow(t: Tariff, what: str, rows: list, width: int) -> list[Table | str]:
    per_table = max(1, (width - 8) // 13)
    out: list[Table | str] = [_("{what}, by tricks taken (one column per contract):", what=what)]
    for start in range(0, len(rows), per_table):
        chunk = rows[start:start + per_table]
        table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
        table.add_column(_("tricks"), justify="right", no_wrap=True)
        for label, bar, basket, __ in chunk:
            head = f"{label}\n" + _("bar {bar}", bar=bar) + (f"\n{basket}" if t.has_basket else "")
            table.add_column(head, justify="right", no_wrap=False, min_width=6)
        for i, taken in enumerate(range(t.tricks, -1, -1)):
            table.add_row(str(taken), *(values[i] for *_, values in chunk))
        out.append(table)
    return out


def print_all(console: Console, items: Iterable[Table | str]) -> None:
    for item in items:
        console.print(item)


def change_table(session: Session, before: Sequence[int], after: Sequence[int], baskets: tuple[int, int]) -> Table:
    """How each balance (on points, each score) and the basket changed."""
    table = Table()
    basket = session.tariff.has_basket
    for col in ("", *session.players, *([basket_word()] if basket else [])):
        table.add_column(col, justify="right" if col else "left")
    rows = [(_("before"), [*before, *([baskets[0]] if basket else [])]),
            (_("after"), [*after, *([baskets[1]] if basket else [])])]
    for label, values in rows:
        table.add_row(label, *map(balance, values))
    table.add_row(_("change"), *map(signed, [a - b for a, b in zip(rows[1][1], rows[0][1])]))
    return table


def corrections_table(session: Session, audit: Sequence) -> Table:
    """The audit of corrections (storage.Correction): when, which deal, why, what it was and is."""
    table = Table()
    for col in (_("when"), _("deal"), _("reason"), _("was"), _("now")):
        table.add_column(col)
    for c in audit:
        table.add_row(local_time(c.corrected_at), str(c.number), c.reason,
                      describe(session, c.was), describe(session, c.now))
    return table
