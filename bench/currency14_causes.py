"""Superseded-returned-as-current failures by cause and by the decider that kept the replaced memory (round 14).

    python bench/currency14_causes.py ROOT OUT.json
    # ROOT/rN.funnel.json from bench/currency_funnel.py, ROOT/rN/rows.jsonl from bench/currency_eval.py --rows

Round 13's split (`currency13_causes.py`: (a) write, (b) read, (c) both), with each active stale memory of a failing
query traced to the funnel stage of its `replaces` pair, and within a stage to the reason: for `judged_keep` the
judge's reason (its first words: "different numbers ... about a different subject", a merge blocker, "shares the
subject, adds or changes", under the band, ...), for `never_candidate` whether the pair crosses scripts.
"""
import glob
import json
import re
import sys
from collections import Counter

from hindsight.retrieval.crosslingual import bias_group

root = sys.argv[1]
causes: Counter[str] = Counter()
deciders: Counter[str] = Counter()
rounds = {}
examples: dict[str, list[str]] = {}


def reason(stage: str, trace: dict) -> str:
    if stage == "judged_keep":
        why = str(trace["verdict"][2])
        if why.startswith("different numbers"):
            return "different numbers about a different subject"
        if why.startswith("kept and linked, not a restatement"):
            return "merge blocker: " + re.sub(r"\s*\(.*", "", why.split(": ", 1)[-1])[:24]
        if why.startswith("similarity"):
            return "under the band"
        return re.sub(r"\s*\(.*", "", why)[:40]
    if stage == "never_candidate":
        return "across scripts" if bias_group(trace["old"]) != bias_group(trace["new"]) else "one script"
    return ""


for path in sorted(glob.glob(f"{root}/*/rows.jsonl")):
    rnd = path.split("/")[-2]
    funnel = json.load(open(f"{root}/{rnd}.funnel.json"))["trace"]
    c: Counter[str] = Counter()
    for line in open(path):
        r = json.loads(line)
        if not r["bad"]:
            continue
        rel = set(r["relevant"])
        stale = set(r["stale"]) - rel
        ranks = {t[0]: k for k, t in enumerate(r["top"])}
        best = min([ranks[x] for x in rel if x in ranks], default=99)
        found = set()
        for k, t in enumerate(r["top"]):
            if t[0] not in stale:
                continue
            active, above, flagged = t[1] == "active", k < best, not t[2]
            if active and not above:
                found.add("a")
            elif above and (not active or flagged):
                found.add("b")
            elif active and above:
                found.add("c")
            if active:
                pairs = [v for key, v in funnel.items() if key.split("->")[0] == t[0]]
                for v in pairs or [None]:
                    stage = v["stage"] if v else "no replaces pair"
                    label = f"{stage}: {reason(stage, v)}" if v and reason(stage, v) else stage
                    deciders[label] += 1
                    if v:
                        examples.setdefault(label, []).append(f"{rnd} {v['old'][:60]} => {v['new'][:60]}")
        cause = "c" if "c" in found or {"a", "b"} <= found else ("a" if "a" in found else "b")
        c[cause] += 1
        causes[cause] += 1
    rounds[rnd] = dict(c)
    print(rnd, dict(c))
print("total", dict(causes))
for k, v in deciders.most_common():
    print(f"{v:4d}  {k}")
json.dump({"rounds": rounds, "total": causes, "deciders": deciders, "examples": examples}, open(sys.argv[2], "w"),
          indent=1, ensure_ascii=False)
