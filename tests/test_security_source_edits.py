"""Any change to a memory by a caller who may not claim its source lowers the source (security/claims.py).

The last hardening round found that an edit of a `user` memory's tags (or importance, or metadata) by an agent's
`write` token kept `source: user` and credibility 1.0: only a change of the text lowered it. Reproduced over MCP
on HTTP with bearer tokens; history records the lowering.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from mcp_helpers import create_tokens, http_server, mcp_session

ROLES = {"agent": (["write"], ["team"]), "scribe": (["write", "user_source"], ["team"]),
         "admin": (["admin"], ["*"])}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root = tmp_path_factory.mktemp("source_edits")
    db = root / "memory.db"
    tokens = create_tokens(db, ROLES)
    with http_server(db, root / "server.log") as url:
        yield {"url": url, "tokens": tokens}


def user_memory(server: dict[str, Any], content: str) -> str:
    with mcp_session(server["url"], auth=server["tokens"]["scribe"]) as scribe:
        memory_id = scribe.call("memory_store", content=content, source="user", namespace="team", tags=["leave"],
                                importance=0.5)["memory_id"]
        assert scribe.call("memory_get", memory_id=memory_id, namespace="team")["provenance"]["credibility"] == 1.0
    return str(memory_id)


@pytest.mark.parametrize("updates", [{"tags": ["leave", "confirmed"]}, {"importance": 0.9},
                                     {"metadata": {"checked": True}}, {"credibility": 0.6}],
                         ids=["tags", "importance", "metadata", "credibility"])
def test_an_agents_change_of_any_field_lowers_a_user_memory(server: dict[str, Any], updates: dict[str, Any]) -> None:
    memory_id = user_memory(server, f"I am on leave in the first week of August ({next(iter(updates))})")
    with mcp_session(server["url"], auth=server["tokens"]["agent"]) as agent:
        agent.call("memory_update", memory_id=memory_id, namespace="team", updates=updates)
        provenance = agent.call("memory_get", memory_id=memory_id, namespace="team")["provenance"]
        assert provenance["source"] == "agent"
        assert provenance["credibility"] == min(0.7, updates.get("credibility", 1.0))
        last = agent.call("memory_history", memory_id=memory_id, namespace="team")["history"][-1]
    assert "source lowered from user to agent" in last["note"] and last["before"]["source"] == "user"
    assert last["after"]["source"] == "agent"


def test_no_change_and_a_grant_holders_change_keep_the_user(server: dict[str, Any]) -> None:
    memory_id = user_memory(server, "Our fiscal year starts in April")
    with mcp_session(server["url"], auth=server["tokens"]["agent"]) as agent:  # the same tags: nothing changes
        agent.call("memory_update", memory_id=memory_id, namespace="team", updates={"tags": ["leave"]})
        assert agent.call("memory_get", memory_id=memory_id, namespace="team")["provenance"]["source"] == "user"
    for role in ("scribe", "admin"):
        with mcp_session(server["url"], auth=server["tokens"][role]) as editor:
            editor.call("memory_update", memory_id=memory_id, namespace="team",
                        updates={"tags": ["finance", role]})
            provenance = editor.call("memory_get", memory_id=memory_id, namespace="team")["provenance"]
            assert (provenance["source"], provenance["credibility"]) == ("user", 1.0), role
