"""`boston-ledger import` of a club's ledger: every evening replayed and brought in, then the same
file imported again, which adds nothing.

Run: python benchmarks/imports.py [--sessions 1000] [--deals 50] [--runs 5] [--keep DIR]

Two ledgers, each the default ledger of a home folder made for the run, built through the same
engine and storage as `deal` and `settle` (random legal deals from a fixed seed, benchmarks/scale.py):

- there: `--sessions` settled evenings of `--deals` deals, tables of four drawn from a club of 40
  (the other laptop's ledger, the file that is imported);
- here: one open evening of 60 deals (tonight's, on this laptop).

It times, as whole processes of the installed program (`--runs` times each, on a fresh copy of
here's ledger each time; the median wall time, the median CPU time, the peak resident memory):

- `import THERE` into here: every evening replayed through the engine and copied (target ≤ 10 s);
- `import THERE` again, into a copy of here that has imported it already: nothing is added
  (target ≤ 2 s); the script checks that the ledger's rows are as many after it as before;
- `check --all` on there, which replays every evening as the import does: a yardstick that moves
  with the machine's load as the import does (the ratio of runs made in turn);
- `import --salvage THERE` into here: the rows read by plain SELECTs, every evening replayed into a
  clean ledger, which is then imported as above (no target; its ratio to the first import).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from installed import at_home, compile_package, home_ledger, script
from scale import Timer, build, made


def rows(path: Path) -> int:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return sum(conn.execute(f'SELECT COUNT(*) FROM "{n}"').fetchone()[0] for n in names)
    finally:
        conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="Keep the built ledgers in this folder (and reuse them).")
    args = parser.parse_args()
    if not shutil.which("/usr/bin/time"):
        sys.exit("needs /usr/bin/time (Debian's `time` package) for the peak memory")
    exe = script("boston-ledger")
    compile_package()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="boston-ledger-imports-"))
    folder.mkdir(parents=True, exist_ok=True)
    size = f"{args.sessions}x{args.deals}"
    there = home_ledger(made(folder, f"club-{size}", lambda p: build(p, args.sessions, args.deals, 0, seed=1)))
    here = made(folder, "tonight-60", lambda p: build(p, 0, 0, 60, seed=2))

    def imported(path: Path) -> None:
        shutil.copy(home_ledger(here), path)
        subprocess.run([exe, "import", str(there)], env=at_home(path.parent.parent.parent), check=True,
                       stdout=subprocess.DEVNULL)

    again = made(folder, f"imported-{size}", imported)
    timer = Timer(exe, folder, args.runs)

    def row(label: str, wall: float, cpu: float, peak: float, note: str = "") -> None:
        print(f"{label:<34}{wall:9.3f}{cpu:8.3f}{peak:10.1f}  {note}", flush=True)

    print(f"there: {args.sessions} settled sessions × {args.deals} deals; here: one open evening of 60 deals; "
          f"{args.runs} runs each")
    print(f"{'command':<34}{'median s':>9}{'CPU s':>8}{'peak MiB':>10}  target")
    words = ["import", str(there)]
    (wall, cpu, peak, walls), = timer.time([here], words, writes=True)
    row("import (first)", wall, cpu, peak, f"≤ 10 s {'ok' if wall <= 10 else 'OVER'}")
    # the same replay of every evening, as `check --all` of the other ledger does it: a yardstick
    # that moves with the machine's load as the import does
    (check, check_cpu, check_peak, checks), = timer.time([made(folder, f"club-{size}", None)], ["check", "--all"])
    row("there: check --all (yardstick)", check, check_cpu, check_peak,
        f"import / check --all {statistics.median(a / b for a, b in zip(walls, checks, strict=True)):.2f}")
    before = rows(home_ledger(again))
    (wall, cpu, peak, __), = timer.time([again], words, writes=True)
    after = rows(home_ledger(timer.fresh(again)))
    row("import (again)", wall, cpu, peak, f"≤ 2 s {'ok' if wall <= 2 else 'OVER'}")
    done = subprocess.run([exe, *words], env=at_home(timer.fresh(again)), capture_output=True, text=True)
    added = rows(home_ledger(folder / "scratch")) - before
    print(f"again: rows added {added} (copy {after - before}); says {done.stdout.strip().splitlines()[-1]!r}")
    # a ledger changed by hand: every row read by plain SELECTs, replayed into a clean ledger, then imported
    (wall, cpu, peak, salvages), = timer.time([here], ["import", "--salvage", str(there)], writes=True)
    row("import --salvage (first)", wall, cpu, peak,
        f"salvage / import {statistics.median(a / b for a, b in zip(salvages, walls, strict=True)):.2f}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
