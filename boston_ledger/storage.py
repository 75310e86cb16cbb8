"""SQLite storage: sessions, players in seat order, deals as entered, the transfers they made.

Deals are the record; balances are sums of their transfers. History is append-only: an undo
is a row of its own, never a change to the deal it takes back.
"""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Callable, Iterator

from . import engine
from .engine import BASKET, Deal, Outcome, State, Transfer
from .errors import LedgerError
from .i18n import _, strerror
from .tariff import Tariff, parse

SCHEMA_VERSION = 2  # PRAGMA user_version after every migration has run
APP_NAME = "boston-ledger"
MAX_CHIPS = 2**62  # SQLite INTEGER holds 2**63 - 1; sums of a session's transfers must fit too


class StorageError(LedgerError):
    """A database that cannot be used as it is."""


def default_path() -> Path:
    """The database used when neither --db nor $BOSTON_LEDGER_DB names one."""
    from typer import get_app_dir

    return Path(get_app_dir(APP_NAME)) / "ledger.db"


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# ---- schema --------------------------------------------------------------------------------

APPEND_ONLY = ("sessions", "players", "deals", "transfers", "undos", "settlements")


def _trigger(table: str, action: str) -> str:
    return (f"CREATE TRIGGER {table}_no_{action.lower()} BEFORE {action} ON {table}\n"
            f"BEGIN SELECT RAISE(ABORT, '{table} are append-only: corrections are new entries'); END")


def _append_only(tables: tuple[str, ...]) -> str:
    return "".join(f"\n{_trigger(t, 'UPDATE')};\n{_trigger(t, 'DELETE')};\n" for t in tables)


INITIAL_SCHEMA = """
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY,
    name TEXT,
    created_at TEXT NOT NULL,
    tariff_name TEXT NOT NULL,
    tariff_text TEXT NOT NULL,
    tariff_hash TEXT NOT NULL,
    chip_value TEXT NOT NULL,
    currency TEXT NOT NULL,
    agreed_deals INTEGER CHECK (agreed_deals > 0)
) STRICT;
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    UNIQUE (session_id, seat),
    UNIQUE (session_id, name)
) STRICT;
CREATE TABLE deals (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    number INTEGER NOT NULL,
    contract TEXT NOT NULL,
    rank TEXT,
    declarer INTEGER REFERENCES players(id),
    partner INTEGER REFERENCES players(id),
    tricks INTEGER,
    partner_tricks INTEGER,
    boston INTEGER REFERENCES players(id),
    ace_turned INTEGER NOT NULL DEFAULT 0 CHECK (ace_turned IN (0, 1)),
    carte_blanche INTEGER REFERENCES players(id),
    entered_at TEXT NOT NULL
) STRICT;
CREATE INDEX deals_by_session ON deals (session_id, id);
CREATE TABLE undos (
    deal_id INTEGER PRIMARY KEY REFERENCES deals(id),
    undone_at TEXT NOT NULL
) STRICT;
CREATE TABLE transfers (
    id INTEGER PRIMARY KEY,
    deal_id INTEGER NOT NULL REFERENCES deals(id),
    payer INTEGER REFERENCES players(id),
    payee INTEGER REFERENCES players(id),
    chips INTEGER NOT NULL CHECK (chips > 0),
    reason TEXT NOT NULL,
    CHECK (payer IS NOT NULL OR payee IS NOT NULL)
) STRICT;
CREATE INDEX transfers_by_deal ON transfers (deal_id);
CREATE TABLE settlements (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    settled_at TEXT NOT NULL,
    result TEXT NOT NULL
) STRICT;
CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;
""" + _append_only(APPEND_ONLY)


# Corrections of earlier deals, reopened sessions, and money paid between evenings.
CORRECTIONS_SCHEMA = """
CREATE TABLE corrections (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    number INTEGER NOT NULL,
    old_deal INTEGER NOT NULL REFERENCES deals(id),
    reason TEXT NOT NULL,
    corrected_at TEXT NOT NULL
) STRICT;
CREATE TABLE supersessions (
    deal_id INTEGER PRIMARY KEY REFERENCES deals(id),
    correction_id INTEGER NOT NULL REFERENCES corrections(id)
) STRICT;
CREATE TABLE reopenings (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    reopened_at TEXT NOT NULL
) STRICT;
CREATE TABLE payments (
    id INTEGER PRIMARY KEY,
    payer TEXT NOT NULL,
    payee TEXT NOT NULL,
    cents INTEGER NOT NULL CHECK (cents > 0),
    currency TEXT NOT NULL,
    paid_at TEXT NOT NULL
) STRICT;
ALTER TABLE deals ADD COLUMN correction_id INTEGER REFERENCES corrections(id);
ALTER TABLE deals ADD COLUMN balances TEXT;
ALTER TABLE deals ADD COLUMN basket INTEGER;
""" + _append_only(("corrections", "supersessions", "reopenings", "payments"))


def _backfill_snapshots(conn: sqlite3.Connection) -> None:
    """Balances after each deal for ledgers of schema 1 (summed from their own transfers)."""
    conn.execute("DROP TRIGGER deals_no_update")
    for (session_id,) in conn.execute("SELECT id FROM sessions").fetchall():
        seats = {pid: seat for pid, seat in conn.execute("SELECT id, seat FROM players WHERE session_id = ?",
                                                         (session_id,))}
        balances, basket = [0] * len(seats), 0
        for (deal_id,) in conn.execute(
                "SELECT id FROM deals d WHERE session_id = ? AND NOT EXISTS (SELECT 1 FROM undos u "
                "WHERE u.deal_id = d.id) ORDER BY id", (session_id,)).fetchall():
            for payer, payee, chips in conn.execute(
                    "SELECT payer, payee, chips FROM transfers WHERE deal_id = ?", (deal_id,)).fetchall():
                if payer is None:
                    basket -= chips
                else:
                    balances[seats[payer]] -= chips
                if payee is None:
                    basket += chips
                else:
                    balances[seats[payee]] += chips
            conn.execute("UPDATE deals SET balances = ?, basket = ? WHERE id = ?",
                         (json.dumps(balances), basket, deal_id))
    conn.execute(_trigger("deals", "UPDATE"))


def _migrate(conn: sqlite3.Connection) -> None:
    """Apply pending migrations with sqlite-utils (imported only when there are some)."""
    from sqlite_utils import Database, Migrations

    migrations = Migrations("boston_ledger")

    @migrations(name="m001_initial")
    def m001_initial(db: Database) -> None:
        for statement in _statements(INITIAL_SCHEMA):
            db.execute(statement)

    @migrations(name="m002_corrections")
    def m002_corrections(db: Database) -> None:
        for statement in _statements(CORRECTIONS_SCHEMA):
            db.execute(statement)
        _backfill_snapshots(conn)

    migrations.apply(Database(conn))
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _statements(script: str) -> list[str]:
    """Split a schema script into statements, keeping trigger bodies whole."""
    out, buf = [], []
    for line in script.splitlines():
        buf.append(line)
        text = "\n".join(buf).strip()
        if text and sqlite3.complete_statement(text):
            out.append(text)
            buf = []
    return out


# ---- opening -------------------------------------------------------------------------------


def open_db(path: Path, create: bool = False) -> sqlite3.Connection:
    """Open the ledger, migrating it if needed. Without `create`, a missing file is an error."""
    if not path.exists():
        if not create:
            raise StorageError(
                _("no ledger at {path} yet; start a session with `boston-ledger new NAME NAME NAME NAME`", path=path)
            )
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StorageError(_("cannot make the folder for the ledger {path}: {strerror}; give --db a path in a folder you can write", path=path, strerror=strerror(e))) from None
    elif path.is_dir():
        raise StorageError(_("{path} is a folder, not a ledger file; give --db a file path", path=path))
    conn = sqlite3.connect(path, timeout=60, isolation_level=None)
    try:
        _prepare(conn, path, create)
    except BaseException as e:
        conn.close()  # lets SQLite tidy its -wal and -shm files away
        if not isinstance(e, sqlite3.DatabaseError):
            raise
        if "not a database" in str(e) or "malformed" in str(e):
            raise StorageError(_("{path} is not a boston-ledger database ({e}); give --db another file", path=path, e=e)) from None
        raise StorageError(_("cannot use the ledger {path}: {e}; check that the file and its folder are writable", path=path, e=e)) from None
    return conn


def _prepare(conn: sqlite3.Connection, path: Path, create: bool) -> None:
    """Settings of every open, the schema checked and migrated; StorageError if it is not ours."""
    conn.row_factory = sqlite3.Row
    conn.execute("PRAGMA foreign_keys = ON")
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise StorageError(_("{path} was written by a newer boston-ledger (schema {version}, this one knows {SCHEMA_VERSION}); upgrade boston-ledger to use it", path=path, version=version, SCHEMA_VERSION=SCHEMA_VERSION))
    if version == 0:
        if conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]:
            raise StorageError(_("{path} is an SQLite database of something else, not a boston-ledger database; give --db another file", path=path))
        if not create:
            raise StorageError(_("no ledger in {path} yet; start a session with `boston-ledger new NAME NAME NAME NAME`", path=path))
    if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    if version < SCHEMA_VERSION:
        _migrate(conn)


@contextmanager
def writing(conn: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction, taken before reading so that a read-check-write cannot race."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield conn
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


# ---- sessions ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Session:
    id: int
    name: str | None
    created_at: str
    tariff: Tariff
    chip_value: Decimal
    currency: str
    players: tuple[str, ...]
    player_ids: tuple[int, ...]
    settled: bool
    agreed_deals: int | None = None

    def seat(self, player_id: int | None) -> int | None:
        return None if player_id is None else self.player_ids.index(player_id)

    @property
    def seats(self) -> dict[int | None, int | None]:
        """Player id to seat, with None (the basket) to None: for reading many rows."""
        return {None: None, **{pid: seat for seat, pid in enumerate(self.player_ids)}}

    def party_name(self, seat: int | None) -> str:
        return "basket" if seat is BASKET else self.players[seat]


def create_session(conn: sqlite3.Connection, players: list[str], tariff: Tariff,
                   chip_value: Decimal, currency: str, name: str | None = None,
                   agreed_deals: int | None = None) -> int:
    cur = conn.execute(
        "INSERT INTO sessions (name, created_at, tariff_name, tariff_text, tariff_hash, chip_value, currency,"
        " agreed_deals) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (name, now(), tariff.name, tariff.text, tariff.digest, str(chip_value), currency, agreed_deals),
    )
    session_id = cur.lastrowid
    conn.executemany(
        "INSERT INTO players (session_id, seat, name) VALUES (?, ?, ?)",
        [(session_id, seat, player) for seat, player in enumerate(players)],
    )
    set_current(conn, session_id)
    return session_id


def current_session_id(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM settings WHERE key = 'current_session'").fetchone()
    if row is None:
        raise StorageError(_("no session yet; start one with `boston-ledger new NAME NAME NAME NAME`"))
    return int(row[0])


def load_session(conn: sqlite3.Connection, session_id: int) -> Session:
    row = conn.execute("SELECT * FROM sessions WHERE id = ?", (session_id,)).fetchone()
    if row is None:
        raise StorageError(_("no session {session_id} in this ledger", session_id=session_id))
    players = conn.execute(
        "SELECT id, name FROM players WHERE session_id = ? ORDER BY seat", (session_id,)
    ).fetchall()
    settled = conn.execute(  # settle and reopen alternate: settled when there are more settlements
        "SELECT (SELECT COUNT(*) FROM settlements WHERE session_id = ?)"
        " > (SELECT COUNT(*) FROM reopenings WHERE session_id = ?)", (session_id, session_id)).fetchone()[0]
    return Session(
        id=row["id"], name=row["name"], created_at=row["created_at"],
        tariff=parse(row["tariff_text"], origin=f"the tariff stored with session {session_id}"),
        chip_value=Decimal(row["chip_value"]), currency=row["currency"],
        players=tuple(p["name"] for p in players), player_ids=tuple(p["id"] for p in players),
        settled=bool(settled), agreed_deals=row["agreed_deals"],
    )


# ---- deals ---------------------------------------------------------------------------------

STANDING = ("NOT EXISTS (SELECT 1 FROM undos u WHERE u.deal_id = d.id)"
            " AND NOT EXISTS (SELECT 1 FROM supersessions s WHERE s.deal_id = d.id)")


@dataclass(frozen=True)
class Recorded:
    """A deal as stored, with its transfers."""

    id: int
    number: int
    deal: Deal
    entered_at: str
    transfers: tuple[Transfer, ...]
    balances: tuple[int, ...] = ()  # as stored after the deal
    basket: int | None = None


def state(conn: sqlite3.Connection, session: Session) -> State:
    """The state after the session's standing deals, read from the last one alone."""
    last = conn.execute(
        f"SELECT * FROM deals d WHERE d.session_id = ? AND {STANDING} ORDER BY d.id DESC LIMIT 1", (session.id,)
    ).fetchone()  # the same row as last_deal(); read here without its transfers
    if last is None:
        return State.start(len(session.players))
    balances = _kept(last["balances"])
    if len(balances) != len(session.players) or not isinstance(last["basket"], int):
        raise StorageError(_("the balances kept with deal {last} of session {id} are damaged; `boston-ledger check` shows what differs", last=last['number'], id=session.id))
    return State(balances=balances, basket=last["basket"], deals=last["number"],
                 stake_due=engine.wins_basket(session.tariff, _deal_of(session, last)))


def record_deal(conn: sqlite3.Connection, session: Session, number: int, deal: Deal, outcome: Outcome,
                after: State, correction_id: int | None = None, entered_at: str | None = None) -> int:
    """A deal, its transfers and the balances after it (derived, kept so that the end of a long
    session is read without summing its history; `check` replays them). A correction's
    replayed deals keep the time they were entered."""
    pid = session.player_ids

    def player(seat: int | None) -> int | None:
        return None if seat is None else pid[seat]

    cur = conn.execute(
        "INSERT INTO deals (session_id, number, contract, rank, declarer, partner, tricks,"
        " partner_tricks, boston, ace_turned, carte_blanche, entered_at, correction_id, balances, basket)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (session.id, number, deal.contract, deal.rank, player(deal.declarer), player(deal.partner),
         deal.tricks, deal.partner_tricks, player(deal.boston), int(deal.ace_turned),
         player(deal.carte_blanche), entered_at or now(), correction_id, json.dumps(after.balances),
         after.basket),
    )
    deal_id = cur.lastrowid
    conn.executemany(
        "INSERT INTO transfers (deal_id, payer, payee, chips, reason) VALUES (?, ?, ?, ?, ?)",
        [(deal_id, player(t.payer), player(t.payee), t.chips, t.reason) for t in outcome.transfers],
    )
    return deal_id


def _deal_of(session: Session, row: sqlite3.Row) -> Deal:
    seat = session.seat
    return Deal(contract=row["contract"], declarer=seat(row["declarer"]), partner=seat(row["partner"]),
                tricks=row["tricks"], partner_tricks=row["partner_tricks"], rank=row["rank"],
                boston=seat(row["boston"]), ace_turned=bool(row["ace_turned"]),
                carte_blanche=seat(row["carte_blanche"]))


def deals(conn: sqlite3.Connection, session: Session, with_transfers: bool = True,
          last: int | None = None) -> list[Recorded]:
    """The session's standing deals in order (only the `last` few when given)."""
    seat = session.seats.__getitem__
    limit = "" if last is None else f" ORDER BY d.id DESC LIMIT {int(last)}"
    rows = conn.execute(
        f"SELECT * FROM deals d WHERE d.session_id = ? AND {STANDING}" + (limit or " ORDER BY d.id"), (session.id,)
    ).fetchall()
    if last is not None:
        rows.reverse()
    by_deal: dict[int, list[Transfer]] = {}
    if with_transfers and rows:
        conn.row_factory = None  # plain tuples: many rows
        try:
            for t in conn.execute(
                f"SELECT t.deal_id, t.payer, t.payee, t.chips, t.reason FROM transfers t"
                f" JOIN deals d ON d.id = t.deal_id WHERE d.session_id = ? AND d.id >= ? AND {STANDING}"
                f" ORDER BY t.id", (session.id, rows[0]["id"]),
            ):
                by_deal.setdefault(t[0], []).append(Transfer(seat(t[1]), seat(t[2]), t[3], t[4]))
        finally:
            conn.row_factory = sqlite3.Row
    return [
        Recorded(
            id=r["id"], number=r["number"], entered_at=r["entered_at"],
            deal=_deal_of(session, r), transfers=tuple(by_deal.get(r["id"], ())),
            balances=_kept(r["balances"]), basket=r["basket"],
        )
        for r in rows
    ]


_tuple_new = tuple.__new__  # builds a Transfer without its slow generated __new__


def _kept(text: str | None) -> tuple:
    """Balances kept with a deal, as stored (a damaged value reads as empty: `check` reports it)."""
    try:
        return tuple(json.loads(text)) if text else ()
    except ValueError:
        return ()


# The columns of a deal as the players entered it, in the order of `_entry_deal`'s key.
ENTRY = "d.contract, d.rank, d.declarer, d.partner, d.tricks, d.partner_tricks, d.boston, d.ace_turned, d.carte_blanche"
MEMO = 1 << 14  # distinct entries remembered by a reader of a long session (then it starts afresh)


def _entry_deal(session: Session) -> Callable[[tuple], Deal]:
    """The Deal of an entry's columns (ENTRY, as stored), as `_deal_of` reads it.

    A long session repeats the same entries: each distinct one is read once and its Deal (an
    immutable value) shared. The columns are STRICT (text, integer or NULL), so equal keys are
    the same values.
    """
    made: dict[tuple, Deal] = {}
    seat = session.seat

    def deal(key: tuple) -> Deal:
        found = made.get(key)
        if found is None:
            contract, rank, declarer, partner, tricks, partner_tricks, boston, ace_turned, blank = key
            found = Deal(contract=contract, declarer=seat(declarer), partner=seat(partner), tricks=tricks,
                         partner_tricks=partner_tricks, rank=rank, boston=seat(boston),
                         ace_turned=bool(ace_turned), carte_blanche=seat(blank))
            if len(made) >= MEMO:
                made.clear()
            made[key] = found
        return found

    return deal


def iter_deals(conn: sqlite3.Connection, session: Session, with_transfers: bool = True) -> Iterator[Recorded]:
    """The session's standing deals in order with their transfers, read as a stream (for a
    long session: constant memory)."""
    seat = session.seats.__getitem__
    deal_of = _entry_deal(session)
    deals_cur, transfers_cur = conn.cursor(), conn.cursor()
    deals_cur.row_factory = transfers_cur.row_factory = None  # plain tuples: many rows
    # ordered by d.id (= t.deal_id), which the deals_by_session index gives without a sort
    transfers = iter(()) if not with_transfers else transfers_cur.execute(
        f"SELECT t.deal_id, t.payer, t.payee, t.chips, t.reason FROM transfers t JOIN deals d ON d.id = t.deal_id"
        f" WHERE d.session_id = ? AND {STANDING} ORDER BY d.id, t.id", (session.id,))
    pending = next(transfers, None)
    for r in deals_cur.execute(f"SELECT d.id, d.number, d.entered_at, d.balances, d.basket, {ENTRY} FROM deals d"
                               f" WHERE d.session_id = ? AND {STANDING} ORDER BY d.id", (session.id,)):
        deal_id = r[0]
        own = []
        while pending is not None and pending[0] == deal_id:
            own.append(_tuple_new(Transfer, (seat(pending[1]), seat(pending[2]), pending[3], pending[4])))
            pending = next(transfers, None)
        yield Recorded(id=deal_id, number=r[1], entered_at=r[2], deal=deal_of(r[5:]),
                       transfers=tuple(own), balances=_kept(r[3]), basket=r[4])


def replay_rows(conn: sqlite3.Connection, session: Session, first: int | None = None,
                last: int | None = None) -> Iterator[tuple]:
    """The session's standing deals in order (those with ids from `first` to `last` when given),
    as `check` holds them to a replay: (id, number, balances as kept (text), basket, the deal's
    transfers as a JSON array of [payer id, payee id, chips, reason] in id order, then the
    ENTRY columns). A stream."""
    cur = conn.cursor()
    cur.row_factory = None
    # A deal's transfers are read through the index on (deal_id), whose entries for one deal
    # are in id order, and json_group_array adds them in the order it reads them.
    return cur.execute(
        f"SELECT d.id, d.number, d.balances, d.basket, (SELECT json_group_array(json_array(t.payer, t.payee,"
        f" t.chips, t.reason)) FROM transfers t INDEXED BY transfers_by_deal WHERE t.deal_id = d.id),"
        f" {ENTRY} FROM deals d WHERE d.session_id = ? AND d.id >= ? AND d.id <= ? AND {STANDING} ORDER BY d.id",
        (session.id, -2**63 if first is None else first, 2**63 - 1 if last is None else last))


def halfway(conn: sqlite3.Connection, session: Session) -> tuple[int, int]:
    """The number of the session's standing deals and the id of the one that ends its first half."""
    count = conn.execute(f"SELECT COUNT(*) FROM deals d WHERE d.session_id = ? AND {STANDING}",
                         (session.id,)).fetchone()[0]
    if not count:
        return 0, 0
    middle = conn.execute(f"SELECT d.id FROM deals d WHERE d.session_id = ? AND {STANDING} ORDER BY d.id"
                          f" LIMIT 1 OFFSET ?", (session.id, (count - 1) // 2)).fetchone()
    return count, middle[0] if middle else 0


def undone(conn: sqlite3.Connection, session: Session) -> list[tuple[Recorded, str]]:
    """The deals taken back with undo, with when, in the order they were entered."""
    rows = conn.execute(
        "SELECT d.*, u.undone_at FROM deals d JOIN undos u ON u.deal_id = d.id"
        " WHERE d.session_id = ? ORDER BY d.id", (session.id,)
    ).fetchall()
    return [
        (Recorded(id=r["id"], number=r["number"], entered_at=r["entered_at"],
                  deal=_deal_of(session, r), transfers=()), r["undone_at"])
        for r in rows
    ]


def transfer_rows(conn: sqlite3.Connection, session: Session) -> Iterator[tuple]:
    """Every standing transfer as (deal number, from, to, chips, reason), names for parties."""
    cur = conn.cursor()
    cur.row_factory = None
    yield from cur.execute(
        f"SELECT d.number, COALESCE(a.name, 'basket'), COALESCE(b.name, 'basket'), t.chips, t.reason"
        f" FROM transfers t JOIN deals d ON d.id = t.deal_id"
        f" LEFT JOIN players a ON a.id = t.payer LEFT JOIN players b ON b.id = t.payee"
        f" WHERE d.session_id = ? AND {STANDING} ORDER BY t.id", (session.id,))


def transfer_parties(conn: sqlite3.Connection, session: Session) -> sqlite3.Cursor:
    """Every standing transfer as (deal number, payer id, payee id, chips, reason), in id order:
    transfer_rows without the names (`player_names` gives them), for a long session."""
    cur = conn.cursor()
    cur.row_factory = None
    return cur.execute(
        f"SELECT d.number, t.payer, t.payee, t.chips, t.reason FROM transfers t JOIN deals d ON d.id = t.deal_id"
        f" WHERE d.session_id = ? AND {STANDING} ORDER BY t.id", (session.id,))


def player_names(conn: sqlite3.Connection) -> dict[int, str]:
    """Every player of the ledger by id (a few per session)."""
    return {row[0]: row[1] for row in conn.execute("SELECT id, name FROM players")}


def deal_rows(conn: sqlite3.Connection, session: Session) -> sqlite3.Cursor:
    """The session's standing deals in order as (number, entered_at, balances as kept (text),
    basket, then the ENTRY columns): iter_deals without the Recorded, for a long session."""
    cur = conn.cursor()
    cur.row_factory = None
    return cur.execute(f"SELECT d.number, d.entered_at, d.balances, d.basket, {ENTRY} FROM deals d"
                       f" WHERE d.session_id = ? AND {STANDING} ORDER BY d.id", (session.id,))


def transfers_of(conn: sqlite3.Connection, session: Session, deal_id: int) -> list[Transfer]:
    seat = session.seat
    return [Transfer(seat(r[0]), seat(r[1]), r[2], r[3]) for r in conn.execute(
        "SELECT payer, payee, chips, reason FROM transfers WHERE deal_id = ? ORDER BY id", (deal_id,))]


def last_deal(conn: sqlite3.Connection, session: Session) -> Recorded | None:
    """The last standing deal, read alone."""
    row = conn.execute(
        f"SELECT * FROM deals d WHERE d.session_id = ? AND {STANDING} ORDER BY d.id DESC LIMIT 1", (session.id,)
    ).fetchone()
    if row is None:
        return None
    return Recorded(id=row["id"], number=row["number"], entered_at=row["entered_at"], deal=_deal_of(session, row),
                    transfers=tuple(transfers_of(conn, session, row["id"])))


def undo(conn: sqlite3.Connection, deal_id: int) -> None:
    conn.execute("INSERT INTO undos (deal_id, undone_at) VALUES (?, ?)", (deal_id, now()))


def undone_count(conn: sqlite3.Connection, session: Session) -> int:
    return conn.execute(
        "SELECT COUNT(*) FROM undos u JOIN deals d ON d.id = u.deal_id WHERE d.session_id = ?", (session.id,)
    ).fetchone()[0]


def correct(conn: sqlite3.Connection, session: Session, number: int, old_deal: int, reason: str,
            superseded: list[int]) -> int:
    """Record a correction of deal `number`, superseding the standing deals from it on."""
    cid = conn.execute(
        "INSERT INTO corrections (session_id, number, old_deal, reason, corrected_at) VALUES (?, ?, ?, ?, ?)",
        (session.id, number, old_deal, reason, now())).lastrowid
    conn.executemany("INSERT INTO supersessions (deal_id, correction_id) VALUES (?, ?)",
                     [(deal_id, cid) for deal_id in superseded])
    return cid


@dataclass(frozen=True)
class Correction:
    number: int
    reason: str
    corrected_at: str
    was: Deal
    now: Deal


def corrections(conn: sqlite3.Connection, session: Session) -> list[Correction]:
    """The audit of a session's corrections, oldest first."""
    out = []
    for c in conn.execute("SELECT * FROM corrections WHERE session_id = ? ORDER BY id", (session.id,)).fetchall():
        old = conn.execute("SELECT * FROM deals WHERE id = ?", (c["old_deal"],)).fetchone()
        new = conn.execute("SELECT * FROM deals WHERE correction_id = ? AND number = ?",
                           (c["id"], c["number"])).fetchone()
        out.append(Correction(c["number"], c["reason"], c["corrected_at"], _deal_of(session, old),
                              _deal_of(session, new)))
    return out


def reopen(conn: sqlite3.Connection, session: Session) -> None:
    conn.execute("INSERT INTO reopenings (session_id, reopened_at) VALUES (?, ?)", (session.id, now()))


def sessions(conn: sqlite3.Connection) -> list[Session]:
    return [load_session(conn, row[0]) for row in conn.execute("SELECT id FROM sessions ORDER BY id")]


def set_current(conn: sqlite3.Connection, session_id: int) -> None:
    conn.execute("INSERT OR REPLACE INTO settings (key, value) VALUES ('current_session', ?)", (str(session_id),))


def record_payment(conn: sqlite3.Connection, payer: str, payee: str, cents: int, currency: str) -> None:
    conn.execute("INSERT INTO payments (payer, payee, cents, currency, paid_at) VALUES (?, ?, ?, ?, ?)",
                 (payer, payee, cents, currency, now()))


def payments(conn: sqlite3.Connection) -> list[sqlite3.Row]:
    return conn.execute("SELECT * FROM payments ORDER BY id").fetchall()


def save_settlement(conn: sqlite3.Connection, session: Session, result: dict) -> None:
    conn.execute(
        "INSERT INTO settlements (session_id, settled_at, result) VALUES (?, ?, ?)",
        (session.id, now(), json.dumps(result, ensure_ascii=False)),
    )


def settlement(conn: sqlite3.Connection, session: Session) -> dict | None:
    row = conn.execute(
        "SELECT result FROM settlements WHERE session_id = ? ORDER BY id DESC LIMIT 1", (session.id,)
    ).fetchone()
    return None if row is None else json.loads(row[0])


def settlements(conn: sqlite3.Connection, session: Session) -> list[tuple[str, dict]]:
    """Every settlement of a session, the earliest first: (when, result). A reopened session
    has one for each time it was settled."""
    return [(row[0], json.loads(row[1])) for row in conn.execute(
        "SELECT settled_at, result FROM settlements WHERE session_id = ? ORDER BY id", (session.id,))]


def resolve_path(db: str | None) -> Path:
    """--db, else $BOSTON_LEDGER_DB, else the app directory's ledger."""
    chosen = db or os.environ.get("BOSTON_LEDGER_DB")
    return Path(chosen).expanduser() if chosen else default_path()
