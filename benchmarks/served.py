"""The installed `boston-ledger serve` as the benchmarks of the evening page run it: started on a
free port of 127.0.0.1, on the default ledger of a home folder (as a user has it), with its link
read, its threads and memory looked at, stopped as Ctrl-C stops it."""

from __future__ import annotations

import re
import signal
import subprocess
import threading
from pathlib import Path

from installed import at_home, script

LINK = re.compile(r"http://127\.0\.0\.1:(?P<port>\d+)/\?t=(?P<token>[A-Za-z0-9_-]+)")


def start(home: Path) -> tuple[subprocess.Popen, int, str]:
    """`serve --port 0` on the default ledger of the home folder `home`: the process, its port and
    its token."""
    env = {**at_home(home), "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8"}
    proc = subprocess.Popen([script("boston-ledger"), "serve", "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert proc.stdout is not None
    found = LINK.search(proc.stdout.readline())
    if found is None:
        proc.kill()
        raise SystemExit(f"serve did not print its link: {proc.communicate()}")
    threading.Thread(target=proc.stdout.read, daemon=True).start()  # the QR code and the rest
    return proc, int(found["port"]), found["token"]


def stop(proc: subprocess.Popen) -> str:
    """Ctrl-C to the server; what it wrote on stderr (killed if it has not ended within 30 s)."""
    proc.send_signal(signal.SIGINT)
    try:
        __, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        __, err = proc.communicate()
    return err


def threads_and_memory(pid: int) -> tuple[int, int]:
    """A process's threads and resident memory (KiB)."""
    threads = rss = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Threads:"):
            threads = int(line.split()[1])
        elif line.startswith("VmRSS:"):
            rss = int(line.split()[1])
    return threads, rss


def percentile(values: list[float], p: float) -> float:
    """The p-th percentile of `values` by the nearest rank (NaN for none)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))] if ordered else float("nan")
