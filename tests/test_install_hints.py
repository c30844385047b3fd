"""Every install hint in an error message says what README says (round 34, ux33's finding 1 carried into src).

README installs hindsight from its checkout (`scripts/setup.sh langgraph`, or `.venv/bin/pip install -e
".[langgraph]"`): it is not on PyPI. The errors of embeddings/, storage/ and rerank said `pip install
'hindsight-memory[st]'` (a name no index holds) until round 34; they now all come from `install_hint`."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

import pytest
from test_install_names import INDEX_NAME

from hindsight.errors import ProviderUnavailableError
from hindsight.install_hint import core_hint, extra_hint

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "src" / "hindsight").rglob("*.py"))
EXTRAS = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"])


def test_no_message_in_src_installs_hindsight_from_an_index() -> None:
    """Failed on main: eight places named 'hindsight-memory[...]' (seven messages in embeddings, storage, rerank; a docstring)."""
    found = [f"{path.relative_to(ROOT)}: {match.group(0)!r}" for path in SOURCES
             for match in INDEX_NAME.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


def test_every_hinted_extra_is_in_pyproject() -> None:
    named = {(path.relative_to(ROOT), m.group(1)) for path in SOURCES
             for m in re.finditer(r"extra_hint\(\"([^\"]+)\"\)", path.read_text(encoding="utf-8"))}
    assert {extra for _, extra in named} >= {"st", "minilm", "ann", "qdrant", "postgres"}
    assert [f"{path}: {extra}" for path, extra in sorted(named) if extra not in EXTRAS] == []


def test_the_hint_uses_readmes_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    hint = extra_hint("langgraph")
    for command in ("scripts/setup.sh langgraph", '.venv/bin/pip install -e ".[langgraph]"'):
        assert command in readme and command in hint, command
    assert "scripts/setup.sh" in core_hint() and "pip install -e ." in readme


def test_a_missing_extra_names_the_checkouts_command(monkeypatch: pytest.MonkeyPatch) -> None:
    from hindsight.embeddings.sentence_transformers_provider import SentenceTransformerEmbedder

    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # as if the `st` extra were not installed
    with pytest.raises(ProviderUnavailableError) as caught:
        SentenceTransformerEmbedder("any-model")
    assert 'scripts/setup.sh st (or .venv/bin/pip install -e ".[st]")' in str(caught.value)
    assert not INDEX_NAME.search(str(caught.value))
