"""Query-side expansion from the first pass's best hits: the words they use that the question does not (issue 14,
round 38; `expansion_weight`, 0 = off).

Multi-hop evidence sits in several sessions; the best hits of the first pass name the particulars the question
only alludes to ("What sports does John like?" -> "basketball", "shooting guard", "season"). The words of the
best `hits` hits' own text (without the speaker prefix) that the question lacks, rarest among the first pass's
candidates first, are searched by BM25 over the turns' own text (neighbour weight 0), and that list is fused
into the ordered hits by reciprocal rank: 1/(k + rank) + weight/(k + list rank). No encoder call: one keyword
search and, for turns the hits lack, one `get_many`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence

from hindsight.model import MemoryRecord
from hindsight.read_model import SearchHit
from hindsight.retrieval.speaker_pool import speaker_of
from hindsight.retrieval.topic_split import by_place
from hindsight.retrieval.turn_features import own_text
from hindsight.storage.base import MemoryStore, Scope
from hindsight.text.tokenize import query_terms

#: the rank offset of the fusion (the first pass's RRF k) and how deep each list is read
RRF_K = 10
DEPTH = 50
MIN_LETTERS = 3


def bridge_words(hit_texts: Sequence[str], question: str, names: Iterable[str], pool_texts: Sequence[str],
                 words: int) -> list[str]:
    """The `words` terms of the hits' own text with the highest summed rarity (BM25 idf over `pool_texts`, once per
    hit that uses the term), leaving out the question's terms, the names' terms, numbers and words of under
    MIN_LETTERS letters; ties keep first use order."""
    asked = set(query_terms(question)) | {t for name in names for t in query_terms(name)}
    counts: Counter[str] = Counter()
    for text in pool_texts:
        counts.update(set(query_terms(own_text(text))))
    n = len(pool_texts)
    score: dict[str, float] = {}
    for text in hit_texts:
        for term in dict.fromkeys(query_terms(own_text(text))):  # first use order: ties stay deterministic
            if term in asked or len(term) < MIN_LETTERS or term.isdigit():
                continue
            df = counts.get(term, 0)
            score[term] = score.get(term, 0.0) + math.log(1 + (n - df + 0.5) / (df + 0.5))
    return sorted(score, key=lambda term: -score[term])[:words]


def fuse_found(ordered: Sequence[str], found: Sequence[str], weight: float) -> list[str]:
    """`ordered` (best first) and `found` fused by reciprocal rank, each read DEPTH deep; ids below DEPTH in
    `ordered` follow in their order."""
    score: dict[str, float] = {}
    for rank, mid in enumerate(ordered[:DEPTH], start=1):
        score[mid] = 1.0 / (RRF_K + rank)
    for rank, mid in enumerate(found[:DEPTH], start=1):
        score[mid] = score.get(mid, 0.0) + weight / (RRF_K + rank)
    head = sorted(score, key=lambda mid: -score[mid])
    return head + [mid for mid in ordered[DEPTH:] if mid not in score]


def keep_speakers(found: Sequence[str], records: Mapping[str, MemoryRecord], speakers: set[str]) -> list[str]:
    """The ids of `found` whose record is a turn of one of `speakers` (lower-cased names), in order."""
    return [mid for mid in found if mid in records and speaker_of(records[mid].content) in speakers]


def fuse_words(store: MemoryStore, scope: Scope, words: Sequence[str], speakers: set[str] | None, weight: float,
               hits: list[SearchHit], make_hit: Callable[[MemoryRecord], SearchHit]) -> list[SearchHit]:
    """The BM25 list of `words` over the turns' own text (neighbour weight 0; kept to the turns of `speakers`
    when given) fused into `hits` by reciprocal rank (`fuse_found`), a turn the hits lack made by `make_hit`;
    scores re-assigned by place. The hits unchanged when there is no word."""
    if not words:
        return hits
    found = [mid for mid, _ in store.keyword_search(scope, list(words), DEPTH, 0.0)]
    by_id = {hit.memory.id: hit for hit in hits}
    read = store.get_many([mid for mid in found if mid not in by_id])
    if speakers:  # only the turns of the speakers the question names
        found = keep_speakers(found, {**read, **{mid: hit.memory for mid, hit in by_id.items()}}, speakers)
    order = fuse_found(list(by_id), found, weight)
    return by_place([by_id.get(mid) or make_hit(read[mid]) for mid in order if mid in by_id or mid in read])
