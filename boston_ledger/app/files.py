"""Files the commands write for people (exports, charts, tariff copies): each is written whole
beside its place, then renamed over it, so that a reader never meets half of one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Callable, TextIO


def umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(path: Path, write: Callable[[TextIO], None], newline: str | None = None) -> None:
    """Write `path` with `write(file)`: into a temporary file in the same folder, then renamed
    over it (a symlink there is replaced, not followed). An ordinary file as the umask allows;
    on any failure the temporary file is removed and `path` is as it was."""
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline, buffering=1 << 20) as f:
            write(f)
        os.chmod(tmp, 0o666 & ~umask())  # an ordinary file, not mkstemp's private one
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
