"""Which language a command speaks: `--lang CODE` anywhere on its line, else the locale
(LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as gettext reads them), else English."""

from __future__ import annotations

import os
import sys

from ..core.i18n import LANGUAGES, _, from_locale, set_language, speak_words


def take_lang(argv: list[str]) -> tuple[str | None, list[str]]:
    """`--lang X` or `--lang=X` anywhere on a command line (before `--`): its value and the rest.

    A missing or unknown value is one line on stderr and exit status 2."""
    rest: list[str] = []
    chosen: str | None = None
    words = iter(argv)
    for word in words:
        if word == "--":
            rest.append(word)
            rest.extend(words)
            break
        if word == "--lang" or word.startswith("--lang="):
            value = word.partition("=")[2] if "=" in word else next(words, "")
            if value.lower() not in LANGUAGES:
                from ..ui.text import message

                message(_("boston-ledger: error: --lang must be one of {codes}, not {value!r}",
                          codes=", ".join(LANGUAGES), value=value), err=True)
                sys.exit(2)
            chosen = value.lower()
            continue
        rest.append(word)
    return chosen, rest


def choose(argv: list[str]) -> list[str]:
    """Set the language from `--lang` on this command line, else the locale; the line without it."""
    set_language(from_locale(os.environ))  # an error in --lang itself is worded by the locale
    speak_words(None)  # the seeds' words, until the command knows its session (app/evenings.py)
    lang, rest = take_lang(argv)
    if lang:
        set_language(lang)
    return rest
