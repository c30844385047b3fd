"""Offline replay of the round-37 read reading (`retrieval/value_slot.py`) on the pools `currency37_causes.py` dumped.

    python bench/currency37_replay.py STORES DUMP_DIR OUT.json r16 ... [--only SETTING] [--trace FLAGS.jsonl]

For each question, the search's full hit list before its head is cut (12 hits, main's order, flags and currency) is
read again by `mark_value_changes` - the module itself, on SearchHit objects rebuilt from the store, vectors and the
store-wide nearest check from the store's own vectors - and the head of 5 scored as `blind_eval.py retrieval` scores
it: both stale readings, false-flag memories, hit@5 per category. Settings: main (the dump as it is) and the grid of
`same_slot` floors x `store_nearest` x `told`; `--only` one of them. Nothing is fitted: the setting is chosen on the
development rounds pooled (`gain`), then read once on the held-out ones (docs/benchmarks.md, "Currency, round 37").
"""
import argparse
import dataclasses
import json
import sqlite3
from collections import defaultdict
from pathlib import Path

import numpy as np
from blind_store import rows

from hindsight.read_model import Explanation, SearchHit
from hindsight.retrieval import value_slot
from hindsight.storage.sqlite_store import SQLiteStore

BLIND = Path("bench/data/blind")
GRID = [("main", None)] + [
    (f"{en}/{zh}/{'store' if sn else 'window'}/{'told' if td else 'untold'}",
     value_slot.ValueRule(on=True, same_slot={"en": en, "zh": zh}, store_nearest=sn, told=td))
    for en in (0.86, 0.88, 0.90, 0.92) for zh in (0.90, 0.93, 0.95) for sn in (True, False) for td in (True, False)]


def replaces(m: dict) -> list[str]:
    r = m.get("replaces")
    return [r] if isinstance(r, str) else list(r or [])


class Round:
    def __init__(self, stores: Path, dumps: Path, rnd: str) -> None:
        self.rnd = rnd
        sd = BLIND / rnd
        self.ids = json.loads((stores / rnd / "ids.json").read_text())
        self.inv = {v: k for k, v in self.ids.items()}
        mems = rows(sd / "retrieval/memories.jsonl")
        self.replaced = {x for m in mems for x in replaces(m)}
        self.pools = json.loads((dumps / f"{rnd}.pool.json").read_text())
        store = SQLiteStore(stores / rnd / "m.db")
        wanted = {self.ids.get(p["id"], p["id"]) for q in self.pools for p in q["pool"]}
        self.records = store.get_many(sorted(wanted))
        con = sqlite3.connect(f"file:{stores / rnd / 'm.db'}?mode=ro", uri=True)
        stored = con.execute("select m.id, m.status, v.vector from memories m join vectors v on v.memory_rowid = m.rowid "
                             "where m.namespace = 'r'").fetchall()
        con.close()
        self.vid = [mid for mid, _, _ in stored]
        v = np.stack([np.frombuffer(b, dtype=np.float32) for _, _, b in stored])
        self.V = v / np.linalg.norm(v, axis=1, keepdims=True)
        self.active = np.array([status == "active" for _, status, _ in stored])
        self.row = {mid: i for i, mid in enumerate(self.vid)}
        allrec = store.get_many(self.vid)
        self.content = {mid: allrec[mid].content if mid in allrec else "" for mid in self.vid}
        store.close()

    def embeddings(self, mids: list[str]) -> dict[str, np.ndarray]:
        return {m: self.V[self.row[m]] for m in mids if m in self.row}

    def neighbours(self, vector: np.ndarray, depth: int, floor: float) -> list[tuple[str, str, float]]:
        s = self.V @ vector
        s = np.where(self.active, s, -2.0)
        order = np.argsort(-s)[:depth]
        return [(self.vid[i], self.content[self.vid[i]] if s[i] > floor else "", float(s[i])) for i in order
                if s[i] > -2.0]

    def score(self, rule, trace: list | None = None) -> dict:  # type: ignore[no-untyped-def]
        hits: dict[str, list[bool]] = defaultdict(list)
        strict, flag, false_flags = [], [], set()
        for q in self.pools:
            pool = [SearchHit(memory=self.records[self.ids.get(p["id"], p["id"])], score=1.0 - k / 100,
                              why=Explanation(), current=p["current"], flags=list(p["flags"]))
                    for k, p in enumerate(q["pool"])]
            before = {h.memory.id: h.current for h in pool}
            if rule is not None:
                pool = self.read(pool, rule, q["query"])
            hs = pool[:5]
            if trace is not None:
                for h in pool:
                    if before[h.memory.id] and not h.current:
                        new = self.records[h.why.outdated_by].content
                        trace.append({"round": self.rnd, "q": q["q"], "query": q["query"],
                                      "old": self.inv.get(h.memory.id), "new": self.inv.get(h.why.outdated_by),
                                      "replaced": self.inv.get(h.memory.id) in self.replaced,
                                      "stale_here": self.inv.get(h.memory.id) in q["stale"],
                                      "in_head": h in hs, "old_text": h.memory.content, "new_text": new,
                                      "why": self.why(h.memory.content, new)})
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

    def read(self, pool: list[SearchHit], rule, question: str) -> list[SearchHit]:  # type: ignore[no-untyped-def]
        """The reading replayed on one question's hits (round 37: `value_slot`; round 40 overrides it)."""
        return value_slot.mark_value_changes(pool, self.embeddings, self.neighbours, 10, rule)

    def why(self, old: str, new: str) -> str:
        return value_slot.changed_value(old, new)


def gain(d: dict, base: dict, n: int) -> float:
    """The fold's choice: stale read as current (read flag) fewer - N x false-flag memories more, a hit lost vetoes."""
    if any(d["hit@5"][k] < base["hit@5"][k] for k in base["hit@5"]):
        return -1e9
    return (base["flag"] - d["flag"]) + (base["strict"] - d["strict"]) - n * (d["false_flag_memories"]
                                                                             - base["false_flag_memories"])


def parser() -> argparse.ArgumentParser:
    """The replay's arguments (shared with bench/stale40_replay.py)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("stores")
    ap.add_argument("dumps")
    ap.add_argument("out")
    ap.add_argument("rounds", nargs="+")
    ap.add_argument("--only", default=None, help="one setting name of the grid (and main)")
    ap.add_argument("--trace", default=None, help="write every flag the reading adds here (JSON lines)")
    return ap


def main() -> None:
    args = parser().parse_args()
    grid = [g for g in GRID if args.only is None or g[0] in ("main", args.only)]
    res: dict[str, dict[str, dict]] = {}
    trace: list = []
    for r in args.rounds:
        rd = Round(Path(args.stores), Path(args.dumps), r)
        res[r] = {name: rd.score(rule, trace if args.trace and rule is not None and args.only else None)
                  for name, rule in grid}
        base = res[r]["main"]
        best = max(grid[1:], key=lambda g: gain(res[r][g[0]], base, 2))[0] if len(grid) > 1 else "main"
        print(r, base["strict"], base["flag"], base["false_flag_memories"], "| best", best, res[r][best]["strict"],
              res[r][best]["flag"], res[r][best]["false_flag_memories"], flush=True)
    Path(args.out).write_text(json.dumps(res, indent=1))
    if args.trace:
        Path(args.trace).write_text("\n".join(json.dumps(t, ensure_ascii=False) for t in trace) + "\n")


if __name__ == "__main__":
    _ = dataclasses
    main()
