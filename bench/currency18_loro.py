"""Leave-one-round-out over the settings of currency round 18 (issue 10), from `currency18_rows.py replay` outputs.

    PYTHONPATH=src:bench python bench/currency18_loro.py DIR OUT.json     # DIR/S_<setting>.json for every setting

Per round and setting, against off (main's reading) on the replayed rows (the only rows a setting can move): changes
retired, wrong deprecations (restatement / distinct / supplement retired), distinct kept apart, restatements merged,
others untouched. Each round is scored with the setting that does best on the other rounds: changes gained - 5 x
(wrong deprecations added + distinct no longer kept + others touched), ties to the narrower setting (off, then one
reading, then all); the rule is currency17's, stated before measuring.
"""
import json
import sys
from collections import defaultdict
from pathlib import Path

ORDER = ("off", "state", "swap", "contrast", "all")
EXPECTED = {"restatement": "merged", "change": "change", "distinct": "kept", "supplement": "kept"}


def counts(rows: dict) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for key, r in rows.items():
        c = out[key.split(":")[0]]
        c["changes"] += r["label"] == "change" and r["verdict"] == "change"
        c["wrong"] += r["label"] != "change" and r["verdict"] == "change"
        c["distinct_kept"] += r["label"] == "distinct" and r["verdict"] == "kept"
        c["restatements"] += r["label"] == "restatement" and r["verdict"] == "merged"
        c["others_ok"] += sum(r["others_ok"])
        c["others"] += len(r["others_ok"])
        c["rows"] += 1
    return out


def score(d: dict[str, int]) -> int:
    return d["changes"] - 5 * (d["wrong"] - d["distinct_kept"] - d["others_ok"]) if d else 0


def main() -> None:
    root, out_path = Path(sys.argv[1]), Path(sys.argv[2])
    runs = {s: counts(json.loads((root / f"S_{s}.json").read_text())) for s in ORDER if (root / f"S_{s}.json").exists()}
    rounds = sorted(runs["off"])
    delta = {s: {r: {k: runs[s][r][k] - runs["off"][r][k] for k in runs["off"][r]} for r in rounds} for s in runs}
    report: dict = {"pooled_delta": {s: {k: sum(delta[s][r][k] for r in rounds) for k in delta[s][rounds[0]]}
                                     for s in runs},
                    "per_round_delta": delta, "folds": {}}
    held = defaultdict(int)
    for r in rounds:
        best = max(runs, key=lambda s: (sum(score(delta[s][x]) for x in rounds if x != r), -ORDER.index(s)))
        report["folds"][r] = best
        for k, v in delta[best][r].items():
            held[k] += v
    report["held_out_delta"] = dict(held)
    report["main_pooled"] = {k: sum(runs["off"][r][k] for r in rounds) for k in runs["off"][rounds[0]]}
    out_path.write_text(json.dumps(report, indent=1))
    print(json.dumps({k: report[k] for k in ("pooled_delta", "held_out_delta", "main_pooled")}, indent=1))
    print("folds:", report["folds"])


if __name__ == "__main__":
    main()
