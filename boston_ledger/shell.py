"""What every command shares, and the two commands players run many times an evening (`deal`,
`status`), kept free of typer so that they start fast. `cli.py` declares their options."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import sys
from typing import Any, Callable

from . import ledger, storage
from .engine import Deal
from .errors import LedgerError
from .i18n import N_, _, contract_names, language, rank_name, strerror

PROG = "boston-ledger"


def guarded(run: Callable[[], Any], command_path: Callable[[], str] = lambda: PROG) -> None:
    """Run a command; every failure a user can cause ends as one line on stderr and exit 2."""
    try:
        code = run()
    except LedgerError as e:
        fail(str(e))
    except sqlite3.Error as e:
        fail(_("the ledger database failed: {error}; nothing was recorded", error=e))
    except BrokenPipeError:  # the reader of our output went away (`| head`): quietly, as click does
        sys.stderr = open(os.devnull, "w")
        sys.exit(1)
    except OSError as e:
        fail(strerror(e) + (f": {e.filename}" if e.filename else ""))
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as e:
        typer = sys.modules.get("typer")
        if typer is not None and isinstance(e, typer.Abort):
            print(_("{prog}: aborted", prog=PROG), file=sys.stderr)
            sys.exit(1)
        usage = getattr(typer, "TyperException", None) or getattr(typer, "ClickException", None)
        if usage is not None and isinstance(e, usage):  # unknown option, missing value...
            message = e.format_message() if hasattr(e, "format_message") else str(e)
            ctx = getattr(e, "ctx", None)
            path = ctx.command_path if ctx is not None else PROG
            if path == PROG:
                path = command_path()
            said = usage_message(message) if language() == "ru" else message
            fail(_("{message} (see `{command} --help`)", message=said.rstrip("."),
                   command=path))
        # a bug of ours: still one line, and the transaction was rolled back
        print(_("{prog}: internal error: {kind}: {error}. Please report it with the command you ran; "
                "`{prog} status` shows what is recorded.", prog=PROG, kind=type(e).__name__, error=e),
              file=sys.stderr)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


# click words its usage errors in English; these are their Russian, matched on the English
USAGE_ERRORS = [  # (click's English, the same in words of our own); a hint is "did you mean"
    (r"No such option: (?P<name>\S+)(?: \(Possible options: (?P<hint>.+)\)| Did you mean (?P<hint2>.+)\?)?",
     N_("no such option: {name}")),
    (r"Missing option '(?P<name>[^']+)'\.?", N_("missing option {name}")),
    (r"Missing argument '(?P<name>[^']+)'\.?", N_("missing argument {name}")),
    (r"Option '(?P<name>[^']+)' requires an argument\.?", N_("option {name} needs a value")),
    (r"Option '(?P<name>[^']+)' does not take a value\.?", N_("option {name} takes no value")),
    (r"Got unexpected extra arguments?(?:\(s\))? \((?P<name>.*)\)", N_("unexpected extra argument ({name})")),
    (r"No such command '(?P<name>[^']+)'\.?(?: Did you mean '(?P<hint>[^']+)'\?)?", N_("no such command {name!r}")),
    (r"Missing command\.?", N_("a command is missing")),
    (r"Invalid value for '(?P<name>[^']+)': (?P<detail>.*)", N_("invalid value for {name}: {detail}")),
]


def usage_message(message: str) -> str:
    """click's message about a command line, in the current language."""
    for pattern, template in USAGE_ERRORS:
        m = re.fullmatch(pattern, message.strip())
        if m is not None:
            found = m.groupdict()
            hint = found.pop("hint", None)
            hint = found.pop("hint2", None) or hint
            return _(template, **found) + (_("; did you mean {hint}?", hint=hint) if hint else "")
    return message


def fail(message: str) -> None:
    """One clear line on stderr, exit status 2."""
    print(_("{prog}: error: {message}", prog=PROG, message=" ".join(message.split())), file=sys.stderr)
    sys.exit(2)


def console():
    from rich.console import Console

    return Console(highlight=False, markup=False)


def emit_json(data: Any) -> None:
    """JSON on stdout, non-ASCII escaped only when the output cannot carry UTF-8."""
    encoding = (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("-", "")
    print(json.dumps(data, ensure_ascii=not encoding.startswith("utf"), indent=2))


def connect(db: str | None, create: bool = False) -> sqlite3.Connection:
    return storage.open_db(storage.resolve_path(db), create=create)


def whole(text: str | None, option: str, low: int = 0, high: int = 13) -> int | None:
    """A whole number typed by a user, or a clear error."""
    if text is None:
        return None
    if not re.fullmatch(r"[+-]?[0-9]{1,9}", text.strip()):
        raise LedgerError(_("{option} must be a whole number from {low} to {high}, not {value}",
                            option=option, low=low, high=high, value=ledger.clip(text)))
    value = int(text.strip())
    if not low <= value <= high:
        raise LedgerError(_("{option} must be a whole number from {low} to {high}, not {value}",
                            option=option, low=low, high=high, value=value))
    return value


def deal_of(session: storage.Session, contract: str, declarer: str | None, partner: str | None,
            tricks: str | None, partner_tricks: str | None, rank: str | None, boston: str | None,
            ace_turned: bool, carte_blanche: str | None) -> Deal:
    """The deal a user typed, with names and words resolved against the session and its tariff."""
    t = session.tariff
    key = t.contract_key(contract)
    if key is None:
        raise LedgerError(_("the {tariff} tariff has no contract {contract!r}; use one of {choices} or pass",
                            tariff=t.name, contract=contract, choices=contract_names(t)))
    rank_key = None
    if rank is not None:
        rank_key = t.rank_key(rank)
        if rank_key is None:
            raise LedgerError(_("--rank must be one of {choices}, not {rank!r}", choices=", ".join(rank_name(t, r) for r in t.ranks),
                                rank=rank))

    def seat(name: str | None, option: str) -> int | None:
        return None if name is None else ledger.seat_of(session, name, option)

    return Deal(
        contract=key, declarer=seat(declarer, "--declarer"), partner=seat(partner, "--partner"),
        tricks=whole(tricks, "--tricks", 0, t.tricks),
        partner_tricks=whole(partner_tricks, "--partner-tricks", 0, t.tricks),
        rank=rank_key, boston=seat(boston, "--boston"), ace_turned=ace_turned,
        carte_blanche=seat(carte_blanche, "--carte-blanche"),
    )


def deal(contract: str | None = None, declarer: str | None = None, partner: str | None = None,
         tricks: str | None = None, partner_tricks: str | None = None, rank: str | None = None,
         boston: str | None = None, ace_turned: bool = False, carte_blanche: str | None = None,
         db: str | None = None) -> None:
    """Record one deal of the current session and show what moved and why (`deal --help`)."""
    from . import guided, render

    conn = connect(db)
    session = ledger.current(conn)
    ledger.open_for_deals(session, storage.state(conn, session).deals)
    t = session.tariff
    asking = guided.interactive() and (contract is None or tricks is None and t.contract_key(contract) != "pass")
    if asking:
        values = guided.fill(session, dict(contract=contract, declarer=declarer, partner=partner, tricks=tricks,
                                           partner_tricks=partner_tricks, rank=rank, boston=boston))
        contract, declarer, partner, tricks, partner_tricks, rank, boston = (
            values[k] for k in ("contract", "declarer", "partner", "tricks", "partner_tricks", "rank", "boston"))
    elif contract is None:
        raise LedgerError(_("deal needs a CONTRACT, e.g. `boston-ledger deal junior --declarer NAME --tricks N`"))
    assert contract is not None
    d = deal_of(session, contract, declarer, partner, tricks, partner_tricks, rank, boston, ace_turned,
                carte_blanche)
    out = console()
    if asking:
        from . import engine

        before = storage.state(conn, session)
        preview = engine.play(t, before, d)
        sheet = None if t.has_basket else [a + b for a, b in zip(ledger.sheet(conn, session), preview.scores)]
        out.print(render.deal_table(session, before.deals + 1, engine.position(t, before.deals), d, preview,
                                    engine.advance(before, preview), sheet))
        if not guided.confirm(_("Record this deal?")):
            out.print(_("Nothing recorded."))
            return
    session, entered = ledger.enter_deal(conn, d, session.id)
    if asking:
        out.print(_("Deal {number} recorded.", number=entered.number))
        for banner in render.banners(t, entered.position):
            out.print(banner, style="bold yellow")
        return
    sheet = None if t.has_basket else ledger.sheet(conn, session)
    out.print(render.deal_table(session, entered.number, entered.position, entered.deal,
                                entered.outcome, entered.after, sheet))
    for banner in render.banners(t, entered.position):
        out.print(banner, style="bold yellow")
    if t.boston and d.boston is None and d.contract in t.contracts and "holder" in (
            t.contracts[d.contract].boston_made, t.contracts[d.contract].boston_failed):
        out.print(_("No boston claimed. If somebody held it, `boston-ledger undo` and enter the deal "
                    "again with --boston NAME."), style="dim")


def status(db: str | None = None, as_json: bool = False) -> None:
    """Balances, basket, deals so far, the tour and who deals next (`status --help`)."""
    from . import engine

    conn = connect(db)
    session = ledger.current(conn)
    state = storage.state(conn, session)
    pos = engine.position(session.tariff, state.deals)
    points = not session.tariff.has_basket
    shown = ledger.sheet(conn, session) if points else state.balances
    left = None if session.agreed_deals is None else session.agreed_deals - state.deals
    if as_json:
        emit_json({
            "session": session.id,
            "name": session.name,
            "tariff": session.tariff.name,
            "tariff_hash": session.tariff.digest,
            "scoring": session.tariff.scoring,
            "conditions": list(session.tariff.applied),
            "players": list(session.players),
            "balances": dict(zip(session.players, shown)),
            "net": dict(zip(session.players, state.balances)),
            "basket": state.basket,
            "agreed_deals": session.agreed_deals,
            "deals_left": left,
            "deals": state.deals,
            "partie": pos.partie if len(session.tariff.tours) > 1 else None,
            "tour": pos.tour if len(session.tariff.tours) > 1 else None,
            "multiplier": pos.multiplier,
            "double": pos.double,
            "dealer": session.players[pos.dealer],
            "stake_due": state.stake_due,
            "chip_value": str(session.chip_value),
            "currency": session.currency,
            "settled": session.settled,
        })
        return
    from . import render

    out = console()
    for line in render.status_lines(session, state):
        out.print(line)
    out.print(render.balances_table(session, shown, None if points else state.basket))
