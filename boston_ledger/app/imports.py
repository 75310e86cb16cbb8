"""`boston-ledger import OTHER.db`: another ledger's evenings and payments brought into this one.

The other ledger is opened only to read (`store.db.open_read_only`: it must be a ledger of ours,
of this version). An evening is known by its identity (`evening_ids`): one already here, the same
row for row, is left as it is; one there that is the one here continued (every row here is the row
there at its place, and there are more) comes in whole, and the one here stays on record, counted
no more (`read.WITHDRAWN`); one here that differs otherwise was changed on both sides: a conflict,
shown with both versions and left out, never resolved for the players. Every evening that would come in
is first replayed through the engine, as `check` does: one whose stored balances or transfers
differ from the replay is refused, naming the deal where they part. Players are matched by name as
everywhere (case and ё/е aside: `player_key`), and written as this ledger first wrote them;
`--same "Саша=Александр"` joins another spelling, recorded with the import. Payments come along
once each. All of it is one transaction; `--undo ID` takes an import back as a whole: a row that
says so, what it brought staying on record and left out by every reader.
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from ..core import engine
from ..core.engine import State
from ..core.errors import LedgerError
from ..core.i18n import _
from ..store import merge, read, write
from ..store import salvage as salvaging
from ..store.db import create_ledger, open_db, open_read_only, reading, writing
from ..store.merge import Brought, PaymentRow
from ..store.records import Evening
from .check import check_session
from .inputs import clip, player_key
from .sessions import settled_at


class Side(NamedTuple):
    """One version of an evening, as one ledger holds it: where, and what it says now."""

    evening: Evening
    balances: tuple[int, ...]
    basket: int


class Conflict(NamedTuple):
    """An evening changed in both ledgers: both versions, the deal where they part (None: their
    deals agree, and `differs` names what does not)."""

    here: Side
    there: Side
    parts_at: int | None
    differs: tuple[str, ...]


class Refused(NamedTuple):
    """An evening of the other ledger that does not replay as stored: the first problem."""

    there: Evening
    problem: str


class Plan(NamedTuple):
    """What an import brings, leaves as it is, and leaves out."""

    source: str
    evenings: tuple[Evening, ...]  # as the other ledger numbers them, names as they come in here
    already: int  # evenings already here, the same
    conflicts: tuple[Conflict, ...]
    refused: tuple[Refused, ...]
    payments: tuple[PaymentRow, ...]
    payments_here: int  # payments already here
    payment_conflicts: tuple[PaymentRow, ...]  # cancelled there, standing here
    renamed: tuple[tuple[str, str], ...]  # a spelling there, the one it is written as here
    aliases: tuple[tuple[str, str], ...]  # joined by this import (--same)
    continues: tuple[tuple[int, int], ...] = ()  # (session there, session here): continued there, brought whole
    behind: int = 0  # evenings here continued since: all of the other ledger's version is here
    new_players: tuple[str, ...] = ()  # the names coming in (evenings, payments) that this ledger has not had

    @property
    def left_out(self) -> bool:
        return bool(self.conflicts or self.refused or self.payment_conflicts)

    @property
    def players(self) -> tuple[str, ...]:
        """The names coming in, each once: the evenings' players, then the payments' payers and payees."""
        return tuple(dict.fromkeys([*(n for e in self.evenings for n in e.players),
                                    *(n for p in self.payments for n in (p.payer, p.payee))]))


class Done(NamedTuple):
    plan: Plan
    import_id: int | None  # None: nothing came in (or a dry run)
    sessions: tuple[int, ...]  # the evenings' numbers here


def same_pairs(given: Iterable[str]) -> list[tuple[str, str]]:
    """`--same "NAME THERE=NAME HERE"` values, read."""
    out = []
    for text in given:
        there, sep, here = text.partition("=")
        if not sep or not there.strip() or not here.strip():
            raise LedgerError(_("--same takes two spellings of one person, the other ledger's first: "
                                "--same \"Саша=Александр\", not {value}", value=clip(text)))
        out.append((" ".join(there.split()), " ".join(here.split())))
    return out


def bring(conn: sqlite3.Connection, path: Path, same: Iterable[str] = (), dry_run: bool = False,
          source: str | None = None, instead: Brought | None = None) -> Done:
    """Import the ledger at `path` into `conn`'s (`dry_run`: only say what would come in; `source`:
    the file it is said to come from, when that is not `path`; `instead`: a standing import of that
    file, taken back in the same transaction, whose evenings, and only they, come in again)."""
    pairs = same_pairs(same)
    other = open_read_only(path)
    source = str(path) if source is None else source
    conn.execute("PRAGMA foreign_keys = OFF")  # the references are checked as a whole before the commit
    try:
        with merge.attached(conn, path), reading(other):  # `other`'s rows copied by SQLite (merge.copy)
            their_payments = merge.payment_rows(other)
            shape = merge.tables(other)
            with (reading if dry_run else writing)(conn):
                if merge.tables(conn) != shape:
                    raise LedgerError(_("{path} is a ledger whose tables differ from this one's; nothing was "
                                        "imported", path=source))
                only = None if instead is None else _withdrawn(conn, other, source, shape, their_payments, instead)
                plan, coming = _plan(conn, other, source, shape, their_payments, pairs,
                                     None if only is None else set(only))
                if instead is not None and (len(coming) != len(instead.sessions) or plan.left_out):
                    raise _changed_since(instead)
                if dry_run or not (coming or plan.payments):
                    return Done(plan, None, ())
                made = merge.copy(conn, shape, coming, dict(plan.renamed))
                paid = merge.copy_payments(conn, plan.payments)
                import_id = merge.record_import(conn, source, made, paid, pairs)
                merge.check_references(conn)
                _follow(conn, plan, coming, made)
                if instead is not None:
                    _follow_again(conn, other, only or {}, coming, made)
                return Done(plan, import_id, tuple(made))
    finally:
        conn.execute("PRAGMA foreign_keys = ON")
        other.close()


class Respelt(NamedTuple):
    """A `--same` spelling taken back: the import that joined it, undone, and its evenings brought again."""

    undone: Brought
    again: Done


def undo_same(conn: sqlite3.Connection, text: str) -> Respelt:
    """Take back one spelling a standing import joined (`--same "Саша=Александр"`), its evenings
    staying. The import copied them with the joined names written as this ledger writes them, and
    kept no other record of who was spelt how: so it is undone (a row, as `--undo` adds), and the
    file it came from imported again in the same transaction, its evenings and only they, with its
    other spellings and without this one. Refused, changing nothing, when that file is not there
    or its evenings and payments are no longer the ones the import brought (changed here or there
    since), and when an import made since may have joined the spelling too (the name here plays in
    what it brought)."""
    (there, here), = same_pairs([text])
    pair = (player_key(there), player_key(here))
    with reading(conn):
        standing = [b for b in merge.imports(conn) if b.undone_at is None]
        joined = [b for b in standing if pair in {(player_key(a), player_key(h)) for a, h in b.aliases}]
        if len(joined) != 1:
            raise LedgerError(_("no standing import joined {there}={here}; `boston-ledger import --list` lists them",
                                there=there, here=here) if not joined else
                              _("imports {ids} joined {there}={here}: take back all but one with `boston-ledger "
                                "import --undo ID` first", ids=", ".join(str(b.id) for b in joined), there=there,
                                here=here))
        brought = joined[0]
        paying = merge.payment_rows(conn)
        since = [b.id for b in standing if b.id > brought.id and (
            any(pair[1] in {player_key(n) for n in read.evening(conn, s).players} for s in b.sessions)
            or any(pair[1] in (player_key(paying[p].payer), player_key(paying[p].payee)) for p in b.payments
                   if p in paying))]
    if since:
        raise LedgerError(_("import {ids}, made since, may have joined {there}={here} too ({here} plays in what "
                            "it brought): take it back with `boston-ledger import --undo ID` first, and import its "
                            "file again afterwards", ids=", ".join(map(str, since)), there=there, here=here))
    if not Path(brought.source).is_file():
        raise LedgerError(_("import {id} came from {path}, which is not there: the spelling can be taken back only "
                            "with the evenings as they are there; nothing was changed", id=brought.id,
                            path=brought.source))
    keep = [f"{a}={h}" for a, h in brought.aliases if (player_key(a), player_key(h)) != pair]
    again = bring(conn, Path(brought.source), keep, source=brought.source, instead=brought)
    with reading(conn):
        return Respelt(next(b for b in merge.imports(conn) if b.id == brought.id), again)


def _withdrawn(conn: sqlite3.Connection, other: sqlite3.Connection, source: str, shape: dict[str, merge.Table],
               their_payments: dict[int, PaymentRow], brought: Brought) -> dict[str, int]:
    """Import `brought` taken back, inside the caller's transaction, once its evenings are checked to be
    here as they are in `other`, and nothing else there new (the import machinery's own comparison, with
    the spellings that stand): its evenings' identities and their numbers here."""
    ids = {i: s for i, s in merge.identities(conn).items() if s in set(brought.sessions)}
    now, __ = _plan(conn, other, source, shape, their_payments, [], set(ids))
    if len(ids) != len(brought.sessions) or now.already != len(ids) or now.evenings or now.behind or now.payments \
            or now.left_out:
        raise _changed_since(brought)
    merge.record_undo(conn, brought.id)
    return ids


def _changed_since(brought: Brought) -> LedgerError:
    return LedgerError(_("the evenings and payments import {id} brought are no longer as they are in {path} "
                         "(changed here or there since); nothing was changed: `boston-ledger import --undo {id}` "
                         "takes the whole import back", id=brought.id, path=brought.source))


def _follow_again(conn: sqlite3.Connection, other: sqlite3.Connection, ids: dict[str, int], coming: list[int],
                  made: list[int]) -> None:
    """The current evening, when it was one of those brought again, is its new copy."""
    try:
        current = read.current_session_id(conn)
    except LedgerError:
        current = None
    there = merge.identities(other)
    new = dict(zip(coming, made, strict=True))
    for identity, here in ids.items():
        if here == current and there.get(identity) in new:
            write.set_current(conn, new[there[identity]])


def _follow(conn: sqlite3.Connection, plan: Plan, coming: list[int], made: list[int]) -> None:
    """The current evening, when the import brought it continued, is its continuation."""
    try:
        current = read.current_session_id(conn)
    except LedgerError:
        return
    here = {old_here: new for (there, old_here) in plan.continues for s, new in zip(coming, made, strict=True)
            if s == there}
    if current in here:
        write.set_current(conn, here[current])


def salvage(target: Callable[[], sqlite3.Connection], path: Path, same: Iterable[str] = (),
            dry_run: bool = False) -> tuple[Done, list[str]]:
    """Import a ledger written by hand (`import --salvage`) into the ledger `target()` opens (once
    the file has been read: a file that cannot be leaves this ledger as it was, or unmade): its
    rows read by plain SELECTs alone (`store.salvage`), written into a clean ledger, every evening
    replayed there through the engine (its transfers, balances and settlement played again, never
    read), an evening stopped at the first deal the engine refuses; that clean ledger then imported
    as any other (`bring`). Also what was left out, line by line."""
    with tempfile.TemporaryDirectory() as folder:
        staged = Path(folder) / "salvaged.db"
        create_ledger(staged)
        clean = open_db(staged)
        try:
            said = _salvaged(clean, salvaging.read_plainly(path, clean))
        finally:
            clean.close()
        return bring(target(), staged, same, dry_run, source=str(path)), said


def _salvaged(clean: sqlite3.Connection, plain: salvaging.Plain) -> list[str]:
    """`plain`'s rows written into the empty ledger `clean` and replayed; what was left out."""
    triggers = clean.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    said = list(plain.skipped)
    clean.execute("PRAGMA foreign_keys = OFF")
    try:
        with writing(clean):
            for name, __ in triggers:  # the history's own, made again below exactly as they were
                clean.execute(f"DROP TRIGGER {name}")
            lines, cuts = salvaging.stage(clean, plain)
            said += lines
            for session_id, deal_id in cuts:
                salvaging.cut(clean, session_id, deal_id)
            left = salvaging.dangling(clean)
            if left:
                said.append(_("rows there that refer to rows not there were left out ({tables})",
                              tables=", ".join(sorted(left))))
            for session_id in [r[0] for r in clean.execute("SELECT id FROM sessions ORDER BY id")]:
                while (stop := _replay_into(clean, session_id)) is not None:
                    said.append(stop[1])
                    if stop[0] is None:
                        salvaging.forget(clean, session_id)
                        break
                    if stop[0] >= 0:  # -1: played again once its strays are gone
                        salvaging.cut(clean, session_id, stop[0])
            for __, sql in triggers:
                clean.execute(sql)
    finally:
        clean.execute("PRAGMA foreign_keys = ON")
    return said


def _replay_into(clean: sqlite3.Connection, session_id: int) -> tuple[int | None, str] | None:
    """Evening `session_id` of the staging ledger replayed: each standing deal's transfers and
    balances written as the engine plays them, its last settlement as settling the replay makes it.
    None when all of it replays; else the deal where it stops (None: the evening itself cannot be
    read; -1: replay it again, its players who never sat taken away), and why, in a line."""
    clean.execute("DELETE FROM transfers WHERE deal_id IN (SELECT id FROM deals WHERE session_id = ?)",
                  (session_id,))
    salvaging.unkept(clean, session_id)
    standing = clean.execute(f"SELECT d.id, d.number FROM deals d WHERE d.session_id = ? AND {read.STANDING}"
                             " ORDER BY d.id", (session_id,)).fetchall()
    done = 0
    try:
        session = read.session(clean, session_id)
        if len(session.people) < session.tariff.players:
            return None, _("session {session} there was left out: it has {count} players, its tariff is for {n}",
                           session=session_id, count=len(session.people), n=session.tariff.players)
        if salvaging.strays(clean, session_id, session.tariff.players):
            return -1, _("session {session} there: a player who never sat at the table was left out",
                         session=session_id)
        for step in engine.replaying(session.tariff, (r.deal for r in read.deals(clean, session, transfers=False)),
                                     changes=session.changes()):
            def account(seat: int | None, number: int = step.number) -> int | None:
                return session.person_id(seat, number, account=True)

            salvaging.write_replay(clean, standing[done][0], step.number,
                                   [(account(t.payer), account(t.payee), t.chips, t.reason)
                                    for t in step.outcome.transfers], step.after.balances, step.after.basket)
            done += 1
        if session.settled:
            state = read.state(clean, session)
            result = settled_at(clean, session._replace(settled=False), state, empty=True)
            salvaging.set_result(clean, session_id, json.dumps(result.record(), ensure_ascii=False))
    except (sqlite3.Error, KeyboardInterrupt):
        raise
    except Exception as e:  # a row the engine refuses, or cannot read
        if not isinstance(e, (LedgerError, engine.DealError)):
            e = LedgerError(f"{type(e).__name__}: {e}")
        if done < len(standing):
            return standing[done][0], _("session {session} there stops before deal {number}: {e}",
                                        session=session_id, number=standing[done][1], e=e)
        return None, _("session {session} there was left out: {e}", session=session_id, e=e)
    return None


def _plan(conn: sqlite3.Connection, other: sqlite3.Connection, source: str, shape: dict[str, merge.Table],
          their_payments: dict[int, PaymentRow], pairs: list[tuple[str, str]],
          only: set[str] | None = None) -> tuple[Plan, list[int]]:
    """What would come in (and the evenings that would, by their numbers there; `only`: of the evenings
    there, those of these identities)."""
    names_there = {player_key(n) for n in read.names_by_id(other).values()}
    names_here = read.names_by_id(conn)
    people: dict[str, str] = {}  # by player_key: the name as this ledger first wrote it (then as the other did)
    for i in sorted(names_here):
        people.setdefault(player_key(names_here[i]), names_here[i])
    for there, here in pairs:
        if player_key(there) not in names_there:
            raise LedgerError(_("--same {there}={here}: nobody called {there!r} has played in {path}",
                                there=there, here=here, path=source))
        if player_key(here) not in people and player_key(here) not in names_there:
            raise LedgerError(_("--same {there}={here}: nobody called {here!r} has played in either ledger",
                                there=there, here=here))
        if player_key(there) == player_key(here):
            raise LedgerError(_("--same {there}={here}: these are one name already", there=there, here=here))
    alias: dict[str, str] = {player_key(a): b for a, b in [*merge.standing_aliases(conn), *pairs]}
    renamed: dict[str, str] = {}

    def rename(name: str) -> str:
        key = player_key(name)
        if key in alias:
            key = player_key(alias[key])
            people.setdefault(key, alias[player_key(name)])
        else:
            people.setdefault(key, name)
        if people[key] != name:
            renamed.setdefault(name, people[key])
        return people[key]

    here_by_identity = merge.identities(conn)
    there_by_identity = {i: s for i, s in merge.identities(other).items() if only is None or i in only}
    theirs = merge.sayings(other, rename)
    ours = merge.sayings(conn) if here_by_identity.keys() & there_by_identity.keys() else {}
    candidates: list[int] = []
    continues: dict[int, int] = {}  # an evening there that continued one here: its number here
    conflicts: list[Conflict] = []
    already = behind = 0
    for identity, session_id in sorted(there_by_identity.items(), key=lambda item: item[1]):
        found = here_by_identity.get(identity)
        if found is None:
            candidates.append(session_id)
        elif ours[found] == theirs[session_id]:
            already += 1
        elif _continues(theirs[session_id], ours[found]):  # continued here: nothing there that is not here
            behind += 1
        elif _continues(ours[found], theirs[session_id]):
            candidates.append(session_id)
            continues[session_id] = found
        else:
            conflicts.append(_conflict(conn, other, shape, found, session_id, ours[found], theirs[session_id]))
    refused: list[Refused] = []
    sound = []
    for session_id in candidates:
        problem = _replay(other, session_id)
        if problem is None:
            sound.append(session_id)
        else:
            refused.append(Refused(read.evening(other, session_id), problem))
    coming: list[int] = []
    evenings: list[Evening] = []
    for session_id in sound:
        evening = read.evening(other, session_id)
        evening = evening._replace(players=tuple(rename(n) for n in evening.players))
        problem = _same_names(evening.players)
        if problem is not None:
            refused.append(Refused(evening, problem))
            continue
        coming.append(session_id)
        evenings.append(evening)
    payments, here_count, payment_conflicts = _payments(conn, their_payments, rename)
    plan = Plan(source, tuple(evenings), already, tuple(conflicts), tuple(refused), tuple(payments), here_count,
                tuple(payment_conflicts), tuple(renamed.items()), tuple(pairs),
                tuple((s, continues[s]) for s in coming if s in continues), behind)
    known = {player_key(n) for n in names_here.values()} if plan.players else set()
    return plan._replace(new_players=tuple(n for n in plan.players if player_key(n) not in known)), coming


def _continues(mine: merge.Said, theirs: merge.Said) -> bool:
    """Whether an evening there is the one here, continued: every row here is the row there at its
    place (deals, undos, corrections, changes of the table, extensions, settlements after them)."""
    return all(theirs[t][:len(mine[t])] == mine[t] for t in mine)


def _replay(other: sqlite3.Connection, session_id: int) -> str | None:
    """The first problem of an evening of the other ledger, replayed as `check` replays it."""
    try:
        problems = check_session(other, session_id)
    except LedgerError as e:
        return str(e)
    return str(problems[0]) if problems else None


def _same_names(names: tuple[str, ...]) -> str | None:
    """Two players of one evening who would come in under one name (joined by --same)."""
    twice = [n for n, count in Counter(player_key(n) for n in names).items() if count > 1]
    if twice:
        return _("two of its players would be called {name!r} here", name=next(n for n in names
                                                                              if player_key(n) == twice[0]))
    return None


def _side(conn: sqlite3.Connection, session_id: int) -> Side:
    state: State = read.state(conn, read.session(conn, session_id))
    return Side(read.evening(conn, session_id), state.balances, state.basket)


def _conflict(conn: sqlite3.Connection, other: sqlite3.Connection, shape: dict[str, merge.Table], here: int,
              there: int, mine: merge.Said, theirs: merge.Said) -> Conflict:
    differs = tuple(t for t in mine if mine[t] != theirs[t])
    parts_at = None
    if mine["deals"] != theirs["deals"]:
        number = merge.said_columns(shape["deals"]).index("number")
        a, b = mine["deals"], theirs["deals"]
        first = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
        parts_at = (a if first < len(a) else b)[first][number]
    return Conflict(_side(conn, here), _side(other, there), parts_at, differs)


def _payments(conn: sqlite3.Connection, theirs: dict[int, PaymentRow],
              rename: merge.Rename) -> tuple[list[PaymentRow], int, list[PaymentRow]]:
    """The other ledger's payments that are not here yet (names as written here), how many are,
    and those cancelled there but standing here."""
    def key(p: PaymentRow) -> tuple[object, ...]:
        return player_key(p.payer), player_key(p.payee), p.cents, p.currency, p.paid_at

    standing = Counter(key(p) for p in merge.payment_rows(conn).values() if p.cancelled_at is None)
    cancelled = Counter(key(p) for p in merge.payment_rows(conn).values() if p.cancelled_at is not None)
    new, here, conflicts = [], 0, []
    for p in theirs.values():
        p = p._replace(payer=rename(p.payer), payee=rename(p.payee))
        k = key(p)
        first, second = (cancelled, standing) if p.cancelled_at is not None else (standing, cancelled)
        if first[k]:
            first[k] -= 1
            here += 1
        elif second[k]:
            second[k] -= 1
            if p.cancelled_at is not None:
                conflicts.append(p)
            else:
                here += 1  # cancelled here since: this ledger's word stands
        else:
            new.append(p)
    return new, here, conflicts


def undo(conn: sqlite3.Connection, import_id: int) -> Brought:
    """Take an import back as a whole: what it brought stays on record, left out by every reader
    from now on (and the spellings it joined no longer join)."""
    with writing(conn):
        found = {b.id: b for b in merge.imports(conn)}
        brought = found.get(import_id)
        if brought is None:
            raise LedgerError(_("no import {id} in this ledger; `boston-ledger import --list` lists them",
                                id=import_id))
        if brought.undone_at is not None:
            raise LedgerError(_("import {id} was undone already, at {at}", id=import_id, at=brought.undone_at))
        merge.record_undo(conn, import_id)
        try:
            current = read.current_session_id(conn)
        except LedgerError:
            current = None
        if current in brought.sessions:
            left = read.session_ids(conn)
            if left:
                write.set_current(conn, left[-1])
        return next(b for b in merge.imports(conn) if b.id == import_id)


def listing(conn: sqlite3.Connection) -> list[Brought]:
    """Every import of this ledger, undone ones too."""
    with reading(conn):
        return merge.imports(conn)
