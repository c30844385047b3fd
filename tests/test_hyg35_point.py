"""hyg35's operating point for the keep decision's change side (bench/hyg35.py: measured, not shipped): the
declared cost (a change kept 1, a wrong deprecation 50) picks t_change, and each held-out set's point is chosen on
the other sets' rows only. Plain numbers, no model."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import hyg35  # noqa: E402

KEEP, MERGE, CHANGE = 0, 1, 2


def test_least_cost_stops_above_a_wrong_deprecation_worth_fifty_changes() -> None:
    # 10 changes at p(change) 0.97, one distinct pair at 0.98, 3 changes at 0.995: reading the 10 costs one
    # wrong deprecation (50) for 10 kept changes (10) - the point stays above the distinct pair
    rows = [(CHANGE, [0, 0.0, 0.97])] * 10 + [(KEEP, [0, 0.0, 0.98])] + [(CHANGE, [0, 0.0, 0.995])] * 3
    t, cost = hyg35.least_cost(rows)
    assert 0.98 < t <= 0.995
    assert cost == 10.0


def test_least_cost_reads_a_wrong_deprecation_when_it_buys_more_than_fifty_changes() -> None:
    rows = [(CHANGE, [0, 0.0, 0.97])] * 60 + [(KEEP, [0, 0.0, 0.98])]
    t, cost = hyg35.least_cost(rows)
    assert t <= 0.97 and cost == 50.0


def test_a_merged_restatement_read_as_a_change_costs_a_wrong_deprecation() -> None:
    # the change side is read before the merge side: a merged restatement over t_change is deprecated
    rows = [(MERGE, [1, 0.99, 0.99])] + [(CHANGE, [0, 0.0, 0.99])] * 10
    t, _ = hyg35.least_cost(rows)
    assert t > 0.99


def test_choose_picks_each_sets_point_on_the_other_sets(tmp_path: Path) -> None:
    # set A holds the only high-p distinct pair: A's own point is chosen without it (lower), B's with it (higher)
    meta = [{"key": "A:0", "label": "distinct"}, *({"key": f"A:{i}", "label": "change"} for i in range(1, 4)),
            *({"key": f"B:{i}", "label": "change"} for i in range(5))]
    loro = {"A": {"t_merge": 0.94, "rows": {"A:0": [0, 0.0, 0.99], **{f"A:{i}": [0, 0.0, 0.995] for i in range(1, 4)}}},
            "B": {"t_merge": 0.94, "rows": {f"B:{i}": [0, 0.0, 0.97] for i in range(5)}}}
    feat, lo, out = tmp_path / "f.npz", tmp_path / "loro.json", tmp_path / "out.json"
    np.savez_compressed(feat, X=np.zeros((len(meta), 1)), meta=np.asarray([json.dumps(m) for m in meta]))
    lo.write_text(json.dumps(loro), encoding="utf-8")
    hyg35.choose(str(feat), str(lo), str(out))
    found = json.loads(out.read_text(encoding="utf-8"))
    assert found["A"]["t_change"] <= 0.97  # chosen on B alone: every row a change
    assert found["A"]["rows"]["A:0"][0] == CHANGE  # so A's distinct pair is deprecated held out
    assert found["B"]["t_change"] > 0.99  # chosen on A: above its distinct pair
    assert all(v[0] == KEEP for v in found["B"]["rows"].values())
    point = json.loads(out.with_suffix(".point.json").read_text(encoding="utf-8"))
    assert set(point["folds"]) == {"A", "B"}
