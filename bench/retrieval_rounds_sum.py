"""Pool two runs of `blind_eval.py retrieval` over the released rounds both finished (round 33, small33).

    python bench/retrieval_rounds_sum.py BEFORE_DIR AFTER_DIR > result.json

Each dir holds ROUND.json files (one `blind_eval.py retrieval` output each). hit@5 is pooled per category over the
rounds present in both (hits = rate x n, summed); superseded returned as current is pooled weighted by the round's
superseded query count (the harness gives only the rate), and also listed per round.
"""
import json
import sys
from pathlib import Path


def load(folder: Path) -> dict[str, dict]:
    out = {}
    for path in sorted(folder.glob("*.json")):
        try:
            out[path.stem] = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError:
            continue  # a round still running
    return out


def pooled(runs: dict[str, dict], rounds: list[str]) -> dict:
    hits: dict[str, float] = {}
    n: dict[str, int] = {}
    stale = stale_n = 0.0
    for r in rounds:
        for cat, rate in runs[r]["hit@5"].items():
            hits[cat] = hits.get(cat, 0.0) + (rate or 0.0) * runs[r]["n"][cat]
            n[cat] = n.get(cat, 0) + runs[r]["n"][cat]
        s = runs[r].get("superseded_returned_as_current")
        if s is not None:
            stale += s * runs[r]["n"].get("superseded", 0)
            stale_n += runs[r]["n"].get("superseded", 0)
    return {"hit@5": {c: round(hits[c] / n[c], 4) for c in sorted(n)},
            "hits": {c: round(hits[c]) for c in sorted(n)}, "n": dict(sorted(n.items())),
            "superseded_returned_as_current": round(stale / stale_n, 4) if stale_n else None}


def main() -> None:
    before, after = load(Path(sys.argv[1])), load(Path(sys.argv[2]))
    rounds = sorted(set(before) & set(after))
    per = {r: {"before": before[r]["hit@5"], "after": after[r]["hit@5"],
               "superseded_as_current": [before[r].get("superseded_returned_as_current"),
                                         after[r].get("superseded_returned_as_current")]} for r in rounds}
    print(json.dumps({"rounds": rounds, "before": pooled(before, rounds), "after": pooled(after, rounds),
                      "per_round": per}, indent=1))


if __name__ == "__main__":
    main()
