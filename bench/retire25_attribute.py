"""Retire round 25 (issue 10): the retirements of the released retrieval stores by rule and kind, and the attribute
veto (`write.retire_veto.other_attribute`) read on each, leave-one-round-out.

    PYTHONPATH=src:bench python bench/retire25_attribute.py STORE_ROOT OUT.json

STORE_ROOT: stores `supersede24_stores.py` wrote with main's write path (each with its write_log.json); the events
are `retire24_veto.events` (correct / kept retired, the rule from the write's reason). The veto's settings
(`ATTRIBUTE_MIN_TERMS`, off first) are scored on the other rounds as retire24_veto.py scores its own: kept
retirements vetoed - 2 x correct ones vetoed - 2 x released hygiene change rows it fires on for (existing, new);
ties to off. Static: a vetoed retirement is read as the old memory left active, nothing downstream re-run (the
write moves its retirement elsewhere at times: `supersede24_stores.py` with the veto measures that).
"""
import glob
import json
import sys
from collections import Counter
from pathlib import Path

from currency19_read import ROOT
from retire24_veto import events, kind

import hindsight.write.retire_veto as veto

SETTINGS = [None, 8, 9, 10, 11, 12, 14]


def fires(setting, old: str, new: str) -> bool:  # type: ignore[no-untyped-def]
    if setting is None:
        return False
    veto.ATTRIBUTE_MIN_TERMS = setting
    return bool(veto.other_attribute(old, new))


def main(root: Path, out: Path) -> None:
    evs = [e for e in events(root) if e["kind"] != "other"]
    hyg = [(f.split("/")[-3], json.loads(line)) for f in sorted(glob.glob(str(ROOT / "*/*/hygiene/set.jsonl")))
           for line in open(f, encoding="utf-8") if line.strip()]
    hyg = [(r, d) for r, d in hyg if d["label"] == "change"]
    for e in evs:
        e["fires"] = {str(s): fires(s, e["old_text"], e["new_text"]) for s in SETTINGS}
        e["pair_kind"] = kind(e["old_text"], e["new_text"])
    hc = {str(s): Counter(r for r, d in hyg if fires(s, d["existing"], d["new"])) for s in SETTINGS}
    rounds = sorted({e["round"] for e in evs})

    def score(s: str, among: set[str]) -> int:
        got = [e for e in evs if e["round"] in among and e["fires"][s]]
        return (sum(e["kind"] == "kept" for e in got) - 2 * sum(e["kind"] == "correct" for e in got)
                - 2 * sum(n for r, n in hc[s].items() if r in among or r not in rounds))
    names = [str(s) for s in SETTINGS]
    folds = {r: max(names, key=lambda s: (score(s, set(rounds) - {r}), s == "None")) for r in rounds}
    res: dict = {"rounds": rounds, "folds": folds, "hygiene_change_rows_fired": {s: sum(c.values()) for s, c in hc.items()},
                 "per_setting": {s: {"kept_vetoed": sum(e["kind"] == "kept" and e["fires"][s] for e in evs),
                                     "correct_vetoed": sum(e["kind"] == "correct" and e["fires"][s] for e in evs)}
                                 for s in names}}
    pm = [e for e in evs if e["rule"].startswith("changes the existing")]
    res["pair_model_by_kind"] = {k: dict(Counter(e["pair_kind"] for e in pm if e["kind"] == k)) for k in ("kept", "correct")}
    res["by_rule"] = {k: dict(Counter(e["rule"] for e in evs if e["kind"] == k)) for k in ("kept", "correct")}
    res["held_out"] = {"kept_retired": [sum(e["kind"] == "kept" for e in evs),
                                        sum(e["kind"] == "kept" and not e["fires"][folds[e["round"]]] for e in evs)],
                       "correct_retired": [sum(e["kind"] == "correct" for e in evs),
                                           sum(e["kind"] == "correct" and not e["fires"][folds[e["round"]]] for e in evs)]}
    res["kept_pair_model"] = [{k: e[k] for k in ("round", "old", "new", "pair_kind", "old_text", "new_text")}
                              | {"vetoed_at_10": e["fires"]["10"]} for e in pm if e["kind"] == "kept"]
    out.write_text(json.dumps(res, ensure_ascii=False, indent=1))
    print(json.dumps({k: v for k, v in res.items() if k != "kept_pair_model"}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
