"""Install commands in the user-facing docs name the checkout, never a package index name (ux round 33).

hindsight is installed from its checkout; it is not on PyPI. `pip install "hindsight[langgraph]"` (README and
examples/langgraph_agent.py until round 33) installs an unrelated PyPI project that happens to be called
`hindsight`, and `pip install 'hindsight-memory[postgres]'` (docs/deploy.md) finds nothing."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
USER_DOCS = [ROOT / "README.md", *(ROOT / "docs" / name for name in ("deploy.md", "dependencies.md", "security.md",
                                                                       "architecture.md")),
             *sorted((ROOT / "examples").glob("*.py"))]
#: `pip install hindsight...` / `pip install 'hindsight-memory[x]'`: a name pip would look up in the index
INDEX_NAME = re.compile(r"pip install\s+(?:-U\s+)?[\"']?hindsight(?:-memory)?(?:\[|[\"'\s]|$)", re.MULTILINE)


def test_no_user_doc_installs_hindsight_from_an_index() -> None:
    found = [f"{path.relative_to(ROOT)}: {match.group(0)!r}" for path in USER_DOCS
             for match in INDEX_NAME.finditer(path.read_text(encoding="utf-8"))]
    assert found == []


def test_the_pattern_catches_the_old_forms() -> None:
    for text in ('pip install "hindsight[langgraph]"', "pip install 'hindsight-memory[postgres]'", "pip install hindsight"):
        assert INDEX_NAME.search(text), text
    for text in ('pip install -e ".[langgraph]"', "pip install '/path/to/hindsight[postgres]'", "pip install -e ."):
        assert not INDEX_NAME.search(text), text
