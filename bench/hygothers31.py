"""Hygiene round 31c (issue 10, branch hygothers31): the engine replay's comparison (also `bench/cascade31.py`'s).

    python bench/hygothers31.py compare MAIN.json BRANCH.json OUT.json       # hygiene_funnel --pairs outputs, main vs branch

The reading this round measured, `write/target_apart.py` (shipped OFF), was removed in round 32; its `rows` mode (the
rows where the reading fires on a pair) and `hygiene_funnel.py --target-apart` need a commit before round 32 (e.g.
70e5f75).
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path


def _cells(res: dict) -> dict:
    decided = [d for r in res.values() if isinstance(r, dict) and "decided" in r for d in r["decided"]]
    return {d["pair"]: d for d in decided}


def compare(main: Path, branch: Path, out: Path) -> None:
    m, b = _cells(json.loads(main.read_text())), _cells(json.loads(branch.read_text()))
    report: dict = {}
    for part, keep in (("held_out_r26_r29", lambda p: p.split(":")[0] in ("r26", "r27", "r28", "r29")),
                       ("other_sets", lambda p: p.split(":")[0] not in ("r26", "r27", "r28", "r29")),
                       ("all", lambda p: True)):
        keys = [k for k in m if keep(k) and k in b]
        side = {}
        for name, src in (("main", m), ("branch", b)):
            conf = Counter(f"{src[k]['label']}->{src[k]['actual']}" for k in keys)
            oth = [x for k in keys for x in src[k]["others_ok"]]
            side[name] = {"confusion": dict(sorted(conf.items())), "others_untouched": f"{sum(oth)} of {len(oth)}"}
        side["moved"] = [{"pair": k, "label": m[k]["label"], "main": m[k]["actual"], "branch": b[k]["actual"],
                          "others_main": m[k]["others_ok"], "others_branch": b[k]["others_ok"]}
                         for k in keys if (m[k]["actual"], m[k]["others_ok"]) != (b[k]["actual"], b[k]["others_ok"])]
        report[part] = {"rows": len(keys), **side}
    out.write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print(json.dumps({k: {kk: vv for kk, vv in v.items() if kk != "moved"} for k, v in report.items()}, indent=1))


if __name__ == "__main__":
    if sys.argv[1] != "compare":
        sys.exit("usage: hygothers31.py compare MAIN.json BRANCH.json OUT.json (rows: a commit before round 32)")
    compare(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))
