"""How changes of the table are said: who sits where from which deal, on whose money, and what
a player who leaves on his own account takes away. Names stay in the nominative (Russian)."""

from __future__ import annotations

from ..app.seats import Reseated
from ..app.sessions import Status
from ..core.i18n import _, ngettext
from .deals import change_words, next_lines
from .text import amount


def reseated_lines(done: Reseated) -> list[str]:
    """What `seat` says: the change, what the money that left took away and what comes back, and
    who deals next."""
    session, seating = done.session, done.seating
    lines = [_("From the next deal, {change}.", change=change_words(session, seating))]
    if done.left is not None:
        balance = done.before.balances[seating.seat]
        lines.append(ngettext("{name} leaves the table with {n} chip (a balance of {balance} and {share} from the "
                              "basket); it counts in the settlement.",
                              "{name} leaves the table with {n} chips (a balance of {balance} and {share} from the "
                              "basket); they count in the settlement.", balance + done.share,
                              name=session.people[done.left], balance=balance, share=done.share))
        back = done.after.balances[seating.seat]
        lines.append(_("{name} is new to the evening and starts from 0.", name=session.people[seating.account])
                     if done.new else
                     ngettext("{name} comes back with {n} chip.", "{name} comes back with {n} chips.", back,
                              name=session.people[seating.account]))
    elif done.new:
        lines.append(_("{name} is new to the evening.", name=session.people[seating.sitter]))
    return lines + next_lines(session, done.after)


def table_lines(status: Status) -> list[str]:
    """Where the table stands apart from how it began: each seat now played by another than its
    first player, or on another's money; those whose money left the table, with it."""
    session = status.session
    names = session.people
    lines = []
    for seat, (sitter, account) in enumerate(session.table()):
        if (sitter, account) == (seat, seat):
            continue
        lines.append(_("seat {seat}: {name}, a substitute (money: {account})", seat=seat + 1, name=names[sitter],
                       account=names[account]) if sitter != account else
                     _("seat {seat}: {name}, on own money", seat=seat + 1, name=names[sitter]))
    for name, chips, cents in status.away:
        lines.append(ngettext("away from the table: {name}, {n} chip", "away from the table: {name}, {n} chips", chips,
                              name=name) + ("" if cents is None else f" ({amount(cents, session.currency)})"))
    return lines
