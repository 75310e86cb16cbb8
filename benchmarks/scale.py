"""How boston-ledger copes with a club's years of history.

Run: python benchmarks/scale.py [--sizes 1000 10000 100000] [--runs 3] [--keep DIR]

For each size it builds a ledger of one classic session with that many deals (random legal
deals from a fixed seed, written in one transaction through the same engine and storage as
`deal`), then runs `status`, `history` (last page), `check`, `export`, `settle` and `stats` as
whole processes, `--runs` times each, and prints the median wall time and the peak memory
(the children's maximum resident set size, as `/usr/bin/time -v` reports it). The ledger is
where users have theirs: the default one of a home folder made for the run (no --db, no
$BOSTON_LEDGER_DB). With Debian's
`ledger` installed (the script installs it with apt-get when it can), it also writes the same
transfers as a plain-text journal and times `ledger -f FILE balance` against `check`.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

from boston_ledger.app import deals as deals_app
from boston_ledger.app import sessions as sessions_app
from boston_ledger.core import engine
from boston_ledger.core.engine import Deal
from boston_ledger.core.tariff_files import load
from boston_ledger.store import db, read, write
from installed import compile_package, measured, script

PLAYERS = ["Anna", "Boris", "Vera", "Gleb"]


def random_deal(rng: random.Random, tariff) -> Deal:
    """A legal deal; all-passes kept rare so that the basket stays of a sane size."""
    roll = rng.random()
    if roll < 0.03:
        return Deal("pass")
    declarer = rng.randrange(4)
    boston = rng.choice([None, 0, 1, 2, 3])
    if roll < 0.6:
        partner = rng.choice([s for s in range(4) if s != declarer])
        tricks = rng.randint(2, 9)
        return Deal(rng.choice(["junior", "senior"]), declarer, partner, tricks, rng.randint(0, 13 - tricks),
                    boston=boston)
    if roll < 0.75:
        return Deal(rng.choice(["junior", "senior"]), declarer, None, rng.randint(3, 9), boston=boston)
    if roll < 0.9:
        return Deal(rng.choice(["solo", "nine"]), declarer, None, rng.randint(6, 11),
                    rank=rng.choice(["junior", "senior"]), boston=boston)
    return Deal(rng.choice(list(k for k in tariff.contracts if "misere" in k)), declarer, None,
                rng.choice([0, 0, 1]))


def build(path: Path, deals: int, seed: int = 1) -> None:
    tariff = load("classic")
    conn = db.open_db(path, create=True)
    session = sessions_app.new(conn, PLAYERS, tariff, Decimal("0.10"), "EUR", f"{deals} deals")
    rng = random.Random(seed)
    state = engine.State.start(4)
    with db.writing(conn):
        for number in range(1, deals + 1):
            deal = random_deal(rng, tariff)
            outcome = engine.play(tariff, state, deal)
            if max(abs(state.basket), *map(abs, state.balances)) > db.MAX_CHIPS // 4:
                deal, outcome = Deal("junior", 0, 1, 5, 3), engine.play(tariff, state, Deal("junior", 0, 1, 5, 3))
            state = engine.advance(state, outcome)
            write.record_deal(conn, session, number, deal, outcome, state)
    conn.close()


def journal(path: Path, out: Path) -> None:
    """The same transfers as a plain-text journal for `ledger` (one entry per deal)."""
    conn = db.open_db(path)
    session = deals_app.current(conn)
    with out.open("w", encoding="utf-8") as f:
        for r in read.deals(conn, session):
            f.write(f"2026-01-01 deal {r.number}\n")
            for t in r.transfers:
                f.write(f"    {session.party_name(t.payee)}    {t.chips} chips\n")
                f.write(f"    {session.party_name(t.payer)}    -{t.chips} chips\n")
            f.write("\n")
    conn.close()


def timed(cmd: list[str], env: dict[str, str], runs: int) -> tuple[float, float]:
    """Median wall seconds and median CPU seconds of a whole command."""
    runs_of = [measured(cmd, env, ok=(0, 1)) for __ in range(runs)]
    return statistics.median(w for w, __ in runs_of), statistics.median(c for __, c in runs_of)


def peak_of(cmd: list[str], env: dict[str, str]) -> float:
    """Peak resident MiB of one run, read by /usr/bin/time when present (else getrusage)."""
    if shutil.which("/usr/bin/time"):
        done = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        return int(done.stderr.strip().splitlines()[-1]) / 1024
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    measured(cmd, env, ok=(0, 1))
    return max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024  # an upper bound


def home_ledger(home: Path) -> Path:
    """The default ledger of a user whose home folder is `home` (as `store.db.app_dir` finds it
    on Linux, with no $XDG_CONFIG_HOME)."""
    return home / ".config" / "boston-ledger" / "ledger.db"


def at_home(home: Path) -> dict[str, str]:
    """The environment of a user whose home folder is `home`: no --db, no $BOSTON_LEDGER_DB."""
    env = {k: v for k, v in os.environ.items() if k not in ("BOSTON_LEDGER_DB", "XDG_CONFIG_HOME")}
    return {**env, "HOME": str(home)}


def ledger_at(home: Path, label: str, make) -> Path:
    """The default ledger of `home`, made by `make(path)` unless an earlier run kept it."""
    path = home_ledger(home)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        make(path)
        print(f"{label:>7} {'(build)':<18} {time.perf_counter() - start:9.3f}")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="Keep the built ledgers in this folder.")
    args = parser.parse_args()
    exe = script("boston-ledger")  # the installed program as a user has it (installed.py)
    compile_package()
    peer = shutil.which("ledger")
    if peer is None and shutil.which("apt-get") and os.geteuid() == 0:
        subprocess.run(["apt-get", "install", "-y", "-qq", "ledger"], capture_output=True)
        peer = shutil.which("ledger")
    folder = args.keep or Path(tempfile.mkdtemp(prefix="boston-ledger-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    commands = ["status", "history --last 50", "check", "export", "settle", "stats"]
    print(f"{'deals':>7} {'command':<18} {'median s':>9} {'CPU s':>7} {'peak MiB':>9}")
    for size in args.sizes:
        home = folder / f"home-{size}"
        ledger_db = ledger_at(home, str(size), lambda path: build(path, size))
        env = at_home(home)
        for command in commands:
            words = command.split()
            if words[0] == "export":
                words = ["export", str(folder / f"export-{size}")]
            if words[0] == "settle":  # settle once on a copy, so the ledger stays open for the rest
                other = folder / f"settle-home-{size}"
                home_ledger(other).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(ledger_db, home_ledger(other))
                wall, used = timed([exe, *words], at_home(other), 1)
                shutil.copy(ledger_db, home_ledger(other))
                peak = peak_of([exe, *words], at_home(other))
                shutil.rmtree(other)
            else:
                wall, used = timed([exe, *words], env, args.runs)
                peak = peak_of([exe, *words], env)
            print(f"{size:>7} {command:<18} {wall:9.3f} {used:7.3f} {peak:9.1f}")
        if peer:
            text = folder / f"journal-{size}.ledger"
            journal(ledger_db, text)
            ours, _ = timed([exe, "check"], env, args.runs)
            theirs, _ = timed([peer, "-f", str(text), "balance"], env, args.runs)
            print(f"{size:>7} {'ledger balance':<18} {theirs:9.3f}           check/ledger = {ours / theirs:.2f}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
