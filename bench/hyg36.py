"""Hygiene round 36 (issue 10): inside the rules' "shares the subject, adds or changes" keep, a new value of the same
slot (`write.slot_value_change`) read as a change.

    PYTHONPATH=src:bench python bench/hyg36.py arms SCANS LORO.json OUT_DIR     # arm A (per-fold t) and arm B, loro shape
    PYTHONPATH=src:bench python bench/hyg36.py fired FUNNEL.json...             # rows whose verdict the reading gave

The rule (`bench/results/hyg36_rule.md`, declared first). Arm A: a candidate of the keep decision (a pair the rules and
the judge keep) whose rules' reason is the shares-the-subject keep becomes a change where `same_slot_change` holds and
the keep decision's held-out p(change) (LORO.json: keepmerge33's leave-one-set-out run) reaches t(s); t(s) for a
held-out set s is the grid point of least summed cost over the other sets (hyg35's grid and costs: a change kept 1,
merged 4, a wrong deprecation 50). Arm B: the reading alone (no model, nothing fitted). Every other candidate keeps
keepmerge33's action. The outputs have the shape of `hygdecide32.loro`'s, so `hygdecide32.report` tabulates them.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from hyg35 import COST, GRID, OFF


def _scans(scan_dirs: str) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for folder in scan_dirs.split(","):
        for path in sorted(Path(folder).glob("*.json")):
            rows = json.loads(path.read_text(encoding="utf-8"))
            found = {k: v for k, v in found.items() if k.split(":")[0] != path.stem} | rows
    return found


CLASS = {"distinct": 0, "supplement": 0, "restatement": 1, "change": 2}


def gate(row: dict[str, Any]) -> bool:
    """The pair is a shares-the-subject keep of the rules and the reading finds a new value of the same slot."""
    from hindsight.write.conflict import SHARES_SUBJECT
    from hindsight.write.conversions import written_alike
    from hindsight.write.slot_value_change import same_slot_change

    if not row["rules"][1].startswith(SHARES_SUBJECT):
        return False
    old, new = written_alike(row.get("old") or row["existing"], row.get("new_r") or row["new"])
    return same_slot_change(old, new) is not None


def _action(merge_act: int, p_change: float, gated: bool, t: float) -> int:
    return 2 if gated and p_change >= t else int(merge_act)


def _cost(rows: list[tuple[int, int, float, bool]], t: float) -> float:
    return sum(COST[y][_action(a, pc, g, t)] for y, a, pc, g in rows)


def least_cost(rows: list[tuple[int, int, float, bool]]) -> float:
    best = (OFF, _cost(rows, OFF))
    for t in GRID:
        c = _cost(rows, t)
        if c < best[1] - 1e-9:
            best = (t, c)
    return best[0]


def arms(scan_dirs: str, loro_file: str, out_dir: str) -> None:
    scans = _scans(scan_dirs)
    loro = json.loads(Path(loro_file).read_text(encoding="utf-8"))
    by_set: dict[str, list[tuple[str, int, int, float, bool]]] = {}
    for s, fold in loro.items():
        by_set[s] = [(k, CLASS[scans[k]["label"]], int(r[0]), float(r[2]), gate(scans[k])) for k, r in fold["rows"].items()]
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    a: dict[str, Any] = {}
    b: dict[str, Any] = {}
    for s, rows in by_set.items():
        others = [(y, m, pc, g) for k2, rs in by_set.items() if k2 != s for (_k, y, m, pc, g) in rs]
        t = least_cost(others)
        a[s] = {"t_merge": loro[s]["t_merge"], "t_change": t,
                "rows": {k: [_action(m, pc, g, t), loro[s]["rows"][k][1], pc] for k, _y, m, pc, g in rows}}
        b[s] = {"t_merge": loro[s]["t_merge"], "t_change": 0.0,
                "rows": {k: [_action(m, pc, g, 0.0), loro[s]["rows"][k][1], pc] for k, _y, m, pc, g in rows}}
    pooled = [(y, m, pc, g) for rs in by_set.values() for (_k, y, m, pc, g) in rs]
    t_all = least_cost(pooled)
    (out / "arm_a.json").write_text(json.dumps(a, indent=0), encoding="utf-8")
    (out / "arm_b.json").write_text(json.dumps(b, indent=0), encoding="utf-8")
    (out / "points.json").write_text(json.dumps({"per_set": {s: a[s]["t_change"] for s in a}, "all_sets": t_all},
                                                indent=1), encoding="utf-8")
    print("points", sorted({a[s]["t_change"] for s in a}), "all sets", t_all)
    print("gated candidates", sum(g for rs in by_set.values() for *_x, g in rs))


def fired(*funnels: str) -> None:
    """The rows of funnel outputs whose verdict came from the reading (its reason names a new value of the same slot)."""
    for path in funnels:
        report = json.loads(Path(path).read_text(encoding="utf-8"))
        for rnd, entry in report.items():
            if rnd.startswith("pooled"):
                continue
            for row in entry["decided"]:
                if row["final"] and "same slot" in row["final"][1]:
                    print(row["pair"], row["label"], row["actual"], row["final"][1][:120])


if __name__ == "__main__":
    command, *rest = sys.argv[1:]
    {"arms": arms, "fired": fired}[command](*rest)
