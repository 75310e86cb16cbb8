"""Money between evenings: what each person owes or is owed over all settled sessions, less the
payments recorded since, and recording a payment."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

from ..core.errors import LedgerError
from ..core.i18n import _
from ..core.settlement import Payment, Settled, fewest_payments
from ..store import read, write
from ..store.db import writing
from ..store.records import PaymentRecord, Session
from ..core.tariff import ambiguous, did_you_mean, find
from .inputs import clip, currency, money_amount, name_key, player_key


def people(conn: sqlite3.Connection) -> dict[str, str]:
    """Everybody who has played in this ledger by name_key, with the name as first written."""
    names = read.names_by_id(conn)
    out: dict[str, str] = {}
    for n in sorted(names):
        out.setdefault(name_key(names[n]), names[n])
    return out



def person(everybody: dict[str, str], name: str, what: str) -> str:
    """Somebody who has played in this ledger (`everybody`: `people`), as his name was first
    written: by his whole name, else by a beginning of it no other name shares (`bo` for Boris),
    as players are found at a deal."""
    found = everybody.get(name_key(name))
    if found is not None:
        return found
    match = find(name, ((n, ()) for n in everybody.values()), key=player_key)
    if match.key is not None:
        return match.key
    raise LedgerError(ambiguous(match, name) or _("{what}: nobody called {clip} has played in this ledger{hint}",
                                                  what=what, clip=clip(name), hint=did_you_mean(match)))


@dataclass(frozen=True)
class Book:
    """One currency's accounts: each person's result in cents (+ owed to him), and the fewest
    payments that clear them (indices into `names`)."""

    currency: str
    names: tuple[str, ...]
    cents: tuple[int, ...]
    payments: tuple[Payment, ...]
    paid: int = 0  # the payments made (not cancelled) that are counted in it


def books(conn: sqlite3.Connection) -> list[Book]:
    """Per currency, what each person is owed (+) or owes (-) over all settled sessions (the demo
    evening aside), less what has been paid since, and the fewest payments that clear it."""
    out = []
    recorded = read.payments(conn)
    for code, book in _totals(conn, people(conn), read.sessions(conn), recorded).items():
        who = tuple(sorted(book, key=str.casefold))
        cents = tuple(book[n] for n in who)
        paid = sum(1 for p in recorded if p.cancelled_at is None and p.currency == code)
        out.append(Book(code, who, cents, fewest_payments(cents), paid))
    return out


def _totals(conn: sqlite3.Connection, names: dict[str, str], sessions: list[Session],
            paid: list[PaymentRecord]) -> dict[str, dict[str, int]]:
    """Per currency, each person's result over the settled `sessions` (the demo evening aside),
    less the payments `paid` that are not cancelled (`names`: `people`)."""
    totals: dict[str, dict[str, int]] = {}
    for session in sessions:
        result = None if session.demo else read.settlement(conn, session)
        if result is None:  # not settled (or the demo evening)
            continue
        book = totals.setdefault(session.currency, {})
        for name, cents in zip(result.players, result.cents, strict=True):
            key = names[name_key(name)]
            book[key] = book.get(key, 0) + cents
    for p in paid:
        if p.cancelled_at is not None:
            continue
        book = totals.setdefault(p.currency, {})
        book[p.payer] = book.get(p.payer, 0) + p.cents
        book[p.payee] = book.get(p.payee, 0) - p.cents
    return totals


@dataclass(frozen=True)
class Toward:
    """A payment recorded with `paid`, or the part of it (`cents`), counted toward one evening's
    settlement."""

    payment: PaymentRecord
    cents: int


@dataclass(frozen=True)
class Since:
    """What was paid toward an evening's settlement since it was settled (`paid`), and what is
    still owed: each player's result less those payments (`cents`, in the settlement's order, +
    owed to him) and the fewest payments that clear it (`owed`, indices into its players)."""

    paid: tuple[Toward, ...]
    cents: tuple[int, ...]
    owed: tuple[Payment, ...]


@dataclass(frozen=True)
class _Evening:
    """A settled evening as payments are counted toward it: when it was first settled, and what
    each person (by name_key) is owed (+) or owes (-) by its settlement."""

    since: str
    session: int
    currency: str
    book: dict[str, int]


def paid_since(conn: sqlite3.Connection, session: Session, settled: Settled) -> Since | None:
    """The payments counted toward the session's settlement `settled` (as recorded, or, for a
    reopened session, as settling it now would record) and what is still owed after them; None
    when no payment counts toward it.

    The ledger's rules (`books`) count every payment not cancelled against the payer's and the
    payee's results over all settled evenings; this says which evenings they paid off. Payments
    are counted in the order they were recorded, each toward the evenings of its currency that
    were settled before it and in which both people played, the earliest first, as far as the
    payer still owes and the payee is still owed there; what is left of a payment (more than was
    owed) counts toward the latest of them. So the evenings' results less the payments toward
    each add up to what `ledger` says, and an evening paid off shows nothing more owed."""
    if session.demo:
        return None
    history = read.settlements(conn, session)
    if not history:  # never settled: nothing can have been paid toward it
        return None
    first = history[0][0]
    keys = {name_key(n) for n in settled.players}
    recorded = read.payments(conn)
    if not any(p.cancelled_at is None and p.currency == session.currency and p.paid_at >= first
               and name_key(p.payer) in keys and name_key(p.payee) in keys for p in recorded):
        return None  # the quick answer, without reading every evening
    evenings = [e for e in _evenings(conn) if e.session != session.id]
    evenings.append(_Evening(first, session.id, session.currency, _book(settled)))
    evenings.sort(key=lambda e: (e.since, e.session))
    toward = _toward(evenings, recorded)
    mine = next(e for e in evenings if e.session == session.id)
    if not toward[session.id]:
        return None
    cents = tuple(mine.book[name_key(n)] for n in settled.players)
    return Since(tuple(toward[session.id]), cents, fewest_payments(cents))


def _book(settled: Settled) -> dict[str, int]:
    return {name_key(n): c for n, c in zip(settled.players, settled.cents, strict=True)}


def _evenings(conn: sqlite3.Connection) -> list[_Evening]:
    """The settled evenings (the demo evening aside), as they stand settled now."""
    out = []
    for session in read.sessions(conn):
        if session.demo or not session.settled:
            continue
        history = read.settlements(conn, session)
        if history:
            out.append(_Evening(history[0][0], session.id, session.currency, _book(history[-1][1])))
    return out


def _toward(evenings: list[_Evening], paid: list[PaymentRecord]) -> dict[int, list[Toward]]:
    """Each payment not cancelled counted toward `evenings` (the earliest first), as `paid_since`
    says; their books are left less what was paid toward each. What went toward each evening."""
    out: dict[int, list[Toward]] = {e.session: [] for e in evenings}
    for p in paid:
        if p.cancelled_at is not None:
            continue
        payer, payee = name_key(p.payer), name_key(p.payee)
        open_ = [e for e in evenings if e.currency == p.currency and e.since <= p.paid_at
                 and payer in e.book and payee in e.book]
        left = p.cents
        for e in open_:
            part = min(left, max(0, -e.book[payer]), max(0, e.book[payee]))
            if part:
                e.book[payer] += part
                e.book[payee] -= part
                out[e.session].append(Toward(p, part))
                left -= part
        if left and open_:
            last = open_[-1]
            last.book[payer] += left
            last.book[payee] -= left
            counted = out[last.session]
            if counted and counted[-1].payment == p:  # part of it went there already
                left += counted.pop().cents
            counted.append(Toward(p, left))
    return out


@dataclass(frozen=True)
class Paid:
    payer: str
    payee: str
    cents: int
    currency: str
    id: int = 0


class Doubt(LedgerError):
    """A payment that looks mistaken, recorded only once somebody says so: the same one again
    (`again`, the payment it repeats), or more than the payer owes (`owes`, in cents) and the payee
    is owed (`owed`) by the ledger."""

    def __init__(self, paid: Paid, again: PaymentRecord | None = None, owes: int = 0, owed: int = 0):
        super().__init__("doubtful payment")
        self.paid, self.again, self.owes, self.owed = paid, again, owes, owed


REPEAT_WITHIN = 3600  # seconds in which the same payment again is doubted


def pay(conn: sqlite3.Connection, payer: str, payee: str, amount: str, code: str | None, *, sure: bool) -> Paid:
    """Record a payment in the currency of the settled sessions it pays off (`code` as typed, or
    the only currency they use). Unless `sure`, a payment of more than the payer owes and the
    payee is owed by the ledger, or the same payment again within the hour, raises Doubt and
    records nothing."""
    cents = money_amount(amount)
    with writing(conn):
        everybody, sessions = people(conn), read.sessions(conn)
        who, whom = person(everybody, payer, _("FROM")), person(everybody, payee, _("TO"))
        if who == whom:
            raise LedgerError(_("FROM and TO are the same person; a payment goes from one to another"))
        used = sorted({s.currency for s in sessions if s.settled and not s.demo})
        if not used:
            raise LedgerError(_("no settled session yet: nobody owes anybody anything, so there is nothing to pay"))
        shown = ", ".join(c or _("(none)") for c in used)
        if code is None:
            if len(used) != 1:
                raise LedgerError(_("the settled sessions use several currencies ({shown}); give --currency CODE",
                                    shown=shown))
            code = used[0]
        else:
            code = _currency_of(code, used)
        if code not in used:
            raise LedgerError(_("no settled session is in {value}; the currencies are {shown}",
                                value=code or _("(no currency)"), shown=shown))
        if not sure:
            _doubt(conn, Paid(who, whom, cents, code), everybody, sessions)
        payment_id = write.record_payment(conn, who, whom, cents, code)
    return Paid(who, whom, cents, code, payment_id)


def _doubt(conn: sqlite3.Connection, paid: Paid, everybody: dict[str, str], sessions: list[Session]) -> None:
    """Doubt (raised) when a payment repeats one recorded within the hour, or would turn a debt around."""
    now = datetime.now(UTC)
    recorded = read.payments(conn)
    again = [p for p in recorded if p.cancelled_at is None and (p.payer, p.payee, p.cents, p.currency) ==
             (paid.payer, paid.payee, paid.cents, paid.currency)
             and (now - datetime.fromisoformat(p.paid_at)).total_seconds() < REPEAT_WITHIN]
    if again:
        raise Doubt(paid, again=again[-1])
    balance = _totals(conn, everybody, sessions, recorded)[paid.currency]  # a settled session's: in the books
    owes, owed = max(0, -balance.get(paid.payer, 0)), max(0, balance.get(paid.payee, 0))
    if paid.cents > min(owes, owed):
        raise Doubt(paid, owes=owes, owed=owed)


def payments(conn: sqlite3.Connection) -> list[PaymentRecord]:
    """Every payment recorded, cancelled ones too (they stay on record)."""
    return read.payments(conn)


def cancel(conn: sqlite3.Connection, payment_id: int) -> PaymentRecord:
    """Take a payment back: a cancellation is recorded, the payment stays on record and
    `ledger` no longer counts it."""
    with writing(conn):
        found = next((p for p in read.payments(conn) if p.id == payment_id), None)
        if found is None:
            raise LedgerError(_("there is no payment {id}; `boston-ledger payments` lists them", id=payment_id))
        if found.cancelled_at is not None:
            raise LedgerError(_("payment {id} is cancelled already; `boston-ledger payments` shows it",
                                id=payment_id))
        write.record_cancellation(conn, payment_id)
    return found


def _currency_of(text: str, used: list[str]) -> str:
    """A currency typed for a payment: none (blank), one of the settled sessions' (an earlier
    boston-ledger took codes such as 'руб.' that `new` refuses today), or one as new reads it."""
    code = text.strip()
    if not code:
        return ""
    code = code.upper() if code.isascii() else code
    return code if code in used else currency(text)
