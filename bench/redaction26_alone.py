"""Redaction round 26: redaction alone (rules + shipped tagger) on every released PII set but r24 (the held-out writer).

    PYTHONPATH=<src> .venv/bin/python bench/redaction26_alone.py OUT.json

Dumps each row's output and whether it passes (secrets gone, keep words kept); prints per set and pooled.
"""
import glob
import json
import sys

from hindsight.safety.redact import redact

out = {}
files = sorted(glob.glob("bench/data/blind/*/pii/set.jsonl") + glob.glob("bench/data/train/*/pii/set.jsonl"))
for f in files:
    name = f.split("/")[3]
    if name.startswith("r24"):
        continue
    rows = [json.loads(line) for line in open(f, encoding="utf-8") if line.strip()]
    res = []
    for r in rows:
        red = redact(r["text"]).text
        ok = all(s not in red for s in r["secrets"]) and all(k in red for k in r["keep"])
        res.append({"ok": ok, "kind": r["kind"], "cat": r["category"], "lang": r.get("lang"), "text": r["text"], "out": red,
                    "secrets": r["secrets"], "keep": r["keep"]})
    out[name] = res
json.dump(out, open(sys.argv[1], "w"), ensure_ascii=False)
tp = tl = np_ = nl = 0
for name, res in out.items():
    p = [x["ok"] for x in res if x["kind"] == "pii"]
    look = [x["ok"] for x in res if x["kind"] != "pii"]
    tp += sum(p)
    np_ += len(p)
    tl += sum(look)
    nl += len(look)
    print(name, f"{sum(p)}/{len(p)}", f"{sum(look)}/{len(look)}")
print("pooled", f"{tp}/{np_} {tp/np_:.4f}", f"{tl}/{nl} {tl/nl:.4f}")
