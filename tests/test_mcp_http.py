"""End to end over streamable HTTP: `hindsight serve --transport http` as a subprocess on a loopback port."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp_helpers import SyncMCPClient, http_server, mcp_session, read_log

EXPECTED_TOOLS = {
    "memory_store", "memory_search", "memory_get", "memory_list", "memory_update", "memory_forget",
    "memory_delete", "memory_summarize", "memory_history", "memory_stats",
}


@pytest.fixture(scope="module")
def server_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mcp_http")


@pytest.fixture(scope="module")
def url(server_dir: Path) -> Iterator[str]:
    with http_server(server_dir / "memory.db", server_dir / "server.log") as address:
        yield address


@pytest.fixture(scope="module")
def mcp(url: str) -> Iterator[SyncMCPClient]:
    with mcp_session(url) as client:
        yield client


def test_listens_on_loopback_and_lists_tools(url: str, server_dir: Path, mcp: SyncMCPClient) -> None:
    assert url.startswith("http://127.0.0.1:") and url.endswith("/mcp")
    assert url in read_log(server_dir / "server.log")  # the startup line names the address it bound
    assert EXPECTED_TOOLS <= set(mcp.tool_names())


def test_round_trip(mcp: SyncMCPClient) -> None:
    ns = "http-roundtrip"
    stored = mcp.call("memory_store", content="Cache invalidation happens through the purge-cache job",
                      tags=["cache"], namespace=ns)
    assert stored["action"] == "created"
    mid = stored["memory_id"]
    zh = mcp.call("memory_store", content="数据库备份每天凌晨两点执行，保留七天", namespace=ns)["memory_id"]

    hits = mcp.call("memory_search", query="how is the cache invalidated", namespace=ns)["results"]
    assert hits[0]["id"] == mid
    assert {"id", "content", "type", "status", "score", "why"} <= set(hits[0])
    hits = mcp.call("memory_search", query="数据库什么时候备份", namespace=ns)["results"]
    assert hits[0]["id"] == zh and hits[0]["content"] == "数据库备份每天凌晨两点执行，保留七天"

    assert mcp.call("memory_get", memory_id=mid, namespace=ns)["content"].startswith("Cache invalidation")
    assert mcp.call("memory_list", namespace=ns)["total"] == 2

    mcp.call("memory_update", memory_id=mid, namespace=ns,
             updates={"content": "Cache invalidation now uses surrogate keys on the CDN"})
    hits = mcp.call("memory_search", query="surrogate keys CDN", namespace=ns)["results"]
    assert hits[0]["id"] == mid and "surrogate keys" in hits[0]["content"]
    history = mcp.call("memory_history", memory_id=mid, namespace=ns)["history"]
    assert history[-1]["before"]["content"] == "Cache invalidation happens through the purge-cache job"
    assert history[-1]["after"]["content"] == "Cache invalidation now uses surrogate keys on the CDN"

    assert mcp.call("memory_forget", memory_id=zh, namespace=ns)["status"] == "forgotten"
    ids = [h["id"] for h in mcp.call("memory_search", query="数据库什么时候备份", namespace=ns)["results"]]
    assert zh not in ids

    summary = mcp.call("memory_summarize", memory_ids=[mid, zh], namespace=ns)
    assert summary["summary"].strip() and summary["memory_ids"] == [mid, zh]

    assert mcp.call("memory_delete", memory_id=mid, confirm=True, namespace=ns)["status"] == "deleted"
    stats = mcp.call("memory_stats", namespace=ns)
    assert stats["total"] == 1 and stats["by_status"] == {"forgotten": 1}


def test_errors_are_tool_errors_over_http(mcp: SyncMCPClient) -> None:
    assert "not found" in mcp.error("memory_get", {"memory_id": "mem_doesnotexist"})
    assert "importance" in mcp.error("memory_store", {"content": "x", "importance": 2})
    assert "confirm" in mcp.error("memory_delete", {"memory_id": "mem_doesnotexist", "confirm": False})


def test_second_client_sees_the_same_store(url: str, mcp: SyncMCPClient) -> None:
    ns = "http-shared"
    mid = mcp.call("memory_store", content="Feature flags are managed in LaunchDarkly", namespace=ns)["memory_id"]
    with mcp_session(url) as other:
        assert other.call("memory_get", memory_id=mid, namespace=ns)["content"] == \
            "Feature flags are managed in LaunchDarkly"
        other.call("memory_forget", memory_id=mid, namespace=ns)
    assert mcp.call("memory_get", memory_id=mid, namespace=ns)["status"] == "forgotten"
