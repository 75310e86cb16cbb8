"""`check`: every invariant of a session, held by a full replay of its standing deals.

Every standing deal is played by the engine with the session's stored tariff; its number, each
of its stored transfers (in id order) and its kept balances are held to the engine's result
(`core.invariants.replay`). A sound session is read quickly (`Quick`): the transfers come
grouped per deal as one JSON text, compared with the engine's written the same way, and each
distinct entry is planned once. At the first doubt the same replay runs again reading exact
values (`invariants.Exact`), which says what differs.
"""

from __future__ import annotations

import gc
import json
import os
import sqlite3
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..core import invariants
from ..core.engine import BASKET, Outcome, State, Transfer
from ..core.invariants import DOUBT, Problem
from ..store import audit, read
from ..store.db import open_db
from ..store.records import MEMO, Session, StoredDeal, entry_reader

if TYPE_CHECKING:
    import subprocess


def check(conn: sqlite3.Connection, session_ids: list[int] | None = None, every: bool = False) -> list[Problem]:
    """Every problem of these sessions (default: the current one; `every`: all of the ledger's)."""
    ids = read.session_ids(conn) if every else [read.current_session_id(conn)] if session_ids is None else session_ids
    return [p for session_id in ids for p in check_session(conn, session_id)]


def check_session(conn: sqlite3.Connection, session_id: int) -> list[Problem]:
    """Every invariant of one session."""
    if quick_holds(conn, session_id):  # every deal of a sound session is checked here once
        return []
    broken = invariants.references(session_id, audit.foreign_references(conn, session_id))
    if broken:  # the rest would misread seats
        return broken
    session = read.session(conn, session_id)
    __, found = invariants.replay(session_id, session.tariff, len(session.players), read.deals(conn, session),
                                  invariants.Exact(session_id, session.tariff, len(session.players)))
    return found or []


def quick_holds(conn: sqlite3.Connection, session_id: int) -> bool:
    """Whether the checks find nothing, worked out quickly: True only when they would find
    nothing; at the first doubt False, and the exact checks run to say what differs."""
    try:
        if audit.foreign_references(conn, session_id, gone_only=True):
            return False
        return _replay_holds(conn, read.session(conn, session_id))
    except Exception:  # whatever it is, the exact checks meet it again and say so
        return False


class Quick:
    """The replay's quick reading (deal_rows with JSON transfers): the kept balances and the
    transfers compared as the texts SQLite and json.dumps write, player ids for seats."""

    def __init__(self, session: Session):
        self.pids = session.player_ids
        self.plan_of = invariants.plans(session.tariff, entry_reader(session), MEMO)
        self.written: dict[Transfer, str] = {}

    @staticmethod
    def number(row: StoredDeal) -> int:
        return row.number

    def plan(self, row: StoredDeal):
        return self.plan_of(row.entry)

    def differs(self, row: StoredDeal, after: State, outcome: Outcome) -> str | None:
        # json.dumps wrote the kept balances, ints as str(list(...)) writes them; another
        # spelling of the same numbers is a doubt, which the exact reading settles
        if row.basket != after.basket or row.balances != str(list(after.balances)):
            return DOUBT
        if row.transfers != "[" + ",".join(map(self.json_of, outcome.transfers)) + "]":
            return DOUBT
        return None

    def json_of(self, t: Transfer) -> str:
        """A transfer as SQLite's json_array(payer, payee, chips, reason) writes it."""
        found = self.written.get(t)
        if found is None:
            payer, payee, chips, reason = t
            pids = self.pids
            found = "[{},{},{},{}]".format("null" if payer is BASKET else pids[payer],
                                           "null" if payee is BASKET else pids[payee], chips,
                                           json.dumps(reason, ensure_ascii=False))
            if len(self.written) >= MEMO:
                self.written.clear()
            self.written[t] = found
        return found

    def kept_state(self, row: StoredDeal | None, first: int) -> State | None:
        """The state kept with deal `first` (its row), if it is readable as the replay writes it."""
        if row is None or row.id != first or not isinstance(row.balances, str) or type(row.basket) is not int:
            return None
        try:
            balances = json.loads(row.balances)
        except ValueError:
            return None
        if type(balances) is not list or any(type(b) is not int for b in balances):
            return None
        return State(tuple(balances), row.basket, row.number, self.plan(row).basket_won)


SPLIT = 20_000  # standing deals from which a second process replays the later half meanwhile


def _replay_holds(conn: sqlite3.Connection, session: Session) -> bool:
    """Whether the quick replay finds nothing.

    A long session is replayed in two halves side by side, the later one by a helper process
    (another core) that starts from the balances kept with the last deal of the first half.
    That is the same replay: the first half holds only if the replay reaches that deal (by
    id) with exactly those balances, that basket and that number, and whether a deal wins the
    basket depends on the deal alone (engine.Plan), so the second half starts from the very
    state the whole replay would have there.
    """
    count, middle = read.halfway(conn, session)
    helper = start_helper(conn, session, middle) if count >= SPLIT and _cores() > 1 else None
    if helper is None:
        return replay_span(conn, session)
    try:
        if not replay_span(conn, session, last=middle):
            return False
        said, __ = helper.communicate()
        if helper.returncode == 0 and said in (b"1", b"0"):
            return said == b"1"
        return replay_span(conn, session, first=middle)  # the helper failed: the later half here
    finally:
        if helper.poll() is None:
            helper.kill()
            helper.wait()


def replay_span(conn: sqlite3.Connection, session: Session, first: int | None = None,
                last: int | None = None) -> bool:
    """Whether the quick replay of the deals from id `first` (which must be standing; the
    replay starts from the state kept with it) to id `last` (which must be the last deal
    replayed) finds nothing."""
    reading = Quick(session)
    rows = read.deal_rows(conn, session, "json", first, last)
    start, row = None, None
    if first is not None:
        row = next(rows, None)
        start = reading.kept_state(row, first)
        if start is None:
            return False
    collecting = gc.isenabled()
    gc.disable()  # a replay makes millions of short-lived tuples and no cycle; collections only slow it
    ends = _Last(rows)
    try:
        __, found = invariants.replay(session.id, session.tariff, len(session.players), ends, reading, start)
    finally:
        if collecting:
            gc.enable()
    row = ends.row or row
    return not found and (last is None or (row is not None and row.id == last))


class _Last:
    """Rows passed on as they are, remembering the last one."""

    def __init__(self, rows):
        self.rows, self.row = rows, None

    def __iter__(self):
        for row in self.rows:
            self.row = row
            yield row


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# The helper: a fresh interpreter (an open SQLite connection must not cross a fork) that
# imports this very package, replays the later half and says 1 (it holds) or 0.
HELPER = ("import sys; sys.path.insert(0, sys.argv[1]); from boston_ledger.app import check; "
          "sys.stdout.write(check.helper_main(sys.argv[2]))")


def start_helper(conn: sqlite3.Connection, session: Session, middle: int) -> subprocess.Popen | None:
    import subprocess  # here: only a long check needs a helper

    path = conn.execute("PRAGMA database_list").fetchone()[2]
    if not path or not sys.executable:  # a database in memory, an interpreter that cannot be started
        return None
    root = str(Path(__file__).resolve().parent.parent.parent)
    asked = json.dumps({"db": path, "session": session.id, "first": middle})
    try:
        return subprocess.Popen([sys.executable, "-I", "-c", HELPER, root, asked], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:
        return None


def helper_main(request: str) -> str:
    """What the helper process does: the later half of a session's replay."""
    asked = json.loads(request)
    conn = open_db(Path(asked["db"]))
    try:
        session = read.session(conn, asked["session"])
        return "1" if replay_span(conn, session, first=asked["first"]) else "0"
    finally:
        conn.close()
