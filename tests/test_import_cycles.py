"""No import circles among src/hindsight's modules (design rule; scripts/import_cycles.py walks the graph)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _walker() -> Any:
    spec = importlib.util.spec_from_file_location("import_cycles", ROOT / "scripts" / "import_cycles.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["import_cycles"] = module
    spec.loader.exec_module(module)
    return module


def test_the_walker_finds_a_circle() -> None:
    walker = _walker()
    assert walker.cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert walker.cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_level_import_circle() -> None:
    walker = _walker()
    known = walker.modules(ROOT / "src")
    assert len(known) > 200
    graph = {name: walker.edges(name, path, known) for name, path in known.items()}
    assert walker.cycles(graph) == []
