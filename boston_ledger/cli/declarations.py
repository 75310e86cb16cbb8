"""The command line's declarations: every command, argument and option with its help, for typer.
Each command calls its function in commands.py by keyword; nothing else happens here."""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from typer.core import TyperGroup

from ..app.inputs import option
from ..core.fields import FIELDS, Field
from ..core.i18n import LANGUAGES, N_
from . import commands, completion
from .guard import PROG, OutputClosed, guarded
from .options import prepare
from .patches import real_metavars, speak_help, usage_prefix


class _Group(TyperGroup):
    """Every failure a user can cause ends as one line on stderr and exit status 2 (guard.py);
    help speaks the language of the command line (patches.py)."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, windows_expand_args: bool = True, **extra: Any) -> NoReturn:
        words = list(sys.argv[1:] if args is None else args)
        if "_BOSTON_LEDGER_COMPLETE" not in os.environ:
            words = prepare(words)
            speak_help(self)
        guarded(lambda: super(_Group, self).main(args=words, prog_name=PROG, complete_var=complete_var,
                                                 standalone_mode=False, windows_expand_args=windows_expand_args,
                                                 **extra),
                lambda: f"{PROG} {words[0]}" if words and words[0] in self.commands else PROG)

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # click would turn it into exit 1, even after a commit
            raise OutputClosed() from None


usage_prefix()
real_metavars()

HELP = {"help_option_names": ["-h", "--help"]}
app = typer.Typer(
    cls=_Group,
    help="Score-keeping and settlement for Boston played at a real table.\n\n"
         "Example: boston-ledger new Anna Boris Vera Gleb --chip-value 0.10",
    no_args_is_help=False,
    invoke_without_command=True,
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings=HELP,
)
tariffs_app = typer.Typer(cls=_Group, help="The tariffs: list the shipped ones, show one's tables, check a file, "
                                           "start your own (list, show, check, new).",
                          invoke_without_command=True, context_settings=HELP)
app.add_typer(tariffs_app, name="tariffs")


def _version(value: bool) -> None:
    if value:
        from .. import __version__

        typer.echo(f"{PROG} {__version__}")
        raise typer.Exit()


DB_HELP = N_("Ledger database file \\[default: $BOSTON_LEDGER_DB, else the app directory's ledger.db]")
SESSION_HELP = N_("The session to work on \\[default: $BOSTON_LEDGER_SESSION, else the current one, "
                  "which `use ID` chooses]")


@app.callback()
def _root(ctx: typer.Context, lang: Annotated[str | None, typer.Option(
        "--lang", metavar="|".join(LANGUAGES), help="The language of the output \\[default: from the locale].")] = None,
          db: Annotated[str | None, typer.Option("--db", metavar="PATH", show_default=False,
                                                 help=DB_HELP)] = None,
          session: Annotated[str | None, typer.Option("--session", metavar="ID", help=SESSION_HELP)] = None,
          version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_version,
                                                help="Show the version and exit.")] = False,
          ) -> None:
    # --lang is read anywhere on the command line before click parses it, and --db and --session
    # given before the command are moved after it (options.py); here they are documented
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


@tariffs_app.callback()
def _tariffs(ctx: typer.Context) -> None:
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


DbOption = Annotated[str | None, typer.Option("--db", metavar="PATH", show_default=False, help=DB_HELP)]
SessionOption = Annotated[str | None, typer.Option("--session", metavar="ID", help=SESSION_HELP,
                                                  autocompletion=completion.sessions)]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of tables.")]



COMPLETION = {"contract": completion.contract, "player": completion.player, "rank": completion.rank}


def _declared(f: Field) -> inspect.Parameter:
    """A field of a deal (core.fields) as typer declares it: the contract an argument, a flag an
    option without a value, anything else an option with one."""
    if f.kind == "contract":
        info: Any = typer.Argument(metavar=f.metavar, help=f.help, autocompletion=COMPLETION[f.kind])
    elif f.kind == "flag":
        return inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=False,
                                 annotation=Annotated[bool, typer.Option(option(f.name), help=f.help)])
    else:
        info = typer.Option(option(f.name), metavar=f.metavar, help=f.help, autocompletion=COMPLETION.get(f.kind))
    return inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, default=None,
                             annotation=Annotated[str | None, info])


def deal_fields(command: Callable[..., Any]) -> Callable[..., Any]:
    """`command` declared with every field of a deal (core.fields, in its order) after its own
    arguments and before its own options; typer calls it with each by name."""
    own = list(inspect.signature(command, eval_str=True).parameters.values())
    arguments = [p for p in own if p.kind is p.POSITIONAL_OR_KEYWORD and p.default is p.empty]
    rest = [p for p in own if p not in arguments and p.kind is not p.VAR_KEYWORD]
    declared = [p.replace(kind=p.KEYWORD_ONLY) for p in arguments] + [_declared(f) for f in FIELDS] + \
        [p.replace(kind=p.KEYWORD_ONLY) for p in rest]

    def with_fields(**values: Any) -> Any:
        return command(**values)

    with_fields.__name__, with_fields.__doc__ = command.__name__, command.__doc__
    # typer reads the parameters through inspect.signature, which takes __signature__ when a
    # function has one; typeshed's FunctionType does not declare it, hence the ignore
    with_fields.__signature__ = inspect.Signature(declared)  # type: ignore[attr-defined]
    with_fields.__annotations__ = {p.name: p.annotation for p in declared}
    return with_fields


@app.command()
def new(
    players: Annotated[list[str], typer.Argument(metavar="PLAYERS",
                                                 help="The players in seat order; the first named deals first.")],
    tariff: Annotated[str, typer.Option(metavar="NAME|PATH",
                                        help="A shipped tariff's name (any beginning that is no other's) or the path "
                                             "of a tariff file.")] = "classic",
    chip_value: Annotated[str, typer.Option("--chip-value", metavar="AMOUNT",
                                            help="Money per chip, a positive decimal.")] = "1",
    currency: Annotated[str, typer.Option(metavar="CODE",
                                          help="The currency shown with money: a code such as EUR or RUB, or a sign "
                                               "such as $ or ₽, written as the output's language writes "
                                               "it ($0.70; 0,70 $).")] = "",
    name: Annotated[str | None, typer.Option(metavar="TEXT", help="A name for the session.")] = None,
    condition: Annotated[list[str] | None, typer.Option(
        "--condition", metavar="NAME", help="A condition of play agreed for the session (repeatable); "
                                            "`boston-ledger tariffs show NAME` lists them.")] = None,
    deals: Annotated[str | None, typer.Option("--deals", metavar="N",
                                              help="The agreed length of the session in deals (`extend N` "
                                                   "agrees more).")] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Start it even when another evening is open (has deals, "
                                                    "not settled), without asking.")] = False,
    db: DbOption = None,
) -> None:
    """Start a session and make it current.

    While an evening with deals is open (not settled), asks first at a terminal (Enter: no), and elsewhere needs --yes.

    Example: boston-ledger new Anna Boris Vera Gleb --tariff classic --chip-value 0.10 --condition remise
    """
    return commands.new(players=players, tariff=tariff, chip_value=chip_value, currency=currency, name=name,
                        condition=condition, deals=deals, yes=yes, db=db)



@app.command()
@deal_fields
def deal(db: DbOption = None, session: SessionOption = None, **fields: Any) -> None:
    """Record one deal of the current session and show what moved and why.

    At a terminal, what is missing or wrong is asked for, and the deal is shown before it is recorded.

    Example: boston-ledger deal junior --declarer Boris --partner Gleb --team-tricks 9 --boston Vera
    """
    return commands.deal(db=db, session=session, **fields)


@app.command()
@deal_fields
def edit(
    number: Annotated[str, typer.Argument(metavar="N", help="The number of the deal to correct (see history).")],
    reason: Annotated[str | None, typer.Option("--reason", metavar="TEXT", help="Why the deal is corrected.")] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Record it without showing it first for confirmation.")] = False,
    db: DbOption = None,
    session: SessionOption = None,
    **fields: Any,
) -> None:
    """Correct an earlier deal; every deal after it is replayed, and the old entry stays on record.

    What you give replaces what deal N had, the rest stays (--partner none: alone; --boston none: nobody's). At a terminal the correction is shown first, with what it changes for each player, and recorded once you confirm it; `edit N` alone asks what to change.

    Example: boston-ledger edit 3 --tricks 7 --reason "Anna took 7, not 6"
    """  # noqa: E501 - typer keeps a help paragraph's line breaks: one line each
    return commands.edit(number=number, reason=reason, yes=yes, db=db, session=session, **fields)


@app.command()
def status(db: DbOption = None, session: SessionOption = None, as_json: JsonOption = False) -> None:
    """Balances, basket, deals so far, the tour and who deals next.

    Example: boston-ledger status --json
    """
    return commands.status(db=db, session=session, as_json=as_json)



@app.command()
def history(
    corrections: Annotated[bool, typer.Option("--corrections", help="Show the audit of corrected deals.")] = False,
    last: Annotated[str, typer.Option("--last", metavar="N", help="How many of the latest deals to show.")] = "40",
    show_all: Annotated[bool, typer.Option("--all", help="Show every deal of the session.")] = False,
    db: DbOption = None,
    session: SessionOption = None,
    as_json: JsonOption = False,
) -> None:
    """The session's deals as on the score sheet, tour by tour.

    For each player and the basket: what a deal changed and where it left them.

    A corrected deal is marked *; the legend below says when and why.

    Example: boston-ledger history --corrections
    """
    return commands.history(corrections=corrections, last=last, show_all=show_all, db=db, session=session,
                            as_json=as_json)



@app.command()
def seat(
    out: Annotated[str, typer.Argument(metavar="OUT", help="Who gives up the seat: a player at the table.",
                                       autocompletion=completion.player)],
    into: Annotated[str, typer.Argument(metavar="IN", help="Who takes it: a newcomer, or a player of the evening "
                                        "who left the table.")],
    own: Annotated[bool, typer.Option("--own", help="OUT leaves on own account, with the seat's balance and its share "
                                      "of the basket; IN plays on own money from the next deal.")] = False,
    db: DbOption = None, session: SessionOption = None,
) -> None:
    """Change the table: from the next deal IN sits in OUT's seat.

    Without --own IN is a substitute, playing on the money of that seat.

    With --own OUT's money leaves the table: the seat's balance and an equal share of the basket in whole chips.

    IN then plays on own money: from nothing when new, or with what was taken away on leaving earlier.

    The deal goes round the seats as before; `boston-ledger undo` takes the change back until the next deal.

    Example: boston-ledger seat Gleb Dasha --own
    """
    return commands.seat(out=out, into=into, own=own, db=db, session=session)



@app.command()
def undo(db: DbOption = None, session: SessionOption = None) -> None:
    """Take back the last deal (it stays on record as undone).

    Example: boston-ledger undo
    """
    return commands.undo(db=db, session=session)


@app.command()
def extend(
    deals: Annotated[str, typer.Argument(metavar="N", help="How many more deals are agreed (1 or more).")],
    db: DbOption = None, session: SessionOption = None,
) -> None:
    """Agree N more deals for the evening: its agreed number (new --deals) grows by N.

    Also when its agreed deals are all played. It is recorded and shown in history; it is never taken back or made smaller: an evening may be settled before its agreed deals are played.

    Example: boston-ledger extend 4
    """  # noqa: E501 - typer keeps a help paragraph's line breaks: one line each
    return commands.extend(deals=deals, db=db, session=session)



@app.command()
def settle(
    yes: Annotated[bool, typer.Option("--yes", help="Record it without showing it first for confirmation.")] = False,
    db: DbOption = None, session: SessionOption = None, as_json: JsonOption = False,
) -> None:
    """End the session: share the basket, turn chips into money, list who pays whom.

    At a terminal the settlement is shown first and recorded once confirmed.

    A settled session shows it again, with the payments made since and what is still owed.

    Example: boston-ledger settle --json
    """
    return commands.settle(yes=yes, db=db, session=session, as_json=as_json)



@app.command()
def check(
    all_sessions: Annotated[bool, typer.Option("--all", help="Check every session in the ledger.")] = False,
    db: DbOption = None,
    session: SessionOption = None,
    as_json: JsonOption = False,
) -> int:
    """Check the ledger's invariants by replaying every deal.

    Also lists what in the ledger's schema boston-ledger did not make, and every damaged row (table, key, what).

    Prints nothing and exits with status 0 when all hold; else lists each problem and exits with status 1.

    Example: boston-ledger check --all
    """
    return commands.check(all_sessions=all_sessions, db=db, session=session, as_json=as_json)



@app.command()
def reopen(db: DbOption = None, session: SessionOption = None) -> None:
    """Open the current, settled session again to correct it; the earlier settlement stays on record.

    Example: boston-ledger reopen
    """
    return commands.reopen(db=db, session=session)



@app.command()
def sessions(
    last: Annotated[str | None, typer.Option("--last", metavar="N", help="How many of the latest sessions to show "
                                             "\\[default: 40; with --json, every one].")] = None,
    show_all: Annotated[bool, typer.Option("--all", help="Show every session of the ledger.")] = False,
    db: DbOption = None, as_json: JsonOption = False,
) -> None:
    """The sessions in the ledger, the latest last.

    Each with its id, name, date, players, tariff, deals, state and result.

    Example: boston-ledger sessions --all
    """
    return commands.sessions(last=last, show_all=show_all, db=db, as_json=as_json)



@app.command()
def use(
    session_id: Annotated[str, typer.Argument(metavar="ID", help="The session to make current (see sessions).",
                                              autocompletion=completion.sessions)],
    db: DbOption = None,
) -> None:
    """Make another session current.

    Example: boston-ledger use 2
    """
    return commands.use(session_id=session_id, db=db)



@app.command()
def stats(
    player: Annotated[str | None, typer.Option("--player", metavar="NAME", help="Only this player.")] = None,
    since: Annotated[str | None, typer.Option("--since", metavar="DATE",
                                              help="Only sessions started on or after this date (YYYY-MM-DD).")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Statistics across sessions.

    Deals, contracts declared and made, success, chips, money, partnerships.

    Example: boston-ledger stats --player Anna --since 2026-01-01
    """
    return commands.stats(player=player, since=since, db=db, as_json=as_json)



@app.command()
def chart(
    svg: Annotated[Path | None, typer.Option("--svg", metavar="FILE",
                                             help="Write the chart as an SVG picture instead (- for "
                                                  "standard output).")] = None,
    db: DbOption = None,
    session: SessionOption = None,
    as_json: JsonOption = False,
) -> None:
    """Each player's running balance over the deals of the current session.

    Example: boston-ledger chart --svg evening.svg
    """
    return commands.chart(svg=svg, db=db, session=session, as_json=as_json)



@app.command("ledger")
def group_ledger(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Who owes whom over all settled sessions, less payments, and the fewest payments that clear it.

    Example: boston-ledger ledger
    """
    return commands.ledger(db=db, as_json=as_json)



@app.command()
def paid(
    payer: Annotated[str | None, typer.Argument(metavar="FROM", help="The one who pays.")] = None,
    payee: Annotated[str | None, typer.Argument(metavar="TO", help="The one who is paid.")] = None,
    amount: Annotated[str | None, typer.Argument(metavar="AMOUNT", help="The money paid, e.g. 4.00.")] = None,
    currency: Annotated[str | None, typer.Option(
        "--currency", metavar="CODE",
        help="The currency of the sessions it pays off \\[default: the only one they use].")] = None,
    cancel: Annotated[str | None, typer.Option(
        "--cancel", metavar="ID", help="Cancel payment ID instead (see payments): it stays on record, the ledger "
                                       "no longer counts it.")] = None,
    yes: Annotated[bool, typer.Option("--yes", help="Record it even when it is more than is owed, or the same "
                                                    "payment again within the hour, without asking.")] = False,
    db: DbOption = None,
) -> None:
    """Record money paid from one person to another; the ledger nets it out.

    A payment of more than is owed, or the same payment again within the hour, is asked about first at a terminal, and needs --yes elsewhere.

    Example: boston-ledger paid Vera Anna 4.00
    """  # noqa: E501 - typer keeps a help paragraph's line breaks: one line each
    return commands.paid(payer=payer, payee=payee, amount=amount, currency=currency, cancel=cancel, yes=yes, db=db)


@app.command()
def payments(db: DbOption = None, as_json: JsonOption = False) -> None:
    """The payments recorded with paid: id, date, from, to, amount; cancelled ones marked.

    Example: boston-ledger payments --json
    """
    return commands.payments(db=db, as_json=as_json)



@app.command("import")
def import_(
    other: Annotated[str | None, typer.Argument(metavar="OTHER.db", help="Another ledger, read and never written.")]
    = None,
    same: Annotated[list[str] | None, typer.Option(
        "--same", metavar="THERE=HERE", help="One person spelt two ways, the other ledger's first: "
                                             "--same \"Саша=Александр\" (recorded with the import).")] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would come in; write nothing.")] = False,
    undo: Annotated[str | None, typer.Option(
        "--undo", metavar="ID", help="Take import ID back as a whole: it stays on record, its evenings and "
                                     "payments no longer count.")] = None,
    undo_same: Annotated[str | None, typer.Option(
        "--undo-same", metavar="THERE=HERE", help="Take back one spelling an import joined with --same, its evenings "
                                                  "staying: the import is undone and its file imported again, "
                                                  "its evenings only, without that spelling.")] = None,
    show_list: Annotated[bool, typer.Option("--list", help="List the imports of this ledger.")] = False,
    salvage: Annotated[bool, typer.Option(
        "--salvage", help="OTHER.db was changed by hand (refused at open): read its rows by plain SELECTs alone, "
                          "replay every evening through the engine, and import what replays (this ledger is "
                          "made when there is none).")] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> int:
    """Bring another ledger's evenings and payments into this one, each once.

    Every evening is replayed first; one that does not replay as stored is refused. An evening changed in both ledgers is shown with both versions and left out (exit status 1). It is one transaction: all of it or nothing.

    Example: boston-ledger import table2.db --dry-run
    """  # noqa: E501 - typer keeps a help paragraph's line breaks: one line each
    return commands.import_ledger(other=other, same=same, dry_run=dry_run, undo=undo, show_list=show_list, db=db,
                                  salvage=salvage, as_json=as_json, undo_same=undo_same)


@app.command()
def rescore(
    session_id: Annotated[str, typer.Argument(metavar="ID", help="The recorded session to replay.")],
    tariff: Annotated[str | None, typer.Option("--tariff", metavar="NAME|PATH",
                                               help="The tariff to replay it under \\[default: the session's own, "
                                                    "with its conditions].")] = None,
    condition: Annotated[list[str] | None, typer.Option("--condition", metavar="NAME",
                                                        help="A condition of play (repeatable).")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Replay a recorded session under another tariff or conditions; nothing is changed.

    Shows each player's balance as recorded and as replayed, and the difference.

    Example: boston-ledger rescore 1 --tariff fontainebleau
    """
    return commands.rescore(session_id=session_id, tariff=tariff, condition=condition, db=db, as_json=as_json)



@app.command()
def export(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="Folder to write the CSV files into.")],
    db: DbOption = None,
    session: SessionOption = None,
) -> None:
    """Write the session as CSV files (UTF-8, header row) for a spreadsheet.

    deals.csv, transfers.csv, balances.csv; undone.csv and corrections.csv when there are such deals.

    Once settled: settlement.csv (the results), suggested-payments.csv (who pays whom).

    payments.csv: the payments made between its players, recorded with paid.

    Example: boston-ledger export ./evening
    """
    return commands.export(directory=directory, db=db, session=session)


@app.command()
def sheet(
    html: Annotated[Path | None, typer.Option("--html", metavar="FILE",
                                              help="Write a web page instead: self-contained, prints on A4 "
                                                   "(- for standard output).")] = None,
    db: DbOption = None,
    session: SessionOption = None,
) -> None:
    """The evening's score sheet, to share.

    Every deal with everyone's standing, the settlement and who pays whom: as plain text to paste into a messenger (40 columns), or a web page with its chart.

    Example: boston-ledger sheet --html evening.html
    """  # noqa: E501 - typer keeps a help paragraph's line breaks: one line each
    return commands.sheet(html=html, db=db, session=session)



@app.command()
def demo(
    db: Annotated[str | None, typer.Option("--db", metavar="PATH",
                                           help="Play the demo evening into this ledger file instead of "
                                                "the default one.")] = None,
) -> None:
    """Play a scripted classic evening deal by deal, then settle it.

    Example: boston-ledger demo
    """
    return commands.demo(db=db)



@tariffs_app.command("list")
def tariffs_list(as_json: JsonOption = False) -> None:
    """Every shipped tariff, one line each.

    Example: boston-ledger tariffs list
    """
    return commands.tariffs_list(as_json=as_json)



@tariffs_app.command("show")
def tariffs_show(
    name: Annotated[str, typer.Argument(metavar="NAME|PATH", help="A shipped tariff or a file.")],
    condition: Annotated[list[str] | None, typer.Option("--condition", metavar="NAME",
                                                        help="Show it with this condition on (repeatable).")] = None,
    as_json: JsonOption = False,
) -> None:
    """The tariff's tables laid out like the seed's, and the conditions it supports.

    Example: boston-ledger tariffs show classic --condition philadelphia
    """
    return commands.tariffs_show(name=name, condition=condition, as_json=as_json)



@tariffs_app.command("check")
def tariffs_check(path: Annotated[str, typer.Argument(metavar="FILE", help="A tariff file to validate.")]) -> int:
    """Validate a tariff file.

    Lists every problem with its place, and exits with status 2 when there is any.

    Example: boston-ledger tariffs check my-club.toml
    """
    return commands.tariffs_check(path=path)



@tariffs_app.command("new")
def tariffs_new(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The new tariff's name; written to NAME.toml.")],
    source: Annotated[str, typer.Option("--from", metavar="NAME|PATH", help="The tariff to start from.")] = "classic",
    force: Annotated[bool, typer.Option("--force", help="Replace an existing file.")] = False,
) -> None:
    """Write a starting copy of a tariff for you to edit.

    Then check it with `tariffs check FILE` and play it with `new --tariff FILE`.

    Example: boston-ledger tariffs new my-club --from classic
    """
    return commands.tariffs_new(name=name, source=source, force=force)



@app.command()
def serve(
    session: Annotated[str | None, typer.Option("--session", metavar="ID", show_default=False,
                                                help="The session to serve \\[default: the current one].")] = None,
    port: Annotated[str, typer.Option("--port", metavar="N", help="The port to listen on (0: any free one).")] = "8765",
    lan: Annotated[bool, typer.Option("--lan", help="Listen on the local network, not only on this machine.")] = False,
    host: Annotated[str | None, typer.Option("--host", metavar="ADDRESS", show_default=False,
                                             help="Listen on this address of the machine, such as ::1, or "
                                                  "on all of them, 0.0.0.0 or :: \\[default: 127.0.0.1; "
                                                  "with --lan, the network's].")] = None,
    token_file: Annotated[Path | None, typer.Option("--token-file", metavar="FILE", show_default=False,
                                                    help="Keep the link's token in this file, the same at "
                                                         "every start \\[default: a new token each start].")] = None,
    entry: Annotated[bool, typer.Option("--entry", help="Also let deals be entered (and the last one taken back) "
                                                        "from a phone, through a second link with its own token, "
                                                        "new each start.")] = False,
    db: DbOption = None,
) -> int:
    """Show the session's sheet on the players' phones, updated by itself after each deal.

    Needs pip install 'boston-ledger\\[serve]'. Prints the link (with --entry, then the entry link too), and when it listens on the network (--lan, --host 0.0.0.0) the QR codes to scan; Ctrl-C stops it.

    Example: boston-ledger serve --lan
    """  # noqa: E501 - typer keeps a help paragraph's line breaks: one line each
    return commands.serve(session=session, port=port, lan=lan, token_file=token_file, entry=entry, db=db, host=host)
