"""bench/xfuse47_loro.py (round 47, xfuse47): a grid point reads an English question from the run with its
reverse weight and a Chinese one from the run with its weight; a fold never reads its own round; ties keep main."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import xfuse47_loro as lo  # noqa: E402


def _row(query: str, hit: bool, tag: str) -> dict:
    return {"round": "r1", "cat": "en_to_zh", "query": query, "hit": hit, "false_flags": [], "tag": tag}


def test_point_reads_each_question_from_its_scripts_run() -> None:
    runs = {v: [_row("Who signed the order?", False, v), _row("谁签的订单？", False, v)] for v in lo.RUNS}
    rows = lo.point_rows(runs, (0.8, 0.2))
    assert [r["tag"] for r in rows] == ["c", "a"]


def test_fold_leaves_its_round_out_and_ties_keep_main() -> None:
    flat = {p: {"hits": 10} for p in lo.grid()}
    per_round = {"r1": dict(flat), "r2": dict(flat)}
    assert lo.choose(per_round, "r1") == lo.MAIN
    per_round["r1"] = {**flat, (0.8, 1.2): {"hits": 99}}
    assert lo.choose(per_round, "r1") == lo.MAIN
    assert lo.choose(per_round, "r2") == (0.8, 1.2)
