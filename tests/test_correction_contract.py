"""correct47: an explicit user correction retires the memory it corrects (write/correction.py).

agent46 found `memory_user_correction` "I now use bun instead of pnpm." only supplementing "I prefer pnpm over npm for
JavaScript projects." (p(change) 0.62): the old preference stayed active and current. The contract: the nearest
active memory of the same slot is retired (kept in history) and named in the answer (`corrected`), or the answer
says why none was (`corrected: null`, `correction_note`). The cosines are set by a table embedder (the contract is
not about the model); the judge is the shipped one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pytest
from fastmcp import Client

from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.server.mcp_server import build_server
from hindsight.write import events

PNPM = "I prefer pnpm over npm for JavaScript projects."
BUN = "I now use bun instead of pnpm."
VSCODE = "我喜欢用 VS Code 写代码。"
CURSOR = "我现在改用 Cursor 写代码了，不再用 VS Code。"
ATLAS = "Project Atlas deadline is March 15."
THEME = "I like the dark theme in the terminal."
FONT, DARK, LIGHT = "用户偏好14号字体。", "用户喜欢深色主题。", "不对，我现在用浅色主题了。"
EPISODE = "User said: I prefer pnpm over npm for JavaScript projects. Assistant said: OK."


def _unit(*xs: float) -> list[float]:
    v = np.asarray([*xs, 0.0, 0.0, 0.0, 0.0][:4], dtype=np.float64)
    return list(v / np.linalg.norm(v))


#: each text's vector: the corrections sit at cosine 0.9 from what they correct, other texts far or set per test
VECTORS: dict[str, list[float]] = {
    PNPM: _unit(1, 0), BUN: _unit(0.9, 0.4359), VSCODE: _unit(0, 0, 1), CURSOR: _unit(0, 0, 0.9, 0.4359),
    ATLAS: _unit(0.3, 0, 0, 1), THEME: _unit(0.95, 0.3122),
    EPISODE: _unit(0.97, 0.2431), DARK: _unit(0, 1), LIGHT: _unit(0, 0.9, 0.4359), FONT: _unit(0, 0.95, 0.3122),
}


class Table(Embedder):
    """Vectors looked up by text (unknown texts: a fixed far vector)."""

    name, dim = "table-test", 4
    vectors = VECTORS  # a subclass sets its own table (tests/test_attack_round47.py)

    def _embed(self, texts: Sequence[str], is_query: bool) -> np.ndarray:
        far = _unit(0.1, -1, 0.1, -1)
        return np.asarray([self.vectors.get(t.strip(), far) for t in texts], dtype=np.float32)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MemoryEngine]:
    db = tmp_path_factory.mktemp("correct47") / "correct.db"
    opened = MemoryEngine.open(db, HindsightSettings(db=db, write_budget_s=3600, guard="rules"),
                                embedder=Table())
    yield opened
    opened.close()


@pytest.fixture
def eng(engine: MemoryEngine, request: pytest.FixtureRequest) -> MemoryEngine:
    """The module's engine, each test writing in a namespace of its own (`default` is the test's name)."""
    NAMESPACE[0] = "".join(c if c.isalnum() else "-" for c in request.node.name)[:100]
    return engine


NAMESPACE = ["default"]


def _ns() -> str:
    return NAMESPACE[0]


def _semantic(eng: MemoryEngine, text: str) -> str:
    return eng.store_memory({"content": text, "type": "semantic", "source": "user", "namespace": _ns()}).memory_id


def _correct(eng: MemoryEngine, text: str, **kw: Any) -> Any:
    return eng.record_event(events.UserCorrection(correction=text, namespace=kw.pop("namespace", _ns())), **kw)


@pytest.mark.parametrize("old,new", [(PNPM, BUN), (VSCODE, CURSOR)], ids=["en", "zh"])
def test_a_correction_retires_the_memory_it_corrects(eng: MemoryEngine, old: str, new: str) -> None:
    old_id = _semantic(eng, old)
    outcome = _correct(eng, new)
    assert outcome.action == "superseded" and outcome.supersedes == [old_id]
    assert outcome.correction is not None and outcome.correction["corrected"] == old_id
    assert outcome.correction["correction_note"].startswith(f"corrects {old_id}")
    retired = eng.get(old_id, _ns())
    assert retired.status == Status.deprecated and retired.metadata["superseded_by"] == outcome.memory_id
    assert any(h.action == "deprecate" for h in eng.history(old_id, _ns()))  # kept in history


@pytest.mark.parametrize("old,nearer,new", [(PNPM, THEME, BUN), (DARK, FONT, LIGHT)], ids=["en", "zh"])
def test_the_nearest_candidate_of_another_subject_is_passed_over(eng: MemoryEngine, old: str, nearer: str,
                                                                  new: str) -> None:
    """The nearer memory (cosine 0.98) shares no content term with the correction: the farther one of its slot
    (pnpm; 主题) is retired."""
    old_id, theme_id = _semantic(eng, old), _semantic(eng, nearer)
    outcome = _correct(eng, new)
    assert outcome.correction == {"corrected": old_id, "correction_note": outcome.correction["correction_note"]}
    assert eng.get(theme_id, _ns()).status == Status.active and eng.get(old_id, _ns()).status == Status.deprecated


def test_a_sessions_episode_is_an_event_not_the_corrected_fact(eng: MemoryEngine) -> None:
    """agent46's store: the preference session's episode is nearer (cosine 0.99) than the stated rule; the rule is
    what the correction retires, the episode (what was said that day) stays, as hygiene keeps events."""
    rule = _semantic(eng, PNPM)
    episode = eng.store_memory({"content": EPISODE, "type": "episodic", "session_id": "s1", "namespace": _ns()})
    outcome = _correct(eng, BUN)
    assert outcome.correction is not None and outcome.correction["corrected"] == rule
    assert eng.get(episode.memory_id, _ns()).status == Status.active


def test_nothing_close_enough_says_so(eng: MemoryEngine) -> None:
    atlas = _semantic(eng, ATLAS)
    outcome = _correct(eng, BUN)
    assert outcome.action == "created" and outcome.correction is not None
    assert outcome.correction["corrected"] is None
    assert "nothing corrected" in outcome.correction["correction_note"]
    assert "close enough" in outcome.correction["correction_note"]
    assert eng.get(atlas, _ns()).status == Status.active
    empty = _correct(eng, BUN, namespace=_ns() + "-empty")
    assert empty.as_dict()["corrected"] is None and "no active memory" in empty.as_dict()["correction_note"]


def test_a_plain_store_keeps_the_generic_judgement(eng: MemoryEngine) -> None:
    """The contract is the correction's: the same texts through memory_store answer as before, with no `corrected`."""
    old_id = _semantic(eng, PNPM)
    outcome = eng.store_memory({"content": BUN, "type": "semantic", "namespace": _ns()})
    assert "corrected" not in outcome.as_dict() and eng.get(old_id, _ns()).status == Status.active


def test_a_replayed_correction_answers_what_it_corrected(eng: MemoryEngine) -> None:
    old_id = _semantic(eng, PNPM)
    first = _correct(eng, BUN, idempotency_key="k1")
    again = _correct(eng, BUN, idempotency_key="k1")
    assert first.correction is not None and first.correction["corrected"] == old_id
    assert again.correction == first.correction


def test_the_mcp_tool_answers_corrected(eng: MemoryEngine) -> None:
    """Through the real MCP client: the tool's answer names the retired memory, and its description says so."""
    old_id = _semantic(eng, PNPM)

    async def call() -> tuple[dict[str, Any], dict[str, Any], str]:
        async with Client(build_server(eng)) as client:
            tools = {t.name: t.description or "" for t in await client.list_tools()}
            answer = await client.call_tool("memory_user_correction", {"correction": {"correction": BUN, "namespace": _ns()}})
            got = await client.call_tool("memory_get", {"memory_id": old_id, "namespace": _ns()})
            return answer.structured_content or {}, got.structured_content or {}, tools["memory_user_correction"]

    answer, got, description = asyncio.run(call())
    assert answer["corrected"] == old_id and answer["supersedes"] == [old_id]
    assert "retired" in answer["correction_note"] or answer["correction_note"].startswith("corrects")
    assert got["memory"]["status"] == "deprecated" if "memory" in got else got["status"] == "deprecated"
    assert "corrected" in description and "correction_note" in description


def test_a_reviewed_correction_corrects_when_approved(eng: MemoryEngine) -> None:
    """In a reviewed namespace the correction waits; the approval applies it through the same write path, so the
    proposal's answer names what it corrected."""
    from hindsight.review.queue import ReviewQueue
    from hindsight.review.service import ReviewService

    old_id = _semantic(eng, PNPM)
    review = ReviewService(eng, ReviewQueue(eng.store), _ns())
    pending = review.record_event(events.UserCorrection(correction=BUN, namespace=_ns()), "token:agent")
    assert pending["status"] == "pending_review" and eng.get(old_id, _ns()).status == Status.active
    decided = review.approve(pending["proposal_id"], "alice", namespace=_ns())
    assert decided["result"]["corrected"] == old_id and eng.get(old_id, _ns()).status == Status.deprecated
