import json
import sys

sys.path.insert(0, "/work/wt/recall6/bench")
from locomo import DATA

samples = json.loads(open(DATA).read())
text = {}
for c, s in enumerate(samples):
    conv = s["conversation"]
    i = 1
    while f"session_{i}" in conv:
        for t in conv[f"session_{i}"]:
            text[(c, t["dia_id"])] = f"{t['speaker']}: {t['text']}"[:150]
        i += 1
d = json.load(open(sys.argv[1]))
cat = sys.argv[2]
n = int(sys.argv[3])
k = 0
for q in d:
    if q["cat"] != cat:
        continue
    miss = [e for e in q["evidence"] if (q["final"].get(e) or 999) > 10]
    if not miss:
        continue
    k += 1
    if k > n:
        break
    print("Q:", q["q"], "| names", q["names"], "| res:", q["residual"])
    for e in q["evidence"]:
        print(f"   {e:7s} final={q['final'].get(e)} first={q['first'].get(e)} cos={q['cos_all'].get(e)} ch={ {c:v.get(e) for c,v in q['channels'].items()} } :: {text.get((q['conv'], e))}")
