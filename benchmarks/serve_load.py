"""Load on `boston-ledger serve`: clients follow the page while a deal is entered every second.

Run: python benchmarks/serve_load.py [--clients 20] [--seconds 60] [--json] [--check]

The server runs as the installed program (`boston-ledger serve --port 0`) on 127.0.0.1 over the
default ledger of a throw-away home folder; all traffic stays on the loopback. Each client comes
from an address of its own (127.0.0.10, .11, ...: the server holds each address to a few
connections, as each phone has its own), holds the page's event stream open and asks for
`/api/status` and the page in turn every half second on one keep-alive connection, as a phone
would while its page is open. Meanwhile a deal is recorded every second through the app layer,
the same transaction as `boston-ledger deal`, from this other process. Reported: errors, the
response times of the requests (median, p99, max), the delay from each deal's commit to its
arrival at each client, the deals any client missed, and the server's resident memory when the
deals begin and when they end.

`--check` also says whether the run held what does not depend on the machine's speed (what the
test suite held before this run became a benchmark): no error, every deal reached every client,
the server's memory grew by less than 64 MiB, and it stopped cleanly; exit status 1 if not.
"""

from __future__ import annotations

import argparse
import http.client
import json
import re
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import served
from installed import compile_package, home_ledger

DEALS = [  # what the table plays, round and round
    {"contract": "junior", "declarer": "Boris", "partner": "Gleb", "tricks": "5", "partner_tricks": "3"},
    {"contract": "pass"},
    {"contract": "junior", "declarer": "Anna", "partner": "Vera", "tricks": "4", "partner_tricks": "3"},
    {"contract": "solo", "declarer": "Vera", "tricks": "5"},
]


class Client:
    """One phone: an event stream read in one thread, requests made in another."""

    def __init__(self, port: int, token: str, stop: threading.Event, every: float, source: str = "127.0.0.1") -> None:
        self.port, self.token, self.stop, self.every, self.source = port, token, stop, every, source
        self.errors: list[str] = []
        self.latencies: list[float] = []
        self.arrivals: dict[int, float] = {}  # deal number -> when this client first saw it
        self.seen: set[int] = set()  # every deal number that came in a sheet
        self.connected = threading.Event()
        self.threads = [threading.Thread(target=self.follow, daemon=True),
                        threading.Thread(target=self.ask, daemon=True)]

    def start(self) -> None:
        for t in self.threads:
            t.start()

    def follow(self) -> None:
        try:
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=30, source_address=(self.source, 0))
            sock.sendall(f"GET /events?t={self.token} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            stream = sock.makefile("rb")
            status = stream.readline()
            if b" 200 " not in status:
                self.errors.append(f"events: {status!r}")
                return
            while stream.readline() not in (b"\r\n", b""):
                pass
            data: list[str] = []
            while not self.stop.is_set():
                line = stream.readline()
                if not line:
                    if not self.stop.is_set():
                        self.errors.append("events: the stream ended")
                    return
                now = time.monotonic()
                text = line.decode("utf-8").rstrip("\n")
                if text.startswith("data:"):
                    data.append(text[5:].lstrip(" "))
                elif text == "" and data:
                    sheet = "\n".join(data)
                    data = []
                    count = int(re.search(r'data-deals="(\d+)"', sheet).group(1))
                    for n in range(1, count + 1):
                        self.arrivals.setdefault(n, now)
                    self.seen.update(int(n) for n in re.findall(r'data-deal="(\d+)"', sheet))
                    self.connected.set()
        except (OSError, ValueError, AttributeError) as e:
            if not self.stop.is_set():
                self.errors.append(f"events: {type(e).__name__}: {e}")
        finally:
            self.connected.set()

    def ask(self) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(self.source, 0))
        targets = [f"/api/status?t={self.token}", f"/?t={self.token}"]
        i = 0
        while not self.stop.wait(self.every):
            target = targets[i % 2]
            i += 1
            start = time.monotonic()
            try:
                conn.request("GET", target)
                r = conn.getresponse()
                body = r.read()
                elapsed = time.monotonic() - start
                if r.status != 200 or not body:
                    self.errors.append(f"{target.split('?')[0]}: {r.status}")
                self.latencies.append(elapsed)
            except (OSError, http.client.HTTPException) as e:
                self.errors.append(f"{target.split('?')[0]}: {type(e).__name__}: {e}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(self.source, 0))
        conn.close()


def run(clients: int = 20, seconds: float = 60, every: float = 1.0, ask_every: float = 0.5) -> dict:
    """The load run; its figures as a dict."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from boston_ledger.app import deals as deals_app
    from boston_ledger.app import sessions as sessions_app
    from boston_ledger.core.tariff_files import load
    from boston_ledger.store.db import open_db
    from decimal import Decimal

    with tempfile.TemporaryDirectory(prefix="boston-ledger-load-") as tmp:
        home = Path(tmp) / "home"
        db = home_ledger(home)
        db.parent.mkdir(parents=True)
        conn = open_db(db, create=True)
        session = sessions_app.new(conn, ["Anna", "Boris", "Vera", "Gleb"], load("classic", ()), Decimal("0.10"), "")
        proc, port, token = served.start(home)
        stop = threading.Event()
        followers = [Client(port, token, stop, ask_every, f"127.0.0.{10 + i % 240}") for i in range(clients)]
        for c in followers:
            c.start()
        for c in followers:
            c.connected.wait(30)
        committed: dict[int, float] = {}
        memory = [served.threads_and_memory(proc.pid)[1]]
        begin = time.monotonic()
        n = 0
        for n in range(1, round(seconds / every) + 1):  # every deal is entered, however slow the machine
            deals_app.enter(conn, deals_app.typed_deal(session, **DEALS[n % len(DEALS)]), session.id)
            committed[n] = time.monotonic()
            memory.append(served.threads_and_memory(proc.pid)[1])
            time.sleep(max(0.0, begin + n * every - time.monotonic()))
        deadline = time.monotonic() + 60  # the last deals on their way (reached only when one is lost)
        while time.monotonic() < deadline and not all(len(c.arrivals) >= n for c in followers):
            time.sleep(0.05)
        memory.append(served.threads_and_memory(proc.pid)[1])
        stop.set()
        conn.close()
        err = served.stop(proc)
        for c in followers:
            for t in c.threads:
                t.join(5)
    latencies = [x for c in followers for x in c.latencies]
    delays = [c.arrivals[k] - committed[k] for c in followers for k in committed if k in c.arrivals]
    missed = {i: sorted(set(committed) - c.seen) for i, c in enumerate(followers) if set(committed) - c.seen}
    late = {i: sorted(set(committed) - set(c.arrivals)) for i, c in enumerate(followers)
            if set(committed) - set(c.arrivals)}
    return {
        "clients": clients, "seconds": seconds, "deals": n, "requests": len(latencies),
        "errors": [e for c in followers for e in c.errors],
        "missed": missed, "never_arrived": late,
        "latency_ms": {"median": 1000 * statistics.median(latencies) if latencies else None,
                       "p99": 1000 * served.percentile(latencies, 99), "max": 1000 * max(latencies, default=0)},
        "delivery_ms": {"median": 1000 * statistics.median(delays) if delays else None,
                        "p99": 1000 * served.percentile(delays, 99), "max": 1000 * max(delays, default=0)},
        "rss_kib": {"start": memory[0], "end": memory[-1], "max": max(memory)},
        "server_exit": proc.returncode, "server_stderr": err.strip(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--check", action="store_true", help="exit 1 unless every deal reached every client "
                        "without an error, in flat memory")
    args = parser.parse_args()
    compile_package()
    found = run(args.clients, args.seconds)
    if args.json:
        print(json.dumps(found, indent=2))
    else:
        report(found)
    if args.check:
        failed = held(found)
        print("check:", "; ".join(failed) if failed else "held")
        raise SystemExit(1 if failed else 0)


def held(found: dict) -> list[str]:
    """What the run failed of what does not depend on the machine's speed."""
    failed = []
    if found["errors"]:
        failed.append(f"{len(found['errors'])} errors, the first: {found['errors'][0]}")
    if found["missed"] or found["never_arrived"]:
        failed.append(f"deals missed: {found['missed']}, never arrived: {found['never_arrived']}")
    if found["requests"] <= found["clients"]:
        failed.append(f"only {found['requests']} requests")
    if found["rss_kib"]["end"] - found["rss_kib"]["start"] >= 64 * 1024:
        failed.append(f"the server's memory grew from {found['rss_kib']['start']} to {found['rss_kib']['end']} KiB")
    if found["server_exit"] != 0 or found["server_stderr"]:
        failed.append(f"the server ended with {found['server_exit']}: {found['server_stderr']}")
    return failed


def report(found: dict) -> None:
    """The figures, as a person reads them."""
    lat, dly, mem = found["latency_ms"], found["delivery_ms"], found["rss_kib"]
    print(f"{found['clients']} clients, {found['seconds']:g} s, {found['deals']} deals, {found['requests']} requests")
    print(f"errors: {len(found['errors'])}  deals missed by any client: {sum(map(len, found['missed'].values()))}")
    print(f"response time: median {lat['median']:.1f} ms, p99 {lat['p99']:.1f} ms, max {lat['max']:.1f} ms")
    print(f"deal to client: median {dly['median']:.0f} ms, p99 {dly['p99']:.0f} ms, max {dly['max']:.0f} ms")
    print(f"server memory: {mem['start'] / 1024:.1f} MiB at the first deal, {mem['end'] / 1024:.1f} MiB at the end "
          f"(max {mem['max'] / 1024:.1f} MiB); exit status {found['server_exit']}")


if __name__ == "__main__":
    main()
