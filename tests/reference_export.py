"""boston_ledger/export.py as it was before the export was made fast (kept verbatim but for
the imports, and for the spreadsheet-formula rule added since: `_safe`, written here apart from
the export's own): test_export_bytes.py holds the export to it, byte for byte."""

from __future__ import annotations

import csv
import os
import sqlite3
import tempfile
from pathlib import Path
from typing import Iterable

from boston_ledger.app import deals
from boston_ledger.store import read
from boston_ledger.core.engine import Deal
from boston_ledger.core.errors import LedgerError
from boston_ledger.store.records import Session

BOM = "\ufeff"  # UTF-8 with a byte-order mark, so that spreadsheets read Cyrillic right


def _safe(row) -> list:
    """OWASP's rule for CSV injection: a text cell starting with = + - @ tab or CR is prefixed
    with ', unless the whole cell is a plain (decimal) number."""
    out = []
    for value in row:
        if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
            body = value[1:] if value[0] in "+-" else None
            digits = body is not None and body.replace(".", "", 1).isdigit() and body.isascii() \
                and not body.startswith(".") and not body.endswith(".")
            value = value if digits else "'" + value
        out.append(value)
    return out


def _write(path: Path, header: list[str], rows: Iterable) -> None:
    """Write one CSV atomically: a temporary file beside it, then a rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="", buffering=1 << 20) as f:
            f.write(BOM)
            writer = csv.writer(f)
            writer.writerow(_safe(header))
            writer.writerows(_safe(row) for row in rows)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


OPTIONAL = {"undone.csv", "corrections.csv", "settlement.csv", "payments.csv"}
ENTERED = ["contract", "rank", "declarer", "partner", "tricks", "partner_tricks", "boston", "ace_turned",
           "carte_blanche"]


def _entered(session: Session, d: Deal) -> list:
    """A deal's fields as the players entered them, names for seats, blanks for what was not given."""
    def name(seat: int | None) -> str:
        return "" if seat is None else session.players[seat]

    def count(n: int | None) -> int | str:
        return "" if n is None else n

    return [d.contract, d.rank or "", name(d.declarer), name(d.partner), count(d.tricks),
            count(d.partner_tricks), name(d.boston), "yes" if d.ace_turned else "", name(d.carte_blanche)]


def _words(session: Session, d: Deal) -> str:
    """A deal as `key=value` words: 'contract=junior; declarer=Boris; tricks=5'."""
    return "; ".join(f"{k}={v}" for k, v in zip(ENTERED, _entered(session, d)) if v != "")


def write(conn: sqlite3.Connection, session: Session, directory: Path) -> list[Path]:
    """Write the session's CSV files into `directory` (made if missing); the paths written."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise LedgerError(f"cannot make the folder {directory}: {e.strerror}") from None
    if not directory.is_dir():
        raise LedgerError(f"{directory} is not a folder; give export a folder path")
    names = session.players

    def walked():  # a stream, read once for each file: memory stays flat however long the session
        return deals.walk(session, read.deals(conn, session, not session.tariff.has_basket))

    def result(outcome) -> str:
        return "all pass" if outcome.made is None else "made" if outcome.made else "failed"

    deal_rows = ([w.recorded.number, w.position.partie, w.position.tour, w.position.multiplier,
                  names[w.position.dealer], *_entered(session, w.recorded.deal), result(w.outcome),
                  w.recorded.entered_at] for w in walked())
    balance_rows = ([w.recorded.number, *w.sheet, w.after.basket] for w in walked())
    transfer_rows = conn.execute(  # every standing transfer, names for parties
        f"SELECT d.number, COALESCE(a.name, 'basket'), COALESCE(b.name, 'basket'), t.chips, t.reason"
        f" FROM transfers t JOIN deals d ON d.id = t.deal_id"
        f" LEFT JOIN players a ON a.id = t.payer LEFT JOIN players b ON b.id = t.payee"
        f" WHERE d.session_id = ? AND {read.STANDING} ORDER BY t.id", (session.id,)).fetchall()
    out = directory
    files = [
        (out / "deals.csv", ["deal", "partie", "tour", "multiplier", "dealer", *ENTERED, "result", "entered_at"],
         deal_rows),
        (out / "transfers.csv", ["deal", "from", "to", "chips", "reason"], transfer_rows),
        (out / "balances.csv", ["deal", *names, "basket"], balance_rows),
    ]
    taken_back = read.undone(conn, session)
    if taken_back:
        files.append((out / "undone.csv", ["deal", *ENTERED, "entered_at", "undone_at"],
                      [[r.number, *_entered(session, r.deal), r.entered_at, at] for r, at in taken_back]))
    audit = read.corrections(conn, session)
    if audit:
        files.append((out / "corrections.csv", ["deal", "corrected_at", "reason", "was", "now"],
                      [[c.number, c.corrected_at, c.reason, _words(session, c.was), _words(session, c.now)]
                       for c in audit]))
    settled = read.settlement(conn, session).record() if session.settled else None
    if settled is not None:
        files.append((out / "settlement.csv", ["player", "net_chips", "money", "currency"],
                      [[n, settled["net_chips"][n], settled["money"][n], session.currency] for n in names]))
        files.append((out / "payments.csv", ["from", "to", "amount", "currency"],
                      [[p["from"], p["to"], p["amount"], session.currency] for p in settled["payments"]]))
    written = {path.name for path, _, _ in files}
    try:
        for path, header, rows in files:
            _write(path, header, rows)
        for stale in OPTIONAL - written:  # left by an earlier export of another state of the session
            (out / stale).unlink(missing_ok=True)
    except OSError as e:
        raise LedgerError(f"cannot write into {directory}: {e.strerror}") from None
    return [path for path, _, _ in files]
