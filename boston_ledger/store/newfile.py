"""A new file put at its path whole or not at all: written and synced with no name (Linux's
`O_TMPFILE`; elsewhere under a hidden temporary name), then linked into place, its folder synced;
the folders made for it readable by the owner only, and taken away again when it does not come to
be. The new ledger is made this way (`db.create_ledger`)."""

from __future__ import annotations

import os
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from ..core.i18n import _, strerror
from . import StorageError


def create(path: Path, image: Callable[[], bytes]) -> None:
    """The bytes `image()` makes, as a new file at `path` readable by the owner only, with its
    missing folders made first; FileExistsError if something is at `path` by then. On any failure
    (of `image` too) nothing is left."""
    made = _folders(path.parent)
    try:
        _write_new(path, image())
    except BaseException:
        for folder in reversed(made):  # the folders made for a file that did not come to be
            try:
                folder.rmdir()
            except OSError:
                break
        raise


def _folders(folder: Path) -> list[Path]:
    """Make the missing folders down to `folder`, each readable by the owner only; those made."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    made: list[Path] = []
    for f in reversed(missing):
        try:
            f.mkdir(mode=0o700)
        except FileExistsError:  # made meanwhile by another boston-ledger
            continue
        except OSError as e:
            for m in reversed(made):
                m.rmdir()
            raise StorageError(_("cannot make the folder for the ledger {path}: {strerror}; give --db a path in a "
                                 "folder you can write", path=f, strerror=strerror(e))) from None
        made.append(f)
    return made


def _write_new(path: Path, image: bytes) -> None:
    """`image` as a new file at `path`, readable by the owner only, whole or not at all: written
    and synced first, then given its name, which fails with FileExistsError if anything has it."""
    try:
        directory = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as e:
        raise _unwritten(path, e) from None
    try:
        if not _link_unnamed(path, image, directory):
            _link_named(path, image)
        with suppress(OSError):
            os.fsync(directory)  # the name too survives a power cut
    finally:
        os.close(directory)


def _link_unnamed(path: Path, image: bytes, directory: int) -> bool:
    """Linux: the image in a file that has no name until it is whole (a process killed meanwhile
    leaves nothing at all); False where there are no such files."""
    try:
        fd = os.open(path.parent, os.O_TMPFILE | os.O_WRONLY, 0o600)
    except (AttributeError, OSError):
        return False
    try:
        _write_all(fd, image, path)
        try:
            os.link(f"/proc/self/fd/{fd}", path.name, dst_dir_fd=directory)
        except FileExistsError:
            raise
        except OSError:  # no /proc
            return False
        return True
    finally:
        os.close(fd)


def _link_named(path: Path, image: bytes) -> None:
    """Elsewhere: the image in a hidden temporary file beside `path`, linked to it when whole."""
    try:
        import tempfile  # here: only where a file cannot be made unnamed

        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".new")
    except OSError as e:
        raise _unwritten(path, e) from None
    try:
        try:
            _write_all(fd, image, path)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)
        except FileExistsError:
            raise
        except OSError as e:
            raise _unwritten(path, e) from None
    finally:
        os.unlink(tmp)


def _write_all(fd: int, data: bytes, path: Path) -> None:
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except OSError as e:
        raise _unwritten(path, e) from None


def _unwritten(path: Path, e: OSError) -> StorageError:
    return StorageError(_("cannot write the new ledger {path}: {strerror}; nothing was recorded",
                          path=path, strerror=strerror(e)))
