"""Attack round 38 (docs/security.md "Attack round 38"): two servers on one SQLite file, kill -9 mid-write, scoped
tokens across the console, huge and malformed MCP arguments.

- **A restatement answered "duplicate, active" for a memory another server had forgotten or erased**: a write's
  decision (hygiene) and its store hold the namespace's lock, but `memory_update`, `memory_forget`,
  `memory_delete` and a quarantine release took only the file's write transaction. On SQLite those are two locks,
  so a second server's forget or hard delete landed between the decision ("the same as X") and the refresh of X:
  the restatement was acknowledged as stored and active, and it was folded into a forgotten memory (history:
  create, forget, dedup_refresh) or into nothing at all (history: create, delete - the acknowledged write gone).
- **An update or forget wrote back the access count it read**: `apply_change` stores the whole record it computed,
  access counters included, so every read of the memory another server (or this one) counted while the change was
  computed - seconds, for a re-embedded content change - was undone (the access factor of search's priors).
- **An id holding NUL, a control or a bidi character was no bad input**: `memory_get`, `memory_update`,
  `memory_forget`, `memory_delete`, `memory_history`, `memory_quarantine_release`, `memory_summarize` and
  `memory_review_decide` answered `not_found` quoting the id as sent (a right-to-left override turned the rest of
  the message around in a client's log or UI), where every other identifier is refused by name.
- **`memory_summarize` quoted a 2 MB id back**: `memory_ids` bounded the list, not its items, and `not_found` quoted
  the id whole.
- **`memory_ingest` with a NUL in `session_id` named the wrong field**: `invalid_input: context: must not contain
  NUL`, a field the caller never sent (the session id reached the kept memory's context before it was checked).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from bag_embedder import BagEmbedder
from mcp_helpers import SyncMCPClient
from test_refusal_shape import mcp  # noqa: F401 - the in-process MCP server (bag embedder, hygiene off)

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine

FACT = "The build cache of the payments service lives on the shared volume under /var/cache/build"


def _engine(db: Path) -> MemoryEngine:
    return MemoryEngine.open(db, settings=HindsightSettings(db=db), embedder=BagEmbedder(words=True))


@pytest.fixture
def two_servers(tmp_path: Path) -> Iterator[tuple[MemoryEngine, MemoryEngine]]:
    db = tmp_path / "m.db"
    first, second = _engine(db), _engine(db)
    yield first, second
    first.close()
    second.close()


def _actions(engine: MemoryEngine, memory_id: str) -> list[str]:
    return [entry.action for entry in engine.store.history(memory_id)]


def _between_decision_and_store(engine: MemoryEngine, other: Callable[[], Any]) -> list[BaseException]:
    """Run `other` (another server's call) on a thread once `engine`'s next write has decided, and give it the time
    it needs to finish before that write stores; returns the errors `other` raised (joined by the caller)."""
    assert engine.hygiene is not None
    decide = engine.hygiene.check
    errors: list[BaseException] = []

    def run() -> None:
        try:
            other()
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            errors.append(exc)

    def hooked(*args: Any, **kwargs: Any) -> Any:
        decision = decide(*args, **kwargs)
        worker = threading.Thread(target=run)
        worker.start()
        worker.join(timeout=5)  # on main the other server's call ends here; with the fix it waits for this write
        hooked.worker = worker  # type: ignore[attr-defined]
        return decision

    engine.hygiene.check = hooked  # type: ignore[method-assign]
    engine._hooked = hooked  # type: ignore[attr-defined]
    return errors


def _join(engine: MemoryEngine) -> None:
    worker = getattr(engine._hooked, "worker", None)  # type: ignore[attr-defined]
    if worker is not None:
        worker.join()


@pytest.mark.parametrize("call", ["forget", "delete"])
def test_a_restatement_is_not_acknowledged_into_a_memory_another_server_forgot_or_erased(
        two_servers: tuple[MemoryEngine, MemoryEngine], call: str) -> None:
    """Live (two `serve --transport http` on one file): 4 of 8 forgets and 2 of 6 deletes sent 0-150 ms after a
    restatement landed inside it. Serialised, either the restatement comes first (refresh, then forget/delete) or
    the forget/delete does (and the restatement is not folded into it)."""
    first, second = two_servers
    memory_id = first.store_memory({"content": FACT, "type": "semantic", "namespace": "ops"}).memory_id
    if call == "forget":
        errors = _between_decision_and_store(first, lambda: second.forget(memory_id, "obsolete", namespace="ops"))
    else:
        errors = _between_decision_and_store(first, lambda: second.delete(memory_id, namespace="ops"))
    outcome = first.store_memory({"content": FACT, "type": "semantic", "namespace": "ops"})
    _join(first)
    assert not errors
    actions = _actions(second, memory_id)
    if outcome.action == "duplicate" and outcome.memory_id == memory_id:
        # acknowledged as folded into X: the refresh must come before the other server's change, not after it
        assert actions[:2] == ["create", "dedup_refresh"], actions
        assert actions[-1] == call, actions
    else:  # the forget/delete came first: the restatement is a memory of its own, active
        stored = first.get(outcome.memory_id, namespace="ops")
        assert stored.status.value == "active" and stored.content == FACT


def test_a_change_keeps_the_reads_another_server_counted_while_it_was_computed(
        two_servers: tuple[MemoryEngine, MemoryEngine]) -> None:
    """On main the content update stored access_count 0 over the 2 reads the other server had counted meanwhile."""
    first, second = two_servers
    memory_id = first.store_memory({"content": FACT, "type": "semantic", "namespace": "ops"}).memory_id
    embed = first.embedder.embed_documents

    def reads_meanwhile(texts: Any) -> Any:  # the change is being computed (re-embedded): the other server reads
        second.get(memory_id, namespace="ops")
        second.get(memory_id, namespace="ops")
        return embed(texts)

    first.embedder.embed_documents = reads_meanwhile  # type: ignore[method-assign]
    first.update(memory_id, {"content": FACT + " since March"}, namespace="ops")
    first.embedder.embed_documents = embed  # type: ignore[method-assign]
    stored = second.store.get(memory_id)
    assert stored is not None and stored.content.endswith("since March")
    assert stored.access_count == 2 and stored.last_accessed_at is not None


# ------------------------------------------------------------------ 4. malformed MCP arguments

HIDDEN = {"nul": ("mem_1\x00", "NUL"), "bidi": ("\u202emem_1", "bidi"), "control": ("mem_\x1b[2J1", "control")}
ID_CALLS = [
    ("memory_get", {}, "memory_id"), ("memory_history", {}, "memory_id"),
    ("memory_update", {"updates": {"importance": 0.2}}, "memory_id"), ("memory_forget", {}, "memory_id"),
    ("memory_delete", {"confirm": True}, "memory_id"), ("memory_quarantine_release", {}, "memory_id"),
    ("memory_summarize", {}, "memory_ids"), ("memory_review_decide", {"decision": "reject"}, "proposal_id"),
]


@pytest.mark.parametrize("hidden", sorted(HIDDEN))
@pytest.mark.parametrize(("tool", "extra", "field"), ID_CALLS, ids=[c[0] for c in ID_CALLS])
def test_an_id_holding_a_hidden_character_is_refused_by_name_never_quoted(
        mcp: SyncMCPClient, tool: str, extra: dict[str, Any], field: str, hidden: str) -> None:  # noqa: F811
    """On main: `not_found: memory '\u202emem_1' was not found ...` (the id quoted as sent)."""
    value, rule = HIDDEN[hidden]
    before = mcp.call("memory_stats")
    message = mcp.error(tool, {**extra, field: [value] if field == "memory_ids" else value})
    assert message.startswith(f"invalid_input: {field}"), message
    assert rule in message and value not in message and value[-2:] not in message, message
    assert mcp.call("memory_stats") == before


def test_a_huge_id_in_memory_ids_is_refused_by_its_length_not_quoted(mcp: SyncMCPClient) -> None:  # noqa: F811
    """On main `memory_ids` bounded the list, not its items: a 2 MB id came back whole inside `not_found`."""
    message = mcp.error("memory_summarize", {"memory_ids": ["mem_" + "a" * 20_000]})
    assert message.startswith("invalid_input: memory_ids.0: ") and len(message) < 300, message[:300]


def test_a_nul_in_an_ingests_session_id_is_refused_naming_session_id(mcp: SyncMCPClient) -> None:  # noqa: F811
    """On main: `invalid_input: context: must not contain NUL` - a field the caller never sent."""
    message = mcp.error("memory_ingest", {"messages": [{"role": "user", "content": "I prefer tea"}],
                                          "session_id": "s\x00"})
    assert message.startswith("invalid_input: session_id: ") and "NUL" in message, message
