"""supwrite32, after the held-out run (post hoc, not a ship decision): the held-out trade-off of the retire pick over
fixed operating points, and two variants read on the same fold models - the rules' pick with the model's veto only
(a rules' retirement kept unless its score is under t) and the model adding a retirement only where the rules retire
none (at >= t). Each round's writes scored by the model fitted without that round; the points are not chosen per fold.

    PYTHONPATH=src:bench python bench/supwrite32_curve.py OUT.json LOGROOT... [--hyg HYGDIR]
"""
from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

from supwrite32_fit import cached_round, fit, write_scores
from supwrite32_hyg_read import read_hygiene

POINTS = [0.2, 0.3, 0.4, 0.5, 0.6, 0.65, 0.7, 0.8]


def variant(rnd: dict, scored: list, t: float, kind: str) -> tuple[int, int]:
    gone: set[str] = set()
    for got, retired, dup in scored:
        if dup:
            gone |= retired
            continue
        if kind == "veto":
            gone |= {m for m in retired if got.get(m, 1.0) >= t}
        elif kind == "add":
            best = max(got, key=lambda k: got[k], default=None)
            gone |= retired if retired else ({best} if best is not None and got[best] >= t else set())
        else:
            best = max(got, key=lambda k: got[k], default=None)
            gone |= {best} if best is not None and got[best] >= t else set()
    return len(gone & rnd["replaced"]), len(gone - rnd["replaced"])


def main() -> None:
    out = sys.argv[1]
    args = sys.argv[2:]
    hyg = None
    if "--hyg" in args:
        k = args.index("--hyg")
        hyg, args = Path(args[k + 1]), args[:k] + args[k + 2:]
    logs = {}
    for root in args:
        for f in sorted(Path(root).glob("*/write_log.json")):
            logs[f.parent.name] = f
    rounds = {r: cached_round(r, f) for r, f in sorted(logs.items())}
    names = sorted(rounds)
    table: dict = defaultdict(lambda: [0, 0])
    models = {}
    for h in names:
        model = fit(rounds, [n for n in names if n != h])
        models[h] = model
        scored = write_scores(rounds[h], model)
        for kind in ("pick", "veto", "add"):
            for t in POINTS:
                ok, wrong = variant(rounds[h], scored, t, kind)
                table[f"{kind}@{t}"][0] += ok
                table[f"{kind}@{t}"][1] += wrong
    res: dict = {"replaced": sum(len(r["replaced"]) for r in rounds.values()),
                 "held_out": {k: {"replaced_retired": v[0], "kept_retired": v[1]} for k, v in table.items()}}
    if hyg is not None:
        res["hygiene_pick"] = {}
        for t in POINTS:
            got = read_hygiene(hyg, {h: m._replace(threshold=t) for h, m in models.items()}, lambda: None)
            res["hygiene_pick"][str(t)] = {r: {"pick": v["pick"], "others": v["others_untouched"]}
                                           for r, v in got.items()}
    Path(out).write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
