"""Round 11: a nearest-neighbour second stage beside the guard classifier, measured leave-one-writer-out (analysis).

    PYTHONPATH=src .venv/bin/python scripts/guard_knn_blend.py --cache-dir /tmp/guard11 \
        --scores /tmp/guard11/scores.base.jsonl --model /tmp/guard11/guardF_s13.npz --out /tmp/guard11/knn_s13.json

Inputs: a ``guard_lowo_fast.py --grouped --dump-scores`` dump (each text's score from a fit that never saw its writer
group) and the same run's full fit (``--save``; it scores the texts tests/test_guard_benign_fixed.py pins). For each
held-out text, ``knn`` is the attack share of its k nearest training texts (cosine of the engine's vectors) among the
training texts of that text's own fold (``guard_lowo_fast.GROUPS``): nothing of its writer group. The blended score
is ``(1 - a) * score + a * knn`` where the gate lets the classifier in; a hard rule still scores 1. The pinned texts
are blended with their k nearest among every training text but the held-out ops notes.

Reported for every (k, a): the per-writer operating point (``pick_threshold_per_writer``), pooled held-out caught /
flagged there, the pinned maximum and whether the fixed check would pass; and a nested choice: for each held-out
group, (k, a) and the threshold are picked on the other groups only, then that group is scored.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

import guard_lowo_fast as lowo  # noqa: E402
import guard_model as gm  # noqa: E402
import guard_variants as gv  # noqa: E402

from hindsight.safety.classifier import GuardClassifier, structured_features  # noqa: E402
from hindsight.safety.guard import HARD_RULE_IDS, consults_classifier  # noqa: E402
from hindsight.safety.normalize import normalize_for_screening  # noqa: E402
from hindsight.safety.redact import redactor  # noqa: E402
from hindsight.safety.rules import match_rules  # noqa: E402

KS = (5, 10, 25)
ALPHAS = (0.0, 0.25, 0.5, 0.7)


def knn_share(query: np.ndarray, train: np.ndarray, labels: np.ndarray, ks: tuple[int, ...]) -> dict[int, np.ndarray]:
    """Attack share of each query row's k nearest training rows (cosine; vectors are unit length)."""
    nearest = np.argsort(-(query @ train.T), axis=1)[:, : max(ks)]
    return {k: labels[nearest][:, :k].mean(axis=1) for k in ks}


def blend(score: np.ndarray, knn: np.ndarray, a: float, gate: np.ndarray, hard: np.ndarray) -> np.ndarray:
    return np.where(hard, 1.0, np.where(gate > 0, (1 - a) * score + a * knn, 0.0))


def pinned(model: Path, cache: dict[str, np.ndarray], train: np.ndarray, labels: np.ndarray
           ) -> tuple[list[str], np.ndarray, dict[int, np.ndarray], np.ndarray, np.ndarray]:
    texts = gv.fixed_texts()
    redacted = [redactor(t)[0] for t in texts]
    normalised = [normalize_for_screening(r) for r in redacted]
    vec = np.stack([cache[lowo.vector_text(r)] for r in redacted]).astype(np.float32)
    hits = [match_rules(t) for t in normalised]
    gate = np.array([consults_classifier(t, h) for t, h in zip(normalised, hits, strict=True)], dtype=float)
    hard = np.array([any(x.rule_id in HARD_RULE_IDS for x in h) for h in hits])
    f = gm.Features(vec, vec, structured_features(normalised).astype(np.float32), gate, hard,
                    np.zeros(len(texts), bool), np.zeros(len(texts), bool))
    score = gm.attack_prob(GuardClassifier.load(model), vec, f)
    return texts, score, knn_share(vec, train, labels, KS), gate, hard


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache-dir", type=Path, required=True)
    parser.add_argument("--scores", type=Path, required=True, help="guard_lowo_fast --dump-scores file (one variant)")
    parser.add_argument("--model", type=Path, required=True, help="the same run's full fit (--save)")
    parser.add_argument("--budget", type=float, default=0.03)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    examples = lowo.selected_examples(4)
    redacted, _, gate, hard = gm._prepared_cached([e.text for e in examples], args.cache_dir)
    cache = gm._load_cache(args.cache_dir / "emb_c.npy")
    vec = np.stack([cache[lowo.vector_text(r)] for r in redacted]).astype(np.float32)
    y = np.array([e.is_attack for e in examples])
    writers = np.array([e.writer for e in examples])
    gate, hard = np.asarray(gate, dtype=float), np.asarray(hard, dtype=bool)
    dumped = ~(writers == gm.PLAIN_WRITER)
    rows = [json.loads(line) for line in args.scores.open(encoding="utf-8")]
    assert [r["text"] for r in rows] == [examples[i].text for i in np.flatnonzero(dumped)], "dump and examples differ"
    score = np.full(len(examples), np.nan)
    score[dumped] = [r["score"] for r in rows]
    knn = {k: np.full(len(examples), np.nan) for k in KS}
    for fold in lowo.GROUPS:
        held = np.isin(writers, fold)
        if held.any():
            for k, share in knn_share(vec[held], vec[~held], y[~held].astype(float), KS).items():
                knn[k][held] = share
    keep = ~lowo.held_ops_mask(examples)
    texts, pscore, pknn, pgate, phard = pinned(args.model, cache, vec[keep], y[keep].astype(float))
    scored = [w for w in dict.fromkeys(writers) if w != gm.PLAIN_WRITER]
    blind = [w for w in scored if w not in (lowo.OWN, lowo.OPS, *lowo.TRAIN_ONLY)]
    pooled = np.isin(writers, [*blind, lowo.OPS])
    report: dict[str, object] = {}
    blended = {}
    for k in KS:
        for a in ALPHAS:
            s = blended[(k, a)] = blend(score, knn[k], a, gate, hard)
            t = lowo.pick_threshold_per_writer(s[pooled], y[pooled], writers[pooled], args.budget)
            p = blend(pscore, pknn[k], a, pgate, phard)
            top = np.argsort(-p)[:3]
            report[f"k{k}_a{a}"] = {
                "threshold": t, "pooled": gm.rates(s[pooled], y[pooled], t),
                "fixed_max": [(round(float(p[i]), 4), texts[i][:80]) for i in top],
                "fixed_passes": bool(p.max() + 0.02 <= t),
                "writers": {w: gm.rates(s[writers == w], y[writers == w], t) for w in scored}}
            r = report[f"k{k}_a{a}"]
            print(f"k={k} a={a}: T {t} pooled {r['pooled']['detection_rate']} / {r['pooled']['false_positive_rate']}"  # type: ignore[index]
                  f"  fixed max {r['fixed_max'][0]} passes {r['fixed_passes']}", flush=True)  # type: ignore[index]
    # nested: each held-out group's (k, a) and threshold chosen on the other groups only
    groups = [g for g in lowo.GROUPS if any(w in blind for w in g)]
    nested: dict[str, dict[str, object]] = {}
    for name, grid in (("base", [(k, 0.0) for k in KS[:1]]), ("knn_blend", list(blended))):
        caught, flagged, picks = [], [], {}
        for g in groups:
            others = pooled & ~np.isin(writers, g)
            best = max(grid, key=lambda ka: gm.rates(blended[ka][others], y[others], lowo.pick_threshold_per_writer(
                blended[ka][others], y[others], writers[others], args.budget))["detection_rate"])
            s = blended[best]
            t = lowo.pick_threshold_per_writer(s[others], y[others], writers[others], args.budget)
            held = np.isin(writers, g)
            caught += list(s[held & y] >= t)
            flagged += list(s[held & ~y] >= t)
            picks["+".join(g)] = {"k": best[0], "a": best[1], "threshold": t, **gm.rates(s[held], y[held], t)}
        nested[name] = {"caught": round(float(np.mean(caught)), 4), "flagged": round(float(np.mean(flagged)), 4),
                        "groups": picks}
        print(name, "nested pooled caught / flagged", nested[name]["caught"], nested[name]["flagged"], flush=True)
    report["nested"] = nested
    if args.out is not None:
        args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
