"""CSV export of a session: deals, transfers, balances after each deal, and the settlement.

UTF-8 with a byte-order mark, so spreadsheets read Cyrillic names right; one header row each.
"""

from __future__ import annotations

import csv
import os
import sqlite3
import tempfile
from pathlib import Path

from . import ledger, storage
from .errors import LedgerError
from .storage import Session

ENCODING = "utf-8-sig"


def _write(path: Path, header: list[str], rows: list[list]) -> None:
    """Write one CSV atomically: a temporary file beside it, then a rename."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding=ENCODING, newline="") as f:
            writer = csv.writer(f)
            writer.writerow(header)
            writer.writerows(rows)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write(conn: sqlite3.Connection, session: Session, directory: Path) -> list[Path]:
    """Write the session's CSV files into `directory` (made if missing); the paths written."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise LedgerError(f"cannot make the folder {directory}: {e.strerror}") from None
    if not directory.is_dir():
        raise LedgerError(f"{directory} is not a folder; give export a folder path")
    names = session.players
    party = session.party_name
    deal_rows, transfer_rows, balance_rows = [], [], []
    for w in ledger.walk(session, storage.deals(conn, session)):
        r, pos, outcome, state = w.recorded, w.position, w.outcome, w.after
        d = r.deal
        result = "all pass" if outcome.made is None else "made" if outcome.made else "failed"
        deal_rows.append([
            r.number, pos.partie, pos.tour, pos.multiplier, names[pos.dealer], d.contract, d.rank or "",
            "" if d.declarer is None else names[d.declarer], "" if d.partner is None else names[d.partner],
            "" if d.tricks is None else d.tricks, "" if d.partner_tricks is None else d.partner_tricks,
            "" if d.boston is None else names[d.boston], result, r.entered_at,
        ])
        transfer_rows += [[r.number, party(x.payer), party(x.payee), x.chips, x.reason] for x in r.transfers]
        balance_rows.append([r.number, *state.balances, state.basket])
    out = directory
    files = [
        (out / "deals.csv", ["deal", "partie", "tour", "multiplier", "dealer", "contract", "rank", "declarer",
                             "partner", "tricks", "partner_tricks", "boston", "result", "entered_at"], deal_rows),
        (out / "transfers.csv", ["deal", "from", "to", "chips", "reason"], transfer_rows),
        (out / "balances.csv", ["deal", *names, "basket"], balance_rows),
    ]
    settled = storage.settlement(conn, session)
    if settled is not None:
        files.append((out / "settlement.csv", ["player", "net_chips", "money", "currency"],
                      [[n, settled["net_chips"][n], settled["money"][n], session.currency] for n in names]))
        files.append((out / "payments.csv", ["from", "to", "amount", "currency"],
                      [[p["from"], p["to"], p["amount"], session.currency] for p in settled["payments"]]))
    try:
        for path, header, rows in files:
            _write(path, header, rows)
    except OSError as e:
        raise LedgerError(f"cannot write into {directory}: {e.strerror}") from None
    return [path for path, _, _ in files]
