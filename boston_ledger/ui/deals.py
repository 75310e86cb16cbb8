"""How deals look: a deal in words, its breakdown of what moved and why, the balances, the
history of an evening, corrections; where a deal falls (partie, tour) and its banners."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import NamedTuple

from ..core import engine
from ..core.controls import visible
from ..core.engine import REASONS, Deal, Outcome, Position, State, Transfer, moves
from ..core.i18n import N_, _, condition_names, contract_name, ngettext, number_sign, pgettext, quote, \
    rank_after_contract, rank_name, reason, tariff_name, verdict
from ..core.tariff import MISDEAL, PASS, Tariff
from ..app.deals import Corrected, Entered, Walked
from ..store.records import Correction, Evening, Extension, Seating, Session
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text as RichText

from .term import Text
from .text import amount, balance, basket_word, chip_count, currency_sign, local_time, number, signed
from .widths import AtWidth, fitted, legend_lines, name_limits, packed, players_table, players_view, short_names, \
    new_table, widest, wrapped


def describe(session: Session, deal: Deal, boston: bool = True, dealer: int | None = None,
             number: int | None = None) -> str:
    """A deal in a few words: 'junior Boris 5 + Gleb 4, boston Vera'; 'junior Vera + Gleb: 9' (the pair's
    tricks together, as said); 'solo senior Anna 9'; the players are those who sat at the table at
    deal `number` (None: those who sit now). A misdeal names who dealt it (`dealer`, when known)
    and who deals next."""
    name = session.sitting(number)
    if deal.contract == MISDEAL:
        if dealer is None:
            return _("misdeal")
        if engine.redeals(session.tariff, deal):
            return _("misdeal by {name}, who deals again", name=name[dealer])
        return _("misdeal by {name}: {next} deals", name=name[dealer], next=name[(dealer + 1) % len(name)])
    if deal.contract == PASS:
        if deal.tricks_each is not None:
            counts = zip(name, deal.tricks_each, strict=True)  # each count with its word: a bare one reads as a score
            return _("misère partout: {tricks}", tricks=", ".join(ngettext("{name} {n}", "{name} {n}", t, name=who)
                                                                  for who, t in counts))
        return _("all pass") + turned(session, deal)
    assert deal.declarer is not None
    contract = session.tariff.contracts.get(deal.contract)
    rank = deal.rank  # the rank said, else where the contract has several the one the engine plays it at
    if rank is None and contract is not None and len(contract.ranks) > 1:
        rank = engine.rank_of(contract, deal)
    head = contract_name(session.tariff, deal.contract) + (
        f" {rank_after_contract(session.tariff, rank)}" if rank and rank != deal.contract else "")
    if deal.conceded:  # no trick counted
        who = name[deal.declarer] + (f" + {name[deal.partner]}" if deal.partner is not None else "")
    elif deal.partner is not None and deal.tricks is None:  # the pair's tricks together, as said
        who = _("{declarer} + {partner}: {tricks}", declarer=name[deal.declarer], partner=name[deal.partner],
                tricks=deal.team_tricks)
    elif deal.partner is not None:
        who = f"{name[deal.declarer]} {deal.tricks} + {name[deal.partner]} {engine.own_tricks(deal)[deal.partner]}"
    elif contract is not None and contract.with_partner is not None:  # a pair's contract played alone
        who = ngettext("{name} {n} alone", "{name} {n} alone", deal.tricks or 0, name=name[deal.declarer])
    else:  # the tricks said with their word: a bare number after a name reads as a score
        who = ngettext("{name} {n}", "{name} {n}", deal.tricks or 0, name=name[deal.declarer])
    if deal.conceded:
        if deal.partner is None and contract is not None and contract.with_partner is not None:
            who += " " + _("alone")
        who = _("{players}, \"I pay\"", players=who)
    holder = _(", boston {name}", name=name[deal.boston]) if boston and deal.boston is not None else ""
    honours = ngettext(", {n} honour", ", {n} honours", deal.honours) if deal.honours else ""
    jack = _(", diamond jack {name}", name=name[deal.jack]) if deal.jack is not None else ""
    return _("{contract} {players}", contract=head, players=who) + honours + holder + jack + turned(session, deal)


def turned(session: Session, deal: Deal) -> str:
    """', hearts turned' where the deal says the suit turned up (French Boston)."""
    return _(", {suit} turned", suit=rank_name(session.tariff, deal.turned)) if deal.turned is not None else ""


def result_word(outcome: Outcome, tariff: Tariff, contract: str) -> str:
    """Whether the deal's contract was made, agreeing with its name («мизер сыгран»); "—" unplayed."""
    return "—" if outcome.made is None else verdict(tariff, contract, outcome.made)


def with_result(said: str, outcome: Outcome, tariff: Tariff, contract: str) -> str:
    """A deal's words followed by whether its contract was made: 'junior Boris 5 + Gleb 4 — made'."""
    return said if outcome.made is None else _("{deal} — {result}", deal=said,
                                               result=result_word(outcome, tariff, contract))


MARK = "*"  # after the words of a deal whose entry a correction made; the legend under the deals says when and why


def marked(said: str, corrected: bool) -> str:
    """A deal's words (and its result) followed by the mark of a correction when one made it."""
    return f"{said} {MARK}" if corrected else said


def correction_note(c: Correction) -> str:
    """When and why a deal was corrected: 'deal 6 corrected on 2026-12-05 21:04: Eleanor had the jack'."""
    return _("deal {number} corrected on {when}: {reason}", number=c.number, when=local_time(c.corrected_at),
             reason=c.reason)


def correction_legend(corrected: Mapping[int, Correction], numbers: Iterable[int]) -> list[str]:
    """The legend under the deals shown (their `numbers`): a line for each corrected one, the mark first."""
    return [f"{MARK} {correction_note(corrected[n])}" for n in numbers if n in corrected]


def banners(tariff: Tariff, pos: Position, after: State, redealt: bool = False) -> list[str]:
    """What a table announces at this deal (at `pos`, leaving `after`): the double tours begin, a
    partie's tours are played and its basket is played for until won, a partie ends (not at a
    misdeal dealt again, which is no deal of the partie)."""
    out: list[str] = []
    if redealt or len(tariff.tours) <= 1:
        return out
    first_double = next((i for i, m in enumerate(tariff.tours) if m > 1), None)
    if first_double is not None and not pos.overtime and pos.deal == first_double * tariff.players + 1:
        out.append(_("★ The double tours begin: every payment between players is ×{multiplier} "
                     "until the partie ends.", multiplier=pos.multiplier))
    following = engine.position(tariff, after)
    if following.overtime and not pos.overtime:
        out.append(_("★ The tours of partie {partie} are played and its basket holds {chips}: it is played for "
                     "until won, in simple deals, or divided if the table settles.", partie=pos.partie,
                     chips=chip_count(after.basket)))
    elif following.partie != pos.partie:
        out.append(_("★ Partie {partie} ends with this deal; the next deal opens partie {next}.",
                     partie=pos.partie, next=pos.partie + 1))
    return out


def where(pos: Position, tours: Sequence[int]) -> str:
    """Partie and tour, and whether the tour is double (said only where some tour of the tariff's,
    `tours`, is); after the partie's tours, that its basket is played for until won."""
    if pos.overtime:
        return _("partie {partie} after its tours: the basket played for until won (simple deals)",
                 partie=pos.partie)
    if all(m == 1 for m in tours):
        return _("partie {partie}, tour {tour}", partie=pos.partie, tour=pos.tour)
    kind = _("double tour ×{multiplier}", multiplier=pos.multiplier) if pos.double else _("simple tour")
    return _("partie {partie}, tour {tour} ({kind})", partie=pos.partie, tour=pos.tour, kind=kind)


def net_by_reason(transfers: Iterable[Transfer], n: int) -> dict[str, list[int]]:
    """Per reason, the net change of each party (players, then the basket last)."""
    grouped: dict[str, list[Transfer]] = {}
    for t in transfers:
        grouped.setdefault(t.reason, []).append(t)
    return {r: moves(grouped[r], n) for r in sorted(grouped, key=lambda r: REASONS.index(r) if r in REASONS else 99)}


def deal_table(entered: Entered, named: bool = False) -> Group:
    """What moved and why in one deal, then everyone's balance (or, on points, what each has
    written); `named`: its heading names the evening (when others are open)."""
    session, number, pos, deal = entered.session, entered.number, entered.position, entered.deal
    outcome, after, points = entered.outcome, entered.after, entered.points
    n = len(session.players)
    place = " · " + where(pos, session.tariff.tours) if len(session.tariff.tours) > 1 else \
        " " + _("of {count}", count=session.agreed_deals) if session.agreed_deals else ""
    heading = Text((session_title(session) + " · " if named else "") + _("Deal {number}", number=number) + place
                   + " · " + _("dealer {name}", name=session.players[pos.dealer]) + "\n", style="bold")
    heading.append(with_result(describe(session, deal, dealer=pos.dealer, number=number), outcome, session.tariff,
                               deal.contract), style="not bold")
    moved = net_by_reason(outcome.transfers, n)

    def build(names: Sequence[str], boxed: bool, tight: bool) -> Table:
        made = new_table(boxed, tight)
        made.add_column("" if points is not None else _("why"), min_width=None if points is not None else why_word())
        for name in names:
            made.add_column(name, justify="right")
        if points is not None:
            made.add_row(_("this deal"), *map(signed, outcome.scores))
            made.add_row(Text(_("score"), style="bold"), *map(balance, points))
            return made
        made.add_column(basket_word(), justify="right", style="cyan")
        total = [0] * (n + 1)
        for key, row in moved.items():
            made.add_row(why(key, outcome.made, row, deal.declarer, session.tariff, deal.contract), *map(signed, row))
            total = [a + b for a, b in zip(total, row, strict=True)]
        made.add_section()
        made.add_row(_("this deal"), *map(signed, total))
        made.add_row(Text(_("balance"), style="bold"), *map(balance, [*after.balances, after.basket]))
        return made

    return Group(heading, players_view(build, session.players))


def standing_view(session: Session, values: Sequence[int], basket: int | None,
                  money: Sequence[int] | None) -> RenderableType:
    """balances_table with each player's money (in cents) as a row of it, or, where that row does
    not fit with the players' whole names, as lines below it; and, before a settlement, what that
    money counts."""
    def lay(width: int) -> list[RenderableType]:
        beside = None if money is None else players_table(
            lambda names, boxed, tight: _balances(session, names, values, basket, money, boxed, tight),
            session.players, width, shorten=False)
        view: list[RenderableType] = [beside[0]] if beside is not None else [balances_table(session, values, basket)]
        if money is not None and beside is None:
            view.append(money_line(session, money, width))
        note = money_note(session, basket)
        return [*view, note] if note else view

    return AtWidth(lay)


def money_note(session: Session, basket: int | None) -> str | None:
    """What the money beside the chips counts when the basket holds chips: settle shares them, and
    once settled, they were shared (the money counts each player's share)."""
    if not basket:
        return None
    if session.settled:
        return ngettext("Settled: the basket's {n} chip was shared equally, and the money counts each share.",
                        "Settled: the basket's {n} chips were shared equally, and the money counts each share.",
                        basket)
    return ngettext("Money as if settled now: the basket's {n} chip shared equally.",
                    "Money as if settled now: the basket's {n} chips shared equally.", basket)


def money_line(session: Session, money: Sequence[int], width: int) -> str:
    """Each player's money, 'money: Anna -1.80 EUR, Boris 0.40 EUR, ...', in lines of at most
    `width` cells, broken between players (rich would break inside 'Boris 0.40 EUR'); a player
    too wide for a line of his own has his name on one line and his money on the next."""
    head, _sep, tail = _("money: {amounts}", amounts="\0").partition("\0")
    last = len(session.players) - 1
    return "\n".join(packed([head.rstrip(), *(f"{name} {amount(c, session.currency)}" + ("," if i < last else tail)
                                             for i, (name, c) in enumerate(zip(session.players, money, strict=True)))],
                            width))


def balances_table(session: Session, values: Sequence[int], basket: int | None) -> AtWidth:
    """Each player's balance (or score), and the basket when the tariff has one, at the width it is
    drawn in."""
    return players_view(lambda names, boxed, tight: _balances(session, names, values, basket, None, boxed, tight),
                        session.players)


def _balances(session: Session, names: Sequence[str], values: Sequence[int], basket: int | None,
              money: Sequence[int] | None, boxed: bool, tight: bool) -> Table:
    """The balances (or scores) under `names`, and the basket's; with `money` (in cents), a row of
    each player's money beside them."""
    made = new_table(boxed, tight)
    if money is not None:
        made.add_column("")
    for name in names:
        made.add_column(name, justify="right")
    cells = list(values)
    if basket is not None:
        made.add_column(basket_word(), justify="right", style="cyan")
        cells.append(basket)
    if money is None:
        made.add_row(*map(balance, cells))
        return made
    made.add_row(_("chips") if session.tariff.has_basket else _("points"), *map(balance, cells))
    made.add_row(_("money") + (f" {currency_sign(session.currency)}" if session.currency else ""),
                 *(Text(amount(c, ""), style="green" if c > 0 else "red" if c < 0 else "") for c in money))
    return made


def session_title(session: Session | Evening) -> str:
    """A session as a heading names it: 'Session 1 “Friday”'."""
    name = session_name(session)
    return _("Session {id}", id=session.id) + (f" {quote(name)}" if name else "")


def session_label(session: Session | Evening) -> str:
    """A session as a line names it: 'session 1 “Friday”'."""
    name = session_name(session)
    return _("session {id}", id=session.id) + (f" {quote(name)}" if name else "")


def session_name(session: Session | Evening) -> str | None:
    """A session's name as shown: the demonstration's in the output's language."""
    return _("demo evening") if session.demo else session.name


def status_lines(session: Session, state: State) -> list[str]:
    pos = engine.position(session.tariff, state)
    t = session.tariff
    label = session_label(session)
    unit = _("chip") if t.has_basket else _("point")
    conditions = _(" with {conditions}", conditions=condition_names(t, t.applied)) if t.applied else ""
    lines = [
        f"{label}: {', '.join(session.players)} · " + _("tariff {name}", name=tariff_name(t)) + f"{conditions} · "
        f"{unit} {amount(session.chip_value, session.currency)}",
        ngettext("{n} deal played", "{n} deals played", state.played)
        + (" · " + _("settled") if session.settled else
           " · " + _("next: deal {number}", number=pos.number) + ", "
           + (f"{where(pos, t.tours)}, " if len(t.tours) > 1 else "")
           + _("dealer {name}", name=session.players[pos.dealer])),
    ]
    lines += coming(session, state)
    if not t.has_basket:
        lines.append(_("scores as written on the sheet:"))
    return lines


def coming(session: Session, state: State) -> list[str]:
    """What the table should know before the next deal: the stake it opens with, the agreed
    deals left."""
    if session.settled:
        return []
    t = session.tariff
    pos = engine.position(t, state)
    lines = []
    if engine.stake_due(t, state) and t.basket.stake:
        if t.basket.stake_payer == "each":
            lines.append(_("the next deal opens with a stake of {stake} from each player",
                           stake=chip_count(engine.stake(t, pos))))
        else:
            lines.append(_("the next deal opens with a stake of {stake} from the dealer, {name}",
                           stake=chip_count(engine.stake(t, pos)),
                           name=session.players[pos.dealer]))
    pools = t.basket.pools(state.basket)
    if len(pools) > 1:
        lines.append(ngettext("{n} pool on the table: {pools}", "{n} pools on the table: {pools}",
                              len(pools), pools=" + ".join(map(str, pools)))
                     + _("; a made contract takes the first, a failed declarer doubles the first"))
    left = agreed_left(session, state)
    return lines + ([left] if left else [])


def agreed_left(session: Session, state: State) -> str:
    """How many of the agreed deals remain ("" when the evening has no agreed number)."""
    if session.agreed_deals is None:
        return ""
    left = session.agreed_deals - engine.agreed_played(state)
    if left <= 0 and not engine.over(session.tariff, state, session.agreed_deals):
        return ngettext("the {n} agreed deal is played; the pool of {pool} is played for until won, or settle to "
                        "divide it", "all {n} agreed deals are played; the pool of {pool} is played for until won, "
                        "or settle to divide it", session.agreed_deals, pool=chip_count(state.basket))
    return ngettext("{left} of the {n} agreed deal left", "{left} of the {n} agreed deals left",
                    session.agreed_deals, left=left) if left > 0 else \
        ngettext("the {n} agreed deal is played; settle the session",
                 "all {n} agreed deals are played; settle the session", session.agreed_deals)


def extension_words(deals: int, after: int, total: int) -> str:
    """More deals agreed, in words: '4 more deals agreed after deal 12: the session lasts 16 deals'."""
    lasts = ngettext("the session lasts {n} deal", "the session lasts {n} deals", total)
    if not after:
        return ngettext("{n} more deal agreed before the first: {lasts}", "{n} more deals agreed before the first: "
                        "{lasts}", deals, lasts=lasts)
    return ngettext("{n} more deal agreed after deal {after}: {lasts}", "{n} more deals agreed after deal {after}: "
                    "{lasts}", deals, after=after, lasts=lasts)


def next_lines(session: Session, state: State) -> list[str]:
    """What comes after a deal: who deals the next one, or that the agreed deals are played."""
    if session.agreed_deals is not None and engine.over(session.tariff, state, session.agreed_deals):
        return [ngettext("That was the last of the {n} agreed deal: `boston-ledger settle`.",
                         "That was the last of the {n} agreed deals: `boston-ledger settle`.", session.agreed_deals)]
    pos = engine.position(session.tariff, state)
    return [_("Next: deal {number}, dealt by {name}.", number=pos.number, name=session.players[pos.dealer])]


EVERYDAY = ("stake", "all-pass", "consolation", "overtricks", "undertricks", "basket", "labet", "boston")


def why_word() -> int:
    """The cells of the longest word of the reasons of an everyday deal, so that every deal's table
    of an evening has the same look at one width (a rarer reason may make its own wider)."""
    labels = [*map(reason, EVERYDAY), _("this deal"), _("balance")]
    return max(cell_len(word) for label in labels for word in label.split())


def why(key: str, made: bool | None, moved: Sequence[int], declarer: int | None, tariff: Tariff | None = None,
        contract: str = "") -> str:
    """What a deal's transfers of one reason were for, in words, as they moved (`moved`: each
    party's net change by that reason): a boston that the failed declarer alone pays says so; the
    base payment is the consolation of a purchase only (the seeds' word), else «за игру», «за мизер»."""
    if key == "boston" and made is False and declarer is not None and moved[declarer] < 0 and \
            all(m >= 0 for party, m in enumerate(moved) if party != declarer):
        return _("boston: paid by the declarer, who failed")
    played = tariff.contracts.get(contract) if tariff is not None else None
    if key == "consolation" and played is not None and played.with_partner is None and played.alone is not None:
        if played.alone.kind == "null" and played.alone.takes == 0:
            return pgettext("the base payment of a misère", "consolation")
        return pgettext("the base payment of a contract not purchased", "consolation")
    return reason(key)


def history_view(session: Session, rows: Sequence[Walked], corrected: Collection[int] = (),
                 extensions: Sequence[Extension] = ()) -> AtWidth:
    """The evening as on the score sheet («пуля»), at the width it is drawn in: a line per deal,
    what was played, and for each player and the basket the change and where it then stands
    ("+36 → 16"); each tour opens with its heading, double tours marked. A deal whose number is
    in `corrected` has the mark of a correction after its words (`correction_legend` goes below);
    more deals agreed (`extensions`) and the changes of the table are a line where they were made.

    When a line of every column does not fit, the dealer's column goes first (the dealer turns
    round the table; `status` and each deal's heading name him), then the boston's (the deal's
    words name him then), then the change and the standing are put one above the other; when a
    deal's words still do not fit on its line, they have a line of their own (score_lines)."""
    agreed = between(session, rows, extensions)

    def lay(width: int) -> list[RenderableType]:
        for dealer, holder, stacked in ((True, True, False), (False, True, False), (False, False, False),
                                        (False, False, True)):  # the lines of more deals agreed wrap
            measured = _history(session, rows, {}, dealer, holder, stacked, corrected)
            if widest(measured) <= width:
                return [_history(session, rows, agreed, dealer, holder, stacked, corrected) if agreed else measured]
        return list(score_lines(session, rows, width, corrected=corrected, agreed=agreed).lines)

    return AtWidth(lay)


def before(session: Session, seating: Seating) -> tuple[int, int]:
    """Who sat in the seat and whose money it played just before this change (people of the
    session by the order they joined)."""
    sitter = account = seating.seat
    for earlier in session.seatings:
        if earlier.id == seating.id:
            break
        if earlier.seat == seating.seat:
            sitter, account = earlier.sitter, earlier.account
    return sitter, account


def change_words(session: Session, seating: Seating) -> str:
    """A change in words: 'seat 4 from deal 10: Dasha for Gleb, a substitute (money: Gleb)';
    'seat 4 from deal 10: Dasha for Gleb, on own money'."""
    out, account = before(session, seating)
    names = session.people
    if seating.account == account:
        return _("seat {seat} from deal {number}: {name} for {out}, a substitute (money: {account})",
                 seat=seating.seat + 1, number=seating.from_deal, name=names[seating.sitter], out=names[out],
                 account=names[account])
    return _("seat {seat} from deal {number}: {name} for {out}, on own money", seat=seating.seat + 1,
             number=seating.from_deal, name=names[seating.sitter], out=names[out])


def between(session: Session, rows: Sequence[Walked], extensions: Sequence[Extension]) -> dict[int, list[str]]:
    """The lines between deals on a score sheet, by the number of the shown deal they follow (0:
    before the first): more deals agreed, and the changes of the table."""
    out = extended(rows, extensions)
    for after, lines in reseated(session, rows).items():
        out.setdefault(after, []).extend(lines)
    return out


def reseated(session: Session, rows: Sequence[Walked]) -> dict[int, list[str]]:
    """The lines of the changes of the table, by the number of the shown deal they follow (0:
    before the first): each where it was made, before the first deal it holds for."""
    shown = {w.recorded.number for w in rows}
    out: dict[int, list[str]] = {}
    for seating in session.seatings:
        after = seating.from_deal - 1
        if after in shown or (after == 0 and (1 in shown or not shown)):
            out.setdefault(after, []).append(change_words(session, seating))
    return out


def extended(rows: Sequence[Walked], extensions: Sequence[Extension]) -> dict[int, list[str]]:
    """The lines of more deals agreed, by the number of the shown deal they follow (0: before the
    first): each after the last shown deal it came after (a deal taken back since, the one
    before), none before the deals shown."""
    shown = [w.recorded.number for w in rows]
    out: dict[int, list[str]] = {}
    for e in extensions:
        before = [n for n in shown if n <= e.after_deal]
        if before or not shown or shown[0] == 1:
            out.setdefault(before[-1] if before else 0, []).append(
                ngettext("+{n} deal agreed: {total} in all", "+{n} deals agreed: {total} in all", e.deals,
                         total=e.agreed))
    return out


def played(session: Session, w: Walked, boston: bool = True, corrected: Collection[int] = ()) -> str:
    """What a deal was and its result; with `boston`, who held the boston; the mark of a correction
    when one made it (its number in `corrected`)."""
    return marked(with_result(describe(session, w.recorded.deal, boston=boston, dealer=w.position.dealer,
                                       number=w.recorded.number), w.outcome, session.tariff,
                              w.recorded.deal.contract),
                  w.recorded.number in corrected)


class ScoreLines(NamedTuple):
    lines: list[Text]
    names: tuple[str, ...]  # the players' names as they head the columns (short_names)


def score_lines(session: Session, rows: Sequence[Walked], width: int, changes: bool = True,
                spread: bool = False, corrected: Collection[int] = (),
                agreed: Mapping[int, Sequence[str]] | None = None) -> ScoreLines:
    """The evening as the score sheet writes it, `width` cells wide: each deal's number and words
    on a line (broken between words), then under each player's name, and the basket's, where the
    deal left him; with `changes`, its change too, beside ('+16 → 16') or, where that is too wide,
    above. A rule names each tour. The names head their columns whole, else broken between their
    words, else shortened (short_names), their legend first; with `spread`, the columns share the
    whole width. A corrected deal is marked (`corrected`, as history_view); the lines of more deals
    agreed (`agreed`, extended) follow the deal they were agreed after."""
    has_basket = session.tariff.has_basket
    heads = [*session.players, *([basket_word()] if has_basket else [])]
    moved = [steps(session, w) for w in rows]

    def cells(stacked: bool) -> list[list[list[RichText]]]:  # per deal, per column, its lines
        if not changes:
            return [[[Text(number(level))] for __, level in row] for row in moved]
        if stacked:
            return [[[signed(change), balance(level)] for change, level in row] for row in moved]
        return [[[Text.assemble(signed(change), " → ", balance(level))] for change, level in row] for row in moved]

    tries: list[tuple[tuple[str, ...], bool, bool]] = []  # (names shown, broken between words, stacked)
    for stacked in (False, True) if changes else (False,):
        tries += [(tuple(session.players), False, stacked), (tuple(session.players), True, stacked)]
    tries += [(short_names(session.players, cells), False, stacked) for cells in name_limits(session.players)
              for stacked in ((False, True) if changes else (False,))]
    n = len(heads)
    gap = 1 if spread else 2  # between two columns
    for shown, broken, stacked in tries:
        grid = cells(stacked)
        names = [*shown, *heads[len(shown):]]
        columns = [max([t.cell_len for row in grid for t in row[j]]
                       + [max(map(cell_len, name.split())) if broken else cell_len(name)])
                   for j, name in enumerate(map(visible, names))]
        if spread and sum(wide := [max(c, width // n - gap) for c in columns]) + (n - 1) * gap <= width:
            columns = wide
        if sum(columns) + (n - 1) * gap <= width:
            break
    else:  # narrower than the narrowest columns: each number after its name, on the deal's lines
        grid = cells(stacked=False)
    fits = sum(columns) + (n - 1) * gap <= width
    lead = 3 if not spread and sum(columns) + (n - 1) * gap + 3 <= width else 0  # under the deal's words
    lines = [Text(line) for line in legend_lines(session.players, shown, width)]
    parts = [packed(name.split(), column) if broken else [name] for name, column in zip(names, columns, strict=True)]
    depth = max(map(len, parts)) if fits else 0
    for i in range(depth):
        lines.append(_row([Text(p[i - depth + len(p)]) if i >= depth - len(p) else Text() for p in parts], columns,
                          gap, lead))
    more = agreed or {}
    lines += [Text(line, style="italic") for said in more.get(0, ()) for line in wrapped(said, width)]
    for w, tour, row in zip(rows, tour_heading(session, rows), grid, strict=True):
        if tour is not None:
            rule, style = f"── {tour} ", "bold yellow" if w.position.double else "bold"
            said = [rule + "─" * (width - cell_len(visible(rule)))] if cell_len(visible(rule)) <= width else \
                wrapped(rule, width, "   ")
            lines += [Text(line, style=style) for line in said]
        lines += [Text(line) for line in wrapped(f"{w.recorded.number}. {played(session, w, corrected=corrected)}",
                                                 width, " " * (len(str(w.recorded.number)) + 2))]
        if fits:
            lines += [_row([cell[i] for cell in row], columns, gap, lead) for i in range(len(row[0]))]
        else:
            lines += [Text(line) for line in packed([f"{name}\u00a0{cell[0].plain}".replace(" ", "\u00a0")
                                                     for name, cell in zip(names, row, strict=True)],
                                                    width, "; ", "   ")]
        lines += [Text(line, style="italic") for said in more.get(w.recorded.number, ())
                  for line in wrapped(said, width)]
    return ScoreLines(lines, shown)


def _row(cells: Sequence[RichText], columns: Sequence[int], gap: int, lead: int = 0) -> Text:
    """Cells right-aligned in columns of `columns` cells, `gap` cells between two, after `lead`."""
    line = Text()
    for i, (cell, column) in enumerate(zip(cells, columns, strict=True)):
        line.append(" " * (column - cell.cell_len + (gap * (i > 0) or lead)))
        line.append(cell)
    line.rstrip()
    return line


def steps(session: Session, w: Walked) -> list[tuple[int, int]]:
    """What one deal changed and where it left each player, then the basket when the tariff has
    one: (change, standing) pairs, as the score sheet writes them."""
    n = len(session.players)
    if not session.tariff.has_basket:
        return list(zip(w.outcome.scores, w.standing, strict=True))
    change = moves(w.outcome.transfers, n)
    return [*zip(change[:n], w.standing, strict=True), (change[n], w.after.basket)]


def tour_heading(session: Session, rows: Sequence[Walked]) -> list[str | None]:
    """Per row, the heading of the tour it opens (the first row always opens one), else None;
    all None when the tariff has no tours (a points sheet)."""
    if len(session.tariff.tours) <= 1:
        return [None] * len(rows)
    out: list[str | None] = []
    last = None
    for w in rows:
        here = (w.position.partie, 0 if w.position.overtime else w.position.tour)  # after the tours: one heading
        out.append(where(w.position, session.tariff.tours) if here != last else None)
        last = here
    return out


def _history(session: Session, rows: Sequence[Walked], agreed: dict[int, list[str]], dealer: bool, holder: bool,
             stacked: bool, corrected: Collection[int] = ()) -> Table:
    t = session.tariff
    holder = holder and t.boston > 0
    table = new_table(boxed=False)
    columns = ["#"] + ([N_("dealer")] if dealer else []) + [N_("deal")] + ([N_("boston")] if holder else [])
    for col in columns:
        table.add_column(_(col) if col != "#" else number_sign(), justify="right" if col == "#" else "left",
                         no_wrap=col != "deal")
    for name in session.players:
        table.add_column(name, justify="right", no_wrap=True)
    if t.has_basket:
        table.add_column(basket_word(), justify="right", style="cyan", no_wrap=True)
    blank = [""] * (len(columns) + len(session.players) + t.has_basket)
    at = columns.index(N_("deal"))

    def agreed_after(number: int) -> None:
        for words in agreed.get(number, ()):
            cells: list[str | Text] = list(blank)
            cells[at] = Text(words, style="italic")
            table.add_row(*cells)

    agreed_after(0)
    for w, heading in zip(rows, tour_heading(session, rows), strict=True):
        if heading is not None:
            if table.rows:
                table.add_section()
            cells: list[str | Text] = list(blank)
            cells[at] = Text(heading, style="bold yellow" if w.position.double else "bold")
            table.add_row(*cells)
        deal, pos = w.recorded.deal, w.position
        row = [str(w.recorded.number)]
        sat = session.sitting(w.recorded.number)
        row += [sat[pos.dealer]] if dealer else []
        row.append(played(session, w, boston=not holder, corrected=corrected))
        if holder:
            row.append("" if deal.boston is None else sat[deal.boston])
        table.add_row(*row, *(Text.assemble(signed(change), "\n" if stacked else " → ", balance(level))
                              for change, level in steps(session, w)))
        agreed_after(w.recorded.number)
    return table


def changes(session: Session, before: Sequence[int], after: Sequence[int],
            baskets: tuple[int, int]) -> list[tuple[str, list[int]]]:
    """The rows of a change: each person's chips (on points, each score; session.present's order),
    and the basket where there is one, before and after, and the change between them."""
    basket = session.tariff.has_basket
    was, now = [*before, *([baskets[0]] if basket else [])], [*after, *([baskets[1]] if basket else [])]
    return [(_("before"), was), (_("after"), now), (_("change"), [a - b for a, b in zip(now, was, strict=True)])]


def change_table(session: Session, before: Sequence[int], after: Sequence[int],
                 baskets: tuple[int, int]) -> AtWidth:
    """How each person's chips (on points, each score) and the basket changed."""
    def build(names: Sequence[str], boxed: bool, tight: bool) -> Table:
        made = new_table(boxed, tight)
        made.add_column("")
        for col in (*names, *([basket_word()] if session.tariff.has_basket else [])):
            made.add_column(col, justify="right")
        for (label, values), shown in zip(changes(session, before, after, baskets), (balance, balance, signed),
                                          strict=True):
            made.add_row(label, *map(shown, values))
        return made

    return players_view(build, [session.people[p] for p in session.present])


def correction_words(c: Corrected) -> str:
    """A correction in words: 'Deal 4: junior Anna 5 + Boris 4 → junior Anna 6 + Boris 4'."""
    return _("Deal {number}: {was} → {now}", number=c.number,
             was=describe(c.session, c.was, dealer=c.dealer, number=c.number),
             now=describe(c.session, c.now, dealer=c.dealer, number=c.number))


def correction_view(c: Corrected) -> Group:
    """A correction before it is recorded: the deal before and after, and what it changes for each
    player (and the basket) by the end of the session."""
    return Group(correction_words(c), change_table(c.session, c.before, c.after, c.basket))


def corrections_table(session: Session, audit: Sequence[Correction]) -> AtWidth:
    """The audit of corrections: when, which deal, why, what it was and is."""
    table = Table()
    for col in (_("when"), _("deal"), _("reason"), _("was"), pgettext("a corrected deal", "now")):
        table.add_column(col)
    for c in audit:
        table.add_row(local_time(c.corrected_at), str(c.number), c.reason,
                      describe(session, c.was, number=c.number), describe(session, c.now, number=c.number))
    return fitted(table)
