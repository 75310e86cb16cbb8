"""What-if: a recorded session replayed under another tariff or conditions; nothing changes."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass

from ..core import engine
from ..core.engine import State
from ..core.errors import LedgerError
from ..core.i18n import _, ngettext, tariff_name
from ..core.tariff import Tariff
from ..core.tariff_files import with_conditions
from ..store import read
from ..store.records import Session
from .evenings import spoken


@dataclass(frozen=True)
class Rescored:
    session: Session
    tariff: Tariff
    recorded: State
    rescored: State


def rescore(conn: sqlite3.Connection, session_id: int, tariff: Tariff | None = None,
            conditions: Sequence[str] = ()) -> Rescored:
    """A recorded session replayed under another tariff (default: its own), with `conditions`
    turned on: as recorded and as rescored (said in the words of the session's game)."""
    session = spoken(read.session(conn, session_id))
    if tariff is None:
        if not conditions:
            raise LedgerError(_("say what to replay it under: --tariff NAME and/or --condition NAME"))
        tariff = with_conditions(session.tariff, conditions)
    if tariff.players != len(session.players):
        raise LedgerError(ngettext("the {name} tariff is for {n} player; session {session_id} has {count}",
                                   "the {name} tariff is for {n} players; session {session_id} has {count}",
                                   tariff.players, name=tariff_name(tariff), session_id=session_id,
                                   count=len(session.players)))
    try:
        state = engine.replayed(tariff, (r.deal for r in read.deals(conn, session, transfers=False)),
                                session.changes())
    except engine.DealError as e:
        raise LedgerError(_("deal {number} cannot be scored under {name}: {e}", number=e.number,
                            name=tariff_name(tariff), e=e)) from None
    return Rescored(session, tariff, read.state(conn, session), state)
