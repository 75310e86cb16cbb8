"""A tariff's data (as TOML reads it, `extends` and conditions resolved) checked and made a
`Tariff`: every problem with its place, `file: [table] key: what is expected`.

The keys a table may hold are the fields of the record it fills (`core/tariff.py`: `Rank`,
`Basket`, `Schedule`, `Contract`, `Condition`), and the few that are not fields (`KEYS`): a new
key is a new field, and its reading here. What a user's file may hold is bounded (`LONGEST`,
`MOST_WORDS`); a tariff stored with a session is read as it was accepted then.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Set
from functools import partial
from typing import Any, TypeVar, overload

from .i18n import FORMS, REASON_LABELS, SEED_WORDS, SEEDS, GameWords, Refused, _, ngettext
from .tariff import (ALL_PASS, ALL_PASS_REMAINDER, ALONE_BY, BASE_PAYMENT, BOSTON_RULES, BOSTON_SLAM_FOR, COLUMNS,
                     DIVIDE_AMONG, FAILED_BASKET, GENDERS, LABET_ODD_CHIP, LIMIT, MISDEAL, MISDEAL_DEALER, PASS, PAYS,
                     SCORING, SHARE_REMAINDER, STAKE_AT, STAKE_PAYERS, Basket, Condition, Contract, Rank, Schedule,
                     Tariff, TariffError, folded)
from .controls import CONTROL, CONTROL_IN_LINES

T = TypeVar("T")
D = TypeVar("D")

SLUG = re.compile(r"[^\W_][\w-]{0,39}")  # a tariff's name: letters and digits, '-' and '_' inside
LINES = {"source", "notes", "seed"}  # texts of several lines: a line break (and a tab) is theirs
# The most characters a text of a user's file holds (the shipped tariffs' longest: a word 27, a
# title 163, a source, note or seed 324); any other string (a word, a name, a table's) WORD.
WORD = 100
LONGEST = {"title": 1_000, **dict.fromkeys(FORMS, 1_000), **dict.fromkeys(LINES, 10_000)}  # FORMS: [words]' texts
MOST_WORDS = 100  # in one list (names, pass words, notes...: the shipped tariffs' longest holds 9)
SHOWN = 60  # the most characters of a value an error message quotes


def _keys(record: Any, without: Iterable[str] = (), more: Iterable[str] = ()) -> frozenset[str]:
    """The keys of a table that fills `record`: its fields but `key` (the table's own name) and
    those `without`, and `more`."""
    return frozenset(record._fields) - {"key", *without} | frozenset(more)


_BY_KIND = ("failed_per_trick", "takes", "made_table", "failed_table")  # fields of `null` and `table` only
KEYS = {  # the keys of each table, by the table ([schedules.NAME] by its kind)
    "top level": frozenset({"tariff", "ranks", "partie", "basket", "boston", "bonuses", "schedules", "contracts",
                            "conditions", "notes", "ladders", "ladder_exceptions", "abbreviations", "words"}),
    "tariff": frozenset({"name", "title", "source", "scoring", "players", "tricks", "conditions", "base_payment"}),
    "ranks": _keys(Rank),
    "partie": frozenset({"tours", "until_pool_won"}),
    "basket": _keys(Basket),
    "boston": frozenset({"amount", "slam_multiplier", "slam_for"}),
    "bonuses": frozenset({"carte_blanche", "honours", "jack"}),
    # by_rank and failed_by_rank: a table of one value per rank given as `consolation`, `failed_consolation`
    "tricks": _keys(Schedule, without=("by_rank", "failed_by_rank", *_BY_KIND)),
    "null": frozenset({"kind", "failed_basket", "takes_basket", "takes_basket_conceded", "failed_per_trick", "takes",
                       "value"}),
    "table": frozenset({"kind", "failed_basket", "takes_basket", "takes_basket_conceded", "bar", "made", "failed"}),
    "contracts": _keys(Contract),
    "conditions": _keys(Condition, more=("set", "remove")),
    "words": frozenset({*SEED_WORDS, "payments", "refused"}),
    "refused": frozenset({"names", *FORMS}),
}


def read(data: dict[str, Any], text: str, origin: str, stored: bool = False) -> tuple[Tariff | None, list[str]]:
    """The Tariff of resolved data, and every problem found (the tariff only when there is none);
    `stored` for one kept with a session (read as it was accepted then: its name is not held to
    today's rule, nor its texts to today's bounds)."""
    reader = _Reader(origin, stored)
    tariff = reader.tariff(data, text)
    return tariff, reader.problems


def build(data: dict[str, Any], text: str, origin: str, stored: bool = False) -> Tariff:
    """The Tariff of resolved data; TariffError with the first problem (and how many more)."""
    tariff, problems = read(data, text, origin, stored)
    if problems:
        more = len(problems) - 1
        hint = " " + _("(and {more} more: `boston-ledger tariffs check FILE` lists them)", more=more) if more else ""
        raise TariffError(problems[0] + hint, problems)
    assert tariff is not None
    return tariff


class _Problem(Exception):
    pass


def _code(ch: str) -> str:
    return f"U+{ord(ch):04X}"


class _Shown:
    """A value of a file as an error message quotes it (`{value!r}`): cut short when it is long."""

    def __init__(self, value: Any):
        self.value = value

    def __repr__(self) -> str:
        text = repr(self.value)
        return text if len(text) <= SHOWN else text[:SHOWN - 1] + "…"


class _Skip(Exception):
    """A table that refers to another table already reported broken: nothing more to say."""


class _Reader:
    """Validation with locations: every error says `file: [table] key: what is expected`.

    Each table is checked on its own, so one run finds a problem in every table that has one.
    """

    def __init__(self, origin: str, stored: bool = False):
        self.origin = origin
        self.stored = stored
        self.problems: list[str] = []

    def fail(self, where: str, message: str) -> _Problem:
        return _Problem(f"{self.origin}: {where}: {message}")

    def each(self, items: Iterable[tuple[str, Any]], build: Callable[[str, Any], T], kind: str = "") -> dict[str, T]:
        out = {}
        for key, raw in items:
            try:
                self.bounded(key, "", f"[{kind}] {_Shown(key)!r}")
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

    @overload
    def guard(self, fn: Callable[[], T]) -> T | None: ...

    @overload
    def guard(self, fn: Callable[[], T], default: D) -> T | D: ...

    def guard(self, fn: Callable[[], T], default: Any = None) -> Any:
        """What `fn` gives; when it finds a problem, the problem kept and `default` given instead (its
        table then ends in `done`, which leaves it out)."""
        try:
            return fn()
        except _Problem as e:
            self.problems.append(str(e))
            return default
        except _Skip:
            return default

    def table(self, data: dict[str, Any], key: str, where: str, required: bool = True) -> dict[str, Any]:
        value = data.get(key)
        if value is None and not required:
            return {}
        if not isinstance(value, dict):
            raise self.fail(where, _("missing table [{key}]", key=key) if value is None
                            else _("[{key}] must be a table", key=key))
        return value

    def keys(self, data: dict[str, Any], where: str, table: str) -> None:
        """Report every key that is not one of the table's (`KEYS`), without stopping its other checks."""
        allowed = KEYS[table]
        for key in sorted(set(data) - allowed):
            self.problems.append(f"{self.origin}: {where}: "
                                 + _("unknown key {key!r}; expected one of {allowed}",
                                     key=_Shown(key), allowed=", ".join(sorted(allowed))))

    def done(self, start: int) -> None:
        """End of a table: if it reported anything, leave it out (tables naming it stay quiet)."""
        if len(self.problems) > start:
            raise _Skip()

    def whole(self, data: dict[str, Any], key: str, where: str, low: int, high: int, default: int | None = None) -> int:
        value = data.get(key, default)
        if value is None:
            raise self.fail(where, _("missing {key} (a whole number {low}..{high})", key=key, low=low, high=high))
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(f"{where} {key}", _("must be a whole number {low}..{high}, not {value!r}",
                                                low=low, high=high, value=_Shown(value)))
        return value

    def word(self, data: dict[str, Any], key: str, where: str, choices: tuple[str, ...] | None = None,
             default: str | None = None, text: bool = True) -> str:
        value = data.get(key, default)
        if not isinstance(value, str) or not value.strip():
            raise self.fail(f"{where} {key}", _("must be a non-empty string, not {value!r}", value=_Shown(value)))
        self.bounded(value, key, f"{where} {key}")
        if choices and value not in choices:
            raise self.fail(f"{where} {key}", _("must be one of {choices}, not {value!r}",
                                                choices=", ".join(choices), value=value))
        if text:
            self.plain(value, key, f"{where} {key}")
        return value

    def words(self, data: dict[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
            raise self.fail(f"{where} {key}", _("must be a list of non-empty strings"))
        if len(value) > MOST_WORDS and not self.stored:
            raise self.fail(f"{where} {key}", ngettext("too many: {n} entry, at most {most}",
                                                       "too many: {n} entries, at most {most}", len(value),
                                                       most=MOST_WORDS))
        for v in value:
            self.bounded(v, key, f"{where} {key}")
            self.plain(v, key, f"{where} {key}")
        return tuple(value)

    def bounded(self, value: str, key: str, where: str) -> None:
        """A text of a user's file is no longer than its kind's bound (`LONGEST`, else `WORD`)."""
        most = LONGEST.get(key, WORD)
        if len(value) > most and not self.stored:
            raise self.fail(where, ngettext("too long: {n} character, at most {most}",
                                            "too long: {n} characters, at most {most}", len(value), most=most))

    def plain(self, value: str, key: str, where: str) -> None:
        """A word or title of a user's file holds no control character (a text of several lines,
        `LINES`, may hold line breaks and tabs)."""
        if self.stored:
            return
        found = (CONTROL_IN_LINES if key in LINES else CONTROL).search(value)
        if found is not None:
            raise self.fail(where, _("must be plain text: {value!r} holds the control character {code}",
                                     value=_Shown(value), code=_code(found.group())))

    def tariff(self, data: dict[str, Any], text: str) -> Tariff | None:
        self.guard(lambda: self.keys(data, _("top level"), "top level"))
        head = self.guard(lambda: self.head(data), {})
        players = self.guard(lambda: self.whole(head, "players", "[tariff]", 2, 8), 4)
        tricks = self.guard(lambda: self.whole(head, "tricks", "[tariff]", 1, 52), 13)
        scoring = self.guard(lambda: self.word(head, "scoring", "[tariff]", choices=SCORING), "chips")
        ranks = self.each(self.guard(lambda: self.table(data, "ranks", _("top level")), {}).items(), self.rank,
                          "ranks")
        tours = self.guard(lambda: self.tours(data), (1,))
        partie: dict[str, Any] = data["partie"] if isinstance(data.get("partie"), dict) else {}
        until_pool_won = self.guard(lambda: self.flag(partie, "until_pool_won", "[partie]"), False)
        basket = self.guard(lambda: self.table(data, "basket", _("top level")), {})
        basket_values = self.guard(lambda: self.basket(basket, scoring), None)
        boston = self.guard(lambda: self.table(data, "boston", _("top level")), {})
        boston_values = self.guard(lambda: self.boston(boston, scoring), None)
        bonuses = self.guard(lambda: self.table(data, "bonuses", _("top level"), required=False), {})
        carte_blanche = self.guard(lambda: self.bonuses(bonuses), 0)
        jack = self.guard(lambda: self.whole(bonuses, "jack", "[bonuses]", 0, LIMIT, default=0), 0)
        honours = self.guard(lambda: self.honours(bonuses), ())
        schedules = self.each(self.guard(lambda: self.table(data, "schedules", _("top level")), {}).items(),
                              lambda k, raw: self.schedule(k, raw, tricks, scoring, ranks), "schedules")
        raw_schedules = data.get("schedules")
        broken = set(raw_schedules if isinstance(raw_schedules, dict) else ()) - set(schedules)
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
        raw_contracts = data.get("contracts")
        abbreviations = self.guard(lambda: self.abbreviations(data, contracts, basket_values, set(
            raw_contracts if isinstance(raw_contracts, dict) else ()) - set(contracts)), {})
        words = self.guard(lambda: self.game_words(data), SEEDS)
        if self.problems or basket_values is None or boston_values is None or base_payment is None:
            return None
        return Tariff(
            name=head["name"], title=head["title"], source=head["source"], scoring=scoring,
            players=players, tricks=tricks, ranks=ranks, tours=tours,
            basket=basket_values,
            boston=boston_values[0], boston_slam=boston_values[1], carte_blanche=carte_blanche,
            schedules=schedules, contracts=contracts, conditions=conditions, applied=applied,
            notes=notes, text=text, boston_slam_for=boston_values[2], ladders=ladders,
            ladder_exceptions=exceptions, base_payment=base_payment, honours=honours, abbreviations=abbreviations,
            jack=jack, until_pool_won=bool(until_pool_won), words=words,
        )

    def game_words(self, data: dict[str, Any]) -> GameWords:
        """`[words]`: the game's own words where they are not the seeds' (each in every form of a
        language it gives), its payments' names, and what it refuses and why (in every language)."""
        table = self.table(data, "words", _("top level"), required=False)
        if not table:
            return SEEDS
        start = len(self.problems)
        self.keys(table, "[words]", "words")
        nouns: dict[str, dict[str, dict[str, str]]] = {}
        for noun in SEED_WORDS:
            if noun in table:
                nouns[noun] = self.guard(partial(self.forms, table, noun), {})
        payments: dict[str, dict[str, str]] = {}
        for key, raw in self.table(table, "payments", "[words]", required=False).items():
            where = f"[words.payments] {_Shown(key)!r}"
            if key not in REASON_LABELS:
                self.problems.append(f"{self.origin}: {where}: " + _(
                    "unknown payment; expected one of {allowed}", allowed=", ".join(REASON_LABELS)))
                continue
            payments[key] = self.guard(partial(self.by_language, raw, where), {})
        refused: dict[str, Refused] = {}
        for key, raw in self.table(table, "refused", "[words]", required=False).items():
            where = f"[words.refused.{key}]"
            if not isinstance(raw, dict):
                self.problems.append(f"{self.origin}: {where}: " + _("must be a table"))
                continue
            self.keys(raw, where, "refused")
            names = self.guard(partial(self.words, raw, "names", where), ())
            if not names:
                self.problems.append(f"{self.origin}: {where} names: " + _("must be a list of non-empty strings"))
            why = self.guard(partial(self.by_language, {k: v for k, v in raw.items() if k != "names"}, where, True), {})
            refused[key] = Refused(names, why)
        self.done(start)
        return GameWords(nouns, payments, refused)

    def forms(self, table: dict[str, Any], noun: str) -> dict[str, dict[str, str]]:
        """A word of `[words]`: for each language given, a table of every one of its forms."""
        where = f"[words.{noun}]"
        raw = self.table(table, noun, "[words]")
        out: dict[str, dict[str, str]] = {}
        for lang, forms in raw.items():
            if lang not in FORMS:
                raise self.fail(where, _("unknown language {key!r}; expected one of {allowed}", key=_Shown(lang),
                                         allowed=", ".join(FORMS)))
            if not isinstance(forms, dict) or set(forms) != set(FORMS[lang]):
                raise self.fail(f"{where} {lang}", _("must be a table of every form: {forms}",
                                                     forms=", ".join(FORMS[lang])))
            out[lang] = {form: self.word(forms, form, f"{where} {lang}") for form in FORMS[lang]}
        return out

    def by_language(self, raw: Any, where: str, every: bool = False) -> dict[str, str]:
        """A text in each language given (`every`: in every language), {en = "...", ru = "..."}."""
        if not isinstance(raw, dict) or not set(raw) <= set(FORMS) or (every and set(raw) != set(FORMS)):
            raise self.fail(where, _("must be a table of texts by language: {languages}", languages=", ".join(FORMS)))
        return {lang: self.word(raw, lang, where) for lang in raw}

    def abbreviations(self, data: dict[str, Any], contracts: dict[str, Contract], basket: Basket | None,
                      broken: Set[str]) -> dict[str, tuple[str, ...]]:
        """`[abbreviations]`: for a contract (or pass, misdeal), short words that name it whole even
        where they begin other names; none may be another's name or abbreviation."""
        table = self.table(data, "abbreviations", _("top level"), required=False)
        if basket is None:
            raise _Skip()
        named: dict[str, str] = {}  # a folded name: the entry it names
        for key, names in [(PASS, (PASS, *basket.pass_names)), (MISDEAL, (MISDEAL, *basket.misdeal_names)),
                           *((k, (k, *c.names)) for k, c in contracts.items())]:
            for name in names:
                named.setdefault(folded(name), key)
        out: dict[str, tuple[str, ...]] = {}
        short: dict[str, str] = {}  # a folded abbreviation: the entry it names
        for key in table:
            where = f"[abbreviations] {_Shown(key)!r}"
            if key in broken:
                continue
            if key not in contracts and key not in (PASS, MISDEAL):
                self.problems.append(f"{self.origin}: {where}: " + _(
                    "no contract of the tariff, nor pass or misdeal; its contracts: {known}",
                    known=", ".join(contracts) or _("none")))
                continue
            words = self.guard(partial(self.words, table, key, "[abbreviations]"), ())
            for word in words:
                other = named.get(folded(word), short.get(folded(word), key))
                if other != key:
                    self.problems.append(f"{self.origin}: {where}: " + _(
                        "{word!r} names {other} already; an abbreviation names one thing only",
                        word=_Shown(word), other=other))
                short.setdefault(folded(word), key)
            out[key] = words
        return out

    def ladders(self, data: dict[str, Any]) -> tuple[tuple[str, ...], ...]:
        """`ladders`: lists of contract names, each from the lowest contract to the highest."""
        value = data.get("ladders", [])
        if not isinstance(value, list) or not all(
                isinstance(ladder, list) and all(isinstance(k, str) and k.strip() for k in ladder) for ladder in value):
            raise self.fail("ladders", _("must be a list of lists of contract names, each from the lowest "
                                         "contract to the highest"))
        for ladder in value:
            for name in ladder:
                self.bounded(name, "ladders", "ladders")
        return tuple(tuple(ladder) for ladder in value)

    def ladder_exceptions(self, data: dict[str, Any],
                          ladders: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, str], ...]:
        """`ladder_exceptions`: pairs [lower, higher] of one ladder whose breaches the source's own tables make."""
        value = data.get("ladder_exceptions", [])
        if not isinstance(value, list) or not all(
                isinstance(pair, list) and len(pair) == 2 and all(isinstance(k, str) for k in pair) for pair in value):
            raise self.fail("ladder_exceptions", _("must be a list of pairs [lower, higher] of contract names"))
        for low, high in value:
            if not any(low in ladder and high in ladder[ladder.index(low) + 1:] for ladder in ladders):
                raise self.fail("ladder_exceptions", _("{low!r} is not below {high!r} in one of the ladders",
                                                       low=_Shown(low), high=_Shown(high)))
        return tuple((low, high) for low, high in value)

    def head(self, data: dict[str, Any]) -> dict[str, Any]:
        head = self.table(data, "tariff", _("top level"))
        self.keys(head, "[tariff]", "tariff")
        for key in ("name", "title", "source"):  # the name is held to SLUG below
            self.guard(partial(self.word, head, key, "[tariff]", text=key != "name"))
        name = head.get("name")
        if isinstance(name, str) and name.strip() and not SLUG.fullmatch(name) and not self.stored:
            self.problems.append(f"{self.origin}: [tariff] name: " + _(
                "must be a short name of letters, digits, '-' and '_' such as my-club, not {value!r}",
                value=_Shown(name)))
        return head

    def rank(self, key: str, raw: Any) -> Rank:
        where = f"[ranks.{key}]"
        if not isinstance(raw, dict):
            raise self.fail(where, _("must be a table"))
        self.keys(raw, where, "ranks")
        column = self.word(raw, "column", where, choices=COLUMNS) if "column" in raw else ""
        return Rank(key=key, names=self.words(raw, "names", where),
                    multiplier=self.whole(raw, "multiplier", where, 1, 1000, default=1), column=column)

    def tours(self, data: dict[str, Any]) -> tuple[int, ...]:
        partie = self.table(data, "partie", _("top level"))
        self.keys(partie, "[partie]", "partie")
        tours = partie.get("tours")
        if not isinstance(tours, list) or not tours or not all(
            isinstance(t, int) and not isinstance(t, bool) and 1 <= t <= 100 for t in tours
        ):
            raise self.fail("[partie] tours",
                            _("must be a non-empty list of multipliers (whole numbers 1..100), one per tour"))
        return tuple(tours)

    def basket(self, basket: dict[str, Any], scoring: str) -> Basket:
        start = len(self.problems)
        g = self.guard
        self.keys(basket, "[basket]", "basket")

        def whole(key: str, low: int = 0, default: int | None = 0) -> int:
            return g(lambda: self.whole(basket, key, "[basket]", low, LIMIT, default=default), 0)

        def word(key: str, choices: tuple[str, ...], default: str | None) -> str:
            return g(lambda: self.word(basket, key, "[basket]", choices=choices, default=default), "")

        stake = whole("stake", default=None)
        stake_payer = word("stake_payer", STAKE_PAYERS, "each")
        remise = whole("remise")
        all_pass = word("all_pass", ALL_PASS, None)
        pass_names = g(lambda: self.words(basket, "pass_names", "[basket]"), ())
        all_pass_remainder = word("all_pass_remainder", ALL_PASS_REMAINDER, "dealer")
        labet_odd_chip = word("labet_odd_chip", LABET_ODD_CHIP, "declarer")
        share_remainder = word("share_remainder", SHARE_REMAINDER, "stays")
        stake_at = word("stake_at", STAKE_AT, "start-and-award")
        partout_per_trick = (whole("partout_per_trick", 1, None)
                             if all_pass == "misere-partout" or "partout_per_trick" in basket else 0)
        pool_limit = whole("pool_limit")
        misdeal_dealer = word("misdeal_dealer", MISDEAL_DEALER, "next")
        misdeal_names = g(lambda: self.words(basket, "misdeal_names", "[basket]"), ())
        misdeal_penalty = whole("misdeal_penalty")
        concede = g(lambda: self.flag(basket, "concede", "[basket]"), False)
        divide_every = whole("divide_every")
        divide_among = word("divide_among", DIVIDE_AMONG, "all")
        stake_doubles = g(lambda: self.flag(basket, "stake_doubles", "[basket]"), False)
        if scoring == "points" and (stake or remise or misdeal_penalty or pool_limit
                                    or all_pass not in ("", "nothing")):
            raise self.fail("[basket]",
                            _("a points tariff has no basket: stake = 0, no remise, all_pass = \"nothing\""))
        self.done(start)
        return Basket(stake=stake, stake_payer=stake_payer, remise=remise, all_pass=all_pass, pass_names=pass_names,
                      all_pass_remainder=all_pass_remainder, labet_odd_chip=labet_odd_chip,
                      share_remainder=share_remainder, stake_at=stake_at, partout_per_trick=partout_per_trick,
                      misdeal_names=misdeal_names, misdeal_penalty=misdeal_penalty, pool_limit=pool_limit,
                      misdeal_dealer=misdeal_dealer, concede=concede, divide_every=divide_every,
                      divide_among=divide_among, stake_doubles=stake_doubles)

    def boston(self, boston: dict[str, Any], scoring: str) -> tuple[int, int, str]:
        start = len(self.problems)
        self.keys(boston, "[boston]", "boston")
        amount = self.guard(lambda: self.whole(boston, "amount", "[boston]", 0, LIMIT), 0)
        slam = self.guard(lambda: self.whole(boston, "slam_multiplier", "[boston]", 1, 100, default=1), 1)
        slam_for = self.guard(lambda: self.word(boston, "slam_for", "[boston]", choices=BOSTON_SLAM_FOR,
                                                default="anyone"), "anyone")
        if scoring == "points" and amount:
            raise self.fail("[boston] amount", _("a points tariff pays no boston: must be 0"))
        self.done(start)
        return amount, slam, slam_for

    def bonuses(self, bonuses: dict[str, Any]) -> int:
        self.keys(bonuses, "[bonuses]", "bonuses")
        return self.whole(bonuses, "carte_blanche", "[bonuses]", 0, LIMIT, default=0)

    def honours(self, bonuses: dict[str, Any]) -> tuple[int, ...]:
        """`[bonuses] honours`: the over-tricks paid for 0, 1, 2... of the trump's honours held by a made
        declarer (a deal's `honours`), at his schedule's rate per trick."""
        value = bonuses.get("honours", [])
        if not isinstance(value, list) or (not 2 <= len(value) <= 5 and value) or not all(
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
        # after a problem: kind "" (the other keys checked as a `tricks` schedule's), failed_basket "", bar 0
        kind = g(lambda: self.word(raw, "kind", where, choices=("tricks", "null", "table")), "")
        failed_basket = g(lambda: self.word(raw, "failed_basket", where, choices=FAILED_BASKET), "")
        if failed_basket and (scoring == "points") != (failed_basket == "none"):
            self.problems.append(f"{self.origin}: {where} failed_basket: "
                                 + _("must be \"none\" exactly when the tariff scores points"))
        takes_basket = g(lambda: self.flag(raw, "takes_basket", where, default=True), True)
        conceded = g(lambda: self.flag(raw, "takes_basket_conceded", where) if "takes_basket_conceded" in raw else None,
                     None)
        if kind == "null":
            self.keys(raw, where, "null")
            value, by_rank = g(lambda: self.amount(raw, "value", where, ranks), (0, {}))
            failed_per_trick = g(lambda: self.flag(raw, "failed_per_trick", where), False)
            takes = g(lambda: self.whole(raw, "takes", where, 0, tricks, default=0), 0)
            self.done(start)
            return Schedule(key=key, kind=kind, failed_basket=failed_basket, consolation=value, by_rank=by_rank,
                            failed_per_trick=failed_per_trick, takes_basket=takes_basket, takes=takes,
                            takes_basket_conceded=conceded)
        if kind == "table":
            self.keys(raw, where, "table")
            bar = g(lambda: self.whole(raw, "bar", where, 1, tricks), 0)
            made_table = g(lambda: self.table_row(raw, "made", where, tricks - bar + 1, flat=True) if bar else (), ())
            failed_table = g(lambda: self.table_row(raw, "failed", where, bar) if bar else (), ())
            if made_table and any(v < made_table[0] for v in made_table):
                self.problems.append(f"{self.origin}: {where} made: "
                                     + _("a value below the first one ({first}): more tricks never pay less",
                                         first=made_table[0]))
            self.done(start)
            return Schedule(key=key, kind=kind, failed_basket=failed_basket, bar=bar, takes_basket=takes_basket,
                            made_table=made_table, failed_table=failed_table, takes_basket_conceded=conceded)
        self.keys(raw, where, "tricks")
        bar = g(lambda: self.whole(raw, "bar", where, 1, tricks), 0)
        shares = raw.get("shares", [])
        if shares and bar and (not isinstance(shares, list) or len(shares) != 2
                       or not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in shares)
                       or sum(shares) != bar):
            self.problems.append(f"{self.origin}: {where} shares: "
                                 + _("must be two whole numbers (declarer, partner) summing to bar = {bar}", bar=bar))
        consolation, by_rank = g(lambda: self.amount(raw, "consolation", where, ranks), (0, {}))
        per_trick = g(lambda: self.whole(raw, "per_trick", where, 0, LIMIT), 0)
        per_undertrick = g(lambda: self.whole(raw, "per_undertrick", where, 0, LIMIT, default=per_trick), 0)
        slam = g(lambda: self.whole(raw, "slam", where, 1, 100, default=1), 1)
        slam_against = g(lambda: self.whole(raw, "slam_against", where, 1, 100, default=slam), 1)
        undertricks = g(lambda: self.whole(raw, "slam_against_undertricks", where, 0, tricks, default=bar), 0)
        failed, failed_by_rank = g(lambda: self.amount(raw, "failed_consolation", where, ranks)
                                   if "failed_consolation" in raw else (None, {}), (None, {}))
        premium = g(lambda: self.whole(raw, "premium", where, 0, LIMIT, default=0), 0)
        pays = g(lambda: self.word(raw, "pays", where, choices=PAYS, default="each"), "each")
        honours = g(lambda: self.schedule_honours(raw, where), ())
        slam_at = g(lambda: self.whole(raw, "slam_at", where, 0, tricks, default=0), 0)
        slam_value = g(lambda: self.amount(raw, "slam_value", where, ranks)[1] if "slam_value" in raw else {}, {})
        if slam_at and not slam_value:
            self.problems.append(f"{self.origin}: {where} slam_value: "
                                 + _("slam_at needs slam_value, a table with one value per rank"))
        self.done(start)
        return Schedule(key=key, kind=kind, bar=bar, consolation=consolation, per_trick=per_trick,
                        per_undertrick=per_undertrick, slam=slam,
                        slam_against=slam_against, slam_against_undertricks=undertricks,
                        shares=tuple(shares), failed_basket=failed_basket, by_rank=by_rank,
                        failed_consolation=None if failed_by_rank else failed, failed_by_rank=failed_by_rank,
                        premium=premium, takes_basket=takes_basket, takes_basket_conceded=conceded, pays=pays,
                        honours=honours, slam_at=slam_at, slam_value=slam_value)

    def schedule_honours(self, raw: dict[str, Any], where: str) -> tuple[int, ...]:
        """A schedule's own `honours`: what 0, 1, 2, 3 and 4 honours pay made, before the rank's multiplier."""
        value = raw.get("honours", [])
        if not isinstance(value, list) or (value and len(value) != 5) or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= LIMIT for v in value):
            raise self.fail(f"{where} honours", _("must be a list of five whole numbers, paid for 0, 1, 2, 3 and 4 "
                                                  "honours"))
        return tuple(value)

    def flag(self, raw: dict[str, Any], key: str, where: str, default: bool = False) -> bool:
        value = raw.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"{where} {key}", _("must be true or false"))
        return value

    def table_row(self, raw: dict[str, Any], key: str, where: str, count: int, flat: bool = False) -> tuple[int, ...]:
        """A row of a printed table: `count` whole numbers (or, where `flat`, one number for them all)."""
        value = raw.get(key)
        if flat and isinstance(value, int) and not isinstance(value, bool):
            value = [value] * count
        if not isinstance(value, list) or len(value) != count or not all(
                isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= LIMIT for v in value):
            raise self.fail(f"{where} {key}", _("must be a list of {count} whole numbers 0..{limit}", count=count,
                                                limit=LIMIT) + (_(" (or one number for them all)") if flat else ""))
        return tuple(value)

    def amount(self, raw: dict[str, Any], key: str, where: str, ranks: dict[str, Rank]) -> tuple[int, dict[str, int]]:
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
                 broken: Set[str] = frozenset()) -> Contract:
        where = f"[contracts.{key}]"
        if not isinstance(raw, dict):
            raise self.fail(where, _("must be a table"))
        if key == PASS:
            raise self.fail(where, _("{name!r} is the all-pass, not a contract", name=PASS))
        self.keys(raw, where, "contracts")
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
                raise self.fail(f"{where} {way}", _("must be the name of a schedule, not {value!r}",
                                                    value=_Shown(name)))
            if name in broken:
                raise _Skip()
            if name not in schedules:
                raise self.fail(f"{where} {way}", _("unknown schedule {name!r}; [schedules] defines {known}",
                                                    name=name, known=", ".join(schedules)))
            schedule = schedules[name]
            for table in (schedule.by_rank, schedule.failed_by_rank):
                if not table:
                    continue
                gaps = [r for r in rank_keys if r not in table and not ranks[r].column]
                if gaps or not rank_keys:
                    raise self.fail(f"[schedules.{name}]",
                                    _("its table has no value for rank {rank!r}, which {where} is played in",
                                      rank=(gaps or [_("(none)")])[0], where=where))
            gaps = [r for r in rank_keys if schedule.slam_at and r not in schedule.slam_value]
            if gaps or (schedule.slam_at and not rank_keys):
                raise self.fail(f"[schedules.{name}] slam_value",
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
            jack=self.flag(raw, "jack", where, default=True),
            gender=self.word(raw, "gender", where, choices=GENDERS) if "gender" in raw else "",
            alone_by=self.word(raw, "alone_by", where, choices=ALONE_BY) if "alone_by" in raw else "",
        )

    def condition(self, key: str, raw: Any) -> Condition:
        where = f"[conditions.{key}]"
        if not isinstance(raw, dict):
            raise self.fail(where, _("must be a table"))
        self.keys(raw, where, "conditions")
        if "set" in raw and not isinstance(raw["set"], dict):
            raise self.fail(f"{where} set", _("must be a table of changes merged over the tariff"))
        self.words(raw, "remove", where)
        in_force = raw.get("in_force", False)
        if not isinstance(in_force, bool):
            raise self.fail(f"{where} in_force", _("must be true or false"))
        if isinstance(raw.get("seed"), str):
            self.bounded(raw["seed"], "seed", f"{where} seed")
            self.plain(raw["seed"], "seed", f"{where} seed")
        return Condition(key=key, title=self.word(raw, "title", where), seed=raw.get("seed", "") or "",
                         in_force=in_force, names=self.words(raw, "names", where))
