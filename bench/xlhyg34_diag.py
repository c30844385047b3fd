import json
import sys
from pathlib import Path

import numpy as np

sys.path[:0] = ["src", "bench"]
from blind_store import rows
from currency19_read import set_dir

from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.text.script import script_of
from hindsight.write.supersede import change_signalled, shared_terms

roots = ["/tmp/retr31/st", "/tmp/supwrite32/st", "/tmp/veto33/st", "/tmp/retire34/st"]
logs = {}
for r in roots:
    for f in sorted(Path(r).glob("*/write_log.json")):
        logs[f.parent.name] = f
rounds = sys.argv[1:] or [r for r in logs]
for rnd in rounds:
    f = logs[rnd]
    mems = rows(set_dir(rnd) / "retrieval/memories.jsonl")
    order = [m["id"] for m in mems]
    pos = {k: i for i, k in enumerate(order)}
    text = {m["id"]: m["content"] for m in mems}
    log = json.loads(f.read_text())
    ids = json.loads((f.parent / "ids.json").read_text())
    st = SQLiteStore(str(f.parent / "m.db"))
    vecs = st.get_embeddings(list(ids.values()))
    V = {k: vecs[v] / np.linalg.norm(vecs[v]) for k, v in ids.items() if v in vecs}
    retired_by = {}
    for w, e in log.items():
        for o in e["supersedes"]:
            retired_by.setdefault(o, w)
    for m in mems:
        r = m.get("replaces")
        for o in ([r] if isinstance(r, str) else r or []):
            w = m["id"]
            e = log.get(w)
            if e is None:
                print(rnd, w, o, "NO LOG (the new memory quarantined)")
                continue
            if o in e["supersedes"]:
                continue
            judged = {j["old"]: j for j in e["judged"]}
            if o in judged:
                continue
            # dense rank among earlier memories with vectors, not retired before w
            earlier = [k for k in order[:pos[w]] if k in V and not (k in retired_by and pos[retired_by[k]] < pos[w])]
            sims = sorted(((float(V[k] @ V[w]), k) for k in earlier), reverse=True) if w in V else []
            rank = next((i + 1 for i, (s, k) in enumerate(sims) if k == o), None)
            cos = next((s for s, k in sims if k == o), None)
            xl = script_of(text[o]) != script_of(text[w])
            print(rnd, w, o, "XL" if xl else "--", f"cos={cos if cos is None else round(cos,3)} rank={rank}/{len(sims)}",
                  "cue" if change_signalled(text[w]) else "NOCUE", "shared", shared_terms(text[o], text[w]),
                  "retired_before" if o in retired_by and pos[retired_by[o]] < pos[w] else "",
                  "| top5", [round(s,3) for s, _ in sims[:5]])
            print("   OLD:", text[o][:150])
            print("   NEW:", text[w][:150])
