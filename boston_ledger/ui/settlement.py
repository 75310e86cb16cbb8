"""How money looks: a settlement and its payments, the accounts between evenings."""

from __future__ import annotations

from ..app.money import Since, Toward
from ..core.i18n import _, ngettext
from ..core.settlement import Payment, Settled
from ..store.records import Session
from rich.table import Table

from .term import Text
from .text import amount, local_time
from .widths import AtWidth, fitted
from .text import chips as chips_text


def settlement_heading(session: Session) -> str:
    worth = amount(session.chip_value, session.currency)
    if session.tariff.has_basket:
        return _("Settlement of session {id} (one chip = {value})", id=session.id, value=worth)
    return _("Settlement of session {id} (one point = {value})", id=session.id, value=worth)


def settlement_table(session: Session, settled: Settled) -> AtWidth:
    """Each player's net chips and money, at the width it is drawn in (widths.fitted: no name cut)."""
    table = Table()
    table.add_column(_("player"))
    table.add_column(_("net chips") if session.tariff.has_basket else _("net points"), justify="right")
    table.add_column(_("money"), justify="right")
    for name, chips, cents in zip(settled.players, settled.net_chips, settled.cents, strict=True):
        style = "green" if cents > 0 else "red" if cents < 0 else ""
        table.add_row(name, chips_text(chips), Text(amount(cents, session.currency), style=style))
    return fitted(table)


def payment_lines(names: tuple[str, ...], payments: tuple[Payment, ...], currency: str) -> list[str]:
    """Who pays whom how much, a line each."""
    if not payments:
        return [_("nobody owes anybody anything")]
    return [_("{payer} pays {payee} {amount}", payer=names[p.payer], payee=names[p.payee],
              amount=amount(p.cents, currency)) for p in payments]


def toward_line(t: Toward) -> str:
    """A payment counted toward an evening: 'Vera paid Boris 1.00 EUR on 2026-11-27 19:30
    (payment 1)'; the part of it, when only a part was counted."""
    p = t.payment
    if t.cents == p.cents:
        return _("{payer} paid {payee} {amount} on {when} (payment {id})", payer=p.payer, payee=p.payee,
                 amount=amount(t.cents, p.currency), when=local_time(p.paid_at), id=p.id)
    return _("{payer} paid {payee} {amount} of {total} on {when} (payment {id})", payer=p.payer, payee=p.payee,
             amount=amount(t.cents, p.currency), total=amount(p.cents, p.currency), when=local_time(p.paid_at),
             id=p.id)


def since_parts(settled: Settled, paid: Since) -> tuple[list[str], list[str]]:
    """What was paid toward a settlement since, and who still pays whom: a line each."""
    return [toward_line(t) for t in paid.paid], payment_lines(settled.players, paid.owed, settled.currency)


def since_lines(settled: Settled, paid: Since | None) -> list[str]:
    """Under a settlement, when payments were recorded toward it: 'Paid since the settlement:'
    and each, then 'Still owed:' and who pays whom now."""
    if paid is None:
        return []
    made, owed = since_parts(settled, paid)
    return [_("Paid since the settlement:"), *("  " + line for line in made),
            _("Still owed:"), *("  " + line for line in owed)]


def basket_share(settled: Settled) -> str | None:
    """Where the basket went at a settlement, when it held chips: each player's chips count his share."""
    return ngettext("The basket's {n} chip is shared equally.", "The basket's {n} chips are shared equally.",
                    settled.basket) if settled.basket else None


def settlement_lines(session: Session, settled: Settled, paid: Since | None = None) -> list[str | AtWidth]:
    """A settlement as `settle` shows it: the basket's share-out, the heading, each player's
    chips and money, who pays whom; then what was paid since and what is still owed (`paid`)."""
    share = basket_share(settled)
    lines: list[str | AtWidth] = [share] if share else []
    lines += [settlement_heading(session), settlement_table(session, settled)]
    return lines + payment_lines(settled.players, settled.payments, session.currency) + since_lines(settled, paid)


def earlier_line(when: str, settled: Settled) -> str:
    """A reopened session's earlier settlement, as it stays on record."""
    return _("Settled before, on {when}, and reopened: {money}", when=local_time(when),
             money=", ".join(f"{n} {amount(c, settled.currency)}"
                             for n, c in zip(settled.players, settled.cents, strict=True)))
