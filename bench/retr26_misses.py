"""Summaries of `retr26_eval.py` dumps: hit@5 per round and category, and each miss by place and kind (round 26).

    python bench/retr26_misses.py OUT_DIR VARIANT [--list]      # -> JSON on stdout; --list: every miss on stderr

A miss's place: "lost on write" (no relevant memory active: quarantined or retired on write), "nowhere" (in no
channel of the deep search), "deep N" (active, ranked N in a top-50 search over active and deprecated memories),
with the relevant memory's dense and keyword ranks. EN paraphrase misses also get the share of the question's
content words (a crude stem: lower case, first five letters) found in the memory. A superseded question whose stale
memory is returned as current is read by the stale memory's status (active: never retired on write; deprecated:
the read side) and whether the read flag marked it.
"""

import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

STOP = set("a an the of to in on at for and or is are was were be been do does did i we our you your my me what "
           "which who whom how when where why there any some that this these those with by from it its as can "
           "need should have has had get up out about before after much many ever still now these days".split())


def stems(text: str) -> set[str]:
    return {w[:5] for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in STOP and len(w) > 1}


def load(out: Path, variant: str) -> list[dict]:
    rows = []
    for path in sorted(out.glob(f"{variant}_r*.jsonl")):
        rows.extend(json.loads(line) for line in open(path, encoding="utf-8"))
    return rows


def place(row: dict, memories: dict[str, str]) -> dict:
    rel = {k: v for k, v in row["where"].items() if v["role"] == "relevant"}
    active = {k: v for k, v in rel.items() if v["status"] == "active"}
    if not active:
        return {"place": "lost on write", "status": sorted({str(v["status"]) for v in rel.values()})}
    best_id, best = min(active.items(), key=lambda kv: 99 if kv[1]["deep_rank"] is None else kv[1]["deep_rank"])
    out = {"place": "nowhere" if best["deep_rank"] is None else "deep 6-10" if best["deep_rank"] < 10
           else "deep 11-20" if best["deep_rank"] < 20 else "deep 21-50",
           "gold": best_id, "deep_rank": best["deep_rank"], "dense_rank": best.get("dense_rank"),
           "keyword_rank": best.get("keyword_rank")}
    if row["cat"] == "en_paraphrase":
        q = stems(row["query"])
        out["word_share"] = round(len(q & stems(memories.get(best_id, ""))) / max(1, len(q)), 2)
    return out


def stale_case(row: dict) -> dict:
    stale = {k: v for k, v in row["where"].items() if v["role"] == "stale"}
    returned = [k for k in stale if k in row["returned"]]
    return {"stale_status": {k: stale[k]["status"] for k in returned},
            "flagged": {k: not row["current"][row["returned"].index(k)] for k in returned},
            "superseded_by": {k: stale[k]["superseded_by"] for k in returned}}


def main() -> None:
    out, variant = Path(sys.argv[1]), sys.argv[2]
    rows = load(out, variant)
    memories: dict[str, dict[str, str]] = {}
    per = defaultdict(lambda: defaultdict(list))
    places, stale_kinds = defaultdict(Counter), Counter()
    shares = []
    for row in rows:
        rnd = row["round"]
        if rnd not in memories:
            path = Path("bench/data/blind") / rnd / "retrieval/memories.jsonl"
            memories[rnd] = {m["id"]: m["content"] for m in map(json.loads, open(path, encoding="utf-8"))}
        per[rnd][row["cat"]].append(row["hit"])
        if "stale_current" in row:
            per[rnd]["stale_current"].append(row["stale_current"])
            per[rnd]["stale_current_flag"].append(row["stale_current_flag"])
        if not row["hit"]:
            p = place(row, memories[rnd])
            places[row["cat"]][p["place"]] += 1
            if "word_share" in p:
                shares.append(p["word_share"])
            if "--list" in sys.argv:
                print(json.dumps({"round": rnd, "line": row["line"], "cat": row["cat"], "query": row["query"], **p,
                                  "gold_text": memories[rnd].get(p.get("gold", ""), "")[:160]}, ensure_ascii=False),
                      file=sys.stderr)
        if row.get("stale_current"):
            case = stale_case(row)
            for k, status in case["stale_status"].items():
                stale_kinds[f"{status}, {'flagged' if case['flagged'][k] else 'not flagged'}"] += 1
            if "--list" in sys.argv:
                print(json.dumps({"round": rnd, "line": row["line"], "cat": "STALE", "query": row["query"], **case},
                                 ensure_ascii=False), file=sys.stderr)
    pooled = defaultdict(list)
    for cats in per.values():
        for cat, xs in cats.items():
            pooled[cat].extend(xs)
    fmt = lambda xs: [sum(xs), len(xs)]  # noqa: E731
    print(json.dumps({"variant": variant,
                      "rounds": {r: {c: fmt(x) for c, x in sorted(cats.items())} for r, cats in sorted(per.items())},
                      "pooled": {c: fmt(x) for c, x in sorted(pooled.items())},
                      "miss_places": {c: dict(v) for c, v in places.items()},
                      "en_paraphrase_word_share_of_misses": sorted(shares),
                      "stale_returned_as_current_by_kind": dict(stale_kinds)}, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
