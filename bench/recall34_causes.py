"""Where each retrieval miss is lost, split the way round 34's brief asks (issue 10, round 34).

    python bench/recall34_causes.py OUT_DIR VARIANT [r26 r27 ...] > causes.json

Reads `xling32_eval.py`'s per-question readings (XLING_DEEP=1). Each missed question of the four paraphrase /
cross-lingual categories gets the first cause that holds:

* quarantined - no relevant memory active, and one was quarantined by the guard on write;
* retired - no relevant memory active, each retired on write (deprecated by a later note);
* filtered - a parsed time / type filter ran and the search without query understanding finds it;
* not_in_pool - the best active relevant memory is in no channel's list;
* in the pool, ranked low - by which channel: `keyword` (the fused order without the keyword channel has it in the
  top 5), `learned_order` (the order without the learned mixed-pool step has it in the top 5), else by its dense
  rank (the script-calibrated dense channel): `dense_low` (dense rank > 10 or absent: the model does not see the
  paraphrase; the other lanes did not lift it) or `fused_out` (dense rank <= 10, and fusion / the later steps left it
  below five: other channels voted for other memories).
"""

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

CATS = ("en_paraphrase", "zh_paraphrase", "zh_to_en", "en_to_zh")
BIG = 10**6


def cause(row: dict) -> tuple[str, dict]:
    w = row["where"]
    statuses = {r["status"] for r in w["rel"].values()}
    active = {sid: r for sid, r in w["rel"].items() if r["status"] == "active"}
    if not active:
        return ("quarantined" if "quarantined" in statuses else "retired"), {"statuses": sorted(map(str, statuses))}
    if (w["filter"]["time"] or w["filter"]["types"]) and w["unparsed_hit"]:
        return "filtered", {}
    sid, best = min(active.items(), key=lambda kv: (kv[1]["final"] or BIG, kv[1]["fused"] or BIG))
    info = {"sid": sid, **{k: v for k, v in best.items() if k != "status"}}
    if best["fused"] is None:
        return "not_in_pool", info
    if (best["fused_nokw"] or BIG) <= 5 < best["fused"]:
        return "keyword", info
    if (best["plain"] or BIG) <= 5:
        return "learned_order", info
    return ("dense_low" if (best.get("dense_rank") or BIG) > 10 else "fused_out"), info


def main() -> None:
    out, variant = Path(sys.argv[1]), sys.argv[2]
    rounds = set(sys.argv[3:])
    table: dict[str, Counter] = defaultdict(Counter)
    per_round: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    listing = []
    for path in sorted(out.glob(f"{variant}_r*.jsonl")):
        for line in open(path, encoding="utf-8"):
            row = json.loads(line)
            if row["cat"] not in CATS or (rounds and row["round"] not in rounds):
                continue
            table[row["cat"]]["n"] += 1
            if row["hit"]:
                table[row["cat"]]["hit"] += 1
                continue
            why, info = cause(row)
            table[row["cat"]][why] += 1
            per_round[row["round"]][row["cat"]][why] += 1
            listing.append({"round": row["round"], "line": row["line"], "cat": row["cat"], "cause": why,
                            "query": row["query"], **info, "returned": row["returned"]})
    total = Counter()
    for c in table.values():
        total.update({k: v for k, v in c.items()})
    print(json.dumps({"causes": {c: dict(v) for c, v in sorted(table.items())}, "all": dict(total),
                      "per_round": {r: {c: dict(v) for c, v in d.items()} for r, d in sorted(per_round.items())},
                      "misses": listing}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
