"""What `boston-ledger import` says: what came in (or would), what was already here, and every
conflict with both of its versions."""

from __future__ import annotations

from collections.abc import Sequence

from ..app.imports import Done, Side
from ..core.i18n import N_, _, ngettext
from .text import amount, local_time


def _evening_line(players: Sequence[str], deals: int, settled: bool) -> str:
    state = _("settled") if settled else _("open")
    return ngettext("{names}, {n} deal, {state}", "{names}, {n} deals, {state}", deals, names=", ".join(players),
                    state=state)


def _side(side: Side) -> str:
    e = side.evening
    last = _(", the last entered {when}", when=local_time(e.last_at)) if e.last_at else ""
    balances = ", ".join(f"{name} {chips:+d}" for name, chips in zip(e.players, side.balances, strict=False))
    return _evening_line(e.players, e.deals, e.settled) + last + _("; balances {balances}, basket {basket}",
                                                                    balances=balances, basket=side.basket)


def lines(done: Done, dry_run: bool) -> list[str]:
    """The import, line by line."""
    plan = done.plan
    out = [_("From {path}, an import would bring:", path=plan.source) if dry_run
           else _("From {path}:", path=plan.source)]
    made = dict(zip((e.id for e in plan.evenings), done.sessions, strict=False))
    continues = dict(plan.continues)
    for e in plan.evenings:
        line = _("session {id} there: {evening}", id=e.id, evening=_evening_line(e.players, e.deals, e.settled))
        if e.id in made:
            line += _(" → session {id} here", id=made[e.id])
        if e.id in continues:
            line += _(", continuing session {id} here (which stays on record, no longer counted)",
                      id=continues[e.id])
        out.append("  " + line)
    if plan.payments:
        out.append("  " + ngettext("{n} payment", "{n} payments", len(plan.payments)) + ": " + "; ".join(
            f"{p.payer} → {p.payee} {amount(p.cents, p.currency)}" for p in plan.payments))
    for there, here in plan.renamed if plan.evenings or plan.payments else ():  # of what comes in
        out.append(_("{there!r} is written {here!r} here.", there=there, here=here))
    if plan.already:
        out.append(ngettext("{n} evening is here already, as it is there.",
                            "{n} evenings are here already, as they are there.", plan.already))
    if plan.behind:
        out.append(ngettext("{n} evening is here already, and continued here since.",
                            "{n} evenings are here already, and continued here since.", plan.behind))
    if plan.payments_here:
        out.append(ngettext("{n} payment is here already.", "{n} payments are here already.", plan.payments_here))
    for c in plan.conflicts:
        where = (_("they part at deal {number}", number=c.parts_at) if c.parts_at is not None
                 else _("their {tables} differ", tables=", ".join(dict.fromkeys(_(WHAT.get(t, t)) for t in c.differs))))
        out.append(_("Conflict, left out: session {here} here and session {there} there are one evening, changed "
                     "on both sides ({where}):", here=c.here.evening.id, there=c.there.evening.id, where=where))
        out.append("  " + _("here:  {side}", side=_side(c.here)))
        out.append("  " + _("there: {side}", side=_side(c.there)))
    for r in plan.refused:
        out.append(_("Refused, left out: session {id} there ({names}) does not replay as stored: {problem}",
                     id=r.there.id, names=", ".join(r.there.players), problem=r.problem))
    for p in plan.payment_conflicts:
        out.append(_("Conflict, left out: the payment {payer} → {payee} {amount} of {when} was cancelled there; "
                     "here it stands.", payer=p.payer, payee=p.payee, amount=amount(p.cents, p.currency),
                     when=local_time(p.paid_at)))
    if dry_run:
        out.append(_("Nothing recorded (--dry-run)."))
    elif done.import_id is None:
        out.append(_("Nothing new to import."))
    else:
        out.append(ngettext("Import {id} recorded: {n} evening", "Import {id} recorded: {n} evenings",
                            len(done.sessions), id=done.import_id)
                   + ngettext(", {n} payment.", ", {n} payments.", len(plan.payments))
                   + " " + _("`boston-ledger import --undo {id}` takes it back.", id=done.import_id))
    return out


WHAT = {"sessions": N_("name or tariff"), "players": N_("players"), "deals": N_("deals entered"),
        "corrections": N_("corrections"), "undos": N_("deals taken back"), "supersessions": N_("corrections"),
        "reopenings": N_("reopenings"), "settlements": N_("settlements"), "extensions": N_("agreed deals"),
        "seatings": N_("changes of the table"), "seating_undos": N_("changes of the table")}
