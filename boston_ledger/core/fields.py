"""A deal's fields, declared once: what the players enter about a deal, in the order guided
entry asks it. The command line's options and the quick parser, guided entry at a terminal and
on a phone, the ledger's columns and the CSV files all read this table; the engine scores what
it describes (`engine.Deal` has a member for every stored field).

Adding a field to a deal touches the engine (its member of Deal, its checks, its payments, and
`engine.plays` when only some tariffs play it), this table, a migration (its column, and the
frozen schema of that step for the schema's test), the catalogue (its help and question) and,
when a deal's words should show it, `ui/deals.describe`; and, for a field that must be asked
inside a contract's own questions rather than after them (`asked` None: "I pay" comes before the
tricks it replaces), `app/entry._fields`; nothing else. The command line's
options, the quick parser, guided entry at a terminal and on a phone, the ledger's columns, the
CSV files, `check`, rescore and completion follow this table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from .i18n import N_
from .engine import holder_counts, plays
from .tariff import Contract, Tariff

# The kinds of field, which say how a value is typed, kept and shown:
# "contract" a contract's key (or pass); "rank" a rank's key; "player" a seat (a name typed, an id
# kept); "tricks" a whole number of tricks; "flag" yes or no; "tricks-each" every seat's tricks.
KINDS = ("contract", "rank", "player", "tricks", "flag", "tricks-each")


class Field(NamedTuple):
    name: str  # the member of engine.Deal, the answer's key, the ledger's and the CSV's column; the command
    # line's option is made of it (app.inputs.option)
    kind: str  # one of KINDS
    metavar: str  # the placeholder of its value in help pages ("" for a flag); the contract is an argument
    help: str  # its help on the command line
    label: str  # its answer's name where guided entry lists the answers
    question: str  # what guided entry asks ("{name}": the player it is about)
    stored: bool = True  # a column of the ledger
    nobody: str = ""  # a player's field that may name nobody ("-", "none"): the word for that, else ""
    asked: Callable[[Tariff, Contract | None, bool | None], bool] | None = None  # asked of every deal this
    # says (of its contract, None for an all-pass, made or not, None when not known yet), after the contract's
    # own questions; None: the contract's flow asks it
    most: int | None = None  # a number's highest value, when it is not the tricks of a deal
    default: str | None = None  # the answer an empty one stands for at its question
    early: bool = False  # an `asked` field asked right after the contract (what the table sees before the bidding)


def _takes_boston(t: Tariff, c: Contract | None, made: bool | None) -> bool:
    """Whether a deal asks who held the boston: when its holder changes what it pays (a failed
    misère, whose declarer pays the boston unless he holds it, and not a made one)."""
    return c is not None and plays(t, "boston") and made is not None and holder_counts(c, made)


def _played(field: str) -> Callable[[Tariff, Contract | None, bool | None], bool]:
    """Asked of every deal where the tariff plays the field (engine.plays)."""
    return lambda t, c, made: plays(t, field)


def _takes_jack(t: Tariff, c: Contract | None, made: bool | None) -> bool:
    """Whether a deal asks who held the diamond jack: a deal played where the tariff pays it, in a
    contract where it has a value (not a misère)."""
    return c is not None and plays(t, "jack") and c.jack


def _scores_honours(t: Tariff, c: Contract | None, made: bool | None) -> bool:
    """Whether a deal asks for the honours: where the tariff scores them, of a trump contract made."""
    return plays(t, "honours") and c is not None and bool(c.ranks) and made is True and \
        any(s is not None and s.kind == "tricks" for s in (c.alone, c.with_partner))


FIELDS = (
    Field("contract", "contract", "CONTRACT",
          N_("A contract of the session's tariff (classic: junior, senior, solo, nine, misere, grand-misere, "
             "misere-ouvert, grand-misere-ouvert; american: five (boston), six ... thirteen (grand-slam), "
             "little-misere, grand-misere, little-spread, grand-spread; fontainebleau-foster, russian-foster: "
             "american's with piccolissimo and spread-slam; french: simple, petite-independence, "
             "grand-independence, petite-misere, grand-misere, misere-quatre-as, neuf, neuf-petite, neuf-belle, "
             "petite-misere-sur-table, grand-misere-sur-table), or pass (french: thrown up), or misdeal (classic: "
             "the deal passed to the next player, a redeal by the same dealer is not entered; american: the same "
             "dealer deals again; french: the deal is lost, the next player deals); Russian names too. \"I pay\" "
             "(the adversaries concede, where the tariff has it): entered as conceded instead of the tricks."),
          N_("Contract"), N_("Contract")),
    Field("declarer", "player", "NAME", N_("Who bought the contract."), N_("Declarer"),
          N_("Declarer")),
    Field("partner", "player", "NAME", N_("Who supported the declarer (omit when alone)."),
          N_("Partner"), N_("Partner"), nobody=N_("no partner")),
    Field("rank", "rank", "RANK",
          N_("The suit's rank: junior|senior for solo and nine \\[default: junior]; first|second|third on "
             "samouchitel; clubs|spades|hearts|diamonds on fontainebleau-foster; petite|belle for a simple "
             "and a suit for an independence or a nine on french."), N_("Rank"), N_("Rank")),
    Field("conceded", "flag", "",
          N_("The adversaries said \"I pay\" before the second trick (american, american-decimal, "
             "fontainebleau-foster, russian-foster): the bid is paid without over-tricks and no tricks are given; "
             "five or six then leave the pool. A deal entered with its tricks was played out."),
          N_("\"I pay\""), N_("Did the adversaries say \"I pay\" (no tricks counted)?")),
    Field("team_tricks", "tricks", "N",
          N_("With a partner: the pair's tricks together, 0..13, instead of each one's; when the pair failed, "
             "the declarer's own tricks too."), N_("Tricks of {declarer} and {partner} together"),
          N_("Tricks taken by {declarer} and {partner} together")),
    Field("tricks", "tricks", "N",
          N_("The declarer's own tricks, 0..13."),
          N_("Tricks of {name}"),
          N_("Tricks taken by {name}")),
    Field("partner_tricks", "tricks", "N", N_("The partner's own tricks, 0..13."),
          N_("Tricks of {name}"), N_("Tricks taken by {name}")),
    Field("boston", "player", "NAME",
          N_("Who held the boston: the jack of diamonds, or the jack of hearts when diamonds are trumps."),
          N_("Boston"), N_("Who held the boston"), nobody=N_("no one"), asked=_takes_boston),
    Field("turned", "rank", "SUIT",
          N_("The suit turned up this deal (french): the first deal's is the belle of the game, a later one's the "
             "petite."), N_("Turned"), N_("Which suit was turned up?"), asked=_played("turned"), early=True),
    Field("jack", "player", "NAME",
          N_("Who held the diamond jack (french): paid 2 by each other player, 4 in the doubles; not in misères."),
          N_("Diamond jack"), N_("Who held the diamond jack?"), nobody=N_("no one"), asked=_takes_jack),
    Field("ace_turned", "flag", "",
          N_("The trump the dealer turned is an ace (remise condition)."), N_("Ace turned"),
          N_("Was the trump the dealer turned an ace?"), asked=_played("ace_turned")),
    Field("carte_blanche", "player", "NAME", N_("Who declared a blank hand (Fontainebleau)."),
          N_("Blank hand"), N_("Who declared a blank hand"), nobody=N_("nobody"), asked=_played("carte_blanche")),
    Field("tricks_each", "tricks-each", "N,N,N,N",
          N_("An all-pass played as misère partout (classic's condition; american, fontainebleau-foster): every "
             "player's tricks in seat order, 13 in all."), N_("Tricks of {name}"), N_("Tricks taken by {name}")),
    Field("honours", "tricks", "N",
          N_("How many of the trump's honours (A K Q J) the declarer held, 0..4, where honours are scored "
             "(fontainebleau-foster's honours condition; french, the partners' together): a made trump contract "
             "only."), N_("Honours"),
          N_("How many of the trump's honours (A K Q J) did {name} hold?"), asked=_scores_honours, most=4,
          default="0"),
)
BY_NAME = {f.name: f for f in FIELDS}
STORED = tuple(f for f in FIELDS if f.stored)  # the ledger's columns of a deal, in this order
