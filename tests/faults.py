"""Faults at deterministic points, for the tests: boston-ledger run in a child process that stops
itself at the k-th point of a kind and says so, so that the test can SIGKILL it exactly there
(or let it go on), or that dies as a write crosses a byte offset of a file.

Kinds of point:

* "io": each call of the `os` functions by which boston-ledger writes files itself (open,
  write, fsync, link, rename, mkdir...), and each file it opens with the built-in `open` ("fopen");
* "sql": each SQL statement any of its connections starts (SQLite's trace callback);
* "fsize": no stop; the child's files may not grow past `k` bytes, and it dies by SIGXFSZ at
  the write that would cross that offset (SQLite's own writes included: a torn write).

At its point a child stops itself (SIGSTOP), for the test to kill it, interrupt it (Ctrl-C: SIGINT,
then SIGCONT) or let it go on; or, with `fail=ERRNO`, the call there fails as the system would
say (a full disk: errno.ENOSPC) and the child goes on to handle it. `hide` takes functions out of
the C library as ctypes sees it (an older libc: no renameat2).

Nothing here depends on timing: the parent waits for what the child reports.

Which points a test tries: a command passes hundreds of SQL statements, and a run of the suite
tries a fixed sample of them (`sample`): the first and the last, the edges of its transactions,
and a few more drawn from every stretch of the range by a seeded random.Random, the same ones
every run. BOSTON_LEDGER_ALL_KILL_POINTS=1 tries every point instead.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

ALL_POINTS = os.environ.get("BOSTON_LEDGER_ALL_KILL_POINTS", "") not in ("", "0")
T = TypeVar("T")

HARNESS = r"""
import atexit, builtins, os, signal, sqlite3, sys
kind, k, report, barrier = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
fail, hide = int(sys.argv[5]), [name for name in sys.argv[6].split(",") if name]
count = 0
names = []
say = os.write  # the harness's own writes are no points

def reached(what):
    global count
    count += 1
    names.append(what.replace(" ", "_"))
    if count == k and fail:
        say(report, f"failed {count} {what}\n".encode())
        raise OSError(fail, os.strerror(fail))
    if count == k:
        say(report, f"stopped {count} {what}\n".encode())
        os.kill(os.getpid(), signal.SIGSTOP)

atexit.register(lambda: say(report, f"done {count} {' '.join(names)}\n".encode()))
if kind == "io":
    for name in ("open", "write", "fsync", "link", "unlink", "mkdir", "rmdir", "rename", "replace"):
        def hooked(*a, _original=getattr(os, name), _name=name, **kw):
            reached(_name)
            return _original(*a, **kw)
        setattr(os, name, hooked)
    def fopen(*a, _original=builtins.open, **kw):
        reached("fopen")
        return _original(*a, **kw)
    builtins.open = fopen
elif kind == "sql":
    connect = sqlite3.connect
    def traced(*a, **kw):
        conn = connect(*a, **kw)
        conn.set_trace_callback(lambda statement: reached(" ".join(statement.split()[:3])))
        return conn
    sqlite3.connect = traced
if hide:
    import ctypes
    class CDLL(ctypes.CDLL):
        def __getattr__(self, name):
            if name in hide:
                raise AttributeError(name)
            return super().__getattr__(name)
    ctypes.CDLL = CDLL
if barrier >= 0:
    os.read(barrier, 1)  # every child of a race is released at once, when the test closes the pipe
from boston_ledger.cli.main import main
if kind == "fsize":
    import resource
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # die at the write that crosses the limit
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (k, k))
sys.argv = ["boston-ledger", *sys.argv[7:]]
main()
"""


@dataclass
class Child:
    """A boston-ledger run under the harness."""

    process: subprocess.Popen
    said: str  # "stopped K WHAT", "failed K WHAT" or "done N NAMES" (the points it passed), or "" if it died silently
    out: Path
    err: Path

    @property
    def stopped(self) -> bool:
        return self.said.startswith("stopped")

    @property
    def points(self) -> int:
        return int(self.said.split()[1]) if self.said else 0

    def point(self, name: str, after: str | None = None) -> int:
        """The number of the first point of that name it passed (on "done"), or the first one
        after the first point named `after`."""
        names = self.said.split()[2:]
        start = 0 if after is None else names.index(after) + 1
        return names.index(name, start) + 1

    def kill(self) -> int:
        """SIGKILL it where it stopped."""
        self.process.send_signal(signal.SIGKILL)
        code = self.process.wait()
        os.close(self.report)  # type: ignore[attr-defined]
        return code

    def resume(self) -> int:
        """Let it go on to its end."""
        self.process.send_signal(signal.SIGCONT)
        settle(self)
        return self.process.returncode

    def interrupt(self) -> int:
        """Ctrl-C where it stopped (SIGINT, then let it go on to handle it)."""
        self.process.send_signal(signal.SIGINT)
        return self.resume()

    @property
    def stdout(self) -> str:
        return self.out.read_text(encoding="utf-8", errors="replace")

    @property
    def stderr(self) -> str:
        return self.err.read_text(encoding="utf-8", errors="replace")


def env(db: Path | None = None, **extra: str) -> dict[str, str]:
    out = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "LANG": "C.UTF-8", **extra}
    out.pop("LC_ALL", None)
    if db is not None:
        out["BOSTON_LEDGER_DB"] = str(db)
    return out


def start(args: list[str], kind: str = "none", k: int = 0, environ: dict[str, str] | None = None,
          barrier: int = -1, cwd: Path | None = None, wait: bool = True, fail: int = 0,
          hide: Sequence[str] = ()) -> Child:
    """Run `boston-ledger ARGS` under the harness; with `wait`, return once it has stopped at
    point k of `kind` (then it waits, stopped, for kill(), interrupt() or resume()) or has ended.
    With `fail`, the call at point k fails with that errno instead, and the child goes on."""
    report_r, report_w = os.pipe()
    folder = Path(tempfile.mkdtemp(prefix="faults-"))
    out, err = folder / "out", folder / "err"
    fds = (report_w,) if barrier < 0 else (report_w, barrier)
    with open(out, "wb") as o, open(err, "wb") as e:
        process = subprocess.Popen([sys.executable, "-c", HARNESS, kind, str(k), str(report_w), str(barrier),
                                    str(fail), ",".join(hide), *args],
                                   stdin=subprocess.DEVNULL, stdout=o, stderr=e, pass_fds=fds,
                                   env=environ or env(), cwd=cwd)
    os.close(report_w)
    child = Child(process, "", out, err)
    child.report = report_r  # type: ignore[attr-defined]
    if wait:
        settle(child)
    return child


def settle(child: Child) -> Child:
    """Wait until the child has stopped at its point or ended."""
    said = b""
    while not said.endswith(b"\n"):
        chunk = os.read(child.report, 65536)  # type: ignore[attr-defined]
        if not chunk:
            break
        said += chunk
    child.said = said.decode().strip()
    if child.stopped:  # said, and stopped indeed: a SIGCONT sent before its SIGSTOP lands would be lost
        os.waitid(os.P_PID, child.process.pid, os.WSTOPPED | os.WNOWAIT)
    else:
        child.process.wait()
        os.close(child.report)  # type: ignore[attr-defined]
    return child


def run(args: list[str], kind: str = "none", k: int = 0, environ: dict[str, str] | None = None,
        fail: int = 0, hide: Sequence[str] = ()) -> Child:
    """Run to the end (a point that is never reached, a point that fails, or an fsize limit)."""
    child = start(args, kind, k, environ, fail=fail, hide=hide)
    assert not child.stopped
    return child


def sample(points: Sequence[T], size: int, seed: int, edges: Iterable[T] = ()) -> list[T]:
    """The points a run tries, in their order: the first and the last, the `edges` among them, and
    one point drawn by random.Random(seed) from each of `size` equal stretches of the rest; every
    point with BOSTON_LEDGER_ALL_KILL_POINTS=1."""
    points = list(points)
    if ALL_POINTS or len(points) <= size + 2:
        return points
    edges = set(edges)
    chosen = {0, len(points) - 1} | {i for i, p in enumerate(points) if p in edges}
    rest = [i for i in range(len(points)) if i not in chosen]
    rng = random.Random(seed)
    for n in range(min(size, len(rest))):
        stretch = rest[n * len(rest) // size:(n + 1) * len(rest) // size]
        if stretch:
            chosen.add(rng.choice(stretch))
    return [points[i] for i in sorted(chosen)]


def around(child: Child, *names: str, by: int = 1) -> set[int]:
    """The points (numbers) of a run to its end whose name begins with one of `names` (BEGIN,
    COMMIT...), and those up to `by` before and after each."""
    said = child.said.split()[2:]
    return {k + d for k, name in enumerate(said, 1) if name.startswith(names) for d in range(-by, by + 1)
            if 1 <= k + d <= len(said)}
