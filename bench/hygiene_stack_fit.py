"""Hygiene round 21: the stacked pair model's fit, its leave-one-round-out policy and its readings, on the rows of
`bench/hygiene_stack.py run` (the command line is there). docs/benchmarks.md "Hygiene, round 21"."""
from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
from hygiene_funnel import ROUNDS

from hindsight.write.pair_stack import CHANGE, KEEP, MERGE, STACK_FEATURES, PairStack, stack_row, stage_of

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


def judged_once(report: dict[str, Any], field: str,
                keep: Callable[[dict[str, Any]], bool] = lambda e: True) -> Iterator[tuple[str, dict[str, Any]]]:
    """(round, entry) for each judged pair of the report's rounds (in `ROUNDS` order) that has `field`, a known kind
    and passes `keep`, once per (i, kind, j): a later entry of a pair already taken is passed over."""
    for rnd in ROUNDS:
        if rnd not in report:
            continue
        done: set[tuple[int, str, int]] = set()
        for e in report[rnd]["judged"]:
            key = (e["i"], e["kind"], e["j"])
            if field not in e or e["kind"] == "unknown" or key in done or not keep(e):
                continue
            done.add(key)
            yield rnd, e


def table(report: dict[str, Any]) -> tuple[np.ndarray, np.ndarray, list[dict[str, Any]]]:
    """Every judged pair with the pair model's readings (cosine >= the judge's floor), once: (X, y, meta)."""
    X: list[np.ndarray] = []
    meta: list[dict[str, Any]] = []
    for rnd, e in judged_once(report, "x"):
        stage = stage_of(e["rules"][0], e["final"][0])
        X.append(stack_row(np.asarray(e["x"]), e["rules"][0], e["rules"][1], np.asarray(e["p"]), stage,
                           e["rewritten"]))
        y = Y[e["label"]] if e["kind"] == "existing" else KEEP
        meta.append({"round": rnd, "i": e["i"], "kind": e["kind"], "j": e["j"], "y": y, "label": e["label"],
                     "keep": e["final"][0] in ("supplement", "unrelated"), "final": e["final"][0], "rules": e["rules"][1][:80]})
    return np.vstack(X), np.array([m["y"] for m in meta]), meta


def fit(X: np.ndarray, y: np.ndarray, t_merge: float = 1.01, t_change: float = 1.01) -> PairStack:
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
    inner: dict[frozenset[str], PairStack] = {}
    for a, b in itertools.combinations(rounds, 2):  # one fit without each two rounds: out-of-fold on the others
        keep = (rnd != a) & (rnd != b) & usable
        inner[frozenset((a, b))] = fit(X[keep], y[keep])
    result: dict[str, Any] = {"budget": BUDGET, "C": C, "n_rows": len(meta), "keep_only": KEEP_ONLY}
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
        if write_dir:
            write_dir.mkdir(parents=True, exist_ok=True)
            model.save(write_dir / f"stack_without_{held}.npz")
    result["pooled"] = {"main": rates(before), "stack": rates(after)}
    result["moved"] = moved_all
    result["replay"] = sorted({":".join(k.split(":")[:2]) for k in moved_all})
    tm, tc = choose(report, _oof(X, y, rnd, rounds, usable), meta, rounds)
    result["all"] = {"t_merge": tm, "t_change": tc}
    final = fit(X[usable], y[usable], tm, tc)
    if write_dir:
        final.save(write_dir / "stack_all.npz")
    print(json.dumps(result["pooled"], indent=1), "\nall rounds:", result["all"])
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


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
