"""A new user's first hour, round 35 (tidy35): what the CLI showed that read wrong.

- `search`'s why column read `kw#None` for a hit the keyword index did not find (the demo's own table says `-`);
- table cells cut a memory's text mid-word with no mark ("failed twice because the staging token e"), so a cut
  text read as the whole memory: a cut cell now ends with '…'.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from bag_embedder import BagEmbedder
from rich.console import Console
from typer.testing import CliRunner, Result

from hindsight import cli_common
from hindsight.cli import app
from hindsight.cli_common import clip


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for key in list(os.environ):
        if key.startswith("HINDSIGHT_"):
            monkeypatch.delenv(key)
    monkeypatch.setattr(cli_common, "create_embedder", lambda spec, lazy=False: BagEmbedder(words=True))
    monkeypatch.setattr(cli_common.console, "_width", 250)
    yield


def ok(db: Path, *args: str) -> Result:
    result = CliRunner().invoke(app, [*args, "--db", str(db)])
    assert result.exit_code == 0, f"{args}: {result.stderr}"
    return result


def test_search_why_column_says_dash_for_a_retriever_that_missed(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    ok(db, "add", "The deploy script lives in ops/deploy.sh")
    hits = json.loads(ok(db, "search", "zebra", "--json").stdout)
    assert hits and "keyword_rank" not in hits[0]["why"]  # found by the dense side alone
    table = ok(db, "search", "zebra").stdout
    assert "None" not in table and "kw#-" in table


def test_a_cut_cell_ends_with_an_ellipsis(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    long = "Deploying with make release failed twice because the staging token expired; refresh it first please."
    ok(db, "add", long)
    listing = ok(db, "list").stdout
    assert long[:80].rstrip() + "…" in listing
    short = "Nightly backups run at 02:00 UTC"
    assert clip(short, 80) == short and clip(long, 10) == "Deploying…"


def test_the_demo_marks_its_cut_texts(tmp_path: Path) -> None:
    from hindsight.demo import run_demo
    from hindsight.engine import MemoryEngine

    console = Console(record=True, width=200)
    engine = MemoryEngine.open(tmp_path / "d.db", embedder=BagEmbedder(words=True))
    try:
        run_demo(engine, console)
    finally:
        engine.close()
    text = console.export_text()
    assert "Database migration to v42 ran on staging; the orders table needed a ba…" in text
    assert "needed a ba " not in text and "needed a ba│" not in text


def test_deciding_a_proposal_in_another_namespace_says_to_pass_it(tmp_path: Path) -> None:
    """ux round 35: `memory_review_decide` with a kb proposal's id and no namespace (it defaults to 'default', and
    README's table did not list it) answered "no proposal 'prop_…' in namespace 'default'", as if it were gone."""
    from hindsight.engine import MemoryEngine
    from hindsight.review.queue import ProposalNotFoundError, ReviewQueue

    engine = MemoryEngine.open(tmp_path / "m.db", embedder=BagEmbedder(words=True))
    try:
        queue = ReviewQueue(engine.store)
        proposal = queue.add("kb", "store", {"content": "Release notes live in the wiki", "namespace": "kb"},
                             "token:agent")
        with pytest.raises(ProposalNotFoundError,
                           match=r"in namespace 'default' \(pass the namespace it was proposed in\)$"):
            queue.get(proposal.id, "default")
        assert queue.get(proposal.id, "kb").id == proposal.id
    finally:
        engine.close()
