"""Ranking priors from the seed: time decay, importance, access count, credibility.

decay_score = importance * 0.5^(age / half_life) * min(1, 0.5 + 0.1 * access_count)

The final score multiplies relevance by a blend of 1 and that prior, weighted
by `prior_weight`: at 0 the order is pure relevance, at 1 a stale memory that
matches perfectly can lose to a fresh vague one. The benchmark picks the blend.
"""

from __future__ import annotations

from datetime import datetime

from hindsight.config import DecaySettings
from hindsight.model import MemoryRecord, Status

SECONDS_PER_DAY = 86_400.0
#: Search-hit flag of a sunk memory (decay score under the threshold).
SUNK = "sunk"


def time_decay(record: MemoryRecord, now: datetime, decay: DecaySettings) -> float:
    """0.5^(age/half_life); memories from the future (relative to `now`) do not decay."""
    age_days = max(0.0, (now - record.reference_time).total_seconds() / SECONDS_PER_DAY)
    return 0.5 ** (age_days / decay.for_type(record.type))


def access_factor(access_count: int) -> float:
    """Recalled memories resist forgetting: 0.5 when never used, 1.0 after 5 uses."""
    return min(1.0, 0.5 + 0.1 * access_count)


def decay_score(record: MemoryRecord, now: datetime, decay: DecaySettings) -> float:
    """The seed's forgetting score; below a threshold a memory 'sinks'."""
    return record.importance * time_decay(record, now, decay) * access_factor(record.access_count)


def is_sunk(record: MemoryRecord, now: datetime, decay: DecaySettings, sink_below: float) -> bool:
    """An active memory whose decay score fell under `sink_below` (the seed's "沉底"): old, unused, unimportant.

    Sinking is a ranking state, not a status: nothing is written, the memory stays
    searchable and rises again as soon as it is recalled (access count) or re-stated.
    """
    return record.status == Status.active and sink_below > 0 and decay_score(record, now, decay) < sink_below


def status_factor(status: Status, sink_factor: float, sunk: bool = False, sunk_factor: float = 1.0) -> float:
    """Deprecated and forgotten memories sink rather than vanish; so, more gently, do sunk active ones."""
    if status != Status.active:
        return sink_factor
    return sunk_factor if sunk else 1.0
