"""The `boston-ledger` program. `deal` and `status`, run many times an evening, and `history`,
`check`, `export` and `stats`, which read a whole session or ledger, start without typer: their
plain command lines are read by the quick parser (quick.py) and run by the same functions typer
calls (commands.py). Anything else goes to the full command line."""

from __future__ import annotations

import gc
import os
import sys


def main() -> None:
    """Run boston-ledger; a terminal that cannot show a character gets a stand-in."""
    # Loading the program makes many objects and no garbage, and the cycle collector would walk
    # them again and again while the modules load: it waits until the full command line's command
    # runs. A plain `deal` or `status` reads the end of a session only and is over in a moment; what
    # little it leaves, reference counting frees, so it runs without the collector.
    gc.disable()
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    if "_BOSTON_LEDGER_COMPLETE" not in os.environ:
        from .options import prepare
        from .quick import quick_values

        args = prepare(sys.argv[1:])
        values = quick_values(args)
        if values is not None:
            from . import commands
            from .guard import PROG, guarded

            command = getattr(commands, args[0])
            if args[0] not in ("deal", "status"):  # these read much and may run long
                gc.enable()
            guarded(lambda: command(**values), lambda: f"{PROG} {args[0]}")
    from .declarations import app

    gc.enable()
    app()
