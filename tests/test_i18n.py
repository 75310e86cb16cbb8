"""Russian and English: every text the program shows exists in both, with the same {fields};
--lang or the locale decides; Russian output speaks the seed's words."""

from __future__ import annotations

import ast
import re
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest
import typer.main
from typer.testing import CliRunner

from boston_ledger.core import i18n
from boston_ledger.cli.declarations import app
from boston_ledger.cli.quick import QUICK, quick_values
from boston_ledger.core.tariff_files import load, shipped
from conftest import PLAYERS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import i18n as catalogue  # tools/i18n.py: extraction, .po reading, .mo writing

ROOT = Path(__file__).resolve().parent.parent

RUSSIAN = ["Анна", "Борис", "Вера", "Глеб"]
PO = catalogue.LOCALE / "ru" / "LC_MESSAGES" / "boston_ledger.po"


def fields(template: str) -> set[str]:
    return {f"{name}!{conv}:{spec}" for _, name, spec, conv in string.Formatter().parse(template) if name is not None}


def russian() -> dict[tuple[str | None, str], catalogue.Entry]:
    return {e.key: e for e in catalogue.read_po(PO)[1]}


def test_every_text_has_its_russian_with_the_same_fields() -> None:
    found = catalogue.template()
    assert len(found) > 400  # the scan sees the code, the help and the tariffs
    po = russian()
    missing = [f"{e.comments[0]}: {e.msgid!r}" for e in found
               if e.key not in po or not all(po[e.key].msgstr) or "fuzzy" in po[e.key].flags]
    assert not missing, "\n".join(missing)
    for e in found:
        translated = po[e.key]
        assert translated.msgid_plural == e.msgid_plural, e.msgid
        assert len(translated.msgstr) == (3 if e.msgid_plural else 1), e.msgid  # Russian: one, few, many
        for form in translated.msgstr:
            assert fields(form) - {"n!:"} == fields(e.msgid) - {"n!:"}, e.msgid


def test_no_russian_is_left_without_its_english() -> None:
    used = {e.key for e in catalogue.template()}
    assert not [key for key in russian() if key not in used]


def test_the_template_is_the_code_s_texts() -> None:
    """locale/boston_ledger.pot, which translators merge from, holds exactly what the code marks."""
    __, kept = catalogue.read_po(catalogue.TEMPLATE)
    assert {e.key for e in kept} == {e.key for e in catalogue.template()}, "run `python tools/i18n.py extract`"


def test_the_compiled_catalogue_is_the_po() -> None:
    """The .mo read at run time says what the .po says (`python tools/i18n.py compile` after a change)."""
    import gettext

    with open(PO.with_suffix(".mo"), "rb") as f:
        compiled = gettext.GNUTranslations(f)
    __, entries = catalogue.read_po(PO)
    expected = {}
    for e in entries:
        key = e.msgid if e.msgctxt is None else f"{e.msgctxt}\x04{e.msgid}"
        if e.msgid_plural is None:
            expected[key] = e.msgstr[0]
        else:
            expected.update({(key, i): text for i, text in enumerate(e.msgstr)})
    assert {k: v for k, v in compiled._catalog.items() if k != ""} == expected
    assert compiled.ngettext("{n} deal played", "{n} deals played", 22) == "сыграны {n} сдачи"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is not installed (Debian: gettext)")
def test_msgfmt_accepts_the_catalogue(tmp_path: Path) -> None:
    done = subprocess.run(["msgfmt", "-c", "--check-format", "-o", str(tmp_path / "x.mo"), str(PO)],
                          capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr, done.stderr


def test_every_message_raised_goes_through_the_catalogue() -> None:
    """No error is written as a bare string: each is _(...) or built from such (or passed on)."""
    bare = []
    for path in sorted(catalogue.PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id.endswith("Error") \
                    and node.args and isinstance(node.args[0], (ast.Constant, ast.JoinedStr)):
                arg = node.args[0]
                passed_on = isinstance(arg, ast.JoinedStr) and any(  # a location before an error already worded
                    isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name) and v.value.id == "e"
                    for v in arg.values)
                if not passed_on:
                    bare.append(f"{path.name}:{node.lineno}")
    assert not bare, bare


def test_every_help_text_has_its_russian() -> None:
    """Every help text of the built command line (typer's own options too) is in the catalogue."""
    from boston_ledger.cli.patches import speak_help

    group = typer.main.get_command(app)
    i18n.set_language("en")
    speak_help(group)  # the command is shared: an earlier Russian run left its words Russian
    po = russian()

    def texts(command):
        yield command.help
        for p in command.params:
            if getattr(p, "help", None):
                yield p.help
        for sub in getattr(command, "commands", {}).values():
            yield from texts(sub)

    assert not [text for text in texts(group) if (None, text) not in po]
    # no hard line break inside a paragraph, in either language: the renderer wraps
    broken = [text for text in texts(group) for said in (text, *po[(None, text)].msgstr)
              if "\n" in said.replace("\n\n", "")]
    assert not broken, broken


def test_russian_help_has_the_same_example(cli) -> None:
    """Each command's Russian help carries «Пример:» with the same command as the English."""
    group = typer.main.get_command(app)

    def leaves(command, path=()):
        for name, sub in getattr(command, "commands", {}).items():
            yield from leaves(sub, (*path, name)) if hasattr(sub, "commands") else [(*path, name)]

    for path in leaves(group):
        out = " ".join(cli("--lang", "ru", *path, "--help").stdout.split())
        assert f"Пример: boston-ledger {' '.join(path)}" in out, path
        assert "Параметры" in out and "Использование:" in out and "Показать эту справку и выйти." in out, path
        # every placeholder is in Russian: no NAME, DECLARER, CONTRACT... on a Russian page
        assert not re.findall(r"\b[A-Z]{2,}\b", out.replace("UTF-8", "").replace("CSV", "").replace("JSON", "")
                              .replace("SVG", "").replace("QR", "").replace("TOML", "").replace("EUR", "")
                              .replace("RUB", "").replace("YYYY", "").replace("BOSTON_LEDGER_DB", "")
                              .replace("BOSTON_LEDGER_SESSION", "").replace("A4", "").replace("HEAD", "")
                              .replace("GET", "").replace("URI", "")), (path, out)


def test_lang_anywhere_on_the_line_and_the_locale(cli, table) -> None:
    assert "корзина" in cli("--lang", "ru", "status").stdout
    assert "корзина" in cli("status", "--lang=ru").stdout
    runner = CliRunner()
    assert "корзина" in runner.invoke(app, ["status"], env={"LANG": "ru_RU.UTF-8", "LC_ALL": "", "LANGUAGE": ""}).stdout
    english = runner.invoke(app, ["status"], env={"LANG": "C.UTF-8", "LC_ALL": "", "LANGUAGE": ""}).stdout
    assert "basket" in english and "корзина" not in english
    assert "basket" in cli("--lang", "en", "status").stdout  # --lang wins over the locale
    result = runner.invoke(app, ["--lang", "en", "status"], env={"LANG": "ru_RU.UTF-8", "LANGUAGE": ""})
    assert "basket" in result.stdout


@pytest.mark.parametrize("environ, expected", [
    ({"LANG": "ru_RU.UTF-8"}, "ru"), ({"LANG": "en_GB.UTF-8"}, "en"), ({}, "en"),
    ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "ru_RU.UTF-8"}, "ru"), ({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, "en"),
    ({"LANGUAGE": "ru:en", "LANG": "en_US.UTF-8"}, "ru"),
])
def test_the_locale_decides(environ, expected) -> None:
    assert i18n.from_locale(environ) == expected


def test_a_bad_lang_is_one_line_and_exit_2(table) -> None:
    for args in (["--lang", "fr", "status"], ["status", "--lang"]):
        result = table(*args, code=2)
        assert result.stderr.count("\n") == 1 and "--lang must be one of en, ru" in result.stderr


def test_plural_forms() -> None:
    text = ("{n} deal played", "{n} deals played")
    try:
        i18n.set_language("ru")
        assert [i18n.ngettext(*text, n) for n in (1, 2, 5, 11, 21, 22, 112)] == [
            "сыграна 1 сдача", "сыграны 2 сдачи", "сыграно 5 сдач", "сыграно 11 сдач", "сыграна 21 сдача",
            "сыграны 22 сдачи", "сыграно 112 сдач"]
    finally:
        i18n.set_language("en")
    assert [i18n.ngettext(*text, n) for n in (1, 2)] == ["1 deal played", "2 deals played"]


LATIN_WORD = re.compile(r"\b[a-z]{3,}\b")
ALLOWED_LATIN = {"classic", "boston", "ledger", "history", "undo", "new", "all", "settle", "status", "deal",
                 "db", "chip", "value", "json", "help", "edit", "reopen", "declarer", "tricks", "partner",
                 "tariffs", "check", "tariff", "condition", "export", "evening", "fontainebleau", "svg"}


def russian_words(text: str) -> list[str]:
    """Latin words left in a Russian text, apart from names of commands, options and tariffs."""
    text = re.sub(r"`[^`]*`|'[^']*'|«[^»]*»|--[a-z-]+|\S+\.(?:db|csv|svg|toml)\b|/\S+", " ", text)
    return [w for w in LATIN_WORD.findall(text) if w not in ALLOWED_LATIN]


def test_a_russian_evening_speaks_russian(cli) -> None:
    """An evening in Russian: the seed's words are there and no English word is left."""
    ru_ = ("--lang", "ru")
    outputs = [
        cli(*ru_, "new", *RUSSIAN, "--chip-value", "0.10").stdout,
        cli(*ru_, "deal", "младшая", "--declarer", "Борис", "--partner", "Глеб", "--tricks", "5",
            "--partner-tricks", "4", "--boston", "Вера").stdout,
        cli(*ru_, "deal", "пас").stdout,
        cli(*ru_, "deal", "прикуп", "--declarer", "Вера", "--partner", "Анна", "--tricks", "4",
            "--partner-tricks", "3").stdout,
        cli(*ru_, "deal", "мизер", "--declarer", "Анна", "--tricks", "0").stdout,
        cli(*ru_, "deal", "младшая", "--declarer", "Глеб", "--partner", "Анна", "--tricks", "7",
            "--partner-tricks", "6").stdout,
        cli(*ru_, "status").stdout,
        cli(*ru_, "history").stdout,
        cli(*ru_, "undo").stdout,
        cli(*ru_, "settle").stdout,
        cli(*ru_, "sessions").stdout,
        cli(*ru_, "stats").stdout,
        cli(*ru_, "chart").stdout,
        cli(*ru_, "ledger").stdout,
    ]
    whole = "\n".join(outputs)
    for word in ("корзина", "лабет", "консоляция", "шлем", "все спасовали", "младшая", "ставка", "сдающий",
                 "Расчёт вечера", "Вера → Анна: 13,60"):
        assert word in whole, word
    assert not russian_words(whole), russian_words(whole)


def test_russian_errors_are_one_line_in_russian(table) -> None:
    for args in (["deal", "junior", "--declarer", "Zed", "--tricks", "5"], ["deal", "junior", "--bogus"],
                 ["deal", "junior", "--declarer"], ["edit"], ["frobnicate"], ["deal", "шлем"],
                 ["history", "--last", "x"], ["new", "A", "B"]):
        result = table("--lang", "ru", *args, code=2)
        assert result.stderr.startswith("boston-ledger: ошибка: ") and result.stderr.count("\n") == 1, args
        assert not russian_words(result.stderr.split(":", 2)[2]), (args, result.stderr)


def test_the_tariff_tables_in_russian(cli) -> None:
    for name in shipped():
        out = cli("--lang", "ru", "tariffs", "show", name).stdout
        conditions = "Условия" in out or not load(name).conditions  # Foster's American Boston has none
        by_suit = load(name).turns and "по масти, в которой платится игра" in out  # French Boston: Foster's table
        assert ("по числу взятых взяток" in out and conditions) or name == "samouchitel" or by_suit, name
        # the source note points a Russian reader to the Russian rules
        assert "docs/rules.ru.md" in out.replace("\n", "") and "rules.en.md" not in out, name


def test_the_demo_in_russian(cli) -> None:
    out = cli("--lang", "ru", "demo").stdout
    assert "Анна" in out and "Пример 1 из правил" in out and "Расчёт вечера" in out


def test_the_quick_parser_knows_what_deal_and_status_declare() -> None:
    """quick.QUICK lists exactly the options and the argument declarations.py declares for its commands."""
    group = typer.main.get_command(app)
    for name, (positional, required, options) in QUICK.items():
        command = group.commands[name]
        declared = {}
        for p in command.params:
            if p.param_type_name == "option":
                for opt in p.opts:
                    declared[opt] = (p.name, not p.is_flag)
        arguments = [p.name for p in command.params if p.param_type_name == "argument"]
        assert declared == options, name
        assert arguments == ([positional] if positional else []), name
        assert [p.required for p in command.params if p.param_type_name == "argument"] == (
            [required] if positional else []), name


@pytest.mark.parametrize("args, expected", [
    (["status"], {}),
    (["status", "--json", "--db=x.db"], {"as_json": True, "db": "x.db"}),
    (["deal", "junior", "--declarer", "Boris", "--tricks", "9"], {"contract": "junior", "declarer": "Boris",
                                                                    "tricks": "9"}),
    (["deal", "pass", "--ace-turned"], {"contract": "pass", "ace_turned": True}),
    (["deal", "--help"], None), (["deal", "junior", "extra"], None), (["deal", "--tricks"], None),
    (["deal", "--tricks", "--declarer"], None), (["deal", "--tricks", "1", "--tricks", "2"], None),
    (["deal", "--ace-turned=yes"], None), (["status", "-h"], None), (["sessions"], None), ([], None),
    (["history"], {}), (["history", "--last", "5", "--json"], {"last": "5", "as_json": True}),
    (["check", "--all"], {"all_sessions": True}), (["export", "out"], {"directory": "out"}),
    (["export"], None), (["export", "a", "b"], None), (["export", "--db", "x.db"], None),
    (["stats", "--player", "Anna"], {"player": "Anna"}), (["stats", "--session", "1"], None),
])
def test_the_quick_parser_takes_only_plain_lines(args, expected) -> None:
    assert quick_values(args) == expected


def test_the_quick_path_speaks_russian_too(cli) -> None:
    env = {"COLUMNS": "100", "NO_COLOR": "1", "LANG": "ru_RU.UTF-8", "LANGUAGE": "", "LC_ALL": ""}
    cli.main("new", *PLAYERS, env=env)
    deal = cli.main("deal", "pass", env=env)
    assert "все спасовали" in deal.stdout
    bad = cli.main("--lang", "en", "deal", "junior", "--tricks", "5", env=env, code=2)
    assert bad.stderr.startswith("boston-ledger: error: ")


def test_check_reports_in_russian(tmp_path: Path) -> None:
    from test_check_tampering import TRANSFER, build, tampered

    sound = tmp_path / "sound.db"
    build(sound, 40)
    bad = tampered(sound, tmp_path, f"UPDATE transfers SET chips = chips + 1 WHERE id = {TRANSFER}")
    runner = CliRunner()
    result = runner.invoke(app, ["--lang", "ru", "check", "--db", str(bad)])
    assert result.exit_code == 1
    assert result.stdout.startswith("вечер 1, сдача 30: записанные переводы расходятся с пересчётом")
    assert not russian_words(result.stdout.replace("консоляция", "")), result.stdout


def test_the_system_errors_are_in_russian_too(table, tmp_path: Path) -> None:
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    result = table("--lang", "ru", "export", str(a_file / "inside"), code=2)
    assert "это не папка" in result.stderr or "файл уже есть" in result.stderr, result.stderr
    result = table("--lang", "ru", "chart", "--svg", str(tmp_path / "missing" / "x.svg"), code=2)
    assert "нет такого файла или папки" in result.stderr, result.stderr
    assert "No such file or directory" in table("chart", "--svg", str(tmp_path / "missing" / "x.svg"), code=2).stderr
