"""Russian and English: the language of every message, table heading and help text.

The English text is in the code, marked with `_()` (or `N_()` where it is looked up later,
`ngettext()` where a count chooses the form, `pgettext()` where a context tells two uses of
one word apart); its translations are gettext catalogues,
`locale/LANG/LC_MESSAGES/boston_ledger.po`, compiled to the `.mo` files read here by the
standard library's gettext. The command line chooses the language (cli/language.py).
Data meant for programs (JSON keys, CSV headers, the tariff files' keys) stays English.

A game speaks its own words (issue 31): the texts say the seeds' words (basket, partie, tour,
declarer, stake, rank; «корзина», «партия», «тур»...), and a tariff's `[words]` table gives its
game's instead (Foster's pool, game, round, caller, contribution, suit; «банк», «круг», «взнос»),
every form of each, with the
names of its payments and what it refuses. While a session's words are spoken (`speak_words`,
`in_words`), every text is said in them: `_()`, `ngettext()`, `pgettext()` and `reason()` put them
in place of the seeds' (`worded()`), the one place that does. A tariff without `[words]` speaks
the seeds'.

The language spoken is a context variable, not a global: each thread (each request of the
server) speaks its own. The terminal runs one command per process and sets it once
(`set_language`); the server makes each page `in_language(...)` of its request, and no page
waits for another. A new thread speaks the code's own language until it says otherwise.
"""

from __future__ import annotations

import errno
import re
import string
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, NamedTuple


class Language(NamedTuple):
    """A language the output speaks: its texts are its catalogue's, the rest is said here."""

    code: str  # its catalogue is locale/CODE/LC_MESSAGES/boston_ledger.mo; chosen by its code, or LANG=CODE_...
    quotes: tuple[str, str]  # around a name: “Friday”, «Пятница»
    decimal: str  # the decimal separator of money and chips
    letters: str  # the letters of its alphabet, lowercase: a tariff word's name in them is shown in it
    yes: tuple[str, ...] = ()  # words a user types in it for yes, no, back one question, nobody, and to
    no: tuple[str, ...] = ()  # record nothing of a deal being asked
    back: tuple[str, ...] = ()
    nobody: tuple[str, ...] = ()
    cancel: tuple[str, ...] = ()
    signs: Mapping[str, str] = {}  # currencies it shows by their sign
    # how it writes money with a currency's sign (one symbol: $, €, ₽): {number} the amount without its
    # minus, which comes first ("-$0.70", "-0,70 $"); a currency in letters (EUR, руб) follows the amount
    money: str = "{number} {sign}"
    minus: str = "-"  # the sign of a negative number it shows (Russian typography: the true minus, −)
    date: str = "%Y-%m-%d"  # how it writes a date (strftime): 2026-12-05, 05.12.2026


# The forms of a word a text may need, by language (Russian: its cases, then the plural's nominative
# and genitive). The order is the order of precedence when two forms of a seed's word are spelt the
# same (корзине: prepositional before dative).
FORMS: dict[str, tuple[str, ...]] = {"en": ("one", "many"),
                                     "ru": ("nom", "gen", "acc", "prep", "dat", "ins", "many", "many-gen")}
# The seeds' words, which the code's texts and their Russian say; a tariff's [words] gives its game's
# for any of them, in every form of a language.
SEED_WORDS: dict[str, dict[str, dict[str, str]]] = {
    "basket": {"en": {"one": "basket", "many": "baskets"},
               "ru": {"nom": "корзина", "gen": "корзины", "acc": "корзину", "prep": "корзине", "dat": "корзине",
                      "ins": "корзиной", "many": "корзины", "many-gen": "корзин"}},
    "partie": {"en": {"one": "partie", "many": "parties"},
               "ru": {"nom": "партия", "gen": "партии", "acc": "партию", "prep": "партии", "dat": "партии",
                      "ins": "партией", "many": "партии", "many-gen": "партий"}},
    "tour": {"en": {"one": "tour", "many": "tours"},
             "ru": {"nom": "тур", "gen": "тура", "acc": "тур", "prep": "туре", "dat": "туру", "ins": "туром",
                    "many": "туры", "many-gen": "туров"}},
    "declarer": {"en": {"one": "declarer", "many": "declarers"},
                 "ru": {"nom": "играющий", "gen": "играющего", "acc": "играющего", "prep": "играющем",
                        "dat": "играющему", "ins": "играющим", "many": "играющие", "many-gen": "играющих"}},
    "stake": {"en": {"one": "stake", "many": "stakes"},
              "ru": {"nom": "ставка", "gen": "ставки", "acc": "ставку", "prep": "ставке", "dat": "ставке",
                     "ins": "ставкой", "many": "ставки", "many-gen": "ставок"}},
    "rank": {"en": {"one": "rank", "many": "ranks"},
             "ru": {"nom": "ранг", "gen": "ранга", "acc": "ранг", "prep": "ранге", "dat": "рангу", "ins": "рангом",
                    "many": "ранги", "many-gen": "рангов"}},
}


class Refused(NamedTuple):
    """Something a player may name that the game has no value for: the words that name it, and why
    it is refused, by language."""

    names: tuple[str, ...]
    why: Mapping[str, str]


class GameWords(NamedTuple):
    """A game's own words where they are not the seeds' (a tariff's [words]): each word's forms by
    language (`SEED_WORDS`' keys and `FORMS`), its payments' names by language (keys of
    `REASON_LABELS`), and what it refuses."""

    nouns: Mapping[str, Mapping[str, Mapping[str, str]]] = {}
    payments: Mapping[str, Mapping[str, str]] = {}
    refused: Mapping[str, Refused] = {}


SEEDS = GameWords()
SOURCE = "en"  # the language of the code's own texts, which needs no catalogue
# The registry: adding a language is its catalogue and one entry here.
LANGUAGES: dict[str, Language] = {
    "en": Language("en", ("“", "”"), ".", "abcdefghijklmnopqrstuvwxyz", yes=("y", "yes"), no=("n", "no"),
                   back=("<", "back"), nobody=("-", "nobody", "none"), cancel=("cancel",), money="{sign}{number}"),
    "ru": Language("ru", ("«", "»"), ",", "абвгдеёжзийклмнопрстуфхцчшщъыьэюя", yes=("д", "да"), no=("н", "нет"),
                   back=("назад",), nobody=("никто", "нет"), cancel=("отмена",), signs={"RUB": "₽"},
                   minus="\u2212", date="%d.%m.%Y"),
}
DOMAIN = "boston_ledger"
LOCALE = Path(__file__).resolve().parent.parent / "locale"
_spoken: ContextVar[str] = ContextVar("language", default=SOURCE)  # this thread's (this request's)
_words: ContextVar[GameWords | None] = ContextVar("words", default=None)  # the game's words spoken, when not the seeds'
_catalogues: dict[tuple[Path, str], Any] = {}  # gettext's translations, by folder and language, read once


def language() -> str:
    """The code of the language the output speaks now (in this thread)."""
    return _spoken.get()


def speaking() -> Language:
    """The language the output speaks now."""
    return LANGUAGES[_spoken.get()]


def translated() -> bool:
    """Whether the output speaks another language than the code's own texts."""
    return _spoken.get() != SOURCE


def words(kind: str) -> tuple[str, ...]:
    """What a user may type for `kind` ("yes", "no", "back", "nobody", "cancel"), in any language."""
    return tuple(w for lang in LANGUAGES.values() for w in getattr(lang, kind))


def set_language(lang: str) -> None:
    """Speak `lang` from now on, in this thread (the terminal's command: once, as it starts).
    Its catalogue is read on the first text that needs it."""
    _spoken.set(lang)


@contextmanager
def in_language(lang: str) -> Iterator[None]:
    """Speak `lang` within (in this thread only: a request of the server, a page made for it);
    the language spoken before afterwards."""
    before = _spoken.set(lang)
    try:
        yield
    finally:
        _spoken.reset(before)


def from_locale(environ: Mapping[str, str]) -> str:
    """The language a locale asks for (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext reads them):
    the first of them that is set names one of ours, else the code's own."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(var, "")
        if value:
            wanted = value.split(":")[0].lower()
            return next((code for code in LANGUAGES if wanted.startswith(code)), SOURCE)
    return SOURCE


def every_translation(text: str) -> set[str]:
    """`text` in every language (a word no player may be called: the basket)."""
    import gettext

    return {text} | {gettext.translation(DOMAIN, LOCALE, languages=[code], fallback=True).gettext(text)
                     for code in LANGUAGES if code != SOURCE}


def _translations() -> Any:
    """The catalogue of the language spoken now."""
    key = (LOCALE, _spoken.get())
    found = _catalogues.get(key)
    if found is None:
        import gettext  # here: English, the common case, needs no catalogue

        found = _catalogues[key] = gettext.translation(DOMAIN, LOCALE, languages=[key[1]], fallback=True)
    return found


def echo(text: str) -> str:
    """A user's text quoted back: as Python's repr in the code's own language ('Zed'), in the
    language's quotes in another («Zed»); control characters escaped either way."""
    if not translated():
        return repr(text)
    left, right = speaking().quotes
    return left + "".join(c if c.isprintable() else repr(c)[1:-1] for c in text) + right


def quote(text: str) -> str:
    """A name shown in quotes, such as a session's: “Friday” in English, «Пятница» in Russian."""
    left, right = speaking().quotes
    return f"{left}{text}{right}"


class _Formatter(string.Formatter):
    """str.format, but `{name!r}` of a text quotes it as `echo()` does (in Russian, «ёлочки»)."""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        if conversion == "r" and isinstance(value, str):
            return echo(value)
        return super().convert_field(value, conversion)


_FORMATTER = _Formatter()


def _fill(text: str, values: Mapping[str, object]) -> str:
    if not values:
        return text
    return _FORMATTER.vformat(text, (), values) if translated() else text.format(**values)


def _(text: str, /, **values: object) -> str:
    """The text in the current language, its {fields} filled in."""
    if translated():
        text = _translations().gettext(text)
    return _fill(worded(text), values)


def ngettext(singular: str, plural: str, n: int, /, **values: object) -> str:
    """The form of a text for the count `n` (the catalogue's plural rule: Russian has three
    forms), its {fields} and {n} filled in."""
    text = _translations().ngettext(singular, plural, n) if translated() else singular if n == 1 else plural
    return _fill(worded(text), {"n": n, **values})


def pgettext(context: str, text: str, /, **values: object) -> str:
    """A text whose translation depends on where it is used (`context`), as `_()`."""
    if translated():
        text = _translations().pgettext(context, text)
    return _fill(worded(text), values)


def _named(entry: object, key: str) -> str:
    """An entry's key, or in Russian the first Russian of its names in the tariff file."""
    return shown_name(key, getattr(entry, "names", ()))


def shown_name(key: str, names: Iterable[object]) -> str:
    """The name to show of a key with these names: the key, or in another language than the code's
    the first name in its letters (in Russian, the first Russian name)."""
    if translated():
        letters = speaking().letters
        for name in names:
            if isinstance(name, str) and any(ch.lower() in letters for ch in name):
                return name
    return key


def tariff_name(tariff: object) -> str:
    """A tariff's name to show: its name (what a command takes); in another language its title there
    without what follows in brackets («Классический бостон»), when the catalogue translates it."""
    name = str(getattr(tariff, "name", ""))
    if translated():
        short = _(str(getattr(tariff, "title", "") or name)).split(" (")[0].strip()
        if any(ch.lower() in speaking().letters for ch in short):
            return short
    return name


def contract_name(tariff: object, key: str) -> str:
    """A contract's name to show: its key, or in Russian the tariff file's first Russian name for it."""
    return _named(getattr(tariff, "contracts", {}).get(key), key)


def rank_name(tariff: object, key: str) -> str:
    """A suit rank's name to show (junior, senior; first, second, third), as contract_name()."""
    return _named(getattr(tariff, "ranks", {}).get(key), key)


def contract_names(tariff: object) -> str:
    """The tariff's contracts, named as contract_name() names them, comma-separated."""
    return ", ".join(contract_name(tariff, key) for key in getattr(tariff, "contracts", {}))


def rank_after_contract(tariff: object, key: str) -> str:
    """A rank as a deal's line says it after the contract: 'solo senior', «соло в старшей»."""
    if key in RANKS_AFTER_A_CONTRACT and translated():
        shown = pgettext("rank after a contract", key)
        if shown != key:
            return shown
    return rank_name(tariff, key)


def verdict(tariff: object, key: str, made: bool) -> str:
    """Whether a deal's contract was made, agreeing with the gender the tariff gives its shown name
    («мизер сыгран», «соло сыграно», «младшая сыграна»); without one, of the game («игра сыграна»)."""
    gender = getattr(getattr(tariff, "contracts", {}).get(key), "gender", "")
    if gender in VERDICTS:
        return pgettext(*VERDICTS[gender][0 if made else 1])
    return _("made") if made else _("failed")


def number_sign() -> str:
    """The heading of a column of numbers: '#', in Russian '№'."""
    return pgettext("the heading of a column of numbers", "#")


def condition_name(tariff: object, key: str) -> str:
    """A condition's name to show: its key, or in Russian the first Russian of its names (the
    seed's title)."""
    return _named(getattr(tariff, "conditions", {}).get(key), key)


def condition_names(tariff: object, keys: Iterable[str]) -> str:
    """Conditions named as condition_name() names them, comma-separated."""
    return ", ".join(condition_name(tariff, key) for key in keys)


def strerror(e: OSError) -> str:
    """The system's words for an OS error; in another language than English, ours for the
    common ones (by errno), translated."""
    if translated() and e.errno in ERRNO_WORDS:
        return _(ERRNO_WORDS[e.errno])
    return e.strerror or str(e)


def N_(text: str) -> str:
    """Marks a text for the catalogue where `_()` is applied later (a table of words)."""
    return text


def NP_(context: str, text: str) -> str:
    """Marks a text of a context for the catalogue where `pgettext()` is applied later."""
    return text


# A rank as a deal's line says it after the contract ("соло в старшей"); a rank not here is
# named as rank_name() names it.
RANKS_AFTER_A_CONTRACT = (NP_("rank after a contract", "junior"), NP_("rank after a contract", "senior"),
                          NP_("rank after a contract", "first"), NP_("rank after a contract", "second"),
                          NP_("rank after a contract", "third"), NP_("rank after a contract", "clubs"),
                          NP_("rank after a contract", "spades"), NP_("rank after a contract", "hearts"),
                          NP_("rank after a contract", "diamonds"))

# A contract made or failed, by the gender of its shown name (core.tariff.GENDERS); verdict() says it.
VERDICTS = {
    "masculine": (("a masculine contract", NP_("a masculine contract", "made")),
                  ("a masculine contract", NP_("a masculine contract", "failed"))),
    "feminine": (("a feminine contract", NP_("a feminine contract", "made")),
                 ("a feminine contract", NP_("a feminine contract", "failed"))),
    "neuter": (("a neuter contract", NP_("a neuter contract", "made")),
               ("a neuter contract", NP_("a neuter contract", "failed"))),
}

ERRNO_WORDS = {  # the common OS errors in words of ours, for the catalogue to translate
    errno.ENOENT: N_("no such file or folder"), errno.EACCES: N_("no access"),
    errno.EPERM: N_("operation not permitted"), errno.ENOTDIR: N_("not a folder"), errno.EISDIR: N_("a folder"),
    errno.EEXIST: N_("the file exists already"), errno.ENOSPC: N_("no space left on the disk"),
    errno.EROFS: N_("a read-only file system"), errno.ENAMETOOLONG: N_("the file name is too long"),
    errno.EBUSY: N_("the device or resource is busy"),
}

REASON_LABELS = {  # the words for the engine's reasons; _() gives them in the current language
    "stake": N_("stake"),
    "remise": N_("ace turned"),
    "all-pass": N_("all pass: basket doubles"),
    "misere-partout": N_("misère partout"),
    "consolation": N_("consolation"),
    "contract": N_("contract"),
    "overtricks": N_("overtricks"),
    "undertricks": N_("undertricks"),
    "misere-tricks": N_("tricks taken on the misère"),
    "slam": N_("slam (all doubled)"),
    "slam-value": N_("slam"),
    "premium": N_("premium"),
    "honours": N_("honours"),
    "penalty": N_("penalty into the basket"),
    "misdeal": N_("misdeal"),
    "basket": N_("basket won"),
    "labet": N_("labet"),
    "boston": N_("boston"),
    "carte-blanche": N_("carte-blanche"),
    "division": N_("game over: basket divided"),
    "jack": N_("diamond jack"),
}


def reason(key: str) -> str:
    """What a transfer was for (the engine's reason), in words: the game's name for it when its
    tariff gives one."""
    game = _words.get()
    own = game.payments.get(key, {}).get(language()) if game is not None else None
    if own:
        return own
    return _(REASON_LABELS[key]) if key in REASON_LABELS else key


def speak_words(game: GameWords | None) -> None:
    """Speak a game's words from now on, in this thread (None: the seeds'): the terminal's command,
    once it knows its session."""
    _words.set(game)


@contextmanager
def in_words(game: GameWords | None) -> Iterator[None]:
    """Speak a game's words within (in this thread only), as `in_language`."""
    before = _words.set(game)
    try:
        yield
    finally:
        _words.reset(before)


def spoken_words() -> GameWords:
    """The game's words spoken now (the seeds' when none)."""
    return _words.get() or SEEDS


def word(key: str, form: str = "") -> str:
    """One of the words of the game spoken now (`SEED_WORDS`' keys), in the language spoken, in a
    form of it (`FORMS`; the first by default)."""
    lang = language() if language() in FORMS else SOURCE
    form = form or FORMS[lang][0]
    own = spoken_words().nouns.get(key, {}).get(lang)
    return own[form] if own else SEED_WORDS[key][lang][form]


# a whole word: not in a {field}, a [table] or an option (a dash before it)
_WORD_BEFORE, _WORD_AFTER = r"(?<![\w{\[-])(?:", r")(?![\w}\]])"
# a game's words' pattern and replacements, by the words' id and language (kept with the words: the id stays theirs)
_worders: dict[tuple[int, str], tuple[GameWords, tuple[re.Pattern[str], dict[str, str]] | None]] = {}


def _worder(game: GameWords, lang: str) -> tuple[re.Pattern[str], dict[str, str]] | None:
    """The pattern of the seeds' words a game says otherwise in `lang`, and what it says for each."""
    key = (id(game), lang)
    if key not in _worders or _worders[key][0] is not game:
        if len(_worders) >= 64:  # a server reads its session's tariff again at each change: keep the latest few
            _worders.clear()
        instead: dict[str, str] = {}
        for noun, by_language in game.nouns.items():
            own = by_language.get(lang)
            if own:
                for form in FORMS[lang]:
                    seed = SEED_WORDS[noun][lang][form]
                    if own[form] != seed:
                        instead.setdefault(seed.casefold(), own[form])
        pattern = "|".join(re.escape(w) for w in sorted(instead, key=len, reverse=True))
        _worders[key] = (game, (re.compile(_WORD_BEFORE + pattern + _WORD_AFTER, re.IGNORECASE), instead)
                              if instead else None)
    return _worders[key][1]


def worded(text: str) -> str:
    """A text (before its {fields} are filled) in the words of the game spoken now: each of the
    seeds' words it says, as a whole word (not after a dash, as an option, nor in a {field}), in the
    game's form of it, its capitals kept."""
    game = _words.get()
    if game is None or not game.nouns:
        return text
    found = _worder(game, language() if language() in FORMS else SOURCE)
    if found is None:
        return text
    pattern, instead = found

    def own(m: re.Match[str]) -> str:
        said, said_here = m.group(), instead[m.group().casefold()]
        if len(said) > 1 and said.isupper():
            return said_here.upper()
        return said_here[:1].upper() + said_here[1:] if said[:1].isupper() else said_here

    return pattern.sub(own, text)
