"""Hostile clients against `boston-ledger serve`: one address holds many half-open, trickling
sockets and event streams while a client from another address reads the evening.

Run: python benchmarks/serve_hostile.py [--sockets 1000] [--streams 100] [--seconds 30] [--json]

The server runs as the installed program (`boston-ledger serve --port 0`, on 127.0.0.1) over the
default ledger of a throw-away home folder, with a short evening; all traffic stays on the
loopback. From 127.0.0.1 the attacker opens --sockets connections, each sending half a request
head and then a byte every 5 s, and --streams event streams with the token; once a second it
opens again whatever the server closed (the server answers all but one address's share at once
with 503, streams beyond it with 429, and closes a head that is not whole within its deadline).
Meanwhile a client from 127.0.0.2 asks for the page and /api/status in turn every half second,
each on a connection of its own. Reported: that client's response times (median, p99, max) and
failures, the server's threads and resident memory sampled every half second (before, during,
and a few seconds after the attacker stops: recovery), and how many sockets and streams the
attacker held at the end.
"""

from __future__ import annotations

import argparse
import json
import resource
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
from contextlib import suppress
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import served
from installed import compile_package, home_ledger

ATTACKER, CLIENT = "127.0.0.1", "127.0.0.2"


class Attacker:
    """Half-open sockets and event streams from one address, kept up as the server lets them go."""

    def __init__(self, port: int, token: str, sockets: int, streams: int) -> None:
        self.port, self.token, self.want = port, token, {"slow": sockets, "stream": streams}
        self.open: dict[socket.socket, str] = {}
        self.held = {"slow": 0, "stream": 0}  # answered 200 (streams) or not answered at all (slow)
        self.selector = selectors.DefaultSelector()
        self.stop = threading.Event()
        self.opened = 0

    def connect(self, kind: str) -> None:
        s = socket.socket()
        s.setblocking(False)
        s.bind((ATTACKER, 0))
        try:
            s.connect(("127.0.0.1", self.port))
        except BlockingIOError:
            pass
        except OSError:
            s.close()
            return
        self.open[s] = kind
        self.selector.register(s, selectors.EVENT_WRITE, "connecting")
        self.opened += 1

    def first_bytes(self, s: socket.socket) -> None:
        kind = self.open[s]
        head = (f"GET /events?t={self.token} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" if kind == "stream"
                else "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        try:
            s.send(head.encode())
        except OSError:
            self.drop(s)
            return
        self.selector.modify(s, selectors.EVENT_READ, "reading")

    def drop(self, s: socket.socket) -> None:
        with suppress(KeyError, ValueError):
            self.selector.unregister(s)
        self.open.pop(s, None)
        s.close()

    def run(self) -> None:
        last_trickle = last_fill = 0.0
        answered: dict[socket.socket, bytes] = {}
        while not self.stop.is_set():
            now = time.monotonic()
            if now - last_fill >= 1.0:
                last_fill = now
                counts = {"slow": 0, "stream": 0}
                for kind in self.open.values():
                    counts[kind] += 1
                for kind, want in self.want.items():
                    for __ in range(want - counts[kind]):
                        self.connect(kind)
            if now - last_trickle >= 5.0:
                last_trickle = now
                for s, kind in list(self.open.items()):
                    if kind == "slow":
                        with suppress(BlockingIOError, OSError):
                            s.send(b"a")
            for key, __ in self.selector.select(0.2):
                s = key.fileobj
                if key.data == "connecting":
                    if s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                        self.drop(s)
                    else:
                        self.first_bytes(s)
                    continue
                try:
                    data = s.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    answered.pop(s, None)
                    self.drop(s)
                    continue
                seen = answered.setdefault(s, b"")
                if len(seen) < 64:
                    answered[s] = seen + data[:64]
                if not answered[s].startswith(b"HTTP/1.1 200"):  # refused: let it go, open another
                    answered.pop(s, None)
                    self.drop(s)
        self.held = {"slow": sum(1 for s, k in self.open.items() if k == "slow" and s not in answered),
                     "stream": sum(1 for s, k in self.open.items() if k == "stream" and s in answered)}
        for s in list(self.open):
            self.drop(s)


def ask(port: int, target: str) -> tuple[int, float]:
    start = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=30, source_address=(CLIENT, 0)) as s:
        s.sendall(f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode())
        chunks = []
        while chunk := s.recv(65536):
            chunks.append(chunk)
    answer = b"".join(chunks)
    return int(answer.split(b" ", 2)[1]) if answer else 0, time.monotonic() - start


def run(sockets: int = 1000, streams: int = 100, seconds: float = 30) -> dict:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, sockets + streams + 256)), hard))
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from decimal import Decimal

    from boston_ledger.app import deals as deals_app
    from boston_ledger.app import sessions as sessions_app
    from boston_ledger.core.tariff_files import load
    from boston_ledger.store.db import open_db

    with tempfile.TemporaryDirectory(prefix="boston-ledger-hostile-") as tmp:
        home = Path(tmp) / "home"
        db = home_ledger(home)
        db.parent.mkdir(parents=True)
        conn = open_db(db, create=True)
        session = sessions_app.new(conn, ["Anna", "Boris", "Vera", "Gleb"], load("classic", ()), Decimal("0.10"), "")
        deals_app.enter(conn, deals_app.typed_deal(session, contract="junior", declarer="Boris", partner="Gleb",
                                                   tricks="5", partner_tricks="3"), session.id)
        conn.close()
        proc, port, token = served.start(home)
        targets = [f"/?t={token}", f"/api/status?t={token}"]
        time.sleep(1.0)
        before = served.threads_and_memory(proc.pid)

        attacker = Attacker(port, token, sockets, streams)
        attacking = threading.Thread(target=attacker.run, daemon=True)
        attacking.start()
        samples: list[tuple[int, int]] = []
        latencies: list[float] = []
        failures: list[str] = []
        begin = time.monotonic()
        i = 0
        while time.monotonic() - begin < seconds:
            target = targets[i % 2]
            i += 1
            try:
                code, took = ask(port, target)
                latencies.append(took)
                if code != 200:
                    failures.append(f"{target.split('?')[0]}: {code}")
            except OSError as e:
                failures.append(f"{target.split('?')[0]}: {type(e).__name__}: {e}")
            samples.append(served.threads_and_memory(proc.pid))
            time.sleep(0.5)
        attacker.stop.set()
        attacking.join(30)
        time.sleep(3.0)  # a head's deadline is 10 s, a stream's look 1 s: the held ones are gone by now?
        after_3s = served.threads_and_memory(proc.pid)
        time.sleep(8.0)
        after_11s = served.threads_and_memory(proc.pid)
        recovered = [ask(port, t)[0] for t in targets]
        err = served.stop(proc)
    return {
        "sockets": sockets, "streams": streams, "seconds": seconds, "connections_opened": attacker.opened,
        "held_at_end": attacker.held, "requests": len(latencies), "failures": failures,
        "latency_ms": {"median": 1000 * statistics.median(latencies) if latencies else None,
                       "p99": 1000 * served.percentile(latencies, 99), "max": 1000 * max(latencies, default=0)},
        "threads": {"before": before[0], "median": statistics.median(s[0] for s in samples),
                    "max": max(s[0] for s in samples), "3s_after": after_3s[0], "11s_after": after_11s[0]},
        "rss_mib": {"before": before[1] / 1024, "median": statistics.median(s[1] for s in samples) / 1024,
                    "max": max(s[1] for s in samples) / 1024, "3s_after": after_3s[1] / 1024,
                    "11s_after": after_11s[1] / 1024},
        "recovered": recovered, "server_exit": proc.returncode, "server_stderr": err.strip(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    compile_package()
    found = run(args.sockets, args.streams, args.seconds)
    if args.json:
        print(json.dumps(found, indent=2))
        return
    lat, thr, mem = found["latency_ms"], found["threads"], found["rss_mib"]
    print(f"{found['sockets']} half-open sockets and {found['streams']} event streams from {ATTACKER} for "
          f"{found['seconds']:g} s ({found['connections_opened']} connections opened); held at the end: "
          f"{found['held_at_end']['slow']} sockets, {found['held_at_end']['stream']} streams")
    print(f"{CLIENT}: {found['requests']} requests, {len(found['failures'])} failed; response time median "
          f"{lat['median']:.1f} ms, p99 {lat['p99']:.1f} ms, max {lat['max']:.1f} ms")
    print(f"server threads: {thr['before']} before, median {thr['median']:g}, max {thr['max']} during, "
          f"{thr['3s_after']} 3 s and {thr['11s_after']} 11 s after")
    print(f"server memory: {mem['before']:.1f} MiB before, median {mem['median']:.1f}, max {mem['max']:.1f} MiB "
          f"during, {mem['3s_after']:.1f} MiB 3 s and {mem['11s_after']:.1f} MiB 11 s after")
    print(f"after: page and status {found['recovered']}; exit status {found['server_exit']}"
          + (f"; stderr: {found['server_stderr']}" if found["server_stderr"] else ""))


if __name__ == "__main__":
    main()
