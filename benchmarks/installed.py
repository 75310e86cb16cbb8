"""What the benchmarks time: the installed program as a user has it.

The console scripts beside this Python (not a version manager's shims, which add their own
start-up), and the package's bytecode compiled, as `pip install` does: an editable install
under PYTHONDONTWRITEBYTECODE would otherwise compile every module on every start.
"""

from __future__ import annotations

import compileall
import shutil
import sys
import sysconfig
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
