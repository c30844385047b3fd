"""supwrite32: the retire pick read on the hygiene rows' write logs (`supwrite32_hygiene.py`), the second view.

Each row's writes (others, existing, new) are replayed offline: a write merged into a memory keeps its outcome; every
other write retires its best eligible candidate at the model's operating point, or nothing. The row's outcome is then
`change` when the new write retires `existing`, else `kept` (merges as they were); an other is untouched when no
write retires it and it was untouched on main apart from main's own retirements.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import supwrite32_pick as rp

from hindsight.model import MemoryRecord, MemoryType
from hindsight.write.conflict import Verdict


def _records(row: dict) -> dict[str, MemoryRecord]:
    kind = row.get("type", "semantic")
    kind = kind if kind in ("episodic", "semantic", "warning") else "semantic"
    texts = {f"other{k}": t for k, t in enumerate(row.get("others") or [])}
    texts.update(existing=row["existing"], new=row["new"])
    return {role: MemoryRecord(id=role, namespace="h", content=t, type=MemoryType(kind)) for role, t in texts.items()}


def replay_row(row: dict, entry: dict, model: rp.Model) -> tuple[str, list[bool]]:
    recs = _records(row)
    retired_main: set[str] = set()
    retired: set[str] = set()
    for w in entry["writes"]:
        retired_main |= set(w["supersedes"])
        new = recs.get(w["role"])
        if new is None or w["duplicate_of"]:
            retired |= set(w["supersedes"])
            continue
        mine = set(w["supersedes"])
        got = {}
        for j in w["judged"]:
            old = recs.get(j["old"])
            if old is None or not rp.eligible(old, new):
                continue
            x = rp.features(old, new, j["sim"], Verdict(j["label"], j["reason"]), old.id in mine,
                            bool(mine) and old.id not in mine)
            got[old.id] = model.score(x)
        best = max(got, key=lambda k: got[k], default=None)
        if best is not None and got[best] >= model.threshold:
            retired.add(best)
    outcome = entry["outcome"]
    if outcome not in ("merged", "merged_elsewhere"):
        outcome = "change" if "existing" in retired else "kept"
    ok = [(o or f"other{k}" in retired_main) and f"other{k}" not in retired for k, o in enumerate(entry["others_ok"])]
    return outcome, ok


def read_hygiene(hyg: Path, models: dict[str, rp.Model], full: Callable[[], rp.Model]) -> dict:
    """Per hygiene set: main's and the pick's confusion and others untouched (a set's round's fold model where that
    round has a retrieval store, else the model of every round)."""
    out = {}
    cached: list[rp.Model] = []
    for f in sorted(hyg.glob("*.json")):
        rnd = f.stem
        if rnd not in models and not cached:
            cached.append(full())
        model = models.get(rnd) or cached[0]
        from currency19_read import set_dir
        rows = [json.loads(x) for x in open(set_dir(rnd) / "hygiene/set.jsonl", encoding="utf-8") if x.strip()]
        main_c, pick_c = Counter(), Counter()
        main_ok, pick_ok = [], []
        moved = []
        for entry in json.loads(f.read_text()):
            row = rows[entry["i"]]
            outcome, ok = replay_row(row, entry, model)
            main_c[f"{entry['label']}->{entry['outcome']}"] += 1
            pick_c[f"{entry['label']}->{outcome}"] += 1
            main_ok += entry["others_ok"]
            pick_ok += ok
            if outcome != entry["outcome"] or ok != entry["others_ok"]:
                moved.append({"i": entry["i"], "label": entry["label"], "main": entry["outcome"], "pick": outcome,
                              "others_main": entry["others_ok"], "others_pick": ok})
        out[rnd] = {"fold_model": rnd in models, "threshold": model.threshold, "main": dict(sorted(main_c.items())),
                    "pick": dict(sorted(pick_c.items())), "others_untouched": [sum(main_ok), sum(pick_ok), len(main_ok)],
                    "moved": moved}
    return out
