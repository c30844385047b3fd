"""Do the judge's lexical readings answer the same on two trees? (issue 14, write cost eleventh round)

    PYTHONPATH=src .venv/bin/python bench/judge_equivalence.py OUT.json [--limit N]   # once per tree, then cmp

Every released hygiene pair (bench/data/blind/*/hygiene, bench/data/train/*/hygiene: existing / new and up to two
`others` against the new text) and every pair of LoCoMo turns of conversations 0-1 within six turns, both directions:
the content diff, `merge_blocker` (without and with a restatement p of 0.9), `change_evidence`, the heuristic's label
and reason, `_same_frame`, the pair model's and the restatement model's feature rows (fixed cosines), the wide search's
`shared_terms`, `anchor_terms` and `classify_rules`' reason, written as JSON. Two trees agree when the files are equal.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from locomo import DATA, turns

from hindsight.text.tokenize import warm_up
from hindsight.write import restatement
from hindsight.write.analysis import _same_frame, analyse, content_diff
from hindsight.write.conflict import heuristic
from hindsight.write.evidence import Slots, change_evidence, merge_blocker
from hindsight.write.judge import classify_rules
from hindsight.write.pair_features import anchor_terms, pair_features
from hindsight.write.supersede import shared_terms

ROOT = Path(__file__).resolve().parent / "data"


def pairs() -> list[tuple[str, str]]:
    out = []
    for path in sorted(ROOT.glob("blind/*/hygiene/set.jsonl")) + sorted(ROOT.glob("train/*/hygiene/set.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                out.append((row["existing"], row["new"]))
                out.extend((other, row["new"]) for other in row.get("others", [])[:2])
    for conversation in json.loads(DATA.read_text())[:2]:
        texts = [t["content"] for t in turns(conversation)]
        out.extend((texts[j], texts[k]) for k in range(len(texts)) for j in range(max(0, k - 6), k))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--limit", type=int, default=0)
    args = parser.parse_args()
    warm_up()
    rows = []
    todo = pairs()
    for old, new in todo[: args.limit or len(todo)]:
        for a_, b_ in ((old, new), (new, old)):
            a = analyse(a_, b_)
            s = Slots.of(a)
            label, reason, _ = heuristic(a_, b_)
            rows.append([repr(content_diff(a)), merge_blocker(a, s, a_, b_), merge_blocker(a, s, a_, b_, 0.9),
                         change_evidence(a_, b_, a, s), label, reason,
                         _same_frame(s.old_content, s.lost, s.new_content, s.novel),
                         pair_features(a_, b_, 0.9, 0.88).tolist(),
                         restatement.pair_features(a_, b_, 0.9, 0.88, a, label, reason).tolist(),
                         shared_terms(a_, b_), sorted(anchor_terms(a_)),
                         classify_rules(a_, b_, 0.9, query_similarity=0.9).reason])
    Path(args.out).write_text(json.dumps(rows))
    print(f"{len(todo)} pairs, {len(rows)} rows -> {args.out}")


if __name__ == "__main__":
    main()
