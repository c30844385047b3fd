"""Retrieval round 31 (issue 10): main's captured searches against the branch's (`retr31_capture.py` /
`retr31_engine.py` output), scored as the harness does, per round and pooled.

    python bench/retr31_compare.py MAIN_CAPTURE BRANCH_CAPTURE r29 r28 ... > OUT.json
"""
import json
import sys
from pathlib import Path

from retr31_replay import load, pooled, score

if __name__ == "__main__":
    a_dir, b_dir, rounds = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
    out: dict = {"rounds": {}}
    for r in rounds:
        a, b = load(a_dir, r), load(b_dir, r)
        out["rounds"][r] = {"main": score(a, [q["hits"] for q in a["queries"]]),
                            "branch": score(b, [q["hits"] for q in b["queries"]])}
    out["pooled"] = {k: pooled([v[k] for v in out["rounds"].values()]) for k in ("main", "branch")}
    print(json.dumps(out, indent=1))
