"""`hindsight.write` has no import cycle: every import between its modules (type-checking and function-level
imports included) forms a graph without a cycle, and each module imports on its own in a fresh interpreter, in
either order of a pair that used to import each other (erase <-> pipeline; conflict / hygiene / restatement)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import hindsight.write

PACKAGE = Path(hindsight.write.__file__).resolve().parent


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.glob("*.py")):
        name = path.stem
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("hindsight.write."):
                edges.add(node.module.split(".")[2])
            elif isinstance(node, ast.ImportFrom) and node.module == "hindsight.write":
                edges.update(alias.name for alias in node.names)
            elif isinstance(node, ast.Import):
                edges.update(a.name.split(".")[2] for a in node.names if a.name.startswith("hindsight.write."))
        graph[name] = edges - {name}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt):], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_write_package_import_graph_has_no_cycle() -> None:
    graph = _graph()
    assert {"erase", "pipeline", "conflict", "hygiene", "restatement"} <= set(graph)
    assert _cycle(graph) is None, f"import cycle in hindsight.write: {' -> '.join(_cycle(graph) or [])}"


def test_cycle_finder_sees_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


@pytest.mark.parametrize("order", [("erase", "pipeline"), ("pipeline", "erase"),
                                   ("conflict", "hygiene", "restatement"), ("restatement", "hygiene", "conflict"),
                                   ("hygiene", "conflict", "restatement"), ("token_align", "judge")])
def test_modules_import_in_any_order(order: tuple[str, ...]) -> None:
    code = "; ".join(f"import hindsight.write.{name}" for name in order)
    env = {**os.environ, "PYTHONPATH": str(PACKAGE.parent.parent) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
