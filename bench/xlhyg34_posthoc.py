"""xlhyg34: post hoc reading of the cross-script lane's replay (`xlhyg34_replay.py` output): every candidate the lane
added, by the judge's verdict and by whether the write replaces that memory (the set's `replaces`), and what moved.

    PYTHONPATH=src:bench python bench/xlhyg34_posthoc.py OUT.json REPLAY.json...
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

from blind_store import rows
from currency19_read import set_dir


def main() -> None:
    out, ins = sys.argv[1], sys.argv[2:]
    verdicts: Counter = Counter()
    moved: Counter = Counter()
    pooled = {"main": Counter(), "X": Counter()}
    per_round = {}
    examples = []
    p_change: dict[str, list[float]] = {}
    for f in ins:
        res = json.loads(Path(f).read_text())
        for rnd, c in res["per_round"].items():
            reps = {m["id"]: set([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])
                    for m in rows(set_dir(rnd) / "retrieval/memories.jsonl")}
            text = {m["id"]: m["content"] for m in rows(set_dir(rnd) / "retrieval/memories.jsonl")}
            per_round[rnd] = {"main": c["main"], "X": c["X"]}
            for k in pooled:
                pooled[k].update(c[k])
            for a in c["added"]:
                kind = "its own replaced" if a["old"] in reps[a["write"]] else (
                    "replaced by another" if a["replaces"] else "kept")
                verdicts[f"{a['label']} / {kind}"] += 1
                m_ = re.search(r"p\(change\)=([0-9.]+)", a.get("reason", ""))
                if m_:
                    p_change.setdefault(kind, []).append(float(m_.group(1)))
            for m in c["moved"]:
                for o, right in zip(m["X"], m["X_right"], strict=True):
                    kind = "its own replaced" if o in reps[m["write"]] else (
                        "replaced by another" if right else "kept")
                    moved[f"main retired {'nothing' if not m['main'] else 'another'} -> X retires {kind}"] += 1
                    examples.append({"round": rnd, "write": m["write"], "old": o, "kind": kind, "main": m["main"],
                                     "new_text": text[m["write"]][:160], "old_text": text[o][:160]})
    bins = (0.0, 0.5, 0.9, 0.99, 1.01)
    hist = {kind: {f"{lo}-{hi}": sum(lo <= p < hi for p in ps) for lo, hi in zip(bins, bins[1:], strict=False)}
            for kind, ps in sorted(p_change.items())}
    res = {"pooled": {k: dict(v) for k, v in pooled.items()}, "added_by_verdict": dict(sorted(verdicts.items())),
           "p_change_of_added": hist,
           "moved": dict(sorted(moved.items())), "per_round": per_round, "moved_pairs": examples}
    Path(out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps({k: res[k] for k in ("pooled", "added_by_verdict", "p_change_of_added", "moved")}, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
