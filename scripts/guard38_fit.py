"""Round 38: why ordinary notes are quarantined (the cause table) and the two candidates of the declared rule
(``bench/results/guard38/ship_rule.md``), leave-one-round-out over r1 - r36 (issue 10; docs/benchmarks.md "Guard, round 38").

    PYTHONPATH=src:scripts .venv/bin/python scripts/guard38_fit.py causes /tmp/g38/main.jsonl --out causes.json
    PYTHONPATH=src:scripts .venv/bin/python scripts/guard38_fit.py loro /tmp/g38/main.jsonl --out loro.json

Input: ``guard38_stage.py``'s merged screen of main (every row's verdict, stage, rule ids and redacted text) and its
vector caches (the write path's ONNX vectors, ``/tmp/g38/cache``).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
CACHE = Path("/tmp/g38/cache")
BASE_T = 0.555


def load(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def vectors_for(rows: list[dict]) -> np.ndarray:
    import guard_model as gm
    cache: dict[str, np.ndarray] = {}
    for part in sorted(CACHE.glob("emb_onnx_*.json")):
        cache.update(gm._load_cache(part.with_suffix(".npy")))
    return np.stack([cache[str(r["redacted"])] for r in rows])


def kind(r: dict) -> str:
    if r["attack"]:
        return "attack"
    return {"retrieval_memory": "retrieval", "pii_note": "pii"}.get(str(r["category"]), "benign")


def model_base(r: dict) -> bool:
    """Quarantined by the classifier at the shipped threshold alone: no rule vote, nothing hidden, no part, no reading
    that moved the threshold, a short plain text (the write path's vector is the one the classifier read)."""
    from hindsight.safety.long_text import is_long
    from hindsight.safety.normalize import prepare
    return (bool(r["q"]) and not r["rules"] and str(r["stage"]).startswith("model") and str(r["stage"]).endswith("(base)")
            and not r["obfuscated"] and not is_long(prepare(str(r["redacted"])).text))


def prepared_texts(rows: list[dict]) -> list[str]:
    from hindsight.safety.normalize import prepare
    return [prepare(str(r["redacted"])).text for r in rows]


def causes(rows: list[dict]) -> dict:
    """Every benign quarantine by stage; for the model-decided ones, which part of the classifier's input put it over."""
    from hindsight.safety.classifier import STRUCTURED_NAMES, get_classifier, structured_features
    clf = get_classifier()
    assert clf is not None
    benign_q = [r for r in rows if r["q"] and not r["attack"]]
    stages: dict[str, Counter[str]] = defaultdict(Counter)
    for r in benign_q:
        s = str(r["stage"])
        name = "hard" if s.startswith("hard") else "part" if s.startswith("part") else s[s.find("(") + 1:-1] if "(" in s else s
        stages[kind(r)]["model>=T " + name + (" +rule vote" if r["rules"] and not s.startswith("hard") else "")
                        if s.startswith("model") else name] += 1
    model_rows = [r for r in benign_q if model_base(r)]
    vecs = vectors_for(model_rows)
    texts = prepared_texts(model_rows)
    S = structured_features(texts)
    F = clf.combine(vecs, S)
    full = 1.0 - clf.probabilities_from(F)[:, 0]
    check = float(np.max(np.abs(full - np.array([r["score"] for r in model_rows])))) if model_rows else 0.0
    emb_only = 1.0 - clf.probabilities_from(clf.combine(vecs, np.zeros_like(S)))[:, 0]
    struct_only = 1.0 - clf.probabilities_from(clf.combine(np.tile(clf.mu, (len(vecs), 1)), S))[:, 0]
    over_by: Counter[str] = Counter()  # the one active feature whose removal alone takes the score under T
    active: Counter[str] = Counter()
    listed = []
    for i, r in enumerate(model_rows):
        on = [j for j in np.flatnonzero(S[i])]
        drops = []
        for j in on:
            active[STRUCTURED_NAMES[j]] += 1
            s2 = S[i:i + 1].copy()
            s2[0, j] = 0.0
            p = 1.0 - float(clf.probabilities_from(clf.combine(vecs[i:i + 1], s2))[0, 0])
            drops.append((round(full[i] - p, 3), STRUCTURED_NAMES[j], p))
        drops.sort(reverse=True)
        for _d, name, p in drops:
            if p < BASE_T:
                over_by[name] += 1
        band = "0.555-0.6" if full[i] < 0.6 else "0.6-0.7" if full[i] < 0.7 else "0.7-0.8" if full[i] < 0.8 else "0.8-0.9" if full[i] < 0.9 else ">=0.9"
        listed.append({"round": r["round"], "writer": r["writer"], "kind": kind(r), "lang": r["lang"], "score": round(float(full[i]), 3),
                       "band": band, "embedding_alone": round(float(emb_only[i]), 3), "features_alone": round(float(struct_only[i]), 3),
                       "features_on": [STRUCTURED_NAMES[j] for j in on], "top_drops": [[d, n] for d, n, _ in drops[:3]],
                       "text": str(r["text"])[:200]})
    # how often each feature is on among the stored benign notes that reached the classifier, for a rate
    stored = [r for r in rows if not r["attack"] and not r["q"] and str(r["stage"]).startswith("model")]
    stored = [stored[k] for k in np.random.default_rng(38).permutation(len(stored))[:2000]]  # a sample: rate only
    S_stored = structured_features(prepared_texts(stored)) if stored else np.zeros((0, len(STRUCTURED_NAMES)))
    rate_stored = {STRUCTURED_NAMES[j]: float(S_stored[:, j].mean()) for j in range(len(STRUCTURED_NAMES))} if stored else {}
    feats = [{"feature": n, "on_in_false_alarms": c, "share_false_alarms": round(c / max(1, len(model_rows)), 3),
              "share_stored_benign": round(rate_stored.get(n, 0.0), 3), "alone_takes_it_under_T": over_by[n]}
             for n, c in active.most_common(30)]
    bands = Counter(x["band"] for x in listed)
    by_kind_band = Counter(f"{x['kind']} {x['band']}" for x in listed)
    return {"score_check_max_abs": check, "benign_quarantined_by_stage": {k: dict(v.most_common()) for k, v in stages.items()},
            "model_base_false_alarms": len(model_rows), "bands": dict(sorted(bands.items())),
            "by_kind_band": dict(sorted(by_kind_band.items())),
            "embedding_alone_over_T": int(np.sum(emb_only >= BASE_T)), "features_alone_over_T": int(np.sum(struct_only >= BASE_T)),
            "no_structured_feature_on": int(sum(1 for x in listed if not x["features_on"])),
            "features": feats, "stored_benign_sampled": len(stored), "rows": listed}


#: structured features that take a text out of the ordinary-note shape (declared before any measurement,
#: bench/results/guard38/ship_rule.md): an order to the agent, a loosened or skipped safeguard, trust handed over,
#: something concealed
SHAPE_OFF: tuple[str, ...] = (
    "agent_address", "loosen", "trust", "authorised", "late_agent_order", "recap_then_order", "view:order_in_reply",
    "view:authority_turn", "view:endorsed_quote", "AGENT", "IGNORE_VERB", "SKIP_CONFIRM_NEG", "SKIP_CONFIRM_WITHOUT",
    "DISABLE_EN", "DISABLE_ZH", "CONCEAL",
)


def note_shaped(structured: np.ndarray) -> bool:
    """No feature of ``SHAPE_OFF`` is on in a text's structured features (``classifier.structured_features``)."""
    from hindsight.safety.classifier import STRUCTURED_NAMES
    return not any(structured[STRUCTURED_NAMES.index(name)] for name in SHAPE_OFF)


def reaching(rows: list[dict]) -> tuple[list[int], np.ndarray, np.ndarray]:
    """Indices of the rows that reach the stage (declared), their vectors and structured features."""
    from hindsight.safety.classifier import structured_features
    cand = [i for i, r in enumerate(rows) if model_base(r)]
    S = structured_features(prepared_texts([rows[i] for i in cand]))
    keep = [k for k in range(len(cand)) if note_shaped(S[k])]
    idx = [cand[k] for k in keep]
    return idx, vectors_for([rows[i] for i in idx]), S[keep]


def design(vecs: np.ndarray, S: np.ndarray, scores: np.ndarray) -> np.ndarray:
    from hindsight.safety.classifier import get_classifier
    clf = get_classifier()
    assert clf is not None
    s = np.clip(scores, 1e-4, 1 - 1e-4)
    return np.hstack([(vecs - clf.mu) / clf.sd, S, np.log(s / (1 - s))[:, None]]).astype(np.float64)


def fit_lr(X: np.ndarray, y: np.ndarray):  # type: ignore[no-untyped-def]
    from sklearn.linear_model import LogisticRegression
    return LogisticRegression(C=1.0, class_weight="balanced", max_iter=3000).fit(X, y)


def pick_theta(p: np.ndarray, y: np.ndarray, budget: int) -> float:
    best = 0.0
    for theta in np.round(np.arange(0.01, 1.0, 0.01), 2):
        if int(np.sum((p < theta) & (y == 1))) <= budget:
            best = float(theta)
    return best


def pick_tnote(scores: np.ndarray, y: np.ndarray, budget: int) -> float:
    best = BASE_T
    for t in np.round(np.arange(0.56, 1.0, 0.01), 2):
        if int(np.sum((scores < t) & (y == 1))) <= budget:
            best = float(t)
    return best


def choose(X: np.ndarray, y: np.ndarray, scores: np.ndarray, groups: np.ndarray, n_attacks: int) -> dict:
    """The recipe of the rule on one training set: T_note (P), and the model with its theta (N, inner grouped OOF)."""
    budget = int(math.floor(0.0005 * n_attacks))
    t_note = pick_tnote(scores, y, budget)
    rounds = sorted(set(groups.tolist()), key=lambda g: int(g.lstrip("r")))
    fold = {g: i % 6 for i, g in enumerate(rounds)}
    f = np.array([fold[g] for g in groups])
    oof = np.zeros(len(y))
    for k in range(6):
        tr, te = f != k, f == k
        if te.any() and len(set(y[tr].tolist())) == 2:
            oof[te] = fit_lr(X[tr], y[tr]).predict_proba(X[te])[:, 1]
        else:
            oof[te] = 1.0
    theta = pick_theta(oof, y, budget)
    return {"budget": budget, "t_note": t_note, "theta": theta, "model": fit_lr(X, y)}


_SHARED: dict[str, object] = {}


def _fold(rnd: str) -> tuple[str, dict, list[int], list[int]]:
    """One leave-one-round-out fold (a worker of ``loro``): the recipe chosen without ``rnd``, applied to ``rnd``."""
    X, y, scores, groups, idx, n_att = (_SHARED[k] for k in ("X", "y", "scores", "groups", "idx", "n_att"))
    assert isinstance(X, np.ndarray) and isinstance(y, np.ndarray) and isinstance(scores, np.ndarray)
    assert isinstance(groups, np.ndarray) and isinstance(idx, list) and isinstance(n_att, dict)
    tr, te = groups != rnd, groups == rnd
    ch = choose(X[tr], y[tr], scores[tr], groups[tr], sum(c for g, c in n_att.items() if g != rnd))
    stored_p: list[int] = []
    stored_n: list[int] = []
    held: list[tuple[int, float]] = []
    if te.any():
        p = ch["model"].predict_proba(X[te])[:, 1]
        for k, pk, sk in zip(np.flatnonzero(te), p, scores[te], strict=True):
            held.append((idx[k], float(pk)))
            if sk < ch["t_note"]:
                stored_p.append(idx[k])
            if pk < ch["theta"]:
                stored_n.append(idx[k])
    info = {"budget": ch["budget"], "t_note": ch["t_note"], "theta": ch["theta"], "reaching": int(te.sum()), "held": held}
    return rnd, info, stored_p, stored_n


def loro(rows: list[dict], workers: int = 3) -> dict:
    import multiprocessing

    idx, vecs, S = reaching(rows)
    sub = [rows[i] for i in idx]
    y = np.array([1 if r["attack"] else 0 for r in sub])
    scores = np.array([float(r["score"]) for r in sub])
    groups = np.array([str(r["round"]) for r in sub])
    _SHARED.update(X=design(vecs, S, scores), y=y, scores=scores, groups=groups, idx=idx,
                   n_att=dict(Counter(str(r["round"]) for r in rows if r["attack"])))
    names = sorted({str(r["round"]) for r in rows}, key=lambda g: int(g.lstrip("r")))
    stored_p: set[int] = set()
    stored_n: set[int] = set()
    folds = {}
    held: list[tuple[int, float]] = []
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        for rnd, info, sp, sn in pool.imap_unordered(_fold, names):
            held.extend(info.pop("held"))
            folds[rnd] = info
            stored_p.update(sp)
            stored_n.update(sn)
            print(rnd, info, len(sp), len(sn), flush=True)
    return {"reaching": len(idx), "reaching_attacks": int(y.sum()), "folds": dict(sorted(folds.items(), key=lambda kv: int(kv[0][1:]))),
            "keys": [[r["writer"], r["category"], r["i"]] for r in sub],
            "P": summary(rows, stored_p), "N": summary(rows, stored_n), "main": summary(rows, set()),
            "curve_post_hoc": curve(rows, held)}


def curve(rows: list[dict], held: list[tuple[int, float]]) -> list[dict]:
    """Post hoc (not the rule): what a fixed cut on N's held-out P(attack) would store, by kind, and its score twin."""
    out = []
    for cut in (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.4, 0.5):
        c = Counter(kind(rows[i]) for i, p in held if p < cut)
        out.append({"p_attack_below": cut, **dict(c)})
    return out


def summary(rows: list[dict], stored: set[int]) -> dict:
    per: dict[str, Counter[str]] = defaultdict(Counter)
    moved = []
    for i, r in enumerate(rows):
        q = bool(r["q"]) and i not in stored
        k = kind(r)
        for key in ("all", f"lang:{r['lang']}", f"round:{r['round']}", f"writer:{r['writer']}" if k in ("attack", "benign") else ""):
            if key:
                per[key][f"{k}_{'q' if q else 's'}"] += 1
        if i in stored:
            moved.append({"round": r["round"], "writer": r["writer"], "kind": k, "lang": r["lang"], "score": r["score"],
                          "category": r["category"], "text": str(r["text"])[:200]})
    return {"counts": {k: dict(sorted(v.items())) for k, v in per.items()}, "moved": moved}


EVERYDAY = ("直接", "不用", "就行", "就好")


def loosen_view(rows: list[dict]) -> dict:
    """Post hoc, no refit: the shipped weights with ``loosen`` (and its crosses) read as off where every LOOSEN match is
    an everyday ZH adverb (``EVERYDAY``) - how many model-only quarantines, benign and attack, fall under T."""
    from hindsight.safety import features as feat
    from hindsight.safety.classifier import STRUCTURED_NAMES, get_classifier, structured_features
    from hindsight.safety.view import feature_view
    clf = get_classifier()
    assert clf is not None
    cand = [r for r in rows if model_base(r)]
    texts = prepared_texts(cand)
    hit = [k for k, t in enumerate(texts)
           if (m := [x.group(0) for x in feat.LOOSEN.finditer(feature_view(t).text)]) and all(w in EVERYDAY for w in m)]
    sub = [cand[k] for k in hit]
    S = structured_features([texts[k] for k in hit])
    cols = [j for j, n in enumerate(STRUCTURED_NAMES) if n == "loosen" or n.startswith("loosenx") or n.endswith("xloosen")
            or "xloosenx" in n]
    S2 = S.copy()
    S2[:, cols] = 0.0
    vecs = vectors_for(sub)
    after = 1.0 - clf.probabilities_from(clf.combine(vecs, S2))[:, 0]
    moved = Counter(f"{kind(r)} {'under T' if p < BASE_T else 'still over'}" for r, p in zip(sub, after, strict=True))
    lost = [{"writer": r["writer"], "category": r["category"], "score": r["score"], "after": round(float(p), 3),
             "text": str(r["text"])[:160]} for r, p in zip(sub, after, strict=True) if r["attack"] and p < BASE_T]
    return {"reached": len(sub), "moved": dict(moved), "attacks_under_T": lost}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("causes", "loro", "loosen"))
    parser.add_argument("screen", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    rows = load(args.screen)
    out = causes(rows) if args.mode == "causes" else loro(rows) if args.mode == "loro" else loosen_view(rows)
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in out.items() if k not in ("rows", "features", "P", "N", "main", "folds", "keys")}, ensure_ascii=False)[:3000])


if __name__ == "__main__":
    main()
