"""The command line: a thin layer over the ledger, the engine and the storage."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from typer.core import TyperGroup

from . import ledger, storage
from .errors import LedgerError
from .i18n import N_, _, choose, language, plural, strerror
from .shell import PROG, connect, console, deal_of, emit_json, guarded, whole
from . import shell

class _Group(TyperGroup):
    """Every failure a user can cause ends as one line on stderr and exit status 2."""

    def main(self, args: Any = None, prog_name: Any = None, complete_var: Any = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        words = list(sys.argv[1:] if args is None else args)
        if "_BOSTON_LEDGER_COMPLETE" not in os.environ:
            words = choose(words)
            speak_help(self)
        guarded(lambda: super(_Group, self).main(args=words, prog_name=PROG, complete_var=complete_var,
                                                 standalone_mode=False, **extra),
                lambda: f"{PROG} {words[0]}" if words and words[0] in self.commands else PROG)


def speak_help(group: Any) -> None:
    """Help in the current language: the commands' and options' texts, and typer's own words."""
    global _spoken
    if language() == "en" and not _spoken:  # typer's words are English already
        return
    from typer import rich_utils

    for name, english in HELP_WORDS.items():
        setattr(rich_utils, name, _(english))
    _spoken = language() != "en"
    if not _spoken:
        return
    from .ru import HELP, METAVARS

    def walk(command: Any, path: str) -> None:
        if command.help:
            command.help = HELP.get(path, command.help)
        command.options_metavar = METAVARS["[OPTIONS]"]
        if hasattr(command, "subcommand_metavar"):
            command.subcommand_metavar = METAVARS["COMMAND [ARGS]..."]
        for p in command.params:
            if getattr(p, "help", None):
                p.help = HELP.get(f"{path} {p.name}".strip(), HELP.get(f"* {p.name}", p.help))
            if p.param_type_name == "argument" or p.metavar:
                word = p.metavar or p.name.upper()
                p.metavar = METAVARS.get(word, word)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, f"{path} {name}".strip())

    walk(group, "")


_spoken = False  # whether typer's words were last set to another language than English

HELP_WORDS = {  # typer's own words in a help page, by the name typer keeps them under
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"), "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"), "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
}


def _usage_prefix() -> None:
    """click begins a usage line with 'Usage: '; in Russian, «Вызов: »."""
    try:  # typer 0.29 carries its own click
        from typer._click.core import Command
        from typer._click.formatting import HelpFormatter
    except ImportError:
        from click.core import Command  # type: ignore[no-redef]
        from click.formatting import HelpFormatter  # type: ignore[no-redef]

    write_usage = HelpFormatter.write_usage
    help_option = Command.get_help_option

    def usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        write_usage(self, prog, args, _("Usage: ") if prefix is None else prefix)

    def help_of(self: Any, ctx: Any) -> Any:
        option = help_option(self, ctx)
        if option is not None:
            option.help = _("Show this message and exit.")
        return option

    HelpFormatter.write_usage = usage  # type: ignore[method-assign]
    Command.get_help_option = help_of  # type: ignore[method-assign]


_usage_prefix()


app = typer.Typer(
    cls=_Group,
    help="Score-keeping and settlement for Boston played at a real table.\n\n"
         "Example: boston-ledger new Anna Boris Vera Gleb --chip-value 0.10",
    no_args_is_help=False,
    invoke_without_command=True,
    add_completion=True,
    pretty_exceptions_enable=False,
)
tariffs_app = typer.Typer(cls=_Group, help="Show the tariff tables shipped with boston-ledger.",
                          invoke_without_command=True)
app.add_typer(tariffs_app, name="tariffs")


@app.callback()
def _root(ctx: typer.Context, lang: Annotated[Optional[str], typer.Option(
        "--lang", metavar="en|ru", help="The language of the output: en or ru \\[default: from the locale].")] = None,
          ) -> None:
    # --lang is read (anywhere on the command line) before click parses it; here it is documented
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


@tariffs_app.callback()
def _tariffs(ctx: typer.Context) -> None:
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())


DbOption = Annotated[
    Optional[str],
    typer.Option("--db", metavar="PATH", show_default=False,
                 help="Ledger database file \\[default: $BOSTON_LEDGER_DB, else the app directory's ledger.db]"),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of tables.")]


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
    out.print(_("Session {id} started: {names} (seat order; {name} deals first).", id=session_id,
                names=", ".join(names), name=names[0]))
    worth = f"{value}{' ' + code if code else ''}"
    out.print(_("Tariff {name} ({digest}): {title}. One chip = {value}.", name=t.name, digest=t.digest,
                title=_(t.title), value=worth) if t.has_basket else
              _("Tariff {name} ({digest}): {title}. One point = {value}.", name=t.name, digest=t.digest,
                title=_(t.title), value=worth))
    if t.applied:
        out.print(_("Conditions: {names}.", names=', '.join(t.applied)))
    if agreed:
        out.print(_("The session lasts {agreed} deals.", agreed=agreed))


def _session_for_completion(ctx: typer.Context) -> storage.Session | None:
    """The current session of the ledger a command line names, for shell completion (or None)."""
    path = storage.resolve_path(ctx.params.get("db"))
    if not path.is_file():
        return None
    try:
        return ledger.current(storage.open_db(path))
    except Exception:  # completion never complains
        return None


def _matching(words: list[str], incomplete: str) -> list[str]:
    return [w for w in words if w.casefold().startswith(incomplete.casefold())]


def complete_player(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion: the players of the current session."""
    session = _session_for_completion(ctx)
    return _matching(list(session.players), incomplete) if session else []


def complete_contract(ctx: typer.Context, incomplete: str) -> list[str]:
    """Shell completion: the contracts of the current session's tariff, and pass."""
    session = _session_for_completion(ctx)
    return _matching([*session.tariff.contracts, "pass"], incomplete) if session else []


def complete_rank(ctx: typer.Context, incomplete: str) -> list[str]:
    session = _session_for_completion(ctx)
    return _matching(list(session.tariff.ranks), incomplete) if session else []


ContractArg = Annotated[Optional[str], typer.Argument(
    help="A contract of the session's tariff (classic: junior, senior, solo, nine, misere, grand-misere, "
         "misere-ouvert, grand-misere-ouvert), or pass; Russian names too.", autocompletion=complete_contract)]
DeclarerOpt = Annotated[Optional[str], typer.Option("--declarer", help="Who bought the contract.",
                                                    autocompletion=complete_player)]
PartnerOpt = Annotated[Optional[str], typer.Option("--partner", help="Who supported the declarer (omit when alone).",
                                                   autocompletion=complete_player)]
TricksOpt = Annotated[Optional[str], typer.Option("--tricks", metavar="N", help="The declarer's own tricks, 0..13.")]
PartnerTricksOpt = Annotated[Optional[str], typer.Option("--partner-tricks", metavar="N",
                                                         help="The partner's own tricks, 0..13.")]
RankOpt = Annotated[Optional[str], typer.Option("--rank", metavar="RANK",
                                                help="The suit's rank: junior|senior for solo and nine "
                                                     "\\[default: junior]; first|second|third on samouchitel.",
                                                autocompletion=complete_rank)]
BostonOpt = Annotated[Optional[str], typer.Option("--boston", metavar="NAME",
                                                  help="Who held the boston (jack of diamonds).",
                                                  autocompletion=complete_player)]
AceOpt = Annotated[bool, typer.Option("--ace-turned", help="The trump the dealer turned is an ace (remise condition).")]
BlancheOpt = Annotated[Optional[str], typer.Option("--carte-blanche", metavar="NAME",
                                                   help="Who declared a blank hand (Fontainebleau).",
                                                   autocompletion=complete_player)]


@app.command()
def deal(
    contract: ContractArg = None, declarer: DeclarerOpt = None, partner: PartnerOpt = None, tricks: TricksOpt = None,
    partner_tricks: PartnerTricksOpt = None, rank: RankOpt = None, boston: BostonOpt = None,
    ace_turned: AceOpt = False, carte_blanche: BlancheOpt = None, db: DbOption = None,
) -> None:
    """Record one deal of the current session and show what moved and why. At a terminal,
    what is missing is asked for, and the deal is shown before it is recorded.

    Example: boston-ledger deal junior --declarer Boris --partner Gleb --tricks 5 --partner-tricks 4
    """
    shell.deal(contract, declarer, partner, tricks, partner_tricks, rank, boston, ace_turned, carte_blanche, db)


@app.command()
def edit(
    number: Annotated[str, typer.Argument(metavar="N", help="The number of the deal to correct (see history).")],
    contract: ContractArg, declarer: DeclarerOpt = None, partner: PartnerOpt = None, tricks: TricksOpt = None,
    partner_tricks: PartnerTricksOpt = None, rank: RankOpt = None, boston: BostonOpt = None,
    ace_turned: AceOpt = False, carte_blanche: BlancheOpt = None,
    reason: Annotated[Optional[str], typer.Option("--reason", metavar="TEXT", help="Why the deal is corrected.")] = None,
    db: DbOption = None,
) -> None:
    """Correct an earlier deal: every deal after it is replayed; the old entry stays on record.

    Example: boston-ledger edit 3 senior --declarer Anna --tricks 7 --reason "Anna took 7, not 6"
    """
    from . import render

    conn = connect(db)
    session = ledger.current(conn)
    n = whole(number, "N", 1, 10**9)
    assert n is not None
    if reason is None:
        raise LedgerError(_("a correction needs --reason TEXT: say why the deal is changed"))
    d = deal_of(session, contract, declarer, partner, tricks, partner_tricks, rank, boston, ace_turned,
                carte_blanche)
    done = ledger.correct(conn, n, d, reason, session.id)
    out = console()
    out.print(_("Deal {number} corrected: {was} → {now}; the old entry stays on record.", number=n,
                was=render.describe(session, done.was), now=render.describe(session, d)))
    out.print(render.change_table(session, done.before, done.after, done.basket))


@app.command()
def status(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Balances, basket, deals so far, the tour and who deals next.

    Example: boston-ledger status --json
    """
    shell.status(db, as_json)


@app.command()
def history(
    corrections: Annotated[bool, typer.Option("--corrections", help="Show the audit of corrected deals.")] = False,
    last: Annotated[str, typer.Option("--last", metavar="N", help="How many of the latest deals to show.")] = "40",
    show_all: Annotated[bool, typer.Option("--all", help="Show every deal of the session.")] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """The session's deals with their results.

    Example: boston-ledger history --corrections
    """
    from . import render

    conn = connect(db)
    session = ledger.current(conn)
    if corrections and as_json:
        emit_json([{"deal": c.number, "corrected_at": c.corrected_at, "reason": c.reason,
                    "was": render.describe(session, c.was), "now": render.describe(session, c.now)}
                   for c in storage.corrections(conn, session)])
        return
    if corrections:
        audit = storage.corrections(conn, session)
        if not audit:
            console().print(_("Session {id} has no corrected deal.", id=session.id))
            return
        console().print(render.corrections_table(session, audit))
        return
    count = whole(last, "--last", 1, 10**9)
    tail = None if show_all or not session.tariff.has_basket else count
    rows = ledger.walk(session, storage.deals(conn, session, last=tail))
    if not show_all and count is not None and len(rows) > count:
        rows = rows[-count:]
    if as_json:
        names = session.players
        emit_json([{
            "deal": w.recorded.number, "partie": w.position.partie, "tour": w.position.tour,
            "multiplier": w.position.multiplier, "dealer": names[w.position.dealer],
            "contract": w.recorded.deal.contract, "description": render.describe(session, w.recorded.deal),
            "made": w.outcome.made, "balances": dict(zip(names, w.sheet)),
            "basket": w.after.basket if session.tariff.has_basket else 0,
        } for w in rows])
        return
    out = console()
    if not rows:
        out.print(_("Session {id} has no deals yet.", id=session.id))
        return
    out.print(render.history_table(session, rows, out.width))
    total = storage.state(conn, session).deals
    if len(rows) < total:
        out.print(_("deals {first}–{last} of {total}; `{prog} history --all` shows every deal",
                    first=rows[0].recorded.number, last=rows[-1].recorded.number, total=total, prog=PROG))
    undone = storage.undone_count(conn, session)
    if undone:
        out.print(plural(undone, "{n} deal taken back with undo (kept on record).|{n} deals taken back with undo (kept on record)."))


@app.command()
def undo(db: DbOption = None) -> None:
    """Take back the last deal (it stays on record as undone).

    Example: boston-ledger undo
    """
    from . import render

    conn = connect(db)
    session, last, after = ledger.undo_last(conn)
    out = console()
    out.print(_("Deal {number} ({deal}) taken back; it stays on record as undone.", number=last.number,
                deal=render.describe(session, last.deal)))
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
        out.print(_("Session {id} was already settled; here is its settlement.", id=session.id))
    elif result["basket"]:
        out.print(_("The basket's {chips} chips are shared equally.", chips=result["basket"]))
    out.print(render.settlement_heading(session))
    out.print(render.settlement_table(session, result))
    for line in render.payment_lines(session, result):
        out.print(line)
    earlier = storage.settlements(conn, session)[:-1]
    for when, before in earlier:  # a reopened session: what it was settled at before, on record
        code = f" {session.currency}" if session.currency else ""
        out.print(_("Settled before, on {when}, and reopened: {money}", when=render.local_time(when),
                    money=", ".join(f"{n} {m}{code}" for n, m in before["money"].items())), style="dim")


@app.command()
def check(
    all_sessions: Annotated[bool, typer.Option("--all", help="Check every session in the ledger.")] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Check the ledger's invariants: prints nothing and exits 0 when all hold, else lists each problem and exits 1.

    Example: boston-ledger check --all
    """
    from . import checks

    conn = connect(db)
    ids = checks.session_ids(conn) if all_sessions else [storage.current_session_id(conn)]
    problems = [p for session_id in ids for p in checks.check_session(conn, session_id)]
    if as_json:
        emit_json([{"session": p.session, "deal": p.deal, "problem": p.what} for p in problems])
    else:
        for problem in problems:
            print(problem)
    if problems:
        sys.exit(1)


@app.command()
def reopen(db: DbOption = None) -> None:
    """Open the current, settled session again to correct it; the earlier settlement stays on record.

    Example: boston-ledger reopen
    """
    conn = connect(db)
    session = ledger.reopen(conn)
    console().print(_("Session {id} reopened; its earlier settlement stays on record. "
                      "Correct it with `{prog} edit N ...`, then settle it again.", id=session.id, prog=PROG))


@app.command()
def sessions(db: DbOption = None, as_json: JsonOption = False) -> None:
    """Every session in the ledger: id, name, date, players, tariff, deals, state, result.

    Example: boston-ledger sessions
    """
    from rich.table import Table

    conn = connect(db)
    current = storage.current_session_id(conn)
    rows = []
    for s in storage.sessions(conn):
        st = storage.state(conn, s)
        result = storage.settlement(conn, s) if s.settled else None
        rows.append({
            "id": s.id, "name": s.name, "date": s.created_at[:10], "players": list(s.players),
            "tariff": s.tariff.name, "conditions": list(s.tariff.applied), "deals": st.deals,
            "state": N_("settled") if s.settled else N_("open"), "current": s.id == current,
            "result": result["money"] if result else None, "currency": s.currency,
        })
    if as_json:
        emit_json(rows)
        return
    from rich import box

    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0))
    for col in (N_("id"), N_("name"), N_("date"), N_("players"), N_("tariff"), N_("deals"), N_("state"),
                N_("result")):
        table.add_column(_(col), justify="right" if col in ("id", "deals") else "left",
                         no_wrap=col in ("id", "date", "tariff", "deals", "state"))
    for r in rows:
        code = f" {r['currency']}" if r["currency"] else ""
        result = ", ".join(f"{n} {m}{code}" for n, m in r["result"].items()) if r["result"] else ""
        table.add_row(("* " if r["current"] else "") + str(r["id"]), r["name"] or "", r["date"],
                      ", ".join(r["players"]), r["tariff"], str(r["deals"]), _(r["state"]), result)
    console().print(table)


@app.command()
def use(
    session_id: Annotated[str, typer.Argument(metavar="ID", help="The session to make current (see sessions).")],
    db: DbOption = None,
) -> None:
    """Make another session current.

    Example: boston-ledger use 2
    """
    conn = connect(db)
    n = whole(session_id, "ID", 1, 10**9)
    assert n is not None
    session = ledger.use(conn, n)
    console().print(_("Session {id} is current: {names}.", id=session.id, names=", ".join(session.players)))


@app.command()
def stats(
    player: Annotated[Optional[str], typer.Option("--player", metavar="NAME", help="Only this player.")] = None,
    since: Annotated[Optional[str], typer.Option("--since", metavar="DATE",
                                                 help="Only sessions started on or after this date (YYYY-MM-DD).")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Statistics across sessions: deals, contracts declared and made, success, chips, money, partnerships.

    Example: boston-ledger stats --player Anna --since 2026-01-01
    """
    from rich.table import Table

    from . import stats as statistics

    conn = connect(db)
    data = statistics.collect(conn, player, statistics.since_date(since))
    if as_json:
        emit_json(data)
        return
    from rich import box

    out = console()
    table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1, 0, 0))
    for col in (N_("player"), N_("sessions"), N_("deals"), N_("declared"), N_("made"), N_("rate"), N_("net"),
                N_("money"), N_("best"), N_("worst")):
        table.add_column(_(col), justify="left" if col in ("player", "money") else "right", no_wrap=True)
    for name, e in data["players"].items():
        rate = "" if e["success_rate"] is None else f"{e['success_rate']:.0%}"
        money = ", ".join(f"{m} {c}".strip() for c, m in e["money"].items())
        win = "" if e["biggest_win"] is None else f"+{e['biggest_win']['chips']}"
        loss = "" if e["biggest_loss"] is None else str(e["biggest_loss"]["chips"])
        table.add_row(name, str(e["sessions"]), str(e["deals"]), str(e["declared_total"]), str(e["made_total"]),
                      rate, str(e["net_chips"]), money, win, loss)
    out.print(table)
    from . import render
    from .tariff import load, shipped

    tariffs = [load(name) for name in shipped()]  # a contract is named as the first shipped tariff names it
    named = {key: render.contract_name(t, key) for t in reversed(tariffs) for key in t.contracts}
    kinds = Table(title=_("contracts declared (made)"), title_justify="left")
    kinds.add_column(_("player"))
    kinds.add_column(_("contracts"))
    for name, e in data["players"].items():
        kinds.add_row(name, ", ".join(f"{named.get(k, k)} {v['declared']} ({v['made']})"
                                      for k, v in e["declared"].items()))
    out.print(kinds)
    for label in ("best_partnership", "worst_partnership"):
        p = data[label]
        if p:
            values = dict(names=_(" & ").join(p["players"]), made=p["made"], deals=p["deals"], rate=p["success_rate"])
            out.print(_("most successful partnership: {names}, {made} of {deals} made ({rate:.0%})", **values)
                      if label.startswith("best") else
                      _("least successful partnership: {names}, {made} of {deals} made ({rate:.0%})", **values))


@app.command()
def chart(
    svg: Annotated[Optional[Path], typer.Option("--svg", metavar="FILE",
                                                help="Write the chart as an SVG picture instead.")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Each player's running balance over the deals of the current session.

    Example: boston-ledger chart --svg evening.svg
    """
    from . import chart as pictures

    conn = connect(db)
    session = ledger.current(conn)
    walked = ledger.walk(session, storage.deals(conn, session))
    start = [0] * len(session.players)
    series = [[start[i]] + [w.sheet[i] for w in walked] for i in range(len(session.players))]
    if as_json:
        emit_json(dict(zip(session.players, series)))
        return
    if svg is None:
        out = console()
        for line in pictures.terminal(session.players, series, width=max(10, out.width - 40)):
            out.print(line)
        return
    title = _("Session {id}", id=session.id) + (f" “{session.name}”" if session.name else "") + f": {session.tariff.name}"
    try:
        svg.write_text(pictures.svg(title, session.players, series), encoding="utf-8")
    except OSError as e:
        raise LedgerError(_("cannot write {path}: {error}", path=svg, error=strerror(e))) from None
    console().print(_("wrote {path}", path=svg))


@app.command("ledger")
def group_ledger(db: DbOption = None, as_json: JsonOption = False) -> None:
    """What each person owes or is owed over all settled sessions, less payments, and the fewest payments.

    Example: boston-ledger ledger
    """
    from .settlement import fewest_payments, money

    conn = connect(db)
    data = {}
    for code, book in ledger.group_ledger(conn).items():
        names = sorted(book, key=str.casefold)
        cents = [book[n] for n in names]
        data[code] = {
            "balances": {n: money(c) for n, c in zip(names, cents)},
            "payments": [{"from": names[p.payer], "to": names[p.payee], "amount": money(p.cents)}
                         for p in fewest_payments(cents)],
        }
    if as_json:
        emit_json(data)
        return
    out = console()
    if not data:
        out.print(_("No settled session yet: nobody owes anybody anything."))
    for code, book in data.items():
        out.print((_("In {currency}", currency=code) if code else _("Money")) + ": "
                  + ", ".join(f"{n} {m}" for n, m in book["balances"].items()))
        for p in book["payments"] or [{"from": None}]:
            out.print("  " + (_("all square") if p["from"] is None else
                              _("{payer} pays {payee} {amount}", payer=p["from"], payee=p["to"],
                                amount=p["amount"] + (" " + code if code else ""))))


@app.command()
def paid(
    payer: Annotated[str, typer.Argument(metavar="FROM", help="The one who pays.")],
    payee: Annotated[str, typer.Argument(metavar="TO", help="The one who is paid.")],
    amount: Annotated[str, typer.Argument(metavar="AMOUNT", help="The money paid, e.g. 4.00.")],
    currency: Annotated[Optional[str], typer.Option(
        "--currency", help="The currency of the sessions it pays off \\[default: the only one they use].")] = None,
    db: DbOption = None,
) -> None:
    """Record money paid from one person to another; the ledger nets it out.

    Example: boston-ledger paid Vera Anna 4.00
    """
    from .settlement import money

    conn = connect(db)
    code = None if currency is None else ledger.currency(currency) if currency.strip() else ""
    who, whom, cents, code = ledger.pay(conn, payer, payee, amount, code)
    console().print(_("Recorded: {payer} paid {payee} {amount}.", payer=who, payee=whom,
                        amount=money(cents) + (" " + code if code else "")))


@app.command()
def rescore(
    session_id: Annotated[str, typer.Argument(metavar="ID", help="The recorded session to replay.")],
    tariff: Annotated[Optional[str], typer.Option("--tariff", metavar="NAME|PATH",
                                                  help="The tariff to replay it under \\[default: the session's own, "
                                                       "with its conditions].")] = None,
    condition: Annotated[Optional[list[str]], typer.Option("--condition", metavar="NAME",
                                                           help="A condition of play (repeatable).")] = None,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Replay a recorded session under another tariff or conditions and show the difference; nothing is changed.

    Example: boston-ledger rescore 1 --tariff fontainebleau
    """
    from .tariff import load, with_conditions

    conn = connect(db)
    n = whole(session_id, "ID", 1, 10**9)
    assert n is not None
    if tariff is None:
        if not condition:
            raise LedgerError(_("say what to replay it under: --tariff NAME and/or --condition NAME"))
        t = with_conditions(storage.load_session(conn, n).tariff, condition)
    else:
        t = load(tariff, condition or ())
    session, recorded, rescored = ledger.rescore(conn, n, t)
    rows = {name: {"recorded": a, "rescored": b, "difference": b - a}
            for name, a, b in zip(session.players, recorded.balances, rescored.balances)}
    if as_json:
        emit_json({"session": session.id, "tariff": t.name, "players": rows,
                   "basket": {"recorded": recorded.basket, "rescored": rescored.basket}})
        return
    from rich.table import Table

    from . import render

    table = Table(title=_("Session {id} under {tariff}", id=session.id, tariff=t.name)
                  + (_(" with {conditions}", conditions=", ".join(t.applied)) if t.applied else "")
                  + _(" instead of {tariff}", tariff=session.tariff.name), title_justify="left")
    for col in ("", _("recorded"), _("rescored"), _("difference")):
        table.add_column(col, justify="right" if col else "left")
    for name, r in rows.items():
        table.add_row(name, render.balance(r["recorded"]), render.balance(r["rescored"]), render.signed(r["difference"]))
    table.add_row(render.basket_word(), str(recorded.basket), str(rescored.basket), render.signed(rescored.basket - recorded.basket))
    console().print(table)


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
        out.print(_("wrote {path}", path=path))


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
def tariffs_list(as_json: JsonOption = False) -> None:
    """Every shipped tariff, one line each.

    Example: boston-ledger tariffs list
    """
    from .tariff import load, shipped

    if as_json:
        emit_json([{"name": name, "title": load(name).title, "source": load(name).source,
                    "conditions": list(load(name).conditions)} for name in shipped()])
        return
    for name in shipped():
        t = load(name)
        conditions = "\t" + _("conditions: {names}", names=", ".join(t.conditions)) if t.conditions else ""
        typer.echo(f"{name}\t{_(t.title)}\t" + _("source: {source}", source=t.source) + conditions)


@tariffs_app.command("show")
def tariffs_show(
    name: Annotated[str, typer.Argument(metavar="NAME|PATH", help="A shipped tariff or a file.")],
    condition: Annotated[Optional[list[str]], typer.Option("--condition", metavar="NAME",
                                                           help="Show it with this condition on (repeatable).")] = None,
    as_json: JsonOption = False,
) -> None:
    """The tariff's tables laid out like the seed's, and the conditions it supports.

    Example: boston-ledger tariffs show classic --condition philadelphia
    """
    from . import render
    from .tariff import load

    if as_json:
        emit_json(render.tariff_data(load(name, condition or ())))
        return
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
            print(_("{prog}: error: {message}", prog=PROG, message=" ".join(problem.split())), file=sys.stderr)
        sys.exit(2)
    assert tariff is not None
    print(_("ok: {path} is a valid tariff: {name}, {contracts} contracts, {conditions} conditions", path=path,
            name=tariff.name, contracts=len(tariff.contracts), conditions=len(tariff.conditions)))


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
    print(_("wrote {path}: edit it, check it with `{prog} tariffs check {path}`, use it with "
            "`{prog} new ... --tariff {path}`", path=path, prog=PROG))
