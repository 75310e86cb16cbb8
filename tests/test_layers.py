"""The package's layers import downward only, its import graph has no cycle, and no module
reaches into another's private names."""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "boston_ledger"
# From the bottom up; a module may import its own layer and those below it. `serve` (the evening
# page on the players' phones) is a view with a server of its own, which the command line starts.
LAYERS = {"core": 0, "store": 1, "app": 2, "ui": 3, "serve": 4, "cli": 5}
TOP = 6  # boston_ledger/__init__.py and __main__.py


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> int:
    parts = module.split(".")
    return LAYERS[parts[1]] if len(parts) > 1 and parts[1] in LAYERS else TOP


@cache
def imports() -> dict[str, list[tuple[str, list[str], int]]]:
    """Per module, every boston_ledger module it imports (anywhere in it), the names it takes, the line."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    found: dict[str, list[tuple[str, list[str], int]]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        out = found[name] = []
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if not target.startswith("boston_ledger"):
                    continue
                names = [a.name for a in node.names]
                submodules = [f"{target}.{n}" for n in names if f"{target}.{n}" in modules]
                out += [(m, [], node.lineno) for m in submodules]
                rest = [n for n in names if f"{target}.{n}" not in modules]
                if rest or not submodules:
                    out.append((target, rest, node.lineno))
            elif isinstance(node, ast.Import):
                out += [(a.name, [], node.lineno) for a in node.names if a.name.startswith("boston_ledger")]
    return found


def test_every_module_is_in_a_layer() -> None:
    for name in imports():
        parts = name.split(".")
        assert (len(parts) <= 2 and name in ("boston_ledger", "boston_ledger.__main__")) or parts[1] in LAYERS, name


def test_layers_import_downward_only() -> None:
    upward = [f"{m} (layer {layer(m)}) imports {target} (layer {layer(target)}), line {line}"
              for m, found in imports().items() for target, __, line in found
              if layer(target) > layer(m) and target != "boston_ledger"]
    assert not upward, "\n".join(upward)


def test_the_command_line_goes_through_the_application() -> None:
    """cli/ reads and writes the ledger only through app/ (both entry paths call app by keyword)."""
    direct = [f"{m} imports {t}, line {line}" for m, found in imports().items() if m.startswith("boston_ledger.cli")
              for t, __, line in found if t.startswith("boston_ledger.store")]
    assert not direct, "\n".join(direct)


def test_the_import_graph_has_no_cycle() -> None:
    graph = {m: {t for t, __, ___ in found if t in imports() and t != m} for m, found in imports().items()}
    state: dict[str, int] = {}  # 1: on the path, 2: done
    cycles = []

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt):], nxt] if nxt in path else [node, nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for start in sorted(graph):
        if start not in state:
            visit(start, [start])
    # a package's __init__ importing nothing, its modules importing each other downward: no cycle
    assert not cycles, cycles


def test_no_module_takes_another_s_private_names() -> None:
    private = [f"{m} takes {n} from {t}, line {line}" for m, found in imports().items()
               for t, names, line in found for n in names
               if n.startswith("_") and n != "_" and not n.startswith("__") and t != m]
    assert not private, "\n".join(private)


def test_the_core_does_no_io_and_prints_nothing() -> None:
    """core/ is pure: no sqlite3, no files opened, no print (the tariff files are read in one place)."""
    offenders = []
    for path in sorted((PACKAGE / "core").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                if any(m.split(".")[0] in ("sqlite3", "subprocess", "socket", "rich", "typer") for m in mods):
                    offenders.append(f"{path.name}:{node.lineno} imports {mods}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("print", "open"):
                offenders.append(f"{path.name}:{node.lineno} calls {node.func.id}")
    assert not offenders, offenders
