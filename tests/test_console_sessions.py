"""The console's sessions across servers and transports (attack round 9, "left"): a form rendered by one server
is accepted by another server on the same store (the CSRF key is kept in the store, not per process), and the
sign-in cookies of /console and /review are Secure over https while plain-http loopback use keeps working."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.security.tokens import TokenStore
from hindsight.server.mcp_server import build_server


@pytest.fixture()
def two_servers(tmp_path: Path, embedder: Any) -> Iterator[dict[str, Any]]:
    db = tmp_path / "memory.db"
    engines = [MemoryEngine.open(db, HindsightSettings(db=db, hygiene=False), embedder=embedder) for _ in range(2)]
    mid = engines[0].store_memory({"content": "Grafana dashboards live in the ops repo", "namespace": "team"}).memory_id
    tokens = [TokenStore.open(db) for _ in range(2)]
    admin, _ = tokens[0].create("alice", ["admin"], ["*"])
    apps = [build_server(engine, tokens=store).http_app() for engine, store in zip(engines, tokens)]
    yield {"apps": apps, "admin": admin, "mid": mid, "engine": engines[1]}
    for store in tokens:
        store.close()
    for engine in engines:
        engine.close()


def _csrf(html: str) -> str:
    found = re.search(r"name='csrf' value='([0-9a-f]+)'", html)
    assert found, "no CSRF field on the page"
    return found.group(1)


def test_a_form_from_one_server_is_accepted_by_another(two_servers: dict[str, Any]) -> None:
    mid, admin = two_servers["mid"], two_servers["admin"]
    first_app, second_app = two_servers["apps"]
    with TestClient(first_app, base_url="http://127.0.0.1") as first, \
            TestClient(second_app, base_url="http://127.0.0.1") as second:
        assert first.post("/console/login", data={"token": admin}, follow_redirects=False).status_code == 303
        token = _csrf(first.get(f"/console/memory/{mid}?ns=team").text)
        second.cookies.update(first.cookies)  # the load balancer sends the next request to the other server
        done = second.post(f"/console/memory/{mid}/forget", data={"ns": "team", "csrf": token, "reason": "moved"},
                           follow_redirects=False)
        assert done.status_code == 303
        assert second.post(f"/console/memory/{mid}/restore", data={"ns": "team", "csrf": "0" * 40},
                           follow_redirects=False).status_code == 403  # a wrong field is still refused
    assert two_servers["engine"].get(mid, "team").status.value == "forgotten"


@pytest.mark.parametrize(("page", "scheme", "secure"), [
    ("console", "https", True), ("console", "http", False), ("review", "https", True), ("review", "http", False)])
def test_sign_in_cookie_is_secure_over_https(two_servers: dict[str, Any], page: str, scheme: str, secure: bool) -> None:
    with TestClient(two_servers["apps"][0], base_url=f"{scheme}://127.0.0.1") as client:
        response = client.post(f"/{page}/login", data={"token": two_servers["admin"]}, follow_redirects=False)
        cookie = response.headers["set-cookie"].lower()
        assert response.status_code == 303 and "httponly" in cookie and "samesite=strict" in cookie
        assert ("; secure" in cookie) is secure
        assert client.get(f"/{page}").status_code == 200  # the browser sends the cookie back: signed in

