"""Scoped bearer tokens over real streamable HTTP: 401 without a live token, scope and namespace enforced per tool."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import httpx
import pytest
from anyio.from_thread import start_blocking_portal
from fastmcp import Client
from mcp_helpers import SyncMCPClient, create_tokens, http_server

from hindsight.security.audit import AuditLog
from hindsight.security.tokens import TokenStore
from hindsight.storage.factory import open_store

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@contextmanager
def session(url: str, token: str) -> Iterator[SyncMCPClient]:
    client = Client(url, auth=token, timeout=60, init_timeout=60)
    with start_blocking_portal() as portal, portal.wrap_async_context_manager(client):
        yield SyncMCPClient(client, portal)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, dict[str, str], TokenStore]]:
    root = tmp_path_factory.mktemp("sec_http")
    db = root / "memory.db"
    backend = open_store(db)
    named = create_tokens(db, {"admin": (["admin"], ["*"]), "alice-agent": (["write"], ["alice"]),
                               "alice-reader": (["read"], ["alice"]), "bob-agent": (["write"], ["bob"])})
    tokens = {"admin": named["admin"], "alice_rw": named["alice-agent"], "alice_ro": named["alice-reader"],
              "bob_rw": named["bob-agent"]}
    store = TokenStore(backend)
    revoked_secret, revoked_info = store.create("old", ["admin"], ["*"])
    store.revoke(revoked_info.id)
    tokens["revoked"] = revoked_secret
    with http_server(db, root / "server.log") as url:
        yield url, db, tokens, store
    backend.close()


@pytest.mark.parametrize("header", [None, "Bearer hs_not-a-real-token", "Bearer x", "Basic abc"])
def test_missing_or_bad_token_is_401(server: tuple, header: str | None) -> None:
    url = server[0]
    headers = dict(HEADERS, **({"Authorization": header} if header else {}))
    response = httpx.post(url, json=INIT, headers=headers, timeout=30)
    assert response.status_code == 401


def test_revoked_token_is_401(server: tuple) -> None:
    url, _, tokens, _ = server
    response = httpx.post(url, json=INIT, headers=dict(HEADERS, Authorization=f"Bearer {tokens['revoked']}"), timeout=30)
    assert response.status_code == 401


def test_scopes_and_namespaces_are_enforced(server: tuple) -> None:
    url, db, tokens, _ = server
    with session(url, tokens["alice_rw"]) as alice:
        mid = alice.call("memory_store", content="Alice's deploy key lives in vault path kv/alice", namespace="alice")["memory_id"]
        assert alice.call("memory_search", query="deploy key", namespace="alice")["count"] == 1
        assert "permission_denied" in alice.error("memory_search", {"query": "deploy key", "namespace": "bob"})
        assert "permission_denied" in alice.error("memory_delete", {"memory_id": mid, "confirm": True, "namespace": "alice"})
    with session(url, tokens["alice_ro"]) as reader:
        assert reader.call("memory_get", memory_id=mid, namespace="alice")["id"] == mid
        for tool, args in [("memory_store", {"content": "x", "namespace": "alice"}),
                           ("memory_forget", {"memory_id": mid, "namespace": "alice"}),
                           ("memory_update", {"memory_id": mid, "updates": {"importance": 0.1}, "namespace": "alice"})]:
            assert "permission_denied" in reader.error(tool, args)
    with session(url, tokens["bob_rw"]) as bob:
        for tool, args in [("memory_get", {"memory_id": mid, "namespace": "alice"}),
                           ("memory_search", {"query": "deploy key", "namespace": "alice"}),
                           ("memory_list", {"namespace": "alice"}),
                           ("memory_forget", {"memory_id": mid, "namespace": "alice"}),
                           ("memory_stats", {})]:
            assert "permission_denied" in bob.error(tool, args), tool
        # bob's own namespace cannot see alice's memory even by id
        assert "not_found" in bob.error("memory_get", {"memory_id": mid, "namespace": "bob"})
        assert bob.call("memory_search", query="deploy key", namespace="bob")["count"] == 0
    with session(url, tokens["admin"]) as admin:
        memory = admin.call("memory_get", memory_id=mid, namespace="alice")
        assert memory["status"] == "active" and memory["importance"] == 0.5  # nothing denied changed anything
        assert memory["provenance"]["created_by"] == "token:alice-agent"
    with closing(open_store(db)) as backend:
        denied = [e for e in AuditLog(backend).entries(500) if e.outcome == "denied"]
    assert {e.principal for e in denied} == {"token:alice-agent", "token:alice-reader", "token:bob-agent"}
