"""Russian and English: the language of every message, table heading and help text.

The English text is the key; `ru.py` holds its Russian. The command line chooses the language
(cli/language.py); everything shown goes through `_()` here.
Data meant for programs (JSON keys, CSV headers, the tariff files' keys) stays English.
"""

from __future__ import annotations


LANGUAGES = ("en", "ru")
_language = "en"


def language() -> str:
    return _language


def set_language(lang: str) -> None:
    global _language
    _language = lang


def _said(text: str) -> str:
    """The catalogue's text for this English one in the current language (itself in English)."""
    if _language == "ru":
        from .ru import MESSAGES

        return MESSAGES.get(text, text)
    return text


def _(text: str, /, **values: object) -> str:
    """The text in the current language, its {fields} filled in."""
    text = _said(text)
    return text.format(**values) if values else text


def _named(entry: object, key: str) -> str:
    """An entry's key, or in Russian the first Russian of its names in the tariff file."""
    if _language == "ru":
        for name in getattr(entry, "names", ()):
            if any("а" <= ch.lower() <= "я" or ch in "ёЁ" for ch in name):
                return name
    return key


def contract_name(tariff: object, key: str) -> str:
    """A contract's name to show: its key, or in Russian the tariff file's first Russian name for it."""
    return _named(getattr(tariff, "contracts", {}).get(key), key)


def rank_name(tariff: object, key: str) -> str:
    """A suit rank's name to show (junior, senior; first, second, third), as contract_name()."""
    return _named(getattr(tariff, "ranks", {}).get(key), key)


def contract_names(tariff: object) -> str:
    """The tariff's contracts, named as contract_name() names them, comma-separated."""
    return ", ".join(contract_name(tariff, key) for key in getattr(tariff, "contracts", {}))


def strerror(e: OSError) -> str:
    """The system's words for an OS error, in Russian for the common ones (by errno)."""
    if _language == "ru" and e.errno is not None:
        from .ru import ERRNO

        return ERRNO.get(e.errno, e.strerror or str(e))
    return e.strerror or str(e)


def N_(text: str) -> str:
    """Marks a text for the catalogue where `_()` is applied later (a table of words)."""
    return text


REASON_LABELS = {  # the words for the engine's reasons; _() gives them in the current language
    "stake": N_("stake"),
    "remise": N_("remise"),
    "all-pass": N_("all pass: basket doubles"),
    "consolation": N_("consolation"),
    "contract": N_("contract"),
    "overtricks": N_("overtricks"),
    "undertricks": N_("undertricks"),
    "slam": N_("slam (all doubled)"),
    "basket": N_("basket won"),
    "labet": N_("labet"),
    "boston": N_("boston"),
    "carte-blanche": N_("carte-blanche"),
}


def reason(key: str) -> str:
    """What a transfer was for (the engine's reason), in words."""
    return _(REASON_LABELS[key]) if key in REASON_LABELS else key


def plural(n: int, text: str, /, **values: object) -> str:
    """A text with a count in it: English 'one' or 'other', Russian 'one', 'few' or 'many'.

    `text` is the English singular and plural joined by '|': '{n} deal|{n} deals'."""
    forms = _said(text).split("|")
    if len(forms) == 3:  # Russian
        tail, tens = n % 10, n % 100
        form = forms[0] if tail == 1 and tens != 11 else forms[1] if 2 <= tail <= 4 and not 12 <= tens <= 14 \
            else forms[2]
        return form.format(n=n, **values)
    return (forms[0] if n == 1 else forms[-1]).format(n=n, **values)
