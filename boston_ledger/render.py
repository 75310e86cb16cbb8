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

REASON_LABELS = {
    "stake": "stake",
    "all-pass": "all pass: basket doubles",
    "consolation": "consolation",
    "overtricks": "overtricks",
    "undertricks": "undertricks",
    "slam": "slam (all doubled)",
    "basket": "basket won",
    "labet": "labet",
    "boston": "boston",
}


FAILED_BASKET = {"labet": "labet", "opponents": "to opponents"}


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
        return "all pass"
    name = session.players
    assert deal.declarer is not None
    contract = session.tariff.contracts.get(deal.contract)
    rank = deal.rank
    if rank is None and contract is not None and len(contract.ranks) > 1:
        rank = contract.ranks[0]
    head = deal.contract + (f" {rank}" if rank and rank != deal.contract else "")
    who = f"{name[deal.declarer]} {deal.tricks}"
    if deal.partner is not None:
        who += f" + {name[deal.partner]} {deal.partner_tricks}"
    elif contract is not None and contract.with_partner is not None:
        who += " alone"
    holder = f", boston {name[deal.boston]}" if boston and deal.boston is not None else ""
    return f"{head} {who}{holder}"


def result_word(outcome: Outcome) -> str:
    return "—" if outcome.made is None else "made" if outcome.made else "failed"


def where(pos: Position) -> str:
    kind = f"double tour ×{pos.multiplier}" if pos.double else "simple tour"
    return f"partie {pos.partie}, tour {pos.tour} ({kind})"


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
               after: State) -> Group:
    """What moved and why in one deal, then everyone's balance."""
    n = len(session.players)
    heading = Text(f"Deal {number} · {where(pos)} · dealer {session.players[pos.dealer]}\n", style="bold")
    heading.append(describe(session, deal) + (f" — {result_word(outcome)}" if outcome.made is not None else ""),
                   style="not bold")
    table = Table()
    table.add_column("why")
    for name in session.players:
        table.add_column(name, justify="right")
    table.add_column("basket", justify="right", style="cyan")
    total = [0] * (n + 1)
    for reason, row in net_by_reason(outcome.transfers, n).items():
        table.add_row(REASON_LABELS.get(reason, reason), *map(signed, row))
        total = [a + b for a, b in zip(total, row)]
    table.add_section()
    table.add_row("this deal", *map(signed, total))
    table.add_row(Text("balance", style="bold"), *map(balance, [*after.balances, after.basket]))
    return Group(heading, table)


def balances_table(session: Session, state: State) -> Table:
    table = Table(title_justify="left")
    for name in session.players:
        table.add_column(name, justify="right")
    table.add_column("basket", justify="right", style="cyan")
    table.add_row(*map(balance, [*state.balances, state.basket]))
    return table


def status_lines(session: Session, state: State) -> list[str]:
    pos = engine.position(session.tariff, state.deals)
    t = session.tariff
    label = f"session {session.id}" + (f" “{session.name}”" if session.name else "")
    lines = [
        f"{label}: {', '.join(session.players)} · tariff {t.name} ({t.digest}) · "
        f"chip {session.chip_value}{' ' + session.currency if session.currency else ''}",
        f"{state.deals} deal{'s' if state.deals != 1 else ''} played"
        + (" · settled" if session.settled else
           f" · next: deal {pos.number}, {where(pos)}, dealer {session.players[pos.dealer]}"),
    ]
    if not session.settled and state.stake_due and t.stake:
        lines.append(f"the next deal opens with a stake of {t.stake} from each player")
    return lines


def history_table(session: Session, rows: Sequence[tuple[int, Position, Deal, Outcome, State]]) -> Table:
    n = len(session.players)
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0))
    for col in ("#", "tour", "dealer", "deal", "boston"):
        table.add_column(col, justify="right" if col == "#" else "left", no_wrap=col != "deal")
    for name in session.players:
        table.add_column(name, justify="right")
    table.add_column("basket", justify="right", style="cyan")
    for number, pos, deal, outcome, after in rows:
        change = [0] * (n + 1)
        for t in outcome.transfers:
            change[n if t.payer is BASKET else t.payer] -= t.chips
            change[n if t.payee is BASKET else t.payee] += t.chips
        tour = f"{pos.partie}.{pos.tour}" + (f" ×{pos.multiplier}" if pos.double else "")
        holder = "" if deal.boston is None else session.players[deal.boston]
        table.add_row(str(number), tour, session.players[pos.dealer], describe(session, deal, boston=False)
                      + ("" if outcome.made is None else f": {result_word(outcome)}"), holder, *map(signed, change[:n]), str(after.basket))
    return table


def settlement_heading(session: Session) -> str:
    code = f" {session.currency}" if session.currency else ""
    return f"Settlement of session {session.id} (one chip = {session.chip_value}{code})"


def settlement_table(session: Session, result: dict) -> Table:
    code = f" {session.currency}" if session.currency else ""
    table = Table()
    table.add_column("player")
    table.add_column("net chips", justify="right")
    table.add_column("money", justify="right")
    for name in session.players:
        chips = result["net_chips"][name]
        money = result["money"][name]
        style = "green" if not money.startswith("-") and money != "0.00" else "red" if money.startswith("-") else ""
        table.add_row(name, str(chips), Text(money + code, style=style))
    return table


def payment_lines(session: Session, result: dict) -> list[str]:
    code = f" {session.currency}" if session.currency else ""
    if not result["payments"]:
        return ["nobody owes anybody anything"]
    return [f"{p['from']} pays {p['to']} {p['amount']}{code}" for p in result["payments"]]


def schedule_row(schedule: Schedule, tricks: int, factor: int) -> list[str]:
    """A schedule's amounts from all tricks down to none, signed as the seed prints them."""
    out = []
    for taken in range(tricks, -1, -1):
        made, pay = engine.lines(schedule, taken, tricks)
        amount = sum(c for _, c in pay) * factor
        out.append(f"+{amount}" if made else f"-{amount}")
    return out


def tariff_tables(t: Tariff) -> list[Table | str]:
    """The tariff laid out like the seed's: one row per contract, way and rank, by tricks."""
    out: list[Table | str] = [
        f"{t.title} — {t.name} ({t.digest})",
        f"source: {t.source}",
        f"{t.players} players; stake {t.stake} each at the first deal and after the basket is won; "
        f"all pass: the basket doubles; boston pays {t.boston} from each other player",
        f"a partie is {len(t.tours)} tours of {t.players} deals; tour multipliers "
        + " ".join(str(m) for m in t.tours)
        + " (payments between players; the basket is never multiplied)",
    ]
    table = Table(title="Chips each member of the declaring side receives from (+) or pays to (-) "
                        "each opponent, by tricks taken", title_justify="left")
    table.add_column("contract")
    table.add_column("bar", justify="right")
    table.add_column("failed: basket")
    for taken in range(t.tricks, -1, -1):
        table.add_column(str(taken), justify="right")
    nulls = Table(title="Misères and other no-trick contracts (made when the declarer takes no trick)",
                  title_justify="left")
    nulls.add_column("contract")
    nulls.add_column("made: each opponent pays", justify="right")
    nulls.add_column("failed: pays each opponent", justify="right")
    nulls.add_column("failed: basket")
    for key, contract in t.contracts.items():
        ways = [("with a partner", contract.with_partner), ("alone", contract.alone)]
        for way, schedule in ways:
            if schedule is None:
                continue
            if schedule.kind == "null":
                nulls.add_row(key, str(schedule.consolation), str(schedule.consolation),
                              FAILED_BASKET[schedule.failed_basket])
                continue
            for rank in contract.ranks or [None]:
                factor = t.ranks[rank].multiplier if rank else 1
                label = key + (f" ({rank})" if rank and rank != key else "")
                if contract.with_partner is not None and contract.alone is not None:
                    label += f", {way}"
                bar = str(schedule.bar) + (f" ({'+'.join(map(str, schedule.shares))})" if schedule.shares else "")
                table.add_row(label, bar, FAILED_BASKET[schedule.failed_basket],
                              *schedule_row(schedule, t.tricks, factor))
    out.append(table)
    if nulls.row_count:
        out.append(nulls)
    out.append("with a partner, the columns are the pair's tricks together; a member who took his "
               "share neither pays nor receives when the pair fails")
    return out


def print_all(console: Console, items: Iterable[Table | str]) -> None:
    for item in items:
        console.print(item)
