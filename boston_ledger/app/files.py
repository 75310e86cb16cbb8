"""Files the commands write for people (exports, charts, tariff copies), the one place that does.

A file is written whole beside its place, then renamed over it, and only over an ordinary file
(never over a pipe, a device or a socket); a set of files (an export) is written whole into a
new folder beside its place, then swapped in with one rename. A reader
meets the old file or set, or the new one: never half of one, never a mix. A symlink at the
destination is replaced or refused, never followed; files and folders get the modes the umask
allows; whatever fails (a full disk, Ctrl-C) leaves the destination as it was and no temporary
file behind (one killed outright leaves its temporary folder, which the next export beside it
removes).
"""

from __future__ import annotations

import errno
import os
import re
import signal
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TextIO

from ..core.errors import LedgerError
from ..core.i18n import _, strerror


def umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _fill(file: int | Path, write: Callable[[TextIO], object], newline: str | None) -> None:
    """`write(f)` into an open descriptor, or into a new file (never an existing one, never
    through a symlink) made as the umask allows."""
    with open(file, "w" if isinstance(file, int) else "x", encoding="utf-8", newline=newline,
              buffering=1 << 20) as f:
        write(f)


def ordinary(path: Path) -> None:
    """Refuse (LedgerError) a `path` that is there and is not an ordinary file, itself or where a
    symlink there leads: a folder, a pipe, a device, a socket. Renaming a file over one of those
    would put a regular file in its place (a FIFO, /dev/stdout, a system's device entry as root)."""
    try:
        st = os.stat(path)  # through a symlink: what it leads to (stat opens nothing)
    except FileNotFoundError:  # nothing there, or a symlink to nothing: the rename replaces the link
        return
    except OSError as e:
        raise LedgerError(_("cannot write {path}: {error}", path=path, error=strerror(e))) from None
    if stat.S_ISDIR(st.st_mode):
        raise LedgerError(_("{path} is a folder; give the path of a file", path=path))
    if not stat.S_ISREG(st.st_mode):
        raise LedgerError(_("{path} is not an ordinary file (a pipe, a device or a socket, or a link to one); "
                            "boston-ledger writes only ordinary files: give another path", path=path))


def write_atomically(path: Path, write: Callable[[TextIO], object], newline: str | None = None) -> None:
    """Write `path` with `write(file)`: into a temporary file in the same folder, then renamed
    over it (a symlink there is replaced, not followed). An ordinary file as the umask allows;
    on any failure the temporary file is removed and `path` is as it was. What is at `path`
    must be an ordinary file (or a symlink to one), if anything (`ordinary`)."""
    ordinary(path)
    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name[:64]}.", suffix=".tmp")
    try:
        _fill(fd, write, newline)
        os.chmod(tmp, 0o666 & ~umask())  # an ordinary file, not mkstemp's private one
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_new(path: Path, write: Callable[[TextIO], object], newline: str | None = None) -> None:
    """Write a new file `path` (in a folder of write_set's) with `write(file)`."""
    _fill(path, write, newline)


def write_set(directory: Path, names: Iterable[str], fill: Callable[[Path], None]) -> None:
    """Make `directory` the set of files `fill(folder)` writes into a new, empty folder, in one
    rename: the files of an earlier set there are all replaced at once, none left beside the new.

    `directory` must be missing, or a folder holding nothing but files of `names` (an earlier
    set): a folder with anything else in it, a symlink or a file is refused (LedgerError), and
    nothing is written. Other failures raise OSError, `directory` as it was."""
    directory = _plain(directory)
    ours = frozenset(names)
    before = _existing(directory, ours)
    parent = directory.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise LedgerError(_("cannot make the folder {directory}: {strerror}", directory=parent,
                            strerror=strerror(e))) from None
    stem = directory.name[:64]
    _remove_leftovers(parent, stem)
    new = Path(tempfile.mkdtemp(dir=parent, prefix=f".{stem}.{os.getpid()}.", suffix=".new"))
    try:
        fill(new)
        os.chmod(new, before if before is not None else 0o777 & ~umask())
        with _uninterrupted():
            if before is None:
                os.rename(new, directory)  # refused if a folder with files or a file appeared meanwhile
            else:
                old = _swap(new, directory, parent, stem)
                _remove_set(old, ours)
    except BaseException:
        _remove_set(new, None)
        raise


def _plain(directory: Path) -> Path:
    """The folder as a path with a last name of its own ('.' and '..' resolved)."""
    return directory.resolve() if directory.name in ("", ".", "..") else directory


def _existing(directory: Path, ours: frozenset[str]) -> int | None:
    """The mode of the earlier set's folder at `directory`, None when there is none; refused
    when `directory` is anything else than a folder of files named in `ours`."""
    try:
        st = directory.lstat()
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(st.st_mode):
        raise LedgerError(_("{directory} is a symbolic link; give export the folder it points to, or another",
                            directory=directory))
    if not stat.S_ISDIR(st.st_mode):
        raise LedgerError(_("{directory} is not a folder; give export a folder path", directory=directory))
    with os.scandir(directory) as entries:
        for entry in entries:
            if entry.name not in ours or entry.is_dir(follow_symlinks=False):
                raise LedgerError(_("{directory} holds {name}, which export does not write; give export a folder of "
                                    "its own (a new one, or an earlier export's)", directory=directory,
                                    name=entry.name))
    return stat.S_IMODE(st.st_mode)


def _swap(new: Path, directory: Path, parent: Path, stem: str) -> Path:
    """Put the folder `new` at `directory`; where the earlier one went."""
    if _exchange(new, directory):
        return new
    old = Path(tempfile.mkdtemp(dir=parent, prefix=f".{stem}.{os.getpid()}.", suffix=".old"))
    try:
        os.rename(directory, old)  # onto the empty folder just made
    except BaseException:
        os.rmdir(old)
        raise
    try:
        os.rename(new, directory)
    except BaseException:
        os.rename(old, directory)
        raise
    return old


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one step (Linux's renameat2 with RENAME_EXCHANGE); False where the
    system or its file system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _remove_set(folder: Path, names: frozenset[str] | None) -> None:
    """Remove a folder of ours and its files (only those of `names`, when given: a file someone
    put there meanwhile stays, and so does the folder). A symlink put in its place is not followed."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return
    try:
        with os.scandir(fd) as entries:
            for entry in entries:
                if (names is None or entry.name in names) and not entry.is_dir(follow_symlinks=False):
                    os.unlink(entry.name, dir_fd=fd)
    except OSError:
        pass
    finally:
        os.close(fd)
    with suppress(OSError):  # not empty: somebody's file stays, and so does the folder
        os.rmdir(folder)


LEFTOVER = r"\.{stem}\.(\d+)\.[a-z0-9_]+\.(?:new|old)"  # a folder write_set makes and removes


def _remove_leftovers(parent: Path, stem: str) -> None:
    """The folders an export killed outright left beside `directory` (its process is gone)."""
    if os.name != "posix":
        return
    pattern = re.compile(LEFTOVER.format(stem=re.escape(stem)))
    with os.scandir(parent) as entries:
        found = [(e.path, int(m.group(1))) for e in entries
                 if (m := pattern.fullmatch(e.name)) and e.is_dir(follow_symlinks=False)]
    for path, pid in found:
        if not _alive(pid):
            _remove_set(Path(path), None)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True


@contextmanager
def _uninterrupted() -> Iterator[None]:
    """Ctrl-C (and SIGTERM) held back for the few renames of a swap: they come after it."""
    block = getattr(signal, "pthread_sigmask", None)
    held = {signal.SIGINT, signal.SIGTERM}
    if block is None:
        yield
        return
    before = block(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        block(signal.SIG_SETMASK, before)
