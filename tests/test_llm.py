"""Everything that can use an LLM, against a real local HTTP server speaking the OpenAI chat protocol with
scripted answers: summaries, conflict decisions, listwise rerank, and the clean fallback when it fails."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from local_http import json_endpoint

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.llm import LLMClient
from hindsight.retrieval.rerank import LLMListwiseReranker, create_reranker
from hindsight.write.judge import classify


class Script:
    """Scripted chat answers: a string, a callable of the request body, or 'FAIL' (HTTP 500)."""

    def __init__(self) -> None:
        self.script: list = []
        self.requests: list[dict] = []

    def __call__(self, body: dict, path: str) -> tuple[int, dict | None]:
        self.requests.append(body)
        answer = self.script.pop(0) if self.script else "FAIL"
        if callable(answer):
            answer = answer(body)
        if answer == "FAIL" or not path.endswith("/chat/completions"):
            return 500, None
        return 200, {"choices": [{"message": {"role": "assistant", "content": answer}}]}


@pytest.fixture
def chat() -> Iterator[tuple[str, Script]]:
    script = Script()
    with json_endpoint(script) as url:
        yield url, script


def _engine(tmp_path: Path, embedder, url: str) -> MemoryEngine:
    settings = HindsightSettings(db=tmp_path / "llm.db", llm_url=url, llm_model="scripted", llm_timeout=5)
    return MemoryEngine.open(tmp_path / "llm.db", settings, embedder)


def test_summary_uses_the_llm_and_falls_back(tmp_path: Path, embedder, chat) -> None:
    url, handler = chat
    engine = _engine(tmp_path, embedder, url)
    engine.writer.hygiene = None
    ids = [engine.store_memory({"content": c}).memory_id for c in
           ["Raised max_connections to 200.", "Restarted PostgreSQL.", "连接池不再耗尽。"]]
    handler.script = ["目标：解决连接池耗尽；步骤：调大 max_connections 并重启；适用：连接数突增。"]
    result = engine.summarize(ids, "structured")
    assert result["method"] == "llm" and result["summary"].startswith("目标")
    assert handler.requests[-1]["model"] == "scripted" and "max_connections" in handler.requests[-1]["messages"][1]["content"]
    handler.script = ["FAIL"]
    fallback = engine.summarize(ids, "brief")
    assert fallback["method"] == "extractive" and fallback["summary"]
    engine.close()


def test_conflict_decision_asks_the_llm(chat) -> None:
    url, handler = chat
    llm = LLMClient(url, "scripted", timeout=5)
    handler.script = ["override"]
    verdict = classify("The team uses MySQL.", "The team moved everything to PostgreSQL.", 0.86, llm=llm)
    assert verdict.label == "override"
    handler.script = ["FAIL"]  # endpoint down: the heuristic decides, no exception
    assert classify("用户喜欢喝咖啡。", "用户喜欢喝咖啡。", 0.99, llm=llm).label == "duplicate"


def test_listwise_rerank_orders_candidates(tmp_path: Path, embedder, chat) -> None:
    url, handler = chat
    reranker = create_reranker("llm", LLMClient(url, "scripted", timeout=5))
    assert isinstance(reranker, LLMListwiseReranker)
    handler.script = ["3, 1"]
    scores = reranker.score("why did the deploy fail", ["login bug", "pool size", "staging token expired"])
    assert scores[2] > scores[0] > scores[1]
    handler.script = ["FAIL"]
    assert reranker.score("q", ["a", "b"]) == sorted(reranker.score("q", ["a", "b"]), reverse=True)

    settings = HindsightSettings(db=tmp_path / "rr.db", llm_url=url, llm_model="scripted", reranker="llm")
    engine = MemoryEngine.open(tmp_path / "rr.db", settings, embedder)
    engine.writer.hygiene = None
    for text in ["login bug fixed by clearing cookies", "database pool raised to 200", "deploy failed: staging token expired"]:
        engine.store_memory({"content": text})
    def pick_pool(body: dict) -> str:  # answer like a model would: the listing line about the pool first
        lines = [line for line in body["messages"][1]["content"].splitlines() if line.startswith("[")]
        return next(line[1:line.index("]")] for line in lines if "pool" in line)

    handler.script = [pick_pool]
    hits = engine.search("anything about the database?", top_k=1)
    assert "pool" in hits[0].memory.content and hits[0].why.rerank_score is not None
    engine.close()


def test_llm_reranker_needs_an_endpoint() -> None:
    from hindsight.errors import ProviderUnavailableError

    with pytest.raises(ProviderUnavailableError):
        create_reranker("llm", None)
