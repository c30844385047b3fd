"""Issue 9 items 7 and 9 over a real `hindsight serve --transport http`: DNS rebinding and per-request auth."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from mcp_helpers import http_server, mcp_session, read_log

from hindsight.security.tokens import TokenStore
from hindsight.storage.factory import open_store

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture(scope="module")
def open_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    root = tmp_path_factory.mktemp("front_door")
    log = root / "server.log"
    with http_server(root / "memory.db", log, env={"HINDSIGHT_ALLOWED_HOSTS": "memory.internal"}) as url:
        yield url, log


def post(url: str, **headers: str) -> httpx.Response:
    return httpx.post(url, json=INIT, headers={**HEADERS, **headers}, timeout=30)


# ------------------------------------------------------------------ item 7
@pytest.mark.parametrize("route", ["/mcp", "/review"])
def test_a_foreign_host_is_refused_on_every_route(open_server: tuple[str, Path], route: str) -> None:
    url = open_server[0].replace("/mcp", route)
    port = urlsplit(url).port
    send = post if route == "/mcp" else (lambda u, **h: httpx.get(u, headers=h, timeout=30))
    assert send(url, Host=f"evil.example:{port}").status_code == 421
    assert send(url, Host="attacker.test").status_code == 421
    assert send(url, Origin="http://evil.example").status_code == 403
    assert send(url, Origin=f"http://evil.example:{port}", Host=f"127.0.0.1:{port}").status_code == 403
    assert send(url).status_code == 200  # loopback Host, no Origin (a local agent)
    assert send(url, Origin=f"http://localhost:{port}").status_code == 200
    assert send(url, Host=f"memory.internal:{port}").status_code == 200  # configured name


def test_a_rebinding_request_stores_nothing(open_server: tuple[str, Path]) -> None:
    url = open_server[0]
    store = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
             "params": {"name": "memory_store", "arguments": {"content": "planted by a web page"}}}
    response = httpx.post(url, json=store, headers={**HEADERS, "Host": "evil.example"}, timeout=30)
    assert response.status_code == 421
    with mcp_session(url) as client:
        assert client.call("memory_search", query="planted by a web page")["count"] == 0


# ------------------------------------------------------------------ item 9
def test_auto_auth_is_decided_per_request(tmp_path: Path) -> None:
    db, log = tmp_path / "memory.db", tmp_path / "server.log"
    with http_server(db, log) as url:
        assert "auth auto, decided per request: open now" in read_log(log)
        assert post(url).status_code == 200
        with mcp_session(url) as early:  # a session opened while the server was open
            early.call("memory_store", content="stored before any token existed")
            backend = open_store(db)  # another process (the CLI) creates the first token
            tokens = TokenStore(backend)
            secret, info = tokens.create("agent", ["write"], ["*"])
            assert post(url).status_code == 401
            with pytest.raises(Exception, match="error|401|nauthori"):  # the open session is closed too
                early.call("memory_list")
        with mcp_session(url, auth=secret) as agent:
            assert agent.call("memory_list")["total"] == 1
        tokens.revoke(info.id)  # revoking every token does not reopen the server
        assert post(url).status_code == 401
        assert post(url, Authorization=f"Bearer {secret}").status_code == 401
        backend.close()
