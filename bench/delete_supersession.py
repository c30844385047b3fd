"""Links to nothing after hard deletes (attack round 38, round 39): on a released round's retrieval store (written
by `blind_store.build`: the real embedder, hygiene on), hard-delete every memory that hygiene made another's
`superseded_by`, then count what still names a missing id: `superseded_by` in metadata, `supersedes` edges, and the
`not_current` entries of a search for each retired memory's own text (statuses active + deprecated).

    PYTHONPATH=src .venv/bin/python bench/delete_supersession.py OUT.json r35 r36 r37

No threshold or choice is tuned here: the same rounds are read on main's code and on the branch's.
"""

import json
import sys
from pathlib import Path

from blind_store import build, open_copy

from hindsight.present import result_view

STORES = Path("/tmp/c39/stores")


def measure(name: str) -> dict[str, int]:
    store = STORES / name
    build(Path("bench/data/blind") / name, store, None)
    eng = open_copy(store, None)
    try:
        records = list(eng.store.iter_all("r"))
        retired = [r for r in records if r.metadata.get("superseded_by")]
        targets = sorted({str(r.metadata["superseded_by"]) for r in retired})
        for mid in targets:
            if eng.store.get(mid) is not None:
                eng.delete(mid, "r", actor="bench", reason="bench: erase the replacement")
        live = {r.id for r in eng.store.iter_all()}
        after = {r.id: r for r in eng.store.iter_all("r")}
        dangling_meta = sum(1 for r in after.values() if r.metadata.get("superseded_by")
                            and str(r.metadata["superseded_by"]) not in live)
        dangling_edges = sum(1 for e in eng.store.all_edges() if e.kind == "supersedes"
                             and (e.src not in live or e.dst not in live))
        dangling_search = 0
        for r in retired:
            if r.id not in after:
                continue
            hits = eng.search(after[r.id].content, "r", filters={"statuses": ["active", "deprecated"]}, top_k=10)
            dangling_search += sum(1 for item in result_view(hits)["not_current"]
                                   if item["superseded_by"] and item["superseded_by"] not in live)
        status = {r.id: after[r.id].status.value for r in retired if r.id in after}
        return {"memories": len(records), "retired": len(retired), "deleted_replacements": len(targets),
                "dangling_superseded_by": dangling_meta, "dangling_edges": dangling_edges,
                "dangling_not_current_in_search": dangling_search,
                "retired_now_active": sum(1 for v in status.values() if v == "active"),
                "retired_still_deprecated": sum(1 for v in status.values() if v == "deprecated")}
    finally:
        eng.close()


if __name__ == "__main__":
    out = {name: measure(name) for name in sys.argv[2:]}
    Path(sys.argv[1]).write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))
