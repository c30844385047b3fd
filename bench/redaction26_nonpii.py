"""Redact every non-PII text of released sets (r24 excluded) and dump outputs. usage: nonpii.py OUT.json [HELD ...]

HELD: the held-out rounds whose texts are left out (default r24; redaction round 27 passes r25 r25b)."""
import glob
import json
import sys

from hindsight.safety.redact import redact

held = [f"/{h}/" for h in sys.argv[2:]] or ["/r24"]
texts = []
for f in sorted(glob.glob("bench/data/blind/*/guard/set.jsonl") + glob.glob("bench/data/train/*/guard/set.jsonl")
                + glob.glob("bench/data/blind/*/hygiene/set.jsonl") + glob.glob("bench/data/train/*/hygiene/set.jsonl")
                + glob.glob("bench/data/blind/*/retrieval/memories.jsonl")):
    if any(h in f for h in held):
        continue
    for line in open(f, encoding="utf-8"):
        if not line.strip():
            continue
        r = json.loads(line)
        for k in ("text", "content", "old", "new", "a", "b", "existing"):
            v = r.get(k)
            if isinstance(v, str):
                texts.append(v)
        for o in r.get("others", []) or []:
            if isinstance(o, str):
                texts.append(o)
texts = sorted(set(texts))
out = {t: redact(t).text for t in texts}
json.dump(out, open(sys.argv[1], "w"), ensure_ascii=False)
print(len(texts))
