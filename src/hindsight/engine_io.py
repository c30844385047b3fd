"""The engine's JSON-lines export and import (`hindsight export` / `hindsight import`).

A mixin of `MemoryEngine` (engine.py), kept apart so each module has one job; an import goes through the
engine's write pipeline (guard, redaction, hygiene) and claims check like every other write.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING

from hindsight.errors import ProviderUnavailableError
from hindsight.security.claims import bind_inputs
from hindsight.write.importer import ImportReport, first_private_line, parse_lines, run_import
from hindsight.write.pipeline import WriteOutcome

if TYPE_CHECKING:
    from hindsight.storage.base import MemoryStore
    from hindsight.write.pipeline import WritePipeline


class TransferMixin:
    """Needs the engine's `store` and `writer`."""

    if TYPE_CHECKING:
        store: MemoryStore
        writer: WritePipeline

    def export_jsonl(self, out: IO[str], namespace: str | None = None) -> int:
        """Write every memory as one JSON object per line (private ones in plaintext, marked encrypted, so an
        import seals them again); returns the count. Without the key, private memories cannot be exported:
        refused before anything is written (`hindsight backup` copies them sealed)."""
        if not getattr(self.store, "supports_encryption", False):
            sealed = getattr(self.store, "iter_sealed", self.store.iter_all)
            if any(record.encrypted for record in sealed(namespace)):
                raise ProviderUnavailableError("export: private memories need the encryption key to be exported: "
                                               "set HINDSIGHT_ENCRYPTION_KEY, or use `hindsight backup` (keeps "
                                               "them sealed); nothing was written")
        count = 0
        for record in self.store.iter_all(namespace):
            out.write(record.model_dump_json() + "\n")
            count += 1
        return count

    def import_jsonl(self, lines: Iterable[str | bytes], actor: str = "import",
                     namespace: str | None = None) -> builtins.list[WriteOutcome]:
        """Re-ingest exported lines through the full write path; see `import_report`."""
        return self.import_report(lines, actor, namespace).outcomes

    def import_report(self, lines: Iterable[str | bytes], actor: str = "import",
                      namespace: str | None = None) -> ImportReport:
        """Re-ingest exported lines (guard and redaction included), resumably (see write/importer.py).

        Invalid lines (not UTF-8, not JSON, a bad field) abort the import before anything is written, naming the
        line; each line then lands whole with its status; lines an earlier run imported are skipped.
        """
        parsed = parse_lines(lines, namespace)
        private_line = first_private_line(parsed)
        if private_line is not None and not getattr(self.store, "supports_encryption", False):
            raise ProviderUnavailableError(f"line {private_line}: private memories need an encryption key: set "
                                           "HINDSIGHT_ENCRYPTION_KEY; nothing was imported")
        bind_inputs([line.item for line in parsed], actor)  # what the importer may claim (raises before any write)
        return run_import(self.writer, self.store, parsed, actor)
