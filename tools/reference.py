"""The command reference of the README (English) and of docs/commands.ru.md (Russian), written
from the real command tree: typer's commands, their arguments and options, and their help in
each language, as `--help` shows them.

    python tools/reference.py          # rewrite both between their markers
    python tools/reference.py --check  # exit 1, naming the commands that differ, when either drifted

`tests/test_docs.py` fails the same way, so a command, argument, option or help text changed
without this script run shows up in the test run, not in a user's reading.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from boston_ledger.cli.declarations import app
from boston_ledger.cli.patches import speak_help
from boston_ledger.core import i18n

ROOT = Path(__file__).resolve().parent.parent

BEGIN = "<!-- commands: made by tools/reference.py from the commands' help; edit the help, not this -->"
END = "<!-- end of commands -->"
DOCS = {"en": ROOT / "README.md", "ru": ROOT / "docs" / "commands.ru.md"}
# the options nearly every command has, said once below the table rather than in each row
COMMON = ("--db", "--session", "--help")


def tree() -> Any:
    import typer.main

    return typer.main.get_command(app)


def commands(group: Any, prefix: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """Every command of the tree, by its words, in the order they are declared (a group's own
    options first, as the group itself)."""
    found = [(prefix, group)]
    for name, command in group.commands.items():
        if hasattr(command, "commands"):
            found += commands(command, (*prefix, name))
        else:
            found.append(((*prefix, name), command))
    return found


def plain(text: str | None) -> str:
    """Help text as --help shows it, on one line, fit for a cell of a Markdown table."""
    text = " ".join((text or "").replace("\\[", "[").split())
    return text.replace("|", "\\|")


def summary(command: Any) -> str:
    """The first paragraph of a command's help (the rest is its example)."""
    return plain((command.help or "").split("\n\n")[0])


def usage(path: tuple[str, ...], command: Any) -> str:
    """`deal [CONTRACT] [--declarer NAME] ...`: every argument and option but the common ones."""
    words = ["boston-ledger", *path]
    for param in command.params:
        if param.param_type_name == "argument":
            name = param.metavar or param.name.upper()
            name += "..." if param.nargs != 1 else ""
            words.append(name if param.required else f"[{name}]")
        elif not set(param.opts) & set(COMMON):
            option = "/".join(param.opts)
            if not param.is_flag:
                option += " " + (param.metavar or param.name.upper())
            words.append(option if param.required else f"[{option}]")
    return "`" + " ".join(words).replace("|", "\\|") + "`"


def options_of(command: Any) -> dict[str, str]:
    """A command's options, with their help (the common ones too)."""
    return {"/".join(p.opts): plain(p.help) for p in command.params if p.param_type_name == "option"}


def table(lang: str) -> str:
    """The reference in `lang`: a row per command, then the common options and their help."""
    i18n.set_language(lang)
    group = tree()
    speak_help(group)
    try:
        heads = {"en": ("command", "what it does"), "ru": ("команда", "что она делает")}[lang]
        rows = [f"| {heads[0]} | {heads[1]} |", "| --- | --- |"]
        common: dict[str, str] = {}
        without: dict[str, list[str]] = {name: [] for name in COMMON[:2]}
        for path, command in commands(group):
            rows.append(f"| {usage(path, command)} | {summary(command)} |")
            options = options_of(command)
            for name in COMMON[:2]:
                if name in options:
                    common.setdefault(name, options[name])
                elif path and not hasattr(command, "commands"):
                    without[name].append(" ".join(path))
        every = [" ".join(path) for path, command in commands(group) if path and not hasattr(command, "commands")]
        notes = {"en": ("Every command but {commands} also takes", "The commands {commands} also take"),
                 "ru": ("Все команды, кроме {commands}, принимают и", "Команды {commands} принимают и")}
        lines = []
        for name, help_text in common.items():
            metavar = next(p.metavar for p in group.params if name in p.opts)
            taking = [c for c in every if c not in without[name]]
            but = len(without[name]) <= len(taking)  # the shorter list
            listed = ", ".join(f"`{c}`" for c in (without[name] if but else taking))
            lines.append(f"{notes[lang][0 if but else 1].format(commands=listed)} `{name} {metavar}`: {help_text}")
        return "\n".join(rows) + "\n\n" + "\n\n".join(lines) + "\n"
    finally:
        i18n.set_language("en")
        speak_help(tree())


def rewritten(text: str, block: str, where: Path) -> str:
    """`text` with what lies between the markers replaced by `block`."""
    if BEGIN not in text or END not in text:
        raise SystemExit(f"{where}: no markers {BEGIN!r} ... {END!r}")
    head, rest = text.split(BEGIN, 1)
    __, tail = rest.split(END, 1)
    return f"{head}{BEGIN}\n{block}{END}{tail}"


def drift(lang: str) -> list[str]:
    """The rows (commands) and notes that differ between the document and the command tree."""
    path = DOCS[lang]
    text = path.read_text(encoding="utf-8")
    written = text.split(BEGIN, 1)[1].split(END, 1)[0] if BEGIN in text and END in text else ""
    made = table(lang)
    old, new = written.strip("\n").splitlines(), made.strip("\n").splitlines()
    return [line for line in new if line not in old] + [line for line in old if line not in new]


def named(lines: list[str]) -> list[str]:
    """The commands whose rows are among `lines` (`deal`, `tariffs show`; the program's own options
    as `boston-ledger`), and the common options whose notes are."""
    found = []
    for line in lines:
        if line.startswith("| `boston-ledger"):
            words = line.split("`")[1].split()[1:]
            path = []
            for word in words:
                if not word.isalpha() or not word.islower():
                    break
                path.append(word)
            found.append(" ".join(path) or "boston-ledger")
        elif "`--" in line:
            found.append(line.split("`--")[-1].split()[0].join(["--", ""]))
    return sorted(set(found))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether the documents are up to date")
    args = parser.parse_args()
    status = 0
    for lang, path in DOCS.items():
        if args.check:
            differ = drift(lang)
            if differ:
                status = 1
                print(f"{path.relative_to(ROOT)} differs from the help of {', '.join(named(differ))}:", *differ,
                      sep="\n  ")
            continue
        text = path.read_text(encoding="utf-8")
        new = rewritten(text, table(lang), path)
        if new != text:
            path.write_text(new, encoding="utf-8")
            print(f"{path.relative_to(ROOT)}: rewritten")
    return status


if __name__ == "__main__":
    sys.exit(main())
