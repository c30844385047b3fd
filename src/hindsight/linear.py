"""Softmax (multinomial logistic) regression in numpy, shared by the learned parts.

The write guard (`safety.classifier`) and the hygiene restatement model
(`write.restatement`) are both small linear models trained offline by a script
and shipped as a handful of numbers. Training them needs nothing heavier than
this: a few hundred to a few thousand rows, full-batch Adam, deterministic for
a seed. Keeping it in numpy keeps scikit-learn out of the runtime.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


def softmax(z: np.ndarray) -> np.ndarray:
    """Row-wise softmax, stable for large logits."""
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


def train_softmax(
    X: np.ndarray,
    y: np.ndarray,
    n_classes: int,
    l2: float = 1e-3,
    epochs: int = 600,
    lr: float = 0.5,
    class_weight: np.ndarray | None = None,
    seed: int = 0,
) -> tuple[np.ndarray, np.ndarray]:
    """Full-batch gradient descent with Adam on weighted cross-entropy + L2.

    Deterministic for a given seed; small enough (a few thousand rows x 384) that
    full-batch training takes well under a second.
    """
    rng = np.random.default_rng(seed)
    n, d = X.shape
    W = rng.normal(0.0, 0.01, size=(d, n_classes)).astype(np.float64)
    b = np.zeros(n_classes, dtype=np.float64)
    Y = np.eye(n_classes)[y]
    sw = np.ones(n) if class_weight is None else class_weight[y]
    sw = sw / sw.sum()
    m_w, v_w, m_b, v_b = np.zeros_like(W), np.zeros_like(W), np.zeros_like(b), np.zeros_like(b)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    Xd = X.astype(np.float64)
    for t in range(1, epochs + 1):
        P = softmax(Xd @ W + b)
        G = (P - Y) * sw[:, None]
        gW = Xd.T @ G + l2 * W
        gb = G.sum(axis=0)
        m_w = beta1 * m_w + (1 - beta1) * gW
        v_w = beta2 * v_w + (1 - beta2) * gW * gW
        m_b = beta1 * m_b + (1 - beta1) * gb
        v_b = beta2 * v_b + (1 - beta2) * gb * gb
        step = lr * np.sqrt(1 - beta2**t) / (1 - beta1**t)
        W -= step * m_w / (np.sqrt(v_w) + eps)
        b -= step * m_b / (np.sqrt(v_b) + eps)
    return W.astype(np.float32), b.astype(np.float32)


def save_standardised(path: Path, features: tuple[str, ...], mean: np.ndarray, scale: np.ndarray,
                      weights: np.ndarray, bias: np.ndarray, thresholds: tuple[float, ...]) -> None:
    """Store a standardise-then-linear model with its feature names and decision thresholds (one ``.npz``)."""
    np.savez(path, features=np.array(features), mean=mean, scale=scale, weights=weights, bias=bias,
             thresholds=np.array(thresholds))


def load_standardised(path: Path) -> tuple[tuple[str, ...], dict[str, np.ndarray], tuple[float, ...]] | None:
    """(feature names, float64 mean / scale / weights / bias, thresholds) of a stored model; None when missing or
    unreadable. The caller checks the names against the features it computes."""
    try:
        raw = np.load(path)
    except (OSError, ValueError):
        return None
    arrays = {k: raw[k].astype(np.float64) for k in ("mean", "scale", "weights", "bias")}
    return tuple(str(x) for x in raw["features"]), arrays, tuple(float(x) for x in raw["thresholds"])
