"""Outputs of the judgement modules split in mend22, over every released text: the hygiene readings of each pair of
the released blind and training rounds (merge blocker, change evidence, end cues, slot readings, the alignment) and
the time parse of each released retrieval query; with a second argument also the tokenizer's ids of every text.

    PYTHONHASHSEED=0 PYTHONPATH=<one tree>/src python bench/split_equivalence.py . > before.json
    PYTHONHASHSEED=0 PYTHONPATH=src python bench/split_equivalence.py . > after.json; cmp before.json after.json

It imports the names from either layout (before or after the split), so the same script runs on both trees; the
hash seed is fixed because the alignment's repr shows sets (docs/benchmarks.md, "Module splits (mend22)").
"""
import json
import sys
from dataclasses import is_dataclass
from datetime import UTC, datetime
from pathlib import Path

from hindsight.write import evidence, slots
from hindsight.write.analysis import analyse

try:
    from hindsight.write.end_cues import end_cue, ended_thing
except ImportError:
    from hindsight.write.evidence import end_cue, ended_thing
try:
    from hindsight.write.slot_align import align
except ImportError:
    from hindsight.write.slots import align
from hindsight.retrieval.query_parser import parse_query

ROOT = Path(sys.argv[1])
out = {"pairs": {}, "queries": {}, "tokens": {}}
texts = set()
pairs = []
for path in sorted(ROOT.glob("bench/data/blind/*/hygiene/set.jsonl")) + sorted(ROOT.glob("bench/data/train/**/*.jsonl")):
    for i, line in enumerate(open(path, encoding="utf-8")):
        if not line.strip():
            continue
        row = json.loads(line)
        if not isinstance(row, dict) or "existing" not in row or "new" not in row:
            continue
        old, new = row["existing"], row["new"]
        pairs.append((f"{path.relative_to(ROOT)}:{i}", old, new))
        for o in row.get("others") or []:
            pairs.append((f"{path.relative_to(ROOT)}:{i}:o", o, new))
        texts.update([old, new, *(row.get("others") or [])])


def show(x):
    if is_dataclass(x):
        return repr(x)
    return x


for key, old, new in pairs:
    a = analyse(old, new)
    cue = end_cue(old, new)
    al = align(old, new)
    out["pairs"][key] = [
        evidence.merge_blocker(a, None, old, new), evidence.merge_blocker(a, None, old, new, 0.7),
        evidence.change_evidence(old, new, a), evidence.ended_here(old, new), evidence.weak_anchor(a),
        evidence.single_substitution(old, new), cue, ended_thing(new, cue) if cue else None,
        slots.other_entity(old, new), slots.other_fact(old, new), slots.slot_conflict(old, new),
        slots.appended_detail(old, new), slots.numeric_change(old, new), slots.structural_change_ok(old, new),
        slots.kept_whole(old, new), slots.subject_shared(old, new), repr(al),
    ]
now = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)
for path in sorted(ROOT.glob("bench/data/blind/*/retrieval/queries.jsonl")):
    for i, line in enumerate(open(path, encoding="utf-8")):
        if line.strip():
            q = json.loads(line)
            text = q.get("query") or q.get("text") or ""
            out["queries"][f"{path.relative_to(ROOT)}:{i}"] = repr(parse_query(text, now))
            texts.add(text)
if len(sys.argv) > 2:
    from hindsight.embeddings.e5_numpy import NumpyE5, bundled_model_path
    tok = NumpyE5(bundled_model_path(), expand_layers=False).tokenizer
    for t in sorted(texts):
        out["tokens"][t] = [tok.content_ids(t), tok.viterbi(t.replace(" ", "\u2581"))[0]]
print(len(out["pairs"]), len(out["queries"]), len(out["tokens"]), file=sys.stderr)
json.dump(out, sys.stdout, ensure_ascii=False, sort_keys=True, default=str)
