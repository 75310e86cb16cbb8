"""How boston-ledger copes with a club's years of history, at the scale a club really reaches.

Run: python benchmarks/scale.py [--sessions 1000] [--deals 50] [--open 60] [--long 500] [--runs 5] [--keep DIR]

Three ledgers, each the default ledger of a home folder made for the run (no --db, no
$BOSTON_LEDGER_DB), built through the same engine and storage as `deal` and `settle` (random legal
deals from a fixed seed):

- club: `--sessions` settled evenings of `--deals` deals, each a table of four drawn from a club of
  40 people, plus one open evening of `--open` deals (the one played tonight);
- alone: that open evening alone in a ledger of its own;
- long: a single evening of `--long` deals.

It times, as whole processes of the installed program (`--runs` times each; the median wall time,
the median CPU time and the peak resident memory as /usr/bin/time reports it):

- on club: `check --all`, `stats`, `ledger`, `sessions` (targets 5 s, 2 s, 1 s, 0.5 s);
- on the open evening, in club and alone: `status`, `deal`, `history`, `export`, `sheet`, `settle`,
  and the ratio club / alone, the median of the ratios of runs made in turn (target at most 1.1:
  tonight's evening costs the same in a ledger of twenty years);
- on long: `check` and `export` (target 0.5 s each).

A command that writes (`deal`, `settle`) runs each time on a fresh copy of the ledger.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

from boston_ledger.app import sessions as sessions_app
from boston_ledger.core import engine
from boston_ledger.core.engine import Deal
from boston_ledger.core.tariff_files import load
from boston_ledger.store import db, write
from installed import at_home, compile_package, home_ledger, measured, script

CLUB = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zhenya", "Zoya", "Ilya", "Katya", "Lev", "Masha",
        "Nikita", "Olga", "Pavel", "Rita", "Sasha", "Tanya", "Ulyana", "Fyodor", "Khariton", "Tsvetana", "Chara",
        "Shura", "Yulia", "Yakov", "Alla", "Bogdan", "Varya", "Gosha", "Dima", "Elena", "Zakhar", "Inna", "Kirill",
        "Lida", "Misha", "Nadya", "Oleg", "Polina"]
TONIGHT = ["Anna", "Boris", "Vera", "Gleb"]
DEAL = ["deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5", "--partner-tricks", "4",
        "--boston", "Vera"]


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
    return Deal(rng.choice([k for k in tariff.contracts if "misere" in k]), declarer, None,
                rng.choice([0, 0, 1]))


def evening(conn, tariff, players: list[str], deals: int, rng: random.Random, settle: bool) -> None:
    """One session of `deals` random deals, written as `deal` writes them; settled when asked."""
    session = sessions_app.new(conn, players, tariff, Decimal("0.10"), "EUR", None)
    state = engine.State.start(4)
    with db.writing(conn):
        for number in range(1, deals + 1):
            deal = random_deal(rng, tariff)
            outcome = engine.play(tariff, state, deal)
            state = engine.advance(state, outcome)
            write.record_deal(conn, session, number, deal, outcome, state)
    if settle:
        sessions_app.settle(conn, session.id)


def build(path: Path, settled: int, deals: int, tonight: int, seed: int) -> None:
    """`settled` evenings of tables drawn from the club, then tonight's open evening."""
    tariff = load("classic")
    conn = db.open_db(path, create=True)
    rng = random.Random(seed)
    for __ in range(settled):
        evening(conn, tariff, rng.sample(CLUB, 4), deals, rng, settle=True)
    if tonight:
        evening(conn, tariff, TONIGHT, tonight, random.Random(seed + 1), settle=False)
    conn.close()


def made(folder: Path, label: str, make) -> Path:
    """A home folder whose default ledger `make(path)` builds, unless an earlier run kept it."""
    home = folder / f"home-{label}"
    path = home_ledger(home)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        start = time.perf_counter()
        make(path)
        print(f"built {label} in {time.perf_counter() - start:.1f} s", flush=True)
    return home


class Timer:
    """Times commands on a home folder's ledger; a writing command on a fresh copy each time."""

    def __init__(self, exe: str, folder: Path, runs: int) -> None:
        self.exe, self.folder, self.runs = exe, folder, runs

    def fresh(self, home: Path) -> Path:
        """A home folder holding a fresh copy of `home`'s ledger, for a command that writes."""
        target = self.folder / "scratch"
        shutil.rmtree(target, ignore_errors=True)
        home_ledger(target).parent.mkdir(parents=True)
        shutil.copy(home_ledger(home), home_ledger(target))
        os.sync()  # the copy reaches the disk now: else the command's own commit (its fsync) would
        # also wait for the copy's pages, and a big ledger's copy would be timed as the command's
        return target

    def run(self, home: Path, words: list[str], writes: bool) -> tuple[float, float]:
        """One whole run of `boston-ledger WORDS` on `home`'s ledger (a copy of it when it writes)."""
        return measured([self.exe, *words], at_home(self.fresh(home) if writes else home), ok=(0, 1))

    def peak(self, home: Path, words: list[str], writes: bool) -> float:
        """Peak resident MiB of one run, as /usr/bin/time reports it (it warms the caches too)."""
        done = subprocess.run(["/usr/bin/time", "-f", "%M", self.exe, *words],
                              env=at_home(self.fresh(home) if writes else home), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        return int(done.stderr.strip().splitlines()[-1]) / 1024

    def time(self, homes: list[Path], words: list[str], writes: bool = False) -> list[tuple[float, float, float, list]]:
        """For each home in turn, run by run (A B A B ..., so that a drift of the machine's speed
        touches all alike): median wall and CPU seconds, peak MiB, and every wall time."""
        peaks = [self.peak(home, words, writes) for home in homes]
        walls: list[list[float]] = [[] for __ in homes]
        cpus: list[list[float]] = [[] for __ in homes]
        for __ in range(self.runs):
            for i, home in enumerate(homes):
                wall, cpu = self.run(home, words, writes)
                walls[i].append(wall)
                cpus[i].append(cpu)
        return [(statistics.median(w), statistics.median(c), p, w) for w, c, p in zip(walls, cpus, peaks, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=1000)
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--open", type=int, default=60)
    parser.add_argument("--long", type=int, default=500)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="Keep the built ledgers in this folder (and reuse them).")
    args = parser.parse_args()
    if not shutil.which("/usr/bin/time"):
        sys.exit("needs /usr/bin/time (Debian's `time` package) for the peak memory")
    exe = script("boston-ledger")  # the installed program as a user has it (installed.py)
    compile_package()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="boston-ledger-scale-"))
    folder.mkdir(parents=True, exist_ok=True)
    size = f"{args.sessions}x{args.deals}+{args.open}"
    club = made(folder, f"club-{size}", lambda p: build(p, args.sessions, args.deals, args.open, seed=1))
    alone = made(folder, f"alone-{args.open}", lambda p: build(p, 0, 0, args.open, seed=1))
    long = made(folder, f"long-{args.long}", lambda p: build(p, 0, 0, args.long, seed=5))
    timer = Timer(exe, folder, args.runs)
    out = folder / "out"

    def row(label: str, wall: float, cpu: float, peak: float, note: str = "") -> None:
        print(f"{label:<34}{wall:9.3f}{cpu:8.3f}{peak:10.1f}  {note}", flush=True)

    print(f"club: {args.sessions} settled sessions × {args.deals} deals + one open of {args.open}; "
          f"{args.runs} runs each")
    print(f"{'command':<34}{'median s':>9}{'CPU s':>8}{'peak MiB':>10}  target")
    for words, target in ((["check", "--all"], 5.0), (["stats"], 2.0), (["ledger"], 1.0), (["sessions"], 0.5)):
        (wall, cpu, peak, __), = timer.time([club], words)
        row(f"club: {' '.join(words)}", wall, cpu, peak, f"≤ {target} s {'ok' if wall <= target else 'OVER'}")
    tonight = [(["status"], False), (DEAL, True), (["history"], False), (["export", str(out)], False),
               (["sheet"], False), (["settle", "--yes"], True)]
    for words, writes in tonight:
        a, b = timer.time([club, alone], words, writes)
        ratio = statistics.median(x / y for x, y in zip(a[3], b[3], strict=True))  # run by run
        row(f"open evening: {words[0]} (club)", *a[:3])
        row(f"open evening: {words[0]} (alone)", *b[:3], f"club/alone {ratio:.2f} {'ok' if ratio <= 1.1 else 'OVER'}"
                                                          " (≤ 1.1)")
    for words in (["check"], ["export", str(out)]):
        (wall, cpu, peak, __), = timer.time([long], words)
        row(f"{args.long} deals: {words[0]}", wall, cpu, peak, f"≤ 0.5 s {'ok' if wall <= 0.5 else 'OVER'}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
