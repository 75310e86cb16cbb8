"""The tariffs: the shipped ones, one read with conditions, a user's file checked, a copy to edit."""

from __future__ import annotations

import os
from pathlib import Path

from ..core import ladders
from ..core.i18n import _, strerror
from ..core.tariff import Tariff, TariffError
from ..core.tariff_files import check, copy_text, load, shipped, with_conditions
from ..core.tariff_reader import SLUG

__all__ = ["check", "ladder_exceptions", "ladder_warnings", "load", "new", "shipped_tariffs"]


def shipped_tariffs() -> list[Tariff]:
    return [load(name) for name in shipped()]


def ladder_warnings(tariff: Tariff) -> list[str]:
    """Where the tariff breaks its own ladders (a higher contract paying less made, or costing
    less failed, than a lower one at the same tricks), by itself, with each of its conditions
    and with all of them; and names in the ladders that are no contract of any of those."""
    rest = [key for key in tariff.conditions if key not in tariff.applied]
    variants: list[tuple[str, list[str]]] = [("", [])] + [(key, [key]) for key in rest]
    if len(rest) > 1:
        variants.append((", ".join(rest), rest))
    out: list[str] = []
    known: set[str] = set()
    for label, names in variants:
        try:
            t = with_conditions(tariff, names)
        except TariffError:  # conditions that do not go together: each by itself was checked
            continue
        known |= set(t.contracts)
        for breach in ladders.breaches(t):
            line = (_("with {conditions}: {breach}", conditions=label, breach=breach) if label else str(breach))
            if str(breach) not in out and line not in out:
                out.append(line)
    out += [_("ladders: {name!r} is no contract of the tariff nor of its conditions", name=name)
            for name in ladders.unknown(tariff, known)]
    return out


def ladder_exceptions(tariff: Tariff) -> list[str]:
    """Where the tariff breaks its ladders as its source's own tables do (`ladder_exceptions`)."""
    return [str(breach) for breach in ladders.exceptions(tariff)]


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
