"""Money between evenings: what each person owes or is owed over all settled sessions, less the
payments recorded since, and recording a payment."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

from ..core.errors import LedgerError
from ..core.i18n import _
from ..core.settlement import Payment, fewest_payments
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


def books(conn: sqlite3.Connection) -> list[Book]:
    """Per currency, what each person is owed (+) or owes (-) over all settled sessions (the demo
    evening aside), less what has been paid since, and the fewest payments that clear it."""
    out = []
    for code, book in _totals(conn, people(conn), read.sessions(conn), read.payments(conn)).items():
        who = tuple(sorted(book, key=str.casefold))
        cents = tuple(book[n] for n in who)
        out.append(Book(code, who, cents, fewest_payments(cents)))
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
