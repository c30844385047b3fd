"""Bad input on every tool, over a real stdio MCP client.

Each bad call must come back as an MCP tool error (isError, ToolError in the
client) whose message names the offending field or id, and none of them may
change the store.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import SyncMCPClient, snapshot, stdio_server

SEED = "{seed}"  # replaced by the seeded memory's id
SEED_CONTENT = "The payments service retries webhooks three times with exponential backoff"
OTHER_NS = "bad-input-other"
UNKNOWN = "mem_unknown123"
HUGE = "x" * 20_001
TYPED_CODES = {"invalid_input", "not_found"}  # a bad call is final; an id the caller cannot see is not found


def case(tool: str, args: dict[str, Any], *expect: str, id: str) -> Any:
    return pytest.param(tool, args, expect, id=id)


CASES = [
    # memory_store
    case("memory_store", {}, "content", "missing", id="store-missing-content"),
    case("memory_store", {"content": "ok", "importance": "high"}, "importance", "number", id="store-importance-word"),
    case("memory_store", {"content": "ok", "importance": 2}, "importance", "less than or equal to 1",
         id="store-importance-2"),
    case("memory_store", {"content": "ok", "importance": -0.1}, "importance", "greater than or equal to 0",
         id="store-importance-negative"),
    case("memory_store", {"content": "ok", "tags": "database"}, "tags", "list", id="store-tags-string"),
    case("memory_store", {"content": "ok", "tags": [1, 2]}, "tags", "string", id="store-tags-ints"),
    case("memory_store", {"content": ""}, "content", id="store-empty-content"),
    case("memory_store", {"content": "   \n\t "}, "content", "non-whitespace", id="store-whitespace-content"),
    case("memory_store", {"content": HUGE}, "content", "20000", id="store-huge-content"),
    case("memory_store", {"content": 123}, "content", "string", id="store-content-number"),
    case("memory_store", {"content": "ok", "type": "longterm"}, "type", "episodic", id="store-bad-type"),
    case("memory_store", {"content": "ok", "source": "god"}, "source", "user", id="store-bad-source"),
    case("memory_store", {"content": "ok", "event_time": "yesterday-ish"}, "event_time", id="store-bad-event-time"),
    case("memory_store", {"content": "ok", "metadata": "x"}, "metadata", "dictionary", id="store-metadata-string"),
    case("memory_store", {"content": "ok", "namespace": "bad ns!"}, "namespace", id="store-bad-namespace"),
    case("memory_store", {"content": "ok", "namespace": ""}, "namespace", id="store-empty-namespace"),
    case("memory_store", {"content": "ok", "context": "c" * 4001}, "context", "4000", id="store-huge-context"),
    case("memory_store", {"content": "ok", "tags": [f"t{i}" for i in range(40)]}, "tags", "32",
         id="store-too-many-tags"),
    case("memory_store", {"content": "ok", "tags": ["a" * 65]}, "tag", "64", id="store-tag-too-long"),
    case("memory_store", {"content": "ok", "source_task_id": "s" * 201}, "source_task_id", id="store-long-task-id"),
    case("memory_store", {"content": "ok", "bogus_field": 1}, "bogus_field", id="store-unknown-argument"),
    # memory_search
    case("memory_search", {}, "query", "missing", id="search-missing-query"),
    case("memory_search", {"query": ""}, "query", id="search-empty-query"),
    case("memory_search", {"query": "   "}, "query", "non-whitespace", id="search-whitespace-query"),
    case("memory_search", {"query": "q" * 2001}, "query", "2000", id="search-huge-query"),
    case("memory_search", {"query": "webhooks", "top_k": "ten"}, "top_k", "integer", id="search-top-k-word"),
    case("memory_search", {"query": "webhooks", "top_k": 0}, "top_k", "greater than or equal to 1",
         id="search-top-k-0"),
    case("memory_search", {"query": "webhooks", "top_k": 1000}, "top_k", "less than or equal to 100",
         id="search-top-k-1000"),
    case("memory_search", {"query": "webhooks", "top_k": 2.5}, "top_k", id="search-top-k-fraction"),
    case("memory_search", {"query": "webhooks", "filters": {"colour": "red"}}, "colour", id="search-filter-unknown-key"),
    case("memory_search", {"query": "webhooks", "filters": {"time_from": "2026-02-01T00:00:00Z",
                                                             "time_to": "2026-01-01T00:00:00Z"}},
         "time_from", "time_to", id="search-filter-time-reversed"),
    case("memory_search", {"query": "webhooks", "filters": {"time_from": "garbage"}}, "time_from",
         id="search-filter-time-garbage"),
    case("memory_search", {"query": "webhooks", "filters": {"statuses": ["active", "quarantined"]}},
         "statuses", "quarantined", id="search-filter-quarantined"),
    case("memory_search", {"query": "webhooks", "filters": {"types": ["longterm"]}}, "types", "episodic",
         id="search-filter-bad-type"),
    case("memory_search", {"query": "webhooks", "filters": {"min_importance": 5}}, "min_importance",
         id="search-filter-min-importance"),
    case("memory_search", {"query": "webhooks", "filters": {"tags": "payments"}}, "tags",
         id="search-filter-tags-string"),
    case("memory_search", {"query": "webhooks", "filters": "types=semantic"}, "filters", id="search-filters-string"),
    case("memory_search", {"query": "webhooks", "now": "not-a-time"}, "now", id="search-bad-now"),
    case("memory_search", {"query": "webhooks", "namespace": "a b"}, "namespace", id="search-bad-namespace"),
    # memory_get
    case("memory_get", {}, "memory_id", "missing", id="get-missing-id"),
    case("memory_get", {"memory_id": UNKNOWN}, UNKNOWN, "not found", id="get-unknown-id"),
    case("memory_get", {"memory_id": ""}, "memory_id", id="get-empty-id"),
    case("memory_get", {"memory_id": "   "}, "memory_id", id="get-whitespace-id"),
    case("memory_get", {"memory_id": 42}, "memory_id", "string", id="get-id-number"),
    case("memory_get", {"memory_id": SEED, "namespace": OTHER_NS}, SEED, "not found", id="get-other-namespace"),
    # memory_list
    case("memory_list", {"limit": 0}, "limit", id="list-limit-0"),
    case("memory_list", {"limit": 501}, "limit", "500", id="list-limit-501"),
    case("memory_list", {"limit": "all"}, "limit", id="list-limit-word"),
    case("memory_list", {"offset": -1}, "offset", id="list-negative-offset"),
    case("memory_list", {"filters": {"statuses": ["quarantined"]}}, "quarantined", id="list-filter-quarantined"),
    case("memory_list", {"filters": {"bogus": 1}}, "bogus", id="list-filter-unknown-key"),
    # memory_update
    case("memory_update", {"updates": {"importance": 0.1}}, "memory_id", "missing", id="update-missing-id"),
    case("memory_update", {"memory_id": SEED}, "updates", "missing", id="update-missing-updates"),
    case("memory_update", {"memory_id": SEED, "updates": {}}, "updates", "at least one field", id="update-empty"),
    case("memory_update", {"memory_id": SEED, "updates": {"colour": "red"}}, "colour", id="update-unknown-field"),
    case("memory_update", {"memory_id": SEED, "updates": {"id": "mem_hijack"}}, "updates.id", id="update-id-field"),
    case("memory_update", {"memory_id": SEED, "updates": {"namespace": "other"}}, "namespace",
         id="update-namespace-field"),
    case("memory_update", {"memory_id": SEED, "updates": {"content": "  "}}, "content", "non-whitespace",
         id="update-whitespace-content"),
    case("memory_update", {"memory_id": SEED, "updates": {"content": HUGE}}, "content", "20000",
         id="update-huge-content"),
    case("memory_update", {"memory_id": SEED, "updates": {"importance": 3}}, "importance", id="update-importance-3"),
    case("memory_update", {"memory_id": SEED, "updates": {"importance": "high"}}, "importance",
         id="update-importance-word"),
    case("memory_update", {"memory_id": SEED, "updates": {"status": "quarantined"}}, "quarantined",
         id="update-status-quarantined"),
    case("memory_update", {"memory_id": SEED, "updates": {"type": "longterm"}}, "type", id="update-bad-type"),
    case("memory_update", {"memory_id": SEED, "updates": {"tags": "payments"}}, "tags", id="update-tags-string"),
    case("memory_update", {"memory_id": SEED, "updates": "content=x"}, "updates", id="update-updates-string"),
    case("memory_update", {"memory_id": UNKNOWN, "updates": {"importance": 0.1}}, UNKNOWN, "not found",
         id="update-unknown-id"),
    # memory_forget
    case("memory_forget", {}, "memory_id", "missing", id="forget-missing-id"),
    case("memory_forget", {"memory_id": UNKNOWN}, UNKNOWN, "not found", id="forget-unknown-id"),
    case("memory_forget", {"memory_id": SEED, "reason": "r" * 1001}, "reason", "1000", id="forget-huge-reason"),
    case("memory_forget", {"memory_id": SEED, "namespace": OTHER_NS}, SEED, "not found", id="forget-other-namespace"),
    # memory_delete
    case("memory_delete", {"memory_id": SEED}, "confirm", "missing", id="delete-without-confirm"),
    case("memory_delete", {"memory_id": SEED, "confirm": False}, "confirm", id="delete-confirm-false"),
    case("memory_delete", {"memory_id": SEED, "confirm": "maybe"}, "confirm", "boolean", id="delete-confirm-word"),
    case("memory_delete", {"confirm": True}, "memory_id", "missing", id="delete-missing-id"),
    case("memory_delete", {"memory_id": UNKNOWN, "confirm": True}, UNKNOWN, "not found", id="delete-unknown-id"),
    case("memory_delete", {"memory_id": SEED, "confirm": True, "namespace": OTHER_NS}, SEED, "not found",
         id="delete-other-namespace"),
    # memory_summarize
    case("memory_summarize", {}, "memory_ids", "missing", id="summarize-missing-ids"),
    case("memory_summarize", {"memory_ids": []}, "memory_ids", "at least 1", id="summarize-empty-list"),
    case("memory_summarize", {"memory_ids": [UNKNOWN]}, UNKNOWN, "not found", id="summarize-unknown-id"),
    case("memory_summarize", {"memory_ids": [SEED, UNKNOWN]}, UNKNOWN, "not found", id="summarize-one-unknown"),
    case("memory_summarize", {"memory_ids": SEED}, "memory_ids", "list", id="summarize-ids-string"),
    case("memory_summarize", {"memory_ids": [SEED], "style": "poem"}, "style", "brief", id="summarize-bad-style"),
    # memory_history
    case("memory_history", {}, "memory_id", "missing", id="history-missing-id"),
    case("memory_history", {"memory_id": UNKNOWN}, UNKNOWN, "not found", id="history-unknown-id"),
    case("memory_history", {"memory_id": SEED, "namespace": OTHER_NS}, SEED, "not found",
         id="history-other-namespace"),
    # memory_stats
    case("memory_stats", {"namespace": "bad ns!"}, "namespace", id="stats-bad-namespace"),
    case("memory_stats", {"namespace": 5}, "namespace", id="stats-namespace-number"),
    # review tools
    case("memory_review_list", {"status": "maybe"}, "status", "pending", id="review-list-bad-status"),
    case("memory_review_list", {"limit": 0}, "limit", "greater than or equal to 1", id="review-list-limit-0"),
    case("memory_review_decide", {"decision": "approve"}, "proposal_id", "missing", id="review-missing-id"),
    case("memory_review_decide", {"proposal_id": "prop_nope", "decision": "maybe"}, "decision", "approve",
         id="review-bad-decision"),
    case("memory_review_decide", {"proposal_id": "prop_nope", "decision": "reject"}, "prop_nope", "no proposal",
         id="review-unknown-proposal"),
    # no such tool
    case("memory_teleport", {}, "memory_teleport", id="unknown-tool"),
]


@pytest.fixture(scope="module")
def server_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mcp_bad_input")


@pytest.fixture(scope="module")
def mcp(server_dir: Path) -> Iterator[SyncMCPClient]:
    with stdio_server(server_dir / "memory.db", server_dir / "server.log") as client:
        yield client


@pytest.fixture(scope="module")
def seed(mcp: SyncMCPClient) -> str:
    """One memory in 'default' (the target of the bad calls) and one in another namespace."""
    out = mcp.call("memory_store", content=SEED_CONTENT, tags=["payments"], importance=0.6, type="semantic")
    assert out["action"] == "created"
    mcp.call("memory_store", content="A memory in another namespace", namespace=OTHER_NS)
    return out["memory_id"]


def fill(value: Any, seed_id: str) -> Any:
    if isinstance(value, str):
        return value.replace(SEED, seed_id)
    if isinstance(value, list):
        return [fill(v, seed_id) for v in value]
    if isinstance(value, dict):
        return {k: fill(v, seed_id) for k, v in value.items()}
    return value


def whole_store(mcp: SyncMCPClient, seed_id: str) -> dict[str, Any]:
    return {
        "all": mcp.call("memory_stats"),
        "default": snapshot(mcp),
        "other": snapshot(mcp, OTHER_NS),
        "seed_history": mcp.call("memory_history", memory_id=seed_id),
    }


@pytest.mark.parametrize(("tool", "args", "expect"), CASES)
def test_bad_call_is_a_readable_tool_error(mcp: SyncMCPClient, seed: str, tool: str, args: dict[str, Any],
                                           expect: tuple[str, ...]) -> None:
    message = mcp.error(tool, fill(args, seed))
    lowered = message.lower()
    for needle in fill(list(expect), seed):
        assert needle.lower() in lowered, f"error for {tool} does not mention {needle!r}: {message}"
    assert "traceback" not in lowered
    assert len(message) < 2_000, "the error echoes too much input"
    # one typed shape whoever refused it, the schema or the engine (attack round 17: the schema's refusals were
    # pydantic's dump, "1 validation error for call[...]", with no code a client could act on)
    assert message.split(":", 1)[0] in TYPED_CODES, message
    assert "input_value" not in message and "validation error for" not in message, message


def test_store_unchanged_after_every_bad_call(mcp: SyncMCPClient, seed: str) -> None:
    before = whole_store(mcp, seed)
    assert before["all"]["total"] == 2
    for param in CASES:
        tool, args, _ = param.values
        assert mcp.raw(tool, fill(args, seed)).is_error, f"{param.id} did not fail"
    after = whole_store(mcp, seed)
    assert after == before
    memory = mcp.call("memory_get", memory_id=seed)
    assert memory["content"] == SEED_CONTENT
    assert memory["status"] == "active"
    assert memory["importance"] == pytest.approx(0.6)
    assert memory["tags"] == ["payments"]
    assert memory["type"] == "semantic"
    assert mcp.call("memory_search", query="how are webhooks retried")["results"][0]["id"] == seed


@pytest.mark.parametrize("confirm", ["true", "yes", 1], ids=["string-true", "string-yes", "int-1"])
def test_delete_confirm_must_be_a_real_boolean(mcp: SyncMCPClient, confirm: Any) -> None:
    ns = "bad-input-confirm"  # a throwaway memory, so the bug (when present) does not touch the seed
    mid = mcp.call("memory_store", content=f"Throwaway memory for confirm={confirm!r}", namespace=ns)["memory_id"]
    message = mcp.error("memory_delete", {"memory_id": mid, "confirm": confirm, "namespace": ns})
    assert "confirm" in message
    assert mcp.call("memory_get", memory_id=mid, namespace=ns)["status"] == "active"


@pytest.mark.parametrize("field", ["importance", "content", "tags", "type", "status", "context", "metadata"])
def test_update_with_null_field_is_invalid_input(mcp: SyncMCPClient, seed: str, field: str) -> None:
    message = mcp.error("memory_update", {"memory_id": seed, "updates": {field: None}})
    assert field in message
    assert "MemoryRecord" not in message and "MemoryInput" not in message
    assert message.startswith("invalid_input"), message
