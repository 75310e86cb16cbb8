"""Tariff files: read, validate and look up the numbers of a Boston system.

A tariff is a TOML file under `tariffs/`. This module knows its shape, never its numbers.
"""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import LedgerError

PASS = "pass"
BOSTON_RULES = ("holder", "none", "declarer-pays")
FAILED_BASKET = ("labet", "opponents")


class TariffError(LedgerError):
    """A tariff file that cannot be used; the message says where and what is expected."""


@dataclass(frozen=True)
class Rank:
    key: str
    names: tuple[str, ...]
    multiplier: int


@dataclass(frozen=True)
class Schedule:
    """How a contract pays: a trick table (`tricks`) or a flat value made on no trick (`null`)."""

    key: str
    kind: str
    bar: int
    consolation: int
    per_trick: int
    slam: int
    slam_against_undertricks: int
    shares: tuple[int, ...]
    failed_basket: str


@dataclass(frozen=True)
class Contract:
    key: str
    names: tuple[str, ...]
    ranks: tuple[str, ...]
    alone: Schedule | None
    with_partner: Schedule | None
    boston_made: str
    boston_failed: str


@dataclass(frozen=True)
class Tariff:
    name: str
    title: str
    source: str
    players: int
    tricks: int
    ranks: dict[str, Rank]
    tours: tuple[int, ...]
    stake: int
    all_pass: str
    pass_names: tuple[str, ...]
    boston: int
    schedules: dict[str, Schedule]
    contracts: dict[str, Contract]
    text: str

    @property
    def digest(self) -> str:
        """A short hash of the file's content, naming exactly this tariff."""
        return hashlib.sha256(self.text.encode()).hexdigest()[:12]

    @property
    def deals_per_partie(self) -> int:
        return self.players * len(self.tours)

    def contract_key(self, word: str) -> str | None:
        """The contract (or `pass`) a player's word means, in English or Russian."""
        w = word.strip().casefold().replace("_", "-").replace(" ", "-")
        if w == PASS or w in (n.casefold() for n in self.pass_names):
            return PASS
        for key, contract in self.contracts.items():
            if w == key.casefold() or w in (n.casefold() for n in contract.names):
                return key
        return None

    def rank_key(self, word: str) -> str | None:
        w = word.strip().casefold()
        for key, rank in self.ranks.items():
            if w == key.casefold() or w in (n.casefold() for n in rank.names):
                return key
        return None


def tariff_dirs() -> list[Path]:
    """Where shipped tariffs live: inside the installed package, or the source tree's `tariffs/`."""
    here = Path(__file__).resolve().parent
    return [d for d in (here / "tariffs", here.parent / "tariffs") if d.is_dir()]


def shipped() -> dict[str, Path]:
    """Every shipped tariff by name."""
    found: dict[str, Path] = {}
    for d in tariff_dirs():
        for path in sorted(d.glob("*.toml")):
            found.setdefault(path.stem, path)
    return found


def locate(name_or_path: str) -> Path:
    """The file a `--tariff` value names: a shipped tariff's name, or a path to a TOML file."""
    files = shipped()
    if name_or_path in files:
        return files[name_or_path]
    path = Path(name_or_path).expanduser()
    if path.is_file():
        return path
    known = ", ".join(sorted(files)) or "none"
    raise TariffError(
        f"no tariff {name_or_path!r}: give a shipped tariff ({known}) or the path of a TOML file"
    )


def load(name_or_path: str) -> Tariff:
    """Read and validate a tariff by name or path."""
    path = locate(name_or_path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise TariffError(f"cannot read tariff file {path}: {e}") from None
    return parse(text, origin=str(path))


def parse(text: str, origin: str = "<tariff>") -> Tariff:
    """Validate a tariff's TOML text and build the Tariff; TariffError names the first problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise TariffError(f"{origin}: not valid TOML: {e}") from None
    return _Reader(origin).tariff(data, text)


class _Reader:
    """Validation with locations: every error says `file: [table] key: what is expected`."""

    def __init__(self, origin: str):
        self.origin = origin

    def fail(self, where: str, message: str) -> TariffError:
        return TariffError(f"{self.origin}: {where}: {message}")

    def table(self, data: dict, key: str, where: str, required: bool = True) -> dict:
        value = data.get(key)
        if value is None and not required:
            return {}
        if not isinstance(value, dict):
            raise self.fail(where, f"missing table [{key}]" if value is None else "must be a table")
        return value

    def keys(self, data: dict, where: str, allowed: set[str]) -> None:
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise self.fail(where, f"unknown key {unknown[0]!r}; expected one of {', '.join(sorted(allowed))}")

    def whole(self, data: dict, key: str, where: str, low: int, high: int, default: int | None = None) -> int:
        value = data.get(key, default)
        if value is None:
            raise self.fail(where, f"missing {key} (a whole number {low}..{high})")
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(f"{where} {key}", f"must be a whole number {low}..{high}, not {value!r}")
        return value

    def word(self, data: dict, key: str, where: str, choices: tuple[str, ...] | None = None, default: str | None = None) -> str:
        value = data.get(key, default)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{where} {key}", f"must be a non-empty string, not {value!r}")
        if choices and value not in choices:
            raise self.fail(f"{where} {key}", f"must be one of {', '.join(choices)}, not {value!r}")
        return value

    def words(self, data: dict, key: str, where: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.fail(f"{where} {key}", "must be a list of non-empty strings")
        return tuple(value)

    def tariff(self, data: dict, text: str) -> Tariff:
        self.keys(data, "top level", {"tariff", "ranks", "partie", "basket", "boston", "schedules", "contracts"})
        head = self.table(data, "tariff", "top level")
        self.keys(head, "[tariff]", {"name", "title", "source", "scoring", "players", "tricks"})
        self.word(head, "scoring", "[tariff]", choices=("chips",))
        players = self.whole(head, "players", "[tariff]", 2, 8)
        tricks = self.whole(head, "tricks", "[tariff]", 1, 52)
        ranks = {}
        for key, raw in self.table(data, "ranks", "top level").items():
            where = f"[ranks.{key}]"
            if not isinstance(raw, dict):
                raise self.fail(where, "must be a table")
            self.keys(raw, where, {"names", "multiplier"})
            ranks[key] = Rank(key, self.words(raw, "names", where), self.whole(raw, "multiplier", where, 1, 1000))
        partie = self.table(data, "partie", "top level")
        self.keys(partie, "[partie]", {"tours"})
        tours = partie.get("tours")
        if not isinstance(tours, list) or not tours or not all(
            isinstance(t, int) and not isinstance(t, bool) and 1 <= t <= 100 for t in tours
        ):
            raise self.fail("[partie] tours", "must be a non-empty list of multipliers (whole numbers 1..100), one per tour")
        basket = self.table(data, "basket", "top level")
        self.keys(basket, "[basket]", {"stake", "all_pass", "pass_names"})
        boston = self.table(data, "boston", "top level")
        self.keys(boston, "[boston]", {"amount"})
        schedules = {
            key: self.schedule(key, raw, tricks)
            for key, raw in self.table(data, "schedules", "top level").items()
        }
        contracts = {
            key: self.contract(key, raw, schedules, ranks)
            for key, raw in self.table(data, "contracts", "top level").items()
        }
        if not contracts:
            raise self.fail("[contracts]", "no contract defined")
        return Tariff(
            name=self.word(head, "name", "[tariff]"),
            title=self.word(head, "title", "[tariff]"),
            source=self.word(head, "source", "[tariff]"),
            players=players,
            tricks=tricks,
            ranks=ranks,
            tours=tuple(tours),
            stake=self.whole(basket, "stake", "[basket]", 0, 10**6),
            all_pass=self.word(basket, "all_pass", "[basket]", choices=("double",)),
            pass_names=self.words(basket, "pass_names", "[basket]"),
            boston=self.whole(boston, "amount", "[boston]", 0, 10**6),
            schedules=schedules,
            contracts=contracts,
            text=text,
        )

    def schedule(self, key: str, raw: Any, tricks: int) -> Schedule:
        where = f"[schedules.{key}]"
        if not isinstance(raw, dict):
            raise self.fail(where, "must be a table")
        kind = self.word(raw, "kind", where, choices=("tricks", "null"))
        failed_basket = self.word(raw, "failed_basket", where, choices=FAILED_BASKET)
        if kind == "null":
            self.keys(raw, where, {"kind", "value", "failed_basket"})
            value = self.whole(raw, "value", where, 0, 10**6)
            return Schedule(key, kind, 0, value, 0, 1, 0, (), failed_basket)
        self.keys(raw, where, {"kind", "bar", "shares", "consolation", "per_trick", "slam",
                               "slam_against_undertricks", "failed_basket"})
        bar = self.whole(raw, "bar", where, 1, tricks)
        shares = raw.get("shares", [])
        if shares:
            if (not isinstance(shares, list) or len(shares) != 2
                    or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in shares)
                    or sum(shares) != bar):
                raise self.fail(f"{where} shares", f"must be two whole numbers (declarer, partner) summing to bar = {bar}")
        return Schedule(
            key, kind, bar,
            consolation=self.whole(raw, "consolation", where, 0, 10**6),
            per_trick=self.whole(raw, "per_trick", where, 0, 10**6),
            slam=self.whole(raw, "slam", where, 1, 100, default=1),
            slam_against_undertricks=self.whole(raw, "slam_against_undertricks", where, 0, tricks, default=bar),
            shares=tuple(shares),
            failed_basket=failed_basket,
        )

    def contract(self, key: str, raw: Any, schedules: dict[str, Schedule], ranks: dict[str, Rank]) -> Contract:
        where = f"[contracts.{key}]"
        if not isinstance(raw, dict):
            raise self.fail(where, "must be a table")
        if key == PASS:
            raise self.fail(where, f"{PASS!r} is the all-pass, not a contract")
        self.keys(raw, where, {"names", "ranks", "alone", "with_partner", "boston_made", "boston_failed"})
        rank_keys = self.words(raw, "ranks", where)
        for r in rank_keys:
            if r not in ranks:
                raise self.fail(f"{where} ranks", f"unknown rank {r!r}; [ranks] defines {', '.join(ranks) or 'none'}")
        found: dict[str, Schedule | None] = {}
        for way in ("alone", "with_partner"):
            name = raw.get(way)
            if name is None:
                found[way] = None
                continue
            if name not in schedules:
                raise self.fail(f"{where} {way}", f"unknown schedule {name!r}; [schedules] defines {', '.join(schedules)}")
            found[way] = schedules[name]
        if found["alone"] is None and found["with_partner"] is None:
            raise self.fail(where, "needs `alone` or `with_partner` (a schedule name)")
        alone = found["alone"]
        if alone is not None and alone.shares:
            raise self.fail(f"{where} alone", f"schedule {alone.key!r} has `shares`, which need a partner; "
                                              "name a schedule without `shares`")
        partnered = found["with_partner"]
        if partnered is not None and (partnered.kind != "tricks" or not partnered.shares):
            raise self.fail(f"{where} with_partner", "must name a `tricks` schedule with `shares`")
        return Contract(
            key=key,
            names=self.words(raw, "names", where),
            ranks=rank_keys,
            alone=found["alone"],
            with_partner=partnered,
            boston_made=self.word(raw, "boston_made", where, choices=BOSTON_RULES, default="holder"),
            boston_failed=self.word(raw, "boston_failed", where, choices=BOSTON_RULES, default="holder"),
        )
