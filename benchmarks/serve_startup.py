"""Start-up cost of `boston-ledger serve`: from starting the program to its link on the screen,
and the import time of the server's modules beside `python -c pass`.

Run: python benchmarks/serve_startup.py [--runs 11]

Each run serves a throw-away ledger on a free port of 127.0.0.1 and is stopped with Ctrl-C
(SIGINT) as soon as its link is printed; medians are reported.
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from installed import compile_package, script


def imported(modules: str, runs: int) -> float:
    """Median wall time of `python -c 'import ...'` in seconds."""
    times = []
    for __ in range(runs):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", f"import {modules}" if modules else "pass"], check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    exe = script("boston-ledger")
    compile_package()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "BOSTON_LEDGER_DB": str(Path(tmp) / "ledger.db"), "PYTHONUNBUFFERED": "1"}
        subprocess.run([exe, "new", "Anna", "Boris", "Vera", "Gleb"], env=env, check=True, capture_output=True)
        linked = []
        for __ in range(args.runs):
            start = time.perf_counter()
            proc = subprocess.Popen([exe, "serve", "--port", "0"], env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
            assert proc.stdout is not None
            line = proc.stdout.readline()
            linked.append(time.perf_counter() - start)
            proc.send_signal(signal.SIGINT)
            proc.communicate(timeout=30)
            if "http://" not in line or proc.returncode != 0:
                sys.exit(f"serve failed: {line!r}, exit {proc.returncode}")
    base = imported("", args.runs)
    server = imported("boston_ledger.serve.server, segno", args.runs)
    print(f"serve, start to link printed: median {1000 * statistics.median(linked):.0f} ms over {args.runs} runs")
    print(f"python -c pass: {1000 * base:.0f} ms; importing the server (http.server, the app and ui layers, "
          f"segno): {1000 * (server - base):.0f} ms more")


if __name__ == "__main__":
    main()
