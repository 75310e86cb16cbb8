"""Where boston-ledger reaches into typer and its bundled click beyond their public API: help in
Russian. Each patch says what it changes and why no public hook does it; `tests/test_patches.py`
fails when typer changes under one of them."""

from __future__ import annotations

from typing import Any

from ..core.i18n import N_, NP_, _, pgettext, translated

HELP_WORDS = {  # typer's own words in a help page, by the name typer keeps them under
    "ARGUMENTS_PANEL_TITLE": N_("Arguments"), "OPTIONS_PANEL_TITLE": N_("Options"),
    "COMMANDS_PANEL_TITLE": N_("Commands"), "DEFAULT_STRING": N_("[default: {}]"),
    "REQUIRED_LONG_STRING": N_("[required]"),
}
# The help of the options typer adds itself (--install-completion, --show-completion), as typer
# words it: the catalogue translates them like our own.
TYPER_HELP = (N_("Install completion for the current shell."),
              N_("Show completion for the current shell, to copy it or customize the installation."))
# The placeholders of help pages and usage lines (metavars), translated in the context "metavar"
METAVARS = (NP_("metavar", "[OPTIONS]"), NP_("metavar", "COMMAND [ARGS]..."), NP_("metavar", "NAME"),
            NP_("metavar", "PATH"), NP_("metavar", "NAME|PATH"), NP_("metavar", "TEXT"),
            NP_("metavar", "DATE"), NP_("metavar", "FILE"), NP_("metavar", "DIR"), NP_("metavar", "RANK"),
            NP_("metavar", "SUIT"),
            NP_("metavar", "ID"), NP_("metavar", "FROM"), NP_("metavar", "TO"), NP_("metavar", "AMOUNT"),
            NP_("metavar", "CONTRACT"), NP_("metavar", "PLAYERS"), NP_("metavar", "N"),
            NP_("metavar", "CODE"), NP_("metavar", "ADDRESS"), NP_("metavar", "N,N,N,N"),
            NP_("metavar", "OUT"), NP_("metavar", "IN"), NP_("metavar", "OTHER.db"), NP_("metavar", "THERE=HERE"))

_spoken = False  # whether typer's words were last set to another language than English


def speak_help(group: Any) -> None:
    """Help in the current language: the commands' and options' texts, and typer's own words.

    Patch 1: typer's help panels take their words from constants of `typer.rich_utils`
    (ARGUMENTS_PANEL_TITLE, ...), read when a help page is drawn; typer has no setting for
    them, so they are set here. Patch 2: the help of each command and option is replaced by
    its translation in place (`help`, `metavar`, `options_metavar`): click reads them when it
    draws a page, and typer offers no translation hook.
    """
    global _spoken
    if not translated() and not _spoken:  # typer's words and ours are English already
        return
    from typer import rich_utils

    for name, english in HELP_WORDS.items():
        setattr(rich_utils, name, _(english))
    _spoken = translated()

    def walk(command: Any) -> None:  # each text translated from its English, kept at the first walk
        english = command.__dict__.setdefault("_boston_ledger_english", (
            command.help, command.options_metavar, getattr(command, "subcommand_metavar", None)))
        command.help = english[0] and _(english[0])
        command.options_metavar = pgettext("metavar", "[OPTIONS]") if _spoken else english[1]
        if hasattr(command, "subcommand_metavar"):
            command.subcommand_metavar = pgettext("metavar", "COMMAND [ARGS]...") if _spoken else english[2]
        for p in command.params:
            help_text, metavar = p.__dict__.setdefault("_boston_ledger_english", (getattr(p, "help", None), p.metavar))
            if help_text:
                p.help = _(help_text)
            if p.param_type_name == "argument" or metavar:
                p.metavar = pgettext("metavar", metavar or p.name.upper())
        for sub in getattr(command, "commands", {}).values():
            walk(sub)

    walk(group)


def usage_prefix() -> None:
    """Patch 3: click begins a usage line with 'Usage: ' and words the help option 'Show this
    message and exit.' in English, inside `HelpFormatter.write_usage` and
    `Command.get_help_option`, with no parameter to change either; in Russian, «Вызов: » and
    the catalogue's words."""
    from typer._click.core import Command  # typer carries its own click since 0.29 (pyproject: typer>=0.29)
    from typer._click.formatting import HelpFormatter

    if getattr(HelpFormatter.write_usage, "_boston_ledger", False):
        return
    write_usage = HelpFormatter.write_usage
    help_option = Command.get_help_option

    def usage(self: Any, prog: str, args: str = "", prefix: str | None = None) -> None:
        write_usage(self, prog, args, _("Usage: ") if prefix is None else prefix)

    def help_of(self: Any, ctx: Any) -> Any:
        option = help_option(self, ctx)
        if option is not None:
            option.help = _("Show this message and exit.")
        return option

    # the ignores below: a mark on a function, and methods replaced on click's classes, are what a
    # patch is; the type checker rightly knows neither
    usage._boston_ledger = True  # type: ignore[attr-defined]  # marks the patch as made
    HelpFormatter.write_usage = usage  # type: ignore[method-assign]  # patch 3: no hook for the prefix
    Command.get_help_option = help_of  # type: ignore[method-assign]  # patch 3: no hook for its help


def real_metavars() -> None:
    """Patch 4: typer 0.29 writes a type in angle brackets beside each parameter of a help page
    (`<bool>` after a flag, `<str>` and `<list[str]>` after an argument, even one with a
    metavar) and a required argument in braces on the usage line (`{players}...`), through
    `TyperOption.display_type_rich`, `TyperArgument.display_type_rich` and
    `TyperArgument._usage_display_name`, with no setting for either. Here a help page shows
    what click and most programs show: an option's metavar (nothing after a flag), an
    argument by its metavar alone, and on the usage line `PLAYERS...`, an optional one as
    `[FROM]`. Every option that takes a value declares its metavar (tests/test_patches.py)."""
    from typer.core import TyperArgument, TyperOption

    if getattr(TyperArgument._usage_display_name, "_boston_ledger", False):
        return

    def usage_name(self: Any) -> str:
        name = self.metavar or self.name.upper()
        name = name if self.required else f"[{name}]"
        return name + ("..." if self.nargs != 1 else "")

    def option_type(self: Any, ctx: Any) -> str | None:
        return None if self.is_flag else self.metavar or self.name.upper()

    # the ignores below: as in usage_prefix, a mark on a function and methods replaced on typer's classes
    usage_name._boston_ledger = True  # type: ignore[attr-defined]  # marks the patch as made
    TyperArgument._usage_display_name = usage_name  # type: ignore[method-assign]  # patch 4: no setting
    TyperArgument.display_type_rich = lambda self, ctx: None  # type: ignore[method-assign]  # patch 4
    TyperOption.display_type_rich = option_type  # type: ignore[method-assign]  # patch 4
