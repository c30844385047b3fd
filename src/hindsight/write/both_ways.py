"""The pair read both ways round: a restatement states one fact twice, so the pair model reads a merge from each side.

The pair model (`write.pair_model`) reads a pair in one direction: what the new text adds to, keeps from or changes in
the old one. A new detail, a new value or a neighbouring fact said on one side reads differently from the other side;
one fact said twice does not. Where the judge would keep and link a pair, `merges` asks the model about the pair read
the other way round (new as the stored text, old as the new one) and merges it where both readings reach
`BOTH_WAYS_MERGE_P` (None: off). The threshold is chosen leave-one-round-out over the released hygiene sets: each
fold's lowest threshold above every distinct, supplement or change pair the judge keeps on the other sets
(`bench/hygiene_round31.py lever`, docs/benchmarks.md "Hygiene, round 31"). Measured there over the 44 released sets
and not shipped: held out every fold chose 0.99 (where the judge keeps nothing the model reads that high), and one
fold merged a distinct pair; `bench/hygiene_funnel.py --both-ways T` replays a threshold through the engine.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from hindsight.write.conversions import written_alike
from hindsight.write.pair_features import pair_features
from hindsight.write.pair_model import MERGE
from hindsight.write.pair_readings import reading_features
from hindsight.write.token_align import shared_states
from hindsight.write.value_canon import bounded_apart

if TYPE_CHECKING:  # pragma: no cover
    from hindsight.write.pair_model import PairModel

#: How the rules' reason names a merge blocker (`judge.classify_rules`: "kept and linked, not a restatement: ...").
BLOCKED = "not a restatement:"
#: p(merge) both readings of a kept pair must reach for it to merge; None: off.
BOTH_WAYS_MERGE_P: float | None = None


def back_merge_p(model: PairModel, old: str, new: str, similarity: float, query_similarity: float | None) -> float:
    """The model's p(merge) of the pair read the other way round: `new` as the stored text, `old` as the new one
    (the raw texts; written alike as the judge writes a pair, the cosines are symmetric)."""
    stored, incoming = written_alike(new, old)
    return float(model_probabilities(model, stored, incoming, similarity, query_similarity)[MERGE])


def model_probabilities(model: PairModel, stored: str, incoming: str, similarity: float,
                        query_similarity: float | None) -> np.ndarray:
    """The pair model's (keep, merge, change) of two texts already written alike: the pair features, then the
    readings and the token alignment blocks where the model was fitted on them (as `judge.classify` builds its row)."""
    features = pair_features(stored, incoming, similarity, query_similarity)
    if model.readings:
        features = np.concatenate([features, reading_features(stored, incoming)])
    if model.aligned:
        features = np.concatenate([features, shared_states().features(stored, incoming)])
    return np.asarray(model.probabilities(features)[0])


def merges(model: PairModel, old: str, new: str, similarity: float, query_similarity: float | None,
           p_merge: float, rules_reason: str, threshold: float | None = None) -> float | None:
    """The lower of the two readings' p(merge) where both reach the threshold (`BOTH_WAYS_MERGE_P` unless given),
    else None. `p_merge`: the model's reading of (old, new) the judge already made; the other reading is only
    computed where that one reaches the threshold. Never where the rules kept the pair on a merge blocker (a slot
    filled differently, amounts that differ, ...: `rules_reason`) or the texts bound one value in opposite ways
    (`value_canon.bounded_apart`: "under 6 hours" / "over 6 hours")."""
    t = BOTH_WAYS_MERGE_P if threshold is None else threshold
    if t is None or p_merge < t or BLOCKED in rules_reason or bounded_apart(*written_alike(old, new)):
        return None
    back = back_merge_p(model, old, new, similarity, query_similarity)
    return min(p_merge, back) if back >= t else None
