"""xljudge35 (issue 10): the cross-script judge's setting chosen leave-one-round-out over the replayed stores
(`xljudge35_replay.py`), under the rule declared first (bench/results/xljudge35_rule.md).

    PYTHONPATH=src:bench python bench/xljudge35_loro.py OUT.json REPLAY.json

Per fold: the setting with the best score = replaced retired gain - 3 x kept retired gain over the other rounds
(against the replay's main), ties to the one that moves least (higher t, e on, lower c, x off); a best score <= 0 is
main. Held out: each round read at its fold's setting; in sample: the setting chosen on every round.
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

MAIN = "t0.84/-/c0.99/-"


def parse(k: str) -> tuple[float, bool, float, bool]:
    t, e, c, x = k.split("/")
    return float(t[1:]), e == "e", float(c[1:]), x == "x"


def score(per: dict, rounds: list[str], s: str) -> tuple[int, int, int]:
    right = sum(per[r]["cells"][s]["replaced_retired"] - per[r]["cells"]["main"]["replaced_retired"] for r in rounds)
    wrong = sum(per[r]["cells"][s]["kept_retired"] - per[r]["cells"]["main"]["kept_retired"] for r in rounds)
    return right - 3 * wrong, right, wrong


def choose(per: dict, rounds: list[str], settings: list[str]) -> str:
    def order(s: str) -> tuple:
        t, e, c, x = parse(s)
        return (-score(per, rounds, s)[0], -t, not e, c, x)
    best = min(settings, key=order)
    return best if score(per, rounds, best)[0] > 0 else MAIN


def cells(per: dict, picks: dict[str, str]) -> dict:
    tot: Counter = Counter()
    for r, s in picks.items():
        c = per[r]["cells"][s]
        tot.update({"replaced_retired": c["replaced_retired"], "kept_retired": c["kept_retired"],
                    "replaced_left_active": c["replaced"] - c["replaced_retired"], "replaced": c["replaced"]})
    return dict(tot)


def main() -> None:
    out, replay = sys.argv[1], sys.argv[2]
    data = json.loads(Path(replay).read_text())
    per, settings = data["per_round"], [s for s in data["settings"]]
    rounds = list(per)
    folds = {r: choose(per, [q for q in rounds if q != r], settings) for r in rounds}
    inside = choose(per, rounds, settings)
    res = {
        "rounds": rounds,
        "log": cells(per, {r: "log" for r in rounds}),
        "main": cells(per, {r: "main" for r in rounds}),
        "held_out": cells(per, folds),
        "in_sample": cells(per, {r: inside for r in rounds}),
        "in_sample_setting": inside,
        "fold_settings": dict(Counter(folds.values())),
        "folds": folds,
        "per_round": {r: {"main": per[r]["cells"]["main"], "held_out": per[r]["cells"][folds[r]],
                          "in_sample": per[r]["cells"][inside], "drift_writes": per[r]["drift_writes"]}
                      for r in rounds},
        "every_setting_pooled": {s: dict(zip(("score", "right_gain", "wrong_gain"), score(per, rounds, s)))
                                 for s in settings},
    }
    Path(out).write_text(json.dumps(res, indent=1) + "\n")
    for k in ("log", "main", "held_out", "in_sample"):
        print(k, res[k])
    print("in sample:", inside, "folds:", res["fold_settings"])
    top = sorted(res["every_setting_pooled"].items(), key=lambda kv: -kv[1]["score"])[:12]
    for s, v in top:
        print(s, v)


if __name__ == "__main__":
    main()
