"""CSV export of a session: deals, transfers, balances after each deal, and the settlement.

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
from ..core.settlement import money
from ..store import read
from ..core.tariff import MISDEAL
from ..store.records import Session
from .deals import Walked, walk
from .files import write_new, write_set

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
                          "undone.csv", "corrections.csv", "extensions.csv", "settlement.csv", "payments.csv"})


def _fields(session: Session) -> list[Field]:
    """A deal's fields in this session's files: those its tariff plays (engine.plays)."""
    return [f for f in STORED if plays(session.tariff, f.name)]


def _entered(session: Session, d: Deal) -> list[object]:
    """A deal's fields as the players entered them, names for seats, blanks for what was not given."""
    out: list[object] = []
    for f in _fields(session):
        value = getattr(d, f.name)
        if value is None:
            value = ""
        elif f.kind == "player":
            value = session.players[value]
        elif f.kind == "flag":
            value = "yes" if value else ""
        elif f.kind == "tricks-each":
            value = ",".join(map(str, value))
        out.append(value)
    return out


def _words(session: Session, d: Deal) -> str:
    """A deal as `key=value` words: 'contract=junior; declarer=Boris; tricks=5'."""
    return "; ".join(f"{f.name}={v}" for f, v in zip(_fields(session), _entered(session, d), strict=True)
                     if v != "")


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

    deal_rows = ([w.recorded.number, w.position.partie, w.position.tour, w.position.multiplier,
                  names[w.position.dealer], *_entered(session, w.recorded.deal), result(w),
                  w.recorded.entered_at] for w in walked())
    transfer_rows = ([w.recorded.number, session.party_name(t.payer), session.party_name(t.payee), t.chips, t.reason]
                     for w in walked(transfers=True) for t in w.recorded.transfers)
    balance_rows = ([w.recorded.number, *w.standing, w.after.basket] for w in walked())
    entered = [f.name for f in _fields(session)]
    files: list[tuple[str, list[str], Iterable[Row]]] = [
        ("deals.csv", ["deal", "partie", "tour", "multiplier", "dealer", *entered, "result", "entered_at"], deal_rows),
        ("transfers.csv", ["deal", "from", "to", "chips", "reason"], transfer_rows),
        ("balances.csv", ["deal", *names, "basket"], balance_rows),
    ]
    taken_back = read.undone(conn, session)
    if taken_back:
        files.append(("undone.csv", ["deal", *entered, "entered_at", "undone_at"],
                      [[r.number, *_entered(session, r.deal), r.entered_at, at] for r, at in taken_back]))
    audit = read.corrections(conn, session)
    if audit:
        files.append(("corrections.csv", ["deal", "corrected_at", "reason", "was", "now"],
                      [[c.number, c.corrected_at, c.reason, _words(session, c.was), _words(session, c.now)]
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
        files.append(("payments.csv", ["from", "to", "amount", "currency"],
                      [[names[p.payer], names[p.payee], money(p.cents), session.currency] for p in settled.payments]))

    def fill(folder: Path) -> None:
        for name, header, rows in files:
            _write(folder / name, header, rows)

    try:
        write_set(directory, EXPORT_NAMES, fill)
    except OSError as e:
        raise LedgerError(_("cannot write into {directory}: {strerror}", directory=directory,
                            strerror=strerror(e))) from None
    return [directory / name for name, _, _ in files]
