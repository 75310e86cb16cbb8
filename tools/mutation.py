"""Mutation testing of the game's core and the money between evenings, with mutmut.

    python tools/mutation.py                         # core/settlement.py, core/ladders.py, app/money.py
    python tools/mutation.py core/engine.py          # any modules of boston_ledger/, by path
    python tools/mutation.py --tests "-m 'not slow'" --jobs 2 core/ladders.py
    python tools/mutation.py --tests "-m 'not slow' tests/test_engine.py tests/test_rules.py" core/engine.py

mutmut (`pip install mutmut`, 3.x) changes the code one small step at a time (a `<` for a `<=`,
a constant plus one, an `and` for an `or`, a call's argument dropped...) and runs the tests against
each such mutant: a mutant no test fails on ("survived") is a change a user could meet that the
suite would let through, unless it changes nothing a user can tell.

The run is made on a copy of this checkout in a temporary folder (mutmut writes its `mutants/`
folder and its configuration there, never here), with the tests of the quick subset by default
(`--tests` to choose others: mutmut runs, for each mutant, only the tests that reach its
function). At the end it prints each module's score (killed / all, with timeouts counted as
killed) and the mutants that survived, each with its diff, and leaves the copy for a look
(`--keep`) or removes it. Not run by CI: a run takes minutes to tens of minutes (see
docs/development.md for the last scores).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ["core/settlement.py", "core/ladders.py", "app/money.py"]
KILLED = {"killed", "timeout"}  # a mutant that makes the tests hang is caught too
# Tests that read the source itself (the catalogue's texts, the layers' imports, the registry of
# languages): mutmut's copy of a module is its functions behind trampolines, which they misread.
SOURCE_READERS = ["tests/test_i18n.py", "tests/test_layers.py", "tests/test_languages.py"]


def copy_of_the_checkout(into: Path) -> None:
    """The files git knows (and those not yet committed), without the VCS or earlier mutants."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.splitlines()
    for name in listed:
        source = ROOT / name
        if source.is_file() and not name.startswith("mutants/"):
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def configure(folder: Path, modules: list[str], tests: list[str]) -> None:
    """mutmut's section of the copy's pyproject.toml: what to mutate, which tests to run."""
    ignored = [f"--ignore={path}" for path in SOURCE_READERS]
    files = [t for t in tests if t.startswith("tests/")]  # test files named: only those run (else every one)
    tests = [t for t in tests if not t.startswith("tests/")]
    def toml_list(items: list[str]) -> str:
        return "[" + ", ".join('"' + item.replace("\\", "\\\\").replace('"', '\\"') + '"' for item in items) + "]"

    section = (
        "\n[tool.mutmut]\n"
        f"source_paths = {toml_list(['boston_ledger/'])}\n"
        f"only_mutate = {toml_list(['boston_ledger/' + m for m in modules])}\n"
        f"also_copy = {toml_list(['tests/', 'tariffs/', 'tools/', 'docs/', 'README.md'])}\n"
        f"pytest_add_cli_args = {toml_list(['-p', 'no:cacheprovider', '-n0', *ignored, *tests])}\n"
        f"pytest_add_cli_args_test_selection = {toml_list(files or ['tests/'])}\n"
    )
    pyproject = folder / "pyproject.toml"
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + section, encoding="utf-8")


def results(folder: Path, env: dict[str, str]) -> dict[str, str]:
    """Each mutant's name and its status, as `mutmut results --all true` lists them."""
    out = subprocess.run(["mutmut", "results", "--all", "true"], cwd=folder, env=env, capture_output=True,
                         text=True).stdout
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\S+__mutmut_\d+):\s*(.+?)\s*$", line)
        if m:
            found[m.group(1)] = m.group(2)
    return found


def module_of(mutant: str) -> str:
    """`boston_ledger.core.ladders.x__compare__mutmut_3` -> core/ladders.py"""
    dotted = mutant.split(".x")[0] if ".x" in mutant else mutant.rsplit(".", 1)[0]
    return "/".join(dotted.split(".")[1:]) + ".py"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", default=DEFAULT,
                        help="paths under boston_ledger/ (default: %(default)s)")
    parser.add_argument("--tests", default="-m 'not slow'",
                        help="pytest's arguments for each mutant (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="mutants tried at once (default: the cores)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the copy (its path is printed) to look at the mutants")
    args = parser.parse_args()
    if shutil.which("mutmut") is None:
        print("mutmut is not installed: pip install mutmut", file=sys.stderr)
        return 2
    for module in args.modules:
        if not (ROOT / "boston_ledger" / module).is_file():
            print(f"no boston_ledger/{module}", file=sys.stderr)
            return 2

    folder = Path(tempfile.mkdtemp(prefix="boston-ledger-mutation-"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "BOSTON_LEDGER_DB", "BOSTON_LEDGER_SESSION")}
    try:
        copy_of_the_checkout(folder)
        configure(folder, args.modules, shlex.split(args.tests))
        run = subprocess.run(["mutmut", "run", "--max-children", str(args.jobs)], cwd=folder, env=env)
        if run.returncode != 0:
            print(f"mutmut run failed (exit {run.returncode}); the copy is kept: {folder}", file=sys.stderr)
            args.keep = True
            return 1
        found = results(folder, env)
        by_module: dict[str, Counter] = {}
        for mutant, status in found.items():
            by_module.setdefault(module_of(mutant), Counter())[status] += 1
        print("\nmodule                     killed / mutants   score   (survived, no tests, other)")
        for module in sorted(by_module):
            counts = by_module[module]
            total, killed = sum(counts.values()), sum(counts[s] for s in KILLED)
            other = total - killed - counts["survived"] - counts["no tests"]
            print(f"{module:26} {killed:6} / {total:<7}  {killed / total:6.1%}   "
                  f"({counts['survived']}, {counts['no tests']}, {other})")
        survivors = sorted(m for m, s in found.items() if s in ("survived", "no tests"))
        for mutant in survivors:
            diff = subprocess.run(["mutmut", "show", mutant], cwd=folder, env=env, capture_output=True, text=True)
            print(f"\n--- {mutant} ({found[mutant]})\n{diff.stdout.strip()}")
        return 0
    finally:
        if args.keep:
            print(f"\nthe copy, with mutmut's mutants/: {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
