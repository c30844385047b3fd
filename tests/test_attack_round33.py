"""Attack round 33 (docs/security.md "Attack round 33"): an outside attacker with the README and docs/security.md
against `hindsight serve --transport http` (SQLite and two servers on one PostgreSQL) with a token of each scope.

- **A refused flood still cost a store write per call** (left by round 32): the audit coalesced repeated denials
  into one row but rewrote that row's count on every refused call, so a token that kept being refused still bought
  one write transaction per call. The count is now kept in memory and written at the window's end, every
  `DENIAL_FLUSH_EVERY` repeats, before the log is read and on shutdown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from test_attack_round32 import FakeClock, Server

from hindsight.security import audit as audit_module
from hindsight.security.audit import DENIAL_FLUSH_EVERY, DENIAL_WINDOW_S, AuditLog


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    try:
        yield running
    finally:
        running.close()


class Writes:
    """Counts the audit log's writes to the store (the insert of a row, the rewrite of its count)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, store: Any) -> None:
        self.calls: list[str] = []
        for name in ("audit_add", "audit_count"):
            monkeypatch.setattr(store, name, self._counting(name, getattr(store, name)))

    def _counting(self, name: str, method: Callable[..., Any]) -> Callable[..., Any]:
        def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls.append(name)
            return method(*args, **kwargs)
        return counted


def _denials(audit: AuditLog, principal: str) -> list[str]:
    return [e.detail for e in audit.entries(10_000) if e.principal == principal and e.outcome == "denied"]


# ------------------------------------------------------------------ 0. a repeated denial costs no store write


def test_a_refused_flood_costs_one_store_write_not_one_per_call(server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """A `read` token refused 60 times on the real server: on main 60 writes (one insert, 59 rewrites of the
    count); now the insert only, and the row still says 60 times once the log is read."""
    writes = Writes(monkeypatch, server.engine.store)
    headers = server.session(server.reader)
    for _ in range(60):
        assert "permission_denied" in server.call(headers, "memory_forget", {"memory_id": "mem_x", "namespace": "ops"})
    assert writes.calls == ["audit_add"]  # main: 60
    rows = _denials(server.audit, "token:r")
    assert len(rows) == 1 and rows[0].startswith("[60 times, the last at ")
    assert writes.calls == ["audit_add", "audit_count"]  # reading wrote the count once


class ServedAsServe(Server):
    """Round 32's server with the middleware `serve` gives the HTTP transport (`http_middleware`)."""

    def __init__(self, tmp_path: Path) -> None:
        from hindsight.server import mcp_server

        built = mcp_server.build_server

        def with_servers_middleware(engine: Any, audit: AuditLog, policy: Any) -> Any:
            server = built(engine, audit=audit, policy=policy)
            http_app = server.http_app
            hosts = frozenset({"127.0.0.1", "localhost"})
            server.http_app = lambda middleware: http_app(
                middleware=mcp_server.http_middleware(engine, policy, hosts, audit))
            return server

        mcp_server.build_server = with_servers_middleware
        try:
            super().__init__(tmp_path)
        finally:
            mcp_server.build_server = built


def test_the_servers_shutdown_writes_the_counts_it_holds(tmp_path: Path) -> None:
    """uvicorn's shutdown (what SIGTERM starts; uvicorn then raises the signal again, so nothing after `run` runs,
    and FastMCP's own lifespan is exited only after that) ends the app's lifespan, and `FlushOnShutdown` writes the
    counts still in memory there: another process reads `[7 times ...]`."""
    server = ServedAsServe(tmp_path)
    try:
        headers = server.session(server.reader)
        for _ in range(7):
            server.call(headers, "memory_forget", {"memory_id": "mem_x", "namespace": "ops"})
        stored = server.engine.store.audit_rows
        assert [str(row[6]) for row in stored(10) if row[1] == "token:r"] == ["needs 'write' on namespace 'ops'"]
        server.server.should_exit = True
        server.thread.join(60)
        assert not server.thread.is_alive()
        assert [str(row[6])[:9] for row in stored(10) if row[1] == "token:r"] == ["[7 times,"]
    finally:
        server.close()


def test_the_count_reaches_the_store_at_the_windows_end_every_n_and_on_close(tmp_path: Path) -> None:
    """Another reader of the store (`hindsight audit`, a second server) sees the count: written when the next
    denial finds the window over, every DENIAL_FLUSH_EVERY repeats, and when the log is closed."""
    from hindsight.storage.factory import open_store

    store = open_store(tmp_path / "m.db")
    try:
        audit = AuditLog(store)
        audit.clock = clock = FakeClock()

        def stored() -> list[str]:  # what another process reads: the rows as stored, no flush
            return sorted(str(row[6]) for row in store.audit_rows(100))

        for _ in range(5):
            audit.record("token:r", "memory_get", "denied", "ops", "mem_a", "needs 'read'")
        assert stored() == ["needs 'read'"]
        clock.now += DENIAL_WINDOW_S + 1
        audit.record("token:r", "memory_get", "denied", "ops", "mem_b", "needs 'read'")
        assert stored()[0].startswith("[5 times, the last at ") and stored()[1] == "needs 'read'"
        for _ in range(DENIAL_FLUSH_EVERY):
            audit.record("token:r", "memory_get", "denied", "ops", "mem_b", "needs 'read'")
        assert any(d.startswith(f"[{DENIAL_FLUSH_EVERY + 1} times") for d in stored())
        for _ in range(3):
            audit.record("token:r", "memory_get", "denied", "ops", "mem_b", "needs 'read'")
        audit.close()
        assert any(d.startswith(f"[{DENIAL_FLUSH_EVERY + 4} times") for d in stored())
    finally:
        store.close()


def test_the_window_timer_writes_the_count_of_an_idle_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A flood that stops, and nothing else happens: the window's timer writes the count (the timer is fired by the
    test, not waited for)."""
    from hindsight.storage.factory import open_store

    timers: list[Any] = []

    class Timer:
        def __init__(self, interval: float, function: Callable[[], None]) -> None:
            self.interval, self.function, self.daemon = interval, function, False
            timers.append(self)

        def start(self) -> None: ...

        def cancel(self) -> None: ...

    monkeypatch.setattr(audit_module.threading, "Timer", Timer)
    store = open_store(tmp_path / "m.db")
    try:
        audit = AuditLog(store)
        audit.clock = FakeClock()
        for _ in range(4):
            audit.record("token:r", "memory_forget", "denied", "ops", "mem_a", "needs 'write'")
        assert len(timers) == 1 and timers[0].interval == DENIAL_WINDOW_S and timers[0].daemon
        timers[0].function()
        assert [str(row[6])[:9] for row in store.audit_rows(10)] == ["[4 times,"]
    finally:
        store.close()


def test_allowed_rows_are_still_written_one_each_at_once(tmp_path: Path) -> None:
    """Pin: what is not a denial (an allowed export) is one row each, in the store at once."""
    from hindsight.storage.factory import open_store

    store = open_store(tmp_path / "m.db")
    try:
        audit = AuditLog(store)
        for n in range(3):
            audit.record("token:a", "console /console/export", "ok", "ops", None, f"{n} memories")
        assert sorted(str(row[6]) for row in store.audit_rows(10)) == ["0 memories", "1 memories", "2 memories"]
    finally:
        store.close()


# ------------------------------------------------------------------ 1. a PostgreSQL password in the URL's query


@pytest.mark.parametrize("url", [
    "postgresql://u@/hs?host=/nonexistent-hs-dir&password=S3CRETPW&connect_timeout=2",
    "postgresql://u@/hs?host=/nonexistent-hs-dir&pass%77ord=S3CRETPW&connect_timeout=2",
    "postgresql://u:pw@/hs?host=/nonexistent-hs-dir&sslpassword=S3CRETPW&connect_timeout=2",
])
def test_a_password_in_the_query_is_masked_where_the_url_is_shown(url: str) -> None:
    """libpq takes `?password=` as well as `user:pw@`; only the second was masked, so the first reached the
    `serve` startup line, `hindsight stats` and the "cannot open database" error in clear (main: 'S3CRETPW')."""
    pytest.importorskip("psycopg")
    from hindsight.errors import StorageError
    from hindsight.storage.factory import describe, open_store

    shown = describe(url)
    assert "S3CRETPW" not in shown and "password=***" in shown and "host=/nonexistent-hs-dir" in shown
    with pytest.raises(StorageError) as refused:
        open_store(url)
    assert "S3CRETPW" not in str(refused.value) and "password=***" in str(refused.value)


# ------------------------------------------------------------------ 2. a merge racing an update


@pytest.fixture
def quiet_engine(tmp_path: Path) -> Iterator[Any]:
    """No hygiene (two copies of a fact stay two memories), the word-bag embedder, no guard model."""
    from bag_embedder import BagEmbedder

    from hindsight.config import HindsightSettings
    from hindsight.engine import MemoryEngine

    settings = HindsightSettings(db=tmp_path / "m.db", hygiene=False, guard="off")
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    yield engine
    engine.close()


@pytest.mark.parametrize("change", ["update", "forget"])
def test_a_merge_does_not_retire_a_member_changed_since_the_scan(quiet_engine: Any, monkeypatch: pytest.MonkeyPatch,
                                                                  change: str) -> None:
    """`memory_consolidate` reads the namespace's semantic memories, then merges each near-duplicate group under the
    namespace lock. A writer (another request, another server) corrects one member in between: on main the merge
    wrote the stale text as the merged memory and deprecated the corrected one (its correction lost from search, a
    stale fact active again); a member forgotten meanwhile was merged back into use. Now a group whose member changed
    since the scan is left for the next run, and nothing is written."""
    from hindsight.consolidate import Consolidator
    from hindsight.model import Status

    engine = quiet_engine
    fact = "The team deploys to production on Tuesdays."
    first, second = (engine.store_many([{"content": fact, "type": "semantic", "namespace": "ops"}], "local")[0].memory_id
                     for _ in range(2))
    merge = Consolidator._merge

    def racing(self: Consolidator, namespace: str, group: list[Any], report: Any) -> None:
        if change == "update":
            engine.update(second, {"content": "The team deploys to production on Thursdays, since the freeze."},
                          "ops", actor="token:w2")
        else:
            engine.forget(second, "wrong", "ops", actor="token:w2")
        merge(self, namespace, group, report)

    monkeypatch.setattr(Consolidator, "_merge", racing)
    report = engine.consolidate("ops", "token:w")
    assert report.merged_ids == [] and report.deprecated_ids == []  # main: one merged, both deprecated
    assert len(report.changed) == 1 and sorted(report.changed[0]) == sorted([first, second])
    assert engine.get(first, "ops").status == Status.active
    kept = engine.get(second, "ops")
    assert kept.status == (Status.active if change == "update" else Status.forgotten)
    assert engine.stats("ops").total == 2  # no merged memory written
    monkeypatch.setattr(Consolidator, "_merge", merge)
    if change == "forget":  # the next run judges the namespace as it is: nothing left to merge
        assert engine.consolidate("ops", "token:w").merged_ids == []


class EchoLLM:
    """A configured LLM that answers a consolidation with its inputs, one per line (what a summary keeps)."""

    def complete(self, system: str, user: str, max_tokens: int = 400) -> str | None:
        return " ".join(line.removeprefix("- ") for line in user.splitlines())


def test_an_episode_erased_since_the_scan_is_not_promoted_into_a_new_memory(quiet_engine: Any,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The promote step has the same gap: an episode erased (`memory_delete`: every copy of its text goes) between
    the scan and its cluster's promotion was still one of the promotion's inputs, so with an LLM configured its text
    was written into a new semantic memory on main (derived_from the erased id), the erasure undone. Now the cluster
    is left for the next run; nothing holds the erased text."""
    from hindsight.consolidate import Consolidator

    engine = quiet_engine
    engine.llm = EchoLLM()
    episode = "Deploying to staging failed because the VPN was not connected."
    ids = [engine.store_many([{"content": episode, "type": "episodic", "namespace": "ops"}], "local")[0].memory_id
           for _ in range(3)]
    engine.update(ids[0], {"content": episode + " Mallory Quint reset the gateway at 04:10."}, "ops")
    promote = Consolidator._promote

    def racing(self: Consolidator, namespace: str, cluster: list[Any], report: Any) -> None:
        engine.delete(ids[0], "ops", actor="token:w2", reason="erase what Mallory did")
        promote(self, namespace, cluster, report)

    monkeypatch.setattr(Consolidator, "_promote", racing)
    report = engine.consolidate("ops", "token:w")
    assert report.clusters_found == 1
    leaked = [r.id for r in engine.list(namespace="ops", limit=50)[0] if "Mallory" in r.content]
    assert leaked == []  # main: the promoted memory
    assert report.promoted_ids == [] and len(report.changed) == 1
