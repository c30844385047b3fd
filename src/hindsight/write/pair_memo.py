"""Readings kept for one write's judging, and dropped when it ends (issue 14, write cost round 36).

`judge.classify` reads some of a pair's readings more than once with the same inputs: the rules' slot evidence
(`evidence.change_evidence`, `evidence.merge_blocker`, in `judge.settle_on_evidence`) and the pair model's row
(`pair_features`) read both of the same pair and analysis; a text's related persons (`slots.relations`) are read
a dozen times per pair by the readings that compare them. Inside a `scope()` - one `judge.classify` call, one
write's `HygieneChecker.check` around every candidate it judges, or (round 40) up to 64 writes of one
`WritePipeline.write_many` call - such a reading is computed once and kept by every input it depends on; outside a
scope nothing is kept and every reading is computed afresh.

A memo never outlives its scope: a module switch turned between two writes (or two `classify` calls) is read by
the next one (round 35's caches across calls, keyed by the texts only, kept a stale answer: docs/benchmarks.md
"Write cost, round 35"). An object handed in (the pair's analysis) is keyed by its identity and held by the entry
it keys, so its id cannot be reused while the memo lives.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

_ACTIVE: ContextVar[dict[Hashable, tuple[Any, Any]] | None] = ContextVar("hindsight_pair_memo", default=None)


@contextmanager
def scope_of(memo: ContextVar[dict[Any, Any] | None]) -> Iterator[None]:
    """A memo's scope: an empty dict in `memo` until the block ends; inside an open one the outer one serves, and
    ends with it (also `write/redaction.py`'s)."""
    if memo.get() is not None:
        yield
        return
    token = memo.set({})
    try:
        yield
    finally:
        memo.reset(token)


def scope() -> AbstractContextManager[None]:
    """Keep readings until the block ends; inside an open scope (a write around its `classify` calls) the outer
    one serves, and ends with it."""
    return scope_of(_ACTIVE)


def active() -> bool:
    """Whether a scope is open (readings are being kept)."""
    return _ACTIVE.get() is not None


def kept(key: Hashable, compute: Callable[[], T], hold: Any = None) -> T:
    """`compute()`, kept under `key` while a scope is open (computed afresh outside one). `key` must name every
    input the answer depends on; `hold`: an object keyed by its id in `key`, kept alive with the entry."""
    memo = _ACTIVE.get()
    if memo is None:
        return compute()
    found = memo.get(key)
    if found is not None:
        return found[1]  # type: ignore[no-any-return]
    value = compute()
    memo[key] = (hold, value)
    return value
