"""supwrite32 (issue 10): fit and measure the write-time retire pick (`supwrite32_pick`: measured, not shipped) on the write logs
of the released retrieval stores, leave-one-round-out, and read it on the hygiene rows' logs (the second view).

    PYTHONPATH=src:bench python bench/supwrite32_fit.py loro OUT.json LOGROOT... [--hyg HYGDIR]
    PYTHONPATH=src:bench python bench/supwrite32_fit.py export WEIGHTS.json LOGROOT... [--without ROUND]

A LOGROOT holds ROUND/write_log.json (`supersede24_stores.py`, this tree's or an earlier one's write path); a
round found under several roots is read from the last. Each write's judged candidates are read with
`supwrite32_pick.features` (records rebuilt from the set: content, type, the harness's event time); the label is the
writer's `replaces`. The rules' retirement per write is the log's `supersedes`.

Held out: each round's writes scored by a model fitted on the other rounds; its operating point chosen on those
rounds' own out-of-fold scores (five groups of rounds) by the cost 3 x kept memories retired + 1 x replaced memories
left active. Offline replay: one write's retirement does not change later writes' candidates (the engine run does).
"""
from __future__ import annotations

import json
import os
import sys
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import supwrite32_pick as rp
from blind_store import rows, when
from currency19_read import set_dir
from sklearn.linear_model import LogisticRegression

from hindsight.model import MemoryRecord, MemoryType
from hindsight.write.conflict import Verdict

BASE = datetime(2026, 6, 1, tzinfo=UTC)
COST_WRONG, COST_MISSED = 3.0, 1.0
GRID = [round(x, 3) for x in np.arange(0.05, 1.0, 0.025)]
C = 0.5


def _type(kind: str) -> MemoryType:
    return MemoryType(kind) if kind in ("episodic", "semantic", "warning") else MemoryType.semantic


def load_round(rnd: str, log_path: Path) -> dict:
    """The round's writes: [(write id, [(cand id, features, label, rules_retire, eligible)], rules retired, merged)]."""
    mems = rows(set_dir(rnd) / "retrieval/memories.jsonl")
    recs, replaces = {}, {}
    for j, m in enumerate(mems):
        recs[m["id"]] = MemoryRecord(id=m["id"], namespace="r", content=m["content"], type=_type(m.get("type", "semantic")),
                                     tags=m.get("tags", [])[:20], event_time=when(m, BASE + timedelta(hours=j)))
        r = m.get("replaces")
        replaces[m["id"]] = set([r] if isinstance(r, str) else r or [])
    log = json.loads(log_path.read_text())
    writes = []
    for wid, e in log.items():
        new = recs.get(wid)
        if new is None:
            continue
        retired = set(e["supersedes"])
        cands = []
        for j in e["judged"]:
            old = recs.get(j["old"])
            if old is None:
                continue
            ok = rp.eligible(old, new)
            mine = old.id in retired
            x = rp.features(old, new, j["sim"], Verdict(j["label"], j["reason"]), mine, bool(retired) and not mine)
            cands.append((old.id, x, old.id in replaces[wid], mine, ok))
        writes.append((wid, cands, retired, e.get("duplicate_of")))
    replaced = {x for v in replaces.values() for x in v}
    return {"writes": writes, "replaced": replaced, "n": len(mems)}


def cached_round(rnd: str, log_path: Path) -> dict:
    """`load_round`, kept beside the log (ROUND/supwrite32_features.pkl) for the readings of this tree."""
    import hashlib
    import inspect
    import pickle
    src = inspect.getsource(rp.features) + inspect.getsource(rp.eligible) + str(rp.FEATURES) + str(log_path.stat().st_mtime)
    key = hashlib.sha1(src.encode()).hexdigest()[:12]
    path = Path(os.environ.get("SUPWRITE32_CACHE", "/tmp/supwrite32/cache")) / f"{rnd}_{key}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    out = load_round(rnd, log_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(out))
    return out


def matrix(rounds: dict, names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for r in names:
        for _, cands, _, dup in rounds[r]["writes"]:
            if dup:
                continue
            for _, x, y, _, ok in cands:
                if ok:
                    xs.append(x)
                    ys.append(y)
    return np.array(xs, dtype=float), np.array(ys, dtype=int)


def fit(rounds: dict, names: list[str]) -> rp.Model:
    x, y = matrix(rounds, names)
    mean, scale = x.mean(0), x.std(0)
    scale[scale < 1e-6] = 1.0
    lr = LogisticRegression(C=C, max_iter=2000).fit((x - mean) / scale, y)
    return rp.Model(tuple(lr.coef_[0]), float(lr.intercept_[0]), tuple(mean), tuple(scale), 0.5)


def write_scores(rnd: dict, model: rp.Model) -> list[tuple[dict[str, float], set[str], object]]:
    out = []
    for _, cands, retired, dup in rnd["writes"]:
        out.append(({cid: model.score(x) for cid, x, _, _, ok in cands if ok}, retired, dup))
    return out


def replay(rnd: dict, scored: list, t: float | None) -> dict:
    """Retired memories when each write retires its best candidate at >= t (None: the rules' pick, main)."""
    gone: set[str] = set()
    for got, retired, dup in scored:
        if t is None or dup:
            gone |= retired
            continue
        best = max(got, key=lambda k: got[k], default=None)
        if best is not None and got[best] >= t:
            gone.add(best)
    ok = len(gone & rnd["replaced"])
    wrong = len(gone - rnd["replaced"])
    return {"replaced_retired": ok, "replaced": len(rnd["replaced"]), "kept_retired": wrong,
            "cost": COST_WRONG * wrong + COST_MISSED * (len(rnd["replaced"]) - ok)}


def choose_t(rounds: dict, names: list[str]) -> float:
    """The operating point on `names`' out-of-fold scores (five groups of rounds)."""
    groups = [names[i::5] for i in range(5) if names[i::5]]
    scored = {}
    for g in groups:
        model = fit(rounds, [n for n in names if n not in g])
        for n in g:
            scored[n] = write_scores(rounds[n], model)
    return min(GRID, key=lambda t: (sum(replay(rounds[n], scored[n], t)["cost"] for n in names), -t))


def main() -> None:
    mode, out = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    hyg = None
    if "--hyg" in args:
        k = args.index("--hyg")
        hyg, args = Path(args[k + 1]), args[:k] + args[k + 2:]
    without = None
    if "--without" in args:
        k = args.index("--without")
        without, args = args[k + 1], args[:k] + args[k + 2:]
    logs = {}
    for root in args:
        for f in sorted(Path(root).glob("*/write_log.json")):
            logs[f.parent.name] = f
    rounds = {r: cached_round(r, f) for r, f in sorted(logs.items())}
    names = sorted(rounds)
    print("rounds", names, file=sys.stderr)
    if mode == "export":  # --without R: a fold's weights (every round but R), for the engine run of R
        names = [n for n in names if n != without]
        model = fit(rounds, names)
        t = choose_t(rounds, names)
        Path(out).write_text(json.dumps({"features": list(rp.FEATURES), "weights": list(model.weights),
                                         "bias": model.bias, "mean": list(model.mean), "scale": list(model.scale),
                                         "threshold": t, "rounds": names, "C": C,
                                         "cost": [COST_WRONG, COST_MISSED]}, indent=1) + "\n")
        return
    res: dict = {"rounds": {}, "pooled": {}}
    pooled = defaultdict(lambda: defaultdict(int))
    hyg_models = {}
    full = fit(rounds, names)
    for h in names:
        train = [n for n in names if n != h]
        t = choose_t(rounds, train)
        model = fit(rounds, train)._replace(threshold=t)
        hyg_models[h] = model
        held = replay(rounds[h], write_scores(rounds[h], model), t)
        base = replay(rounds[h], write_scores(rounds[h], model), None)
        ins = replay(rounds[h], write_scores(rounds[h], full), t)
        res["rounds"][h] = {"t": t, "main": base, "held_out": held, "in_sample": ins}
        for k, v in (("main", base), ("held_out", held), ("in_sample", ins)):
            for m in ("replaced_retired", "replaced", "kept_retired"):
                pooled[k][m] += v[m]
        print(h, t, base, held, file=sys.stderr, flush=True)
    res["pooled"] = {k: dict(v) for k, v in pooled.items()}
    if hyg is not None:
        from supwrite32_hyg_read import read_hygiene
        res["hygiene"] = read_hygiene(hyg, hyg_models, lambda: fit(rounds, names)._replace(
            threshold=choose_t(rounds, names)))
    Path(out).write_text(json.dumps(res, indent=1) + "\n")


if __name__ == "__main__":
    main()
