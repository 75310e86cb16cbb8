"""The tariffs: the shipped ones, one read with conditions, a user's file checked, a copy to edit."""

from __future__ import annotations

import os
from pathlib import Path

from ..core.i18n import _, strerror
from ..core.tariff import Tariff, TariffError
from ..core.tariff_files import SLUG, check, copy_text, load, shipped

__all__ = ["check", "load", "new", "shipped_tariffs"]


def shipped_tariffs() -> list[Tariff]:
    return [load(name) for name in shipped()]


def new(name: str, source: str, force: bool = False) -> Path:
    """Write `source` (resolved) as NAME.toml for a user to edit; atomically, never over a file
    unless `force`."""
    from .files import write_atomically

    typed = name if name.endswith(".toml") else f"{name}.toml"
    path = Path(os.path.expanduser(typed))  # `~user` of nobody stays as typed (Path.expanduser would raise)
    stem = path.stem
    if not SLUG.fullmatch(stem):
        raise TariffError(_("a tariff name is letters, digits, '-' and '_', not {name!r}", name=name))
    if typed.startswith("~") and os.path.expanduser(typed) == typed:
        raise TariffError(_("cannot write {path}: {reason}", path=typed, reason=_("no such user's home folder")))
    try:
        there = path.exists()
    except OSError as e:  # a folder's name too long...
        raise TariffError(_("cannot write {path}: {reason}", path=path, reason=strerror(e))) from None
    if there and not force:
        raise TariffError(_("{path} already exists; choose another name or add --force to replace it", path=path))
    text = copy_text(source, stem, str(path))
    try:
        write_atomically(path, lambda f: f.write(text))
    except OSError as e:
        raise TariffError(_("cannot write {path}: {reason}", path=path, reason=strerror(e))) from None
    return path
