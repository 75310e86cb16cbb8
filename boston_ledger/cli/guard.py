"""The error guard: every failure a user can cause ends as one line on stderr and exit status 2;
a bug of ours as one line and exit status 1. On a terminal the line is broken to its width between
words (ui.text.message), never inside one; anywhere else it stays one line, for the programs that
read it. Nothing is half-written: each command is one
transaction, rolled back on any error. Once a command has committed, a reader that went away
(`boston-ledger deal pass | true`) no longer makes it fail: what was recorded stays recorded."""

from __future__ import annotations

import contextlib
import os
import re
import sqlite3
import sys
from collections.abc import Callable
from typing import Any, NoReturn

from ..core.errors import DROP, GIVE, LedgerError
from ..core.i18n import N_, _, strerror, translated
from ..app.opening import close_all, commits, damaged, internal, starting
from ..ui.text import message as tell  # `message` and `said` are words of their own here

PROG = "boston-ledger"


class OutputClosed(Exception):
    """Our output's reader went away (a BrokenPipeError, carried past click, which would exit 1)."""


def guarded(run: Callable[[], Any], command_path: Callable[[], str] = lambda: PROG) -> NoReturn:
    """Run a command and exit with its status (a command returning an int gives it, else 0); every
    failure a user can cause ends as one line on stderr and exit 2."""
    committed = commits()
    starting()
    try:
        try:
            code = run()
        finally:
            close_all()
        sys.stdout.flush()  # here, not at exit, where a closed pipe could no longer be told apart
    except LedgerError as e:
        fail(worded(e))
    except sqlite3.Error as e:
        if getattr(e, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_INTERRUPT:  # Ctrl-C inside a statement
            sys.exit(130)
        fail(_("the ledger database failed: {error}; nothing was recorded", error=e))
    except (BrokenPipeError, OutputClosed):  # the reader of our output went away (`| head`): quietly
        _discard_output()
        sys.exit(0 if commits() > committed else 1)  # what was committed stands: a retry would repeat it
    except OSError as e:
        fail(strerror(e) + (f": {e.filename}" if e.filename else ""))
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as e:
        typer = sys.modules.get("typer")
        if typer is not None and isinstance(e, typer.Abort):
            tell(_("{prog}: aborted", prog=PROG), err=True)
            sys.exit(1)
        usage = getattr(typer, "TyperException", None) or getattr(typer, "ClickException", None)
        if usage is not None and isinstance(e, usage):  # unknown option, missing value...
            message = e.format_message() if hasattr(e, "format_message") else str(e)
            ctx = getattr(e, "ctx", None)
            path = ctx.command_path if ctx is not None else PROG
            if path == PROG:
                path = command_path()
            said = usage_message(message) if translated() else message
            fail(_("{message} (see `{command} --help`)", message=said.rstrip("."),
                   command=path))
        said = damaged()  # a damaged ledger (changed by hand) that no check foresaw: one line, exit 2
        if said is not None:
            fail(said)
        # a bug of ours: still one line, and the transaction was rolled back
        tell(" ".join(internal(e).split()), err=True)
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


def worded(e: LedgerError) -> str:
    """A problem as the command line says it: what is wrong, then the option of the field it
    concerns, to give, drop or mend."""
    if e.field is None or e.remedy is None:
        return str(e)
    from ..app.inputs import option

    if e.remedy == GIVE:
        return _("{problem} ({option})", problem=e, option=option(e.field, value=True))
    if e.remedy == DROP:
        return _("{problem}; drop {option}", problem=e, option=option(e.field))
    return _("{option}: {problem}", problem=e, option=option(e.field))


def _discard_output() -> None:
    """Whatever is still buffered for stdout goes nowhere (the interpreter flushes it at exit)."""
    sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - stderr from here to the exit: no block may close it
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no file descriptor (a test's captured output)
        pass


def waiting(path: object) -> None:
    """Said once, on stderr, when another writer has kept the ledger for a while."""
    with contextlib.suppress(OSError, ValueError):  # nobody reads stderr: wait all the same
        # (stderr is line-buffered: the line is out as soon as it is said)
        tell(_("{prog}: waiting for another boston-ledger that is writing to {path} (Ctrl-C stops waiting; "
                  "nothing is recorded then)", prog=PROG, path=path), err=True)


def slow(path: object, seconds: float) -> None:
    """Said once, on stderr, when one stretch of SQLite's work on the ledger has lasted long."""
    with contextlib.suppress(OSError, ValueError):
        tell(_("{prog}: reading {path} has taken {seconds} s in one query so far; a ledger changed by hand can "
               "make it endless (Ctrl-C stops it; `{prog} check` says what is foreign in it)", prog=PROG, path=path,
               seconds=int(seconds)), err=True)


def read_only(path: object) -> None:
    """Said once, on stderr, when the ledger is on a file system that cannot be written."""
    with contextlib.suppress(OSError, ValueError):
        tell(_("{prog}: {path} is on a file system where nothing can be written: it is only read", prog=PROG,
               path=path), err=True)


def fail(message: str) -> NoReturn:
    """One clear line on stderr (what it quotes made visible; on a terminal, broken between words to
    its width), exit status 2."""
    tell(_("{prog}: error: {message}", prog=PROG, message=" ".join(message.split())), err=True)
    sys.exit(2)
