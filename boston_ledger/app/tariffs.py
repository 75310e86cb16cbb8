"""The tariffs: the shipped ones, one read with conditions, a user's file checked, a copy to edit."""

from __future__ import annotations

from pathlib import Path

from ..core.i18n import _, strerror
from ..core.tariff import Tariff, TariffError
from ..core.tariff_files import check, copy_text, load, shipped

__all__ = ["check", "load", "new", "shipped_tariffs"]


def shipped_tariffs() -> list[Tariff]:
    return [load(name) for name in shipped()]


def new(name: str, source: str, force: bool = False) -> Path:
    """Write `source` (resolved) as NAME.toml for a user to edit; atomically, never over a file
    unless `force`."""
    from .files import write_atomically

    path = Path(name if name.endswith(".toml") else f"{name}.toml").expanduser()
    stem = path.stem
    if not stem or not all(c.isalnum() or c in "-_." for c in stem):
        raise TariffError(_("a tariff name is letters, digits, '-' and '_', not {name!r}", name=name))
    if path.exists() and not force:
        raise TariffError(_("{path} already exists; choose another name or add --force to replace it", path=path))
    text = copy_text(source, stem, str(path))
    try:
        write_atomically(path, lambda f: f.write(text))
    except OSError as e:
        raise TariffError(_("cannot write {path}: {reason}", path=path, reason=strerror(e))) from None
    return path
