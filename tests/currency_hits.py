"""Search hits and unit vectors shared by the read-side currency tests (test_currency_read_values, test_note_change)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np

from hindsight.model import MemoryRecord, MemoryType
from hindsight.read_model import Explanation, SearchHit

T0 = datetime(2026, 4, 1, 9, 0, tzinfo=UTC)


def hit(mid: str, content: str, hours: int) -> SearchHit:
    record = MemoryRecord(id=mid, content=content, type=MemoryType.semantic, event_time=T0 + timedelta(hours=hours))
    return SearchHit(memory=record, score=1.0 - hours / 100, why=Explanation())


def unit(*xs: float) -> np.ndarray:
    v = np.array(xs, dtype=np.float32)
    return v / np.linalg.norm(v)


VECTORS = {"old": unit(1, 0.2, 0), "new": unit(1, 0, 0.2), "far": unit(0, 0, 1)}
