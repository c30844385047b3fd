"""Which released texts / hygiene pairs a change to the label reading (`number_labels`) moves (no model, no store).

    PYTHONPATH=src python bench/labels_agent_diff.py pairs OUT.json    # labelled_apart of every released pair
    PYTHONPATH=src python bench/labels_agent_diff.py texts OUT.json    # clause_labels of every released text
Run once with main's src and once with the change's, then compare the two files.
"""
import glob
import json
import sys

try:  # round 34: the label reading lives in number_labels, the clause cut in clause_split
    from hindsight.write import number_labels as v
    from hindsight.write.clause_split import clauses
except ImportError:  # an older src (both in value_align)
    from hindsight.write import value_align as v  # type: ignore[no-redef]
    clauses = v.clauses


def released_pairs() -> list[list]:
    out = []
    files = sorted(glob.glob("bench/data/blind/r*/hygiene/set.jsonl") + glob.glob("bench/data/train/*/hygiene/set.jsonl")
                   + glob.glob("bench/data/train/*/set.jsonl"))
    for f in files:
        for i, line in enumerate(open(f, encoding="utf-8")):
            if not line.strip():
                continue
            r = json.loads(line)
            if "existing" not in r:
                continue
            olds = [("existing", r["existing"])] + [
                ("other", o if isinstance(o, str) else o.get("content", "")) for o in r.get("others", [])]
            for kind, old in olds:
                out.append([f, i, kind, r["label"], bool(v.labelled_apart(old, r["new"]))])
    return out


def released_texts() -> dict[str, list]:
    texts: set[str] = set()
    for f in (glob.glob("bench/data/blind/r*/*/set.jsonl") + glob.glob("bench/data/blind/r*/retrieval/memories.jsonl")
              + glob.glob("bench/data/train/**/*.jsonl", recursive=True)):
        for line in open(f, encoding="utf-8"):
            if not line.strip():
                continue
            r = json.loads(line)
            texts.update(r[k] for k in ("existing", "new", "text", "content") if isinstance(r.get(k), str))
            texts.update(o if isinstance(o, str) else o.get("content", "") for o in r.get("others", []) or [])
    return {t: sorted(map(list, frozenset().union(*(v.clause_labels(c) for c in clauses(t))))) for t in sorted(texts)}


if __name__ == "__main__":
    result = released_pairs() if sys.argv[1] == "pairs" else released_texts()
    json.dump(result, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
    print(len(result))
