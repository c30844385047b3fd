"""Issue 9 item 11: one long write has a bounded cost (the model's window), and a per-request time budget.

Costs are measured in tokens handed to the model (deterministic), not in seconds; timings are in
bench/write_cost.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.errors import BudgetExceededError
from hindsight.model import MAX_CONTENT_CHARS
from hindsight.safety import classifier
from hindsight.safety.classifier import (
    MAX_SCREEN_WINDOWS,
    SCREEN_WINDOW_TOKENS,
    screening_windows,
)

EN = ("Deploy log: the admin password rotation job deleted the old credentials and restarted the billing "
      "service; permissions were checked before the cleanup ran. ")
ZH = "部署日志：管理员密码轮换任务删除了旧凭据并重启了计费服务；清理前检查了权限。"


class Recording(Embedder):
    """The real embedder, recording how many tokens each text it is asked to embed has."""

    def __init__(self, inner: Embedder) -> None:
        self.inner, self.name, self.dim, self.max_tokens = inner, inner.name, inner.dim, inner.max_tokens
        self.seen: list[int] = []

    def count_tokens(self, text: str) -> int:
        return self.inner.count_tokens(text)

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        self.seen += [self.inner.count_tokens(t) for t in texts]
        return self.inner._embed(texts, is_query)


def _long(unit: str, chars: int) -> str:
    return (unit * (chars // len(unit) + 1))[:chars]


@pytest.mark.parametrize("unit", [EN, ZH], ids=["en", "zh"])
def test_the_longest_write_embeds_at_most_the_model_window(tmp_path: Path, embedder: Embedder, unit: str) -> None:
    recording = Recording(getattr(embedder, "inner", embedder))
    # the budget is not under test here: a loaded CI machine must not turn this cost test into a timeout
    engine = MemoryEngine.open(tmp_path / "m.db", HindsightSettings(db=tmp_path / "m.db", write_budget_s=3600), recording)
    engine.store_memory({"content": _long(unit, 1_500), "session_id": "s"})  # neighbour, session context
    text = _long(unit, MAX_CONTENT_CHARS)
    assert recording.count_tokens(text) > 9 * 500
    outcome = engine.store_memory({"content": text, "context": _long(unit, 4_000), "session_id": "s"})
    assert outcome.action in ("created", "supplemented", "superseded", "duplicate")
    assert engine.get(outcome.memory_id).content == text or outcome.action == "duplicate"  # stored whole
    assert recording.seen and max(recording.seen) <= 512, recording.seen
    engine.close()


@pytest.mark.parametrize("unit", [EN, ZH], ids=["en", "zh"])
def test_the_classifier_reads_a_bounded_number_of_windows(unit: str) -> None:
    model = classifier.get_embedder()
    short, long = _long(unit, 2_000), _long(unit, 20_000)  # n and 10n
    tokens = [sum(model.token_count(w) for w in screening_windows(t)) for t in (short, long)]
    assert all(model.token_count(w) <= SCREEN_WINDOW_TOKENS for w in screening_windows(long))
    assert len(screening_windows(long)) <= MAX_SCREEN_WINDOWS
    assert tokens[1] <= MAX_SCREEN_WINDOWS * SCREEN_WINDOW_TOKENS < model.token_count(long) / 2
    assert screening_windows(long)[0] == long[: len(screening_windows(long)[0])]  # the first window leads


def test_a_write_past_its_time_budget_is_refused_and_stores_nothing(tmp_path: Path, embedder: Embedder) -> None:
    settings = HindsightSettings(db=tmp_path / "m.db", write_budget_s=1e-6)
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=embedder)
    with pytest.raises(BudgetExceededError, match="budget") as caught:
        engine.store_memory({"content": "The staging database runs PostgreSQL 15."})
    assert caught.value.code == "timeout"
    assert engine.stats().total == 0
    engine.close()
