"""Where boston-ledger reaches into typer and its bundled click (cli/patches.py, and the Russian
of click's usage errors in cli/guard.py): each test fails when typer changes under a patch."""

from __future__ import annotations

import inspect

import pytest
import typer
import typer.main
from typer import rich_utils

from boston_ledger.cli import patches
from boston_ledger.cli.declarations import app
from boston_ledger.cli.guard import USAGE_ERRORS, usage_message
from boston_ledger.core import i18n


def test_typer_keeps_its_help_words_where_patch_1_sets_them() -> None:
    import importlib

    fresh = importlib.reload(rich_utils)  # typer's own values, before any patch
    english = {name: getattr(fresh, name) for name in patches.HELP_WORDS}
    assert english == patches.HELP_WORDS


def test_click_reads_help_and_metavars_where_patch_2_writes_them() -> None:
    group = typer.main.get_command(app)
    deal = group.commands["deal"]
    assert isinstance(deal.help, str) and deal.options_metavar == "[OPTIONS]"
    assert hasattr(group, "subcommand_metavar")
    option = next(p for p in deal.params if p.name == "declarer")
    assert isinstance(option.help, str) and hasattr(option, "metavar")
    try:
        i18n.set_language("ru")
        patches.speak_help(group)
        assert deal.help.startswith("Записать одну сдачу") and option.help == "Кто купил игру (играющий)."
        assert deal.options_metavar == "[ПАРАМЕТРЫ]"
    finally:
        i18n.set_language("en")
        patches.speak_help(group)


def test_typer_words_its_completion_options_as_the_catalogue_has_them() -> None:
    group = typer.main.get_command(app)
    helps = {p.name: p.help for p in group.params}
    assert (helps["install_completion"], helps["show_completion"]) == patches.TYPER_HELP


def test_click_has_the_usage_line_and_help_option_patch_3_wraps() -> None:
    from typer._click.core import Command
    from typer._click.formatting import HelpFormatter

    assert list(inspect.signature(HelpFormatter.write_usage).parameters) == ["self", "prog", "args", "prefix"]
    assert list(inspect.signature(Command.get_help_option).parameters) == ["self", "ctx"]
    assert getattr(HelpFormatter.write_usage, "_boston_ledger", False)  # declarations applied it


@pytest.mark.parametrize("args, pattern", [
    (["deal", "--bogus"], 0), (["new", "--tariff"], 3), (["frobnicate"], 6), (["use"], 2),
    (["status", "--json=yes"], 4), (["undo", "extra"], 5), (["history", "--last"], 3),
])
def test_click_words_its_usage_errors_as_the_guard_expects(args, pattern) -> None:
    """The guard turns click's English usage errors into Russian by matching their words."""
    import re

    from typer.testing import CliRunner

    russian = CliRunner().invoke(app, ["--lang", "ru", *args])
    english = CliRunner().invoke(app, ["--lang", "en", *args])
    assert russian.exit_code == english.exit_code == 2
    said = re.fullmatch(r"boston-ledger: error: (.*) \(see `[^`]*`\)\n", english.stderr)
    assert said, english.stderr
    message = said.group(1)  # click's own words, as the guard received them (less a final stop)
    assert re.fullmatch(USAGE_ERRORS[pattern][0], message), message
    i18n.set_language("ru")
    try:
        assert usage_message(message) != message  # a pattern matched: it is said in Russian
        assert russian.stderr.startswith("boston-ledger: ошибка: " + usage_message(message).split()[0])
    finally:
        i18n.set_language("en")


def test_typer_draws_types_and_usage_names_where_patch_4_replaces_them() -> None:
    """typer.core still defines the three methods patch 4 replaces, with the same parameters."""
    import typer.core

    source = inspect.getsource(typer.core)
    assert "def _usage_display_name(self) -> str:" in source
    assert source.count("def display_type_rich(self, ctx: _click.Context) -> str | None:") == 2
    assert getattr(typer.core.TyperArgument._usage_display_name, "_boston_ledger", False)  # applied
    group = typer.main.get_command(app)
    players = next(p for p in group.commands["new"].params if p.name == "players")
    assert players.get_usage_pieces(None) == ["PLAYERS..."] and players.display_type_rich(None) is None
    flag = next(p for p in group.commands["status"].params if p.name == "as_json")
    assert flag.display_type_rich(None) is None
