"""`boston-ledger ledger` for a club: what everybody who ever played owes or is owed, and the
fewest payments that clear it.

Run: python benchmarks/club.py [--people 200 1000] [--runs 5] [--keep DIR]

For each size it builds the default ledger of a home folder made for the run (no --db, no
$BOSTON_LEDGER_DB): tables of four drawn from that many people (every one plays at least once),
a few random legal deals each (a fixed seed), each session settled in euros. Then it times
`ledger` and `ledger --json` as whole processes (medians of `--runs`), with their peak memory
as `/usr/bin/time -v` reports it, and `fewest_payments` alone on the same results.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import tempfile
import time
from decimal import Decimal
from functools import partial
from pathlib import Path

from boston_ledger.app import money
from boston_ledger.app import sessions as sessions_app
from boston_ledger.core import engine
from boston_ledger.core.settlement import fewest_payments
from boston_ledger.core.tariff_files import load
from boston_ledger.store import db, read, write
from installed import compile_package, home_ledger, script
from scale import Timer, made, random_deal


def build(path: Path, people: int, seed: int = 1) -> None:
    """Tables of four from `people` names, each with a few deals, each settled."""
    tariff = load("classic")
    rng = random.Random(seed)
    names = [f"Player{i:04d}" for i in range(people)]
    pool = rng.sample(names, len(names))
    tables = [pool[i:i + 4] for i in range(0, len(pool) - 3, 4)]
    tables += [rng.sample(names, 4) for __ in range(len(tables))]
    if len(pool) % 4:  # the last few play too
        tables.append(pool[-(len(pool) % 4):] + rng.sample(pool[:-(len(pool) % 4)], 4 - len(pool) % 4))
    conn = db.open_db(path, create=True)
    for players in tables:
        session = sessions_app.new(conn, players, tariff, Decimal("0.10"), "EUR")
        state = engine.State.start(4)
        with db.writing(conn):
            for number in range(1, rng.randint(3, 12) + 1):
                deal = random_deal(rng, tariff)
                outcome = engine.play(tariff, state, deal)
                state = engine.advance(state, outcome)
                write.record_deal(conn, session, number, deal, outcome, state)
        sessions_app.settle(conn)
    conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="Keep the built ledgers in this folder.")
    args = parser.parse_args()
    exe = script("boston-ledger")
    compile_package()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="boston-ledger-club-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{'people':>7} {'command':<18} {'median s':>9} {'CPU s':>7} {'peak MiB':>9}  payments")
    for people in args.people:
        home = made(folder, f"club-{people}", partial(build, people=people))
        ledger_db = home_ledger(home)
        conn = db.open_db(ledger_db)
        (book,) = money.books(conn)
        sessions = len(read.session_ids(conn))
        conn.close()
        times = []
        for __ in range(args.runs):
            start = time.perf_counter()
            payments = fewest_payments(book.cents)
            times.append(time.perf_counter() - start)
        owing = sum(1 for c in book.cents if c)
        print(f"{people:>7} {'fewest_payments':<18} {statistics.median(times):9.4f} {'':>7} {'':>9}  {len(payments)}"
              f" for {owing} people not at zero ({sessions} sessions)")
        for words in (["ledger"], ["ledger", "--json"]):
            ((wall, used, peak, __),) = Timer(exe, folder, args.runs).time([home], words)
            print(f"{people:>7} {' '.join(words):<18} {wall:9.3f} {used:7.3f} {peak:9.1f}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if not args.keep:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
