"""Pool `stale45_replay.py` results over rounds and rank the settings (bench/results/stale45/ship_rule.md).

    python bench/stale45_choose.py RESULTS.json [OUT.json] [--top N]

gain = strict fewer + read-flag fewer - 2 x false-flag memories more; a category's hit@5 lower vetoes (gain None).
Printed beside: the memories flagged anywhere that no writer replaced / that one did (round 46 reads these too).
Ties: fewer false flags, then the name order of the grid (stricter floors first is not implied: printed for reading).
"""
import json
import sys
from collections import Counter


def pooled(res: dict, name: str) -> dict:
    tot: dict = {"strict": 0, "flag": 0, "false_flag_memories": 0, "stale_queries": 0, "hit@5": Counter()}
    for r in res.values():
        d = r[name]
        for k in ("strict", "flag", "false_flag_memories", "stale_queries"):
            tot[k] += d[k]
        tot["hit@5"].update(d["hit@5"])
    return tot


def gain_lost(base: dict, d: dict) -> tuple[int, dict]:
    """The pooled gain over `base` and the categories whose hit@5 is lower."""
    lost = {k: base["hit@5"][k] - d["hit@5"][k] for k in base["hit@5"] if d["hit@5"][k] < base["hit@5"][k]}
    return (base["strict"] - d["strict"]) + (base["flag"] - d["flag"]) - 2 * (
        d["false_flag_memories"] - base["false_flag_memories"]), lost


def main() -> None:
    res = json.loads(open(sys.argv[1]).read())
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 15
    names = list(next(iter(res.values())))
    base = pooled(res, "main")
    rows = []
    for n in names:
        d = pooled(res, n)
        g, lost = gain_lost(base, d)
        # memories flagged anywhere in the 12 hits that no writer replaced / that one did (stale45's clause 2b)
        wrong = sum(len(r[n].get("wrong_flags_all", [])) for r in res.values())
        right = sum(len(r[n].get("right_flags_all", [])) for r in res.values())
        rows.append({"setting": n, "gain": None if lost else g, "raw_gain": g, "lost": lost, "wrong_all": wrong,
                     "right_all": right, **{
            k: d[k] for k in ("strict", "flag", "false_flag_memories", "stale_queries")}, "hit@5": dict(d["hit@5"])})
    rows.sort(key=lambda x: (x["gain"] is None, -(x["gain"] or 0), x["false_flag_memories"]))
    print("main", base["strict"], base["flag"], base["false_flag_memories"], "stale", base["stale_queries"],
          dict(base["hit@5"]))
    print("gain raw strict flag false wrong_all right_all lost setting")
    for x in rows[:top]:
        print(x["gain"], x["raw_gain"], x["strict"], x["flag"], x["false_flag_memories"], x["wrong_all"],
              x["right_all"], x["lost"], x["setting"])
    if len(sys.argv) > 2 and not sys.argv[2].startswith("--"):
        open(sys.argv[2], "w").write(json.dumps({"main": {**base, "hit@5": dict(base["hit@5"])}, "ranked": rows},
                                                indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
