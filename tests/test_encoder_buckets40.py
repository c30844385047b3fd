"""Write cost round 40 (issue 14): the ONNX runner's forward passes hold windows of one length only.

`MatMulNBits` costs per token row whatever the batch, so a padded row costs what a text's does: with a quarter of
each pass allowed to be padding, a batch of LoCoMo turns cost 1.02 - 1.06x one call per text; with none, 0.96 - 1.00x
(the vectors bit-identical). The numpy runner keeps its buckets (its float32 GEMMs are cheaper per row in larger passes).
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from hindsight.embeddings.e5_numpy import CHUNK_TOKENS, NumpyE5
from hindsight.embeddings.e5_onnx import OnnxE5


def _reference_buckets(windows: list[list[int]]) -> list[list[int]]:
    """main's bucket rule (padding under a quarter of a pass), as window indices per pass."""
    out = []
    order = sorted(range(len(windows)), key=lambda i: len(windows[i]))
    start = 0
    while start < len(order):
        end = start + 1
        while end < len(order):
            length = len(windows[order[end]]) + 2
            if length * (end - start + 1) > CHUNK_TOKENS or (end - start + 1) * length * 3 > 4 * (
                    sum(len(windows[order[j]]) + 2 for j in range(start, end + 1))):
                break
            end += 1
        out.append(order[start:end])
        start = end
    return out


def _windows(seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    return [[7] * rng.choice([1, 3, 5, 12, 13, 14, 30, 44, 45, 46, 47, 120, 128, 300, 508]) for _ in range(rng.randint(1, 90))]


class _Stub:
    """Enough of a model for `_buckets` (its tokenizer's bos / eos)."""

    class tokenizer:  # noqa: N801
        bos, eos = 0, 2


@pytest.mark.parametrize("seed", range(12))
def test_the_numpy_runner_keeps_its_buckets(seed: int) -> None:
    windows = _windows(seed)
    stub = _Stub()
    stub.BUCKET_PADDING = getattr(NumpyE5, "BUCKET_PADDING", 0.25)  # type: ignore[attr-defined]  (main: none)
    got = [bucket for bucket, _, _ in NumpyE5._buckets(stub, windows)]  # type: ignore[arg-type]
    assert got == _reference_buckets(windows)


@pytest.mark.parametrize("seed", range(12))
def test_an_onnx_pass_holds_one_length(seed: int) -> None:
    """Fails on main: passes mixed lengths (padding up to a quarter)."""
    windows = _windows(seed)
    stub = _Stub()
    stub.BUCKET_PADDING = OnnxE5.BUCKET_PADDING  # type: ignore[attr-defined]
    passes = OnnxE5._buckets(stub, windows)  # type: ignore[arg-type]
    assert sorted(i for bucket, _, _ in passes for i in bucket) == list(range(len(windows)))
    for bucket, ids, lengths in passes:
        assert len({len(windows[i]) for i in bucket}) == 1
        assert ids.shape[1] == len(windows[bucket[0]]) + 2 and set(lengths.tolist()) == {ids.shape[1]}
        assert ids.size <= max(CHUNK_TOKENS, ids.shape[1])


def test_a_batch_gives_each_texts_own_vector(embedder: object) -> None:
    """The runner's batched call and one call per text give the same bits (LoCoMo-like turns, EN / ZH, lengths that
    repeat and lengths that do not)."""
    inner = getattr(embedder, "inner", embedder)
    model = getattr(inner, "_model", None)
    if not isinstance(model, OnnxE5):
        pytest.skip("the default runner here is not ONNX")
    texts = ["Caroline: I went to the LGBTQ support group yesterday and it was so powerful.",
             "Melanie: Wow, that's cool! [shares a photo: a sunset over a lake]",
             "Caroline: Thanks, Mel!", "Melanie: Thanks, Car!", "用户搬到了朝阳区，每周三去健身房两次。",
             "Caroline: I went to the LGBTQ support group yesterday and it was so powerful. Melanie: Wow, that's "
             "cool! Caroline: Thanks, Mel! " * 3, "ok", "好的"]
    batched = model.encode(texts)
    single = np.vstack([model.encode([t]) for t in texts])
    assert batched.tobytes() == single.tobytes()
