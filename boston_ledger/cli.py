"""The command line: a thin layer over the ledger, the engine and the storage."""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from . import ledger, storage
from .engine import Deal
from .errors import LedgerError

PROG = "boston-ledger"


class _Group(TyperGroup):
    """Every failure a user can cause ends as one line on stderr and exit status 2."""

    def main(self, args: Any = None, prog_name: Any = None, complete_var: Any = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        try:
            code = super().main(args=args, prog_name=PROG, complete_var=complete_var,
                                standalone_mode=False, **extra)
        except LedgerError as e:
            fail(str(e))
        except typer.Abort:
            print(f"{PROG}: aborted", file=sys.stderr)
            sys.exit(1)
        except typer.TyperException as e:  # click's usage errors: unknown option, missing value...
            message = e.format_message() if hasattr(e, "format_message") else str(e)
            ctx = getattr(e, "ctx", None)
            path = ctx.command_path if ctx is not None else PROG
            words = list(sys.argv[1:] if args is None else args)
            if path == PROG and words and words[0] in self.commands:
                path = f"{PROG} {words[0]}"
            fail(f"{message.rstrip('.')} (see `{path} --help`)")
        except sqlite3.Error as e:
            fail(f"the ledger database failed: {e}; nothing was recorded")
        except OSError as e:
            fail(f"{e.strerror or e}: {e.filename or ''}; nothing was recorded")
        except KeyboardInterrupt:
            sys.exit(130)
        except Exception as e:  # a bug of ours: still one line, and the transaction was rolled back
            print(f"{PROG}: internal error: {type(e).__name__}: {e}. Please report it with the "
                  f"command you ran; `{PROG} status` shows what is recorded.", file=sys.stderr)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)


def fail(message: str) -> None:
    """One clear line on stderr, exit status 2."""
    print(f"{PROG}: error: {' '.join(message.split())}", file=sys.stderr)
    sys.exit(2)


app = typer.Typer(
    cls=_Group,
    help="Score-keeping and settlement for Boston played at a real table.\n\n"
         "Example: boston-ledger new Anna Boris Vera Gleb --chip-value 0.10",
    no_args_is_help=False,
    invoke_without_command=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
tariffs_app = typer.Typer(cls=_Group, help="Show the tariff tables shipped with boston-ledger.",
                          invoke_without_command=True)
app.add_typer(tariffs_app, name="tariffs")


@app.callback()
def _root(ctx: typer.Context) -> None:
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


@tariffs_app.callback()
def _tariffs(ctx: typer.Context) -> None:
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


DbOption = Annotated[
    Optional[str],
    typer.Option("--db", metavar="PATH", show_default=False,
                 help="Ledger database file [default: $BOSTON_LEDGER_DB, else the app directory's ledger.db]"),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of tables.")]


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
        raise LedgerError(f"{option} must be a whole number from {low} to {high}, not {ledger.clip(text)}")
    value = int(text.strip())
    if not low <= value <= high:
        raise LedgerError(f"{option} must be a whole number from {low} to {high}, not {value}")
    return value


# ---- commands ------------------------------------------------------------------------------


@app.command()
def new(
    players: Annotated[list[str], typer.Argument(help="The players in seat order; the first named deals first.")],
    tariff: Annotated[str, typer.Option(help="A shipped tariff's name or the path of a tariff file.")] = "classic",
    chip_value: Annotated[str, typer.Option("--chip-value", help="Money per chip, a positive decimal.")] = "1",
    currency: Annotated[str, typer.Option(help="Currency code shown with money, e.g. EUR or RUB.")] = "",
    name: Annotated[Optional[str], typer.Option(help="A name for the session.")] = None,
    condition: Annotated[Optional[list[str]], typer.Option(
        "--condition", metavar="NAME", help="A condition of play agreed for the session (repeatable); "
                                            "`boston-ledger tariffs show NAME` lists them.")] = None,
    deals: Annotated[Optional[str], typer.Option("--deals", metavar="N",
                                                 help="The agreed length of the session in deals.")] = None,
    db: DbOption = None,
) -> None:
    """Start a session and make it current.

    Example: boston-ledger new Anna Boris Vera Gleb --tariff classic --chip-value 0.10 --condition remise
    """
    from .tariff import load

    t = load(tariff, condition or ())
    agreed = whole(deals, "--deals", 1, 100_000)
    value = ledger.chip_value(chip_value)
    code = ledger.currency(currency) if currency else ""
    names = ledger.player_names(players, t)
    label = ledger.session_name(name)
    conn = connect(db, create=True)
    session_id = ledger.new_session(conn, names, t, value, code, label, agreed)
    out = console()
    out.print(f"Session {session_id} started: {', '.join(names)} (seat order; {names[0]} deals first).")
    unit = "chip" if t.has_basket else "point"
    out.print(f"Tariff {t.name} ({t.digest}): {t.title}. One {unit} = {value}{' ' + code if code else ''}.")
    if t.applied:
        out.print(f"Conditions: {', '.join(t.applied)}.")
    if agreed:
        out.print(f"The session lasts {agreed} deals.")


@app.command()
def deal(
    contract: Annotated[str, typer.Argument(help="A contract of the session's tariff (classic: junior, senior, solo, "
                                                 "nine, misere, grand-misere, misere-ouvert, grand-misere-ouvert), "
                                                 "or pass; Russian names too.")],
    declarer: Annotated[Optional[str], typer.Option(help="Who bought the contract.")] = None,
    partner: Annotated[Optional[str], typer.Option(help="Who supported the declarer (omit when alone).")] = None,
    tricks: Annotated[Optional[str], typer.Option(metavar="N", help="The declarer's own tricks, 0..13.")] = None,
    partner_tricks: Annotated[Optional[str], typer.Option("--partner-tricks", metavar="N",
                                                          help="The partner's own tricks, 0..13.")] = None,
    rank: Annotated[Optional[str], typer.Option(metavar="RANK",
                                                help="The suit's rank: junior|senior for solo and nine "
                                                     "[default: junior]; first|second|third on samouchitel.")] = None,
    boston: Annotated[Optional[str], typer.Option(metavar="NAME", help="Who held the boston (jack of diamonds).")] = None,
    ace_turned: Annotated[bool, typer.Option("--ace-turned", help="The trump the dealer turned is an ace "
                                                                  "(remise condition).")] = False,
    carte_blanche: Annotated[Optional[str], typer.Option("--carte-blanche", metavar="NAME",
                                                         help="Who declared a blank hand (Fontainebleau).")] = None,
    db: DbOption = None,
) -> None:
    """Record one deal of the current session and show what moved and why.

    Example: boston-ledger deal junior --declarer Boris --partner Gleb --tricks 5 --partner-tricks 4
    """
    from . import render

    conn = connect(db)
    session = ledger.current(conn)
    ledger.open_for_deals(session, storage.state(conn, session).deals)
    t = session.tariff
    key = t.contract_key(contract)
    if key is None:
        raise LedgerError(f"the {t.name} tariff has no contract {contract!r}; "
                          f"use one of {', '.join(t.contracts)} or pass")
    rank_key = None
    if rank is not None:
        rank_key = t.rank_key(rank)
        if rank_key is None:
            raise LedgerError(f"--rank must be one of {', '.join(t.ranks)}, not {rank!r}")
    d = Deal(
        contract=key,
        declarer=None if declarer is None else ledger.seat_of(session, declarer, "--declarer"),
        partner=None if partner is None else ledger.seat_of(session, partner, "--partner"),
        tricks=whole(tricks, "--tricks", 0, t.tricks),
        partner_tricks=whole(partner_tricks, "--partner-tricks", 0, t.tricks),
        rank=rank_key,
        boston=None if boston is None else ledger.seat_of(session, boston, "--boston"),
        ace_turned=ace_turned,
        carte_blanche=None if carte_blanche is None else ledger.seat_of(session, carte_blanche, "--carte-blanche"),
    )
    session, entered = ledger.enter_deal(conn, d, session.id)
    out = console()
    sheet = None if t.has_basket else ledger.sheet(conn, session)
    out.print(render.deal_table(session, entered.number, entered.position, entered.deal,
                                entered.outcome, entered.after, sheet))
    if t.boston and d.boston is None and d.contract in t.contracts and "holder" in (
            t.contracts[d.contract].boston_made, t.contracts[d.contract].boston_failed):
        out.print("No boston claimed. If somebody held it, `boston-ledger undo` and enter the deal "
                  "again with --boston NAME.", style="dim")


@app.command()
def status(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Balances, basket, deals so far, the tour and who deals next.

    Example: boston-ledger status --json
    """
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


@app.command()
def history(db: DbOption = None) -> None:
    """The session's deals with their results.

    Example: boston-ledger history
    """
    from . import render

    conn = connect(db)
    session = ledger.current(conn)
    rows = ledger.walk(session, storage.deals(conn, session))
    out = console()
    if not rows:
        out.print(f"Session {session.id} has no deals yet.")
        return
    out.print(render.history_table(session, rows))
    undone = storage.undone_count(conn, session)
    if undone:
        out.print(f"{undone} deal{'s' if undone != 1 else ''} taken back with undo (kept on record).")


@app.command()
def undo(db: DbOption = None) -> None:
    """Take back the last deal (it stays on record as undone).

    Example: boston-ledger undo
    """
    from . import render

    conn = connect(db)
    session, last, after = ledger.undo_last(conn)
    out = console()
    out.print(f"Deal {last.number} ({render.describe(session, last.deal)}) taken back; "
              "it stays on record as undone.")
    out.print(render.balances_table(session, ledger.sheet(conn, session) if not session.tariff.has_basket
                                    else after.balances, after.basket if session.tariff.has_basket else None))


@app.command()
def settle(db: DbOption = None, as_json: JsonOption = False) -> None:
    """End the session: share the basket, turn chips into money, list who pays whom.

    Example: boston-ledger settle --json
    """
    conn = connect(db)
    session, result, fresh = ledger.settle(conn)
    if as_json:
        emit_json(result)
        return
    from . import render

    out = console()
    if not fresh:
        out.print(f"Session {session.id} was already settled; here is its settlement.")
    elif result["basket"]:
        out.print(f"The basket's {result['basket']} chips are shared equally.")
    out.print(render.settlement_heading(session))
    out.print(render.settlement_table(session, result))
    for line in render.payment_lines(session, result):
        out.print(line)


@app.command()
def check(
    all_sessions: Annotated[bool, typer.Option("--all", help="Check every session in the ledger.")] = False,
    db: DbOption = None,
) -> None:
    """Check the ledger's invariants: prints nothing and exits 0 when all hold, else lists each problem and exits 1.

    Example: boston-ledger check --all
    """
    from . import checks

    conn = connect(db)
    ids = checks.session_ids(conn) if all_sessions else [storage.current_session_id(conn)]
    problems = [p for session_id in ids for p in checks.check_session(conn, session_id)]
    for problem in problems:
        print(problem)
    if problems:
        sys.exit(1)


@app.command()
def export(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="Folder to write the CSV files into.")],
    db: DbOption = None,
) -> None:
    """Write the session as CSV files (UTF-8, header row) for a spreadsheet.

    Example: boston-ledger export ./evening
    """
    from . import export as exporter

    conn = connect(db)
    session = ledger.current(conn)
    written = exporter.write(conn, session, directory)
    out = console()
    for path in written:
        out.print(f"wrote {path}")


@app.command()
def demo(
    db: Annotated[Optional[str], typer.Option("--db", metavar="PATH",
                                              help="Keep the demo evening in this file instead of a "
                                                   "throw-away database.")] = None,
) -> None:
    """Play a scripted classic evening deal by deal, then settle it.

    Example: boston-ledger demo
    """
    from . import demo as script

    script.run(console(), db)


@tariffs_app.command("list")
def tariffs_list() -> None:
    """Every shipped tariff, one line each.

    Example: boston-ledger tariffs list
    """
    from .tariff import load, shipped

    for name in shipped():
        t = load(name)
        conditions = f"\tconditions: {', '.join(t.conditions)}" if t.conditions else ""
        typer.echo(f"{name}\t{t.title}\tsource: {t.source}{conditions}")


@tariffs_app.command("show")
def tariffs_show(
    name: Annotated[str, typer.Argument(metavar="NAME|PATH", help="A shipped tariff or a file.")],
    condition: Annotated[Optional[list[str]], typer.Option("--condition", metavar="NAME",
                                                           help="Show it with this condition on (repeatable).")] = None,
) -> None:
    """The tariff's tables laid out like the seed's, and the conditions it supports.

    Example: boston-ledger tariffs show classic --condition philadelphia
    """
    from . import render
    from .tariff import load

    out = console()
    render.print_all(out, render.tariff_tables(load(name, condition or ()), out.width))


@tariffs_app.command("check")
def tariffs_check(path: Annotated[str, typer.Argument(metavar="FILE", help="A tariff file to validate.")]) -> None:
    """Validate a tariff file: every problem with its location, exit 2 when there is any.

    Example: boston-ledger tariffs check my-club.toml
    """
    from .tariff import check

    tariff, problems = check(path)
    if problems:
        for problem in problems:
            print(f"{PROG}: error: {' '.join(problem.split())}", file=sys.stderr)
        sys.exit(2)
    assert tariff is not None
    print(f"ok: {path} is a valid tariff: {tariff.name}, {len(tariff.contracts)} contracts, "
          f"{len(tariff.conditions)} conditions")


@tariffs_app.command("new")
def tariffs_new(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The new tariff's name; written to NAME.toml.")],
    source: Annotated[str, typer.Option("--from", metavar="NAME|PATH", help="The tariff to start from.")] = "classic",
    force: Annotated[bool, typer.Option("--force", help="Replace an existing file.")] = False,
) -> None:
    """Write a starting copy of a tariff for you to edit, then use it with `new --tariff FILE`.

    Example: boston-ledger tariffs new my-club --from classic
    """
    from .tariff import write_copy

    path = write_copy(name, source, force)
    print(f"wrote {path}: edit it, check it with `{PROG} tariffs check {path}`, "
          f"use it with `{PROG} new ... --tariff {path}`")


def main() -> None:
    """The `boston-ledger` program: a terminal that cannot show a character gets a stand-in."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    app()
