"""Help and docs that never drift: every --help has an example, every reading command speaks
JSON, and the README's command examples run."""

from __future__ import annotations

import json
import re
import shlex
import sys
from pathlib import Path

import pytest
import typer.main

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))

from boston_ledger.cli.declarations import app

README = Path(__file__).resolve().parent.parent / "README.md"


def commands(group=None, prefix=()):
    group = group or typer.main.get_command(app)
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            yield from commands(command, (*prefix, name))
        else:
            yield (*prefix, name)


@pytest.mark.parametrize("path", list(commands()), ids=" ".join)
def test_every_help_has_an_example(cli, path) -> None:
    out = cli(*path, "--help").stdout
    assert f"Example: boston-ledger {' '.join(path)}" in " ".join(out.split())


# The commands without --json, each with why: it writes (the ledger, files), or its output is for
# people and its JSON is another command's. Any other command only reads, and speaks JSON.
NO_JSON = {
    ("new",): "writes", ("deal",): "writes", ("edit",): "writes", ("undo",): "writes", ("reopen",): "writes",
    ("seat",): "writes",
    ("use",): "writes", ("paid",): "writes", ("demo",): "writes", ("export",): "writes files",
    ("extend",): "writes",
    ("tariffs", "new"): "writes a file", ("sheet",): "for people: status --json and history --json",
    ("tariffs", "check"): "for people: its exit status is the answer", ("serve",): "serves status and history's JSON",
}
ARGUMENTS = {("rescore",): [["1", "--tariff", "fontainebleau"]], ("tariffs", "show"): [["classic"]],
             ("history",): [[], ["--corrections"]], ("import",): [["--list"]]}


def options(path: tuple[str, ...]) -> set[str]:
    command = typer.main.get_command(app)
    for name in path:
        command = command.commands[name]
    return {opt for param in command.params for opt in param.opts}


@pytest.mark.parametrize("path", list(commands()), ids=" ".join)
def test_every_reading_command_speaks_json(table, isolated: Path, made, path) -> None:
    """Every command of the tree: with --json its answer is JSON, and says what it is about (a
    settled evening of four with a payment: the players; a tariff: its name), or it is one of
    NO_JSON, with the reason."""
    if "--json" not in options(path):
        assert path in NO_JSON, f"`{' '.join(path)}` has no --json: a command that only reads speaks JSON"
        return
    assert path not in NO_JSON, f"`{' '.join(path)}` speaks JSON now: take it out of NO_JSON"
    isolated.write_bytes(made(("deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5",
                               "--partner-tricks", "4"), ("settle", "--yes"),
                              ("paid", "Boris", "Anna", "0.10", "--yes")))  # made once for the run
    for arguments in ARGUMENTS.get(path, [[]]):
        out = table(*path, *arguments, "--json").stdout
        data = json.loads(out)
        if path == ("check",):
            assert data == []  # every invariant holds
        elif "--corrections" in arguments:
            assert data == []  # nothing was corrected
        elif path == ("import",):
            assert data == []  # nothing was imported (what an import does: tests/test_import.py)
        else:
            assert ("classic" if path[0] == "tariffs" else "Boris") in out, (path, arguments)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_command_reference_is_the_commands_help(lang: str) -> None:
    """README.md (English) and docs/commands.ru.md (Russian) list every command with its arguments
    and options and the first words of its help, as tools/reference.py writes them from the tree."""
    import reference

    differ = reference.drift(lang)
    document = reference.DOCS[lang].relative_to(reference.ROOT)
    assert not differ, (f"{document} no longer says what the help of {', '.join(reference.named(differ))} says: "
                        f"run python tools/reference.py (the changed lines: {differ})")


def test_the_readme_examples_run(cli, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    lines = [line.strip() for line in README.read_text(encoding="utf-8").splitlines()
             if line.startswith("    boston-ledger ")]
    assert len(lines) >= 8
    for line in lines:
        cli(*shlex.split(line)[1:])


@pytest.mark.parametrize("guide", sorted(p.name for p in (README.parent / "docs").glob("guide.*.md")))
def test_the_guides_run_from_first_session_to_settlement(cli, tmp_path: Path, monkeypatch, guide) -> None:
    monkeypatch.chdir(tmp_path)
    text = (README.parent / "docs" / guide).read_text(encoding="utf-8")
    commands = [shlex.split(line.strip())[1:] for line in text.splitlines()
                if line.strip().startswith("boston-ledger ")]
    inline = re.findall(r"`(boston-ledger (?:undo|edit|export|ledger|paid)[^`]*)`", text)
    commands += [shlex.split(m)[1:] for m in inline]
    order = {"new": 0, "tariffs": 1, "deal": 2, "undo": 3, "edit": 4, "seat": 4, "status": 5, "history": 5, "chart": 5,
             "settle": 6, "export": 7, "ledger": 8, "paid": 9}
    commands.sort(key=lambda c: order[c[0]])
    assert [c[0] for c in commands][:1] == ["new"] and "settle" in [c[0] for c in commands]
    lang = ["--lang", "ru"] if guide.endswith(".ru.md") else []  # the Russian guide, in Russian
    for command in commands:
        if command[0] == "undo":
            cli("deal", "pass")  # something to take back
        cli(*lang, *command)


def test_defaults_in_help_are_shown_not_taken_for_markup(cli) -> None:
    assert "[default: from the locale]" in " ".join(cli("--help").stdout.split())
    assert "[default: $BOSTON_LEDGER_DB" in " ".join(cli("status", "--help").stdout.split())
    assert "[default: junior]" in " ".join(cli("deal", "--help").stdout.split())


def test_the_development_notes_name_every_key_a_tariff_may_hold() -> None:
    """The tariff keys (the fields of core/tariff.py's records, and the few that are not) are named
    in docs/development.md, with the bounds of what a file may hold."""
    from boston_ledger.core.tariff_files import MOST_BYTES
    from boston_ledger.core.tariff_reader import KEYS, LONGEST, MOST_WORDS, WORD

    text = (README.parent / "docs" / "development.md").read_text(encoding="utf-8")
    section = text[text.index("## Tariff files"):text.index("## Speed")]
    named = set(re.findall(r"[a-z_]+", section))
    assert sorted({key for keys in KEYS.values() for key in keys} - named) == []
    said = set(re.findall(r"\d[\d,]*", section))
    for bound in (MOST_BYTES, WORD, MOST_WORDS, *LONGEST.values()):
        assert f"{bound:,}" in said, bound
