"""Property: over random operation sequences, no principal reads or changes a namespace it holds no scope over.

Runs the real MCP tools in memory (FastMCP client <-> server, no network) with a gate whose principal the
test switches between calls, and checks every call against an independent model of what is allowed.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from fastmcp import Client
from fastmcp.exceptions import ToolError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.security.principal import Principal, Scope
from hindsight.server.mcp_server import Gate, build_server

NAMESPACES = ["alice", "bob", "team"]
PRINCIPALS = [
    Principal("alice-rw", frozenset({Scope.write}), frozenset({"alice"})),
    Principal("alice-ro", frozenset({Scope.read}), frozenset({"alice"})),
    Principal("bob-rw", frozenset({Scope.write}), frozenset({"bob"})),
    Principal("team-admin", frozenset({Scope.admin}), frozenset({"team"})),
    Principal("nobody", frozenset({Scope.read}), frozenset()),
]
OPS = {  # tool -> scope it needs
    "memory_store": Scope.write, "memory_search": Scope.read, "memory_get": Scope.read, "memory_list": Scope.read,
    "memory_update": Scope.write, "memory_forget": Scope.write, "memory_delete": Scope.admin,
    "memory_history": Scope.read,
}


class SwitchableGate(Gate):
    def __init__(self) -> None:
        super().__init__(audit=None, auth_enabled=True)
        self.current = PRINCIPALS[0]

    def principal(self) -> Principal:
        return self.current


def _snapshot(engine: MemoryEngine, namespace: str) -> list[tuple]:
    return sorted((r.id, r.content, r.status.value, r.importance) for r in engine.store.iter_all(namespace))


operation = st.tuples(st.sampled_from(PRINCIPALS), st.sampled_from(sorted(OPS)), st.sampled_from(NAMESPACES),
                      st.integers(min_value=0, max_value=5))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(operation, min_size=5, max_size=25))
def test_no_cross_namespace_access(tmp_path: Path, embedder: Embedder, ops: list) -> None:
    db = tmp_path / f"prop-{abs(hash(tuple(map(str, ops))))}.db"
    engine = MemoryEngine.open(db, HindsightSettings(db=db), embedder)
    # seed each namespace with one memory, as the owner
    seeded = {ns: engine.store_memory({"content": f"seed memory of {ns}", "namespace": ns}).memory_id for ns in NAMESPACES}
    ids: list[str] = list(seeded.values())
    gate = SwitchableGate()
    server = build_server(engine, gate=gate)

    async def run() -> None:
        async with Client(server) as client:
            for principal, tool, namespace, pick in ops:
                gate.current = principal
                allowed = principal.allows(OPS[tool], namespace)
                target = ids[pick % len(ids)]
                args = {"namespace": namespace}
                if tool == "memory_store":
                    args["content"] = f"written by {principal.name}"
                elif tool in ("memory_search",):
                    args["query"] = "seed memory"
                elif tool == "memory_update":
                    args.update(memory_id=target, updates={"importance": 0.9})
                elif tool == "memory_delete":
                    args.update(memory_id=target, confirm=True)
                elif tool in ("memory_get", "memory_forget", "memory_history"):
                    args["memory_id"] = target
                others = {ns: _snapshot(engine, ns) for ns in NAMESPACES if ns != namespace}
                before_this = _snapshot(engine, namespace)
                try:
                    result = await client.call_tool(tool, args)
                    data = result.data if hasattr(result, "data") else None
                    assert allowed, f"{principal.name} was allowed {tool} on {namespace}"
                    if tool == "memory_store":
                        ids.append(data["memory_id"])
                    if tool == "memory_search":
                        assert all(r["namespace"] == namespace for r in data["results"])
                    if tool == "memory_list":
                        assert all(m["namespace"] == namespace for m in data["memories"])
                except ToolError as exc:
                    if not allowed:
                        assert "permission_denied" in str(exc)
                        assert _snapshot(engine, namespace) == before_this
                    else:  # allowed but e.g. the id lives in another namespace: must be not_found, never a leak
                        assert "not_found" in str(exc) or "invalid_input" in str(exc), str(exc)
                # whatever happened, no other namespace changed
                for ns, snap in others.items():
                    assert _snapshot(engine, ns) == snap, f"{principal.name} {tool} on {namespace} changed {ns}"

    try:
        asyncio.run(run())
    finally:
        engine.close()
