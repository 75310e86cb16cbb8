"""What a table does with its ledger: start a session, enter a deal, take one back, settle.

Each operation is one transaction that reads, checks and writes; the engine computes, the
storage keeps. Nothing here prints.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from dataclasses import dataclass
from typing import Iterable, Iterator
from decimal import Decimal, InvalidOperation

from . import engine, storage
from .engine import Deal, Outcome, Position, State
from .errors import LedgerError
from .i18n import _
from .storage import Session
from .tariff import Tariff

RESERVED_NAMES = {"basket", "корзина"}
MIN_CHIP_VALUE = Decimal("0.000001")
MAX_CHIP_VALUE = Decimal("1000000")
JOINERS = {"\u200c", "\u200d"}  # zero-width (non-)joiners inside emoji and some scripts


def clean_name(name: str) -> str:
    """A name as stored and matched: NFC-normalised, inner whitespace collapsed."""
    return unicodedata.normalize("NFC", " ".join(name.split()))


def chip_value(text: str) -> Decimal:
    """A positive decimal amount of money per chip, such as 0.10."""
    try:
        value = Decimal(text.strip().replace(",", "."))
    except (InvalidOperation, AttributeError):
        value = None
    if (value is None or not value.is_finite() or not MIN_CHIP_VALUE <= value <= MAX_CHIP_VALUE
            or value.as_tuple().exponent < MIN_CHIP_VALUE.as_tuple().exponent):
        raise LedgerError(_("--chip-value must be a positive decimal amount such as 0.10, from {low} to {high} with at most six decimals, not {clip}", low=MIN_CHIP_VALUE, high=MAX_CHIP_VALUE, clip=clip(text)))
    return value.quantize(Decimal(1)) if value.as_tuple().exponent > 0 else value  # 1E+1 -> 10


def clip(text: str, limit: int = 24) -> str:
    """A user's text quoted back in an error, cut short when it is long."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def currency(text: str) -> str:
    code = text.strip()
    if not code or len(code) > 8 or any(c.isspace() for c in code):
        raise LedgerError(_("--currency must be a short code such as EUR or RUB, not {text!r}", text=text))
    return code.upper() if code.isascii() else code


def player_names(names: list[str], tariff: Tariff) -> list[str]:
    """The names as given, checked: the tariff's number of players, each distinct and non-empty."""
    cleaned = [clean_name(n) for n in names]
    if len(cleaned) != tariff.players:
        raise LedgerError(_("the {name} tariff is for {players} players; name {players} in seat order, not {count}", name=tariff.name, players=tariff.players, count=len(cleaned)))
    seen: dict[str, str] = {}
    for name in cleaned:
        if not name:
            raise LedgerError(_("a player's name cannot be empty; give every player a name"))
        if len(name) > 40:
            raise LedgerError(_("the name {name!r}... is too long; keep names under 40 characters", name=name[:20]))
        if not all(c.isprintable() or c in JOINERS for c in name):
            raise LedgerError(_("the name {name!r} has control characters; type a plain name", name=name))
        key = name.casefold()
        if key in RESERVED_NAMES:
            raise LedgerError(_("{name!r} is the word for the pool in the middle; give the player another name", name=name))
        if key in seen:
            raise LedgerError(_("{name!r} is named twice; every player needs a distinct name", name=name))
        seen[key] = name
    return cleaned


def session_name(text: str | None) -> str | None:
    """A session's name, checked like a player's name."""
    if text is None:
        return None
    name = clean_name(text)
    if not name or len(name) > 80 or not all(c.isprintable() or c in JOINERS for c in name):
        raise LedgerError(_("--name must be plain printable text of 1 to 80 characters, not {clip}", clip=clip(text)))
    return name


def new_session(conn: sqlite3.Connection, names: list[str], tariff: Tariff, value: Decimal,
                code: str, name: str | None = None, agreed_deals: int | None = None) -> int:
    with storage.writing(conn):
        return storage.create_session(conn, player_names(names, tariff), tariff, value, code, name,
                                      agreed_deals)


def current(conn: sqlite3.Connection) -> Session:
    return storage.load_session(conn, storage.current_session_id(conn))


def seat_of(session: Session, name: str, what: str) -> int:
    """The seat of the player a user named (exactly, else ignoring case)."""
    wanted = clean_name(name)
    if wanted in session.players:
        return session.players.index(wanted)
    folded = [p.casefold() for p in session.players]
    if wanted.casefold() in folded:
        return folded.index(wanted.casefold())
    raise LedgerError(_("{what}: no player {clip} in this session; the players are {names}", what=what, clip=clip(name), names=', '.join(session.players)))


@dataclass(frozen=True)
class Entered:
    number: int
    position: Position
    deal: Deal
    outcome: Outcome
    before: State
    after: State


@dataclass(frozen=True)
class Walked:
    """A recorded deal with where it fell and the state after it."""

    recorded: storage.Recorded
    position: Position
    outcome: Outcome
    after: State
    sheet: tuple[int, ...]  # what each player stands at: the balance, or on points the score


def walk(session: Session, recorded: Iterable[storage.Recorded]) -> list[Walked]:
    return list(iter_walk(session, recorded))


def iter_walk(session: Session, recorded: Iterable[storage.Recorded]) -> Iterator[Walked]:
    """The recorded deals in order with their positions and the state after each.

    On chips the balances kept with each deal are read as they are (so a tail of a long session
    is enough); a points session's score sheet is replayed through the engine from its first
    deal (points sessions are short: an agreed number of deals).
    """
    t = session.tariff
    state = State.start(len(session.players))
    scores = (0,) * len(session.players)
    if t.has_basket:  # the balances after each deal are kept with it: no need to start from the first
        for r in recorded:
            outcome = Outcome(r.transfers, made=engine.made(t, r.deal), basket_won=False)
            after = State(balances=r.balances, basket=r.basket or 0, deals=r.number)
            yield Walked(r, engine.position(t, r.number - 1), outcome, after, r.balances)
        return
    for r in recorded:  # a points session's score sheet is replayed from its first deal
        pos = engine.position(t, state.deals)
        outcome = engine.play(t, state, r.deal)
        scores = tuple(a + b for a, b in zip(scores, outcome.scores))
        state = engine.advance(state, outcome)
        yield Walked(r, pos, outcome, state, scores)


def open_for_deals(session: Session, played: int | None = None) -> None:
    if session.settled:
        raise LedgerError(_("session {id} is settled and takes no more deals; start another with `boston-ledger new`", id=session.id))
    if played is not None and session.agreed_deals is not None and played >= session.agreed_deals:
        raise LedgerError(_("the {agreed_deals} agreed deals of session {id} are played; settle it with `boston-ledger settle`", agreed_deals=session.agreed_deals, id=session.id))


def enter_deal(conn: sqlite3.Connection, deal: Deal, session_id: int | None = None) -> tuple[Session, Entered]:
    """Score a deal and record it, all in one transaction.

    `session_id` is the session whose players the deal's seats refer to (default: the current
    one), so a `new` in another terminal meanwhile cannot shift the deal into another session.
    """
    with storage.writing(conn):
        session = current(conn) if session_id is None else storage.load_session(conn, session_id)
        before = storage.state(conn, session)
        open_for_deals(session, before.deals)
        outcome = engine.play(session.tariff, before, deal)
        after = engine.advance(before, outcome)
        _fits(after)
        number = before.deals + 1
        deal_id = storage.record_deal(conn, session, number, deal, outcome, after)
        _after_write(conn, session, expected=after, before=before, deal_id=deal_id)
    pos = engine.position(session.tariff, before.deals)
    return session, Entered(number, pos, deal, outcome, before, after)


def _fits(state: State) -> None:
    if max([abs(state.basket), *map(abs, state.balances)]) > storage.MAX_CHIPS:
        raise LedgerError(_("this would take the basket or a balance beyond what the ledger can hold; settle the session and start a new one"))


def _after_write(conn: sqlite3.Connection, session: Session, expected: State | None = None,
                 before: State | None = None, deal_id: int | None = None) -> State:
    """The invariants that concern a write, checked inside its transaction before it commits:
    the stored balances sum to zero, are what the engine computed, and are the balances before
    plus the transfers stored for the deal. (`boston-ledger check` replays whole sessions.)"""
    from . import checks

    stored = storage.state(conn, session)
    problems = [str(p) for p in checks.zero_sum(session, stored)]
    if expected is not None and stored != expected:
        problems.append(_("stored state {stored} differs from the engine's {expected}", stored=stored,
                          expected=expected))
    if before is not None and deal_id is not None:
        moved = engine.Outcome(tuple(storage.transfers_of(conn, session, deal_id)), None, stored.stake_due)
        if engine.advance(before, moved) != stored:
            problems.append("the stored transfers of the deal do not add up to the stored balances")
    if problems:
        raise LedgerError(_("internal error, nothing recorded: {problem}", problem=problems[0]))
    return stored


def undo_last(conn: sqlite3.Connection) -> tuple[Session, storage.Recorded, State]:
    """Take back the last standing deal; it stays on record as undone."""
    with storage.writing(conn):
        session = current(conn)
        if session.settled:
            raise LedgerError(_("session {id} is settled; its deals can no longer be taken back", id=session.id))
        last = storage.last_deal(conn, session)
        if last is None:
            raise LedgerError(_("there is no deal to take back in this session"))
        storage.undo(conn, last.id)
        after = _after_write(conn, session)
    return session, last, after


def sheet(conn: sqlite3.Connection, session: Session) -> tuple[int, ...]:
    """A points session's score sheet: what each player has written, replayed from the deals."""
    walked = walk(session, storage.deals(conn, session, with_transfers=False))
    return walked[-1].sheet if walked else (0,) * len(session.players)


def settlement_result(session: Session, state: State) -> dict:
    """The settlement of a state as the JSON that `settle --json` prints and the ledger stores."""
    from . import settlement  # here: only a settlement needs its arithmetic

    result = settlement.settle(state.balances, state.basket, session.chip_value)
    name = session.players
    return {
        "net_chips": {name[i]: _number(n) for i, n in enumerate(result.net_chips)},
        "money": {name[i]: settlement.money(c) for i, c in enumerate(result.cents)},
        "payments": [
            {"from": name[p.payer], "to": name[p.payee], "amount": settlement.money(p.cents)}
            for p in result.payments
        ],
        "basket": state.basket,
        "chip_value": str(session.chip_value),
        "currency": session.currency,
        "deals": state.deals,
    }


def _number(value) -> int | float:
    """A chip count for JSON: whole when it is whole (a basket share may be a fraction)."""
    return int(value) if value.denominator == 1 else float(value)


def settle(conn: sqlite3.Connection) -> tuple[Session, dict, bool]:
    """Settle the current session (once); returns the result and whether it was settled just now."""
    with storage.writing(conn):
        session = current(conn)
        if session.settled:
            return session, storage.settlement(conn, session), False
        result = settlement_result(session, storage.state(conn, session))
        storage.save_settlement(conn, session, result)
    return session, result, True


# ---- corrections and reopening ---------------------------------------------------------------


@dataclass(frozen=True)
class Corrected:
    session: Session
    number: int
    was: Deal
    before: tuple[int, ...]  # balances, or on points the score sheet
    after: tuple[int, ...]
    basket: tuple[int, int]  # before and after


def correct(conn: sqlite3.Connection, number: int, deal: Deal, reason: str,
            session_id: int | None = None) -> Corrected:
    """Replace deal `number` and replay every deal after it (the basket, labets and double tours
    depend on the past). The old entries stay on record, superseded by the correction."""
    reason = " ".join(reason.split())
    if not reason or len(reason) > 500 or not reason.isprintable():
        raise LedgerError(_("a correction needs --reason TEXT: say in plain words (at most 500 characters) why the deal is changed"))
    with storage.writing(conn):
        session = current(conn) if session_id is None else storage.load_session(conn, session_id)
        if session.settled:
            raise LedgerError(_("session {id} is settled; `boston-ledger reopen` it first to correct a deal", id=session.id))
        standing = storage.deals(conn, session, with_transfers=False)
        if not 1 <= number <= len(standing):
            raise LedgerError(_("there is no deal {number} in session {id}; its deals are 1 to {count}",
                                number=number, id=session.id, count=len(standing)) if standing else
                              _("session {id} has no deals yet", id=session.id))
        if deal == standing[number - 1].deal:
            raise LedgerError(_("deal {number} was entered just so; there is nothing to correct", number=number))
        before = storage.state(conn, session)
        old_sheet = _scores(session, [r.deal for r in standing])
        entered = [r.deal for r in standing]
        entered[number - 1] = deal
        state, __ = engine.replay(session.tariff, entered[: number - 1])
        later = standing[number - 1:]
        cid = storage.correct(conn, session, number, later[0].id, reason, [r.id for r in later])
        for offset, (d, original) in enumerate(zip(entered[number - 1:], later)):
            outcome = engine.play(session.tariff, state, d)
            state = engine.advance(state, outcome)
            _fits(state)
            storage.record_deal(conn, session, number + offset, d, outcome, state, correction_id=cid,
                                entered_at=None if offset == 0 else original.entered_at)
        after = _after_write(conn, session, expected=state)
    points = not session.tariff.has_basket
    return Corrected(session, number, standing[number - 1].deal,
                     old_sheet if points else before.balances,
                     _scores(session, entered) if points else after.balances, (before.basket, after.basket))


def _scores(session: Session, deals: list[Deal]) -> tuple[int, ...]:
    """A points session's score sheet after these deals."""
    state, outcomes = engine.replay(session.tariff, deals)
    return tuple(sum(o.scores[i] for o in outcomes) for i in range(len(session.players)))


def reopen(conn: sqlite3.Connection) -> Session:
    """Open a settled session again; its settlement stays on record."""
    with storage.writing(conn):
        session = current(conn)
        if not session.settled:
            raise LedgerError(_("session {id} is not settled; there is nothing to reopen", id=session.id))
        storage.reopen(conn, session)
    return session


def use(conn: sqlite3.Connection, session_id: int) -> Session:
    with storage.writing(conn):
        session = storage.load_session(conn, session_id)
        storage.set_current(conn, session_id)
    return session


# ---- money between evenings -------------------------------------------------------------------


def money_amount(text: str) -> int:
    """A positive amount of money such as 12.30, in cents."""
    import re

    word = text.strip().replace(",", ".")
    value = Decimal(word) if re.fullmatch(r"[0-9]{1,9}(\.[0-9]{1,2})?", word) else None
    if value is None or value <= 0:
        raise LedgerError(_("AMOUNT must be a positive amount of money with at most two decimals, such as 12.30, not {clip}", clip=clip(text)))
    return int(value * 100)


def people(conn: sqlite3.Connection) -> dict[str, str]:
    """Everybody who has played, by the casefolded name, with the name as first written."""
    out: dict[str, str] = {}
    for (name,) in conn.execute("SELECT name FROM players ORDER BY id"):
        out.setdefault(name.casefold(), name)
    return out


def person(conn: sqlite3.Connection, name: str, what: str) -> str:
    known = people(conn)
    found = known.get(clean_name(name).casefold())
    if found is None:
        raise LedgerError(_("{what}: nobody called {clip} has played in this ledger", what=what, clip=clip(name)))
    return found


def group_ledger(conn: sqlite3.Connection) -> dict[str, dict[str, int]]:
    """Per currency, what each person is owed (+) or owes (-) over all settled sessions, in cents,
    less what has been paid since."""
    names = people(conn)
    totals: dict[str, dict[str, int]] = {}
    for session in storage.sessions(conn):
        if not session.settled:
            continue
        result = storage.settlement(conn, session)
        book = totals.setdefault(session.currency, {})
        for name, amount in result["money"].items():
            key = names[name.casefold()]
            book[key] = book.get(key, 0) + int(Decimal(amount) * 100)
    for p in storage.payments(conn):
        book = totals.setdefault(p["currency"], {})
        book[p["payer"]] = book.get(p["payer"], 0) + p["cents"]
        book[p["payee"]] = book.get(p["payee"], 0) - p["cents"]
    return totals


def pay(conn: sqlite3.Connection, payer: str, payee: str, amount: str,
        code: str | None) -> tuple[str, str, int, str]:
    """Record a payment in the currency of the settled sessions it pays off (`code`, or the
    only currency they use)."""
    cents = money_amount(amount)
    with storage.writing(conn):
        who, whom = person(conn, payer, _("FROM")), person(conn, payee, _("TO"))
        if who == whom:
            raise LedgerError(_("FROM and TO are the same person; a payment goes from one to another"))
        used = sorted({s.currency for s in storage.sessions(conn) if s.settled})
        shown = ", ".join(c or '(none)' for c in used) or "none yet"
        if code is None:
            if len(used) != 1:
                raise LedgerError(_("the settled sessions use several currencies ({shown}); give --currency CODE", shown=shown))
            code = used[0]
        elif code not in used:
            raise LedgerError(_("no settled session is in {value}; the currencies are {shown}", value=code or '(no currency)', shown=shown))
        storage.record_payment(conn, who, whom, cents, code)
    return who, whom, cents, code


# ---- what-if ----------------------------------------------------------------------------------


def rescore(conn: sqlite3.Connection, session_id: int, tariff: Tariff) -> tuple[Session, State, State]:
    """A recorded session replayed under another tariff: (session, as recorded, as rescored)."""
    session = storage.load_session(conn, session_id)
    if tariff.players != len(session.players):
        raise LedgerError(_("the {name} tariff is for {players} players; session {session_id} has {count}", name=tariff.name, players=tariff.players, session_id=session_id, count=len(session.players)))
    recorded = storage.deals(conn, session, with_transfers=False)
    state = State.start(tariff.players)
    for r in recorded:
        try:
            state = engine.advance(state, engine.play(tariff, state, r.deal))
        except engine.DealError as e:
            raise LedgerError(_("deal {number} cannot be scored under {name}: {e}", number=r.number, name=tariff.name, e=e)) from None
    return session, storage.state(conn, session), state
