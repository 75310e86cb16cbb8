"""CSV export of a session: deals, transfers, balances after each deal, and the settlement.

UTF-8 with a byte-order mark, so spreadsheets read Cyrillic names right; one header row each.
A text a spreadsheet would take for a formula is written behind an apostrophe (cell()).
"""

from __future__ import annotations

import csv
import io
import re
import sqlite3
from pathlib import Path
from typing import Any, Iterable, Iterator, TextIO

from ..core import engine
from ..core.engine import Deal
from ..core.errors import LedgerError
from ..core.i18n import _, strerror
from ..core.settlement import money
from ..store import read
from ..store.records import MEMO, Session, entry_reader
from .deals import walk
from .files import write_new, write_set

BOM = "\ufeff"  # UTF-8 with a byte-order mark, so that spreadsheets read Cyrillic right


FORMULA = ("=", "+", "-", "@", "\t", "\r")  # how a formula starts, to Excel or LibreOffice (OWASP)
_NUMBER = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")  # a plain number, such as -12 chips or -0.50 money


def cell(value: object) -> object:
    """A CSV cell as it is written: a text starting like a formula (`=HYPERLINK(...)`, `+1+cmd|...`,
    `@SUM(1)`, `-2+3`) behind a `'`, so that a spreadsheet shows it as text; a plain number as it is.
    Every cell of every file goes through here, headers included."""
    if isinstance(value, str) and value.startswith(FORMULA) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def _cells(row: Iterable) -> list:
    return [cell(v) for v in row]


class Text:
    """Rows already written as CSV text (in chunks of many lines), for `_write`."""

    def __init__(self, chunks: Iterable[str]):
        self.chunks = chunks


class Paired(Text):
    """The CSV text of two files made from one reading of the rows: chunks of (this file's lines,
    the lines of the file `beside`, named with its header)."""

    def __init__(self, chunks: Iterable[tuple[str, str]], beside: tuple[str, list[str]]):
        super().__init__(chunks)  # type: ignore[arg-type]
        self.beside = beside


BESIDE = Text(())  # the rows of a file a Paired one writes


def _header(f: TextIO, header: list[str]) -> Any:
    """The start of a CSV: the byte-order mark, the header row; the writer for the rest."""
    f.write(BOM)
    writer = csv.writer(f)
    writer.writerow(_cells(header))
    return writer


def _write(path: Path, header: list[str], rows: Iterable | Text) -> None:
    """Write one CSV, a new file in the folder write_set swaps in (for `Paired` rows, and the file
    beside it in the same pass)."""
    def write(f: TextIO) -> None:
        writer = _header(f, header)
        if isinstance(rows, Paired):
            name, beside_header = rows.beside

            def both(g: TextIO) -> None:
                _header(g, beside_header)
                for mine, theirs in rows.chunks:
                    f.write(mine)
                    g.write(theirs)

            write_new(path.parent / name, both, newline="")
        elif isinstance(rows, Text):
            for chunk in rows.chunks:
                f.write(chunk)
        else:
            writer.writerows(map(_cells, rows))

    write_new(path, write, newline="")


EXPORT_NAMES = frozenset({"deals.csv", "transfers.csv", "balances.csv",  # and as the session's state has them:
                          "undone.csv", "corrections.csv", "settlement.csv", "payments.csv"})
ENTERED = ["contract", "rank", "declarer", "partner", "tricks", "partner_tricks", "boston", "ace_turned",
           "carte_blanche"]


PARTOUT = ["tricks_each"]  # only in a session whose all-passes are played as misère partout


def _fields(session: Session) -> list[str]:
    """The names of a deal's entered fields in this session's files."""
    return ENTERED + (PARTOUT if session.tariff.basket.all_pass == "misere-partout" else [])


def _entered(session: Session, d: Deal) -> list:
    """A deal's fields as the players entered them, names for seats, blanks for what was not given."""
    def name(seat: int | None) -> str:
        return "" if seat is None else session.players[seat]

    def count(n: int | None) -> int | str:
        return "" if n is None else n

    entered = [d.contract, d.rank or "", name(d.declarer), name(d.partner), count(d.tricks),
               count(d.partner_tricks), name(d.boston), "yes" if d.ace_turned else "", name(d.carte_blanche)]
    if session.tariff.basket.all_pass == "misere-partout":
        entered.append("" if d.tricks_each is None else ",".join(map(str, d.tricks_each)))
    return entered


def _words(session: Session, d: Deal) -> str:
    """A deal as `key=value` words: 'contract=junior; declarer=Boris; tricks=5'."""
    return "; ".join(f"{k}={v}" for k, v in zip(_fields(session), _entered(session, d)) if v != "")


def _line(row: list) -> str:
    """One row as csv.writer writes it into `_write`'s files, its cells as cell() writes them (a
    field's spelling depends on the field alone, so rows can be written in parts)."""
    out = io.StringIO()
    csv.writer(out).writerow(_cells(row))
    return out.getvalue()


CHUNK = 4096  # rows read and written at a time


class _Once(dict):
    """What `write(key)` gives, worked out on the first use of each key (the many rows of a
    long session repeat a few thousand entries); forgotten all at once when it grows large."""

    def __init__(self, write):
        super().__init__()
        self.write = write

    def __missing__(self, key):
        if len(self) >= MEMO:
            self.clear()
        found = self[key] = self.write(key)
        return found


_PLAIN = re.compile(r"(?![-=+@\t])[^,\"\r\n]*")  # a text csv.writer and cell() write as it is
_WHOLE = re.compile(r"\[(?:0|-?[1-9][0-9]*)(?:, (?:0|-?[1-9][0-9]*))*\]")  # json.dumps of whole numbers


def _deal_lines(conn: sqlite3.Connection, session: Session, balances: bool = False) -> Iterator:
    """deals.csv: per deal its position (from its number), the entry and the result (from
    `engine.made`), each distinct entry written once; with `balances`, chunks of (these lines,
    balances.csv's lines of the same deals: `_balances_text`), from one reading of the rows."""
    t, names = session.tariff, session.players
    deal_of = entry_reader(session)
    per_partie = t.deals_per_partie

    def entry(key: tuple) -> str:  # the entry's fields and the result
        deal = deal_of(key)
        made = engine.made(t, deal)  # first, as the walk does
        return _line([*_entered(session, deal), "all pass" if made is None else "made" if made else "failed"])[:-2]

    def turn(place: int) -> str:
        # the tour, multiplier and dealer of position(t, before) depend on the place in the
        # partie (before % per_partie) alone; the partie is before // per_partie + 1
        pos = engine.position(t, place)
        return _line([pos.tour, pos.multiplier, names[pos.dealer]])[:-2]

    entries, turns = _Once(entry), _Once(turn)
    for chunk in _chunks(read.deal_rows(conn, session)):
        lines = "".join([f"{r.number},{(r.number - 1) // per_partie + 1},{turns[(r.number - 1) % per_partie]},"
                         f"{entries[r.entry]},"
                         + (r.entered_at if _PLAIN.fullmatch(r.entered_at) else _line([r.entered_at])[:-2]) + "\r\n"
                         for r in chunk])
        yield (lines, _balances_text(chunk)) if balances else lines


def _chunks(rows: Iterator) -> Iterator[list]:
    """Rows in lists of CHUNK."""
    chunk = []
    for row in rows:
        chunk.append(row)
        if len(chunk) == CHUNK:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def _balances_text(chunk: list) -> str:
    """balances.csv's lines of a chips session's deals: the balances kept with each deal, read as
    `read.kept` reads them (whole numbers as json.dumps writes them are copied as they are)."""
    return "".join([f"{r.number},{r.balances[1:-1].replace(', ', ',')},{r.basket or 0}\r\n"
                    if r.balances is not None and _WHOLE.fullmatch(r.balances)
                    else _line([r.number, *read.kept(r.balances), r.basket or 0]) for r in chunk])


def _transfer_lines(conn: sqlite3.Connection, session: Session) -> Iterator[str]:
    """transfers.csv: each distinct (from, to, chips, reason) written once."""
    names = read.names_by_id(conn)

    def tail(key: tuple) -> str:
        payer, payee, chips, reason = key  # named as the LEFT JOIN on players names them
        return _line([names.get(payer, "basket"), names.get(payee, "basket"), chips, reason])

    tails = _Once(tail)
    rows = read.transfer_rows(conn, session)
    while chunk := rows.fetchmany(CHUNK):
        yield "".join([f"{r[0]},{tails[r[1:]]}" for r in chunk])


def write(conn: sqlite3.Connection, session: Session, directory: Path) -> list[Path]:
    """Write the session's CSV files as the folder `directory` (made if missing, or an earlier
    export's, replaced as a whole: files.write_set); the paths written."""
    names = session.players
    balances_header = ["deal", *names, "basket"]
    balance_rows: Iterable | Text
    if session.tariff.has_basket:  # the balances are kept with each deal: read with the deals, not replayed
        deal_rows: Text = Paired(_deal_lines(conn, session, balances=True), ("balances.csv", balances_header))
        balance_rows = BESIDE
    else:  # a points session's score sheet is replayed (points sessions are short); a stream
        deal_rows = Text(_deal_lines(conn, session))
        balance_rows = ([w.recorded.number, *w.sheet, w.after.basket]
                        for w in walk(session, read.deals(conn, session, transfers=False)))
    transfer_rows = Text(_transfer_lines(conn, session))
    files = [
        ("deals.csv", ["deal", "partie", "tour", "multiplier", "dealer", *_fields(session), "result", "entered_at"],
         deal_rows),
        ("transfers.csv", ["deal", "from", "to", "chips", "reason"], transfer_rows),
        ("balances.csv", balances_header, balance_rows),
    ]
    taken_back = read.undone(conn, session)
    if taken_back:
        files.append(("undone.csv", ["deal", *_fields(session), "entered_at", "undone_at"],
                      [[r.number, *_entered(session, r.deal), r.entered_at, at] for r, at in taken_back]))
    audit = read.corrections(conn, session)
    if audit:
        files.append(("corrections.csv", ["deal", "corrected_at", "reason", "was", "now"],
                      [[c.number, c.corrected_at, c.reason, _words(session, c.was), _words(session, c.now)]
                       for c in audit]))
    settled = read.settlement(conn, session) if session.settled else None
    if settled is not None:
        files.append(("settlement.csv", ["player", "net_chips", "money", "currency"],
                      [[n, chips, money(cents), session.currency]
                       for n, chips, cents in zip(settled.players, settled.net_chips, settled.cents)]))
        files.append(("payments.csv", ["from", "to", "amount", "currency"],
                      [[names[p.payer], names[p.payee], money(p.cents), session.currency] for p in settled.payments]))

    def fill(folder: Path) -> None:
        for name, header, rows in files:
            if rows is not BESIDE:  # those are written with their Paired file
                _write(folder / name, header, rows)

    try:
        write_set(directory, EXPORT_NAMES, fill)
    except OSError as e:
        raise LedgerError(_("cannot write into {directory}: {strerror}", directory=directory, strerror=strerror(e))) from None
    return [directory / name for name, _, _ in files]
