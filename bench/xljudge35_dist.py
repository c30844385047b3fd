"""xljudge35 (issue 10): the cosine of replaced and kept (write, earlier memory) pairs by language mix, on the
released retrieval stores (stored passage vectors of the write logs' stores) - where the judge's band sits for
cross-script pairs.

    PYTHONPATH=src:bench python bench/xljudge35_dist.py OUT.json LOGROOT...

A pair is (a written memory, a memory written before it); mix: en / zh / cross by `text.script.script_of` of both
texts. Replaced: the set says the write replaces it. Only pairs at cosine >= 0.70 are kept (the judge's floor is 0.80).
"""
from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
from blind_store import rows
from change33_pairs import _logs
from currency19_read import set_dir

from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.text.script import script_of

EDGES = (0.70, 0.75, 0.78, 0.80, 0.82, 0.84, 0.86, 0.88, 0.90, 0.92, 1.01)


def mix(a: str, b: str) -> str:
    sa, sb = script_of(a), script_of(b)
    return sa if sa == sb else "cross"


def store_pairs(rnd: str, log_path: Path) -> list[dict]:
    mems = rows(set_dir(rnd) / "retrieval/memories.jsonl")
    log = json.loads(log_path.read_text())
    ids = json.loads((log_path.parent / "ids.json").read_text())
    store = SQLiteStore(str(log_path.parent / "m.db"))
    recs = store.get_many(list(ids.values()))
    vecs = store.get_embeddings(list(ids.values()))
    order = [m["id"] for m in mems if m["id"] in log and ids.get(m["id"]) in vecs and ids[m["id"]] in recs]
    rep = {m["id"]: set([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])
           for m in mems}
    V = np.stack([vecs[ids[k]] / max(1e-9, float(np.linalg.norm(vecs[ids[k]]))) for k in order])
    text = {k: recs[ids[k]].content for k in order}
    out = []
    for i, w in enumerate(order[1:], 1):
        sims = V[:i] @ V[i]
        for j in np.nonzero(sims >= EDGES[0])[0].tolist():
            o = order[j]
            out.append({"round": rnd, "write": w, "old": o, "sim": round(float(sims[j]), 4),
                        "mix": mix(text[o], text[w]), "replaced": o in rep.get(w, set()),
                        "retired": o in log[w]["supersedes"]})
        for o in rep.get(w, set()):  # replaced pairs under 0.70 too (how far down they go)
            if o in text and order.index(o) < i and float(V[order.index(o)] @ V[i]) < EDGES[0]:
                out.append({"round": rnd, "write": w, "old": o, "sim": round(float(V[order.index(o)] @ V[i]), 4),
                            "mix": mix(text[o], text[w]), "replaced": True, "retired": o in log[w]["supersedes"]})
    return out


def histogram(pairs: list[dict]) -> dict:
    table: dict = defaultdict(Counter)
    for p in pairs:
        b = next((f"{lo:.2f}-{hi:.2f}" for lo, hi in zip((0.0, *EDGES), EDGES) if p["sim"] < hi), "1.01")
        table[f"{p['mix']}:{'replaced' if p['replaced'] else 'kept'}"][b] += 1
    return {k: dict(sorted(v.items())) for k, v in sorted(table.items())}


def main() -> None:
    out, args = sys.argv[1], sys.argv[2:]
    logs, _ = _logs(args)
    pairs: list[dict] = []
    for rnd, f in sorted(logs.items(), key=lambda kv: int("".join(c for c in kv[0] if c.isdigit()))):
        pairs += store_pairs(rnd, f)
        print(rnd, len(pairs), file=sys.stderr, flush=True)
    quant = {}
    for key in sorted({f"{p['mix']}:{p['replaced']}" for p in pairs}):
        s = np.array([p["sim"] for p in pairs if f"{p['mix']}:{p['replaced']}" == key])
        quant[key] = {"n": int(s.size), **{f"q{q}": round(float(np.quantile(s, q / 100)), 4) for q in (5, 10, 25, 50, 75, 90)}}
    Path(out).write_text(json.dumps({"histogram": histogram(pairs), "quantiles": quant}, indent=1) + "\n")
    Path(out).with_suffix(".pairs.jsonl").write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in pairs))
    print(json.dumps(quant, indent=1))


if __name__ == "__main__":
    main()
