"""Keyword statistics per namespace (storage/keyword_stats.py): ranking before -> after, and cost at n and 10n.

"before" is main's keyword channel (FTS5 `bm25()` over the whole table, ORDER BY rank LIMIT k, scoped by SQL);
"after" is `SQLiteStore.keyword_search` (the same formula over the searched namespace's statistics). Only the
keyword channel is compared: the other channels do not read it, and fusion is a function of the channel lists, so
identical keyword lists mean identical search results.

    PYTHONPATH=src .venv/bin/python bench/keyword_ns.py blind    # r1..r21 retrieval sets, alone and beside others
    PYTHONPATH=src .venv/bin/python bench/keyword_ns.py locomo   # --data PATH/locomo10.json
    PYTHONPATH=src .venv/bin/python bench/keyword_ns.py cost     # n = 2,000 vs 20,000 memories

No embedder: memories are stored without vectors (the keyword channel reads none).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from hindsight.model import MemoryRecord
from hindsight.storage.base import Scope
from hindsight.storage.sqlite_store import SQLiteStore
from hindsight.text.tokenize import query_terms

ROOT = Path(__file__).resolve().parent.parent
BLIND = ROOT / "bench" / "data" / "blind"


def fts5_ranked(store: SQLiteStore, scope: Scope, terms: list[str], limit: int, weight: float = 0.5) -> list[str]:
    """main's keyword channel: FTS5's bm25 with the whole table's statistics."""
    kept = [t.replace('"', "") for t in terms if t.replace('"', "").strip()]
    if not kept:
        return []
    where, params = store._scope_sql(scope)
    rows = store._db.execute(
        f"SELECT m.id, bm25(memories_fts, 1.0, {weight}) AS rank FROM memories_fts JOIN memories m "
        f"ON m.rowid = memories_fts.rowid WHERE memories_fts MATCH ? AND {where} ORDER BY rank LIMIT ?",
        (" OR ".join(f'"{t}"' for t in kept), *params, limit)).fetchall()
    return [str(r[0]) for r in rows]


def ranked(store: SQLiteStore, scope: Scope, terms: list[str], limit: int) -> list[str]:
    return [mid for mid, _ in store.keyword_search(scope, terms, limit)]


def _rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _records(memories: list[dict[str, Any]], namespace: str) -> list[tuple[MemoryRecord, None]]:
    return [(MemoryRecord(content=m["content"], namespace=namespace, tags=m.get("tags", [])), None) for m in memories]


def blind(rounds: list[str]) -> dict[str, Any]:
    """Per round: hit@5 of the keyword channel by category, main vs per-namespace, alone in the store (one
    namespace, as the released stores are) and beside every other round in another namespace."""
    sets = {r: (_rows(BLIND / r / "retrieval/memories.jsonl"), _rows(BLIND / r / "retrieval/queries.jsonl"))
            for r in rounds if (BLIND / r / "retrieval/queries.jsonl").exists()}  # (r3 has no retrieval set)
    hits: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    same_alone = same_after_others = total = 0
    for r, (memories, queries) in sets.items():
        with tempfile.TemporaryDirectory() as tmp:
            store = SQLiteStore(Path(tmp) / "k.db")
            items = _records(memories, "r")
            store.insert_many(items, actor="bench")
            ids = {m["id"]: rec.id for m, (rec, _) in zip(memories, items)}
            scope = Scope("r")
            terms = [query_terms(q["query"]) for q in queries]
            alone = [(fts5_ranked(store, scope, t, 5), ranked(store, scope, t, 5)) for t in terms]
            store.insert_many([x for o, (mem, _) in sets.items() if o != r for x in _records(mem, "others")],
                              actor="bench")
            beside = [(fts5_ranked(store, scope, t, 5), ranked(store, scope, t, 5)) for t in terms]
            store.close()
        for q, (old, new), (old_b, new_b) in zip(queries, alone, beside):
            rel = {ids[x] for x in q["relevant"] if x in ids}
            total += 1
            same_alone += old == new
            same_after_others += new_b == new
            for name, got in (("main alone", old), ("per-ns alone", new), ("main beside others", old_b),
                              ("per-ns beside others", new_b)):
                hits[name][q["category"]].append(bool(rel & set(got)))
    table = {name: {cat: round(sum(v) / len(v), 4) for cat, v in sorted(by.items())} | {
        "all": round(sum(sum(v) for v in by.values()) / sum(len(v) for v in by.values()), 4)}
        for name, by in hits.items()}
    return {"rounds": list(sets), "queries": total, "top5_identical_alone": same_alone, "per_ns_unmoved_by_others": same_after_others,
            "keyword_hit@5": table}


def locomo(data: Path) -> dict[str, Any]:
    """LoCoMo's ten conversations in ONE store, one namespace each: keyword R@10 main vs per-namespace (the
    benchmark itself stores each conversation in a file of its own, where both are the same)."""
    import locomo as lc  # the protocol's turns, questions and recall (bench/ is on the path: main)

    samples = json.loads(data.read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "k.db")
        dia: dict[str, str] = {}
        for sample in samples:
            ns = str(sample["sample_id"])
            items = [(MemoryRecord(content=t["content"], namespace=ns), None) for t in lc.turns(sample)]
            store.insert_many(items, actor="bench")
            dia.update({rec.id: t["metadata"]["dia_id"] for t, (rec, _) in zip(lc.turns(sample), items)})
        out: dict[str, list[float]] = defaultdict(list)
        same = n = 0
        for sample in samples:
            scope = Scope(str(sample["sample_id"]))
            for q in lc.questions(sample):
                terms = query_terms(str(q["question"]))
                old, new = fts5_ranked(store, scope, terms, 10), ranked(store, scope, terms, 10)
                n += 1
                same += old == new
                cat = lc.CATEGORIES[q["category"]]
                out[f"main/{cat}"].append(lc.recall(q["evidence"], [dia[m] for m in old], 10))
                out[f"per-ns/{cat}"].append(lc.recall(q["evidence"], [dia[m] for m in new], 10))
        store.close()
    return {"questions": n, "top10_identical": same,
            "keyword_R@10": {k: round(sum(v) / len(v), 4) for k, v in sorted(out.items())}}


def cost(sizes: tuple[int, ...] = (2_000, 20_000)) -> dict[str, Any]:
    """Write cost per memory and search cost per query at n and 10n (one namespace holds half the store)."""
    rng = random.Random(7)
    vocab = [f"w{i}" for i in range(5_000)]
    queries = [[rng.choice(vocab) for _ in range(3)] for _ in range(50)]
    out: dict[str, Any] = {}
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            store = SQLiteStore(Path(tmp) / "k.db")
            items = [(MemoryRecord(content=" ".join(rng.choice(vocab) for _ in range(25)),
                                   namespace="a" if i % 2 else "b"), None) for i in range(n)]
            start = time.perf_counter()
            for at in range(0, n, 500):
                store.insert_many(items[at : at + 500], actor="bench")
            write = (time.perf_counter() - start) / n
            start = time.perf_counter()
            for _ in range(100):
                store.insert(MemoryRecord(content=" ".join(rng.choice(vocab) for _ in range(25)), namespace="a"),
                             None, actor="bench")
            single = (time.perf_counter() - start) / 100
            timing = {}
            for name, fn in (("main", fts5_ranked), ("per-ns", ranked)):
                fn(store, Scope("a"), queries[0], 10)
                start = time.perf_counter()
                for q in queries:
                    fn(store, Scope("a"), q, 10)
                timing[name] = round((time.perf_counter() - start) / len(queries) * 1000, 3)
            store.close()
        out[str(n)] = {"insert_many_ms_per_memory": round(write * 1000, 4), "insert_ms": round(single * 1000, 3),
                       "search_ms": timing}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("blind", "locomo", "cost"))
    parser.add_argument("--rounds", default=",".join(f"r{i}" for i in range(1, 22)))
    parser.add_argument("--data", default="", help="locomo10.json (default: where bench/locomo.py finds it)")
    args = parser.parse_args()
    if args.what == "blind":
        result = blind(args.rounds.split(","))
    elif args.what == "locomo":
        sys.path.insert(0, str(ROOT / "bench"))
        import locomo as lc

        result = locomo(Path(args.data) if args.data else lc.DATA)
    else:
        result = cost()
    print(json.dumps(result, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
