"""Guard round 23 (docs/benchmarks.md, "Guard, round 23: refit on 65 writers"): chat as training writers. The LoCoMo
dialogue writer holds the dev conversations' turns as the write path stores them and never a turn of the test
conversations that ``bench/guard_locomo_turns.py`` measures; it reads the guard's own vector; the transcripts are
built from training writers only, carry both labels, and leave a fit with their source writer. No model runs here."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

import guard_chat_writers as cw  # noqa: E402
import guard_curve as gc  # noqa: E402
import guard_dataset as ds  # noqa: E402
import guard_lowo_fast as lf  # noqa: E402
import guard_model as gm  # noqa: E402
from guard_locomo_turns import DATA, sessions  # noqa: E402
from train_guard import CONFIGS  # noqa: E402

needs_locomo = pytest.mark.skipif(not DATA.exists(), reason="../shared/data/locomo10.json is not here")


@needs_locomo
def test_the_dialogue_writer_is_the_dev_turns_as_stored_and_no_test_turn() -> None:
    rows = cw.dialogue_examples()
    texts = {e.text for e in rows}
    assert texts == {t for turns in sessions("dev") for t in turns}
    assert not texts & {t for turns in sessions("test") for t in turns}
    assert all(e.writer == cw.DIALOGUE and not e.is_attack for e in rows)
    assert any(" [shares a photo: " in t for t in texts) and all(": " in t for t in texts)  # label and caption


def test_a_missing_locomo_file_says_where_it_was_looked_for(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import guard_locomo_turns

    monkeypatch.setattr(guard_locomo_turns, "DATA", tmp_path / "locomo10.json")
    with pytest.raises(FileNotFoundError, match="locomo10.json"):
        guard_locomo_turns.sessions("dev")


def _note(writer: str, label: str, lang: str, i: int) -> ds.GuardExample:
    text = f"{writer} {label} note {i}" if lang == "en" else f"{writer} 的{label}笔记 {i}"
    return ds.GuardExample(text=text, label=label, category="injection" if label == "attack" else None, lang=lang,
                           group=f"{writer}:{i}", kind=f"{writer}:standing_order", writer=writer)


def test_transcripts_come_from_training_writers_only_and_carry_both_labels() -> None:
    notes = [_note(w, label, lang, i) for w in ("train-r21T4", "train-r22T1", "blind-r21", "train-r15T1")
             for label in ("attack", "benign") for lang in ("en", "zh") for i in range(8)]
    chat = cw.chat_examples(notes)
    assert {cw.source_of(e) for e in chat} == {"train-r21T4", "train-r22T1"}  # never a criterion writer
    assert {e.label for e in chat} == {"attack", "benign"} and {e.lang for e in chat} == {"en", "zh"}
    for e in chat:
        assert e.writer == cw.CHAT and ("said: " in e.text or ": " in e.text or "：" in e.text)
        assert ("attack note" in e.text or "的attack笔记" in e.text) == e.is_attack  # an attack transcript holds one
        assert "benign note" in e.text or "的benign笔记" in e.text  # every transcript holds a benign turn
    assert cw.chat_examples(notes) == chat  # deterministic


def test_the_chat_writers_are_training_writers_in_a_group() -> None:
    for writer in (cw.DIALOGUE, cw.CHAT):
        assert writer in lf.TRAIN_ONLY and sum(writer in g for g in lf.GROUPS) == 1
        assert not gc.other_writer(writer)  # the fixed part: every fold trains on them ...
    assert lf.GUARD_EMBEDS == (cw.DIALOGUE,)


def test_a_transcript_leaves_the_fit_with_its_source_writer(monkeypatch: pytest.MonkeyPatch) -> None:
    """... but a curve draw that leaves a training writer out leaves its transcripts out too."""
    held = [w for g in gc.EVAL_GROUPS for w in g] + [w for g in lf.RETRIEVAL_GROUPS for w in g]
    writers = held + [f"train-r21T{i}" for i in range(1, 9)] + ["own"] + [cw.CHAT] * 8
    sources = held + [f"train-r21T{i}" for i in range(1, 9)] + ["own"] + [f"train-r21T{i}" for i in range(1, 9)]
    d = object.__new__(gc.Data)
    n = len(writers)
    d.writers, d.sources, d.y = np.array(writers), np.array(sources), np.array([i % 2 for i in range(n)])
    vec = np.zeros((n, 4), np.float32)
    vec[:, 0] = np.arange(n)
    d.f = gm.Features(vec, vec, np.zeros((n, 2), np.float32), np.ones(n, bool), np.zeros(n, bool),
                      np.ones(n, bool), np.zeros(n, bool))
    seen: list[set[int]] = []

    def record(f: gm.Features, y: np.ndarray, cfg: gm.ModelConfig, seed: int, weight: object, members: int) -> list[str]:
        seen.append({int(i) for i in f.raw[:, 0]})
        return ["model"]

    monkeypatch.setattr(gc, "fit_members", record)
    monkeypatch.setattr(gc, "score", lambda models, f: np.full(len(f.raw), 0.5))
    gc.run(d, d.f.lex, CONFIGS[0], None, 1, 0.5, 0, 13)
    for rows in seen:
        kept = {sources[i] for i in rows if writers[i].startswith("train-r")}
        chat = {sources[i] for i in rows if writers[i] == cw.CHAT}
        assert chat == kept
    assert any(len({sources[i] for i in rows if writers[i] == cw.CHAT}) < 8 for rows in seen)  # some were left out


def test_the_dialogue_writer_reads_the_guards_own_vector(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: list[tuple[str, tuple[str, ...]]] = []

    def embed(texts: list[str], path: Path, engine: str = "c") -> np.ndarray:
        calls.append((engine, tuple(texts)))
        return np.full((len(texts), 384), 1.0 if engine == "c" else 2.0, np.float32)

    monkeypatch.setattr(lf, "embed", embed)
    turn, note = "Caroline: I went to the LGBTQ support group yesterday.", "The office VPN moved to Tailscale."
    vectors = lf.runtime_vectors([turn, note], tmp_path, "onnx", [True, False])
    assert vectors[:, 0].tolist() == [1.0, 2.0]
    assert ("onnx", (note,)) in calls and all(turn not in texts for engine, texts in calls if engine == "onnx")
