"""Late interaction over the encoder's token states: the fused top 30 re-ordered by MaxSim, alone and blended with
the pipeline's order, leave-one-round-out over the released blind rounds (issue 10, round 36; the rule:
`results/xling36_rule.md`).

    PYTHONPATH=src:bench python bench/xling36_maxsim.py STATES.pkl OUT.json DIR [DIR ...]

DIR holds `xling32_sim.py --cands 30` rows (main_ROUND.jsonl); STATES.pkl is `xling36_states.py`'s output (a round
whose texts are not all there is left out, and named). MaxSim(A -> B): the mean over A's tokens of the best cosine to
any token of B (states L2-normalised). Variants: QD (question -> memory, the texts' own tokens), QDP (QD without
punctuation tokens), DQP (memory -> question, no punctuation), SYMP (their mean), QDF (question -> memory over every
position: <s>, prefix, text, </s>). Orders: the dump (the harness's hits), `pipe` (the shipped mixed-pool model's
order of the top 20, then 21 - 30 by fused score: round 35's shipped_offline), MaxSim alone per variant, and the
blends z(base) + w z(MaxSim) with base = pipe (the primary) or the fused score (a view), (variant, w) chosen per
fold on the other rounds' total hits@5. Questions without candidates keep the dump's hit.
"""

import json
import pickle
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import recall35_fit as r35

CATS = r35.CATS
VARIANTS = ("QD", "QDP", "DQP", "SYMP", "QDF")
WEIGHTS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0)


def unit(states: np.ndarray) -> np.ndarray:
    x = states.astype(np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-6)


def sides(entry: tuple[np.ndarray, np.ndarray]) -> dict[str, np.ndarray]:
    """A text's normalised states: 'own' (its tokens), 'words' (without punctuation), 'full' (every position)."""
    states, kinds = entry
    x = unit(states)
    own = x[kinds >= 2]
    words = x[kinds == 3]
    return {"own": own if len(own) else x, "words": words if len(words) else (own if len(own) else x), "full": x}


def maxsim(a: np.ndarray, b: np.ndarray) -> float:
    return float((a @ b.T).max(axis=1).mean())


def scores(q: dict, s: dict[str, np.ndarray], mem: dict[str, dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    out = {v: np.zeros(len(q["cands"])) for v in VARIANTS}
    for i, c in enumerate(q["cands"]):
        m = mem[c["text"]]
        out["QD"][i] = maxsim(s["own"], m["own"])
        out["QDP"][i] = maxsim(s["words"], m["words"])
        out["DQP"][i] = maxsim(m["words"], s["words"])
        out["QDF"][i] = maxsim(s["full"], m["full"])
    out["SYMP"] = (out["QDP"] + out["DQP"]) / 2
    return out


def z(x: np.ndarray) -> np.ndarray:
    return (x - x.mean()) / (x.std() + 1e-9)


def zs(x: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """x standardised within each script group of the pool (the addendum's script-calibrated MaxSim)."""
    out = np.zeros(len(x))
    for g in set(groups.tolist()):
        at = groups == g
        out[at] = z(x[at]) if at.sum() > 1 else 0.0
    return out


def pipe_order(q: dict, shipped: dict, ship_cols: list[int]) -> np.ndarray:
    """Minus each candidate's place in the pipeline's order (the shipped model's order of the top 20, then fused)."""
    x = q["m"][:20, ship_cols]
    s = shipped["intercept"] + ((x - np.asarray(shipped["mean"])) / np.asarray(shipped["scale"])) @ np.asarray(
        shipped["coef"])
    order = list(np.argsort(-s, kind="stable")) + list(range(20, len(q["cands"])))
    place = np.empty(len(order))
    place[order] = np.arange(len(order))
    return -place


def top5(q: dict, s: np.ndarray) -> list[str]:
    return [q["cands"][i]["id"] for i in np.argsort(-s, kind="stable")[:5]]


def main() -> None:
    states = pickle.loads(Path(sys.argv[1]).read_bytes())
    out = Path(sys.argv[2])
    data = r35.load([Path(d) for d in sys.argv[3:]])
    shipped = json.loads(r35.fit.xling_rerank.MODEL_FILE.read_text(encoding="utf-8"))
    ship_cols = [r35.fit.COLUMNS.index(n) for n in shipped["features"]]
    missing = [r for r, qs in data.items() if any(
        q["text"] not in states["query"] or any(c["text"] not in states["passage"] for c in q["cands"])
        for q in qs if q["cands"])]
    rounds = sorted((r for r in data if r not in missing), key=lambda r: int(r[1:]))
    print("rounds", rounds, "left out (states not all encoded)", missing, flush=True)
    mem_cache: dict[str, dict[str, np.ndarray]] = {}
    timing = {"candidates": 0, "seconds": 0.0}
    for rnd in rounds:
        for q in data[rnd]:
            if not q["cands"]:
                continue
            for c in q["cands"]:
                if c["text"] not in mem_cache:
                    mem_cache[c["text"]] = sides(states["passage"][c["text"]])
            t0 = time.perf_counter()
            q["ms"] = scores(q, sides(states["query"][q["text"]]), mem_cache)
            timing["seconds"] += time.perf_counter() - t0
            timing["candidates"] += len(q["cands"])
            q["pipe"] = pipe_order(q, shipped, ship_cols)
            q["fused"] = np.asarray([c["fused"] for c in q["cands"]], dtype=float)
            q["zb"] = {"pipe": z(q["pipe"]), "fused": z(q["fused"])}
            q["zm"] = {v: z(q["ms"][v]) for v in VARIANTS}
            groups = np.asarray([c["group"] for c in q["cands"]])
            q["zs"] = {v: zs(q["ms"][v], groups) for v in VARIANTS}
    # offline result of a question under an order: (hit, stale as current)
    def result(q: dict, s: np.ndarray | None) -> tuple[bool, bool]:
        return r35.score(q, None if s is None else top5(q, s))

    def blend(q: dict, base: str, v: str, w: float) -> np.ndarray:
        if base == "pipeS":  # the addendum: MaxSim standardised within each script group
            return q["zb"]["pipe"] + w * q["zs"][v]
        return q["zb"][base] + w * q["zm"][v]

    res: dict = {"rounds": rounds, "left_out": missing, "per_round": {r: {} for r in rounds}, "questions": {},
                 "chosen": {}}

    def tally(name: str, rnd: str, order) -> None:  # type: ignore[no-untyped-def]
        hits, n, stale = Counter(), Counter(), 0
        for q in data[rnd]:
            h, st = result(q, order(q) if q["cands"] else None)
            hits[q["cat"]] += h
            n[q["cat"]] += 1
            stale += st
            res["questions"].setdefault(f"{rnd}:{q['line']}", {"cat": q["cat"]})[name] = h
        res["per_round"][rnd][name] = {**{c: hits[c] for c in CATS}, "stale_current": stale, "n": dict(n)}

    curve: dict = {}

    def total(rnds: list[str], base: str, v: str, w: float) -> int:
        """Hits@5 of the blend over `rnds`; per category and stale kept in `curve` (the in-sample view per point)."""
        cell = curve.setdefault(base, {}).setdefault(f"{v}@{w}", Counter())
        hits = 0
        for q in (q for r in rnds for q in data[r]):
            h, st = result(q, blend(q, base, v, w) if q["cands"] else None)
            hits += h
            cell[q["cat"]] += h
            cell["stale_current"] += st
        return hits

    for rnd in rounds:
        tally("dump", rnd, lambda q: None)
        tally("pipe", rnd, lambda q: q["pipe"])
        tally("fused", rnd, lambda q: q["fused"])
        for v in VARIANTS:
            tally(f"alone_{v}", rnd, lambda q, v=v: q["ms"][v])
            tally(f"aloneS_{v}", rnd, lambda q, v=v: q["zs"][v])
    # the grid's total on each round, once: a fold's choice sums the other rounds
    for base in ("pipe", "fused", "pipeS"):
        grid = {(v, w): {r: total([r], base, v, w) for r in rounds} for v in VARIANTS for w in WEIGHTS}
        best_in = max(grid, key=lambda k: (sum(grid[k].values()), -k[1]))
        res["chosen"][f"{base}_in"] = list(best_in)
        res["grid_" + base] = {f"{v}@{w}": sum(grid[(v, w)].values()) for v, w in grid}
        for rnd in rounds:
            pick = max(grid, key=lambda k: (sum(x for r, x in grid[k].items() if r != rnd), -k[1]))
            res["chosen"][f"{base}_out_{rnd}"] = list(pick)
            tally(f"blend_{base}_out", rnd, lambda q, p=pick, b=base: blend(q, b, *p))
            tally(f"blend_{base}_in", rnd, lambda q, p=best_in, b=base: blend(q, b, *p))
    res["curve"] = {b: {k: dict(c) for k, c in d.items()} for b, d in curve.items()}
    res["cost"] = {"maxsim_ms_per_candidate_all5": 1000 * timing["seconds"] / max(timing["candidates"], 1),
                   "candidates": timing["candidates"]}
    tokens = [len(k) for k in (e[1] for e in states["passage"].values())]
    own = [int((e[1] >= 2).sum()) for e in states["passage"].values()]
    res["cost"].update({"memory_positions_mean": float(np.mean(tokens)), "memory_text_tokens_mean": float(np.mean(own)),
                        "bytes_per_memory_fp16_text_tokens": float(np.mean(own)) * 384 * 2,
                        "bytes_per_memory_fp16_all_positions": float(np.mean(tokens)) * 384 * 2})
    keep = {"cat", "dump", "pipe", "alone_QDP", "aloneS_QDP"} | {n for n in res["per_round"][rounds[0]] if "blend" in n}
    res["questions"] = {k: {n: h for n, h in v.items() if n in keep} for k, v in res["questions"].items()}
    r35.write(out, res, rounds)
    print(json.dumps(res["chosen"]), json.dumps(res["cost"]), flush=True)


if __name__ == "__main__":
    main()
