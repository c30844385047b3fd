"""Per-round and pooled tables of `retr26_eval.py` runs, and a leave-one-round-out choice among variants (round 30).

    python bench/retr30_sum.py OUT_DIR main                      # one variant: per round, pooled (JSON on stdout)
    python bench/retr30_sum.py OUT_DIR main v1 v2 --loro COST    # each round read by the variant best on the others

COST names what a fold maximises: `hits` (hit@5 over every category), `en` (EN paraphrase + EN->ZH hits, with no
category allowed to fall on the other rounds), or `stale` (hits - stale read as current by the flag - false-flag
memories). Rounds are the files OUT_DIR/VARIANT_*.jsonl that every variant has.
"""

import json
import sys
from collections import Counter
from pathlib import Path

CATS = ("en_paraphrase", "zh_paraphrase", "zh_to_en", "en_to_zh", "superseded")


def load(out: Path, variant: str) -> dict[str, list[dict]]:
    return {p.stem.split("_", 1)[1]: [json.loads(x) for x in p.open(encoding="utf-8")]
            for p in sorted(out.glob(f"{variant}_*.jsonl"))}


def measures(rows: list[dict]) -> Counter:
    c: Counter = Counter()
    flagged = set()
    for r in rows:
        c[r["cat"]] += r["hit"]
        c["n_" + r["cat"]] += 1
        c["hits"] += r["hit"]
        if "stale_current" in r:
            c["stale_n"] += 1
            c["stale_strict"] += r["stale_current"]
            c["stale_flag"] += r["stale_current_flag"]
        flagged.update(r["false_flags"])
    c["false_flag_memories"] = len(flagged)
    return c


def cost(c: Counter, how: str) -> float:
    if how == "hits":
        return c["hits"]
    if how == "en":
        return c["en_paraphrase"] + c["en_to_zh"]
    return c["hits"] - c["stale_flag"] - c["false_flag_memories"]


def table(per: dict[str, Counter]) -> dict:
    pooled = sum(per.values(), Counter())
    keys = [*CATS, "stale_strict", "stale_flag", "false_flag_memories"]
    row = lambda c: {k: (f"{c[k]}/{c['n_' + k]}" if k in CATS else (f"{c[k]}/{c['stale_n']}"
                         if k.startswith("stale") else c[k])) for k in keys}
    return {"rounds": {r: row(c) for r, c in per.items()}, "pooled": row(pooled),
            "rates": {k: round(pooled[k] / max(1, pooled["n_" + k]), 3) for k in CATS}
            | {k: round(pooled[k] / max(1, pooled["stale_n"]), 3) for k in ("stale_strict", "stale_flag")}}


def main() -> None:
    out = Path(sys.argv[1])
    args = sys.argv[2:]
    how = args[args.index("--loro") + 1] if "--loro" in args else None
    variants = [a for a in args if not a.startswith("--") and a != how]
    runs = {v: load(out, v) for v in variants}
    rounds = sorted(set.intersection(*(set(r) for r in runs.values())), key=lambda r: int(r[1:].rstrip("bT")))
    per = {v: {r: measures(runs[v][r]) for r in rounds} for v in variants}
    res = {v: table(per[v]) for v in variants}
    if how:
        chosen, held = {}, {}
        for r in rounds:
            others = {v: sum((per[v][o] for o in rounds if o != r), Counter()) for v in variants}
            base = others[variants[0]]
            ok = [v for v in variants if how != "en" or all(others[v][k] >= base[k] for k in CATS)]
            best = max(ok, key=lambda v: (cost(others[v], how), v == variants[0]))
            chosen[r], held[r] = best, per[best][r]
        res["held_out"] = {"chosen": chosen, **table(held)}
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
