"""Attack round 19 (docs/security.md, "Attack round 19"): what an outside attacker found, each fixed.

- MCP arguments of the wrong JSON type were converted by pydantic's lax mode (`top_k: true` read as 1,
  `importance: true` as 1.0, `private: 1` or `"true"` as a private write, `event_time: 0` as 1970): refused now,
  naming the field (`server/strict_args.py`).
- A namespace could hold a zero-width joiner or non-joiner, a variation selector or the combining grapheme joiner
  (`op\u200ds` lists as `ops`): the schema's pattern let them through as `\\w` (`security/namespace_names.py`).
- A store proposal approved by a server that died before recording the approval was pending again after the
  lease: a second approval wrote a twin of a private memory, a rejection left the memory active under a rejected
  proposal (`review/apply_once.py`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bag_embedder import BagEmbedder
from fastmcp import Client
from fastmcp.exceptions import ToolError

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.errors import AlreadyDecidedError
from hindsight.review.queue import ReviewQueue
from hindsight.review.service import ReviewService
from hindsight.security.crypto import generate_key
from hindsight.server.mcp_server import build_server


def _calls(engine: MemoryEngine, calls: list[tuple[str, dict[str, Any]]]) -> list[tuple[bool, str]]:
    """Each call's (refused, text) through a real MCP client on the server's own middleware (the local owner)."""
    async def run() -> list[tuple[bool, str]]:
        out = []
        async with Client(build_server(engine)) as client:
            for tool, args in calls:
                try:
                    out.append((False, str((await client.call_tool(tool, args)).data)))
                except ToolError as exc:
                    out.append((True, str(exc)))
        return out

    return asyncio.run(run())


LOOSE = [
    pytest.param("memory_search", {"query": "deploys", "top_k": True}, "top_k", id="search-top_k-true"),
    pytest.param("memory_list", {"limit": True}, "limit", id="list-limit-true"),
    pytest.param("memory_list", {"offset": False}, "offset", id="list-offset-false"),
    pytest.param("memory_list", {"limit": "20"}, "limit", id="list-limit-string"),
    pytest.param("memory_search", {"query": "deploys", "min_relevance": False}, "min_relevance",
                 id="search-min_relevance-false"),
    pytest.param("memory_search", {"query": "deploys", "filters": {"min_importance": True}},
                 "filters.min_importance", id="search-filter-min_importance-true"),
    pytest.param("memory_store", {"content": "Deploys use the blue cluster.", "importance": True}, "importance",
                 id="store-importance-true"),
    pytest.param("memory_store", {"content": "Deploys use the blue cluster.", "private": 1}, "private",
                 id="store-private-1"),
    pytest.param("memory_store", {"content": "Deploys use the blue cluster.", "private": "true"}, "private",
                 id="store-private-string"),
    pytest.param("memory_store", {"content": "Deploys use the blue cluster.", "event_time": 0}, "event_time",
                 id="store-event_time-number"),
    pytest.param("memory_store", {"content": "Deploys use the blue cluster.", "event_time": "1700000000"},
                 "event_time", id="store-event_time-number-string"),
    pytest.param("memory_search", {"query": "deploys", "now": 0}, "now", id="search-now-number"),
    pytest.param("memory_update", {"memory_id": "{seed}", "updates": {"importance": True}}, "updates.importance",
                 id="update-importance-true"),
    pytest.param("memory_working_get", {"session_id": "s1", "last_n": True}, "last_n", id="working-last_n-true"),
]


@pytest.mark.parametrize(("tool", "args", "field"), LOOSE)
def test_tool_arguments_keep_their_json_types(bag_engine: MemoryEngine, tool: str, args: dict[str, Any],
                                              field: str) -> None:
    seed = bag_engine.store_memory({"content": "The staging database listens on port 5433."}).memory_id
    args = {k: (seed if v == "{seed}" else v) for k, v in args.items()}
    before = bag_engine.get(seed, "default", record_access=False)
    [(refused, message)] = _calls(bag_engine, [(tool, args)])
    assert refused, f"{tool} took {args} ({message[:200]})"
    assert message.startswith(f"invalid_input: {field}: must be "), message
    assert "rule:" in message
    records, total = bag_engine.list("default", None, 50, 0)
    assert total == 1 and records[0].model_dump() == before.model_dump(), "nothing stored or changed"


def test_the_json_types_the_schema_allows_still_pass(bag_engine: MemoryEngine) -> None:
    """An integer is a number, a float without fraction an integer, and free metadata holds any JSON."""
    outcomes = _calls(bag_engine, [
        ("memory_store", {"content": "Deploys use the green cluster.", "importance": 1, "private": False,
                          "metadata": {"flag": True, "list": [1, "x", None], "deep": {"n": 2.5}}}),
        ("memory_search", {"query": "green cluster", "top_k": 5.0, "min_relevance": 0}),
        ("memory_list", {"limit": 10, "offset": 0, "filters": {"min_importance": 0}}),
    ])
    assert [refused for refused, _ in outcomes] == [False, False, False], outcomes
    [record], _ = bag_engine.list("default", None, 10, 0)
    assert record.importance == 1.0 and record.metadata["flag"] is True


@pytest.mark.parametrize("name", ["op\u200ds", "ops\u200c", "o\u034fps", "ops\ufe0f"],
                         ids=["zwj", "zwnj", "grapheme-joiner", "variation-selector"])
def test_a_namespace_with_an_invisible_character_is_refused(bag_engine: MemoryEngine, name: str) -> None:
    [(refused, message)] = _calls(bag_engine, [("memory_store", {"content": "Looks like ops.", "namespace": name})])
    assert refused and message.startswith("invalid_input") and "namespace" in message, message
    assert "invisible" in message
    assert bag_engine.stats(None).total == 0


class _Killed(BaseException):
    """What a SIGKILL between the apply and the recorded decision leaves: no `except Exception` runs."""


def _approve_then_die(review: ReviewService, proposal_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patched:
        def die(*args: Any, **kwargs: Any) -> None:
            raise _Killed

        patched.setattr(review.queue, "decide", die)
        with pytest.raises(_Killed):
            review.approve(proposal_id, "token:rev", namespace="kb")
    assert review.queue.get(proposal_id).status == "applying"
    monkeypatch.setenv("HINDSIGHT_REVIEW_CLAIM_LEASE_S", "0.01")  # the lease runs out: the claim is stale
    time.sleep(0.05)
    review.queue.release_stale()
    assert review.queue.get(proposal_id).status == "pending"


@pytest.fixture
def keyed_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ReviewService]:
    monkeypatch.setenv("HINDSIGHT_ENCRYPTION_KEY", generate_key())
    settings = HindsightSettings(db=tmp_path / "kb.db")
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=BagEmbedder(words=True))
    yield ReviewService(engine, ReviewQueue(engine.store), "kb")
    engine.close()


@pytest.mark.parametrize("private", [True, False], ids=["private", "public"])
def test_a_store_approved_by_a_server_that_died_writes_its_memory_once(
        keyed_review: ReviewService, monkeypatch: pytest.MonkeyPatch, private: bool) -> None:
    review = keyed_review
    proposed = review.store({"content": "The kb build server is build7.internal on port 8443.", "namespace": "kb",
                             "private": private}, "token:agent")
    _approve_then_die(review, proposed["proposal_id"], monkeypatch)
    again = review.approve(proposed["proposal_id"], "token:rev", namespace="kb")
    records, total = review.engine.list("kb", None, 50, 0)
    assert total == 1, [r.id for r in records]
    assert again["result"]["memory_id"] == records[0].id
    assert again["proposal"]["status"] == "approved"
    assert records[0].encrypted is private and records[0].content.startswith("The kb build server")


def test_a_rejection_after_a_store_was_applied_is_already_decided(
        keyed_review: ReviewService, monkeypatch: pytest.MonkeyPatch) -> None:
    review = keyed_review
    proposed = review.store({"content": "The kb wiki moved to wiki2.internal.", "namespace": "kb", "private": True},
                            "token:agent")
    _approve_then_die(review, proposed["proposal_id"], monkeypatch)
    [memory], _ = review.engine.list("kb", None, 50, 0)
    with pytest.raises(AlreadyDecidedError) as refused:
        review.reject(proposed["proposal_id"], "token:rev2", "not needed", namespace="kb")
    assert memory.id in str(refused.value) and "approve it to record" in str(refused.value)
    assert review.queue.get(proposed["proposal_id"]).status == "pending"
    assert review.engine.get(memory.id, "kb").status.value == "active"
    recorded = review.approve(proposed["proposal_id"], "token:rev2", namespace="kb")
    assert recorded["proposal"]["status"] == "approved" and recorded["result"]["memory_id"] == memory.id


# ---------------------------------------------------------------- work a reader or an agent's text can cost the server
def _long_text(seed: int, words: int = 3300) -> str:
    """~20,000 characters of five repeated words: the worst case of a quadratic diff, many one-word sentences."""
    import random

    rng = random.Random(seed)
    return " ".join(rng.choice(["alpha", "beta.", "gamma", "delta.", "epsilon"]) for _ in range(words))[:19_990]


def test_a_console_word_diff_compares_a_bounded_number_of_token_pairs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The memory page diffs every version on the event loop: 55 s for one pair of such texts froze the server."""
    import difflib
    import re

    from hindsight.console import views

    real = difflib.SequenceMatcher

    def bounded(junk: Any, a: list[str], b: list[str], autojunk: bool = True) -> difflib.SequenceMatcher[str]:
        assert len(a) * len(b) <= 1_000_000, f"a diff of {len(a)} x {len(b)} tokens"
        return real(junk, a, b, autojunk=autojunk)

    monkeypatch.setattr(views.difflib, "SequenceMatcher", bounded)
    old, new = _long_text(1), _long_text(2)
    shown = views.word_diff(old, new)
    strip = lambda html: re.sub(r"<[^>]+>", "", html)  # noqa: E731
    assert strip(re.sub(r"<ins>.*?</ins>", "", shown, flags=re.DOTALL)) == old, "every old word is shown"
    assert strip(re.sub(r"<del>.*?</del>", "", shown, flags=re.DOTALL)) == new, "every new word is shown"
    small = views.word_diff("The cat sat on the mat.", "The dog sat on the mat.")
    assert "<del>cat</del><ins>dog</ins> sat on the mat." in small, "a short text keeps its word diff"


class _CountingBag(BagEmbedder):
    def __init__(self) -> None:
        super().__init__(words=True)
        self.texts: list[str] = []

    def _embed(self, texts: Any, is_query: bool) -> Any:
        self.texts.extend(texts)
        return super()._embed(texts, is_query)


def test_an_extractive_summary_ranks_a_bounded_number_of_sentences() -> None:
    """A read token's memory_summarize of 20 such memories embedded 5,600 sentences (223 s on the live server)."""
    from hindsight.model import MemoryRecord
    from hindsight.summarize import Summarizer

    embedder = _CountingBag()
    records = [MemoryRecord(content=f"Note {i} says the deploy moved. " + _long_text(i)) for i in range(20)]
    summary = Summarizer(embedder).extractive(records, "brief")
    assert summary and len(embedder.texts) <= 64 and max(map(len, embedder.texts)) <= 400, len(embedder.texts)

    embedder.texts.clear()
    short = [MemoryRecord(content="The deploy runs at noon. It uses the blue cluster."),
             MemoryRecord(content="Rollbacks need the on-call lead.")]
    Summarizer(embedder).extractive(short, "detailed")
    assert len(embedder.texts) == 3, "a short set of memories is ranked whole, as before"


def test_a_slow_console_page_does_not_hold_the_servers_other_requests(bag_engine: MemoryEngine,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Console pages ran their engine work on the server's event loop: while one page worked (55 s of diffs on the
    live server), /healthz and every MCP call of the process waited. A page now works on a worker thread."""
    import threading

    from starlette.testclient import TestClient

    bag_engine.store_memory({"content": "The staging database listens on port 5433."})
    page_working, other_answered = threading.Event(), threading.Event()
    seen: dict[str, bool] = {}
    real_list = bag_engine.list

    def slow_list(*args: Any, **kwargs: Any) -> Any:  # the browse page's engine call, held until /healthz answers
        page_working.set()
        seen["other_answered_meanwhile"] = other_answered.wait(timeout=20)
        return real_list(*args, **kwargs)

    monkeypatch.setattr(bag_engine, "list", slow_list)
    with TestClient(build_server(bag_engine).http_app(), base_url="http://127.0.0.1") as client:
        page: dict[str, int] = {}
        browsing = threading.Thread(target=lambda: page.update(status=client.get("/console").status_code))
        browsing.start()
        assert page_working.wait(timeout=60), "the console page never reached its engine call"
        if client.get("/healthz").status_code == 200:
            other_answered.set()
        browsing.join(timeout=60)
    assert page.get("status") == 200
    assert seen.get("other_answered_meanwhile") is True, "/healthz waited for the console page"
