"""Where each miss of `xling32_eval.py`'s readings is lost (issue 10, round 32).

    python bench/xling32_causes.py OUT_DIR VARIANT [--list] > causes.json

Each missed question of a category with readings (`where`) gets one cause, the first that holds:

* lost_on_write - no relevant memory is active (quarantined or retired on write);
* filtered - a parsed time / type filter ran and the search without query understanding finds it;
* not_in_pool - the best active relevant memory is in no channel (raw dense rank: `raw_dense`);
* keyword - the fused order without the keyword channel has it in the top 5, the fused order does not;
* fused_low - fused below place 20 (outside the learned mixed-pool order's pool);
* reranked_out - fused in the top 20 (top 5: `head`), and the steps after fusion leave it out of the top 5
  (`xling_out` when the order without the learned mixed-pool step has it in the top 5).
"""

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

CATS = ("zh_paraphrase", "zh_to_en", "en_to_zh", "en_paraphrase")


def cause(row: dict) -> tuple[str, dict]:
    w = row["where"]
    active = {sid: r for sid, r in w["rel"].items() if r["status"] == "active"}
    if not active:
        return "lost_on_write", {}
    if (w["filter"]["time"] or w["filter"]["types"]) and w["unparsed_hit"]:
        return "filtered", {}
    big = 10**6
    sid, best = min(active.items(), key=lambda kv: (kv[1]["final"] or big, kv[1]["fused"] or big))
    info = {"sid": sid, **{k: v for k, v in best.items() if k != "status"}}
    if best["fused"] is None:
        return "not_in_pool", info
    if (best["fused_nokw"] or big) <= 5 < best["fused"]:
        return "keyword", info
    if best["fused"] > 20:
        return "fused_low", info
    if (best["plain"] or big) <= 5:
        return "xling_out", info
    return ("reranked_out_head" if best["fused"] <= 5 else "reranked_out_6_20"), info


def main() -> None:
    out, variant = Path(sys.argv[1]), sys.argv[2]
    table: dict[str, Counter] = defaultdict(Counter)
    per_round: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    listing = []
    for path in sorted(out.glob(f"{variant}_r*.jsonl")):
        for line in open(path, encoding="utf-8"):
            row = json.loads(line)
            if row["cat"] not in CATS or "where" not in row:
                continue
            table[row["cat"]]["n"] += 1
            if row["hit"]:
                table[row["cat"]]["hit"] += 1
                continue
            why, info = cause(row)
            table[row["cat"]][why] += 1
            per_round[row["round"]][row["cat"]][why] += 1
            if "--list" in sys.argv:
                listing.append({"round": row["round"], "line": row["line"], "cat": row["cat"], "cause": why,
                                "query": row["query"], **info, "keyword_top5": row["where"]["keyword_top5"],
                                "fused_top5": row["where"]["fused_top5"], "returned": row["returned"]})
    print(json.dumps({"causes": {c: dict(v) for c, v in table.items()},
                      "per_round": {r: {c: dict(v) for c, v in d.items()} for r, d in per_round.items()},
                      **({"misses": listing} if listing else {})}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
