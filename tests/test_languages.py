"""A third language works end to end once it has a catalogue and its entry in the registry
(core/i18n.LANGUAGES), and nothing else: a test-only pseudo-language, "xx", whose catalogue is every
text of the template wrapped in ⟦ ⟧, speaks the help, a deal, the status, the sheet and the phone
page; and no module outside the registry compares with a language code."""

from __future__ import annotations

import ast
import json
import sys
from pathlib import Path

import pytest

from boston_ledger.core import i18n

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tools"))
import i18n as catalogue  # tools/i18n.py: the template, .mo writing

ROOT = Path(__file__).resolve().parent.parent

PSEUDO = i18n.Language("xx", ("‹", "›"), "·", "", yes=("ja",), no=("nein",), back=("zurück",), nobody=("niemand",),
                       signs={"EUR": "€"})


def pseudo(text: str) -> str:
    return f"⟦{text}⟧"


@pytest.fixture
def xx(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The pseudo-language registered, with its catalogue made from the template."""
    entries = []
    for e in catalogue.template():
        e.msgstr = [pseudo(e.msgid), pseudo(e.msgid_plural)] if e.msgid_plural else [pseudo(e.msgid)]
        entries.append(e)
    header = catalogue.Entry("", msgstr=["Content-Type: text/plain; charset=UTF-8\n"
                                         "Plural-Forms: nplurals=2; plural=(n != 1);\n"])
    folder = tmp_path / "locale" / "xx" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "boston_ledger.mo").write_bytes(catalogue.mo_bytes(header, entries))
    monkeypatch.setattr(i18n, "LOCALE", tmp_path / "locale")
    monkeypatch.setitem(i18n.LANGUAGES, "xx", PSEUDO)
    yield
    i18n.set_language("en")


def test_a_third_language_speaks_everywhere(xx, cli, isolated: Path) -> None:
    help_page = cli("--lang", "xx", "deal", "--help").stdout
    assert "⟦Who bought the contract.⟧" in help_page and "⟦Record one deal" in help_page
    said = cli("--lang", "xx", "new", "Anna", "Boris", "Vera", "Gleb", "--chip-value", "0.10", "--currency",
               "EUR").stdout
    assert said.startswith("⟦Session 1 started: Anna, Boris, Vera, Gleb") and "0·10 €" in said
    shown = cli("--lang", "xx", "deal", "junior", "--declarer", "Boris", "--partner", "Gleb", "--tricks", "5",
                "--partner-tricks", "4", "--boston", "Vera").stdout
    assert "⟦stake⟧" in shown and "⟦basket⟧" in shown and "⟦Next: deal 2, dealt by Boris.⟧" in shown
    status = cli("--lang", "xx", "status").stdout
    assert "⟦1 deal played⟧" in status and "0·10 €" in status
    sheet = cli("--lang", "xx", "sheet").stdout
    assert "⟦tariff classic⟧" in sheet and "⟦Not settled yet" in sheet
    page = isolated.parent / "evening.html"
    cli("--lang", "xx", "sheet", "--html", str(page))
    html = page.read_text(encoding="utf-8")
    assert '<html lang="xx">' in html and "⟦Each player&#x27;s standing, deal by deal⟧" in html

    from boston_ledger.serve import page as phone_page
    from serving import view as views

    view = views(isolated, "xx")
    assert "⟦basket⟧" in view.sheet and "0·10 €" in view.sheet
    assert json.loads(view.status)["balances"] == {"Anna": -20, "Boris": 16, "Vera": -12, "Gleb": 16}
    with i18n.in_language("xx"):
        document = phone_page.document(view.title, view.sheet, "t" * 24, "xx", view.version)
    assert '<html lang="xx">' in document


def test_the_words_a_user_types_come_from_the_registry(xx) -> None:
    from boston_ledger.app.entry import is_back, reply
    from boston_ledger.app.inputs import nobody

    assert reply("ja", 3) == "yes" and reply("nein", 3) == "no" and is_back("zurück") and nobody("niemand")
    assert reply("да", 3) == "yes" and reply("yes", 3) == "yes"  # every language's words, whichever is spoken


def test_no_module_outside_the_registry_compares_with_a_language_code() -> None:
    codes = set(i18n.LANGUAGES)
    found = []
    for path in (ROOT / "boston_ledger").rglob("*.py"):
        if path.name == "i18n.py" and path.parent.name == "core":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                for side in [node.left, *node.comparators]:
                    if isinstance(side, ast.Constant) and side.value in codes:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not found, found
