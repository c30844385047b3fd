"""Whose request an embedding is cached for: one namespace's cached vectors never answer another's (attack round 34).

`CachedEmbedder` keeps the last queries and documents it embedded. Shared by every namespace, it was a side channel:
a search whose exact text another tenant had searched (or stored) a moment before answered in about half the time
(measured on the default embedder, 40 of 40 pairs told apart: 219 ms against 394 ms), so a `read` token of one
namespace could confirm a guess of another namespace's recent query ("does patient ... have ..."). The engine's
entry points (search, store, update, working memory) run inside `cache_scope(namespace)`; the cache keys each
vector by the scope and the text, so a hit is only ever a hit on the same namespace's own traffic. Outside any
scope (the CLI, benchmarks, tests) the key is the text, as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_SCOPE: ContextVar[str] = ContextVar("hindsight_embedding_cache_scope", default="")


@contextmanager
def cache_scope(namespaces: str | Iterable[str]) -> Iterator[None]:
    """Run the block with the embedding cache scoped to `namespaces` (one name, or the names of a mixed batch)."""
    name = namespaces if isinstance(namespaces, str) else "\x00".join(sorted(set(namespaces)))
    token = _SCOPE.set(name)
    try:
        yield
    finally:
        _SCOPE.reset(token)


def cache_key(text: str) -> str:
    """The key a text's vector is cached under in the current scope."""
    scope = _SCOPE.get()
    return f"{scope}\x01{text}" if scope else text
