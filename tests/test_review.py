"""Reviewed namespaces: agent changes wait in a queue until a person approves them.

Service level on a real engine and SQLite file; then end to end: an agent over MCP/HTTP with a write token
proposes, a reviewer signs in to the web console with an admin token and approves.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import AbstractContextManager, closing
from pathlib import Path

import httpx
import pytest
from mcp_helpers import SyncMCPClient, http_server, mcp_session, run_cli

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.errors import InvalidInputError, MemoryNotFoundError
from hindsight.model import Status
from hindsight.review.queue import ProposalDecidedError, ProposalNotFoundError, ReviewQueue
from hindsight.review.service import ReviewService, parse_namespaces
from hindsight.security.tokens import TokenStore
from hindsight.storage.factory import open_store


@pytest.fixture
def reviewed(tmp_path: Path, embedder: Embedder) -> Iterator[ReviewService]:
    settings = HindsightSettings(db=tmp_path / "kb.db")
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=embedder)
    yield ReviewService(engine, ReviewQueue(engine.store), "kb, wiki")
    engine.close()


def test_namespaces_parse_from_a_comma_list() -> None:
    assert parse_namespaces(" kb, wiki ,,") == {"kb", "wiki"}
    assert parse_namespaces("") == frozenset()


@pytest.mark.parametrize("content", ["The deploy runbook lives in docs/deploy.md.", "发布手册在 docs/deploy.md 里。"],
                         ids=["en", "zh"])
def test_store_waits_for_approval_then_goes_through_the_write_path(reviewed: ReviewService, content: str) -> None:
    pending = reviewed.store({"content": content, "namespace": "kb", "type": "semantic"}, "token:agent")
    assert pending["status"] == "pending_review" and pending["namespace"] == "kb"
    assert reviewed.engine.stats("kb").total == 0  # nothing applied yet
    assert [p.id for p in reviewed.pending("kb")] == [pending["proposal_id"]]

    decided = reviewed.approve(pending["proposal_id"], "alice", note="checked")
    memory_id = decided["result"]["memory_id"]
    assert decided["proposal"]["status"] == "approved" and decided["proposal"]["result_memory_id"] == memory_id
    record = reviewed.engine.get(memory_id, "kb")
    assert record.content == content and record.status == Status.active
    history = reviewed.engine.history(memory_id, "kb")
    assert history[0].actor == "token:agent (approved by alice)"
    assert reviewed.pending("kb") == []
    with pytest.raises(ProposalDecidedError):
        reviewed.approve(pending["proposal_id"], "bob")  # a decision is final


def test_update_and_forget_are_proposed_and_rejection_changes_nothing(reviewed: ReviewService) -> None:
    memory_id = reviewed.engine.store_memory({"content": "The staging DB is PostgreSQL 15.", "namespace": "kb",
                                              "type": "semantic"}).memory_id
    update = reviewed.update(memory_id, {"content": "The staging DB is PostgreSQL 16."}, "kb", "token:agent")
    forget = reviewed.forget(memory_id, "obsolete", "kb", "token:agent")
    assert update["status"] == forget["status"] == "pending_review"
    view = reviewed.view(reviewed.queue.get(update["proposal_id"]))
    assert view["current"]["content"] == "The staging DB is PostgreSQL 15."  # shown side by side

    reviewed.reject(forget["proposal_id"], "alice", note="still needed")
    assert reviewed.engine.get(memory_id, "kb").status == Status.active
    reviewed.approve(update["proposal_id"], "alice")
    assert reviewed.engine.get(memory_id, "kb").content == "The staging DB is PostgreSQL 16."
    assert {p.status for p in reviewed.decided("kb")} == {"approved", "rejected"}


def test_bad_input_fails_at_once_and_queues_nothing(reviewed: ReviewService) -> None:
    with pytest.raises(InvalidInputError):
        reviewed.store({"content": "   ", "namespace": "kb"}, "token:agent")
    with pytest.raises(InvalidInputError):
        reviewed.update("mem_x", {"importance": 7}, "kb", "token:agent")
    with pytest.raises(MemoryNotFoundError):
        reviewed.update("mem_missing", {"importance": 0.9}, "kb", "token:agent")
    with pytest.raises(MemoryNotFoundError):
        reviewed.forget("mem_missing", "", "kb", "token:agent")
    with pytest.raises(ProposalNotFoundError):
        reviewed.approve("prop_missing", "alice")
    assert reviewed.queue.count() == 0


def test_a_failed_approval_leaves_the_proposal_pending(reviewed: ReviewService) -> None:
    memory_id = reviewed.engine.store_memory({"content": "Release notes go to #releases.", "namespace": "kb"}).memory_id
    proposal = reviewed.update(memory_id, {"importance": 0.9}, "kb", "token:agent")
    reviewed.engine.delete(memory_id, "kb", "owner")  # gone before the reviewer gets to it
    with pytest.raises(MemoryNotFoundError):
        reviewed.approve(proposal["proposal_id"], "alice")
    assert reviewed.queue.get(proposal["proposal_id"]).status == "pending"
    reviewed.reject(proposal["proposal_id"], "alice", "target was deleted")


def test_other_namespaces_write_directly(reviewed: ReviewService) -> None:
    outcome = reviewed.store({"content": "The user prefers tabs.", "namespace": "default"}, "token:agent")
    assert outcome["action"] == "created" and reviewed.queue.count() == 0


def test_a_proposal_is_only_decided_in_its_namespace(reviewed: ReviewService) -> None:
    pending = reviewed.store({"content": "Wiki pages are reviewed weekly.", "namespace": "wiki"}, "token:agent")
    with pytest.raises(ProposalNotFoundError):
        reviewed.reject(pending["proposal_id"], "alice", namespace="kb")


# ------------------------------------------------------------------ end to end over HTTP
@pytest.fixture(scope="module")
def console(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    root = tmp_path_factory.mktemp("review_http")
    db = root / "memory.db"
    with closing(open_store(db)) as backend:
        store = TokenStore(backend)
        tokens = {"admin": store.create("alice", ["admin"], ["kb"])[0],
                  "agent": store.create("agent", ["write"], ["kb", "default"])[0]}
    with http_server(db, root / "server.log", env={"HINDSIGHT_REVIEWED_NAMESPACES": "kb"}) as url:
        yield url, tokens


def _session(url: str, token: str) -> AbstractContextManager[SyncMCPClient]:
    return mcp_session(url, auth=token)


def test_agent_proposes_and_a_reviewer_approves_in_the_web_console(console: tuple[str, dict[str, str]]) -> None:
    url, tokens = console
    base = url.removesuffix("/mcp")
    content = "Rollbacks: run `make rollback ENV=prod` if p95 > 800 ms & errors < 5%."
    with _session(url, tokens["agent"]) as agent:
        pending = agent.call("memory_store", content=content, namespace="kb", type="semantic")
        assert pending["status"] == "pending_review"
        assert agent.call("memory_list", namespace="kb")["total"] == 0
        denied = agent.error("memory_review_decide", {"proposal_id": pending["proposal_id"], "decision": "approve",
                                                      "namespace": "kb"})
        assert "permission_denied" in denied  # an agent cannot approve its own change

    with httpx.Client(base_url=base, timeout=30, follow_redirects=False) as browser:
        assert browser.get("/review").status_code == 401
        assert browser.post("/review/login", data={"token": tokens["agent"]}).status_code == 403
        assert browser.post(f"/review/{pending['proposal_id']}/approve").status_code == 401
        login = browser.post("/review/login", data={"token": tokens["admin"]})
        assert login.status_code == 303 and "httponly" in login.headers["set-cookie"].lower()
        page = browser.get("/review")
        assert page.status_code == 200 and pending["proposal_id"] in page.text
        assert "p95 &gt; 800 ms &amp; errors &lt; 5%" in page.text  # escaped, never raw HTML
        csrf = re.search(r"name='csrf' value='([0-9a-f]+)'", page.text).group(1)  # type: ignore[union-attr]
        decided = browser.post(f"/review/{pending['proposal_id']}/approve", data={"note": "looks right", "csrf": csrf})
        assert decided.status_code == 303
        again = browser.post(f"/review/{pending['proposal_id']}/approve", data={"csrf": csrf})
        assert again.status_code == 409 and "approved" in again.text  # a decision is final

    with _session(url, tokens["admin"]) as reviewer:
        listing = reviewer.call("memory_list", namespace="kb")
        assert [m["content"] for m in listing["memories"]] == [content]
        history = reviewer.call("memory_history", memory_id=listing["memories"][0]["id"], namespace="kb")
        assert history["history"][0]["actor"] == "token:agent (approved by token:alice)"
        done = reviewer.call("memory_review_list", namespace="kb", status="approved")
        assert done["proposals"][0]["review_note"] == "looks right"


def test_reject_through_mcp_keeps_the_memory(console: tuple[str, dict[str, str]]) -> None:
    url, tokens = console
    with _session(url, tokens["admin"]) as admin:
        original = admin.call("memory_list", namespace="kb")["memories"][0]
    with _session(url, tokens["agent"]) as agent:
        pending = agent.call("memory_forget", memory_id=original["id"], reason="I think it is stale", namespace="kb")
        assert pending["status"] == "pending_review"
    with _session(url, tokens["admin"]) as admin:
        queue = admin.call("memory_review_list", namespace="kb")
        assert queue["proposals"][0]["current"]["id"] == original["id"]
        admin.call("memory_review_decide", proposal_id=pending["proposal_id"], decision="reject",
                   note="still valid", namespace="kb")
        assert admin.call("memory_get", memory_id=original["id"], namespace="kb")["status"] == "active"
        assert "not_found" in admin.error("memory_review_decide", {"proposal_id": "prop_nope", "decision": "reject",
                                                                   "namespace": "kb"})


def test_cli_lists_and_decides_proposals(reviewed: ReviewService) -> None:
    db = Path(reviewed.engine.stats().path or "")
    first = reviewed.store({"content": "On-call swaps are posted in #oncall.", "namespace": "kb"}, "token:agent")
    second = reviewed.store({"content": "值班交接写在 #oncall 频道。", "namespace": "kb"}, "token:agent")
    listed = run_cli("review", "list", "-n", "kb", "--json", db=db)
    assert listed.returncode == 0, listed.stderr
    assert [p["id"] for p in json.loads(listed.stdout)] == [first["proposal_id"], second["proposal_id"]]
    approved = run_cli("review", "approve", first["proposal_id"], "--note", "ok", "--reviewer", "alice", db=db)
    assert approved.returncode == 0, approved.stderr
    assert json.loads(approved.stdout)["proposal"]["reviewed_by"] == "alice"
    rejected = run_cli("review", "reject", second["proposal_id"], db=db)
    assert rejected.returncode == 0 and json.loads(rejected.stdout)["proposal"]["status"] == "rejected"
    again = run_cli("review", "reject", second["proposal_id"], db=db)
    # typed error, one line, no traceback; a decision already taken is `already_decided` (attack round 18), not bad
    # input, so the exit code is 1 (2 is for invalid input)
    assert again.returncode == 1 and "already_decided" in again.stderr and "rejected" in again.stderr
    assert "Traceback" not in again.stderr
