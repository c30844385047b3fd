"""hindsight: long-term memory for LLM agents, behind the Model Context Protocol.

The public surface is small: `Memory` (the Python API), the data model, the
settings and the typed errors. Everything else is internal and may change.

The names below the errors load on first use (PEP 562): importing one submodule (`hindsight.client`, a child
process's probe) no longer imports the engine, the guard and the redaction patterns (~3 s of CPU).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from hindsight._version import __version__
from hindsight.errors import (
    HindsightError,
    InvalidInputError,
    MemoryNotFoundError,
    PermissionDeniedError,
    ProviderUnavailableError,
    StorageBusyError,
    StorageError,
)

if TYPE_CHECKING:
    from hindsight.api import Memory
    from hindsight.config import HindsightSettings
    from hindsight.engine import MemoryEngine
    from hindsight.model import MemoryInput, MemoryPatch, MemoryRecord, MemoryType, Source, Status
    from hindsight.read_model import SearchFilters, SearchHit
    from hindsight.write.pipeline import WriteOutcome

#: public name -> the module it lives in (loaded by `__getattr__` on first use)
_LAZY = {
    "Memory": "hindsight.api",
    "MemoryEngine": "hindsight.engine",
    "HindsightSettings": "hindsight.config",
    "MemoryRecord": "hindsight.model",
    "MemoryInput": "hindsight.model",
    "MemoryPatch": "hindsight.model",
    "MemoryType": "hindsight.model",
    "Source": "hindsight.model",
    "Status": "hindsight.model",
    "SearchFilters": "hindsight.read_model",
    "SearchHit": "hindsight.read_model",
    "WriteOutcome": "hindsight.write.pipeline",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'hindsight' has no attribute '{name}'")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_LAZY])


__all__ = [
    "__version__",
    "Memory",
    "MemoryEngine",
    "HindsightSettings",
    "MemoryRecord",
    "MemoryInput",
    "MemoryPatch",
    "MemoryType",
    "SearchFilters",
    "SearchHit",
    "Source",
    "Status",
    "WriteOutcome",
    "HindsightError",
    "InvalidInputError",
    "MemoryNotFoundError",
    "PermissionDeniedError",
    "ProviderUnavailableError",
    "StorageBusyError",
    "StorageError",
]
