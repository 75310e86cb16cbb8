"""The ledger's invariants as pure checks: each takes what is stored and returns problems.

A problem names the session, the deal when there is one, and what was expected and found.
`boston-ledger check` prints them; the ledger runs them after every write it makes.
"""

from __future__ import annotations

import gc
import json
import os
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from . import engine, storage
from .engine import BASKET, State, Transfer
from .i18n import N_, _, reason
from .storage import Recorded, Session

if TYPE_CHECKING:
    import subprocess


WHAT = (N_("deal"), N_("transfer"), N_("correction"), N_("superseded deal"))  # the words the SQL below gives


@dataclass(frozen=True)
class Problem:
    session: int
    deal: int | None
    what: str

    def __str__(self) -> str:
        where = _("session {id}", id=self.session) + (_(", deal {number}", number=self.deal) if self.deal is not None else "")
        return f"{where}: {self.what}"


def transfers_balanced(session: Session, r: Recorded) -> list[Problem]:
    """Every transfer of a deal moves a positive whole number of chips between two different parties."""
    problems = []
    n = len(session.players)
    for t in r.transfers:
        parties_ok = all(p is BASKET or 0 <= p < n for p in (t.payer, t.payee))
        if t.chips <= 0 or t.payer == t.payee or not parties_ok:
            problems.append(Problem(session.id, r.number, _("transfer {t} is not a movement of chips between two parties of the session", t=t)))
    return problems


def zero_sum(session: Session, state: State) -> list[Problem]:
    """Balances plus basket sum to zero."""
    total = sum(state.balances) + state.basket
    if total:
        return [Problem(session.id, None, _("balances plus basket sum to {total}, expected 0", total=total))]
    return []


def replay_matches(session: Session, recorded: Iterable[Recorded]) -> list[Problem]:
    """Replaying the deals through the engine and the session's stored tariff gives the stored
    transfers and the balances kept after each deal (so every stored transfer is well formed)."""
    problems = []
    state = State.start(len(session.players))
    for r in recorded:
        if r.number != state.deals + 1:
            problems.append(Problem(session.id, r.number, _("the deal is numbered {number}; it is deal {expected} of the session", number=r.number,
                                                            expected=state.deals + 1)))
            break
        try:
            outcome = engine.play(session.tariff, state, r.deal)
        except engine.DealError as e:
            problems.append(Problem(session.id, r.number, _("the deal no longer scores: {e}", e=e)))
            break
        after = engine.advance(state, outcome)
        if r.balances != after.balances or r.basket != after.basket:
            problems.append(Problem(session.id, r.number, _("stored balances after the deal {stored}, basket {basket}; the replay gives {replayed}, "
                "basket {replayed_basket}", stored=list(r.balances), basket=r.basket, replayed=list(after.balances),
                replayed_basket=after.basket)))
            break
        if tuple(outcome.transfers) != tuple(r.transfers):
            problems += transfers_balanced(session, r)  # the engine's are well formed; are these?
            expected = [t for t in outcome.transfers if t not in r.transfers]
            found = [t for t in r.transfers if t not in outcome.transfers]
            problems.append(Problem(
                session.id, r.number,
                _("stored transfers differ from the replay: expected {expected}, found {found}",
                  expected=_brief(expected), found=_brief(found))
                + ("" if expected or found else _(" (in another order)"))))
            break  # later deals depend on this one; one report is enough
        state = after
    return problems


def references(conn: sqlite3.Connection, session_id: int) -> list[Problem]:
    """Every deal and transfer points at players of its own session."""
    problems = []
    rows = conn.execute(
        """
        SELECT d.id, d.number, 'deal' AS what, p.session_id
          FROM deals d JOIN players p ON p.id IN (d.declarer, d.partner, d.boston, d.carte_blanche)
         WHERE d.session_id = ? AND p.session_id != d.session_id
        UNION ALL
        SELECT d.id, d.number, 'transfer', p.session_id
          FROM transfers t JOIN deals d ON d.id = t.deal_id
          JOIN players p ON p.id IN (t.payer, t.payee)
         WHERE d.session_id = ? AND p.session_id != d.session_id
        """, (session_id, session_id)).fetchall()
    for row in rows:
        problems.append(Problem(session_id, row[1], _("a {what} names a player of session {other}", what=_(row[2]), other=row[3])))
    for row in conn.execute(
        """
        SELECT c.number, 'correction' FROM corrections c JOIN deals d ON d.id = c.old_deal
         WHERE c.session_id = ? AND d.session_id != c.session_id
        UNION ALL
        SELECT d.number, 'superseded deal' FROM supersessions s JOIN corrections c ON c.id = s.correction_id
          JOIN deals d ON d.id = s.deal_id
         WHERE (c.session_id = ? OR d.session_id = ?) AND d.session_id != c.session_id
        """, (session_id, session_id, session_id)):
        problems.append(Problem(session_id, row[0], _("a {what} belongs to a correction of another session", what=_(row[1]))))
    orphans = conn.execute(
        "SELECT COUNT(*) FROM transfers t LEFT JOIN deals d ON d.id = t.deal_id WHERE d.id IS NULL"
    ).fetchone()[0]
    if orphans:
        problems.append(Problem(session_id, None, _("{orphans} transfers point at no deal", orphans=orphans)))
    return problems


def check_session(conn: sqlite3.Connection, session_id: int) -> list[Problem]:
    """Every invariant of one session."""
    if _holds(conn, session_id):  # every deal of a sound session is checked here once
        return []
    broken = references(conn, session_id)
    if broken:  # the rest would misread seats
        return broken
    session = storage.load_session(conn, session_id)
    # the replay holds every deal's number, transfers and kept balances to the engine, so the
    # kept balances of the last deal are the sum of all its transfers
    return replay_matches(session, storage.iter_deals(conn, session))


def _holds(conn: sqlite3.Connection, session_id: int) -> bool:
    """Whether `references` and `replay_matches` would find nothing, worked out quickly: True
    only when they would; at the first doubt False, and they run to say what differs.

    The replay is the same full replay: every standing deal is played by the engine with the
    session's tariff, and its number, each of its stored transfers (in id order) and its kept
    balances are held to the engine's result. What is quicker is the reading: the transfers
    come grouped per deal as one JSON text, compared with the engine's written the same way,
    and each distinct entry is read into a Deal and planned (`engine.plan`) once.
    """
    try:
        if _references_doubtful(conn, session_id):
            return False
        return _replay_holds(conn, storage.load_session(conn, session_id))
    except Exception:  # whatever it is, the full checks meet it again and say so
        return False


def _references_doubtful(conn: sqlite3.Connection, session_id: int) -> bool:
    """Whether `references` might find something that `_replay_holds` does not see: a player
    of another session named by a deal taken back or superseded (or by its transfers), a
    correction of another session, a transfer of no deal. (The standing deals' players and
    transfers are the replay's: a seat of another session cannot match it.)"""
    gone = "SELECT deal_id FROM undos UNION SELECT deal_id FROM supersessions"
    named = conn.execute(
        f"""
        SELECT EXISTS (SELECT 1 FROM deals d JOIN players p ON p.id IN (d.declarer, d.partner, d.boston, d.carte_blanche)
                        WHERE d.id IN ({gone}) AND d.session_id = ? AND p.session_id != d.session_id)
            OR EXISTS (SELECT 1 FROM transfers t JOIN deals d ON d.id = t.deal_id
                         JOIN players p ON p.id IN (t.payer, t.payee)
                        WHERE t.deal_id IN ({gone}) AND d.session_id = ? AND p.session_id != d.session_id)
        """, (session_id, session_id)).fetchone()[0]
    if named:
        return True
    crossed = conn.execute(
        """
        SELECT EXISTS (SELECT 1 FROM corrections c JOIN deals d ON d.id = c.old_deal
                        WHERE c.session_id = ? AND d.session_id != c.session_id)
            OR EXISTS (SELECT 1 FROM supersessions s JOIN corrections c ON c.id = s.correction_id
                         JOIN deals d ON d.id = s.deal_id
                        WHERE (c.session_id = ? OR d.session_id = ?) AND d.session_id != c.session_id)
        """, (session_id, session_id, session_id)).fetchone()[0]
    if crossed:
        return True
    return conn.execute(
        "SELECT COUNT(*) FROM transfers t LEFT JOIN deals d ON d.id = t.deal_id WHERE d.id IS NULL"
    ).fetchone()[0] > 0


SPLIT = 20_000  # standing deals from which a second process replays the later half meanwhile


def _replay_holds(conn: sqlite3.Connection, session: Session) -> bool:
    """`replay_matches(session, storage.iter_deals(...)) == []`, without building a Recorded
    (and a Transfer for each of millions of stored transfers).

    A long session is replayed in two halves side by side, the later one by a helper process
    (another core) that starts from the balances kept with the last deal of the first half.
    That is the same replay: the first half holds only if the replay reaches that deal (by
    id) with exactly those balances (as str(list(...)) writes them), that basket and that
    number, and whether a deal wins the basket depends on the deal alone (engine.Plan), so
    the second half starts from the very state the whole replay would have there.
    """
    count, middle = storage.halfway(conn, session)
    helper = _helper(conn, session, middle) if count >= SPLIT and _cores() > 1 else None
    if helper is None:
        return _replay_span(conn, session)
    try:
        if not _replay_span(conn, session, last=middle):
            return False
        said, _ = helper.communicate()
        if helper.returncode == 0 and said in (b"1", b"0"):
            return said == b"1"
        return _replay_span(conn, session, first=middle)  # the helper failed: the later half here
    finally:
        if helper.poll() is None:
            helper.kill()
            helper.wait()


def _replay_span(conn: sqlite3.Connection, session: Session, first: int | None = None,
                 last: int | None = None) -> bool:
    """_replay_holds for the deals from id `first` (which must be standing; the replay starts
    from the state kept with it) to id `last` (which must be the last deal replayed)."""
    tariff = session.tariff
    pids = session.player_ids
    deal_of = storage._entry_deal(session)  # raises for a seat not of this session: a doubt
    plans: dict[tuple, engine.Plan] = {}  # by the entry as stored, like deal_of's Deals
    written: dict[Transfer, str] = {}

    def planned(entry: tuple) -> engine.Plan:
        found = plans.get(entry)
        if found is None:
            found = engine.plan(tariff, deal_of(entry))  # DealError: the full replay reports it
            if len(plans) >= storage.MEMO:
                plans.clear()
            plans[entry] = found
        return found

    def json_of(t: Transfer) -> str:
        """A transfer as SQLite's json_array(payer, payee, chips, reason) writes it."""
        found = written.get(t)
        if found is None:
            payer, payee, chips, reason = t
            found = "[{},{},{},{}]".format("null" if payer is BASKET else pids[payer],
                                           "null" if payee is BASKET else pids[payee], chips,
                                           json.dumps(reason, ensure_ascii=False))
            if len(written) >= storage.MEMO:
                written.clear()
            written[t] = found
        return found

    rows = storage.replay_rows(conn, session, first, last)
    state, row = State.start(len(session.players)), None
    if first is not None:  # the state kept with deal `first`, if it is the one the replay reaches
        row = next(rows, None)
        if row is None or row[0] != first or not isinstance(row[2], str) or type(row[3]) is not int:
            return False
        try:
            balances = json.loads(row[2])
        except ValueError:
            return False
        if type(balances) is not list or any(type(b) is not int for b in balances):
            return False
        state = State(tuple(balances), row[3], row[1], planned(row[5:]).basket_won)
    collecting = gc.isenabled()
    gc.disable()  # a replay makes millions of short-lived tuples and no cycle; collections only slow it
    try:
        for row in rows:
            if row[1] != state.deals + 1:
                return False
            plan = planned(row[5:])
            outcome = engine.play(tariff, state, plan.deal, plan)
            after = engine.advance(state, outcome)
            # json.dumps wrote the kept balances, ints as str(list(...)) writes them; another
            # spelling of the same numbers goes to the full replay, which reads it
            if row[3] != after.basket or row[2] != str(list(after.balances)):
                return False
            if row[4] != "[" + ",".join(map(json_of, outcome.transfers)) + "]":
                return False
            state = after
    finally:
        if collecting:
            gc.enable()
    return last is None or (row is not None and row[0] == last)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


# The helper: a fresh interpreter (an open SQLite connection must not cross a fork) that
# imports this very package, replays the later half and says 1 (it holds) or 0.
_HELPER = ("import sys; sys.path.insert(0, sys.argv[1]); from boston_ledger import checks; "
           "sys.stdout.write(checks._helper_main(sys.argv[2]))")


def _helper(conn: sqlite3.Connection, session: Session, middle: int) -> subprocess.Popen | None:
    import subprocess  # here: every `deal` imports this module for its invariants, and needs no helper

    path = conn.execute("PRAGMA database_list").fetchone()[2]
    if not path or not sys.executable:  # a database in memory, an interpreter that cannot be started
        return None
    root = str(Path(__file__).resolve().parent.parent)
    asked = json.dumps({"db": path, "session": session.id, "first": middle})
    try:
        return subprocess.Popen([sys.executable, "-I", "-c", _HELPER, root, asked], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    except OSError:
        return None


def _helper_main(request: str) -> str:
    """What the helper process does: the later half of a session's replay."""
    asked = json.loads(request)
    conn = storage.open_db(Path(asked["db"]))
    try:
        session = storage.load_session(conn, asked["session"])
        return "1" if _replay_span(conn, session, first=asked["first"]) else "0"
    finally:
        conn.close()


def session_ids(conn: sqlite3.Connection) -> list[int]:
    return [row[0] for row in conn.execute("SELECT id FROM sessions ORDER BY id")]


def _brief(transfers) -> str:
    return "[" + ", ".join(f"{_party(t.payer)}→{_party(t.payee)} {t.chips} {reason(t.reason)}" for t in transfers) + "]"


def _party(seat: int | None) -> str:
    return _("basket") if seat is BASKET else _("seat {seat}", seat=seat)
