"""xlhyg34 (issue 10; measured, NOT shipped): the wide search's cross-script lane, kept here for its replay and its
cost check (`xlhyg34_replay.py`, `xlhyg34_cost.py`); `src/` is main's.

multilingual-e5-small places an English note and its Chinese update close in meaning but scores every same-script
memory higher (a true EN / ZH pair at cosine 0.82 - 0.84 where the new text's own-script neighbours sit at 0.88 - 0.92):
such a candidate falls outside `supersede.WIDE_DENSE` or the shortlist's three, and the keyword channel (BM25) matches
within a script only. The lane: when the wide search runs (a write that signals a change), the dense pool is asked
`crosslingual.POOL_FACTOR` times deeper and the best `WIDE_XL` memories of the other script group
(`crosslingual.bias_group`), ranked by their cosine minus their script's level (`crosslingual.by_script`, the
retrieval's per-query calibration; no per-model constant), are judged too, as wide candidates (only a change verdict
counts, `supersede.retarget`'s far rules apply; the judge is unchanged).
"""

from __future__ import annotations

import numpy as np

from hindsight.retrieval.crosslingual import POOL_FACTOR, bias_group, by_script
from hindsight.storage.base import MemoryStore, Scope
from hindsight.text.tokenize import query_terms
from hindsight.write import supersede

#: How many other-script memories the lane adds to the wide search's judged candidates.
WIDE_XL = 2
#: The dense pool the lane reads, x `supersede.WIDE_DENSE`.
DEPTH = POOL_FACTOR


def lane(text: str, pool: list[tuple[str, float]], contents: dict[str, str], taken: set[str],
         floor: float, k: int = WIDE_XL) -> list[tuple[str, float]]:
    """(id, cosine) of at most `k` memories of `pool` (id, cosine; best first) written in another script group than
    `text`, at or above `floor` and not in `taken`, best by cosine minus their script's level first. `contents`: the
    texts of the pool's memories (one without a text is left out)."""
    if k <= 0:
        return []
    group = bias_group(text)
    groups = {mid: bias_group(contents[mid]) for mid, _ in pool if mid in contents}
    if all(g == group for g in groups.values()):
        return []
    raw = dict(pool)
    ranked = by_script([(mid, sim) for mid, sim in pool if mid in groups], groups.get, favoured=group)
    return [(mid, raw[mid]) for mid, _ in ranked
            if groups[mid] != group and mid not in taken and raw[mid] >= floor][:k]


def wide_candidates(store: MemoryStore, scope: Scope, embedding: np.ndarray, text: str, seen: set[str],
                    floor: float) -> list[tuple[str, float]]:
    """`supersede.wide_candidates` with the lane: its shortlist, then the lane's picks beyond it (as the branch's
    src/ had it at 338f570)."""
    pool = [(mid, float(sim)) for mid, sim in store.dense_search(scope, embedding, supersede.WIDE_DENSE * DEPTH)]
    dense = {mid: sim for mid, sim in pool[:supersede.WIDE_DENSE] if mid not in seen}
    terms = query_terms(text)
    frequent = getattr(store, "frequent_terms", None)
    if terms and callable(frequent):
        common = frequent(terms, supersede.WIDE_TERM_CAP)
        terms = [t for t in terms if t not in common]
    keyword = [mid for mid, _ in store.keyword_search(scope, terms, supersede.WIDE_KEYWORD) if mid not in seen
               and mid not in dense] if terms else []
    if keyword:
        vectors = store.get_embeddings(keyword)
        query = np.asarray(embedding, dtype=np.float32)
        query = query / max(1e-9, float(np.linalg.norm(query)))
        for mid, vector in vectors.items():
            v = np.asarray(vector, dtype=np.float32)
            dense[mid] = float(v @ query) / max(1e-9, float(np.linalg.norm(v)))
    close = {mid: sim for mid, sim in dense.items() if sim >= floor}
    deep = [(mid, sim) for mid, sim in pool if sim >= floor]
    if not close and not any(mid not in seen for mid, _ in deep):
        return []
    contents = {mid: r.content for mid, r in store.get_many([*close, *(mid for mid, _ in deep)]).items()}
    short = supersede.shortlist(text, [(mid, sim) for mid, sim in close.items() if mid in contents], contents)
    return short + lane(text, deep, contents, seen | {mid for mid, _ in short}, floor)
