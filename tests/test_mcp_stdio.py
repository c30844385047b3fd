"""End to end over stdio: a real MCP client spawns `python -m hindsight.cli serve --transport stdio`.

One server per module (each test works in its own namespace), plus one test
that stops a server and reopens the same SQLite file in a fresh one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp_helpers import SyncMCPClient, snapshot, stdio_server

EXPECTED_TOOLS = {
    "memory_store", "memory_search", "memory_get", "memory_list", "memory_update", "memory_forget",
    "memory_delete", "memory_summarize", "memory_history", "memory_stats",
}
HIT_FIELDS = {"id", "content", "type", "status", "score", "why", "tags", "namespace", "provenance"}


@pytest.fixture(scope="module")
def server_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mcp_stdio")


@pytest.fixture(scope="module")
def mcp(server_dir: Path) -> Iterator[SyncMCPClient]:
    with stdio_server(server_dir / "memory.db", server_dir / "server.log") as client:
        yield client


def store(mcp: SyncMCPClient, content: str, namespace: str, **extra: object) -> str:
    out = mcp.call("memory_store", content=content, namespace=namespace, **extra)
    assert out["action"] in ("created", "supplemented"), out  # supplemented: linked to a related memory, still stored
    assert out["status"] == "active", out
    assert out["memory_id"].startswith("mem_")
    return out["memory_id"]


def search_ids(mcp: SyncMCPClient, query: str, namespace: str, **extra: object) -> list[str]:
    return [r["id"] for r in mcp.call("memory_search", query=query, namespace=namespace, **extra)["results"]]


def test_lists_every_tool_with_schemas(mcp: SyncMCPClient) -> None:
    tools = {t.name: t for t in mcp.list_tools()}
    assert EXPECTED_TOOLS <= set(tools)
    for tool in tools.values():
        assert tool.description, f"{tool.name} has no description"
        assert tool.inputSchema.get("type") == "object"
    assert "content" in tools["memory_store"].inputSchema.get("required", [])
    assert set(tools["memory_delete"].inputSchema.get("required", [])) >= {"memory_id", "confirm"}


def test_store_and_search_english(mcp: SyncMCPClient) -> None:
    ns = "stdio-en"
    pg = store(mcp, "The staging database is PostgreSQL 16 listening on port 5433", ns, type="semantic",
               tags=["Database", "postgresql"], importance=0.9, source="user",
               context="staging environment", metadata={"ticket": "OPS-12"})
    store(mcp, "Run the frontend unit tests with vitest in watch mode", ns, tags=["frontend"])
    result = mcp.call("memory_search", query="which port does the staging postgres database use", namespace=ns)
    assert result["count"] == len(result["results"]) >= 1
    top = result["results"][0]
    assert top["id"] == pg
    assert HIT_FIELDS <= set(top)
    assert top["content"] == "The staging database is PostgreSQL 16 listening on port 5433"
    assert top["type"] == "semantic"
    assert top["status"] == "active"
    assert top["tags"] == ["database", "postgresql"]  # normalised: lower-case
    assert top["namespace"] == ns
    assert top["metadata"] == {"ticket": "OPS-12"}
    assert top["provenance"]["source"] == "user"
    assert top["provenance"]["credibility"] == pytest.approx(1.0)
    assert 0 < top["score"] <= 1.5
    assert isinstance(top["why"], dict) and "final" in top["why"] and "relevance" in top["why"]
    assert top["why"]["final"] == pytest.approx(top["score"])
    scores = [r["score"] for r in result["results"]]
    assert scores == sorted(scores, reverse=True)


def test_store_and_search_chinese(mcp: SyncMCPClient) -> None:
    ns = "stdio-zh"
    pnpm = store(mcp, "我们的前端项目使用 pnpm 管理依赖，不要用 npm 安装", ns, tags=["前端"])
    store(mcp, "生产环境的 Redis 缓存过期时间设置为 30 分钟", ns, tags=["缓存"])
    result = mcp.call("memory_search", query="前端项目用什么工具管理依赖", namespace=ns, top_k=1)
    assert result["count"] == 1
    hit = result["results"][0]
    assert hit["id"] == pnpm
    assert hit["content"] == "我们的前端项目使用 pnpm 管理依赖，不要用 npm 安装"  # no mojibake over the wire
    assert hit["tags"] == ["前端"]
    # a tag filter narrows to the tagged memory
    filtered = mcp.call("memory_search", query="过期时间", namespace=ns, filters={"tags": ["缓存"]})
    assert [r["content"] for r in filtered["results"]] == ["生产环境的 Redis 缓存过期时间设置为 30 分钟"]


def test_get_and_list(mcp: SyncMCPClient) -> None:
    ns = "stdio-get"
    first = store(mcp, "Build images with docker buildx bake for multi-arch", ns, type="semantic")
    second = store(mcp, "每周五下午三点进行代码评审", ns, type="episodic", importance=0.3)
    got = mcp.call("memory_get", memory_id=first, namespace=ns)
    assert got["id"] == first
    assert got["content"] == "Build images with docker buildx bake for multi-arch"
    assert got["type"] == "semantic"
    assert got["importance"] == pytest.approx(0.5)
    assert got["provenance"]["source"] == "agent"
    listing = mcp.call("memory_list", namespace=ns)
    assert listing["total"] == 2
    assert [m["id"] for m in listing["memories"]] == [second, first]  # newest first
    page = mcp.call("memory_list", namespace=ns, limit=1, offset=1)
    assert page["total"] == 2 and [m["id"] for m in page["memories"]] == [first]
    only_semantic = mcp.call("memory_list", namespace=ns, filters={"types": ["semantic"]})
    assert [m["id"] for m in only_semantic["memories"]] == [first]
    # namespaces do not leak: the id exists, but not here
    message = mcp.error("memory_get", {"memory_id": first, "namespace": "stdio-elsewhere"})
    assert first in message and "not found" in message


def test_update_content_is_searchable_and_history_shows_before_after(mcp: SyncMCPClient) -> None:
    ns = "stdio-update"
    mid = store(mcp, "The CI pipeline runs on Jenkins with a nightly schedule", ns, tags=["ci"])
    store(mcp, "Lunch orders go into the shared spreadsheet before 11am", ns)
    out = mcp.call("memory_update", memory_id=mid, namespace=ns,
                   updates={"content": "The CI pipeline moved to GitHub Actions, triggered on every push",
                            "importance": 0.8, "tags": ["ci", "github"]})
    assert out["memory_id"] == mid and out["status"] == "updated"
    assert out["memory"]["content"] == "The CI pipeline moved to GitHub Actions, triggered on every push"
    assert out["memory"]["importance"] == pytest.approx(0.8)

    hits = mcp.call("memory_search", query="GitHub Actions push trigger", namespace=ns)["results"]
    assert hits[0]["id"] == mid
    assert hits[0]["content"].startswith("The CI pipeline moved to GitHub Actions")
    assert not any("Jenkins" in h["content"] for h in hits), "old content still searchable"
    assert mcp.call("memory_get", memory_id=mid, namespace=ns)["tags"] == ["ci", "github"]

    history = mcp.call("memory_history", memory_id=mid, namespace=ns)
    assert history["memory_id"] == mid
    actions = [e["action"] for e in history["history"]]
    assert actions == ["create", "update"]
    update = history["history"][-1]
    assert update["before"]["content"] == "The CI pipeline runs on Jenkins with a nightly schedule"
    assert update["after"]["content"] == "The CI pipeline moved to GitHub Actions, triggered on every push"
    assert update["before"]["importance"] == pytest.approx(0.5)
    assert update["after"]["importance"] == pytest.approx(0.8)
    assert update["at"]


def test_forget_hides_from_search_but_keeps_list_and_history(mcp: SyncMCPClient) -> None:
    ns = "stdio-forget"
    gone = store(mcp, "Always use the legacy VPN gateway vpn-old.example.com", ns)
    kept = store(mcp, "The VPN client profile lives in the IT wiki", ns)
    assert gone in search_ids(mcp, "legacy VPN gateway", ns)
    out = mcp.call("memory_forget", memory_id=gone, reason="gateway was decommissioned", namespace=ns)
    assert out == {"memory_id": gone, "status": "forgotten", "reason": "gateway was decommissioned"}

    ids = search_ids(mcp, "legacy VPN gateway", ns)
    assert gone not in ids and kept in ids
    # still reachable on purpose
    assert gone in search_ids(mcp, "legacy VPN gateway", ns, filters={"statuses": ["active", "forgotten"]})
    listing = {m["id"]: m for m in mcp.call("memory_list", namespace=ns)["memories"]}
    assert listing[gone]["status"] == "forgotten"
    assert listing[gone]["status_reason"] == "gateway was decommissioned"
    assert mcp.call("memory_get", memory_id=gone, namespace=ns)["status"] == "forgotten"
    history = mcp.call("memory_history", memory_id=gone, namespace=ns)["history"]
    assert [e["action"] for e in history] == ["create", "forget"]
    assert history[-1]["before"]["status"] == "active" and history[-1]["after"]["status"] == "forgotten"
    stats = mcp.call("memory_stats", namespace=ns)
    assert stats["by_status"] == {"active": 1, "forgotten": 1}


def test_summarize(mcp: SyncMCPClient) -> None:
    ns = "stdio-summary"
    a = store(mcp, "Deploys go out on Tuesdays. Freeze starts Thursday noon.", ns, context="release process")
    b = store(mcp, "发布前必须在 staging 环境跑完冒烟测试。", ns)
    out = mcp.call("memory_summarize", memory_ids=[a, b, a], namespace=ns)
    assert out["memory_ids"] == [a, b]  # duplicates collapse, order kept
    assert out["style"] == "brief"
    assert out["method"] in ("extractive", "llm")
    assert out["summary"].strip()
    assert len(out["summary"]) <= 160
    structured = mcp.call("memory_summarize", memory_ids=[a, b], style="structured", namespace=ns)
    assert structured["style"] == "structured" and structured["summary"].strip()


def test_delete_needs_confirm_then_erases(mcp: SyncMCPClient) -> None:
    ns = "stdio-delete"
    mid = store(mcp, "Temporary note: the demo password rotates monthly", ns)
    message = mcp.error("memory_delete", {"memory_id": mid, "confirm": False, "namespace": ns})
    assert "confirm" in message
    assert mcp.call("memory_get", memory_id=mid, namespace=ns)["id"] == mid  # refused delete changed nothing
    out = mcp.call("memory_delete", memory_id=mid, confirm=True, reason="no longer needed", namespace=ns)
    assert out == {"memory_id": mid, "status": "deleted"}
    assert "not found" in mcp.error("memory_get", {"memory_id": mid, "namespace": ns})
    assert mcp.call("memory_list", namespace=ns)["total"] == 0
    assert mid not in search_ids(mcp, "demo password rotation", ns, filters={"statuses": ["active", "forgotten"]})
    history = mcp.call("memory_history", memory_id=mid, namespace=ns)["history"]
    assert [e["action"] for e in history][-1] == "delete"  # the record that it existed stays
    assert "not found" in mcp.error("memory_delete", {"memory_id": mid, "confirm": True, "namespace": ns})


def test_stats(mcp: SyncMCPClient) -> None:
    ns = "stdio-stats"
    store(mcp, "Semantic fact: the office wifi is called hs-guest", ns, type="semantic")
    store(mcp, "Warning: never run migrations on Friday evening", ns, type="warning")
    forgotten = store(mcp, "Episode: fixed the flaky login test by mocking the clock", ns)
    mcp.call("memory_forget", memory_id=forgotten, namespace=ns)
    stats = mcp.call("memory_stats", namespace=ns)
    assert stats["total"] == 3
    assert stats["by_type"] == {"semantic": 1, "warning": 1, "episodic": 1}
    assert stats["by_status"] == {"active": 2, "forgotten": 1}
    assert stats["namespaces"] == {ns: 3}
    assert stats["embedding_model"]
    everything = mcp.call("memory_stats")
    assert everything["namespaces"][ns] == 3
    assert everything["total"] == sum(everything["namespaces"].values()) >= 3


def test_reopen_same_file_keeps_everything(tmp_path: Path) -> None:
    db = tmp_path / "reopen.db"
    with stdio_server(db, tmp_path / "first.log") as first:
        en = store(first, "Prefer ruff over flake8 for linting Python code", "default", type="semantic",
                   tags=["python", "lint"])
        zh = store(first, "用户喜欢简洁的回答，不要长篇大论", "default", source="user")
        old = store(first, "The API base URL is http://localhost:8000", "default")
        first.call("memory_update", memory_id=en, updates={"importance": 0.95})
        first.call("memory_forget", memory_id=old, reason="moved to port 9000")
        before = snapshot(first)
        history_before = first.call("memory_history", memory_id=en)
    assert db.exists()

    with stdio_server(db, tmp_path / "second.log") as second:
        assert snapshot(second) == before
        assert second.call("memory_history", memory_id=en) == history_before
        hits = second.call("memory_search", query="用户喜欢什么样的回答")["results"]
        assert hits[0]["id"] == zh and hits[0]["content"] == "用户喜欢简洁的回答，不要长篇大论"
        hits = second.call("memory_search", query="python linter")["results"]
        assert hits[0]["id"] == en and hits[0]["importance"] == pytest.approx(0.95)
        assert old not in [h["id"] for h in hits]
        assert second.call("memory_get", memory_id=old)["status"] == "forgotten"
        # and the reopened store still takes writes
        store(second, "Second session memory survives too", "default")
        assert second.call("memory_stats")["total"] == 4
