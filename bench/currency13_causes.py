"""Split each superseded-returned-as-current failure (blind_eval's strict measure) by cause, per round:
(a) write: a stale memory in the top 5 is still active, ranked below the current one (which decider kept it: funnel stage);
(b) read: a stale memory ranked above the current one, deprecated (or active but flagged not current);
(c) both: a stale memory active, unflagged, and ranked above the current one.

    python bench/currency13_causes.py ROOT OUT.json
    # ROOT/rN.funnel.json from bench/currency_funnel.py, ROOT/rN/rows.jsonl from bench/currency_eval.py --rows
"""
import glob
import json
import sys
from collections import Counter

root = sys.argv[1]
tot: Counter[str] = Counter()
dec: Counter[str] = Counter()
out = {}
for d in sorted(glob.glob(f"{root}/*/rows.jsonl")):
    rnd = d.split("/")[-2]
    fun = json.load(open(f"{root}/{rnd}.funnel.json"))["trace"]
    c: Counter[str] = Counter()
    n = 0
    for line in open(d):
        r = json.loads(line)
        n += 1
        if not r["bad"]:
            continue
        top, rel = r["top"], set(r["relevant"])
        st = set(r["stale"]) - rel
        ranks = {t[0]: k for k, t in enumerate(top)}
        best = min([ranks[x] for x in rel if x in ranks], default=99)
        causes = set()
        for k, t in enumerate(top):
            if t[0] not in st:
                continue
            active, above, flagged = t[1] == "active", k < best, not t[2]
            if active and not above:
                causes.add("a")
            elif above and (not active or flagged):
                causes.add("b")
            elif active and above:
                causes.add("c")
            if active:
                # which decider kept it: the funnel stage of the stale -> (any) replacing memory pair
                stages = [v["stage"] + ":" + (str(v["verdict"][0]) + " " + str(v["verdict"][2])[:40] if v["verdict"] else "")
                          for key, v in fun.items() if key.split("->")[0] == t[0]]
                for s_ in stages or ["no replaces pair"]:
                    dec[s_.split(":")[0]] += 1
        cause = "c" if "c" in causes or {"a", "b"} <= causes else ("a" if "a" in causes else "b")
        c[cause] += 1
        tot[cause] += 1
    out[rnd] = {"stale_queries": n, **c}
    print(rnd, n, dict(c))
print("total", dict(tot))
print("write-side stage of the active stale memory:", dict(dec))
json.dump({"rounds": out, "total": tot, "write_stage": dec}, open(sys.argv[2], "w"), indent=1)
