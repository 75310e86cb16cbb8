"""Guided entry as questions: what to ask next about a deal, given the session and the answers so
far, and what each answer means. Nothing is read, written or printed here: the terminal
(`ui/guided.py`) and the phones' entry page (`serve/`) ask these questions, in this order, check
the answers here and say the words given here.

Answers are the texts players gave, by field (`core.fields`; a seat's tricks of misère partout by
`EACH`). `step()` reads them all again each time, in the order the questions are asked, so a flow
keeps no state of its own: an answer that is wrong is asked again with the reason
(`Question.error`), the others stay; going back (`<`) or changing an answer at the end drops one
answer (`back`, `change`). The deal is checked by the engine as the command line's is
(`app.deals.typed_deal`); when it refuses, its error names the field to ask again.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace

from ..core import columns, engine
from ..core.engine import Deal
from ..core.errors import DROP, GIVE, MEND, LedgerError
from ..core.i18n import _, contract_name, ngettext, rank_name, words
from ..core.fields import BY_NAME, FIELDS, STORED
from ..core.tariff import MISDEAL, PASS, either, find
from ..store.records import Session
from .deals import contract_of, rank_of, typed_deal
from .inputs import nobody, player_key, seat_of, whole

EACH = "tricks_each."  # the answer of one seat's tricks of an all-pass played as misère partout: `tricks_each.SEAT`

Answers = Mapping[str, str]


@dataclass(frozen=True)
class Choice:
    answer: str  # the answer that picks it (what a button sends)
    label: str  # what is shown
    number: int | None = None  # its number in a terminal's menu (a player's seat, from 1)


@dataclass(frozen=True)
class Question:
    """One question: its words, the choices (buttons on a phone), what an empty answer means."""

    field: str
    text: str
    label: str  # the answer's name in the list of answers at the end
    kind: str  # "word" (a contract, a rank), "player", "number" or "yes-no"
    choices: tuple[Choice, ...]
    default: str | None = None  # the answer an empty one stands for
    nobody: str = ""  # without a default, what an empty answer means ("nobody", "no partner"); "" when none
    error: str | None = None  # why it is asked again
    remedy: str | None = None  # what the error asks of the answer (core.errors: GIVE, DROP, MEND)
    suggestion: str | None = None  # the answer a "did you mean" proposes (a yes, or Enter, takes it)

    @property
    def default_label(self) -> str | None:
        """The default as it is shown."""
        if self.default is None:
            return None
        if self.kind == "player" and nobody(self.default):
            return self.nobody or _("nobody")
        return next((c.label for c in self.choices if c.answer == self.default), self.default)


@dataclass(frozen=True)
class Item:
    """One answer of a complete deal, as the confirmation lists it to be changed."""

    field: str
    label: str
    value: str


@dataclass(frozen=True)
class Ready:
    """Every question answered: the deal, and the answers listed for the confirmation."""

    deal: Deal
    items: tuple[Item, ...]


def step(session: Session, answers: Answers, defaults: Answers | None = None) -> Question | Ready:
    """The next question (or the first one answered wrong, with its error), or the deal once
    every question has its answer."""
    return _walk(session, answers, defaults or {})[1]


def answered(session: Session, answers: Answers, defaults: Answers | None = None) -> tuple[Item, ...]:
    """The answers so far that the questions take, in their order, as the confirmation lists them."""
    return _items(session, _walk(session, answers, defaults or {})[0])


def _items(session: Session, asked: list[tuple[str, Question, object]]) -> tuple[Item, ...]:
    return tuple(Item(f, q.label, _shown(session, q, v)) for f, q, v in asked)


def back(session: Session, answers: Answers, field: str | None
         ) -> tuple[dict[str, str], dict[str, str]] | None:
    """Back one question from the question of `field` (None: from the confirmation): the answers
    without the one given before it (and without `field`'s own, which is being asked), with that
    answer as the default of its question asked again; None at the first question."""
    asked = [f for f, __, ___ in _walk(session, answers, {})[0]]
    earlier = [f for f in (asked[:asked.index(field)] if field in asked else asked) if f in answers]
    if not earlier:
        return None
    kept, defaults = change(session, answers, earlier[-1])
    if field is not None:
        kept.pop(field, None)
    return kept, defaults


DEPENDING = {"team_tricks": ("tricks", "partner_tricks")}  # answers that mean nothing once this one changes


def change(session: Session, answers: Answers, field: str) -> tuple[dict[str, str], dict[str, str]]:
    """The answers without `field`'s (and those that depend on it: the split of a pair's
    tricks on their total), so that it is asked again; the answers dropped, as their values
    read them (a player's name, not his number), are the defaults of their questions."""
    said = {f: _answer(v) for f, __, v in _walk(session, answers, {})[0]}
    kept = dict(answers)
    dropped = {f: said.get(f, kept[f]) for f in (field, *DEPENDING.get(field, ())) if f in kept}
    for f in dropped:
        del kept[f]
    return kept, dropped


def _answer(value: object) -> str:
    """A value as the answer that gives it again."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def is_back(text: str) -> bool:
    return text.strip().casefold() in words("back")


def is_cancel(text: str) -> bool:
    """Whether an answer says to record nothing of the deal being asked ("cancel", «отмена»)."""
    return text.strip().casefold() in words("cancel")


def reply(text: str, count: int) -> str | int | None:
    """What an answer to "record this deal?" says: "yes", "no", "back", "cancel", the number of
    an answer to change (1 to `count`), or None when it says none of these."""
    word = text.strip().casefold()
    if word in ("", *words("yes")):
        return "yes"
    if word in words("no"):
        return "no"
    if word in words("back"):
        return "back"
    if word in words("cancel"):
        return "cancel"
    if re.fullmatch("[0-9]{1,2}", word) and 1 <= int(word) <= count:
        return int(word)
    return None


def answers_of(session: Session, deal: Deal) -> dict[str, str]:
    """The answers that give a recorded deal (an edit starts from them): every field's value as
    it would be answered, "-" for nobody, every seat's tricks one by one."""
    out: dict[str, str] = {}
    for f in STORED:
        value = getattr(deal, f.name)
        if f.kind == "tricks-each":
            if value is not None:
                out |= {f"{EACH}{seat}": str(n) for seat, n in enumerate(value)}
        elif f.kind == "player" and (value is not None or f.nobody):
            out[f.name] = "-" if value is None else session.players[value]
        elif value is not None and f.kind != "player":
            out[f.name] = _answer(value)
    return out


def typed_answers(session: Session, typed: Mapping[str, str | bool | None]) -> dict[str, str]:
    """The answers a command line gives (its options' values by field: a flag given is "yes";
    every seat's tricks as one text, `3,4,2,4`, becomes an answer per seat)."""
    answers: dict[str, str] = {}
    for f in FIELDS:
        value = typed.get(f.name)
        if value is None or value is False:
            continue
        if f.kind == "tricks-each":
            words = [w for w in re.split(r"[,;\s]+", str(value).strip()) if w]
            answers |= {f"{EACH}{seat}": w for seat, w in enumerate(words[:len(session.players)])}
        else:
            answers[f.name] = "yes" if value is True else str(value)
    return answers


def field_of(answer: str) -> str:
    """The field an answer gives (a seat's tricks of misère partout are one field's)."""
    return "tricks_each" if answer.startswith(EACH) else answer


def edited(session: Session, deal: Deal, given: Answers) -> dict[str, str]:
    """The answers of a recorded deal with those `given` instead (a partial edit), and without
    those that followed from the ones replaced: a new total of the pair's tricks drops the two's own
    (unless they are given too); one member's own tricks, where the total was said, drop the
    other's, so that the total stays."""
    answers = answers_of(session, deal)
    counted = ("tricks", "team_tricks", "partner_tricks")
    if any(f in given for f in counted) and "conceded" not in given:  # tricks given: played out, not "I pay"
        answers.pop("conceded", None)
    elif "conceded" in given and not any(f in given for f in counted):  # "I pay": no tricks counted
        for field in counted:
            answers.pop(field, None)
    if "team_tricks" in given:
        for field in ("tricks", "partner_tricks"):
            answers.pop(field, None)
    elif "team_tricks" in answers:
        for field, other in (("tricks", "partner_tricks"), ("partner_tricks", "tricks")):
            if field in given and other not in given:
                answers.pop(other, None)
    return {**answers, **given}


def with_defaults(session: Session, answers: Answers) -> dict[str, str]:
    """The answers with an empty one (its default, or nobody) for each question they leave
    unanswered that has a default or may be left empty: a recorded deal's answers, asked again."""
    answered = dict(answers)
    while isinstance(found := step(session, answered), Question) and found.field not in answered and \
            (found.default is not None or found.nobody):
        answered[found.field] = ""
    return answered


def complete(session: Session, answers: Answers, given: Sequence[str] = ()) -> Deal:
    """The deal of answers given all at once (no one to ask): an empty answer where a question
    has a default or may be left empty, else LedgerError saying what is wrong or missing (the
    engine's words, as for `deal`). A field of `given` that the deal does not ask is an error
    too (a partial edit's option that does not belong to the deal)."""
    answered = dict(answers)
    while True:
        asked, found = _walk(session, answered, {}, typed=True)
        if isinstance(found, Ready):
            break
        if found.error:
            raise LedgerError(found.error, field_of(found.field), found.suggestion, found.remedy)
        if found.field in answered or (found.default is None and not found.nobody):
            deal_of(session, {f: v for f, __, v in asked})  # the engine says what is missing, as for `deal`
            raise LedgerError(_("the deal needs an answer to: {what}", what=found.label), field_of(found.field),
                              remedy=GIVE)
        answered[found.field] = ""
    extra = left_out(session, answered, given, typed=True)
    if extra:
        raise extra[0]
    return found.deal


def left_out(session: Session, answers: Answers, given: Sequence[str], typed: bool = False) -> list[LedgerError]:
    """The answers of the fields `given` (a command line's options) that the complete deal of
    `answers` does not ask for, each with why (its field, to drop): the engine's refusal of it
    where it has one ("the fontainebleau-foster tariff scores no honours"), else that the deal
    does not ask for it. Nobody for a player ("--partner none" of a lone contract) is no such
    answer. None while the deal is not complete. `typed` as for `complete`."""
    asked, found = _walk(session, answers, {}, typed=typed)
    if not isinstance(found, Ready):
        return []
    values = {f: v for f, __, v in asked}
    out: list[LedgerError] = []
    for name in dict.fromkeys(field_of(f) for f in given if f in answers and f not in values):
        f = BY_NAME[name]
        said = {k: v for k, v in answers.items() if field_of(k) == name}
        if f.nobody and all(nobody(v) for v in said.values()):
            continue
        extra: dict[str, object] = {k: v.strip().casefold() in words("yes") if f.kind == "flag" else v
                                    for k, v in said.items()}
        try:
            deal_of(session, {**values, **extra})
        except LedgerError as e:
            if e.field == name and e.remedy == DROP:
                out.append(e)
                continue
        contract = _("pass") if found.deal.contract == PASS else \
            _("misdeal") if found.deal.contract == MISDEAL else contract_name(session.tariff, found.deal.contract)
        out.append(LedgerError(_("the deal ({contract}) does not ask for it", contract=contract), name, remedy=DROP))
    return out


def deal_of(session: Session, values: Mapping[str, object]) -> Deal:
    """The deal of the answers' values (as `_value` reads them), checked by the engine."""
    text: dict[str, str | bool] = {k: v for k, v in values.items() if k != "contract" and isinstance(v, (str, bool))}
    each = [str(text[f"{EACH}{seat}"]) for seat in range(len(session.players)) if f"{EACH}{seat}" in text]
    if each:
        text["tricks_each"] = ",".join(each)
    return typed_deal(session, str(values["contract"]), **text)


# ---- the questions, in order -------------------------------------------------------------------


def _walk(session: Session, answers: Answers, defaults: Answers, typed: bool = False
          ) -> tuple[list[tuple[str, Question, object]], Question | Ready]:
    """The questions answered (field, question, value) in the order they are asked, and then
    the next question or the deal. `typed`: the answers are a command line's options, and a
    wrong one is said as the command line says it."""
    values: dict[str, object] = {}
    asked: list[tuple[str, Question, object]] = []
    while True:
        field = _next(session, answers, values)
        if field is None:
            break
        question = _question(session, values, field, defaults)
        if field not in answers:
            return asked, question
        text = answers[field].strip()
        if not text and question.default is not None:
            text = question.default
        try:
            values[field] = _value(session, values, question, text, typed)
        except LedgerError as e:
            return asked, replace(question, error=str(e), suggestion=e.suggestion, remedy=MEND)
        asked.append((field, question, values[field]))
        try:  # what is answered so far, checked by the engine: a wrong answer is asked again at once
            deal_of(session, values)
        except LedgerError as e:
            wrong = _blamed(session, e.field, values)
            if wrong is not None:
                return asked, _again(asked, wrong, e)
    try:
        deal = deal_of(session, values)
    except LedgerError as e:
        return asked, _again(asked, _blamed(session, e.field, values) or "contract", e)
    return asked, Ready(deal, _items(session, asked))


def _blamed(session: Session, field: str | None, values: Mapping[str, object]) -> str | None:
    """The answered question an error of the deal's `field` is about, if any (an error about a
    field not asked yet waits for its question)."""
    if field == "tricks_each":  # the tricks of every player, once all are said: the last one
        said = [f for f in values if f.startswith(EACH)]
        return said[-1] if len(said) == len(session.players) else None
    return field if field in values else None


def _again(asked: list[tuple[str, Question, object]], field: str, error: LedgerError) -> Question:
    """The question of `field` asked again because of `error` (the engine's); the answers after it stay."""
    question = next(q for f, q, __ in asked if f == field)
    return replace(question, error=str(error), remedy=error.remedy)


def _next(session: Session, answers: Answers, values: Mapping[str, object]) -> str | None:
    """The field asked after those in `values` (None: the deal is complete)."""
    for field in _fields(session, answers, values):
        if field not in values:
            return field
    return None


def _fields(session: Session, answers: Answers, values: Mapping[str, object]) -> list[str]:
    """The fields of this deal in the order they are asked, as far as the values so far tell."""
    t = session.tariff
    if "contract" not in values:
        return ["contract"]
    if values["contract"] == MISDEAL:  # nothing else is asked of a misdeal
        return ["contract"]
    c = t.contracts.get(str(values["contract"]))  # None: an all-pass
    made = None
    if c is not None and ("tricks" in values or "team_tricks" in values or values.get("conceded")):
        with suppress(LedgerError):  # not all said yet
            made = engine.made(t, deal_of(session, values))
    asked = [f for f in FIELDS if f.asked is not None and f.asked(t, c, made)]  # asked of every such deal
    early = [f.name for f in asked if f.early]  # right after the contract: what the table saw before the bidding
    extras = [f.name for f in asked if not f.early]
    if c is None:
        partout = [f"{EACH}{seat}" for seat in range(t.players)] if t.basket.partout else []
        return ["contract", *early, *partout, *extras]
    fields = ["contract", *early, "declarer"]
    if c.with_partner is not None:
        fields.append("partner")
    if len(c.ranks) > 1:
        fields.append("rank")
    if "partner" in fields and "partner" not in values:
        return fields
    said = {"tricks", "team_tricks", "partner_tricks"} & set(answers)  # tricks given: played out, unless "I pay" is too
    if engine.plays(t, "conceded") and ("conceded" in answers or not said):  # "I pay", asked before the tricks
        fields.append("conceded")
        if "conceded" not in values:
            return fields
        if values["conceded"]:
            return fields + extras
    if values.get("partner") is None:
        fields.append("tricks")
    elif "team_tricks" in answers or not ("tricks" in answers or "partner_tricks" in answers):
        fields.append("team_tricks")  # the pair's total first; the split only when it decides who pays
        if "team_tricks" not in values:
            return fields
        if "partner_tricks" in answers and "tricks" not in answers:
            fields.append("partner_tricks")
        elif "tricks" in answers or engine.split_decides(t, c, int(str(values["team_tricks"])),
                                                          str(values["rank"]) if "rank" in values else None):
            fields.append("tricks")
    else:
        fields += ["tricks", "partner_tricks"]
    return fields + extras


def _question(session: Session, values: Mapping[str, object], field: str, defaults: Answers) -> Question:
    t = session.tariff
    players = session.players
    default = defaults.get(field)

    def people(*besides: object) -> tuple[Choice, ...]:
        return tuple(Choice(name, name, seat) for seat, name in enumerate(players, 1) if name not in besides)

    def numbers(high: int) -> tuple[Choice, ...]:
        return tuple(Choice(str(n), str(n)) for n in range(high + 1))

    declarer, partner = values.get("declarer"), values.get("partner")
    f = BY_NAME["tricks_each" if field.startswith(EACH) else field]
    name = players[int(field[len(EACH):])] if field.startswith(EACH) else partner if field == "partner_tricks" \
        else declarer
    if field == "honours" and partner is not None:  # the partners' honours are counted together
        name = _("{declarer} and {partner} together", declarer=declarer, partner=partner)

    def ask(kind: str, choices: tuple[Choice, ...], default: str | None = default, nobody: str = "") -> Question:
        return Question(field, _(f.question, name=name, declarer=declarer, partner=partner),
                        _(f.label, name=name, declarer=declarer, partner=partner), kind, choices, default,
                        _(nobody) if nobody else "")

    contract = t.contracts.get(str(values.get("contract")))
    if field == "contract":
        return ask("word", (*(Choice(key, contract_name(t, key)) for key in t.contracts),
                            Choice(PASS, _("pass")), Choice(MISDEAL, _("misdeal"))))
    if field == "partner":
        alone = contract is not None and contract.alone is not None
        return ask("player", people(declarer), nobody=f.nobody if alone else "")
    if field == "rank":
        ranks = contract.ranks if contract is not None else tuple(t.ranks)
        return ask("word", tuple(Choice(r, rank_name(t, r)) for r in ranks),
                     default or (contract.default_rank if contract is not None else None))
    if field == "tricks" and "team_tricks" in values:
        team = int(str(values["team_tricks"]))
        return replace(ask("number", numbers(team)),
                       text=ngettext("Of the {n} trick, how many did {name} take?",
                                     "Of the {n} tricks, how many did {name} take?", team, name=declarer))
    if field.startswith(EACH):
        rest = t.tricks - sum(int(str(values.get(f"{EACH}{s}", 0))) for s in range(int(field[len(EACH):])))
        last = field == f"{EACH}{len(players) - 1}"
        asked = ask("number", numbers(rest), default or (str(rest) if last else None))
        if field == f"{EACH}0":  # the first of them says what is being played
            return replace(asked, text=_("All pass, played as misère partout. {question}", question=asked.text))
        return asked
    if f.kind == "rank":  # the suit turned up
        return ask("word", tuple(Choice(r, rank_name(t, r)) for r in columns.suits(t)), default)
    if f.kind == "player":  # who declared, who held the boston, a blank hand...
        return ask("player", people(), nobody=f.nobody)
    if f.kind == "flag":
        return ask("yes-no", (Choice("yes", _("yes")), Choice("no", _("no"))), default or "no")
    if f.kind == "tricks":
        return ask("number", numbers(f.most if f.most is not None else t.tricks), default or f.default)
    raise ValueError(field)


def _value(session: Session, values: Mapping[str, object], question: Question, text: str,
           typed: bool = False) -> object:
    """What an answer to the question means (a contract's or rank's key, a player's name or None,
    a number as text, yes or no), or LedgerError saying what is wrong and what to answer, in the
    words of the question's choices; `typed`: the answer is a command line's option (a name, not
    a number in a menu; any number of tricks, which the engine then checks)."""
    t = session.tariff
    field = question.field
    if question.kind == "word":
        if field == "contract":
            return contract_of(t, text)
        return rank_of(t, text, [c.answer for c in question.choices])
    if question.kind == "number":  # one of the question's numbers (every seat's tricks: the engine adds them up)
        last = field == f"{EACH}{len(session.players) - 1}"
        high = t.tricks if typed or last else int(question.choices[-1].answer)
        if typed:
            whole(text, None, 0, high)
        elif not re.fullmatch("[0-9]{1,2}", text) or int(text) > high:  # not '²', '①'
            raise LedgerError(_("a whole number from 0 to {high}", high=high))
        return str(int(text))
    if question.kind == "yes-no":
        word = text.casefold()
        if word in words("yes"):
            return True
        if word in words("no"):
            return False
        raise LedgerError(_("answer y or n"))
    players = session.players
    if question.nobody and (not text or nobody(text, players)):
        return None
    if typed:  # a name as the command line takes it; the engine refuses a declarer as his own partner
        return players[seat_of(session, text, None)]
    return _player(session, values, question, text)


def _wrong_player(question: Question) -> LedgerError:
    """The refusal of an answer that names none of a question's players: their numbers in the
    menu and their names (the declarer is not among a partner's)."""
    return LedgerError(_("choose {numbers}, or a name ({names})",
                         numbers=either(str(c.number) for c in question.choices),
                         names=", ".join(c.label for c in question.choices)))


def _player(session: Session, values: Mapping[str, object], question: Question, text: str) -> str:
    """The player an answer to a question names: by his number in the menu or his name."""
    players = session.players
    if re.fullmatch("[0-9]{1,2}", text):
        if not 1 <= int(text) <= len(players):
            raise _wrong_player(question)
        chosen = players[int(text) - 1]
    elif not text:
        raise _wrong_player(question)
    else:
        try:
            chosen = players[seat_of(session, text, None)]
        except LedgerError:
            found = find(text, ((p, ()) for p in players), key=player_key)
            if found.candidates or found.close:  # an ambiguous beginning, a typo: said as they are
                raise
            raise _wrong_player(question) from None
    return chosen


def _shown(session: Session, question: Question, value: object) -> str:
    """An answer's value as the confirmation shows it."""
    if value is None:  # "Partner: none", not the question's "no partner" again
        return _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return next((c.label for c in question.choices if c.answer == value), str(value))
