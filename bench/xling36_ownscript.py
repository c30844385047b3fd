"""Post hoc view (not under the round-36 rule; every round seen): MaxSim re-ordering only the memories of the
question's own script, the other script's memories keeping the pipeline's order (issue 10, round 36).

    PYTHONPATH=src:bench python bench/xling36_ownscript.py STATES.pkl OUT.json DIR [DIR ...]

s = z(pipe) + w * zS(QDP), where zS is QDP standardised within the question's own script group of the pool and 0 for
the other group's memories. Pooled hits@5 per category and stale as current for each w, in sample over every round.
"slots": the places the question's own script holds in the pipeline's order are kept, and only the memories in them
are re-ordered (by z(pipe) + w * z(QDP) among themselves; w = "inf": QDP alone); the other script's memories keep
their places, so a cross-script answer's place never moves.
"""

import json
import pickle
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import recall35_fit as r35
import xling36_maxsim as xm


def main() -> None:
    states = pickle.loads(Path(sys.argv[1]).read_bytes())
    data = r35.load([Path(d) for d in sys.argv[3:]])
    shipped = json.loads(r35.fit.xling_rerank.MODEL_FILE.read_text(encoding="utf-8"))
    ship_cols = [r35.fit.COLUMNS.index(n) for n in shipped["features"]]
    mem: dict = {}
    qs = [q for qs in data.values() for q in qs]
    for q in qs:
        if not q["cands"]:
            continue
        side = xm.sides(states["query"][q["text"]])["words"]
        ms = []
        for c in q["cands"]:
            if c["text"] not in mem:
                mem[c["text"]] = xm.sides(states["passage"][c["text"]])["words"]
            ms.append(xm.maxsim(side, mem[c["text"]]))
        own = np.asarray([c["group"] == q["group"] for c in q["cands"]])
        zo = np.zeros(len(ms))
        if own.sum() > 1:
            zo[own] = xm.z(np.asarray(ms)[own])
        q["zp"], q["zo"], q["own"] = xm.z(xm.pipe_order(q, shipped, ship_cols)), zo, own
    out: dict = {}
    for w in (0.0, *xm.WEIGHTS[1:]):
        cell: Counter = Counter()
        for q in qs:
            h, st = r35.score(q, xm.top5(q, q["zp"] + w * q["zo"]) if q["cands"] else None)
            cell[q["cat"]] += h
            cell["stale_current"] += st
        out[str(w)] = dict(cell)
        print(w, dict(cell), flush=True)
    for w in (*xm.WEIGHTS[1:], float("inf")):
        cell = Counter()
        for q in qs:
            h, st = r35.score(q, slots(q, w) if q["cands"] else None)
            cell[q["cat"]] += h
            cell["stale_current"] += st
        out[f"slots_{w}"] = dict(cell)
        print("slots", w, dict(cell), flush=True)
    Path(sys.argv[2]).write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")


def slots(q: dict, w: float) -> list[str]:
    """The top 5 when the own script's places in the pipeline's order are re-filled by its memories re-ordered."""
    order = list(np.argsort(-q["zp"], kind="stable"))
    own = [i for i in order if q["own"][i]]
    key = q["zo"] if w == float("inf") else q["zp"] + w * q["zo"]
    own_sorted = iter(sorted(own, key=lambda i: -key[i]))
    placed = [next(own_sorted) if q["own"][i] else i for i in order]
    return [q["cands"][i]["id"] for i in placed[:5]]


if __name__ == "__main__":
    main()
