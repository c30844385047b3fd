"""Every refusal over MCP reads `invalid_input: FIELD: RULE` (design debt, mend22).

Round 18 left refusals that named the field inside prose ("query must not contain NUL ...", "now must be between
...") or behind a preamble ("invalid memory: content: Value error, content must ..."), so a client could not read
the field off the message the way it reads the schema's own refusals. Walked over an in-process MCP client (the
real protocol, the test's bag embedder): each bad call's message opens with the code, the field path and a colon,
the rule follows without naming the field again, and nothing stored changes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bag_embedder import BagEmbedder
from mcp_helpers import SyncMCPClient, mcp_session, snapshot
from test_mcp_bad_input import CASES as SCHEMA_CASES
from test_mcp_bad_input import SEED, fill

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.errors import InvalidInputError
from hindsight.server.mcp_server import build_server

FIELD = r"[A-Za-z_][\w.\[\]-]*"
SHAPE = re.compile(rf"^invalid_input: (?P<field>{FIELD}): (?P<rule>\S.*)$", re.S)
SEED_CONTENT = "The payments service retries webhooks three times with exponential backoff"
FAR = "2999-01-01T00:00:00Z"


def case(tool: str, args: dict[str, Any], field: str, rule: str, id: str) -> Any:
    return pytest.param(tool, args, field, rule, id=id)


#: the refusals that were not in the shape on main (the engine's, the write path's and the models' own rules)
CASES = [
    case("memory_search", {"query": "web\x00hooks"}, "query", "NUL", id="search-nul-query"),
    case("memory_search", {"query": "   "}, "query", "non-whitespace", id="search-whitespace-query"),
    case("memory_search", {"query": "\u200b\u200b"}, "query", "visible text", id="search-invisible-query"),
    case("memory_search", {"query": "webhooks", "now": "0001-01-01T00:00:00Z"}, "now", "between", id="search-now-early"),
    case("memory_search", {"query": "webhooks", "now": "9999-01-01T00:00:00Z"}, "now", "between", id="search-now-late"),
    case("memory_search", {"query": "webhooks", "filters": {"time_from": "0001-01-01T00:00:00Z"}},
         "filters.time_from", "between", id="search-filter-time-early"),
    case("memory_search", {"query": "webhooks", "filters": {"time_from": "2026-02-01T00:00:00Z",
                                                             "time_to": "2026-01-01T00:00:00Z"}},
         "filters.time_from", "after time_to", id="search-filter-time-reversed"),
    case("memory_store", {"content": "a\x00b"}, "content", "NUL", id="store-nul-content"),
    case("memory_store", {"content": "   "}, "content", "non-whitespace", id="store-whitespace-content"),
    case("memory_store", {"content": "\u200b"}, "content", "visible text", id="store-invisible-content"),
    case("memory_store", {"content": "ok", "event_time": FAR}, "event_time", "366 days", id="store-far-event"),
    case("memory_store", {"content": "ok", "event_time": "0500-01-01T00:00:00Z"}, "event_time", "between",
         id="store-early-event"),
    case("memory_store", {"content": "ok", "tags": [f"t{i}" for i in range(40)]}, "tags", "32", id="store-many-tags"),
    case("memory_store", {"content": "ok", "tags": ["a\u202eb"]}, "tags", "bidi", id="store-bidi-tag"),
    case("memory_store", {"content": "ok", "metadata": {"preceding_turn": "x"}}, "metadata", "reserved",
         id="store-reserved-key"),
    case("memory_store", {"content": "ok", "metadata": {"a": {"b": {"c": {"d": {"e": 1}}}}}}, "metadata",
         "nesting", id="store-deep-metadata"),
    case("memory_store", {"content": "ok", "metadata": {"a\u202eb": 1}}, "metadata", "key", id="store-bidi-key"),
    case("memory_store", {"content": "ok", "metadata": {"a": "x\x00"}}, "metadata.a", "NUL", id="store-nul-value"),
    case("memory_store", {"content": "ok", "session_id": "a\x00b"}, "session_id", "NUL", id="store-nul-session"),
    case("memory_store", {"content": "ok", "idempotency_key": "\x01"}, "idempotency_key", "control",
         id="store-control-key"),
    case("memory_update", {"memory_id": SEED, "updates": {"content": "a\x00"}}, "updates.content", "NUL",
         id="update-nul-content"),
    case("memory_update", {"memory_id": SEED, "updates": {"content": None, "tags": None}}, "updates.content",
         "null", id="update-null-fields"),
    case("memory_update", {"memory_id": SEED, "updates": {"status": "quarantined"}}, "updates.status", "write guard",
         id="update-status-quarantined"),
    case("memory_update", {"memory_id": SEED, "updates": {"event_time": FAR}}, "updates.event_time", "366 days",
         id="update-far-event"),
    case("memory_update", {"memory_id": SEED, "updates": {"metadata": {"preceding_turn": "zz"}}}, "updates.metadata",
         "reserved", id="update-reserved-key"),
    case("memory_get", {"memory_id": "   "}, "memory_id", "non-empty", id="get-whitespace-id"),
    case("memory_delete", {"memory_id": SEED, "confirm": False}, "confirm", "true", id="delete-confirm-false"),
    case("memory_ingest", {"messages": [{"role": "user", "content": "  "}], "session_id": "s"},
         "messages.0.content", "non-whitespace", id="ingest-whitespace-turn"),
    case("memory_ingest", {"messages": [{"role": "user", "content": "I prefer tea\x00"}], "session_id": "s"},
         "messages.0.content", "NUL", id="ingest-nul-turn"),
    case("memory_ingest", {"messages": [{"role": "user", "content": "x"}], "session_id": "  "}, "session_id",
         "non-blank", id="ingest-blank-session"),
    case("memory_working_append", {"session_id": "s", "content": "   "}, "content", "visible", id="working-blank"),
    case("memory_working_append", {"session_id": "a\x00", "content": "x"}, "session_id", "NUL", id="working-nul-id"),
    case("memory_session_end", {"session_id": "nosuch"}, "session_id", "no working memory", id="session-end-unknown"),
]


@pytest.fixture(scope="module")
def mcp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SyncMCPClient]:
    db = Path(tmp_path_factory.mktemp("refusal_shape")) / "memory.db"
    engine = MemoryEngine.open(db, settings=HindsightSettings(db=db, hygiene=False), embedder=BagEmbedder())
    with mcp_session(build_server(engine)) as client:
        yield client
    engine.close()


@pytest.fixture(scope="module")
def seed(mcp: SyncMCPClient) -> str:
    return str(mcp.call("memory_store", content=SEED_CONTENT, tags=["payments"])["memory_id"])


def assert_shape(message: str) -> re.Match[str]:
    match = SHAPE.match(message)
    assert match, f"not `invalid_input: FIELD: RULE`: {message!r}"
    # the rule does not name a field again ("filters: time_from: ...", "content: content must ...")
    assert not re.match(rf"{FIELD}: ", match["rule"]), message
    assert not match["rule"].startswith(("Value error", f"{match['field'].rsplit('.', 1)[-1]} ")), message
    return match


@pytest.mark.parametrize(("tool", "args", "field", "rule"), CASES)
def test_refusal_names_field_and_rule(mcp: SyncMCPClient, seed: str, tool: str, args: dict[str, Any], field: str,
                                      rule: str) -> None:
    match = assert_shape(mcp.error(tool, fill(args, seed)))
    assert match["field"] == field
    assert rule in match["rule"]


@pytest.mark.parametrize(("tool", "args", "expect"), [p for p in SCHEMA_CASES if "not found" not in p.values[2]])
def test_schema_and_engine_refusals_share_the_shape(mcp: SyncMCPClient, seed: str, tool: str, args: dict[str, Any],
                                                   expect: tuple[str, ...]) -> None:
    """test_mcp_bad_input's calls (its stdio server checks what they name): every invalid_input is in the shape."""
    message = mcp.error(tool, fill(args, seed))
    if message.startswith("invalid_input: "):
        assert_shape(message)


def test_nothing_changes(mcp: SyncMCPClient, seed: str) -> None:
    before = (mcp.call("memory_stats"), snapshot(mcp), mcp.call("memory_history", memory_id=seed))
    for param in CASES:
        tool, args, _, _ = param.values
        assert mcp.raw(tool, fill(args, seed)).is_error, param.id
    assert (mcp.call("memory_stats"), snapshot(mcp), mcp.call("memory_history", memory_id=seed)) == before
    assert mcp.call("memory_get", memory_id=seed)["content"] == SEED_CONTENT


def test_ingest_nul_is_typed_in_the_python_api(tmp_path: Path) -> None:
    """On main a NUL in a turn reached the memory the turn became and escaped as pydantic's own ValidationError."""
    db = tmp_path / "memory.db"
    engine = MemoryEngine.open(db, settings=HindsightSettings(db=db, hygiene=False), embedder=BagEmbedder())
    try:
        with pytest.raises(InvalidInputError, match=r"^messages\[1\]\.content: must not contain NUL"):
            engine.ingest([{"role": "user", "content": "hello"}, {"role": "user", "content": "I prefer tea\x00"}], "s")
        assert engine.stats().total == 0
    finally:
        engine.close()


@pytest.mark.parametrize(("location", "message", "expected"), [
    ("content", "Value error, content: must not contain NUL", "content: must not contain NUL"),
    ("", "content: must not contain NUL", "content: must not contain NUL"),
    ("tags.0", "tags: must not contain bidi", "tags.0: must not contain bidi"),
    ("filters", "time_from: must not be after time_to", "filters.time_from: must not be after time_to"),
    ("metadata", "metadata.a: must not contain NUL", "metadata.a: must not contain NUL"),
    ("updates.content", "content: must contain visible text", "updates.content: must contain visible text"),
    ("top_k", "Input should be a valid integer", "top_k: Input should be a valid integer"),
    ("", "must name at least one field", "input: must name at least one field"),
])
def test_field_rule_places_each_message_once(location: str, message: str, expected: str) -> None:
    from hindsight.errors import field_rule  # new in mend22: imported here, so main runs the cases above

    assert field_rule(location, message) == expected
