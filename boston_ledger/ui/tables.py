"""How the ledger's overviews look: the sessions, the statistics, a rescoring, the accounts."""

from __future__ import annotations

from collections.abc import Sequence

from ..app.money import Book, Doubt
from ..app.rescore import Rescored
from ..app.sessions import Listed
from ..app.stats import Stats
from ..core.i18n import N_, NP_, _, condition_names, contract_name, ngettext, pgettext, \
    tariff_name
from ..core.tariff import Tariff
from ..store.merge import Brought
from ..store.records import PaymentRecord
from rich.table import Table
from .deals import session_name
from .text import amount, balance, basket_word, currency_sign, local_time, signed
from .widths import AtWidth, fitted, new_table


def _plain() -> Table:
    return new_table(boxed=False)


def sessions_table(rows: Sequence[Listed]) -> AtWidth:
    """The sessions, a row each, at the width they are drawn in (widths.fitted)."""
    table = _plain()
    for col in (N_("id"), N_("name"), N_("date"), N_("players"), N_("tariff"), N_("deals"), N_("state"),
                N_("result")):
        table.add_column(_(col), justify="right" if col in ("id", "deals") else "left",
                         no_wrap=col in ("id", "name", "date", "deals", "state"))
    for r in rows:
        s = r.session
        result = ", ".join(_last_word_with(n, amount(c, s.currency))  # a player's money on his name's line
                           for n, c in zip(r.settled.players, r.settled.cents, strict=True)) \
            if r.settled else ""
        table.add_row(("* " if r.current else "") + str(s.id), session_name(s) or "", local_time(s.created_at)[:10],
                      ", ".join(s.players), tariff_name(s.tariff), str(r.deals),
                      _("settled") if s.settled else _("open"), result)
    return fitted(table)


def _last_word_with(name: str, money: str) -> str:
    """A name and its money, no line broken between the name's last word and the money
    ('Margaret Thompson\u00a00.50\u00a0USD'): a line breaks between players, or inside a long name."""
    return f"{name} {money}".replace(" ", "\u00a0").replace("\u00a0", " ", name.count(" "))


def stats_tables(data: Stats) -> list[AtWidth | str]:
    """The players' figures; their money, a table per currency (the net over the settled sessions,
    the best and worst deal: never chips of different values added up or compared); the
    contracts each declared (each named in the words of the tariff it was first declared under),
    and the best and worst partnerships."""
    table = _plain()
    for col in (N_("player"), N_("sessions"), N_("deals"), N_("declared"), NP_("contracts", "made"), N_("rate")):
        table.add_column(pgettext("contracts", col) if col == "made" else _(col),
                         justify="left" if col == "player" else "right", no_wrap=True)
    for name, e in data.players.items():
        rate = "" if e.success_rate is None else f"{e.success_rate:.0%}"
        table.add_row(name, str(e.sessions), str(e.deals), str(e.declared_total), str(e.made_total), rate)
    out: list[AtWidth | str] = [fitted(table)]
    codes = dict.fromkeys(code for e in data.players.values()
                          for code in (*e.money, *e.biggest_win, *e.biggest_loss))
    for code in codes:
        money = _plain()
        money.title = _("In {currency}", currency=currency_sign(code)) if code else _("Money")
        money.title_justify = "left"
        for col in (N_("player"), N_("net"), N_("best"), N_("worst")):
            money.add_column(_(col), justify="left" if col == "player" else "right", no_wrap=True)
        for name, e in data.players.items():
            win, loss = e.biggest_win.get(code), e.biggest_loss.get(code)
            if code in e.money or win or loss:
                money.add_row(name, amount(e.money[code], "") if code in e.money else "",
                              "" if win is None else "+" + amount(win.money, ""),
                              "" if loss is None else amount(loss.money, ""))
        out.append(fitted(money))
    named = {key: contract_name(t, key) for key, t in data.named_by.items()}
    kinds = Table(title=_("contracts declared (made)"), title_justify="left")
    kinds.add_column(_("player"))
    kinds.add_column(_("contracts"))
    for name, e in data.players.items():
        kinds.add_row(name, ", ".join(f"{named.get(k, k)} {v.declared} ({v.made})" for k, v in e.declared.items()))
    out += [fitted(kinds), covered(data)]
    for label, p in (("best", data.best), ("worst", data.worst)):
        if p:
            values = {"names": _(" & ").join(p.players), "made": p.made, "deals": p.deals, "rate": p.success_rate}
            out.append(_("most successful partnership: {names}, {made} of {deals} made ({rate:.0%})", **values)
                       if label == "best" else
                       _("least successful partnership: {names}, {made} of {deals} made ({rate:.0%})", **values))
    if data.partnerships:
        out.append(ngettext("(partnerships are ranked from {n} deal together)",
                            "(partnerships are ranked from {n} deals together)", data.min_deals) if data.best else
                   ngettext("no partnership has played {n} deal together yet, the least to rank it",
                            "no partnership has played {n} deals together yet, the least to rank it", data.min_deals))
    return out


def covered(data: Stats) -> str:
    """Which sessions the net (money, per currency) covers: the settled ones; the best and worst
    deals are money too (chips at their session's value)."""
    line = ngettext("net: the money of {n} settled session", "net: the money of {n} settled sessions",
                    data.settled)
    if data.unsettled:
        line += "; " + ngettext("{n} session not settled counts in the deals and contracts only",
                                "{n} sessions not settled count in the deals and contracts only", data.unsettled)
    return line


def rescore_table(r: Rescored) -> AtWidth:
    t, session = r.tariff, r.session
    table = Table(title=_("Session {id} under {tariff}", id=session.id, tariff=tariff_name(t))
                  + (_(" with {conditions}", conditions=condition_names(t, t.applied)) if t.applied else "")
                  + _(" instead of {tariff}", tariff=tariff_name(session.tariff)), title_justify="left")
    for col in ("", _("recorded"), _("rescored"), _("difference")):
        table.add_column(col, justify="right" if col else "left")
    for name, a, b in zip(session.players, r.recorded.balances, r.rescored.balances, strict=True):
        table.add_row(name, balance(a), balance(b), signed(b - a))
    table.add_row(basket_word(), str(r.recorded.basket), str(r.rescored.basket),
                  signed(r.rescored.basket - r.recorded.basket))
    return fitted(table)


def payments_table(found: Sequence[PaymentRecord]) -> AtWidth | str:
    """The payments recorded with `paid`, cancelled ones marked."""
    if not found:
        return _("No payment recorded yet; `boston-ledger paid FROM TO AMOUNT` records one.")
    table = _plain()
    for col in (N_("id"), N_("date"), N_("from"), N_("to"), N_("amount"), N_("state")):
        table.add_column(_(col), justify="right" if col in ("id", "amount") else "left", no_wrap=col == "id")
    for p in found:
        state = _("cancelled {when}", when=local_time(p.cancelled_at)) if p.cancelled_at else ""
        table.add_row(str(p.id), local_time(p.paid_at), p.payer, p.payee, amount(p.cents, p.currency), state,
                      style="dim" if p.cancelled_at else None)
    return fitted(table)


def imports_table(found: Sequence[Brought]) -> AtWidth | str:
    """The imports of the ledger: id, when, from where, what they brought, undone ones marked."""
    if not found:
        return _("No import yet; `boston-ledger import OTHER.db` brings another ledger's evenings.")
    table = _plain()
    for col in (N_("id"), N_("date"), N_("file"), N_("evenings"), N_("payments"), N_("joined"), N_("state")):
        table.add_column(_(col), justify="right" if col in ("id", "payments") else "left", no_wrap=col == "id")
    for b in found:
        state = _("undone {when}", when=local_time(b.undone_at)) if b.undone_at else ""
        table.add_row(str(b.id), local_time(b.imported_at), b.source, ", ".join(map(str, b.sessions)),
                      str(len(b.payments)), ", ".join(f"{a}={c}" for a, c in b.aliases), state,
                      style="dim" if b.undone_at else None)
    return fitted(table)


def tariffs_table(found: Sequence[Tariff]) -> AtWidth:
    """The shipped tariffs: name, title, source, conditions."""
    table = _plain()
    for col in (N_("name"), N_("title"), N_("source"), N_("conditions")):
        table.add_column(_(col), no_wrap=col == "name")
    for t in found:
        table.add_row(t.name, _(t.title), _(t.source), condition_names(t, t.conditions))
    return fitted(table)


def doubt_line(d: Doubt) -> str:
    """Why a payment looks mistaken, in words."""
    p = d.paid
    if d.again is not None:
        return _("{payer} paid {payee} {amount} already, at {when} (payment {id})", payer=p.payer, payee=p.payee,
                 amount=amount(p.cents, p.currency), when=local_time(d.again.paid_at), id=d.again.id)
    return _("by the ledger {payer} owes {owes} and {payee} is owed {owed}, so {amount} would turn a debt around",
             payer=p.payer, payee=p.payee, owes=amount(d.owes, p.currency), owed=amount(d.owed, p.currency),
             amount=amount(p.cents, p.currency))


def book_lines(found: Sequence[Book]) -> list[str]:
    """What each person owes or is owed per currency, less the payments made (how many it
    counts), and the payments that clear what is still owed."""
    if not found:
        return [_("No settled session yet: nobody owes anybody anything.")]
    lines = []
    for b in found:
        code = b.currency
        heading = _("In {currency}", currency=currency_sign(code)) if code else _("Money")
        if b.paid:
            heading = ngettext("{heading}, less {n} payment made", "{heading}, less {n} payments made", b.paid,
                               heading=heading)
        lines.append(heading + ": " + ", ".join(f"{n} {amount(c, '')}" for n, c in zip(b.names, b.cents, strict=True)))
        lines += ["  " + _("{payer} pays {payee} {amount}", payer=b.names[p.payer], payee=b.names[p.payee],
                           amount=amount(p.cents, code)) for p in b.payments] or ["  " + _("all square")]
    return lines
