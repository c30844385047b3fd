"""Searches and reads do not wait for writes: WAL readers on their own connections, access counts buffered."""

from __future__ import annotations

import threading

from hindsight.engine import MemoryEngine


def test_search_completes_while_a_write_transaction_is_open(engine: MemoryEngine) -> None:
    stored = engine.store_memory({"content": "The billing job runs at 02:00 UTC.", "type": "semantic"})
    holding, release = threading.Event(), threading.Event()

    def writer() -> None:
        with engine.store.transaction():  # a long write: the store's write lock is held
            holding.set()
            release.wait(120)

    thread = threading.Thread(target=writer)
    thread.start()
    assert holding.wait(60)
    results: list[object] = []
    reader = threading.Thread(target=lambda: results.append(
        (engine.search("when does billing run", top_k=3), engine.get(stored.memory_id, record_access=False))))
    try:
        reader.start()
        reader.join(60)
        finished_while_writing = not reader.is_alive()
    finally:
        release.set()
        thread.join(60)
        reader.join(60)
    assert finished_while_writing, "the search waited for the write transaction"
    hits, record = results[0]  # type: ignore[misc]
    assert hits[0].memory.id == stored.memory_id and record.id == stored.memory_id
    # the access bump was buffered during the write and is applied by the next write (here: the next search)
    engine.search("billing job", top_k=1)
    assert engine.get(stored.memory_id, record_access=False).access_count == 2
