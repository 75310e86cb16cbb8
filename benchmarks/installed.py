"""What the benchmarks time: the installed program as a user has it.

The console scripts beside this Python (not a version manager's shims, which add their own
start-up), and the package's bytecode compiled, as `pip install` does: an editable install
under PYTHONDONTWRITEBYTECODE would otherwise compile every module on every start.
"""

from __future__ import annotations

import compileall
import os
import resource
import shutil
import subprocess
import sys
import sysconfig
import time
from pathlib import Path


def script(name: str) -> str:
    """The console script installed beside this Python, else the first on PATH."""
    beside = Path(sysconfig.get_path("scripts")) / name
    found = str(beside) if beside.is_file() else shutil.which(name)
    if found is None:
        sys.exit(f"{name} is not installed; run `pip install .` first")
    return found


def compile_package() -> None:
    import boston_ledger

    compileall.compile_dir(Path(boston_ledger.__file__).parent, quiet=1)


def measured(cmd: list[str], env: dict[str, str], ok: tuple[int, ...] = (0,)) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user and system, its own children included) of one whole
    command. CPU time moves less than wall time when other work shares the machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in ok:
        sys.exit(f"{' '.join(cmd)} failed: {done.stderr.decode().strip()}")
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def home_ledger(home: Path) -> Path:
    """The default ledger of a user whose home folder is `home` (as `store.db.app_dir` finds it on
    Linux, with no $XDG_CONFIG_HOME)."""
    return home / ".config" / "boston-ledger" / "ledger.db"


def at_home(home: Path) -> dict[str, str]:
    """The environment of a user whose home folder is `home`: no --db, no $BOSTON_LEDGER_DB."""
    env = {k: v for k, v in os.environ.items() if k not in ("BOSTON_LEDGER_DB", "XDG_CONFIG_HOME",
                                                             "BOSTON_LEDGER_SESSION")}
    return {**env, "HOME": str(home), "COLUMNS": "100"}
