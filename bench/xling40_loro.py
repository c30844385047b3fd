"""Round 40: the glossed channel's weights chosen leave-one-round-out, under bench/results/xling40/ship_rule.md.

    python bench/xling40_loro.py OUT_DIR "0.15 0.3 0.5 0.8" r27 r28 ... > result.json
    XLING40_DEV="r35 r36 r37" python bench/xling40_loro.py OUT_DIR "0.15 ... 2.0" r27 ... r37   # addendum B

With XLING40_DEV the pair is also chosen on those rounds alone (B: in sample there) and read on the others (held out).

Reads OUT_DIR/main_ROUND.jsonl (w = 0, `xling32_eval.py`) and OUT_DIR/gW_ROUND.jsonl (`xling40_eval.py`). An English
question's hit is read from the pass at w_en, a Chinese question's from the pass at w_zh; per fold (w_en, w_zh) is
the pair with the most hits@5 over all five categories on the other rounds (ties: the smaller weight).
"""

import json
import os
import sys
from collections import Counter
from pathlib import Path

CATS = ("en_paraphrase", "zh_paraphrase", "zh_to_en", "en_to_zh", "superseded")


def script(query: str) -> str:
    from hindsight.retrieval.crosslingual import bias_group

    return bias_group(query)


def load(out: Path, tag: str, rnd: str) -> list[dict]:
    return [json.loads(line) for line in open(out / f"{tag}_{rnd}.jsonl", encoding="utf-8")]


def main() -> None:
    out, grid, rounds = Path(sys.argv[1]), [0.0] + [float(w) for w in sys.argv[2].split()], sys.argv[3:]
    rows = {(w, r): load(out, "main" if w == 0 else f"g{w}", r) for w in grid for r in rounds}
    groups = {r: [script(q["query"]) for q in rows[(0.0, r)]] for r in rounds}

    def read(r: str, w_en: float, w_zh: float) -> list[dict]:
        return [rows[(w_en if g == "en" else w_zh, r)][i] for i, g in enumerate(groups[r])]

    def total(rs: list[str], w_en: float, w_zh: float) -> int:
        return sum(q["hit"] for r in rs for q in read(r, w_en, w_zh))

    def tally(picks: dict[str, tuple[float, float]]) -> dict:
        hit, n, stale = Counter(), Counter(), 0
        for r, (w_en, w_zh) in picks.items():
            for q in read(r, w_en, w_zh):
                hit[q["cat"]] += q["hit"]
                n[q["cat"]] += 1
                stale += bool(q.get("stale_current"))
        return {**{c: [hit[c], n[c], round(hit[c] / n[c], 4)] for c in CATS if n[c]}, "stale_current": stale}

    def best(rs: list[str]) -> tuple[float, float]:
        return max(((we, wz) for we in grid for wz in grid), key=lambda p: (total(rs, *p), -p[0], -p[1]))

    folds = {r: best([x for x in rounds if x != r]) for r in rounds}
    result = {
        "rounds": rounds, "grid": grid, "folds": {r: list(p) for r, p in folds.items()},
        "main": tally({r: (0.0, 0.0) for r in rounds}),
        "held_out": tally(folds),
        "in_sample": {"pick": list(best(rounds)), **tally({r: best(rounds) for r in rounds})},
        "each_weight": {f"{w}": tally({r: (w, w) for r in rounds}) for w in grid},
        "per_round": {r: {"main": tally({r: (0.0, 0.0)}), "held_out": tally({r: folds[r]})} for r in rounds},
    }
    dev = os.environ.get("XLING40_DEV", "").split()
    if dev:
        pick, held = best(dev), [r for r in rounds if r not in dev]
        result["B"] = {"dev": dev, "pick": list(pick), "dev_main": tally({r: (0.0, 0.0) for r in dev}),
                       "dev_in_sample": tally({r: pick for r in dev}), "held": held,
                       "held_main": tally({r: (0.0, 0.0) for r in held}), "held_out": tally({r: pick for r in held}),
                       "per_round": {r: {"main": tally({r: (0.0, 0.0)}), "B": tally({r: pick})} for r in held}}
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
