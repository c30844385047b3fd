"""`hindsight migrate SRC DST`: copy one store into another, between any two backends.

What moves: every memory as stored (private ones stay sealed: the ciphertext is bound to the memory id,
which is kept), its vector, its history (also the history of hard-deleted memories), edges, tokens,
proposals, idempotency records, the audit log, the per-store secrets of the meta table (the console's CSRF key;
console sign-in sessions are not copied: people sign in again) and the key canary (security/key_check.py, attack
round 37: the key the sealed values were sealed with stays the only key that opens the target). Resumable: each batch of memories lands whole, with
vectors and histories, in one transaction (`restore_many`), and memories already in the target are
skipped, so a killed run is simply run again. At the end the counts of both stores are compared table by table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hindsight.errors import StorageError
from hindsight.model import MemoryRecord
from hindsight.security.key_check import carry_canary
from hindsight.security.rotate import SEALED_ON_OPEN
from hindsight.storage.base import MemoryStore
from hindsight.url_secrets import scrubbed

BATCH = 200
#: Tables whose row counts are compared after a migration.
COUNTED = ("memories", "history", "edges", "tokens", "proposals", "idempotency", "audit")


@dataclass
class MigrationReport:
    copied: int = 0
    skipped: int = 0
    deleted_histories: int = 0
    source: dict[str, int] = field(default_factory=dict)
    target: dict[str, int] = field(default_factory=dict)
    mismatches: list[str] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        return not self.mismatches

    def as_dict(self) -> dict[str, Any]:
        return {"copied": self.copied, "skipped": self.skipped, "deleted_histories": self.deleted_histories,
                "source": self.source, "target": self.target, "verified": self.verified, "mismatches": self.mismatches}


def counts(store: MemoryStore) -> dict[str, int]:
    """Rows per table, plus stored vectors."""
    out = {table: int(store._aux_rows(f"SELECT COUNT(*) FROM {table}")[0][0]) for table in COUNTED}
    out["vectors"] = sum(len(store.get_embeddings(batch)) for batch in _id_batches(store))
    return out


def _id_batches(store: MemoryStore) -> list[list[str]]:
    ids = [str(r[0]) for r in store._aux_rows("SELECT id FROM memories ORDER BY id")]
    return [ids[i: i + BATCH] for i in range(0, len(ids), BATCH)]


def migrate_store(src: MemoryStore, dst: MemoryStore,
                  progress: Callable[[int, int], None] | None = None) -> MigrationReport:
    """Copy `src` into `dst` (both raw backends, not the encryption wrapper) and verify the counts."""
    model = scrubbed(src.embedding_model) if src.embedding_model else None  # never an endpoint's credentials
    if model and dst.embedding_model not in (None, model):
        raise StorageError(f"the target holds vectors of '{dst.embedding_model}', the source of '{model}'")
    target_was_empty = counts(dst)
    report = MigrationReport()
    if model:
        dst.set_embedding_model(model)
    total = src.stats().total
    batch: list[MemoryRecord] = []
    for record in src.iter_all():
        batch.append(record)
        if len(batch) >= BATCH:
            _copy(src, dst, batch, report)
            batch = []
            if progress:
                progress(report.copied + report.skipped, total)
    _copy(src, dst, batch, report)
    if progress:
        progress(report.copied + report.skipped, total)
    for memory_id in src.orphan_history_ids():
        if not dst.history(memory_id):
            with dst.transaction():
                for e in src.history(memory_id):
                    dst.restore_history_entry(e)
            report.deleted_histories += 1
    for table in ("tokens", "proposals", "idempotency"):
        dst.load_rows(table, src.table_rows(table)[1])
    dst.keep_secrets(src.kept_secrets())  # the console's CSRF key: the moved store is the same store to its forms
    canary_mismatch = carry_canary(src, dst)  # the store's key moves with its sealed values (attack round 37)
    # rows copied from an older store may hold a private proposal in clear: the target's next open with the key
    # seals them (security/rotate.py `seal_once_on_open`)
    dst._aux_exec(f"DELETE FROM {dst._meta_table()} WHERE key = ?", (SEALED_ON_OPEN,))
    if target_was_empty["audit"] == 0:
        with dst.transaction():  # no key to skip on: all at once, so a rerun after a kill copies it again whole
            dst.load_rows("audit", src.table_rows("audit")[1])
    report.source, report.target = counts(src), counts(dst)
    empty = not any(target_was_empty.values())
    for table, n in report.source.items():
        have = report.target.get(table, 0)
        if have < n or (empty and have != n):
            report.mismatches.append(f"{table}: source {n}, target {have}")
    if canary_mismatch:
        report.mismatches.append(canary_mismatch)
    return report


def _copy(src: MemoryStore, dst: MemoryStore, records: list[MemoryRecord], report: MigrationReport) -> None:
    if not records:
        return
    ids = [r.id for r in records]
    present = set(dst.get_many(ids))
    missing = [r for r in records if r.id not in present]
    vectors = src.get_embeddings([r.id for r in missing])
    dst.restore_many([(record, vectors.get(record.id), src.history(record.id)) for record in missing])
    for edge in src.edges(ids):
        dst.add_edge(edge)
    report.copied += len(missing)
    report.skipped += len(present)
