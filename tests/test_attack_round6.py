"""Findings of the sixth outside attack, each reproduced through the interface it used (MCP over HTTP with bearer
tokens on a server started as `hindsight serve --transport http`, and the web console).

1. Identifiers accepted invisible and bidi characters: a tag `pro\\u200bd` (shown as `prod`, found by no `prod`
   filter), `\\u202eprod`, metadata keys, `session_id`, `source_task_id` and a working-memory session id with a bidi
   override or a line separator were stored.
2. The console rendered a bidi override inside a memory as it displays (`\\u202etxt.dwssap` reads `password.txt` to
   a reviewer, the other order to an agent).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp_helpers import WRITER_ADMIN_ROLES, create_tokens, http_server, mcp_session

ROLES = WRITER_ADMIN_ROLES


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root = tmp_path_factory.mktemp("attack_round6")
    db = root / "memory.db"
    tokens = create_tokens(db, ROLES)
    with http_server(db, root / "server.log") as url:
        yield {"url": url, "base": url.removesuffix("/mcp"), "db": db, "tokens": tokens}


def _snapshot(admin: Any) -> str:
    return json.dumps([admin.call("memory_list", namespace="alice", limit=500),
                       admin.call("memory_stats", namespace="alice")], sort_keys=True)


def _refused(error: str) -> bool:
    """A final refusal: the engine's invalid_input, or the tool schema's validation error (both name the field)."""
    return error.startswith("invalid_input") or "validation error" in error.split("\n", 1)[0]


# ------------------------------------------------------------------ 1. identifiers
HIDDEN = [
    ("tags", {"content": "The deploy target is the prod cluster", "tags": ["pro\u200bd"]}),
    ("tags", {"content": "The deploy target is the prod cluster", "tags": ["\u202eprod"]}),
    ("tags", {"content": "The deploy target is the prod cluster", "tags": ["\ufeffprod"]}),
    ("metadata: a key", {"content": "The deploy target is the prod cluster", "metadata": {"\u202eyek": "v"}}),
    ("metadata.team: a key", {"content": "The deploy target is the prod cluster", "metadata": {"team": {"ow\u200bner": 1}}}),
    ("session_id", {"content": "The deploy target is the prod cluster", "session_id": "\u202esess-42"}),
    ("source_task_id", {"content": "The deploy target is the prod cluster", "source_task_id": "task\u2028two"}),
]


@pytest.mark.parametrize(("field", "arguments"), HIDDEN, ids=[f"{f}-{i}" for i, (f, _) in enumerate(HIDDEN)])
def test_identifiers_with_invisible_or_bidi_characters_are_refused(server: dict[str, Any], field: str,
                                                                    arguments: dict[str, Any]) -> None:
    with mcp_session(server["url"], auth=server["tokens"]["writer"]) as writer, \
            mcp_session(server["url"], auth=server["tokens"]["admin"]) as admin:
        before = _snapshot(admin)
        error = writer.error("memory_store", {**arguments, "namespace": "alice", "type": "semantic"})
        assert error.startswith("invalid_input") and field in error and "invisible" in error, error
        assert _snapshot(admin) == before


def test_updates_filters_and_working_memory_refuse_them_too(server: dict[str, Any]) -> None:
    with mcp_session(server["url"], auth=server["tokens"]["writer"]) as writer, \
            mcp_session(server["url"], auth=server["tokens"]["admin"]) as admin:
        memory_id = writer.call("memory_store", content="The office printer is called Gutenberg", namespace="alice",
                                type="semantic", tags=["office"])["memory_id"]
        before = _snapshot(admin)
        error = writer.error("memory_update", {"memory_id": memory_id, "namespace": "alice",
                                               "updates": {"tags": ["off\u200bice"]}})
        assert _refused(error) and "tags" in error and "invisible" in error
        error = writer.error("memory_working_append", {"session_id": "w\u202e1", "content": "a note",
                                                       "namespace": "alice"})
        assert error.startswith("invalid_input") and "session_id" in error
        error = writer.error("memory_search", {"query": "printer", "namespace": "alice",
                                               "filters": {"tags": ["off\u200bice"]}})
        assert _refused(error) and "tags" in error and "invisible" in error
        assert _snapshot(admin) == before


@pytest.mark.parametrize("tag", ["生产环境", "می\u200cخواهم", "👩\u200d💻"], ids=["zh", "fa-zwnj", "emoji-zwj"])
def test_a_joiner_inside_a_word_or_an_emoji_and_chinese_tags_are_kept(server: dict[str, Any], tag: str) -> None:
    with mcp_session(server["url"], auth=server["tokens"]["writer"]) as writer:
        stored = writer.call("memory_store", content=f"Tagged note for {tag!r} about the build server", namespace="alice",
                             type="semantic", tags=[tag])
        memory = writer.call("memory_get", memory_id=stored["memory_id"], namespace="alice")
    assert memory["tags"] == [tag]


# ------------------------------------------------------------------ 2. the console and bidi overrides
def test_the_console_shows_a_bidi_override_as_a_visible_mark(server: dict[str, Any]) -> None:
    with mcp_session(server["url"], auth=server["tokens"]["writer"]) as writer:
        memory_id = writer.call("memory_store", content="The \u202etxt.dwssap\u202c file on the build host is world "
                                "readable", namespace="alice", type="semantic")["memory_id"]
    page = httpx.get(f"{server['base']}/console/memory/{memory_id}?ns=alice", timeout=60,
                     headers={"Authorization": "Bearer " + server["tokens"]["admin"]}).text
    shown = re.search(r"<div class='pre' id='content'>(.*?)</div>", page, re.S)
    assert shown is not None, page[:500]
    assert "\u202e" not in shown.group(1) and "U+202E" in shown.group(1) and "U+202C" in shown.group(1)
    listing = httpx.get(f"{server['base']}/console?ns=alice", timeout=60,
                        headers={"Authorization": "Bearer " + server["tokens"]["admin"]}).text
    assert "\u202e" not in listing and "U+202E" in listing


# ------------------------------------------------------------------ 3. the request log
def test_a_refused_private_write_leaves_none_of_its_text_in_the_request_log(tmp_path: Path) -> None:
    """The JSON request log kept the tool schema's refusal as is, and pydantic quotes the value it refused
    (`input_value='My diary: ...'`): the first words of a private memory were written to the log in clear."""
    from hindsight.security.crypto import generate_key

    db, log = tmp_path / "memory.db", tmp_path / "server.log"
    tokens = create_tokens(db, ROLES)
    secret = "Quillibertine diary: I am leaving the company in March"
    env = {"HINDSIGHT_ENCRYPTION_KEY": generate_key(), "HINDSIGHT_LOG_JSON": "true"}
    with http_server(db, log, env=env) as url, mcp_session(url, auth=tokens["writer"]) as writer:
        kept = writer.call("memory_store", content="A private note about the garden shed", namespace="alice",
                           private=True, type="semantic")
        too_long = writer.error("memory_store", {"content": secret + " " + "x" * 20_000, "namespace": "alice",
                                                 "private": True})
        assert "content" in too_long
        quarantine = writer.error("memory_update", {"memory_id": kept["memory_id"], "namespace": "alice",
                                                    "updates": {"content": secret, "status": "quarantined"}})
        assert "quarantined" in quarantine
    text = log.read_text(encoding="utf-8", errors="replace")
    lines = [json.loads(line) for line in text.splitlines() if line.startswith("{")]
    assert sum(line.get("outcome") == "error" for line in lines) >= 2  # the refusals were logged ...
    assert "Quillibertine" not in text and "garden shed" not in text  # ... without the caller's text
    assert any("content" in line.get("error", "") for line in lines)  # the field is still named
