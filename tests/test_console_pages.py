"""The console's pages in process (Starlette's test client on the server's real HTTP app): auth, CSRF, scope,
escaping, paging, filters and language, without a browser (the Chromium tests cover the flows)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.security.tokens import TokenStore
from hindsight.server.mcp_server import build_server


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory, embedder: Any) -> Iterator[dict[str, Any]]:
    db = tmp_path_factory.mktemp("pages") / "memory.db"
    engine = MemoryEngine.open(db, HindsightSettings(db=db, hygiene=False), embedder=embedder)
    engine.store_many([{"content": f"Runbook step {i}: check shard {i}", "namespace": "bulk"} for i in range(55)])
    evil = engine.store_memory({"content": "<img src=x onerror=alert(1)> 'quoted' & \"double\"", "namespace": "team",
                                "session_id": "s-42"}).memory_id
    plain = engine.store_memory({"content": "Grafana dashboards live in the ops repo", "namespace": "team"}).memory_id
    tokens = TokenStore.open(db)
    admin, _ = tokens.create("alice", ["admin"], ["*"])
    reader, _ = tokens.create("rita", ["read"], ["team"])
    with TestClient(build_server(engine, tokens=tokens).http_app(), base_url="http://127.0.0.1") as client:
        yield {"client": client, "engine": engine, "admin": admin, "reader": reader, "evil": evil, "plain": plain}
    tokens.close()
    engine.close()


def _login(client: TestClient, token: str) -> None:
    client.cookies.clear()
    response = client.post("/console/login", data={"token": token}, follow_redirects=False)
    assert response.status_code == 303 and "httponly" in response.headers["set-cookie"].lower()
    assert "samesite=strict" in response.headers["set-cookie"].lower()


def _csrf(html: str) -> str:
    found = re.search(r"name='csrf' value='([0-9a-f]+)'", html)
    assert found, "no CSRF field on the page"
    return found.group(1)


def test_sign_in_required_and_bad_tokens_refused(setup: dict[str, Any]) -> None:
    client = setup["client"]
    client.cookies.clear()
    assert client.get("/console").status_code == 401
    assert client.post("/console/login", data={"token": "hs_wrong"}).status_code == 403
    _login(client, setup["reader"])
    page = client.get("/console?ns=team")
    assert page.status_code == 200 and "Content-Security-Policy" in page.headers
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/console?ns=bulk").status_code == 403  # a read token for 'team' only


def test_stored_text_is_escaped(setup: dict[str, Any]) -> None:
    client = setup["client"]
    _login(client, setup["admin"])
    for url in ("/console?ns=team", f"/console/memory/{setup['evil']}?ns=team"):
        html = client.get(url).text
        assert "<img src=x" not in html and "&lt;img src=x onerror=alert(1)&gt;" in html


def test_csrf_and_scope_guard_every_change(setup: dict[str, Any]) -> None:
    client, engine, mid = setup["client"], setup["engine"], setup["plain"]
    _login(client, setup["reader"])
    token = _csrf(client.get(f"/console/memory/{mid}?ns=team").text)
    denied = client.post(f"/console/memory/{mid}/forget", data={"ns": "team", "csrf": token})
    assert denied.status_code == 403  # read scope cannot change anything
    _login(client, setup["admin"])
    forged = client.post(f"/console/memory/{mid}/forget", data={"ns": "team", "csrf": token})
    assert forged.status_code == 403  # another session's token does not work
    assert client.post(f"/console/memory/{mid}/forget", data={"ns": "team"}).status_code == 403
    assert engine.get(mid, "team").status.value == "active"
    good = _csrf(client.get(f"/console/memory/{mid}?ns=team").text)
    done = client.post(f"/console/memory/{mid}/forget", data={"ns": "team", "csrf": good, "reason": "moved"},
                       follow_redirects=False)
    assert done.status_code == 303
    assert engine.get(mid, "team").status.value == "forgotten"
    assert engine.history(mid, "team")[-1].actor == "token:alice"
    restored = client.post(f"/console/memory/{mid}/restore", data={"ns": "team", "csrf": good}, follow_redirects=False)
    assert restored.status_code == 303 and engine.get(mid, "team").status.value == "active"


def test_paging_filters_and_language(setup: dict[str, Any]) -> None:
    client = setup["client"]
    _login(client, setup["admin"])
    first = client.get("/console?ns=bulk").text
    assert first.count("class='hit'") == 50 and "55 memories" in first
    next_link = re.search(r"id='next' href='([^']+)'", first)
    assert next_link is not None
    second = client.get(next_link.group(1).replace("&amp;", "&")).text
    assert second.count("class='hit'") == 5
    by_session = client.get("/console?ns=team&session=s-42").text
    assert setup["evil"] in by_session and setup["plain"] not in by_session
    bad = client.get("/console?ns=team&from=not-a-date").text
    assert "from: expected a date" in bad
    assert "浏览" in client.get("/console?ns=team&lang=zh").text
    toggled = client.get("/console/lang?to=zh&next=https://evil.example/", follow_redirects=False)
    assert toggled.headers["location"] == "/console"  # never an open redirect
