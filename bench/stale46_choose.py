"""Pool `stale46_replay.py` results and rank the settings: stale45's gain (`stale45_choose.pooled`), with the
memories flagged anywhere that no writer replaced / that one did (clause 2 of bench/results/stale46/ship_rule.md).

    python bench/stale46_choose.py RESULTS.json [--top N]
"""
import json
import sys

from stale45_choose import gain_lost, pooled


def main() -> None:
    res = json.loads(open(sys.argv[1]).read())
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 15
    names = list(next(iter(res.values())))
    base = pooled(res, "main")
    rows = []
    for n in names:
        d = pooled(res, n)
        wrong = sum(len(r[n].get("wrong_flags_all", [])) for r in res.values())
        right = sum(len(r[n].get("right_flags_all", [])) for r in res.values())
        g, lost = gain_lost(base, d)
        rows.append((None if lost else g, g, d["strict"], d["flag"], d["false_flag_memories"], wrong, right, lost, n))
    rows.sort(key=lambda x: (x[0] is None, -(x[0] or 0), x[4], x[5]))
    print("main strict/flag/false", base["strict"], base["flag"], base["false_flag_memories"], "stale",
          base["stale_queries"], dict(base["hit@5"]))
    print("gain raw strict flag false wrong_all right_all lost setting")
    for x in rows[:top]:
        print(*x)


if __name__ == "__main__":
    main()
