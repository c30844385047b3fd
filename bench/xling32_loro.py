"""Leave-one-round-out over per-round, per-option hit tables (issue 10, round 32).

    python bench/xling32_loro.py quota.json [main_option]

The table is round -> option -> category -> hits (`xling32_sim.py --quota`). Each round is read by the option with the
most hits on the other rounds (ties: `main_option`, default "off"); prints pooled main / held out / each option in
sample, and per round the held-out option's gain by category.
"""

import json
import sys
from collections import Counter

CATS = ("en_paraphrase", "zh_paraphrase", "zh_to_en", "en_to_zh", "superseded")


def main() -> None:
    table = json.load(open(sys.argv[1], encoding="utf-8"))
    base = sys.argv[2] if len(sys.argv) > 2 else "off"
    options = list(next(iter(table.values())))
    total = {o: sum(sum(table[r][o].values()) for r in table) for o in options}
    held, main_hits, per_round, chosen = Counter(), Counter(), {}, {}
    for r, row in table.items():
        others = {o: total[o] - sum(row[o].values()) for o in options}
        best = max(options, key=lambda o: (others[o], o == base))
        chosen[r] = best
        held.update(row[best])
        main_hits.update(row[base])
        per_round[r] = {c: row[best].get(c, 0) - row[base].get(c, 0) for c in CATS}
    sample = {o: {c: sum(table[r][o].get(c, 0) for r in table) for c in CATS} for o in options}
    print(json.dumps({"rounds": list(table), "main": {c: main_hits[c] for c in CATS},
                      "held_out": {c: held[c] for c in CATS}, "chosen": chosen, "in_sample": sample,
                      "held_out_minus_main_per_round": {r: d for r, d in per_round.items() if any(d.values())}},
                     indent=1))


if __name__ == "__main__":
    main()
