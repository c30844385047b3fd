"""Round 36: under `--dist loadfile` the costed files go first, dearest first; the rest keep xdist's order."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import xdist_order

ROOT = Path(__file__).resolve().parents[1]


def test_the_costed_files_go_first_dearest_first_and_the_rest_keep_their_order() -> None:
    queue = {"a.py": {"a1": False, "a2": False, "a3": False}, "b.py": {"b1": False, "b2": False},
             "c.py": {"c1": False}, "d.py": {"d1": False}, "e.py": {"e1": False}}
    costs = {"d.py": 30.0, "c.py": 90.0, "e.py": 30.0, "gone.py": 500.0}
    assert xdist_order.heavy_first(queue, costs) == ["c.py", "d.py", "e.py", "a.py", "b.py"]
    assert xdist_order.heavy_first(queue, {}) == list(queue)


def test_the_table_names_files_that_exist() -> None:
    table = json.loads(xdist_order.COSTS.read_text("utf-8"))
    assert table["seconds"] and all(seconds > 0 for seconds in table["seconds"].values())
    missing = [name for name in table["seconds"] if not (ROOT / name).is_file()]
    assert missing == [], "rename or drop these in tests/data/file_costs.json (scripts/file_costs.py)"


class _Config:
    """What xdist's scheduler reads of pytest's config: two popen workers, loadfile, its default reorder."""

    class option:  # noqa: N801 - pytest's attribute name
        loadscopereorder = True

    def getvalue(self, name: str) -> Any:
        return {"tx": ["2*popen"], "dist": "loadfile"}[name]


class _Node:
    def __init__(self, name: str) -> None:
        self.name, self.sent, self.shutting_down = name, [], False
        self.gateway = type("Gateway", (), {"id": name})()

    def send_runtest_some(self, indices: list[int]) -> None:
        self.sent.append(indices)

    def shutdown(self) -> None:
        self.shutting_down = True


def test_the_scheduler_hands_the_dearest_files_out_first_each_whole_to_one_worker(monkeypatch: pytest.MonkeyPatch,
                                                                                 tmp_path: Path) -> None:
    pytest.importorskip("xdist")
    table = tmp_path / "costs.json"
    table.write_text(json.dumps({"seconds": {"tests/test_slow.py": 200.0, "tests/test_mid.py": 40.0}}), "utf-8")
    monkeypatch.setattr(xdist_order, "COSTS", table)
    collection = [f"tests/test_many.py::t{i}" for i in range(6)] + ["tests/test_mid.py::m1", "tests/test_mid.py::m2"] \
        + [f"tests/test_few.py::f{i}" for i in range(3)] + ["tests/test_slow.py::s1"]
    sched = xdist_order.make_scheduler(_Config(), None)
    nodes = [_Node("gw0"), _Node("gw1")]
    for node in nodes:
        sched.add_node(node)
        sched.add_node_collection(node, collection)
    sched.schedule()
    first = [collection[node.sent[0][0]].split("::")[0] for node in nodes]
    assert first == ["tests/test_slow.py", "tests/test_mid.py"]  # xdist alone: test_many, then test_few
    handed = [[collection[i] for i in batch] for node in nodes for batch in node.sent]
    files = [batch[0].split("::")[0] for batch in handed]
    assert len(files) == len(set(files))  # a file goes whole to one worker
    assert all(len({t.split("::")[0] for t in batch}) == 1 for batch in handed)
    assert sorted(t for batch in handed for t in batch) == sorted(collection)  # every test, once
