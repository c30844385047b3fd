"""Import circles in src/hindsight: the graph of module-level imports, its strongly connected groups.

    python scripts/import_cycles.py            # imports a module runs when it is imported (exit 1 on a circle)
    python scripts/import_cycles.py --lazy     # also imports inside functions and under TYPE_CHECKING (a report)

An edge A -> B is `import B` or `from B import x` at A's top level (inside try/except and if-blocks too, not under
`if TYPE_CHECKING`); `from pkg import sub` depends on the submodule; importing `a.b.c` also runs the packages `a`
and `a.b` (an edge to each, except a module's own ancestors, which are running already).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"


def modules(src: Path = SRC) -> dict[str, Path]:
    out = {}
    for path in src.rglob("*.py"):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                found += _imports(node.body) + _imports(node.orelse)
        elif isinstance(node, ast.Try):
            found += _imports(node.body) + _imports(node.orelse) + _imports(node.finalbody)
            for handler in node.handlers:
                found += _imports(handler.body)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
    return found


def edges(name: str, path: Path, known: dict[str, Path], lazy: bool = False) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [n for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)] if lazy else _imports(tree.body)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    wanted: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            wanted.update(alias.name for alias in node.names)
            continue
        if node.level:
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            module = ".".join(base + ([node.module] if node.module else []))
        else:
            module = node.module or ""
        for alias in node.names:
            sub = f"{module}.{alias.name}"
            wanted.add(sub if sub in known else module)
    out: set[str] = set()
    for target in wanted:
        while target and target not in known:
            target = target.rpartition(".")[0]
        if not target or target == name:
            continue
        out.add(target)
        parts = target.split(".")
        for i in range(1, len(parts)):
            ancestor = ".".join(parts[:i])
            if ancestor in known and ancestor != name and not name.startswith(ancestor + "."):
                out.add(ancestor)
    return out


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def main(argv: list[str]) -> int:
    lazy = "--lazy" in argv
    known = modules()
    graph = {name: edges(name, path, known, lazy) for name, path in known.items()}
    groups = cycles(graph)
    kind = "all imports (lazy and TYPE_CHECKING too)" if lazy else "module-level imports"
    print(f"{len(graph)} modules, {sum(map(len, graph.values()))} edges of {kind}, {len(groups)} circles")
    for group in groups:
        print("  " + " <-> ".join(group))
    return 1 if groups and not lazy else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
