"""Console steps the attack-round tests share: sign in with a token, read the queue page, post a release."""

from __future__ import annotations

import re

from starlette.testclient import TestClient


def release_on_queue_page(client: TestClient, token: str, memory_id: str, ns: str,
                          page: str = "/console/queues") -> tuple[bool, int]:
    """Sign in with `token`, open `page`, post a release of `memory_id` anyway; returns (whether the page offered
    Release in its quarantine section, the post's status code)."""
    client.cookies.clear()
    assert client.post("/console/login", data={"token": token}, follow_redirects=False).status_code == 303
    html = client.get(page).text
    offered = "class='approve'" in html.split("id='quarantine'")[1]
    csrf = re.search(r"name='csrf' value='([0-9a-f]+)'", html)
    assert csrf, "no CSRF field on the page"
    answer = client.post(f"/console/quarantine/{memory_id}/release",
                         data={"ns": ns, "note": "fine", "csrf": csrf.group(1)}, follow_redirects=False)
    return offered, answer.status_code
