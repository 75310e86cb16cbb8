"""Whole-process wall time of `boston-ledger deal` and `status` next to `python -c pass` and a
one-row `sqlite-utils insert` (the same stack doing the least possible write).

Run: python benchmarks/startup.py [--runs 21]

`deal` and `status` are timed as users run them, on the default ledger (a throw-away home
folder, no --db and no $BOSTON_LEDGER_DB), and again on a ledger named by $BOSTON_LEDGER_DB.
The commands run in turn (pass, insert, deal, status, ..., pass, ...), so a drift in the
machine's speed touches all alike; the medians and the ratios of medians are printed. What is
timed is the installed program as a user has it (installed.py). Cross-check one run with
`/usr/bin/time -v boston-ledger status`.

Target: `deal` and `status` on the default ledger each at most 0.75 × the insert (the start-up of
rich included).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from installed import compile_package, measured, script

TARGET = 0.75  # deal and status on the default ledger, × a one-row sqlite-utils insert


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    exe, sqlite_utils = script("boston-ledger"), script("sqlite-utils")
    compile_package()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        home.mkdir()
        plain = {k: v for k, v in os.environ.items() if k not in ("BOSTON_LEDGER_DB", "XDG_CONFIG_HOME")}
        default = {**plain, "HOME": str(home)}  # the ledger in ~/.config/boston-ledger, as users have it
        named = {**default, "BOSTON_LEDGER_DB": str(Path(tmp) / "named.db")}
        for env in (default, named):
            subprocess.run([exe, "new", "Anna", "Boris", "Vera", "Gleb"], env=env, check=True,
                           stdout=subprocess.DEVNULL)
        row = Path(tmp) / "row.json"
        row.write_text(json.dumps({"id": 1, "name": "Anna"}))
        deal = [exe, "deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5",
                "--partner-tricks", "4", "--boston", "Vera"]
        commands = {
            "python -c pass": ([sys.executable, "-c", "pass"], default),
            "sqlite-utils insert": ([sqlite_utils, "insert", str(Path(tmp) / "su.db"), "rows", str(row),
                                     "--replace"], default),
            "boston-ledger deal": (deal, default),
            "boston-ledger status": ([exe, "status"], default),
            "deal ($BOSTON_LEDGER_DB)": (deal, named),
            "status ($BOSTON_LEDGER_DB)": ([exe, "status"], named),
        }
        for cmd, env in commands.values():  # warm-up: caches
            measured(cmd, env)
        times: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, (cmd, env) in commands.items():
                wall, used = measured(cmd, env)
                times[name].append(wall)
                cpu[name].append(used)
        if not any(home.rglob("ledger.db")):
            sys.exit("the default ledger was not where it should be: the default path was not timed")
    base = statistics.median(times["python -c pass"])
    insert = statistics.median(times["sqlite-utils insert"])
    cpu_insert = statistics.median(cpu["sqlite-utils insert"])
    print(f"{args.runs} runs each, alternating; seconds; deal and status on the default ledger unless marked;"
          " CPU: user and system time")
    print(f"{'command':<28}{'min':>7}{'median':>8}{'max':>7}{'× pass':>8}{'× insert':>10}"
          f"{'CPU':>8}{'CPU × insert':>14}")
    for name, values in times.items():
        med, used = statistics.median(values), statistics.median(cpu[name])
        print(f"{name:<28}{min(values):7.3f}{med:8.3f}{max(values):7.3f}{med / base:8.2f}{med / insert:10.2f}"
              f"{used:8.3f}{used / cpu_insert:14.2f}")
    for name in ("boston-ledger deal", "boston-ledger status"):
        ratio = statistics.median(times[name]) / insert
        print(f"target: {name} ≤ {TARGET} × insert: {ratio:.2f} {'ok' if ratio <= TARGET else 'OVER'}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
