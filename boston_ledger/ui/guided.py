"""Guided entry at a terminal: the questions of `app.entry` asked one by one, a wrong answer
asked again with the reason (a "did you mean" taken by a yes or Enter), `<` back one question,
and at the end the deal shown with the offer to record it or to change one answer. Nothing typed
is thrown away but by a word that says so ("cancel", «отмена») or Ctrl-C. Without a terminal
nothing is ever asked."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from ..app import entry as flow
from ..core.controls import visible
from ..core.engine import Deal
from ..core.errors import LedgerError
from ..core.i18n import _
from ..store.records import Session
from .text import lines_at, message, say

Answer = TypeVar("Answer")  # what a question's answer parses to


def interactive() -> bool:
    """A person at a terminal (BOSTON_LEDGER_GUIDED=1 forces it, for scripts that feed answers)."""
    forced = os.environ.get("BOSTON_LEDGER_GUIDED")
    if forced is not None:
        return forced == "1"
    return sys.stdin.isatty() and sys.stdout.isatty()


def prompt(text: str) -> str:
    """The line typed after `text` (on a terminal, a question wider than it is broken between words,
    the answer typed after its last line); the end of the input ends the dialogue, nothing
    recorded, and Ctrl-C says so as `cancel` does (every question is asked before anything is
    written) and goes on to the exit of an interrupted command (130)."""
    if sys.stdin.isatty():
        import readline  # noqa: F401  (line editing and history for input())
    *before, last = lines_at(visible(text), sys.stdout)
    for line in before:
        say(line)
    try:
        return input(last + (" " if text.endswith(" ") and not last.endswith(" ") else "")).strip()
    except EOFError:
        say()
        raise LedgerError(_("the answers ended before the dialogue did; nothing was recorded")) from None
    except KeyboardInterrupt:  # the shell's prompt then starts a line of its own
        say()
        say(_("Nothing recorded."))
        raise


def tell(text: str) -> None:
    """A line for the person at the terminal about an answer (stderr, indented)."""
    message(f"  {text}", err=True)


def ask(question: str, parse: Callable[[str], Answer], default: str | None = None) -> Answer:
    """Ask until the answer parses; an empty answer takes the default (shown in brackets)."""
    while True:
        said = question + (f" [{default}]" if default else "")
        answer = prompt(said + ("" if said.endswith(("?", ":")) else ":") + " ") or (default or "")
        try:
            return parse(answer)
        except LedgerError as e:
            tell(str(e))


def confirm(question: str, default: bool = True) -> bool:
    """Yes or no (Enter: `default`); y/yes/n/no, and in Russian д/да/н/нет too."""
    def parse(answer: str) -> bool:
        if not answer.strip():
            return default
        said = flow.reply(answer, 0)
        if said in ("yes", "no"):
            return said == "yes"
        raise LedgerError(_("answer y or n"))

    return ask(question + " " + (_("[Y/n]") if default else _("[y/N]")), parse)


def line(question: flow.Question) -> str:
    """A question as the terminal asks it: its choices in words, Enter's meaning, the default (a
    "did you mean" proposal first)."""
    text = question.text
    if question.kind == "word":
        text += " (" + ", ".join(c.label for c in question.choices) + ")"
    if question.suggestion is not None:
        text += f" [{question.suggestion}]"
    elif question.kind == "yes-no" and question.default in ("yes", "no"):  # as every yes-or-no question says it
        text += " " + (_("[Y/n]") if question.default == "yes" else _("[y/N]"))
    elif question.default is not None:
        text += f" [{question.default_label}]"
    elif question.nobody:
        text += _(" (Enter for {nobody})", nobody=question.nobody)
    return text + (" " if question.text.endswith("?") else ": ")


def menu(question: flow.Question) -> list[str]:
    """The numbered players of a question about a player: '1) Anna', '2) Boris', ... (shown two
    spaces apart, '1) Anna  2) Boris  3) Vera  4) Gleb')."""
    return [f"{c.number}) {c.label}" for c in question.choices]


def deal(session: Session, answers: Mapping[str, str], preview: Callable[[Deal], Any],
         unchanged: Deal | None = None, question: str | None = None, typed: Sequence[str] = ()) -> Deal | None:
    """Ask until the deal is complete and confirmed: the deal, or None when the player records
    nothing. `preview` shows a complete deal before the confirmation, `question` (default "Record
    this deal?") asks it; `unchanged` (an edit) is the deal as recorded, which is not offered to
    be recorded again. An answer of the fields `typed` on the command line that the deal does not
    take is never dropped silently: why (the engine's refusal) is said before the deal is shown
    and the confirmation asked, and the answer stays, taken if a changed answer makes the deal ask it."""
    from ..app.inputs import option
    from .text import console

    out = console()
    given: dict[str, str] = dict(answers)
    defaults: dict[str, str] = {}
    while True:
        found = flow.step(session, given, defaults)
        if isinstance(found, flow.Question):
            if found.error:
                tell(found.error)
            if found.kind == "player":
                message(menu(found), between="  ", indent="")
            text = prompt(line(found))
            if flow.is_cancel(text):
                return None
            if found.suggestion is not None:  # "did you mean X?"
                said = flow.reply(text, 0)
                if said == "no":
                    given.pop(found.field, None)
                    continue
                if said == "yes":
                    text = found.suggestion
            if flow.is_back(text):
                moved = flow.back(session, given, found.field)
                if moved is None:
                    tell(_("this is the first question; there is nothing to go back to"))
                    continue
                given, earlier = moved
                defaults.update(earlier)
                continue
            given[found.field] = text
            continue
        for refused in flow.left_out(session, given, typed):
            tell(_("{problem}; {option} is left out", problem=refused, option=option(str(refused.field))))
        try:
            shown = preview(found.deal)
        except LedgerError as e:  # what only the deals before it decide (a petite when the belle turned again)
            if e.field is None or e.field not in given:
                raise
            tell(str(e))
            given, earlier = flow.change(session, given, e.field)
            defaults.update(earlier)
            continue
        out.print(shown)
        said = _confirmation(found.items, unchanged is not None and found.deal == unchanged,
                             question or _("Record this deal?"))
        if said is None:
            return None
        if said == "yes":
            return found.deal
        if said == "back":
            moved = flow.back(session, given, None)
            if moved is not None:
                given, earlier = moved
                defaults.update(earlier)
            continue
        assert isinstance(said, int)
        given, earlier = flow.change(session, given, found.items[said - 1].field)
        defaults.update(earlier)


def _confirmation(items: tuple[flow.Item, ...], same: bool, question: str) -> str | int | None:
    """"yes" (record it), "back", the number of the answer to change, or None (record nothing:
    "cancel" said). Asked `question` first, unless it is the deal as recorded (`same`); "no" lists
    the answers by number, and with one answer only goes straight to it; Enter there goes back to
    the question."""
    count = len(items)
    listing = same
    while True:
        if not listing:
            said = flow.reply(prompt(question + " " + _("[Y/n]") + ": "), count)
            if said == "no":
                listing = True
            elif said == "cancel":
                return None
            elif said is None:
                tell(_("answer y or n, or the number of an answer to change (1 to {count})", count=count))
            else:
                return said
            continue
        if count == 1 and not same:
            return 1
        for i, item in enumerate(items, 1):
            message(f"  {i}) {item.label}: {item.value}", indent="   ")
        words = _("Change which answer? 1 to {count}; Enter leaves the deal as it is", count=count) if same else \
            _("Change which answer? 1 to {count}; Enter goes back, cancel records nothing", count=count)
        text = prompt(words + ": ")
        said = flow.reply(text, count) if text else None
        if (not text and same) or said == "cancel":
            return None
        if not text:
            listing = False
            continue
        if isinstance(said, int) or said == "back":
            return said
        tell(_("choose 1 to {count}, or press Enter", count=count))
