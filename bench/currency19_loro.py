"""Leave-one-round-out over the settings of currency round 19 (issue 10), from `currency19_rows.py replay` outputs.

    PYTHONPATH=src:bench python bench/currency19_loro.py DIR OUT.json     # DIR/S_<setting>.json for off, value, value1

Per round and setting, against off (main's reading) on the replayed rows (the only rows a setting can move): changes
retired, wrong deprecations, distinct kept apart, restatements merged, others untouched, and the confusion matrix
(label -> outcome). Each round is scored with the setting that does best on the other rounds - changes gained - 5 x
(wrong deprecations added + distinct no longer kept + others touched), ties to the narrower setting - the rule of
currency rounds 17 and 18 (`currency18_loro.score`), stated before measuring.
"""
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from currency18_loro import counts, score

ORDER = ("off", "value", "value1")


def confusion(rows: dict, rounds: set[str]) -> dict[str, int]:
    return dict(Counter(f"{r['label']}->{r['verdict']}" for k, r in rows.items() if k.split(":")[0] in rounds))


def main() -> None:
    root, out_path = Path(sys.argv[1]), Path(sys.argv[2])
    raw = {s: json.loads((root / f"S_{s}.json").read_text()) for s in ORDER if (root / f"S_{s}.json").exists()}
    runs = {s: counts(rows) for s, rows in raw.items()}
    rounds = sorted(runs["off"])
    delta = {s: {r: {k: runs[s][r][k] - runs["off"][r][k] for k in runs["off"][r]} for r in rounds} for s in runs}
    report: dict = {"pooled_delta": {s: {k: sum(delta[s][r][k] for r in rounds) for k in delta[s][rounds[0]]}
                                     for s in runs}, "folds": {}}
    held: dict[str, int] = defaultdict(int)
    chosen: dict[str, set[str]] = defaultdict(set)
    for r in rounds:
        best = max(runs, key=lambda s: (sum(score(delta[s][x]) for x in rounds if x != r), -ORDER.index(s)))
        report["folds"][r] = best
        chosen[best].add(r)
        for k, v in delta[best][r].items():
            held[k] += v
    report["held_out_delta"] = dict(held)
    report["main_pooled"] = {k: sum(runs["off"][r][k] for r in rounds) for k in runs["off"][rounds[0]]}
    held_rows = {k: v for s, rs in chosen.items() for k, v in raw[s].items() if k.split(":")[0] in rs}
    report["confusion_main"] = confusion(raw["off"], set(rounds))
    report["confusion_held_out"] = confusion(held_rows, set(rounds))
    report["per_round_delta"] = {s: {r: d for r, d in delta[s].items() if any(d[k] for k in d if k != "rows")}
                                 for s in runs}
    out_path.write_text(json.dumps(report, indent=1))
    print(json.dumps({k: report[k] for k in ("pooled_delta", "held_out_delta", "main_pooled", "confusion_main",
                                             "confusion_held_out")}, indent=1))
    print("folds:", Counter(report["folds"].values()))


if __name__ == "__main__":
    main()
