"""Tariff files: find, read and resolve them; `tariff_reader.py` checks what they say.

A tariff is a TOML file under `tariffs/`. This module knows its shape, never its numbers.
A file may `extends` another (its tables are merged over the base's), and a session may
turn on the file's `[conditions.NAME]`, each a set of changes merged over the tariff.
"""

from __future__ import annotations

import copy
import datetime
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from .i18n import _, ngettext, shown_name, strerror
from .tariff import LIMIT, Tariff, TariffError, ambiguous, did_you_mean, find
from .tariff_reader import build, read

DEPTH = 24  # tables and lists nested in a tariff file, at most (the shipped ones go 7 deep)
MOST_BYTES = 256 * 1024  # a user's tariff file, at most (the shipped ones: 23 KB at most)

# ---- finding and reading files -----------------------------------------------------------------


def tariff_dirs() -> list[Path]:
    """Where shipped tariffs live: inside the installed package, or the source tree's `tariffs/`."""
    package = Path(__file__).resolve().parent.parent
    return [d for d in (package / "tariffs", package.parent / "tariffs") if d.is_dir()]


def shipped() -> dict[str, Path]:
    """Every shipped tariff by name."""
    found: dict[str, Path] = {}
    for d in tariff_dirs():
        for path in sorted(d.glob("*.toml"), key=lambda p: p.stem):  # american before american-decimal
            found.setdefault(path.stem, path)
    return found


def locate(name_or_path: str, relative_to: Path | None = None, typed: bool = True) -> Path:
    """The file a tariff is named by: a shipped tariff's name, or a path to a TOML file; a name a
    user `typed` also by a beginning of one shipped name only (`amer`... `american-d`), as players
    and contracts are (`find`; a file's `extends` names its base whole)."""
    files = shipped()
    if name_or_path in files:
        return files[name_or_path]
    try:
        path = Path(name_or_path).expanduser()
        if relative_to is not None and not path.is_absolute():
            path = relative_to / path
        if path.is_file():
            return path
        folder = path.is_dir()
    except (RuntimeError, OSError, ValueError) as e:  # ~user of nobody, a name too long, a NUL byte
        reason = (strerror(e) if isinstance(e, OSError) else _("no such user's home folder")
                  if isinstance(e, RuntimeError) else _("not a file name"))
        raise TariffError(_("no tariff {name}: {reason}", name=repr(name_or_path[:60]), reason=reason)) from None
    if folder:
        raise TariffError(_("{path} is a folder; give the path of a tariff's TOML file", path=path))
    found = find(name_or_path, ((name, ()) for name in files)) if typed else None
    if found is not None and found.key is not None:
        return files[found.key]
    if found is not None and found.candidates:
        raise TariffError(ambiguous(found, name_or_path) or "")
    if found is not None and found.close:
        raise TariffError(_("no tariff {name!r}{hint}", name=name_or_path, hint=did_you_mean(found)))
    known = ", ".join(sorted(files)) or _("none")
    raise TariffError(_("no tariff {name!r}: give a shipped tariff ({known}) or the path of a TOML file",
                        name=name_or_path, known=known))


def _read(path: Path) -> tuple[dict[str, Any], str]:
    """A user's tariff file (`MOST_BYTES` at most), as TOML reads it (`_toml`: not to be changed), and
    its text."""
    try:
        size = path.stat().st_size
        data = path.read_bytes() if size <= MOST_BYTES else b""
        size = max(size, len(data))  # grown since
        if size > MOST_BYTES:
            raise TariffError(f"{path}: " + ngettext("too large for a tariff file: {n} byte, at most {most}",
                                                     "too large for a tariff file: {n} bytes, at most {most}",
                                                     size, most=MOST_BYTES))
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise TariffError(f"{path}: " + _("not a UTF-8 text file; a tariff is TOML text")) from None
    except OSError as e:
        raise TariffError(_("cannot read tariff file {path}: {reason}", path=path, reason=strerror(e))) from None
    return _toml(text, str(path)), text


def _toml(text: str, origin: str) -> dict[str, Any]:
    """The TOML of a tariff's text, read once per process: the same data each time, which is never
    changed (a caller that changes it changes a copy, `_plain`)."""
    found = _TOML.get(text)
    if found is None:
        found = _read_toml(text, origin)
        if len(_TOML) >= 32:
            _TOML.clear()
        _TOML[text] = found
    return found


# Tariff texts as TOML reads them, by the text (a few at a time); never changed: held by every
# resolved tariff, condition and check that has not copied it since
_TOML: dict[str, dict[str, Any]] = {}


def _read_toml(text: str, origin: str) -> dict[str, Any]:
    data: dict[str, Any] | None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise TariffError(f"{origin}: " + _("not valid TOML: {error}", error=e)) from None
    except RecursionError:
        data = None
    except ValueError:  # an integer of more digits than Python converts
        raise TariffError(f"{origin}: " + _("a number too long to read; a tariff's numbers are at most {limit}",
                                            limit=LIMIT)) from None
    if data is None or _depth(data) > DEPTH:
        raise TariffError(f"{origin}: " + _("tables and lists nested more than {depth} deep; a tariff needs a few",
                                            depth=DEPTH))
    return data


def _depth(data: Any) -> int:
    """How deep tables and lists are nested in `data` (without recursion: any depth is measured)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        node, level = stack.pop()
        deepest = max(deepest, level)
        if level <= DEPTH:  # deeper than that is enough to know
            stack.extend((v, level + 1) for v in (node.values() if isinstance(node, dict) else node)
                         if isinstance(v, (dict, list)))
    return deepest


def merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """`over` merged into a copy of `base`: tables merge key by key, anything else replaces."""
    return _merge_into(_plain(base), over)


def _merge_into(out: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """`over` merged into `out` itself (a copy the caller owns); what it takes from `over` is copied."""
    for key, value in over.items():
        old = out.get(key)
        if isinstance(value, dict) and isinstance(old, dict):
            _merge_into(old, value)
        else:
            out[key] = _plain(value)
    return out


_SCALARS = frozenset({str, int, float, bool})  # TOML's commonest values, never changed: not copied


def _plain(value: Any) -> Any:
    """A copy of TOML data: its tables and lists new, its scalars (never changed) the same; anything
    TOML does not make is deep-copied. Some three times as quick as `copy.deepcopy` on a tariff."""
    kind = type(value)
    if kind is dict:
        return {k: v if type(v) in _SCALARS else _plain(v) for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _SCALARS else _plain(v) for v in value]
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):  # TOML's other scalars
        return value
    return copy.deepcopy(value)


def _remove(data: dict[str, Any], paths: Any, where: str) -> None:
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise TariffError(f"{where} remove: "
                          + _("must be a list of dotted key paths such as \"contracts.junior.with_partner\""))
    for dotted in paths:
        node: Any = data  # whatever the path leads to
        *parents, last = dotted.split(".")
        for part in parents:
            node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, dict) or last not in node:
            raise TariffError(f"{where} remove: " + _("{path!r} is not in the tariff", path=dotted))
        del node[last]


def _resolve(data: dict[str, Any], origin: str, folder: Path | None) -> tuple[dict[str, Any], bool]:
    """The tariff with its `extends` chain merged in (`data` itself when there is none: not to be
    changed); whether there was one."""
    return _merged(data, origin, _bases(data, origin, folder))


_Bases = list[tuple[str, str, dict[str, Any]]]  # the files a tariff extends: each one's origin, text and TOML


def _bases(data: dict[str, Any], origin: str, folder: Path | None) -> _Bases:
    """The files a tariff `extends`: its base, its base's base... each as read (not to be changed)."""
    bases: _Bases = []
    seen: tuple[str, ...] = ()
    while True:
        head = data.get("tariff")
        base_name = head.get("extends") if isinstance(head, dict) else None
        if base_name is None:
            return bases
        if not isinstance(base_name, str) or not base_name.strip():
            raise TariffError(f"{origin}: [tariff] extends: " + _("must name a shipped tariff or a file"))
        if base_name in seen:
            raise TariffError(f"{origin}: [tariff] extends: " + _("{name!r} extends itself in a loop",
                                                                  name=base_name))
        if len(seen) >= DEPTH:
            raise TariffError(f"{origin}: [tariff] extends: " + _("a chain of more than {depth} tariffs; a "
                                                                  "tariff needs a base or two", depth=DEPTH))
        try:
            path = locate(base_name, relative_to=folder, typed=False)
        except TariffError as e:
            raise TariffError(f"{origin}: [tariff] extends: {e}") from None
        data, text = _read(path)
        seen, origin, folder = (*seen, base_name), str(path), path.parent
        bases.append((origin, text, data))


def _merged(data: dict[str, Any], origin: str, bases: _Bases) -> tuple[dict[str, Any], bool]:
    """The tariff merged over its `bases` (`_bases`), the last one first, each file's `remove` taken
    out after it is merged; whether it has any."""
    if not bases:
        return data, False
    layers = [(origin, data), *((o, d) for o, _text, d in bases[:-1])]
    merged = _plain(bases[-1][2])
    for origin, layer in reversed(layers):
        own = {k: v for k, v in layer.items() if k != "remove"}  # copied as it is merged in
        own["tariff"] = {k: v for k, v in layer["tariff"].items() if k != "extends"}
        _merge_into(merged, own)
        _remove(merged, layer.get("remove", []), f"{origin}:")
    return merged, True


def effective_text(data: dict[str, Any], note: str) -> str:
    """A resolved tariff as TOML, as stored with a session."""
    import tomli_w

    return f"# {note}\n" + tomli_w.dumps(data)


def apply_conditions(data: dict[str, Any], names: Iterable[str], origin: str) -> dict[str, Any]:
    """The tariff with the named conditions turned on, in order."""
    table = data.get("conditions", {})
    out: dict[str, Any] = _plain(data)  # merged into in place below: `data` is left as it was
    head = out.setdefault("tariff", {})
    if not isinstance(head, dict):
        raise TariffError(f"{origin}: [tariff]: " + _("[{key}] must be a table", key="tariff"))
    applied = head.get("conditions", [])
    if not isinstance(applied, list) or not all(isinstance(a, str) for a in applied):
        raise TariffError(f"{origin}: [tariff] conditions: " + _("must be a list of non-empty strings"))
    applied = list(applied)
    for word in names:
        name = condition_key(table, word)
        condition = table[name]
        if name in applied:
            raise TariffError(_("condition {name!r} is named twice; give each condition once", name=name))
        changes = condition.get("set", {})
        if not isinstance(changes, dict):
            raise TariffError(f"{origin}: [conditions.{name}] set: "
                              + _("must be a table of changes merged over the tariff"))
        _merge_into(out, changes)
        if not isinstance(out.get("tariff"), dict):
            raise TariffError(f"{origin}: [conditions.{name}] set: " + _("[{key}] must be a table", key="tariff"))
        _remove(out, condition.get("remove", []), f"{origin}: [conditions.{name}]")
        applied.append(name)
    out.setdefault("tariff", {})["conditions"] = applied
    return out


def condition_key(table: Any, word: str) -> str:
    """The condition of a tariff's `[conditions]` that a player's word names: its key or one of
    its `names` (the seed's titles), by any unique beginning (`phil`); else TariffError naming
    the candidates, or the condition a typo looks like, or the tariff's conditions."""
    conditions = {k: c for k, c in table.items() if isinstance(c, dict)} if isinstance(table, dict) else {}
    found = find(word, ((k, _names(c)) for k, c in conditions.items()))
    if found.key is not None:
        return found.key
    raise TariffError(ambiguous(found, word, lambda k: shown_name(k, _names(conditions[k]))) or (
        _("the tariff has no condition {name!r}{hint}", name=word, hint=did_you_mean(found)) if found.close else
        _("the tariff has no condition {name!r}; its conditions: {known}", name=word,
          known=", ".join(shown_name(k, _names(c)) for k, c in conditions.items()) or _("none"))))


def _names(condition: Any) -> list[Any]:
    """A condition table's `names`, as far as they are a list (the reader checks them)."""
    names = condition.get("names") if isinstance(condition, dict) else None
    return names if isinstance(names, list) else []


def load(name_or_path: str, conditions: Iterable[str] = ()) -> Tariff:
    """Read, resolve and validate a tariff by name or path, with conditions turned on."""
    path = locate(name_or_path)
    data, text = _read(path)
    bases = _bases(data, str(path), path.parent)
    asked = tuple(conditions)
    key = _key(path, text, bases, asked)
    found = _LOADED.get(key)
    if found is not None:
        return found
    data, extended = _merged(data, str(path), bases)
    applied = [condition_key(data.get("conditions"), c) for c in asked]
    if applied:
        data = apply_conditions(data, applied, str(path))
    if extended or applied:
        what = f"{path.name}" + (f" with conditions {', '.join(applied)}" if applied else "")
        text = effective_text(data, f"boston-ledger: the tariff in force: {what}")
    tariff = build(data, text, str(path))
    problems = _condition_problems(data, text, str(path), skip=applied)
    if problems:
        raise TariffError(problems[0], problems)
    _keep(key, tariff)
    return tariff


# Tariffs loaded and validated (a few at a time), by what they are made of, which is quick to read
# again: the file and its text, the file and text of each tariff it extends, and the conditions as
# asked. Validating means building the tariff once more with each of its conditions, and resolving
# its bases and conditions means merging and writing its TOML, which a process that loads the same
# tariff again (the server, a test run) need not repeat. A file changed is a new key; a Tariff is
# not changed.
_Key = tuple[str, str, tuple[tuple[str, str], ...], tuple[str, ...]]
_LOADED: dict[_Key, Tariff] = {}


def _key(path: Path, text: str, bases: _Bases, asked: tuple[str, ...]) -> _Key:
    return str(path), text, tuple((origin, base_text) for origin, base_text, _data in bases), asked


def _keep(key: _Key, tariff: Tariff) -> None:
    if len(_LOADED) >= 128:  # every shipped tariff with each of its conditions is some 50, some 4 MB
        _LOADED.clear()
    _LOADED[key] = tariff


def _condition_problems(data: dict[str, Any], text: str, origin: str, skip: Iterable[str] = ()) -> list[str]:
    """What goes wrong when each condition of the tariff is turned on by itself."""
    problems: list[str] = []
    table = data.get("conditions")
    for name in table if isinstance(table, dict) else ():
        if name in skip or name in data.get("tariff", {}).get("conditions", []):
            continue
        try:
            build(apply_conditions(data, [name], origin), text,
                  _("{origin} with condition {name}", origin=origin, name=name))
        except TariffError as e:
            problems += e.problems
    return problems


_PARSED: dict[str, Tariff] = {}  # tariffs read from their text, by the text (a few at a time)


def parse(text: str, origin: str = "<tariff>") -> Tariff:
    """A tariff from its TOML text (as stored with a session, or a user's file).

    A command reads its session's stored tariff more than once, and `ledger` or `stats` the
    tariffs of every session, most of them the same text: each text is read once (a Tariff is
    not changed; `origin` only names it in an error). A text that `extends` another is read
    anew each time, since the tariff in force it makes names its origin.
    """
    found = _PARSED.get(text)
    if found is not None:
        return found
    data, extended = _resolve(_toml(text, origin), origin, None)
    if extended:
        return build(data, effective_text(data, f"boston-ledger: the tariff in force: {origin}"), origin,
                     stored=True)
    found = build(data, text, origin, stored=True)
    if len(_PARSED) >= 32:
        _PARSED.clear()
    _PARSED[text] = found
    return found


def with_conditions(tariff: Tariff, names: Iterable[str]) -> Tariff:
    """A tariff (such as a session's stored one) with more conditions turned on."""
    names = list(names)
    if not names:
        return tariff
    data = apply_conditions(_toml(tariff.text, tariff.name), names, tariff.name)
    text = effective_text(data, f"boston-ledger: the tariff in force: {tariff.name} with conditions "
                                f"{', '.join(data['tariff']['conditions'])}")
    return build(data, text, tariff.name, stored=True)


def check(path_text: str) -> tuple[Tariff | None, list[str]]:
    """Every problem of a tariff file, each with its location; the tariff when there are none."""
    try:
        path = locate(path_text)
        data, text = _read(path)
        bases = _bases(data, str(path), path.parent)
        data, extended = _merged(data, str(path), bases)
    except TariffError as e:
        return None, e.problems
    # `load` without conditions validates the file as this does: what it kept has no problem. Its
    # Tariff is this one but for an extended file's, which holds the text in force, not the file's.
    key = _key(path, text, bases, ())
    loaded = _LOADED.get(key)
    if loaded is not None and not extended:
        return loaded, []
    tariff, problems = read(data, text, str(path))
    problems = problems or ([] if loaded is not None else _condition_problems(data, text, str(path)))
    if tariff is not None and not problems and not extended:  # what `load` makes of the file
        _keep(key, tariff)
    return (None if problems else tariff), problems


def copy_text(source: str, name: str, target: str) -> str:
    """The text of a copy of tariff `source` (resolved, without its conditions) named `name`, for
    a user to edit; checked valid (as `target`, the file it will be)."""
    origin = locate(source)
    data, _text = _read(origin)
    data, extended = _resolve(data, str(origin), origin.parent)
    data = data if extended else _plain(data)  # changed below
    if not isinstance(data.setdefault("tariff", {}), dict):
        raise TariffError(f"{origin}: " + _("[{key}] must be a table", key="tariff"))
    data["tariff"]["name"] = name
    data["tariff"].pop("conditions", None)
    text = effective_text(data, f"boston-ledger tariff {name!r}, a copy of {origin.name} to edit. "
                                "Check it with `boston-ledger tariffs check FILE`.")
    build(data, text, target)  # the copy must be valid before it is written
    return text
