"""Pool `stale40_replay.py` results over rounds and choose the setting by the declared rule (ship_rule.md).

    python bench/stale40_choose.py OUT.json DEV1.json DEV2.json ...    # each file: {round: {setting: scores}}

gain = read flag fewer + strict fewer - 2 x false-flag memories more; a category's hit@5 lower (pooled) vetoes; ties go
to the stricter setting (higher t_change, higher floors, store nearest, no cross-script pair).
"""
import json
import sys
from collections import Counter


def pooled(files: list[str]) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for f in files:
        for rnd in json.load(open(f)).values():
            for name, d in rnd.items():
                t = out.setdefault(name, {"strict": 0, "flag": 0, "stale_queries": 0, "false_flag_memories": 0,
                                          "hit@5": Counter()})
                for k in ("strict", "flag", "stale_queries", "false_flag_memories"):
                    t[k] += d[k]
                t["hit@5"].update(d["hit@5"])
    return out


def gain(d: dict, base: dict) -> float:
    if any(d["hit@5"][k] < base["hit@5"][k] for k in base["hit@5"]):
        return -1e9
    return (base["flag"] - d["flag"]) + (base["strict"] - d["strict"]) - 2 * (d["false_flag_memories"]
                                                                             - base["false_flag_memories"])


def strictness(name: str) -> tuple:
    t, en, zh, cross, near, *demote = name.split("/")
    return (not demote, float(t[1:]), float(en[2:]), float(zh[2:]), near == "store", cross == "nox")


def main() -> None:
    res = pooled(sys.argv[2:])
    base = res["main"]
    ranked = sorted((n for n in res if n != "main"), key=lambda n: (gain(res[n], base), strictness(n)), reverse=True)
    for n in ranked[:15]:
        d = res[n]
        print(f"{n:40s} gain {gain(d, base):6.0f} flag {d['flag']} strict {d['strict']} ff {d['false_flag_memories']}"
              f" hit {dict(d['hit@5'])}")
    print("main", base["flag"], base["strict"], base["false_flag_memories"], dict(base["hit@5"]))
    chosen = ranked[0] if gain(res[ranked[0]], base) > 0 else "main"
    json.dump({"chosen": chosen, "main": base, "ranked": [(n, gain(res[n], base), res[n]) for n in ranked]},
              open(sys.argv[1], "w"), indent=1)
    print("chosen:", chosen)


if __name__ == "__main__":
    main()
