"""The head window the read-time pair readings share (issue 10; folded in round 46 out of `pair_change`,
`asked_slot` and `asked_current`, which each built it): the hits of a result's best `head` that a reading compares,
their pairs oldest newer first, and the move of a flagged hit below the head.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

import numpy as np

from hindsight.model import Status
from hindsight.read_model import SearchHit
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.slot_cues import ADDITIVE

#: (window, vectors, script group per id) of `head_window`
Window = tuple[list[SearchHit], Mapping[str, np.ndarray], dict[str, str]]


def head_window(hits: list[SearchHit], head: int, embeddings_of: Callable[[list[str]], Mapping[str, np.ndarray]],
                keep: Callable[[SearchHit], bool] | None = None, sessions: bool = False) -> Window | None:
    """The hits of the best `head` a read-time reading compares: active, current, no conversation turn (unless
    `sessions`), `keep` true; their vectors (read only when two are left: most questions end there) and script
    groups. None when fewer than two have a vector. Shared by `asked_slot` and `asked_current`."""
    window = [h for h in hits[:head] if h.memory.status == Status.active and h.current
              and (sessions or h.memory.session_id is None) and (keep is None or keep(h))]
    if len(window) < 2:
        return None
    vectors = embeddings_of([h.memory.id for h in window])
    window = [h for h in window if h.memory.id in vectors]
    if len(window) < 2:
        return None
    return window, vectors, {h.memory.id: bias_group(h.memory.content) for h in window}


def ordered_pairs(window: list[SearchHit], vectors: Mapping[str, np.ndarray], group: Mapping[str, str]
                  ) -> Iterator[tuple[SearchHit, SearchHit, str, float]]:
    """(older, newer, script key, cosine) of the window's hits, newer ones oldest first (event time), a newer one
    that says it adds (`ADDITIVE`) skipped, an older one still current when its pair comes up (a chain of three
    ends with the newest current); key: the script group, "cross" for two. Shared by `asked_slot` and
    `asked_current`."""
    for new in sorted(window, key=lambda h: (h.memory.reference_time, h.memory.created_at)):
        if ADDITIVE.search(new.memory.content):
            continue
        for old in window:
            if old is new or not old.current or old.memory.reference_time >= new.memory.reference_time:
                continue
            a, b = old.memory.id, new.memory.id
            yield old, new, group[a] if group[a] == group[b] else "cross", float(np.dot(vectors[a], vectors[b]))


def demote_below(out: list[SearchHit], hit: SearchHit, head: int) -> None:
    """Move `hit` right below the best `head` of `out`."""
    out.remove(hit)
    out.insert(min(head, len(out)), hit)

