"""Tariff files: find, read, resolve and validate them into a `Tariff`.

A tariff is a TOML file under `tariffs/`. This module knows its shape, never its numbers.
A file may `extends` another (its tables are merged over the base's), and a session may
turn on the file's `[conditions.NAME]`, each a set of changes merged over the tariff.
"""

from __future__ import annotations

import copy
import re
import tomllib
from pathlib import Path
from typing import Any, Callable, Iterable

from .controls import CONTROL, CONTROL_IN_LINES  # what a tariff's words may not hold (a stored one: read as accepted)
from .i18n import _, shown_name, strerror
from .tariff import (ALL_PASS, ALL_PASS_REMAINDER, BASE_PAYMENT, BOSTON_RULES, BOSTON_SLAM_FOR, FAILED_BASKET, LABET_ODD_CHIP,
                     LIMIT, MISDEAL_DEALER, PASS, SCORING, SHARE_REMAINDER, STAKE_AT, STAKE_PAYERS, Basket, Condition,
                     Contract, Rank, Schedule, Tariff, TariffError, ambiguous, did_you_mean, find)

SLUG = re.compile(r"[^\W_][\w-]{0,39}")  # a tariff's name: letters and digits, '-' and '_' inside
LINES = {"source", "notes", "seed"}  # texts of several lines: a line break (and a tab) is theirs
DEPTH = 24  # tables and lists nested in a tariff file, at most (the shipped ones go 7 deep)

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


def locate(name_or_path: str, relative_to: Path | None = None) -> Path:
    """The file a tariff is named by: a shipped tariff's name, or a path to a TOML file."""
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
    known = ", ".join(sorted(files)) or _("none")
    raise TariffError(_("no tariff {name!r}: give a shipped tariff ({known}) or the path of a TOML file",
                        name=name_or_path, known=known))


def _read(path: Path) -> tuple[dict, str]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise TariffError(f"{path}: " + _("not a UTF-8 text file; a tariff is TOML text")) from None
    except OSError as e:
        raise TariffError(_("cannot read tariff file {path}: {reason}", path=path, reason=strerror(e))) from None
    return _toml(text, str(path)), text


def _toml(text: str, origin: str) -> dict:
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


def merge(base: dict, over: dict) -> dict:
    """`over` merged into a copy of `base`: tables merge key by key, anything else replaces."""
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _remove(data: dict, paths: Any, where: str) -> None:
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        raise TariffError(f"{where} remove: "
                          + _("must be a list of dotted key paths such as \"contracts.junior.with_partner\""))
    for dotted in paths:
        node = data
        *parents, last = dotted.split(".")
        for part in parents:
            node = node.get(part) if isinstance(node, dict) else None
        if not isinstance(node, dict) or last not in node:
            raise TariffError(f"{where} remove: " + _("{path!r} is not in the tariff", path=dotted))
        del node[last]


def _resolve(data: dict, origin: str, folder: Path | None, seen: tuple[str, ...] = ()) -> tuple[dict, bool]:
    """The tariff with its `extends` chain merged in; whether there was one."""
    head = data.get("tariff")
    base_name = head.get("extends") if isinstance(head, dict) else None
    if base_name is None:
        return data, False
    if not isinstance(base_name, str) or not base_name.strip():
        raise TariffError(f"{origin}: [tariff] extends: " + _("must name a shipped tariff or a file"))
    if base_name in seen:
        raise TariffError(f"{origin}: [tariff] extends: " + _("{name!r} extends itself in a loop", name=base_name))
    if len(seen) >= DEPTH:
        raise TariffError(f"{origin}: [tariff] extends: " + _("a chain of more than {depth} tariffs; a tariff "
                                                              "needs a base or two", depth=DEPTH))
    try:
        path = locate(base_name, relative_to=folder)
    except TariffError as e:
        raise TariffError(f"{origin}: [tariff] extends: {e}") from None
    base, unused = _read(path)
    base, unused = _resolve(base, str(path), path.parent, seen + (base_name,))
    own = copy.deepcopy(data)
    removals = own.pop("remove", [])
    del own["tariff"]["extends"]
    merged = merge(base, own)
    _remove(merged, removals, f"{origin}:")
    return merged, True


def effective_text(data: dict, note: str) -> str:
    """A resolved tariff as TOML, as stored with a session."""
    import tomli_w

    return f"# {note}\n" + tomli_w.dumps(data)


def apply_conditions(data: dict, names: Iterable[str], origin: str) -> dict:
    """The tariff with the named conditions turned on, in order."""
    table = data.get("conditions", {})
    out = copy.deepcopy(data)
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
        out = merge(out, changes)
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


def _names(condition: Any) -> list:
    """A condition table's `names`, as far as they are a list (the reader checks them)."""
    names = condition.get("names") if isinstance(condition, dict) else None
    return names if isinstance(names, list) else []


def load(name_or_path: str, conditions: Iterable[str] = ()) -> Tariff:
    """Read, resolve and validate a tariff by name or path, with conditions turned on."""
    path = locate(name_or_path)
    data, text = _read(path)
    data, extended = _resolve(data, str(path), path.parent)
    conditions = [condition_key(data.get("conditions"), c) for c in conditions]
    if conditions:
        data = apply_conditions(data, conditions, str(path))
    if extended or conditions:
        what = f"{path.name}" + (f" with conditions {', '.join(conditions)}" if conditions else "")
        text = effective_text(data, f"boston-ledger: the tariff in force: {what}")
    tariff = build(data, text, str(path))
    problems = _condition_problems(data, text, str(path), skip=conditions)
    if problems:
        raise TariffError(problems[0], problems)
    return tariff


def _condition_problems(data: dict, text: str, origin: str, skip: Iterable[str] = ()) -> list[str]:
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
        data, unused = _resolve(data, str(path), path.parent)
    except TariffError as e:
        return None, e.problems
    reader = _Reader(str(path), collect=True)
    tariff = reader.tariff(data, text)
    problems = list(reader.problems) or _condition_problems(data, text, str(path))
    return (None if problems else tariff), problems


def copy_text(source: str, name: str, target: str) -> str:
    """The text of a copy of tariff `source` (resolved, without its conditions) named `name`, for
    a user to edit; checked valid (as `target`, the file it will be)."""
    origin = locate(source)
    data, unused = _read(origin)
    data, unused = _resolve(data, str(origin), origin.parent)
    if not isinstance(data.setdefault("tariff", {}), dict):
        raise TariffError(f"{origin}: " + _("[{key}] must be a table", key="tariff"))
    data["tariff"]["name"] = name
    data["tariff"].pop("conditions", None)
    text = effective_text(data, f"boston-ledger tariff {name!r}, a copy of {origin.name} to edit. "
                                "Check it with `boston-ledger tariffs check FILE`.")
    build(data, text, target)  # the copy must be valid before it is written
    return text


def build(data: dict, text: str, origin: str, stored: bool = False) -> Tariff:
    """The Tariff of resolved data; `stored` for one kept with a session (read as it was
    accepted then: its name is not held to today's rule, and is shown escaped)."""
    reader = _Reader(origin, collect=True, stored=stored)
    tariff = reader.tariff(data, text)
    if reader.problems:
        more = len(reader.problems) - 1
        hint = " " + _("(and {more} more: `boston-ledger tariffs check FILE` lists them)", more=more) if more else ""
        raise TariffError(reader.problems[0] + hint, reader.problems)
    assert tariff is not None
    return tariff


# ---- validation -------------------------------------------------------------------------------


class _Problem(Exception):
    pass


def _code(ch: str) -> str:
    return f"U+{ord(ch):04X}"


class _Skip(Exception):
    """A table that refers to another table already reported broken: nothing more to say."""


class _Reader:
    """Validation with locations: every error says `file: [table] key: what is expected`.

    Each table is checked on its own, so one run finds a problem in every table that has one.
    """

    def __init__(self, origin: str, collect: bool = False, stored: bool = False):
        self.origin = origin
        self.stored = stored
        self.problems: list[str] = []

    def fail(self, where: str, message: str) -> _Problem:
        return _Problem(f"{self.origin}: {where}: {message}")

    def each(self, items: Iterable[tuple[str, Any]], build: Callable[[str, Any], Any], kind: str = "") -> dict:
        out = {}
        for key, raw in items:
            try:
                found = None if self.stored else CONTROL.search(key)
                if found is not None:
                    raise self.fail(f"[{kind}]", _("the name {key!r} must be plain text: it holds the control "
                                                   "character {code}", key=key, code=_code(found.group())))
                out[key] = build(key, raw)
            except _Problem as e:
                self.problems.append(str(e))
            except _Skip:
                pass
        return out

    def guard(self, fn: Callable[[], Any], default: Any = None) -> Any:
        try:
            return fn()
        except _Problem as e:
            self.problems.append(str(e))
            return default
        except _Skip:
            return default

    def table(self, data: dict, key: str, where: str, required: bool = True) -> dict:
        value = data.get(key)
        if value is None and not required:
            return {}
        if not isinstance(value, dict):
            raise self.fail(where, _("missing table [{key}]", key=key) if value is None
                            else _("[{key}] must be a table", key=key))
        return value

    def keys(self, data: dict, where: str, allowed: set[str]) -> None:
        """Report every unknown key (without stopping the table's other checks)."""
        for key in sorted(set(data) - allowed):
            self.problems.append(f"{self.origin}: {where}: "
                                 + _("unknown key {key!r}; expected one of {allowed}",
                                     key=key, allowed=", ".join(sorted(allowed))))

    def done(self, start: int) -> None:
        """End of a table: if it reported anything, leave it out (tables naming it stay quiet)."""
        if len(self.problems) > start:
            raise _Skip()

    def whole(self, data: dict, key: str, where: str, low: int, high: int, default: int | None = None) -> int:
        value = data.get(key, default)
        if value is None:
            raise self.fail(where, _("missing {key} (a whole number {low}..{high})", key=key, low=low, high=high))
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(f"{where} {key}", _("must be a whole number {low}..{high}, not {value!r}",
                                                low=low, high=high, value=value))
        return value

    def word(self, data: dict, key: str, where: str, choices: tuple[str, ...] | None = None,
             default: str | None = None, text: bool = True) -> str:
        value = data.get(key, default)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{where} {key}", _("must be a non-empty string, not {value!r}", value=value))
        if choices and value not in choices:
            raise self.fail(f"{where} {key}", _("must be one of {choices}, not {value!r}",
                                                choices=", ".join(choices), value=value))
        if text:
            self.plain(value, key, f"{where} {key}")
        return value

    def words(self, data: dict, key: str, where: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.fail(f"{where} {key}", _("must be a list of non-empty strings"))
        for v in value:
            self.plain(v, key, f"{where} {key}")
        return tuple(value)

    def plain(self, value: str, key: str, where: str) -> None:
        """A word or title of a user's file holds no control character (a text of several lines,
        `LINES`, may hold line breaks and tabs)."""
        if self.stored:
            return
        found = (CONTROL_IN_LINES if key in LINES else CONTROL).search(value)
        if found is not None:
            raise self.fail(where, _("must be plain text: {value!r} holds the control character {code}",
                                     value=value, code=_code(found.group())))

    def tariff(self, data: dict, text: str) -> Tariff | None:
        top = {"tariff", "ranks", "partie", "basket", "boston", "bonuses", "schedules", "contracts",
               "conditions", "notes", "ladders", "ladder_exceptions"}
        self.guard(lambda: self.keys(data, _("top level"), top))
        head = self.guard(lambda: self.head(data), {})
        players = self.guard(lambda: self.whole(head, "players", "[tariff]", 2, 8), 4)
        tricks = self.guard(lambda: self.whole(head, "tricks", "[tariff]", 1, 52), 13)
        scoring = self.guard(lambda: self.word(head, "scoring", "[tariff]", choices=SCORING), "chips")
        ranks = self.each(self.guard(lambda: self.table(data, "ranks", _("top level")), {}).items(), self.rank,
                          "ranks")
        tours = self.guard(lambda: self.tours(data), (1,))
        basket = self.guard(lambda: self.table(data, "basket", _("top level")), {})
        basket_values = self.guard(lambda: self.basket(basket, scoring), None)
        boston = self.guard(lambda: self.table(data, "boston", _("top level")), {})
        boston_values = self.guard(lambda: self.boston(boston, scoring), None)
        bonuses = self.guard(lambda: self.table(data, "bonuses", _("top level"), required=False), {})
        carte_blanche = self.guard(lambda: self.bonuses(bonuses), 0)
        honours = self.guard(lambda: self.honours(bonuses), ())
        schedules = self.each(self.guard(lambda: self.table(data, "schedules", _("top level")), {}).items(),
                              lambda k, raw: self.schedule(k, raw, tricks, scoring, ranks), "schedules")
        raw_schedules = data.get("schedules") if isinstance(data.get("schedules"), dict) else {}
        broken = set(raw_schedules) - set(schedules)
        contracts = self.each(self.guard(lambda: self.table(data, "contracts", _("top level")), {}).items(),
                              lambda k, raw: self.contract(k, raw, schedules, ranks, broken), "contracts")
        if not contracts and not any("[contracts" in p for p in self.problems):
            self.problems.append(f"{self.origin}: [contracts]: " + _("no contract defined"))
        conditions = self.each(
            self.guard(lambda: self.table(data, "conditions", _("top level"), required=False), {}).items(),
            self.condition, "conditions")
        applied = self.guard(lambda: self.words(head, "conditions", "[tariff]"), ())
        notes = self.guard(lambda: self.words(data, "notes", _("top level")), ())
        ladders = self.guard(lambda: self.ladders(data), ())
        exceptions = self.guard(lambda: self.ladder_exceptions(data, ladders), ())
        base_payment = self.guard(lambda: self.word(head, "base_payment", "[tariff]", choices=BASE_PAYMENT,
                                                    default="consolation" if scoring == "chips" else "contract"))
        if self.problems or basket_values is None or boston_values is None:
            return None
        return Tariff(
            name=head["name"], title=head["title"], source=head["source"], scoring=scoring,
            players=players, tricks=tricks, ranks=ranks, tours=tours,
            basket=basket_values,
            boston=boston_values[0], boston_slam=boston_values[1], carte_blanche=carte_blanche,
            schedules=schedules, contracts=contracts, conditions=conditions, applied=applied,
            notes=notes, text=text, boston_slam_for=boston_values[2], ladders=ladders,
            ladder_exceptions=exceptions, base_payment=base_payment, honours=honours,
        )

    def ladders(self, data: dict) -> tuple[tuple[str, ...], ...]:
        """`ladders`: lists of contract names, each from the lowest contract to the highest."""
        value = data.get("ladders", [])
        if not isinstance(value, list) or not all(
                isinstance(ladder, list) and all(isinstance(k, str) and k.strip() for k in ladder) for ladder in value):
            raise self.fail("ladders", _("must be a list of lists of contract names, each from the lowest "
                                         "contract to the highest"))
        return tuple(tuple(ladder) for ladder in value)

    def ladder_exceptions(self, data: dict, ladders: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, str], ...]:
        """`ladder_exceptions`: pairs [lower, higher] of one ladder whose breaches the source's own tables make."""
        value = data.get("ladder_exceptions", [])
        if not isinstance(value, list) or not all(
                isinstance(pair, list) and len(pair) == 2 and all(isinstance(k, str) for k in pair) for pair in value):
            raise self.fail("ladder_exceptions", _("must be a list of pairs [lower, higher] of contract names"))
        for low, high in value:
            if not any(low in ladder and high in ladder[ladder.index(low) + 1:] for ladder in ladders):
                raise self.fail("ladder_exceptions", _("{low!r} is not below {high!r} in one of the ladders",
                                                       low=low, high=high))
        return tuple((low, high) for low, high in value)

    def head(self, data: dict) -> dict:
        head = self.table(data, "tariff", _("top level"))
        self.keys(head, "[tariff]", {"name", "title", "source", "scoring", "players", "tricks", "conditions",
                                     "base_payment"})
        for key in ("name", "title", "source"):  # the name is held to SLUG below
            self.guard(lambda: self.word(head, key, "[tariff]", text=key != "name"))
        name = head.get("name")
        if isinstance(name, str) and name.strip() and not SLUG.fullmatch(name) and not self.stored:
            self.problems.append(f"{self.origin}: [tariff] name: " + _(
                "must be a short name of letters, digits, '-' and '_' such as my-club, not {value!r}", value=name))
        return head

    def rank(self, key: str, raw: Any) -> Rank:
        where = f"[ranks.{key}]"
        if not isinstance(raw, dict):
            raise self.fail(where, _("must be a table"))
        self.keys(raw, where, {"names", "multiplier"})
        return Rank(key, self.words(raw, "names", where), self.whole(raw, "multiplier", where, 1, 1000, default=1))

    def tours(self, data: dict) -> tuple[int, ...]:
        partie = self.table(data, "partie", _("top level"))
        self.keys(partie, "[partie]", {"tours"})
        tours = partie.get("tours")
        if not isinstance(tours, list) or not tours or not all(
            isinstance(t, int) and not isinstance(t, bool) and 1 <= t <= 100 for t in tours
        ):
            raise self.fail("[partie] tours",
                            _("must be a non-empty list of multipliers (whole numbers 1..100), one per tour"))
        return tuple(tours)

    def basket(self, basket: dict, scoring: str) -> Basket:
        start = len(self.problems)
        g = self.guard
        self.keys(basket, "[basket]", {"stake", "stake_payer", "remise", "all_pass", "pass_names",
                                       "all_pass_remainder", "labet_odd_chip", "share_remainder", "stake_at",
                                       "partout_per_trick", "misdeal_names", "misdeal_penalty", "pool_limit",
                                       "misdeal_dealer"})
        stake = g(lambda: self.whole(basket, "stake", "[basket]", 0, LIMIT), 0)
        payer = g(lambda: self.word(basket, "stake_payer", "[basket]", choices=STAKE_PAYERS, default="each"))
        remise = g(lambda: self.whole(basket, "remise", "[basket]", 0, LIMIT, default=0), 0)
        all_pass = g(lambda: self.word(basket, "all_pass", "[basket]", choices=ALL_PASS))
        names = g(lambda: self.words(basket, "pass_names", "[basket]"), ())
        remainder = g(lambda: self.word(basket, "all_pass_remainder", "[basket]", choices=ALL_PASS_REMAINDER,
                                        default="dealer"))
        odd_chip = g(lambda: self.word(basket, "labet_odd_chip", "[basket]", choices=LABET_ODD_CHIP,
                                       default="declarer"))
        shares = g(lambda: self.word(basket, "share_remainder", "[basket]", choices=SHARE_REMAINDER,
                                     default="stays"))
        stake_at = g(lambda: self.word(basket, "stake_at", "[basket]", choices=STAKE_AT, default="start-and-award"))
        partout = g(lambda: self.whole(basket, "partout_per_trick", "[basket]", 1, LIMIT)
                    if all_pass == "misere-partout" or "partout_per_trick" in basket else 0, 0)
        pool_limit = g(lambda: self.whole(basket, "pool_limit", "[basket]", 0, LIMIT, default=0), 0)
        misdeal_dealer = g(lambda: self.word(basket, "misdeal_dealer", "[basket]", choices=MISDEAL_DEALER,
                                             default="next"))
        misdeal_names = g(lambda: self.words(basket, "misdeal_names", "[basket]"), ())
        misdeal_penalty = g(lambda: self.whole(basket, "misdeal_penalty", "[basket]", 0, LIMIT, default=0), 0)
        if scoring == "points" and (stake or remise or misdeal_penalty or pool_limit
                                    or all_pass not in (None, "nothing")):
            raise self.fail("[basket]", _("a points tariff has no basket: stake = 0, no remise, all_pass = \"nothing\""))
        self.done(start)
        return Basket(stake, payer, remise, all_pass, names, remainder, odd_chip, shares, stake_at, partout,
                      misdeal_names, misdeal_penalty, pool_limit, misdeal_dealer)

    def boston(self, boston: dict, scoring: str) -> tuple[int, int, str]:
        start = len(self.problems)
        self.keys(boston, "[boston]", {"amount", "slam_multiplier", "slam_for"})
        amount = self.guard(lambda: self.whole(boston, "amount", "[boston]", 0, LIMIT), 0)
        slam = self.guard(lambda: self.whole(boston, "slam_multiplier", "[boston]", 1, 100, default=1), 1)
        slam_for = self.guard(lambda: self.word(boston, "slam_for", "[boston]", choices=BOSTON_SLAM_FOR,
                                                default="anyone"), "anyone")
        if scoring == "points" and amount:
            raise self.fail("[boston] amount", _("a points tariff pays no boston: must be 0"))
        self.done(start)
        return amount, slam, slam_for

    def bonuses(self, bonuses: dict) -> int:
        self.keys(bonuses, "[bonuses]", {"carte_blanche", "honours"})
        return self.whole(bonuses, "carte_blanche", "[bonuses]", 0, LIMIT, default=0)

    def honours(self, bonuses: dict) -> tuple[int, ...]:
        """`[bonuses] honours`: the over-tricks paid for 0, 1, 2... of the trump's honours held by a made
        declarer (a deal's `honours`), at his schedule's rate per trick."""
        value = bonuses.get("honours", [])
        if not isinstance(value, list) or not 2 <= len(value) <= 5 and value or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100 for v in value):
            raise self.fail("[bonuses] honours", _("must be a list of over-tricks (whole numbers 0..100) paid "
                                                   "for 0, 1, 2, 3 and 4 honours"))
        return tuple(value)

    def schedule(self, key: str, raw: Any, tricks: int, scoring: str, ranks: dict[str, Rank]) -> Schedule:
        where = f"[schedules.{key}]"
        if not isinstance(raw, dict):
            raise self.fail(where, _("must be a table"))
        start = len(self.problems)
        g = self.guard
        kind = g(lambda: self.word(raw, "kind", where, choices=("tricks", "null", "table")))
        failed_basket = g(lambda: self.word(raw, "failed_basket", where, choices=FAILED_BASKET))
        if failed_basket is not None and (scoring == "points") != (failed_basket == "none"):
            self.problems.append(f"{self.origin}: {where} failed_basket: "
                                 + _("must be \"none\" exactly when the tariff scores points"))
        takes_basket = g(lambda: self.flag(raw, "takes_basket", where, default=True), True)
        if kind == "null":
            self.keys(raw, where, {"kind", "value", "failed_basket", "failed_per_trick", "takes", "takes_basket"})
            value, by_rank = g(lambda: self.amount(raw, "value", where, ranks), (0, {}))
            per_trick = g(lambda: self.flag(raw, "failed_per_trick", where), False)
            takes = g(lambda: self.whole(raw, "takes", where, 0, tricks, default=0), 0)
            self.done(start)
            return Schedule(key, kind, 0, value, 0, 0, 1, 1, 0, (), failed_basket, by_rank, failed_per_trick=per_trick,
                            takes_basket=takes_basket, takes=takes)
        if kind == "table":
            self.keys(raw, where, {"kind", "bar", "made", "failed", "failed_basket", "takes_basket"})
            bar = g(lambda: self.whole(raw, "bar", where, 1, tricks))
            made = g(lambda: self.table_row(raw, "made", where, tricks - bar + 1, flat=True) if bar else (), ())
            failed = g(lambda: self.table_row(raw, "failed", where, bar) if bar else (), ())
            if made and any(v < made[0] for v in made):
                self.problems.append(f"{self.origin}: {where} made: "
                                     + _("a value below the first one ({first}): more tricks never pay less",
                                         first=made[0]))
            self.done(start)
            return Schedule(key, kind, bar, 0, 0, 0, 1, 1, 0, (), failed_basket, takes_basket=takes_basket,
                            made_table=made, failed_table=failed)
        self.keys(raw, where, {"kind", "bar", "shares", "consolation", "per_trick", "per_undertrick", "slam",
                               "slam_against", "slam_against_undertricks", "failed_basket", "failed_consolation",
                               "premium", "takes_basket"})
        bar = g(lambda: self.whole(raw, "bar", where, 1, tricks))
        shares = raw.get("shares", [])
        if shares and bar is not None and (not isinstance(shares, list) or len(shares) != 2
                       or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in shares)
                       or sum(shares) != bar):
            self.problems.append(f"{self.origin}: {where} shares: "
                                 + _("must be two whole numbers (declarer, partner) summing to bar = {bar}", bar=bar))
        consolation, by_rank = g(lambda: self.amount(raw, "consolation", where, ranks), (0, {}))
        per_trick = g(lambda: self.whole(raw, "per_trick", where, 0, LIMIT), 0)
        per_undertrick = g(lambda: self.whole(raw, "per_undertrick", where, 0, LIMIT, default=per_trick), 0)
        slam = g(lambda: self.whole(raw, "slam", where, 1, 100, default=1), 1)
        slam_against = g(lambda: self.whole(raw, "slam_against", where, 1, 100, default=slam), 1)
        undertricks = g(lambda: self.whole(raw, "slam_against_undertricks", where, 0, tricks, default=bar or 0), 0)
        failed, failed_by_rank = g(lambda: self.amount(raw, "failed_consolation", where, ranks)
                                   if "failed_consolation" in raw else (None, {}), (None, {}))
        premium = g(lambda: self.whole(raw, "premium", where, 0, LIMIT, default=0), 0)
        self.done(start)
        return Schedule(key, kind, bar, consolation, per_trick, per_undertrick=per_undertrick, slam=slam,
                        slam_against=slam_against, slam_against_undertricks=undertricks,
                        shares=tuple(shares), failed_basket=failed_basket, by_rank=by_rank,
                        failed_consolation=None if failed_by_rank else failed, failed_by_rank=failed_by_rank,
                        premium=premium, takes_basket=takes_basket)

    def flag(self, raw: dict, key: str, where: str, default: bool = False) -> bool:
        value = raw.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"{where} {key}", _("must be true or false"))
        return value

    def table_row(self, raw: dict, key: str, where: str, count: int, flat: bool = False) -> tuple[int, ...]:
        """A row of a printed table: `count` whole numbers (or, where `flat`, one number for them all)."""
        value = raw.get(key)
        if flat and isinstance(value, int) and not isinstance(value, bool):
            value = [value] * count
        if not isinstance(value, list) or len(value) != count or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= LIMIT for v in value):
            raise self.fail(f"{where} {key}", _("must be a list of {count} whole numbers 0..{limit}", count=count,
                                                limit=LIMIT) + (_(" (or one number for them all)") if flat else ""))
        return tuple(value)

    def amount(self, raw: dict, key: str, where: str, ranks: dict[str, Rank]) -> tuple[int, dict[str, int]]:
        """A base amount: one whole number, or a table with one per rank."""
        value = raw.get(key)
        if isinstance(value, dict):
            unknown = sorted(set(value) - set(ranks))
            if unknown:
                raise self.fail(f"{where} {key}", _("unknown rank {rank!r}; [ranks] defines {known}",
                                                    rank=unknown[0], known=", ".join(ranks)))
            by_rank = {r: self.whole(value, r, f"{where} {key}", 0, LIMIT) for r in value}
            if not by_rank:
                raise self.fail(f"{where} {key}", _("an empty table; give a value for each rank"))
            return 0, by_rank
        return self.whole(raw, key, where, 0, LIMIT), {}

    def contract(self, key: str, raw: Any, schedules: dict[str, Schedule], ranks: dict[str, Rank],
                 broken: set[str] = frozenset()) -> Contract:
        where = f"[contracts.{key}]"
        if not isinstance(raw, dict):
            raise self.fail(where, _("must be a table"))
        if key == PASS:
            raise self.fail(where, _("{name!r} is the all-pass, not a contract", name=PASS))
        self.keys(raw, where, {"names", "ranks", "default_rank", "alone", "with_partner", "boston_made",
                               "boston_failed"})
        rank_keys = self.words(raw, "ranks", where)
        for r in rank_keys:
            if r not in ranks:
                raise self.fail(f"{where} ranks", _("unknown rank {rank!r}; [ranks] defines {known}",
                                                     rank=r, known=", ".join(ranks) or _("none")))
        default_rank = raw.get("default_rank")
        if default_rank is not None and default_rank not in rank_keys:
            raise self.fail(f"{where} default_rank", _("must be one of the contract's ranks ({ranks})",
                                                      ranks=", ".join(rank_keys)))
        if default_rank is None and len(rank_keys) == 1:
            default_rank = rank_keys[0]
        found: dict[str, Schedule | None] = {}
        for way in ("alone", "with_partner"):
            name = raw.get(way)
            if name is None:
                found[way] = None
                continue
            if not isinstance(name, str):
                raise self.fail(f"{where} {way}", _("must be the name of a schedule, not {value!r}", value=name))
            if name in broken:
                raise _Skip()
            if name not in schedules:
                raise self.fail(f"{where} {way}", _("unknown schedule {name!r}; [schedules] defines {known}",
                                                    name=name, known=", ".join(schedules)))
            schedule = schedules[name]
            for table in (schedule.by_rank, schedule.failed_by_rank):
                if not table:
                    continue
                gaps = [r for r in rank_keys if r not in table]
                if gaps or not rank_keys:
                    raise self.fail(f"[schedules.{name}]",
                                    _("its table has no value for rank {rank!r}, which {where} is played in",
                                      rank=(gaps or [_("(none)")])[0], where=where))
            found[way] = schedule
        if found["alone"] is None and found["with_partner"] is None:
            raise self.fail(where, _("needs `alone` or `with_partner` (a schedule name)"))
        alone = found["alone"]
        if alone is not None and alone.shares:
            raise self.fail(f"{where} alone", _("schedule {name!r} has `shares`, which need a partner; "
                                                "name a schedule without `shares`", name=alone.key))
        partnered = found["with_partner"]
        if partnered is not None and partnered.kind != "tricks":
            raise self.fail(f"{where} with_partner", _("must name a `tricks` schedule"))
        return Contract(
            key=key, names=self.words(raw, "names", where), ranks=rank_keys, default_rank=default_rank,
            alone=alone, with_partner=partnered,
            boston_made=self.word(raw, "boston_made", where, choices=BOSTON_RULES, default="holder"),
            boston_failed=self.word(raw, "boston_failed", where, choices=BOSTON_RULES, default="holder"),
        )

    def condition(self, key: str, raw: Any) -> Condition:
        where = f"[conditions.{key}]"
        if not isinstance(raw, dict):
            raise self.fail(where, _("must be a table"))
        self.keys(raw, where, {"title", "seed", "set", "remove", "in_force", "names"})
        if "set" in raw and not isinstance(raw["set"], dict):
            raise self.fail(f"{where} set", _("must be a table of changes merged over the tariff"))
        self.words(raw, "remove", where)
        in_force = raw.get("in_force", False)
        if not isinstance(in_force, bool):
            raise self.fail(f"{where} in_force", _("must be true or false"))
        if isinstance(raw.get("seed"), str):
            self.plain(raw["seed"], "seed", f"{where} seed")
        return Condition(key, self.word(raw, "title", where), raw.get("seed", "") or "", in_force,
                         self.words(raw, "names", where))
