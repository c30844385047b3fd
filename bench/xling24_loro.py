"""Leave-one-round-out choice among `xling24_eval.py` variants (issue 10, round 24).

    PYTHONPATH=src:bench python bench/xling24_loro.py OUT.jsonl BASE [VARIANT ...]

For each released round (a round without a `T`), the variant with the most hits@5 over every category on the other
rounds and the training stores (`T` rounds, which always choose and are never scored) is chosen, and the held-out
round is read with it; ties go to BASE, then to the earlier variant named. Prints hit@5 by category pooled over the
released rounds for each variant, for the held-out choice, the rounds where the choice moved anything, and each
variant's p50 / p90 search time.
"""

import json
import statistics
import sys
from collections import defaultdict

CATS = ("en_paraphrase", "zh_paraphrase", "zh_to_en", "en_to_zh", "superseded")


def main() -> None:
    rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
    names = sys.argv[2:]
    hits: dict[tuple[str, str, str], list[int]] = defaultdict(lambda: [0, 0])
    ms: dict[str, list[float]] = defaultdict(list)
    rounds: list[str] = []
    for r in rows:
        if r["variant"] not in names:
            continue
        cell = hits[(r["round"], r["variant"], r["cat"])]
        cell[0] += r["hit"]
        cell[1] += 1
        ms[r["variant"]].append(r["ms"])
        if r["round"] not in rounds:
            rounds.append(r["round"])
    done = [rnd for rnd in rounds if all((rnd, v, c) in hits for v in names for c in CATS)]
    scored = [rnd for rnd in done if "T" not in rnd]

    def total(rnd: str, v: str) -> int:
        return sum(hits[(rnd, v, c)][0] for c in CATS)

    def pooled(pick: dict[str, str]) -> dict[str, str]:
        out = {}
        for c in [*CATS, "all"]:
            cs = CATS if c == "all" else (c,)
            h = sum(hits[(rnd, pick[rnd], x)][0] for rnd in scored for x in cs)
            n = sum(hits[(rnd, pick[rnd], x)][1] for rnd in scored for x in cs)
            out[c] = f"{h}/{n} ({h / n:.3f})" if n else "-"
        return out

    print(f"{len(scored)} released rounds, {len(done) - len(scored)} training stores")
    for v in names:
        print(v, pooled({rnd: v for rnd in scored}), "p50/p90 ms",
              round(statistics.median(ms[v]), 1), round(statistics.quantiles(ms[v], n=10)[-1], 1))
    choice = {}
    for rnd in scored:
        others = [o for o in done if o != rnd]
        choice[rnd] = max(names, key=lambda v: (sum(total(o, v) for o in others), -names.index(v)))
    print("held out", pooled(choice))
    for rnd in scored:
        moved = {c: f"{hits[(rnd, names[0], c)][0]}->{hits[(rnd, choice[rnd], c)][0]}" for c in CATS
                 if hits[(rnd, names[0], c)][0] != hits[(rnd, choice[rnd], c)][0]}
        print(" ", rnd, choice[rnd], moved or "same")


if __name__ == "__main__":
    main()
