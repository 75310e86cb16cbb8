"""Reading the ledger: one reader per concept, returning records (`records.py`).

Deals are the record; balances are sums of their transfers, kept with each deal so that the
end of a long session is read without summing its history. A deal stands unless it was taken
back (undos) or replaced by a correction (supersessions).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from decimal import Decimal
from itertools import groupby
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from ..core import columns, engine
from ..core.controls import visible
from ..core.engine import Deal, State, Transfer
from ..core.fields import STORED
from ..core.i18n import _
from ..core.tariff import MISDEAL
from ..core.tariff_files import parse
from . import StorageError
from .records import ENTRY, Correction, Evening, Extension, PaymentRecord, Recorded, Seating, Session, stored_deal

if TYPE_CHECKING:  # loaded by the readers of settlements only: `deal` and `status` need none
    from ..core.settlement import Settled

# What an import that was undone brought (`boston-ledger import --undo`): on record, left out by every reader.
# An evening no reader counts: one brought by an import since undone, or one continued in another
# ledger and brought from there whole by an import that stands (its later session has its identity)
WITHDRAWN = ("(SELECT i.session_id FROM imported_sessions i JOIN import_undos u ON u.import_id = i.import_id"
             " UNION SELECT e.session_id FROM evening_ids e JOIN evening_ids f ON f.identity = e.identity"
             " AND f.session_id > e.session_id JOIN imported_sessions g ON g.session_id = f.session_id"
             " WHERE g.import_id NOT IN (SELECT import_id FROM import_undos))")
WITHDRAWN_PAYMENTS = "(SELECT i.payment_id FROM imported_payments i JOIN import_undos u ON u.import_id = i.import_id)"
STANDING = ("NOT EXISTS (SELECT 1 FROM undos u WHERE u.deal_id = d.id)"
            " AND NOT EXISTS (SELECT 1 FROM supersessions s WHERE s.deal_id = d.id)")


# ---- sessions ------------------------------------------------------------------------------


def current_session_id(conn: sqlite3.Connection) -> int:
    row = conn.execute("SELECT value FROM settings WHERE key = 'current_session'").fetchone()
    if row is None:
        raise StorageError(_("no session yet; start one with `boston-ledger new NAME NAME NAME NAME`"))
    value = row[0]
    if type(value) is not str or not value.isascii() or not value.isdigit() or len(value) > 18:
        raise StorageError(_("the ledger's current session is damaged (it reads {value!r}, not a session number); "
                             "choose one with `boston-ledger use ID` (`boston-ledger sessions` lists them)",
                             value=value if type(value) is not str else value[:24]))
    return int(value)


def session(conn: sqlite3.Connection, session_id: int) -> Session:
    row = conn.execute(f"SELECT * FROM sessions WHERE id = ? AND id NOT IN {WITHDRAWN}", (session_id,)).fetchone()
    if row is None:
        raise StorageError(_("no session {session_id} in this ledger", session_id=session_id))
    players = conn.execute(
        "SELECT id, name FROM players WHERE session_id = ? ORDER BY seat", (session_id,)
    ).fetchall()
    settled = _settled(conn, session_id)
    agreed = row["agreed_deals"]
    if agreed is not None:  # and the deals agreed since (`extend N`)
        agreed += conn.execute("SELECT COALESCE(SUM(deals), 0) FROM extensions WHERE session_id = ?",
                               (session_id,)).fetchone()[0]
    person = {p["id"]: i for i, p in enumerate(players)}
    try:
        seatings = tuple(Seating(r[0], r[1], r[2], person[r[3]], person[r[4]], r[5]) for r in conn.execute(
            "SELECT s.id, s.from_deal, s.seat, s.sitter, s.account, s.made_at FROM seatings s WHERE s.session_id = ?"
            " AND NOT EXISTS (SELECT 1 FROM seating_undos u WHERE u.seating_id = s.id) ORDER BY s.id", (session_id,)))
    except KeyError:
        raise StorageError(_("a change of the table of session {session_id} names a player of another session; "
                             "`boston-ledger check` shows what is damaged", session_id=session_id)) from None
    return Session(
        id=row["id"], name=_line(row["name"]), created_at=row["created_at"],
        tariff=parse(row["tariff_text"], origin=f"the tariff stored with session {session_id}"),
        chip_value=Decimal(row["chip_value"]), currency=_line(row["currency"]),
        people=tuple(_line(p["name"]) for p in players), people_ids=tuple(p["id"] for p in players),
        settled=settled, agreed_deals=agreed, demo=bool(row["demo"]), seatings=seatings,
    )


def _settled(conn: sqlite3.Connection, session_id: int) -> bool:
    """Settle and reopen alternate: a session is settled when it has more settlements than reopenings."""
    return bool(conn.execute(
        "SELECT (SELECT COUNT(*) FROM settlements WHERE session_id = ?)"
        " > (SELECT COUNT(*) FROM reopenings WHERE session_id = ?)", (session_id, session_id)).fetchone()[0])


def open_session_ids(conn: sqlite3.Connection) -> list[int]:
    """The sessions not settled, the demonstration's aside (with or without deals), the earliest first.
    (Read every `deal`: the sessions' numbers come from the players' index, and only the open
    ones' rows are read, each of which holds its tariff's whole text.)"""
    return [row[0] for row in conn.execute(
        f"SELECT s.id FROM sessions s WHERE s.demo = 0 AND s.id NOT IN {WITHDRAWN}"
        " AND s.id IN (SELECT DISTINCT p.session_id FROM players p"
        " WHERE p.session_id NOT IN (SELECT session_id FROM (SELECT session_id, 1 AS k FROM settlements"
        " UNION ALL SELECT session_id, -1 FROM reopenings) GROUP BY session_id HAVING SUM(k) > 0)) ORDER BY s.id")]


def evening(conn: sqlite3.Connection, session_id: int) -> Evening:
    """A session as a table tells it from another (its tariff left unread)."""
    row = conn.execute(f"SELECT name, demo FROM sessions WHERE id = ? AND id NOT IN {WITHDRAWN}",
                       (session_id,)).fetchone()
    if row is None:
        raise StorageError(_("no session {session_id} in this ledger", session_id=session_id))
    players = tuple(_line(r[0]) for r in conn.execute(
        "SELECT name FROM players WHERE session_id = ? ORDER BY seat", (session_id,)))
    last = conn.execute(f"SELECT d.number, d.entered_at FROM deals d WHERE d.session_id = ? AND {STANDING}"
                        f" ORDER BY d.id DESC LIMIT 1", (session_id,)).fetchone()
    return Evening(session_id, _line(row[0]), players, last[0] if last else 0, last[1] if last else None,
                   _settled(conn, session_id), bool(row[1]))


def extensions(conn: sqlite3.Connection, session: Session) -> list[Extension]:
    """The deals agreed for a session after it started (`extend N`), the earliest first."""
    row = conn.execute("SELECT agreed_deals FROM sessions WHERE id = ?", (session.id,)).fetchone()
    agreed = row[0] if row is not None and row[0] is not None else 0  # as agreed when it started
    out = []
    for deals, after, at in conn.execute(
            "SELECT deals, after_deal, extended_at FROM extensions WHERE session_id = ? ORDER BY id", (session.id,)):
        agreed += deals
        out.append(Extension(deals, after, at, agreed))
    return out


def has_session(conn: sqlite3.Connection, session_id: int) -> bool:
    return conn.execute(f"SELECT 1 FROM sessions WHERE id = ? AND id NOT IN {WITHDRAWN}",
                        (session_id,)).fetchone() is not None


def sessions(conn: sqlite3.Connection, last: int | None = None) -> list[Session]:
    """The ledger's sessions, the earliest first (only the `last` few when given)."""
    ids = session_ids(conn)
    return [session(conn, i) for i in (ids if last is None else ids[-last:] if last > 0 else [])]


def session_ids(conn: sqlite3.Connection) -> list[int]:
    """The ledger's sessions by number (those an undone import brought left out)."""
    return [row[0] for row in conn.execute(f"SELECT id FROM sessions WHERE id NOT IN {WITHDRAWN} ORDER BY id")]


def names_by_id(conn: sqlite3.Connection) -> dict[int, str]:
    """Every player of the ledger by id (a few per session), for rows that name players by id."""
    return {row[0]: _line(row[1]) for row in conn.execute(
        f"SELECT id, name FROM players WHERE session_id NOT IN {WITHDRAWN}")}


def _line(text: Any) -> Any:
    """A name, a title, a reason, as read: one line, whatever control character another tool
    wrote into it written out (`\\n`, `\\x1b`; the program's own commands refuse them), so
    that every view shows it as it shows any text, and a phone's button names it as it is read."""
    return visible(text, lines=False) if type(text) is str else text


# ---- deals ---------------------------------------------------------------------------------


def deals(conn: sqlite3.Connection, session: Session, transfers: bool = True,
          tail: int | None = None) -> Iterator[Recorded]:
    """The session's standing deals in order (only the last `tail` when given), with their
    transfers (in id order) unless `transfers` is False; a stream."""
    span = (session.id, 0)
    if tail is not None:  # from the tail-th deal from the end (all of them when there are fewer)
        start = conn.execute(f"SELECT d.id FROM deals d WHERE d.session_id = ? AND {STANDING} ORDER BY d.id DESC"
                             f" LIMIT 1 OFFSET ?", (session.id, max(tail, 1) - 1)).fetchone()
        span = (session.id, (start[0] if start else 0) if tail > 0 else 2**63 - 1)
    where = f"WHERE d.session_id = ? AND d.id >= ? AND {STANDING}"
    groups: Iterator[tuple[int, Iterator[Any]]] = iter(())
    if transfers:  # ordered by d.id (= t.deal_id), which the deals_by_session index gives without a sort
        cursor = conn.execute(
            f"SELECT t.deal_id, t.payer, t.payee, t.chips, t.reason FROM transfers t JOIN deals d ON d.id = t.deal_id"
            f" {where} ORDER BY d.id, t.id", span)
        cursor.row_factory = None  # plain tuples: a season's transfers are read by the hundred thousand
        groups = groupby(cursor, itemgetter(0))  # each deal's, in turn
    pending = next(groups, None)
    seat, known = session.seat, session.seats()
    made = tuple.__new__  # a Transfer made without a call of Python's a row (its fields in order)
    rows = conn.execute(f"SELECT d.id, d.number, d.entered_at, d.balances, d.basket, {ENTRY} FROM deals d {where}"
                        f" ORDER BY d.id", span)
    rows.row_factory = None
    for r in rows:
        deal_id, number = r[0], r[1]
        own: tuple[Transfer, ...] = ()
        if pending is not None and pending[0] == deal_id:
            own = tuple([made(Transfer, (known[t[1]] if t[1] in known else seat(t[1], number, True),
                                         known[t[2]] if t[2] in known else seat(t[2], number, True), t[3], t[4]))
                         for t in pending[1]])
            pending = next(groups, None)
        yield Recorded(id=deal_id, number=number, entered_at=r[2], deal=stored_deal(session, number, r[5:], known),
                       transfers=own, balances=kept_balances(r[3]), basket=r[4])


def kept_balances(text: str | None) -> tuple[int, ...]:
    """Balances kept with a deal, as stored (a damaged value, not a list, reads as empty: `check`
    reports it)."""
    try:
        value = json.loads(text) if text else []
    except ValueError:
        return ()
    return tuple(value) if isinstance(value, list) else ()


def last_deal(conn: sqlite3.Connection, session: Session) -> Recorded | None:
    """The last standing deal, with its transfers."""
    return next(deals(conn, session, tail=1), None)


def state(conn: sqlite3.Connection, session: Session) -> State:
    """The state after the session's standing deals, read from the last one alone (and, once the
    table has changed, from the deal before each change), with the changes of the table made
    since the last deal."""
    last = next(deals(conn, session, transfers=False, tail=1), None)
    if last is None:
        return _reseated(conn, session, State.start(len(session.players)))
    counted = _counted(conn, session, last.number)
    return _reseated(conn, session, counted._replace(balances=_balances(session, last), basket=last.basket or 0,
                                                     stake_due=_stake_due(conn, session, last.deal)))


def before(conn: sqlite3.Connection, session: Session, number: int) -> State:
    """Where the session stood before its deal `number`: the deals before it as they count
    (`_counted`) and the basket kept with the one before (no balances: where a deal falls needs none)."""
    counted = _counted(conn, session, number - 1)
    if number <= 1 or not session.tariff.has_basket:
        return counted
    row = conn.execute(f"SELECT d.basket FROM deals d WHERE d.session_id = ? AND d.number = ? AND {STANDING}",
                       (session.id, number - 1)).fetchone()
    return counted._replace(basket=(row[0] if row else 0) or 0)


def _counted(conn: sqlite3.Connection, session: Session, through: int) -> State:
    """The state's counts after the session's standing deals numbered up to `through` (no balances):
    the deals, the misdeals dealt again, and where the tariff needs them the deals played after their
    parties' agreed ones and the game's belle, replayed through the engine's own rules from each
    deal's contract, kept basket and suit turned (a session of French Boston is a few dozen deals)."""
    t = session.tariff
    if not (t.until_pool_won or t.turns):
        return State(balances=(), deals=through, redeals=redeals(conn, session, below=through + 1))
    counted = State(balances=())
    for number, contract, basket, turned in conn.execute(
            f"SELECT d.number, d.contract, d.basket, d.turned FROM deals d WHERE d.session_id = ? AND d.number <= ?"
            f" AND {STANDING} ORDER BY d.number", (session.id, through)).fetchall():
        pos = engine.position(t, counted)
        redealt = engine.redeals(t, Deal(contract))
        overtime, extra = engine.carried(counted, pos.overtime, redealt)
        counted = counted._replace(basket=basket or 0, deals=number, redeals=counted.redeals + redealt,
                                   overtime=overtime, extra=extra,
                                   belle=columns.belle(pos.deal == 1, counted.belle, turned) if t.turns else None)
    return counted


def _balances(session: Session, deal: Recorded) -> tuple[int, ...]:
    """The balances kept with a deal, refused when damaged."""
    if len(deal.balances) != session.tariff.players or not isinstance(deal.basket, int):
        raise StorageError(_("the balances kept with deal {last} of session {id} are damaged; `boston-ledger check` "
                             "shows what differs", last=deal.number, id=session.id))
    return deal.balances


def _reseated(conn: sqlite3.Connection, session: Session, after: State) -> State:
    """`after`, the state kept with the last deal, with whose money each seat plays and the chips
    of those who left: each change of the table replayed on the state kept with the deal before
    it (engine.reseat), those made since the last deal on `after` itself."""
    changes = session.changes()
    if not changes:
        return after
    table = State.start(session.tariff.players)  # only whose money each seat plays and the chips away count here
    for number in sorted(changes):
        if number > after.deals:
            return engine.reseated(after._replace(seated=table.seated, away=table.away), changes[number])[0]
        before = _kept_before(conn, session, number)
        table = engine.reseated(before._replace(seated=table.seated, away=table.away), changes[number])[0]
    return after._replace(seated=table.seated, away=table.away)


def _kept_before(conn: sqlite3.Connection, session: Session, number: int) -> State:
    """The balances and basket kept with the standing deal before deal `number`."""
    if number == 1:
        return State.start(session.tariff.players)
    row = conn.execute(f"SELECT d.id, d.number, d.entered_at, d.balances, d.basket FROM deals d WHERE d.session_id = ?"
                       f" AND d.number = ? AND {STANDING} ORDER BY d.id DESC LIMIT 1",
                       (session.id, number - 1)).fetchone()
    if row is None:
        raise StorageError(_("a change of the table of session {id} follows no deal {number}; `boston-ledger check` "
                             "shows what is damaged", id=session.id, number=number - 1))
    kept = Recorded(row[0], row[1], Deal(MISDEAL), row[2], (), kept_balances(row[3]), row[4])
    return State(balances=_balances(session, kept), basket=row[4])


def redeals(conn: sqlite3.Connection, session: Session, below: int | None = None) -> int:
    """How many of the session's standing deals (numbered below `below`, when given) were misdeals
    after which the same dealer dealt again: none unless its tariff says a misdealer deals again."""
    if session.tariff.basket.misdeal_dealer != "same":
        return 0
    return int(conn.execute(f"SELECT COUNT(*) FROM deals d WHERE d.session_id = ? AND d.contract = ? AND d.number < ?"
                            f" AND {STANDING}", (session.id, MISDEAL, 2**62 if below is None else below)).fetchone()[0])


def dealer_of(conn: sqlite3.Connection, session: Session, number: int) -> int:
    """The seat that dealt the session's deal `number` (the misdeals dealt again counted)."""
    return engine.dealer(session.tariff, number - 1, redeals(conn, session, below=number))


def _stake_due(conn: sqlite3.Connection, session: Session, last: Deal) -> bool:
    """Whether the deal after `last` (the session's last standing one) opens with a stake: as the
    last deal that was played left it (a misdeal leaves it as it was; before the first deal, one
    is due)."""
    won = engine.wins_basket(session.tariff, last)
    if won is not None:
        return won
    played = conn.execute(f"SELECT d.number, {ENTRY} FROM deals d WHERE d.session_id = ? AND d.contract != ?"
                          f" AND {STANDING} ORDER BY d.id DESC LIMIT 1", (session.id, MISDEAL)).fetchone()
    return played is None or bool(engine.wins_basket(session.tariff, stored_deal(session, played[0],
                                                                                  tuple(played[1:]))))


def undone(conn: sqlite3.Connection, session: Session) -> list[tuple[Recorded, str]]:
    """The deals taken back with undo, with when, in the order they were entered."""
    end = 3 + len(STORED)
    return [(Recorded(id=r[0], number=r[1], entered_at=r[2], deal=stored_deal(session, r[1], tuple(r[3:end])),
                      transfers=()), r[end])
            for r in conn.execute(f"SELECT d.id, d.number, d.entered_at, {ENTRY}, u.undone_at FROM deals d"
                                  f" JOIN undos u ON u.deal_id = d.id WHERE d.session_id = ? ORDER BY d.id",
                                  (session.id,))]


def last_change(conn: sqlite3.Connection, session: Session) -> Recorded | Correction | None:
    """The session's last write when it was an undo (the deal taken back) or a correction (the
    correction), nothing having been entered since; else None."""
    last = conn.execute("SELECT id, correction_id FROM deals WHERE session_id = ? ORDER BY id DESC LIMIT 1",
                        (session.id,)).fetchone()
    if last is None:
        return None
    undone = conn.execute(f"SELECT d.id, d.number, d.entered_at, {ENTRY} FROM deals d JOIN undos u ON u.deal_id = d.id"
                          " WHERE d.id = ?", (last[0],)).fetchone()
    if undone is not None:
        return Recorded(id=undone[0], number=undone[1], entered_at=undone[2],
                        deal=stored_deal(session, undone[1], tuple(undone[3:])), transfers=())
    if last[1] is not None:
        return corrections(conn, session)[-1]
    return None


def undone_count(conn: sqlite3.Connection, session: Session) -> int:
    return int(conn.execute(
        "SELECT COUNT(*) FROM undos u JOIN deals d ON d.id = u.deal_id WHERE d.session_id = ?", (session.id,)
    ).fetchone()[0])


def transfers_of(conn: sqlite3.Connection, session: Session, deal_id: int) -> tuple[Transfer, ...]:
    """The transfers stored for one deal, in id order."""
    seat = session.seat
    return tuple(Transfer(seat(r[0], r[4], True), seat(r[1], r[4], True), r[2], r[3]) for r in conn.execute(
        "SELECT t.payer, t.payee, t.chips, t.reason, d.number FROM transfers t JOIN deals d ON d.id = t.deal_id"
        " WHERE t.deal_id = ? ORDER BY t.id", (deal_id,)))


def corrections(conn: sqlite3.Connection, session: Session) -> list[Correction]:
    """The audit of a session's corrections, oldest first."""
    return list(_corrections(conn, session).values())


def _corrections(conn: sqlite3.Connection, session: Session) -> dict[int, Correction]:
    """A session's corrections by id, oldest first."""
    out = {}
    for c in conn.execute("SELECT * FROM corrections WHERE session_id = ? ORDER BY id", (session.id,)).fetchall():
        old = conn.execute(f"SELECT {ENTRY} FROM deals d WHERE d.id = ?", (c["old_deal"],)).fetchone()
        new = conn.execute(f"SELECT {ENTRY} FROM deals d WHERE d.session_id = ? AND d.correction_id = ?"
                           " AND d.number = ?", (session.id, c["id"], c["number"])).fetchone()
        out[c["id"]] = Correction(c["number"], _line(c["reason"]), c["corrected_at"],
                                  stored_deal(session, c["number"], tuple(old)),
                                  stored_deal(session, c["number"], tuple(new)))
    return out


def corrected(conn: sqlite3.Connection, session: Session) -> dict[int, Correction]:
    """The standing deals whose entry a correction made, by number, each with the correction that
    made it (the last, when the deal was corrected more than once). A correction records again
    every deal after the one it corrects, with that deal's entry unchanged: such a deal is followed
    back through the deals it superseded to where its entry was made, by a correction of it or
    by the table."""
    audit = _corrections(conn, session)
    if not audit:
        return {}
    superseded = {(row[0], row[1]): row[2] for row in conn.execute(  # (correction, number): the deal's own correction
        "SELECT s.correction_id, d.number, d.correction_id FROM supersessions s JOIN deals d ON d.id = s.deal_id"
        " WHERE d.session_id = ?", (session.id,))}
    out = {}
    for number, made_by in conn.execute(f"SELECT d.number, d.correction_id FROM deals d WHERE d.session_id = ?"
                                        f" AND d.correction_id IS NOT NULL AND {STANDING}", (session.id,)):
        seen = set()  # a damaged ledger could make a loop; `check` reports what is wrong with it
        while made_by is not None and made_by in audit and made_by not in seen:
            if audit[made_by].number == number:
                out[number] = audit[made_by]
                break
            seen.add(made_by)
            made_by = superseded.get((made_by, number))
    return out


# ---- settlements and payments ------------------------------------------------------------------


def settlements(conn: sqlite3.Connection, session: Session) -> list[tuple[str, Settled]]:
    """Every settlement of a session, the earliest first: (when, settlement). A reopened session
    has one for each time it was settled."""
    return [(row[0], _kept(session, row[1])) for row in conn.execute(
        "SELECT settled_at, result FROM settlements WHERE session_id = ? ORDER BY id", (session.id,))]


def settlement(conn: sqlite3.Connection, session: Session) -> Settled | None:
    """The settlement of a settled session (its last, when it was reopened and settled again);
    None while it is not settled."""
    if not session.settled:
        return None
    row = conn.execute(
        "SELECT result FROM settlements WHERE session_id = ? ORDER BY id DESC LIMIT 1", (session.id,)
    ).fetchone()
    return None if row is None else _kept(session, row[0])


def _kept(session: Session, text: str) -> Settled:
    """A settlement as kept, its players named as the session's names are read (`_line`)."""
    from ..core.settlement import Settled

    kept = json.loads(text)
    for by_name in ("net_chips", "money"):
        kept[by_name] = {_line(k): v for k, v in kept[by_name].items()}
    kept["payments"] = [{**p, "from": _line(p["from"]), "to": _line(p["to"])} for p in kept["payments"]]
    return Settled.from_record([session.people[p] for p in session.present], kept)


def payments(conn: sqlite3.Connection) -> list[PaymentRecord]:
    """Every payment recorded, the earliest first, with when it was cancelled (if it was)."""
    return [PaymentRecord(*map(_line, row)) for row in conn.execute(
        "SELECT p.id, p.payer, p.payee, p.cents, p.currency, p.paid_at, c.cancelled_at FROM payments p"
        f" LEFT JOIN payment_cancellations c ON c.payment_id = p.id WHERE p.id NOT IN {WITHDRAWN_PAYMENTS}"
        " ORDER BY p.id")]
