"""The wide search's cross-script lane: the older version of a changed fact written in the other language.

multilingual-e5-small places an English note and its Chinese update close in meaning but scores every same-script
memory higher (a true EN / ZH pair at cosine 0.82 - 0.84 where the new text's own-script neighbours sit at 0.88 - 0.92):
such a candidate falls outside `supersede.WIDE_DENSE` or the shortlist's three, and the keyword channel (BM25) matches
within a script only. So the wide search (a write that signals a change) also asks the dense pool
`crosslingual.POOL_FACTOR` times deeper and judges the best `WIDE_XL` memories of the other script group
(`crosslingual.bias_group`), ranked by their cosine minus their script's level (`crosslingual.by_script`, the
retrieval's per-query calibration; no per-model constant). They are wide candidates: only a change verdict counts
and `supersede.retarget`'s far rules apply; the judge, its band and its cross-language rules decide as for any pair.
Issue 10, hygiene round 34 (branch xlhyg34).
"""

from __future__ import annotations

from hindsight.retrieval.crosslingual import POOL_FACTOR, bias_group, by_script

#: Whether the wide search reads the cross-script lane.
ON = True
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
