"""hindsight: long-term memory for LLM agents, behind the Model Context Protocol.

The public surface is small: `Memory` (the Python API), the data model, the
settings and the typed errors. Everything else is internal and may change.
"""

from hindsight._version import __version__
from hindsight.api import Memory
from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.errors import (
    HindsightError,
    InvalidInputError,
    MemoryNotFoundError,
    PermissionDeniedError,
    ProviderUnavailableError,
    StorageBusyError,
    StorageError,
)
from hindsight.model import MemoryInput, MemoryPatch, MemoryRecord, MemoryType, Source, Status
from hindsight.read_model import SearchFilters, SearchHit
from hindsight.write.pipeline import WriteOutcome

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
