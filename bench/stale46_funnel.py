"""Where the round-46 reading loses the stale-as-current questions of cause (a) - the stale memory active and current
in the head of 5 with its replacement (bench/results/stale46/ship_rule.md; read after the held-out result).

    python bench/stale46_funnel.py OUT.json r29 ... r39

For each such question, the (stale, replacement) pair through the bars of `asked_slot.mark_asked_slot` in its order
with the dev choice's floors (`en0.84/zh0.89/and/both/.../store`): the first bar it fails, or "passes".
"""
import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from currency37_replay import Round
from stale46_replay import LOCATIONS

from hindsight.retrieval.asked_current import ASKS_CURRENT, asks_current
from hindsight.retrieval.asked_kind import answers_differently, asked_kind
from hindsight.retrieval.asked_slot import replaced_in_slot
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.slot_cues import anchors, subject_kept

FLOOR = {"en": 0.84, "zh": 0.89}


def first_failed(q: dict, old, new, cos: float) -> str:  # type: ignore[no-untyped-def]
    question, a, b = q["query"], old.content, new.content
    asked = ASKS_CURRENT.sub(" ", question)
    ga, gb = bias_group(a), bias_group(b)
    checks = [
        ("no present-tense word", asks_current(question)),
        ("older dated later or same", old.reference_time < new.reference_time),
        ("a hit shares no question term", bool(anchors(asked, a)) and bool(anchors(asked, b))),
        ("two scripts", ga == gb),
        ("cosine under the floor", cos >= FLOOR.get(ga, 2.0)),
        ("no question term in both", bool(anchors(asked, a) & anchors(asked, b))),
        ("subject not kept", subject_kept(a, b)),
        ("question asks no value kind", asked_kind(question) is not None),
        ("not two values of the kind", answers_differently(question, a, b)),
        ("no change told / owner / addition", replaced_in_slot(a, b, cos, False, old.type)),
    ]
    return next((name for name, ok in checks if not ok), "passes (nearest checks)")


def main() -> None:
    out: dict = {}
    total: Counter = Counter()
    for r in sys.argv[2:]:
        st, du = LOCATIONS[r]
        rd = Round(Path(st), Path(du), r)
        c: Counter = Counter()
        for q in rd.pools:
            if not q["stale"]:
                continue
            head = q["pool"][:5]
            mid = [rd.ids.get(p["id"], p["id"]) for p in head]
            rel = [m for m in mid if m in {rd.ids.get(x) for x in q["relevant"]}]
            stale = [m for m, p in zip(mid, head, strict=True) if m in {rd.ids.get(x) for x in q["stale"]}
                     and p["status"] == "active" and p["current"]]
            if not stale:
                continue
            if not rel:
                c["(b) replacement not in the head"] += 1
                continue
            o, n = rd.records[stale[0]], rd.records[rel[0]]
            v = rd.embeddings([o.id, n.id])
            cos = float(np.dot(v[o.id], v[n.id])) if len(v) == 2 else 0.0
            c[first_failed(q, o, n, cos)] += 1
        out[r] = dict(c)
        total.update(c)
    out["total"] = dict(total)
    print(json.dumps(dict(total.most_common()), ensure_ascii=False, indent=1))
    Path(sys.argv[1]).write_text(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
