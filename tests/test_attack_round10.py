"""Findings of the tenth outside attack, each reproduced through the interface it used (the web console and /review
over HTTP, the server's own log, `hindsight migrate`):

1. The sign-in cookie of /console and /review held the bearer token itself: whoever read the cookie (a browser
   profile, a cookie jar, a proxy log) held an MCP token, and sign-out only asked the browser to forget it, so a
   copied cookie kept working until the token was revoked. Now the cookie holds an opaque session id, the store
   keeps its hash (`console_sessions`), sign-out ends it for every server, and revoking the token ends them all.
2. Console search words were written to the HTTP access log (`GET /console?q=...`), private memories' words too
   when that is what a person searched for.
3. `hindsight migrate` left the store's meta table behind: the console's CSRF key was not copied, so every
   form open in a browser was refused (403) by the servers of the migrated store.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp_helpers import create_tokens, http_server
from starlette.testclient import TestClient

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.security.tokens import TokenStore
from hindsight.server.mcp_server import build_server
from hindsight.storage.factory import open_store
from hindsight.storage.transfer import migrate_store


@pytest.fixture()
def console(tmp_path: Path, embedder: Any) -> Iterator[dict[str, Any]]:
    db = tmp_path / "memory.db"
    engine = MemoryEngine.open(db, HindsightSettings(db=db, hygiene=False), embedder=embedder)
    mid = engine.store_memory({"content": "Grafana dashboards live in the ops repo", "namespace": "team"}).memory_id
    tokens = TokenStore.open(db)
    admin, info = tokens.create("alice", ["admin"], ["team"])
    app = build_server(engine, tokens=tokens).http_app()
    yield {"app": app, "admin": admin, "admin_id": info.id, "mid": mid, "tokens": tokens}
    tokens.close()
    engine.close()


def _sign_in(client: TestClient, page: str, token: str) -> str:
    response = client.post(f"/{page}/login", data={"token": token}, follow_redirects=False)
    assert response.status_code == 303, response.text[:300]
    found = re.search(rf"hindsight_{page}=([^;]+);", response.headers["set-cookie"])
    assert found, response.headers["set-cookie"]
    return found.group(1)


def _csrf(html: str) -> str:
    found = re.search(r"name='csrf' value='([0-9a-f]+)'", html)
    assert found, "no CSRF field on the page"
    return found.group(1)


# ------------------------------------------------------------------ 1. the cookie is a session, not the token
@pytest.mark.parametrize("page", ["console", "review"])
def test_the_sign_in_cookie_holds_no_bearer_token(console: dict[str, Any], page: str) -> None:
    with TestClient(console["app"], base_url="http://127.0.0.1") as client:
        cookie = _sign_in(client, page, console["admin"])
        assert console["admin"] not in cookie and cookie.startswith("hss_"), cookie
        assert client.get(f"/{page}").status_code == 200  # the session signs the browser in
        # the cookie's value is no credential anywhere else: not a bearer token for the pages or for /mcp
        assert client.get(f"/{page}", headers={"Authorization": f"Bearer {cookie}"},
                          cookies={}).status_code == 401
        mcp = client.post("/mcp", headers={"Authorization": f"Bearer {cookie}", "Accept": "application/json, "
                                           "text/event-stream"}, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert mcp.status_code == 401


def test_sign_out_ends_the_session_for_a_copied_cookie(console: dict[str, Any]) -> None:
    with TestClient(console["app"], base_url="http://127.0.0.1") as browser, \
            TestClient(console["app"], base_url="http://127.0.0.1") as thief:
        cookie = _sign_in(browser, "console", console["admin"])
        thief.cookies.set("hindsight_console", cookie, path="/console")  # a copy of the cookie, taken earlier
        assert thief.get("/console").status_code == 200
        csrf = _csrf(browser.get("/console").text)
        assert browser.post("/console/logout", data={"csrf": csrf}, follow_redirects=False).status_code == 303
        assert thief.get("/console").status_code == 401  # the session ended on the server, not only in the browser
        assert thief.get(f"/console/memory/{console['mid']}?ns=team").status_code == 401


def test_revoking_the_token_ends_its_sessions(console: dict[str, Any]) -> None:
    with TestClient(console["app"], base_url="http://127.0.0.1") as client:
        _sign_in(client, "console", console["admin"])
        _sign_in(client, "review", console["admin"])
        assert client.get("/console").status_code == 200 and client.get("/review").status_code == 200
        assert console["tokens"].revoke(console["admin_id"])
        assert client.get("/console").status_code == 401 and client.get("/review").status_code == 401


def test_a_session_expires_and_an_unknown_id_is_nobody(console: dict[str, Any]) -> None:
    from hindsight.security.sessions import SessionStore  # new in this round

    sessions = SessionStore(console["tokens"].store)
    live, expired = sessions.start(console["admin"]), sessions.start(console["admin"], ttl_s=-1.0)
    assert sessions.principal(live) is not None and sessions.principal(live).name == "token:alice"  # type: ignore[union-attr]
    assert sessions.principal(expired) is None
    assert sessions.principal(console["admin"]) is None  # a token is not a session id
    assert sessions.principal("hss_" + "A" * 43) is None
    assert sessions.end(live) and sessions.principal(live) is None and not sessions.end(live)
    # the store keeps hashes only: neither the token nor the session id is in it
    rows = console["tokens"].store._aux_rows("SELECT id_hash, token_hash FROM console_sessions")
    assert rows and all(live not in str(r) and console["admin"] not in str(r) for r in rows)
    # signing in again and again keeps a bounded number of sessions; the oldest ends
    first = sessions.start(console["admin"])
    for _ in range(25):
        newest = sessions.start(console["admin"])
    assert len(console["tokens"].store._aux_rows("SELECT id_hash FROM console_sessions")) == 20
    assert sessions.principal(first) is None and sessions.principal(newest) is not None


# ------------------------------------------------------------------ 2. search words in the access log
def test_console_search_words_stay_out_of_the_access_log(tmp_path: Path) -> None:
    db, log = tmp_path / "memory.db", tmp_path / "server.log"
    tokens = create_tokens(db, {"reader": (["read"], ["team"])})
    with http_server(db, log) as url:
        base = url.removesuffix("/mcp")
        page = httpx.get(f"{base}/console", params={"ns": "team", "q": "kestrel divorce lawyer"}, timeout=60,
                         headers={"Authorization": f"Bearer {tokens['reader']}"})
        assert page.status_code == 200
        assert httpx.get(f"{base}/console/memory/mem_x", params={"ns": "team"}, timeout=60).status_code == 401
    text = log.read_text(encoding="utf-8", errors="replace")
    assert "GET /console?" in text and "GET /console/memory/mem_x?" in text  # the requests are logged ...
    assert "kestrel" not in text and "divorce" not in text and "ns=team" not in text  # ... without their query


# ------------------------------------------------------------------ 3. migrate carries the per-store secrets
def test_migrate_carries_the_consoles_csrf_key(tmp_path: Path, embedder: Any) -> None:
    src_db, dst_db = tmp_path / "old.db", tmp_path / "new.db"
    engine = MemoryEngine.open(src_db, HindsightSettings(db=src_db, hygiene=False), embedder=embedder)
    engine.store_memory({"content": "Grafana dashboards live in the ops repo", "namespace": "team"})
    tokens = TokenStore(engine.store)
    admin, _ = tokens.create("alice", ["admin"], ["team"])
    with TestClient(build_server(engine, tokens=tokens).http_app(), base_url="http://127.0.0.1") as old:
        _sign_in(old, "console", admin)
        csrf = _csrf(old.get("/console").text)  # a form open in the browser during the move
        header_csrf = _csrf(old.get("/console", headers={"Authorization": f"Bearer {admin}"}).text)
    secret = engine.store.kept_secret("console_secret")
    engine.close()
    src, dst = open_store(src_db), open_store(dst_db)
    try:
        assert migrate_store(src, dst).verified
        assert dst.kept_secret("console_secret") == secret
    finally:
        src.close()
        dst.close()
    moved = MemoryEngine.open(dst_db, HindsightSettings(db=dst_db, hygiene=False), embedder=embedder)
    try:
        with TestClient(build_server(moved, tokens=TokenStore(moved.store)).http_app(),
                        base_url="http://127.0.0.1") as new:
            page = new.get("/console", headers={"Authorization": f"Bearer {admin}"})
            assert _csrf(page.text) == header_csrf  # the same key signs the same session's forms
            assert csrf  # (a cookie session is not copied: the person signs in again)
    finally:
        moved.close()


def test_sessions_and_the_kept_secret_on_postgresql(tmp_path: Path, pg_url: str) -> None:
    from hindsight.security.sessions import SessionStore  # new in this round

    src_db = tmp_path / "old.db"
    src = open_store(src_db)
    secret = src.kept_secret("console_secret")
    pg = open_store(pg_url)
    try:
        assert migrate_store(src, pg).verified
        assert pg.kept_secret("console_secret") == secret  # copied into hindsight_meta
        tokens = TokenStore(pg)
        token, info = tokens.create("alice", ["admin"], ["team"])
        sessions = SessionStore(pg)
        session = sessions.start(token)
        who = sessions.principal(session)
        assert who is not None and who.name == "token:alice"
        assert sessions.principal(sessions.start(token, ttl_s=-1.0)) is None
        assert tokens.revoke(info.id) and sessions.principal(session) is None
        assert sessions.end(session) and not sessions.end(session)
    finally:
        src.close()
        pg.close()
