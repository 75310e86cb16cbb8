"""Faults at deterministic points, for the tests: boston-ledger run in a child process that stops
itself at the k-th point of a kind and says so, so that the test can SIGKILL it exactly there
(or let it go on), or that dies as a write crosses a byte offset of a file.

Kinds of point:

* "io": each call of the `os` functions by which boston-ledger writes files itself (open,
  write, fsync, link, rename, mkdir...), and each file it opens with the built-in `open` ("fopen");
* "sql": each SQL statement any of its connections starts (SQLite's trace callback);
* "fsize": no stop; the child's files may not grow past `k` bytes, and it dies by SIGXFSZ at
  the write that would cross that offset (SQLite's own writes included: a torn write);
* "limit": no stop; the child's files may not grow past `k` bytes, and the write that would cross
  that offset fails (EFBIG), as under `ulimit -f` (Python ignores SIGXFSZ).

At its point a child stops itself (SIGSTOP), for the test to kill it, interrupt it (Ctrl-C: SIGINT,
then SIGCONT) or let it go on; or, with `fail=ERRNO`, the call there fails as the system would
say (a full disk: errno.ENOSPC) and the child goes on to handle it. `hide` takes functions out of
the C library as ctypes sees it (an older libc: no renameat2).

Nothing here depends on timing: the parent waits for what the child reports.

The child is the test process forked (`fork`): it has boston_ledger, typer and rich loaded and
typer's command built (conftest.py), where a fresh `python -c` spends some 0.35 s of CPU on
starting and loading typer before a `new` does its 20 ms of work. The forked child makes itself
what a fresh Python would be (its fds, streams, environment, signals, exit) and forgets what the
test process cached (`forget`), so that a command passes the same points in it as in a fresh
one, whatever the test process ran before (test_faults.py holds it to that); `python` runs any
`python -c` program so, its pipes as subprocess.Popen's (the durability writers, the waiting
children). A fresh interpreter
is started instead where a fork could not be one: with `fresh=True`; while the test process holds
a file open for reading (SQLite keeps a process's locks on a file in memory: a child would
inherit the record of locks it does not hold); for a locale that is not UTF-8; and always with
BOSTON_LEDGER_FRESH_CHILDREN=1. While a child is forked no other thread of the test process may
be inside SQLite (a lock of SQLite's taken at that moment would stay taken in the child): a
thread that uses SQLite while another starts children holds FORKING meanwhile, or the test makes
its ledgers before it starts them.

Which points a test tries: a command passes hundreds of SQL statements, and a run of the suite
tries a fixed sample of them (`sample`): the first and the last, the edges of its transactions,
and a few more drawn from every stretch of the range by a seeded random.Random, the same ones
every run. BOSTON_LEDGER_ALL_KILL_POINTS=1 tries every point instead.
"""

from __future__ import annotations

import atexit
import contextlib
import faulthandler
import functools
import gc
import io
import locale
import os
import random
import selectors
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import types
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO, TypeVar

from conftest import interruptible

ALL_POINTS = os.environ.get("BOSTON_LEDGER_ALL_KILL_POINTS", "") not in ("", "0")
FRESH = os.environ.get("BOSTON_LEDGER_FRESH_CHILDREN", "") not in ("", "0")  # every child a fresh interpreter
FORKING = threading.Lock()  # held while a child is forked (see above)
OWN = os.path.join(tempfile.gettempdir(), "faults-")  # the folders of the children's stdout and stderr
WRITE = os.write  # the child's own writes, never points of the harness's "io"
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
if kind in ("fsize", "limit"):
    import resource
    if kind == "fsize":
        signal.signal(signal.SIGXFSZ, signal.SIG_DFL)  # die at the write that crosses the limit
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (k, k))
sys.argv = ["boston-ledger", *sys.argv[7:]]
main()
"""
HARNESS_CODE = compile(HARNESS, "<string>", "exec")

# What the test process cached of tariffs, catalogues and ledgers' schemas (besides the functools
# caches of boston_ledger's modules), and its count of commits: a fresh process starts without.
CACHES = {"boston_ledger.core.i18n": ("_catalogues", "_worders"), "boston_ledger.core.tariff": ("_DERIVED",),
          "boston_ledger.core.tariff_files": ("_TOML", "_LOADED", "_PARSED"),
          "boston_ledger.store.identify": ("_OBJECTS",), "boston_ledger.store.damage": ("_SHAPES",),
          "boston_ledger.store.db": ("_BLANKS",)}
# Python's own warning filters (without -W or PYTHONWARNINGS): pytest's, which record, are not the child's.
WARNINGS: list[tuple[warnings._ActionKind, type[Warning], str]] = [
    ("default", DeprecationWarning, "__main__"), ("ignore", DeprecationWarning, ""),
    ("ignore", PendingDeprecationWarning, ""), ("ignore", ImportWarning, ""), ("ignore", ResourceWarning, "")]


class Forked:
    """A child forked from the test process: what the tests use of subprocess.Popen (its standard
    streams, where they are pipes, as text: `stdin`, `stdout`, `stderr`)."""

    def __init__(self, pid: int, stdin: TextIO | None = None, stdout: TextIO | None = None,
                 stderr: TextIO | None = None) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self.parent = os.getpid()
        self.stdin, self.stdout, self.stderr = stdin, stdout, stderr

    def wait(self) -> int:
        if self.returncode is None:
            __, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def communicate(self, timeout: float | None = None) -> tuple[str, str]:
        """Its stdout and stderr read to their ends, once it has ended: as Popen.communicate (what
        its pipes hold, not what a readline() read ahead)."""
        if self.stdin is not None:
            self.stdin.close()
        said: dict[int, list[bytes]] = {pipe.fileno(): [] for pipe in (self.stdout, self.stderr) if pipe is not None}
        deadline = None if timeout is None else time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            for fd in said:
                selector.register(fd, selectors.EVENT_READ)
            while selector.get_map():
                ready = selector.select(None if deadline is None else max(0.0, deadline - time.monotonic()))
                if not ready:
                    raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout or 0.0)
                for key, __ in ready:
                    if chunk := os.read(key.fd, 65536):
                        said[key.fd].append(chunk)
                    else:
                        selector.unregister(key.fd)
        self.wait()
        texts = [b"".join(said[pipe.fileno()]).decode().replace("\r\n", "\n").replace("\r", "\n")
                 if pipe is not None else "" for pipe in (self.stdout, self.stderr)]
        for pipe in (self.stdout, self.stderr):
            if pipe is not None:
                pipe.close()
        return texts[0], texts[1]

    def __del__(self) -> None:  # a test that failed while its child was stopped leaves no process behind
        if self.returncode is None and os.getpid() == self.parent:
            with contextlib.suppress(OSError):
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)


@dataclass
class Child:
    """A boston-ledger run under the harness."""

    process: subprocess.Popen | Forked
    said: str  # "stopped K WHAT", "failed K WHAT" or "done N NAMES" (the points it passed), or "" if it died silently
    out: Path
    err: Path
    copying: tuple[threading.Thread, ...] = ()  # its stdout and stderr into `out` and `err` ("limit")

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
          hide: Sequence[str] = (), fresh: bool = False, stdout: int | None = None) -> Child:
    """Run `boston-ledger ARGS` under the harness; with `wait`, return once it has stopped at
    point k of `kind` (then it waits, stopped, for kill(), interrupt() or resume()) or has ended.
    With `fail`, the call at point k fails with that errno instead, and the child goes on. The
    child is the test process forked, or with `fresh` a fresh interpreter; its standard output
    goes to a file (`Child.stdout`), or to the caller's file descriptor `stdout` (a pipe)."""
    report_r, report_w = os.pipe()
    folder = Path(tempfile.mkdtemp(prefix="faults-"))
    out, err = folder / "out", folder / "err"
    fds = (report_w,) if barrier < 0 else (report_w, barrier)
    argv = [kind, str(k), str(report_w), str(barrier), str(fail), ",".join(hide), *args]
    environ = environ or env()
    process: subprocess.Popen | Forked
    copying: tuple[threading.Thread, ...] = ()
    with FORKING:
        if kind == "limit":  # its files may not grow: its output goes through pipes (RLIMIT_FSIZE is for files)
            (out_r, o), (err_r, e) = os.pipe(), os.pipe()
            copying = (copy(out_r, out), copy(err_r, err))
        else:
            o = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666) if stdout is None \
                else os.dup(stdout)
            e = os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC, 0o666)
        try:
            if fresh or FRESH or not forkable(environ, (o, e)):
                process = subprocess.Popen([sys.executable, "-c", HARNESS, *argv], stdin=subprocess.DEVNULL,
                                           stdout=o, stderr=e, pass_fds=fds, env=environ, cwd=cwd,
                                           preexec_fn=interruptible)  # Ctrl-C heard as a forked child hears it
            else:
                process = Forked(fork(argv, o, e, fds, environ, cwd))
        finally:
            os.close(o)
            os.close(e)
    os.close(report_w)
    child = Child(process, "", out, err, copying)
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
        for thread in child.copying:
            thread.join()
    return child


def copy(pipe: int, path: Path) -> threading.Thread:
    """A thread that copies what comes through the pipe into the file at `path`."""

    def copying() -> None:
        with open(path, "wb") as file:
            while chunk := os.read(pipe, 65536):
                file.write(chunk)
        os.close(pipe)

    thread = threading.Thread(target=copying, daemon=True)
    thread.start()
    return thread


def run(args: list[str], kind: str = "none", k: int = 0, environ: dict[str, str] | None = None,
        fail: int = 0, hide: Sequence[str] = (), fresh: bool = False, stdout: int | None = None) -> Child:
    """Run to the end (a point that is never reached, a point that fails, or an fsize limit)."""
    child = start(args, kind, k, environ, fail=fail, hide=hide, fresh=fresh, stdout=stdout)
    assert not child.stopped
    return child


def python(program: str, args: Sequence[str], environ: dict[str, str] | None = None, stdin: bool = False,
           fresh: bool = False) -> subprocess.Popen | Forked:
    """`python -c PROGRAM ARGS` as subprocess.Popen(..., text=True) runs it, its stdout and stderr
    pipes (`.stdout`, `.stderr`), its stdin one too with `stdin` (else /dev/null): the test process
    forked, or a fresh interpreter where a fork could not be one (as for `start`)."""
    environ = environ or env()
    with FORKING:
        if fresh or FRESH or not forkable(environ, ()):
            return subprocess.Popen([sys.executable, "-c", program, *args], text=True, env=environ,
                                    stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=interruptible)
        (in_r, in_w), (out_r, out_w), (err_r, err_w) = os.pipe() if stdin else (-1, -1), os.pipe(), os.pipe()
        try:
            pid = fork(list(args), out_w, err_w, (), environ, None, compiled(program), stdin=in_r)
        finally:
            for fd in (in_r, out_w, err_w):
                if fd >= 0:
                    os.close(fd)
    return Forked(pid, open(in_w, "w", encoding="utf-8") if stdin else None, open(out_r, encoding="utf-8"),
                  open(err_r, encoding="utf-8"))


@functools.cache
def compiled(program: str) -> types.CodeType:
    return compile(program, "<string>", "exec")


# ---- the child forked ------------------------------------------------------------------------


def forkable(environ: dict[str, str], own: Iterable[int]) -> bool:
    """Whether a child forked with `environ` is what a fresh one would be: the test process holds
    no file open but `own` (SQLite's record of a process's locks on a file would go with the
    fork, the locks themselves not), the locale is a UTF-8 one, and Python's own variables are
    those the test process started with (or ones the child sets up itself)."""
    ctype = environ.get("LC_ALL") or environ.get("LC_CTYPE") or environ.get("LANG") or ""
    if not ctype.lower().replace("-", "").endswith(".utf8"):
        return False
    mine = ("PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED")
    if ({k: v for k, v in environ.items() if k.startswith("PYTHON") and k not in mine}
            != {k: v for k, v in os.environ.items() if k.startswith("PYTHON") and k not in mine}):
        return False
    if holding(own):  # a connection the test dropped, that the cycle collector has not closed yet
        gc.collect()  # (sqlite3's holds its cache of statements in a cycle)
        return not holding(own)
    return True


def holding(own: Iterable[int]) -> bool:
    """Whether the test process holds a file open for reading (besides `own`); on a system
    without /proc/self/fd, always."""
    try:
        names = os.listdir("/proc/self/fd")
    except OSError:
        return True
    for name in names:
        if int(name) in own:
            continue
        try:
            found = os.stat(f"/proc/self/fd/{name}")
        except OSError:  # the listing's own
            continue
        if (stat.S_ISREG(found.st_mode) and found.st_nlink > 0  # pytest's capture files are unlinked
                and not os.readlink(f"/proc/self/fd/{name}").startswith(OWN) and readable(name)):
            return True
    return False


def readable(fd: str) -> bool:
    """Whether the file descriptor is open for reading (SQLite's are; the file that pytest's output
    was sent to, `pytest > log`, is not)."""
    try:
        with open(f"/proc/self/fdinfo/{fd}", encoding="ascii") as info:
            flags = next(line for line in info if line.startswith("flags:")).split()[1]
    except (OSError, StopIteration):
        return True
    return int(flags, 8) & os.O_ACCMODE != os.O_WRONLY


def fork(argv: list[str], out: int, err: int, keep: Sequence[int], environ: dict[str, str],
         cwd: Path | None, program: types.CodeType = HARNESS_CODE, stdin: int = -1) -> int:
    """The harness (or another `python -c` program) run with `argv` in a fork of the test
    process, its output into `out` and `err`, its input from `stdin` (or /dev/null); the child's
    pid."""
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            # What the test process made is never collected here: a finalizer would close its
            # file descriptors (numbers this child reuses) and its SQLite connections.
            gc.freeze()
            fresh_process(out, err, keep, environ, cwd, stdin)
            code = harnessed(argv, program)
        except BaseException:  # whatever happens, the child never returns into pytest
            with contextlib.suppress(BaseException):
                WRITE(2, traceback.format_exc().encode(errors="backslashreplace"))
        finally:
            os._exit(code)
    return pid


def fresh_process(out: int, err: int, keep: Sequence[int], environ: dict[str, str], cwd: Path | None,
                  stdin: int = -1) -> None:
    """The forked child made what `python -c` would start as (its input `stdin`, or /dev/null)."""
    signal.pthread_sigmask(signal.SIG_SETMASK, ())
    for sig in signal.valid_signals():  # as Python sets them at its start
        if sig not in (signal.SIGKILL, signal.SIGSTOP):
            handler = {signal.SIGINT: signal.default_int_handler, signal.SIGPIPE: signal.SIG_IGN,
                       signal.SIGXFSZ: signal.SIG_IGN}.get(sig, signal.SIG_DFL)
            with contextlib.suppress(OSError, ValueError):  # those it may not set
                signal.signal(sig, handler)
    faulthandler.disable()
    os.dup2(os.open(os.devnull, os.O_RDONLY) if stdin < 0 else stdin, 0)
    os.dup2(out, 1)
    os.dup2(err, 2)
    # Only these stay open: the test process's others (another child's report pipe, forked by
    # another thread meanwhile, which its `settle` reads to the end; its ledgers) are not ours.
    kept = {0, 1, 2, *keep}
    for name in os.listdir("/proc/self/fd"):
        if int(name) not in kept:
            with contextlib.suppress(OSError):  # the listing's own, closed already
                os.close(int(name))
    unbuffered = bool(environ.get("PYTHONUNBUFFERED"))

    def stream(fd: int, name: str, errors: str) -> io.TextIOWrapper:  # as Python makes sys.stdin... for a file
        raw = io.FileIO(fd, "rb" if fd == 0 else "wb", closefd=False)
        raw.name = name  # type: ignore[misc]
        buffered: io.RawIOBase | io.BufferedIOBase = (raw if unbuffered and fd else io.BufferedReader(raw) if fd == 0
                                                      else io.BufferedWriter(raw))
        text = io.TextIOWrapper(buffered, encoding="utf-8", errors=errors, newline="\n",  # type: ignore[arg-type]
                                write_through=unbuffered and fd > 0)
        text.mode = "r" if fd == 0 else "w"  # type: ignore[misc]
        return text

    sys.stdin = sys.__stdin__ = stream(0, "<stdin>", "strict")
    sys.stdout = sys.__stdout__ = stream(1, "<stdout>", "strict")
    sys.stderr = sys.__stderr__ = stream(2, "<stderr>", "backslashreplace")
    os.environ.clear()
    os.environ.update(environ)
    time.tzset()
    with contextlib.suppress(locale.Error):  # as Python sets it at its start
        locale.setlocale(locale.LC_CTYPE, "")
    if cwd is not None:
        os.chdir(cwd)
    sys.dont_write_bytecode = bool(environ.get("PYTHONDONTWRITEBYTECODE"))
    sys.excepthook, sys.unraisablehook = sys.__excepthook__, sys.__unraisablehook__
    threading.excepthook = threading.__excepthook__
    warnings.resetwarnings()
    for action, category, module in WARNINGS:
        warnings.filterwarnings(action, category=category, module=module, append=True)
    warnings.showwarning = show_warning
    warnings._showwarnmsg_impl = lambda m: show_warning(m.message, m.category, m.filename, m.lineno)  # type: ignore[attr-defined]
    atexit._clear()  # the test process's
    forget()
    gc.enable()


def show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                 file: object = None, line: str | None = None) -> None:
    """A warning on stderr, as Python says it."""
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


def forget() -> None:
    """What the test process cached or last spoke, forgotten: a command in the child opens the
    files and passes the SQL statements a fresh process would, whatever the test process ran
    before."""
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] == "boston_ledger" and module is not None:
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)) and getattr(value, "__module__", None) == name:
                    value.cache_clear()
            for cache in CACHES.get(name, ()):
                getattr(module, cache).clear()
    if "boston_ledger.store.db" in sys.modules:
        sys.modules["boston_ledger.store.db"]._commits = 0
    if "gettext" in sys.modules:
        sys.modules["gettext"]._translations.clear()  # its catalogues, read once per process
    if "boston_ledger.core.i18n" in sys.modules:  # the language and words this thread spoke last
        i18n = sys.modules["boston_ledger.core.i18n"]
        i18n.set_language(i18n.SOURCE)
        i18n.speak_words(None)


def harnessed(argv: list[str], program: types.CodeType = HARNESS_CODE) -> int:
    """The harness (or another `python -c` program) run in this (forked) process as `python -c
    HARNESS ARGV` would run it; the exit status Python would end with (the caller ends the
    process)."""
    sys.argv = ["-c", *argv]
    interrupted = False
    try:
        sys.modules["__main__"] = main = types.ModuleType("__main__")  # click names a program by it
        exec(program, vars(main))
        code = 0
    except SystemExit as exit:
        if exit.code is None or isinstance(exit.code, int):
            code = exit.code or 0
        else:
            print(exit.code, file=sys.stderr)
            code = 1
    except BaseException as error:  # said as Python says it
        traceback.print_exception(error)
        interrupted, code = isinstance(error, KeyboardInterrupt), 1
    atexit._run_exitfuncs()
    try:
        sys.stdout.flush()
    except Exception:  # Python ends with 120 when it cannot flush stdout
        print(f"Exception ignored in: {sys.stdout!r}", file=sys.stderr)
        traceback.print_exc()
        code = 120
    with contextlib.suppress(Exception):
        sys.stderr.flush()
    if interrupted:  # Python ends by SIGINT itself after an uncaught KeyboardInterrupt
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGINT)
    return code


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
