"""Attack round 20 (docs/security.md "Attack round 20"): what an outside attacker found on the running server.

- A not-found id on PostgreSQL walked the whole namespace: `memory_get` / history / update / forget of an id that is
  no whole id of the namespace asked `ids_with_prefix`, which PostgreSQL answered with the generic walk over every
  memory (content included): ~0.9-1.2 s per call of a read token at 20,000 memories, linear in the namespace.
- /review ran on the server's event loop: an approval applies the change (screening, embedding, hygiene) there, and
  every /mcp call and /healthz waited behind it (3.1 s per approval of a 20,000-character store on the live server).
- A token could not be granted a namespace with combining marks (`हिंदी`, Arabic with harakat) or connector
  punctuation that memories could have: the grant check read the pattern with Python's `\\w`, the write with
  pydantic's.
- A stale `applying` claim of an update or forget proposal whose change had landed could be rejected after the lease,
  leaving the applied change under a rejected proposal (round 19 fixed it for stores).
"""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pydantic import ValidationError

from hindsight.engine import MemoryEngine
from hindsight.errors import AlreadyDecidedError
from hindsight.model import MemoryInput, MemoryRecord
from hindsight.review.claims import proposer_actor
from hindsight.review.queue import ReviewQueue
from hindsight.review.service import ReviewService
from hindsight.security.namespace_names import grant_problem
from hindsight.security.tokens import TokenStore
from hindsight.server.mcp_server import build_server

# --- a prefix lookup on PostgreSQL -------------------------------------------------------------------------------


def test_a_postgres_id_lookup_never_walks_the_namespace_and_takes_no_wildcards(pg_url: str,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    from hindsight.storage.postgres_store import PostgresStore

    store = PostgresStore(pg_url)
    try:
        vec = np.ones(8, dtype=np.float32) / np.sqrt(8)
        store.insert_many([(MemoryRecord(id=ident, content=f"note {ident}", namespace="ops"), vec)
                           for ident in ("mem_a_b1", "mem_axb2", "mem_a%c3", "mem_a\\d4")]
                          + [(MemoryRecord(id="mem_a_b9", content="elsewhere", namespace="bob"), vec)], actor="t")

        def walked(*args: Any, **kwargs: Any) -> Any:
            raise AssertionError("the lookup read every memory of the namespace")

        monkeypatch.setattr(store, "iter_all", walked)
        assert store.ids_with_prefix("mem_zzz", "ops", 3) == []
        assert store.ids_with_prefix("mem_a_", "ops", 3) == ["mem_a_b1"], "'_' is no wildcard"
        assert store.ids_with_prefix("mem_a%", "ops", 3) == ["mem_a%c3"], "'%' is no wildcard"
        assert store.ids_with_prefix("mem_a\\", "ops", 3) == ["mem_a\\d4"]
        assert len(store.ids_with_prefix("mem_a", "ops", 2)) == 2, "at most the limit"
        assert store.ids_with_prefix("mem_a_b", "bob", 3) == ["mem_a_b9"], "one namespace only"
    finally:
        store.close()


# --- /review off the event loop ----------------------------------------------------------------------------------


def _review_server(engine: MemoryEngine) -> tuple[Any, ReviewService]:
    from starlette.testclient import TestClient

    review = ReviewService(engine, ReviewQueue(engine.store), "kb")
    return TestClient(build_server(engine, review=review).http_app(), base_url="http://127.0.0.1"), review


def _held_while(client: Any, started: threading.Event, answered: threading.Event, request: Any) -> int:
    out: dict[str, int] = {}
    worker = threading.Thread(target=lambda: out.update(status=request().status_code))
    worker.start()
    assert started.wait(timeout=60), "the review request never reached its engine call"
    if client.get("/healthz").status_code == 200:
        answered.set()
    worker.join(timeout=60)
    return out.get("status", 0)


def _slowed(monkeypatch: pytest.MonkeyPatch, review: ReviewService,
            method: str) -> tuple[threading.Event, threading.Event, dict[str, bool]]:
    """`review.METHOD` made to wait (up to 20 s) until /healthz has answered: (started, answered, seen), where
    seen["other_answered_meanwhile"] says whether it answered while the call was held."""
    started, answered = threading.Event(), threading.Event()
    seen: dict[str, bool] = {}
    real = getattr(review, method)

    def slow(*args: Any, **kwargs: Any) -> Any:
        started.set()
        seen["other_answered_meanwhile"] = answered.wait(timeout=20)
        return real(*args, **kwargs)

    monkeypatch.setattr(review, method, slow)
    return started, answered, seen


def test_a_review_decision_does_not_hold_the_servers_other_requests(bag_engine: MemoryEngine,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """An approval on /review applied its change on the server's loop: /healthz and every MCP call waited."""
    client, review = _review_server(bag_engine)
    pid = review.store({"content": "The staging database listens on port 5433.", "namespace": "kb"},
                       "token:agent")["proposal_id"]
    started, answered, seen = _slowed(monkeypatch, review, "approve")
    with client:
        page = client.get("/review")
        csrf = re.findall(r"name='csrf' value='([0-9a-f]+)'", page.text)[0]
        status = _held_while(client, started, answered, lambda: client.post(
            f"/review/{pid}/approve", data={"csrf": csrf}, headers={"Origin": "http://127.0.0.1"},
            follow_redirects=False))
    assert status == 303
    assert seen.get("other_answered_meanwhile") is True, "/healthz waited for the approval"
    assert review.queue.get(pid).status == "approved"


def test_the_review_page_does_not_hold_the_servers_other_requests(bag_engine: MemoryEngine,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    client, review = _review_server(bag_engine)
    review.store({"content": "The staging database listens on port 5433.", "namespace": "kb"}, "token:agent")
    started, answered, seen = _slowed(monkeypatch, review, "pending")
    with client:
        assert _held_while(client, started, answered, lambda: client.get("/review")) == 200
    assert seen.get("other_answered_meanwhile") is True, "/healthz waited for the review page"


# --- namespaces a token can be granted ---------------------------------------------------------------------------

MARKED = [pytest.param("हिंदी", id="devanagari"), pytest.param("ที่นี่", id="thai"),
          pytest.param("عَرَبِيّ", id="arabic-harakat"), pytest.param("ops\u203fkb", id="connector")]


@pytest.mark.parametrize("name", MARKED)
def test_a_token_can_be_granted_a_namespace_a_memory_can_have(bag_engine: MemoryEngine, name: str) -> None:
    MemoryInput(content="Standup moved to 10:00.", namespace=name)  # a memory can have it
    assert grant_problem(name) is None
    _, info = TokenStore(bag_engine.store).create("team", ["read"], [name])
    assert list(info.namespaces) == [name]


@pytest.mark.parametrize("name", ["op\ufe0fs", "a\u200db", "a b", "a,b", "x" * 129, "ｏｐｓ", "²ops"])
def test_a_name_no_memory_can_have_is_still_refused_to_a_token(name: str) -> None:
    """Pin: a grant and a write agree both ways (also on names Python's `\\w` admits and pydantic's does not)."""
    with pytest.raises(ValidationError):
        MemoryInput(content="Standup moved to 10:00.", namespace=name)
    assert grant_problem(name) is not None


def test_grant_and_write_agree_on_every_character() -> None:
    from hindsight.security.namespace_names import namespace_problem

    differ = []
    for cp in [*range(0x20, 0x3000), *range(0xA000, 0xAB00), *range(0xFB00, 0xFFFE)]:
        if 0xD800 <= cp < 0xE000:
            continue
        name = "a" + chr(cp)
        try:
            MemoryInput(content="x", namespace=name)
            writable = True
        except ValidationError:
            writable = False
        if writable != (grant_problem(name) is None) and not (not writable and namespace_problem(name)):
            differ.append(hex(cp))
    assert not differ, differ[:20]


# --- a stale claim of an update or forget ------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["update", "forget"])
def test_a_rejection_after_an_update_or_forget_was_applied_is_already_decided(bag_engine: MemoryEngine,
                                                                              action: str) -> None:
    review = ReviewService(bag_engine, ReviewQueue(bag_engine.store), "kb")
    memory_id = bag_engine.store_memory({"content": "The staging database listens on port 5433.",
                                         "namespace": "kb"}).memory_id

    def propose(n: int) -> str:
        if action == "update":
            return str(review.update(memory_id, {"content": f"The staging database listens on port 65{n}."}, "kb",
                                     "token:agent")["proposal_id"])
        return str(review.forget(memory_id, f"obsolete {n}", "kb", "token:agent")["proposal_id"])

    review.approve(propose(1), "token:alice")  # an approval recorded as usual
    assert review.reject(propose(2), "token:alice")["proposal"]["status"] == "rejected", "a plain rejection"
    pid = propose(3)
    claimed = review.queue.claim(pid)
    review._apply(claimed, proposer_actor("token:agent (approved by token:alice)", claimed))  # then the server died
    review.queue.release_stale(lease_s=0.0, proposal_id=pid)
    before = bag_engine.history(memory_id, "kb")
    with pytest.raises(AlreadyDecidedError, match="already applied"):
        review.reject(pid, "token:alice")
    assert review.queue.get(pid).status == "pending" and bag_engine.history(memory_id, "kb") == before
    assert review.approve(pid, "token:bob")["proposal"]["status"] == "approved"


def test_a_rejection_without_a_landed_change_still_rejects(bag_engine: MemoryEngine) -> None:
    """Pin: a stale claim whose apply never ran is rejected as before."""
    review = ReviewService(bag_engine, ReviewQueue(bag_engine.store), "kb")
    memory_id = bag_engine.store_memory({"content": "The staging database listens on port 5433.",
                                         "namespace": "kb"}).memory_id
    pid = review.update(memory_id, {"content": "The staging database listens on port 6543."}, "kb",
                        "token:agent")["proposal_id"]
    review.queue.claim(pid)
    review.queue.release_stale(lease_s=0.0, proposal_id=pid)
    assert review.reject(pid, "token:alice")["proposal"]["status"] == "rejected"


# --- an oversized write and the client's queue -------------------------------------------------------------------

#: the MCP endpoint's body limit (the MCP SDK's)
MAX_MCP_BYTES = 4 * 1024 * 1024


def test_an_mcp_body_past_the_limit_is_a_json_rpc_invalid_input(bag_engine: MemoryEngine) -> None:
    """The MCP SDK's own 413 was plain text, which MCP clients surface as "Server returned an error response"."""
    from starlette.middleware import Middleware
    from starlette.testclient import TestClient

    from hindsight.security.http_guard import AuthPolicy, HTTPGuard, default_allowed_hosts

    tokens = TokenStore(bag_engine.store)
    secret = tokens.create("writer", ["write"], ["ops"])[0]
    policy = AuthPolicy(tokens)  # the front door as `hindsight serve --transport http` runs it
    guard = Middleware(HTTPGuard, policy=policy, allowed_hosts=default_allowed_hosts("127.0.0.1"))
    app = build_server(bag_engine, tokens=tokens, policy=policy).http_app(middleware=[guard])
    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": "memory_store", "arguments": {"content": "x" * (MAX_MCP_BYTES + 10)}}})
    headers = {"content-type": "application/json", "accept": "application/json, text/event-stream"}
    with TestClient(app, base_url="http://127.0.0.1") as client:
        assert client.post("/mcp", content=body, headers=headers).status_code == 401, "no token: 401 first"
        answer = client.post("/mcp", content=body, headers={**headers, "authorization": f"Bearer {secret}"})
    assert answer.status_code == 413
    error = answer.json()["error"]
    assert error["code"] == -32600 and error["message"].startswith("invalid_input: request: ")
    assert "x" * 20 not in error["message"]
    assert bag_engine.stats().total == 0


def test_an_oversized_write_is_refused_at_once_and_never_blocks_the_queue(tmp_path: Path) -> None:
    """A real server and the resilient client: a write past the body limit was queued as "no answer" and retried
    for ever (25 tries on the live server, 0 refusals counted), and every later write waited behind it."""
    import subprocess

    from mcp.shared.exceptions import MCPError
    from mcp_helpers import ROOT, child_env, free_port, serve_argv, stop_process, wait_for_port

    from hindsight.client import ResilientClient

    db, log, port = tmp_path / "memory.db", tmp_path / "server.log", free_port()
    client = ResilientClient(f"http://127.0.0.1:{port}/mcp", tmp_path / "queue.db", timeout=30, backoff_base=0.05,
                             backoff_max=0.3, auto_flush=False)
    huge = "deploy note " * (MAX_MCP_BYTES // 12 + 10)
    server = None
    try:
        assert client.store(huge)["queued"] is True  # the server is not there yet: queued as unconfirmed
        assert client.store("The ops runbook lives in the wiki.")["queued"] is True
        server = subprocess.Popen(serve_argv(db, "http", port), stdin=subprocess.DEVNULL, stdout=log.open("ab"),
                                  stderr=subprocess.STDOUT, env=child_env(HINDSIGHT_HYGIENE="false"), cwd=str(ROOT))
        wait_for_port(port, server, log)
        assert client.flush(attempts=2) == 1, "the write behind the oversized one was delivered"
        dead = client.dead_letters()
        assert len(dead) == 1 and "invalid_input: request:" in dead[0]["error"]
        with pytest.raises(MCPError, match="invalid_input: request:"):  # sent now: refused, not queued
            client.store(huge)
        assert client.status().queue_length == 0
        assert client.store("Rollbacks need the on-call lead.")["action"] == "created"
    finally:
        client.close()
        if server is not None:
            stop_process(server)
