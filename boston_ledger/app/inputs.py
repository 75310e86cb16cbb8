"""What users type, read and checked: numbers, money, names, dates. Each reader returns the value
or raises LedgerError with a message that says what is wrong and how to fix it."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from datetime import date
from decimal import Decimal, InvalidOperation

from ..core.errors import LedgerError
from ..core.fields import BY_NAME
from ..core.i18n import _, echo, every_translation, ngettext, tariff_name, words
from ..core.tariff import Tariff, ambiguous, did_you_mean, find, suggestion
from ..store.records import Session

MIN_CHIP_VALUE = Decimal("0.000001")
CHIP_VALUE_PLACES = 6  # the most decimals of a chip's value: MIN_CHIP_VALUE's
MAX_CHIP_VALUE = Decimal("1000000")
JOINERS = {"\u200c", "\u200d"}  # zero-width (non-)joiners inside emoji and some scripts
MAX_MARKS = 4  # combining marks on one letter: enough for any script's accents, not for a smear
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, the same in 14.0 to 16.0):
# characters a font shows as nothing (joiners, variation selectors, bidi marks, fillers, tags).
IGNORABLE = re.compile("[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
                       "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3"
                       "\U0001d173-\U0001d17a\U000e0000-\U000e0fff]")


def clip(text: str, limit: int = 24) -> str:
    """A user's text quoted back in an error, cut short when it is long."""
    return echo(text if len(text) <= limit else text[:limit] + "…")


def whole(text: str | None, option: str | None, low: int = 0, high: int = 13) -> int | None:
    """A whole number typed by a user, or a clear error that names the `option` (None: the
    value of a deal's field, whose error the caller attaches to it)."""
    if text is None:
        return None
    value = int(text.strip()) if re.fullmatch(r"[+-]?[0-9]{1,9}", text.strip()) else None
    if value is None or not low <= value <= high:
        shown = clip(text) if value is None else value
        raise LedgerError(_("{option} must be a whole number from {low} to {high}, not {value}", option=option,
                            low=low, high=high, value=shown) if option else
                          _("{value} is not a whole number from {low} to {high}", low=low, high=high, value=shown))
    return value


def option(field: str, value: bool = False) -> str:
    """How the command line gives a deal's field (core.fields): '--declarer', or with `value` its
    placeholder too, '--declarer NAME'; the contract is the command's argument, 'CONTRACT'."""
    f = BY_NAME[field]
    if f.kind == "contract":
        return f.metavar
    flag = "--" + field.replace("_", "-")
    return f"{flag} {f.metavar}".rstrip() if value else flag


def clean_name(name: str) -> str:
    """A name as stored: NFC-normalised, inner whitespace collapsed."""
    return unicodedata.normalize("NFC", " ".join(name.split()))


def name_key(text: str) -> str:
    """What a name is compared by: the same key for names that look the same. Compatibility
    forms folded (NFKC: 'Ａnna' is 'Anna'), case folded, and the characters that show as
    nothing (Default_Ignorable_Code_Point: 'An\u200dna' is 'Anna') left out."""
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", IGNORABLE.sub("", text)).casefold())
    return " ".join(IGNORABLE.sub("", folded).split())


def _shows_something(key: str) -> bool:
    """Whether a name's key has a letter, digit, punctuation or symbol (not only marks, spaces
    and format characters)."""
    return any(unicodedata.category(c)[0] in "LNPS" for c in key)


def _most_marks(name: str) -> int:
    """The longest run of combining marks in a name (on one letter, its accents decomposed)."""
    most = run = 0
    for c in unicodedata.normalize("NFD", name):
        run = run + 1 if unicodedata.category(c)[0] == "M" else 0
        most = max(most, run)
    return most


def player_key(text: str) -> str:
    """How a typed name finds a player: the name's key with ё read as е (`алена` finds Алёна)."""
    return name_key(text).replace("ё", "е")


def chip_value(text: str) -> Decimal:
    """A positive decimal amount of money per chip, such as 0.10."""
    try:
        value = Decimal(text.strip().replace(",", "."))
    except (InvalidOperation, AttributeError):
        value = Decimal("NaN")
    exponent = value.as_tuple().exponent  # a letter for NaN and the infinities
    if (not isinstance(exponent, int) or not MIN_CHIP_VALUE <= value <= MAX_CHIP_VALUE
            or exponent < -CHIP_VALUE_PLACES):
        raise LedgerError(_("--chip-value must be a positive decimal amount such as 0.10, from {low} to {high} with "
                            "at most six decimals, not {clip}", low=MIN_CHIP_VALUE, high=MAX_CHIP_VALUE,
                            clip=clip(text)))
    return value.quantize(Decimal(1)) if exponent > 0 else value  # 1E+1 -> 10


def currency(text: str) -> str:
    """A currency as shown with money: 1 to 8 letters (EUR, RUB, руб), or one currency sign (€, ₽)."""
    code = unicodedata.normalize("NFC", text.strip())
    letters = 1 <= len(code) <= 8 and code.isalpha() and not IGNORABLE.search(code)
    if not (letters or (len(code) == 1 and unicodedata.category(code) == "Sc")):
        raise LedgerError(_("--currency must be a code of 1 to 8 letters such as EUR or RUB, or one currency sign "
                            "such as € or ₽; not {clip}", clip=clip(text)))
    return code.upper() if code.isascii() else code


def table_names(names: list[str], tariff: Tariff) -> list[str]:
    """The players' names as given to `new`, checked: the tariff's number of players, each
    distinct and non-empty."""
    cleaned = [clean_name(n) for n in names]
    if len(cleaned) != tariff.players:
        raise LedgerError(ngettext("the {name} tariff is for {n} player; name {n} in seat order, not {count}",
                                   "the {name} tariff is for {n} players; name {n} in seat order, not {count}",
                                   tariff.players, name=tariff_name(tariff), count=len(cleaned)))
    seen: dict[str, str] = {}
    for name in cleaned:
        key = name_key(player_name(name))
        if key in seen:
            if seen[key] == name:
                raise LedgerError(_("{name!r} is named twice; every player needs a distinct name", name=name))
            raise LedgerError(_("{name!r} looks the same as {other!r}; every player needs a name that can be told "
                                "apart", name=name, other=seen[key]))
        seen[key] = name
    return cleaned


def player_name(text: str) -> str:
    """A new player's name, checked: not empty, not too long, plain and visible, not the basket's
    word."""
    name = clean_name(text)
    if not name:
        raise LedgerError(_("a player's name cannot be empty; give every player a name"))
    if len(name) > 40:
        raise LedgerError(_("the name {name!r}... is too long; keep names under 40 characters", name=name[:20]))
    if not all(c.isprintable() or c in JOINERS for c in name):
        raise LedgerError(_("the name {name!r} has control characters; type a plain name", name=name))
    key = name_key(name)
    if not _shows_something(key):
        raise LedgerError(_("the name {name!r} shows nothing once its invisible characters are left out; "
                            "give every player a visible name", name=name))
    if _most_marks(name) > MAX_MARKS:
        raise LedgerError(_("the name {name} piles more than {limit} marks on one letter; type a plain name",
                            name=clip(name), limit=MAX_MARKS))
    if key in map(name_key, every_translation("basket")):
        raise LedgerError(_("{name!r} is the word for the pool in the middle; give the player another name",
                            name=name))
    return name


def session_name(text: str | None) -> str | None:
    """A session's name, checked like a player's name."""
    if text is None:
        return None
    name = clean_name(text)
    if (not name or len(name) > 80 or not all(c.isprintable() or c in JOINERS for c in name)
            or not _shows_something(name_key(name)) or _most_marks(name) > MAX_MARKS):
        raise LedgerError(_("--name must be plain printable text of 1 to 80 characters, not {clip}", clip=clip(text)))
    return name


def seat_of(session: Session, name: str, what: str | None) -> int:
    """The seat of the player a user named: exactly, else by the names' comparison key, else by
    any unique beginning of a name (`bor`, `Бор`); a clear error naming the candidates of an
    ambiguous beginning, or the player a typo looks like. `what` (an option such as `--declarer`)
    begins the error when given."""
    wanted = clean_name(name)
    if wanted in session.players:
        return session.players.index(wanted)
    keys = [name_key(p) for p in session.players]
    if keys.count(name_key(wanted)) == 1:
        return keys.index(name_key(wanted))
    found = find(wanted, ((p, ()) for p in session.players), key=player_key)
    if found.key is not None:
        return session.players.index(found.key)
    message = ambiguous(found, wanted) or (
        _("no player {clip} in this session{hint}", clip=clip(name), hint=did_you_mean(found)) if found.close else
        _("no player {clip} in this session; the players are {names}", clip=clip(name),
          names=", ".join(session.players)))
    raise LedgerError(f"{what}: {message}" if what else message, suggestion=suggestion(found))


def nobody(text: str, players: Iterable[str] = ()) -> bool:
    """Whether a user's answer says "no player": a word for nobody that none of `players` is named."""
    key = name_key(text)
    return key in words("nobody") and key not in map(name_key, players)


def money_amount(text: str) -> int:
    """A positive amount of money such as 12.30, in cents."""
    word = text.strip().replace(",", ".")
    value = Decimal(word) if re.fullmatch(r"[0-9]{1,9}(\.[0-9]{1,2})?", word) else None
    if value is None or value <= 0:
        raise LedgerError(_("AMOUNT must be a positive amount of money with at most two decimals, such as 12.30, "
                            "not {clip}", clip=clip(text)))
    return int(value * 100)


def since_date(text: str | None) -> date | None:
    if text is None:
        return None
    word = text.strip()
    day = re.fullmatch(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", word)  # as Russian screens write a date
    try:
        return date(int(day[3]), int(day[2]), int(day[1])) if day else date.fromisoformat(word)
    except ValueError:
        raise LedgerError(_("--since must be a date such as 2026-01-31, not {clip}", clip=clip(text))) from None


def reason_text(text: str | None) -> str:
    """Why a deal is corrected: plain words, at most 500 characters."""
    if text is None:
        raise LedgerError(_("a correction needs --reason TEXT: say why the deal is changed"))
    reason = " ".join(text.split())
    if not reason or len(reason) > 500 or not reason.isprintable():
        raise LedgerError(_("a correction needs --reason TEXT: say in plain words (at most 500 characters) why the "
                            "deal is changed"))
    return reason
