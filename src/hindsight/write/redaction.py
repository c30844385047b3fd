"""The redactor's one reading of each caller text of a request (issue 10 / 14, round 45).

The write path's redactor (`contracts.Redactor`, `hindsight.safety.redact.redact` in the engine) returns the new
text and its findings - each value's kind and span in the text given - and the path hands that one reading down:
the content's findings reach the value digests (`write/value_digests.compute`), which before round 45 ran the
redactor over the content a second time to learn the spans. Two steps of one request that read the same text apart
read it once inside a `scope()`: one `WritePipeline.write_many` call (what the blobs redaction removed decode to is
read after screening and again for a dialogue turn), a keyed write's fingerprint and the write itself
(`MemoryEngine.idempotent`), an import's content keys and its writes (`write/importer.run_import`). Outside a scope
every call reads afresh.

A reading never outlives its scope (a switch turned between two requests is read by the next one), and one text
read twice in a scope is one reading, so two steps of a request cannot see two different redactions of it.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from contextvars import ContextVar
from typing import TYPE_CHECKING

from hindsight.write.pair_memo import scope_of

if TYPE_CHECKING:
    from hindsight.safety.redact import RedactionResult
    from hindsight.write.contracts import Redactor

_ACTIVE: ContextVar[dict[tuple[int, str], tuple[Redactor, RedactionResult]] | None] = ContextVar(
    "hindsight_redaction_memo", default=None)


def scope() -> AbstractContextManager[None]:
    """Keep each text's reading until the block ends; inside an open scope the outer one serves, and ends with it."""
    return scope_of(_ACTIVE)


def redacted(redactor: Redactor, text: str) -> RedactionResult:
    """`redactor(text)`, kept for the rest of an open scope (the redactor is held with it, so its id stays its own)."""
    memo = _ACTIVE.get()
    if memo is None:
        return redactor(text)
    key = (id(redactor), text)
    found = memo.get(key)
    if found is not None:
        return found[1]
    result = redactor(text)
    memo[key] = (redactor, result)
    return result
