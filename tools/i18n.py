"""The translation catalogues of boston-ledger, for developers and translators (not shipped).

    python tools/i18n.py extract   # boston_ledger/locale/boston_ledger.pot from the code and the tariffs
    python tools/i18n.py compile   # every locale/*/LC_MESSAGES/boston_ledger.po to its .mo

Between the two, bring a catalogue up to date with the template with GNU gettext
(Debian's `gettext`): `msgmerge --update --backup=none PO POT` keeps every translation,
marks those whose English changed as fuzzy and adds the new texts empty; a translator
fills them in (Poedit, Weblate, a text editor), `msgfmt -c --check-format PO -o /dev/null`
checks the result. `msgfmt -o MO PO` compiles as well as `compile` does.

What is extracted: the literal texts given to `_()`, `N_()`, `ngettext()` (with its plural),
`pgettext()` and `NP_()` (with their context) in the package; the help of the command line
(the docstrings of the commands in `cli/declarations.py` and the `help=` texts there); and
the words of the shipped tariff files that are shown (titles, sources, notes, condition titles).
GNU xgettext finds all but the docstrings and the tariffs' words, hence this script.
"""

from __future__ import annotations

import ast
import copy
import inspect
import re
import struct
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "boston_ledger"
LOCALE = PACKAGE / "locale"
DOMAIN = "boston_ledger"
TEMPLATE = LOCALE / f"{DOMAIN}.pot"
KEYWORDS = {"_": (0, None, None), "N_": (0, None, None), "ngettext": (0, 1, None), "pgettext": (1, None, 0),
            "NP_": (1, None, 0)}
TARIFF_KEYS = ("title", "source")  # in [tariff], and in each [conditions.NAME]


@dataclass
class Entry:
    """One message of a catalogue."""

    msgid: str
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: list[str] = field(default_factory=lambda: [""])
    flags: set[str] = field(default_factory=set)
    comments: list[str] = field(default_factory=list)  # translator (#) and reference (#:) lines as read

    @property
    def key(self) -> tuple[str | None, str]:
        return self.msgctxt, self.msgid


# ---- reading and writing .po files ---------------------------------------------------------------


def _unquote(text: str) -> str:
    return ast.literal_eval(text)  # a .po string is a C string, which a Python literal reads the same


def read_po(path: Path) -> tuple[Entry | None, list[Entry]]:
    """The header entry and the messages of a .po file (obsolete `#~` entries are skipped)."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int] = ("msgid", 0)
    flags: set[str] = set()
    comments: list[str] = []

    def finish() -> None:
        nonlocal current
        if current is not None:
            entries.append(current)
        current = None

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#~"):
            if not line:
                finish()
            continue
        if line.startswith("#"):
            if current is not None and current.msgstr:
                finish()
            if line.startswith("#,"):
                flags |= {f.strip() for f in line[2:].split(",") if f.strip()}
            else:
                comments.append(raw)
            continue
        m = re.match(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")$", line)
        if m is None:
            if not line.startswith('"') or current is None:
                raise ValueError(f"{path}: cannot read the line {raw!r}")
            kind, i = target
            text = _unquote(line)
            if kind == "msgstr":
                current.msgstr[i] += text
            else:
                setattr(current, kind, (getattr(current, kind) or "") + text)
            continue
        word, index, text = m.group(1), m.group(2), _unquote(m.group(3))
        if word in ("msgctxt", "msgid") and current is not None and (current.msgstr or word == "msgctxt"):
            finish()
        if current is None:
            current = Entry("", flags=flags, comments=comments, msgstr=[])
            flags, comments = set(), []
        if word.startswith("msgstr"):
            i = int(index or 0)
            while len(current.msgstr) <= i:
                current.msgstr.append("")
            current.msgstr[i], target = text, ("msgstr", i)
        else:
            setattr(current, word, text)
            target = (word, 0)
    finish()
    header = next((e for e in entries if e.msgid == "" and e.msgctxt is None), None)
    return header, [e for e in entries if e is not header]


def _quote(text: str) -> str:
    body = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\n", "\\n")
    return f'"{body}"'


def _field(word: str, text: str) -> list[str]:
    """A field, split after each newline the way msgmerge writes long texts."""
    if "\n" not in text[:-1]:
        return [f"{word} {_quote(text)}"]
    parts = re.findall(r"[^\n]*\n|[^\n]+$", text)
    return [f'{word} ""'] + [_quote(p) for p in parts]


def write_entry(e: Entry) -> list[str]:
    lines = list(e.comments)
    if e.flags:
        lines.append("#, " + ", ".join(sorted(e.flags)))
    if e.msgctxt is not None:
        lines += _field("msgctxt", e.msgctxt)
    lines += _field("msgid", e.msgid)
    if e.msgid_plural is not None:
        lines += _field("msgid_plural", e.msgid_plural)
        for i, text in enumerate(e.msgstr):
            lines += _field(f"msgstr[{i}]", text)
    else:
        lines += _field("msgstr", e.msgstr[0] if e.msgstr else "")
    return lines


def write_po(path: Path, header: Entry, entries: list[Entry]) -> None:
    out: list[str] = []
    for e in [header, *entries]:
        out += [*write_entry(e), ""]
    path.write_text("\n".join(out), encoding="utf-8")


# ---- compiling .mo files ------------------------------------------------------------------------


def mo_bytes(header: Entry | None, entries: list[Entry]) -> bytes:
    """A GNU .mo file of the translated, not fuzzy, messages (as `msgfmt` makes it)."""
    pairs: dict[bytes, bytes] = {}
    if header is not None:
        pairs[b""] = header.msgstr[0].encode()
    for e in entries:
        if "fuzzy" in e.flags or not all(e.msgstr) or not e.msgstr:
            continue
        key = e.msgid if e.msgctxt is None else f"{e.msgctxt}\x04{e.msgid}"
        if e.msgid_plural is not None:
            key += "\x00" + e.msgid_plural
        pairs[key.encode()] = "\x00".join(e.msgstr).encode()
    keys = sorted(pairs)
    ids = b"".join(k + b"\x00" for k in keys)
    strs = b"".join(pairs[k] + b"\x00" for k in keys)
    start = 7 * 4 + 16 * len(keys)
    offsets, pos = [], 0
    for k in keys:
        offsets += [len(k), start + pos]
        pos += len(k) + 1
    values, pos = [], 0
    for k in keys:
        values += [len(pairs[k]), start + len(ids) + pos]
        pos += len(pairs[k]) + 1
    head = struct.pack("Iiiiiii", 0x950412DE, 0, len(keys), 7 * 4, 7 * 4 + 8 * len(keys), 0, 0)
    return head + struct.pack(f"{len(offsets)}i", *offsets) + struct.pack(f"{len(values)}i", *values) + ids + strs


def catalogues() -> list[Path]:
    return sorted(LOCALE.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def compile_all() -> list[Path]:
    written = []
    for po in catalogues():
        header, entries = read_po(po)
        mo = po.with_suffix(".mo")
        mo.write_bytes(mo_bytes(header, entries))
        written.append(mo)
    return written


# ---- extracting the texts -----------------------------------------------------------------------


def _literal(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def code_texts(package: Path = PACKAGE) -> dict[tuple[str | None, str], Entry]:
    """Every text marked in the package's code, by (context, text), with where it first is; read
    once while its files are unchanged (the tests ask for the template several times), and a copy
    each time, which its caller may change."""
    files = sorted(package.rglob("*.py"))
    key = tuple((str(path), (seen := path.stat()).st_mtime_ns, seen.st_size) for path in files)
    if key not in _READ:
        _READ.clear()
        _READ[key] = _code_texts(package, files)
    return copy.deepcopy(_READ[key])


_READ: dict[tuple[tuple[str, int, int], ...], dict[tuple[str | None, str], Entry]] = {}


def _code_texts(package: Path, files: list[Path]) -> dict[tuple[str | None, str], Entry]:
    found: dict[tuple[str | None, str], Entry] = {}
    for path in files:
        where = path.relative_to(package.parent).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in KEYWORDS:
                text_at, plural_at, context_at = KEYWORDS[node.func.id]
                args = node.args
                text = _literal(args[text_at]) if len(args) > text_at else None
                if text is None:
                    continue
                entry = Entry(text, msgctxt=_literal(args[context_at]) if context_at is not None else None,
                              msgid_plural=_literal(args[plural_at]) if plural_at is not None else None)
                _add(found, entry, f"{where}:{node.lineno}")
            if path.name != "declarations.py":
                continue
            if isinstance(node, ast.keyword) and node.arg == "help" and _literal(node.value) is not None:
                _add(found, Entry(_literal(node.value)), f"{where}:{node.value.lineno}")
            elif isinstance(node, ast.FunctionDef) and node.decorator_list:
                doc = ast.get_docstring(node, clean=False)
                if doc and any(_is_command(d) for d in node.decorator_list):
                    _add(found, Entry(inspect.cleandoc(doc)), f"{where}:{node.lineno}")
    return found


def _is_command(decorator: ast.AST) -> bool:
    """`@app.command()`, `@tariffs_app.command("list")`, `@app.callback()` and the like."""
    func = decorator.func if isinstance(decorator, ast.Call) else decorator
    return isinstance(func, ast.Attribute) and func.attr in ("command", "callback")


def _add(found: dict, entry: Entry, where: str) -> None:
    known = found.setdefault(entry.key, entry)
    if known is not entry and known.msgid_plural != entry.msgid_plural:
        raise ValueError(f"{where}: {entry.msgid!r} is used with two plurals")
    reference = f"#: {where.split(':')[0]}"  # the file alone, as `xgettext --add-location=file`: fewer changes
    if reference not in known.comments:
        known.comments.append(reference)
    if "{" in entry.msgid:
        known.flags.add("python-brace-format")


def tariff_texts(folder: Path = ROOT / "tariffs") -> dict[tuple[str | None, str], Entry]:
    """The words of the shipped tariffs that are shown to people."""
    found: dict[tuple[str | None, str], Entry] = {}
    for path in sorted(folder.glob("*.toml")):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        head = data.get("tariff", {})
        words = [head.get("title"), head.get("source"), *head.get("notes", data.get("notes", []))]
        words += [c.get("title") for c in data.get("conditions", {}).values()]
        for word in words:
            if isinstance(word, str):
                _add(found, Entry(word), f"tariffs/{path.name}")
    return found


def template() -> list[Entry]:
    """Every message to translate: the code's, then the tariffs' words."""
    found = code_texts()
    for key, entry in tariff_texts().items():
        if key in found:
            found[key].comments += entry.comments
        else:
            found[key] = entry
    entries = list(found.values())
    for e in entries:
        e.msgstr = ["", ""] if e.msgid_plural is not None else [""]
    return entries


HEADER = Entry("", msgstr=["Project-Id-Version: boston-ledger\nContent-Type: text/plain; charset=UTF-8\n"
                           "Content-Transfer-Encoding: 8bit\nPlural-Forms: nplurals=2; plural=(n != 1);\n"])


def main(argv: list[str]) -> int:
    if argv == ["extract"]:
        write_po(TEMPLATE, HEADER, template())
        print(f"wrote {TEMPLATE.relative_to(ROOT)}")
        return 0
    if argv == ["compile"]:
        for path in compile_all():
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
