"""CSV export of a session: deals, transfers, balances after each deal, the settlement and the
payments it suggests, and the payments made between its players.

UTF-8 with a byte-order mark, so spreadsheets read Cyrillic names right; one header row each.
Every cell is made by cell(): its control characters written out, then a text a spreadsheet
would take for a formula behind an apostrophe.
"""

from __future__ import annotations

import csv
import re
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TextIO

from ..core.controls import visible
from ..core.engine import Deal, plays
from ..core.errors import LedgerError
from ..core.fields import STORED, Field
from ..core.i18n import _, strerror
from ..core.settlement import Settled, money
from ..store import read
from ..core.tariff import MISDEAL
from ..store.records import Session
from .deals import Walked, walk
from .files import write_new, write_set
from .inputs import name_key
from .money import paid_since, payments

BOM = "\ufeff"  # UTF-8 with a byte-order mark, so that spreadsheets read Cyrillic right


FORMULA = ("=", "+", "-", "@", "\t", "\r")  # how a formula starts, to Excel or LibreOffice (OWASP)
_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")  # a plain number, such as -12 chips or -0.50 money


def cell(value: object) -> object:
    """A CSV cell as it is written. A text has its control characters written out as the terminal
    shows them (`\\x00`, `\\x1b`, `\\u202e`; line breaks and tabs too: a cell is one line), then, if
    it starts like a formula (`=HYPERLINK(...)`, `+1+cmd|...`, `@SUM(1)`, `-2+3`), a `'` before it,
    so that a spreadsheet shows it as text; a plain number stays as it is. Every cell of every
    file goes through here, headers included."""
    if not isinstance(value, str):
        return value
    value = visible(value, lines=False)
    if value.startswith(FORMULA) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


Row = Iterable[object]  # a CSV row's values, before cell() makes them cells


def _cells(row: Row) -> list[object]:
    return [cell(v) for v in row]


def _write(path: Path, header: list[str], rows: Iterable[Row]) -> None:
    """One CSV, a new file in the folder write_set swaps in: the byte-order mark, the header row,
    the rows."""
    def write(f: TextIO) -> None:
        f.write(BOM)
        writer = csv.writer(f)
        writer.writerow(_cells(header))
        writer.writerows(map(_cells, rows))

    write_new(path, write, newline="")


EXPORT_NAMES = frozenset({"deals.csv", "transfers.csv", "balances.csv",  # and as the session's state has them:
                          "undone.csv", "corrections.csv", "extensions.csv", "settlement.csv",
                          "suggested-payments.csv", "payments.csv", "seatings.csv"})


def _fields(session: Session) -> list[Field]:
    """A deal's fields in this session's files: those its tariff plays (engine.plays)."""
    return [f for f in STORED if plays(session.tariff, f.name)]


def _entered(session: Session, d: Deal, number: int) -> list[object]:
    """Deal `number`'s fields as the players entered them, the names of who sat in the seats
    then, blanks for what was not given."""
    out: list[object] = []
    names = session.sitting(number)
    for f in _fields(session):
        value = getattr(d, f.name)
        if value is None:
            value = ""
        elif f.kind == "player":
            value = names[value]
        elif f.kind == "flag":
            value = "yes" if value else ""
        elif f.kind == "tricks-each":
            value = ",".join(map(str, value))
        out.append(value)
    return out


def _words(session: Session, d: Deal, number: int) -> str:
    """Deal `number` as `key=value` words: 'contract=junior; declarer=Boris; tricks=5'."""
    return "; ".join(f"{f.name}={v}" for f, v in zip(_fields(session), _entered(session, d, number), strict=True)
                     if v != "")


def _payments_made(conn: sqlite3.Connection, session: Session, settled: Settled | None) -> list[Row]:
    """The payments recorded with `paid` between two of the session's players (cancelled ones
    too, with when), each with the part of it counted toward this session's settlement
    (money.paid_since)."""
    names = settled.players if settled is not None else [session.people[p] for p in session.present]
    keys = {name_key(n) for n in names}
    made = [p for p in payments(conn) if name_key(p.payer) in keys and name_key(p.payee) in keys]
    if not made:
        return []
    since = None if settled is None else paid_since(conn, session, settled)
    toward: dict[int, int] = {}
    for t in since.paid if since is not None else ():
        toward[t.payment.id] = toward.get(t.payment.id, 0) + t.cents
    return [[p.id, p.paid_at, p.payer, p.payee, money(p.cents), p.currency, p.cancelled_at or "",
             money(toward.get(p.id, 0))] for p in made]


def write(conn: sqlite3.Connection, session: Session, directory: Path) -> list[Path]:
    """Write the session's CSV files as the folder `directory` (made if missing, or an earlier
    export's, replaced as a whole: files.write_set); the paths written."""
    names = session.players

    def walked(transfers: bool = False) -> Iterator[Walked]:  # a stream, read once for each file: memory stays flat
        return walk(session, read.deals(conn, session, transfers=transfers))

    def result(w: Walked) -> str:
        if w.outcome.made is None:
            return "misdeal" if w.recorded.deal.contract == MISDEAL else "all pass"
        return "made" if w.outcome.made else "failed"

    overtime = session.tariff.until_pool_won  # a game played on for its pool after its agreed deals
    deal_heads = ["deal", "partie", "tour", "multiplier", *(["overtime"] if overtime else []), "dealer"]

    deal_rows = ([w.recorded.number, w.position.partie, w.position.tour, w.position.multiplier,
                  *(["yes" if w.position.overtime else ""] if overtime else []),
                  session.sitting(w.recorded.number)[w.position.dealer],
                  *_entered(session, w.recorded.deal, w.recorded.number), result(w),
                  w.recorded.entered_at] for w in walked())
    transfer_rows = ([w.recorded.number, session.party_name(t.payer, w.recorded.number),
                      session.party_name(t.payee, w.recorded.number), t.chips, t.reason]
                     for w in walked(transfers=True) for t in w.recorded.transfers)
    balance_rows = ([w.recorded.number, *w.standing, w.after.basket] for w in walked())
    entered = [f.name for f in _fields(session)]
    files: list[tuple[str, list[str], Iterable[Row]]] = [
        ("deals.csv", [*deal_heads, *entered, "result", "entered_at"], deal_rows),
        ("transfers.csv", ["deal", "from", "to", "chips", "reason"], transfer_rows),
        ("balances.csv", ["deal", *names, "basket"], balance_rows),
    ]
    taken_back = read.undone(conn, session)
    if taken_back:
        files.append(("undone.csv", ["deal", *entered, "entered_at", "undone_at"],
                      [[r.number, *_entered(session, r.deal, r.number), r.entered_at, at] for r, at in taken_back]))
    audit = read.corrections(conn, session)
    if audit:
        files.append(("corrections.csv", ["deal", "corrected_at", "reason", "was", "now"],
                      [[c.number, c.corrected_at, c.reason, _words(session, c.was, c.number),
                        _words(session, c.now, c.number)]
                       for c in audit]))
    agreed = read.extensions(conn, session)
    if agreed:  # more deals agreed: after which deal, how many, the agreed number they made
        files.append(("extensions.csv", ["after_deal", "deals", "agreed_deals", "extended_at"],
                      [[e.after_deal, e.deals, e.agreed, e.extended_at] for e in agreed]))
    settled = read.settlement(conn, session)
    if settled is not None:
        files.append(("settlement.csv", ["player", "net_chips", "money", "currency"],
                      [[n, chips, money(cents), session.currency]
                       for n, chips, cents in zip(settled.players, settled.net_chips, settled.cents, strict=True)]))
        files.append(("suggested-payments.csv", ["from", "to", "amount", "currency"],
                      [[settled.players[p.payer], settled.players[p.payee], money(p.cents), session.currency]
                       for p in settled.payments]))
    made = _payments_made(conn, session, settled)
    if made:
        files.append(("payments.csv", ["id", "paid_at", "from", "to", "amount", "currency", "cancelled_at",
                                       "toward_this_session"], made))
    if session.seatings:
        files.append(("seatings.csv", ["from_deal", "seat", "player", "money_of", "made_at"],
                      [[s.from_deal, s.seat + 1, session.people[s.sitter], session.people[s.account], s.made_at]
                       for s in session.seatings]))

    def fill(folder: Path) -> None:
        for name, header, rows in files:
            _write(folder / name, header, rows)

    try:
        write_set(directory, EXPORT_NAMES, fill)
    except OSError as e:
        raise LedgerError(_("cannot write into {directory}: {strerror}", directory=directory,
                            strerror=strerror(e))) from None
    return [directory / name for name, _, _ in files]
