"""Attack round 38 (docs/security.md "Attack round 38"): two servers on one SQLite file, kill -9 mid-write, scoped
tokens across the console, huge and malformed MCP arguments.

- **A restatement answered "duplicate, active" for a memory another server had forgotten or erased**: a write's
  decision (hygiene) and its store hold the namespace's lock, but `memory_update`, `memory_forget`,
  `memory_delete` and a quarantine release took only the file's write transaction. On SQLite those are two locks,
  so a second server's forget or hard delete landed between the decision ("the same as X") and the refresh of X:
  the restatement was acknowledged as stored and active, and it was folded into a forgotten memory (history:
  create, forget, dedup_refresh) or into nothing at all (history: create, delete - the acknowledged write gone).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from bag_embedder import BagEmbedder

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
