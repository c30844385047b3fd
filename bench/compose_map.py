"""A fitted linear map from a turn's own vector and its two predecessors' to the joined vector (issue 14, round 32,
lever (a); measured, not shipped). Input: bench/compose_vectors.py's .npz per conversation.

    PYTHONPATH=src:bench .venv/bin/python bench/compose_map.py --vectors /tmp/speed32/vectors --conversations 0 1 2 \
        --out bench/results/compose_map_dev.json

Per turn with session context, features [own, pred1, pred2, has pred1, has pred2, 1] (1,155), target the joined
text's vector (what `encode` stores); ridge fitted on the dev conversations, either toward 0 or toward a fixed mix
(0.9 own + 0.3 pred1 + 0.25 pred2, i.e. fitting the residual). Dense-only R@10 by cosine over the conversation's
turns: in sample (fitted on all listed conversations) and held out (leave one conversation out); cosine to the
joined vector held out. Baselines: the joined vector, the turn alone, today's `compose` (own x2, length-weighted).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np


def load(folder: Path, conv: int) -> dict[str, np.ndarray]:
    z = np.load(folder / f"conv{conv}.npz")
    return {k: z[k] for k in z.files}


def recall(d: dict[str, np.ndarray], vectors: np.ndarray, k: int = 10) -> list[float]:
    v = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-9)
    scores = d["query"] @ v.T
    out = []
    for i, ev in enumerate(d["evidence"]):
        wanted = set(json.loads(str(ev)))
        top = {str(d["dia"][j]) for j in np.argsort(-scores[i])[:k]}
        out.append(len(wanted & top) / len(wanted))
    return out


def predecessors(d: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    own, prev = d["alone"], d["prev"]
    zero = np.zeros_like(own)
    p1 = np.where(prev[:, :1] >= 0, own[np.maximum(prev[:, 0], 0)], zero)
    p2 = np.where(prev[:, 1:2] >= 0, own[np.maximum(prev[:, 1], 0)], zero)
    return own, p1, p2, prev


def compose_today(d: dict[str, np.ndarray], weight: float = 2.0) -> np.ndarray:
    own, p1, p2, prev = predecessors(d)
    n = d["lengths"].astype(np.float32)
    l1 = np.where(prev[:, 0] >= 0, n[np.maximum(prev[:, 0], 0)], 0)[:, None]
    l2 = np.where(prev[:, 1] >= 0, n[np.maximum(prev[:, 1], 0)], 0)[:, None]
    return weight * n[:, None] * own + l1 * p1 + l2 * p2


def features(d: dict[str, np.ndarray]) -> np.ndarray:
    own, p1, p2, prev = predecessors(d)
    has1, has2 = (prev[:, :1] >= 0).astype(np.float32), (prev[:, 1:2] >= 0).astype(np.float32)
    return np.hstack([own, p1, p2, has1, has2, np.ones_like(has1)])


def fit(data: list[dict[str, np.ndarray]], lam: float, prior: str) -> np.ndarray:
    X = np.vstack([features(d)[d["prev"][:, 0] >= 0] for d in data]).astype(np.float64)
    Y = np.vstack([d["joined"][d["prev"][:, 0] >= 0] for d in data]).astype(np.float64)
    W0 = np.zeros((X.shape[1], Y.shape[1]))
    if prior == "mix":
        H = Y.shape[1]
        W0[:H], W0[H : 2 * H], W0[2 * H : 3 * H] = 0.9 * np.eye(H), 0.3 * np.eye(H), 0.25 * np.eye(H)
    return W0 + np.linalg.solve(X.T @ X + lam * np.eye(X.shape[1]), X.T @ (Y - X @ W0))


def mapped(d: dict[str, np.ndarray], W: np.ndarray) -> np.ndarray:
    out = d["alone"].copy()
    m = d["prev"][:, 0] >= 0
    out[m] = features(d)[m] @ W
    return out


def cosine(d: dict[str, np.ndarray], v: np.ndarray) -> float:
    m = d["prev"][:, 0] >= 0
    a = v[m] / np.linalg.norm(v[m], axis=1, keepdims=True)
    return float(np.mean(np.sum(a * d["joined"][m], axis=1)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--vectors", type=Path, required=True)
    parser.add_argument("--conversations", type=int, nargs="+", default=[0, 1, 2])
    parser.add_argument("--lams", type=float, nargs="+", default=[0.1, 0.3, 1, 3, 10, 30, 100, 300])
    parser.add_argument("--test", type=int, nargs="*", default=[], help="test conversations: maps fitted on all dev")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    data = {c: load(args.vectors, c) for c in args.conversations}
    tests = {c: load(args.vectors, c) for c in args.test}

    def on_test(fn) -> float | None:  # type: ignore[no-untyped-def]
        values = [r for c, d in tests.items() for r in recall(d, fn(c, d))]
        return round(float(np.mean(values)), 4) if values else None

    def pooled(fn) -> float:  # type: ignore[no-untyped-def]
        return round(float(np.mean([r for c, d in data.items() for r in recall(d, fn(c, d))])), 4)

    rows = [{"variant": "joined (today's encode)", "dense_r10": pooled(lambda c, d: d["joined"]),
             "dense_r10_test": on_test(lambda c, d: d["joined"])},
            {"variant": "turn alone", "dense_r10": pooled(lambda c, d: d["alone"]),
             "dense_r10_test": on_test(lambda c, d: d["alone"])},
            {"variant": "compose (today's option: own x2, length-weighted)", "dense_r10": pooled(lambda c, d: compose_today(d)),
             "dense_r10_test": on_test(lambda c, d: compose_today(d))}]
    for prior in ("zero", "mix"):
        for lam in args.lams:
            held, cos = [], []
            for c, d in data.items():
                W = fit([e for k, e in data.items() if k != c], lam, prior)
                v = mapped(d, W)
                held += recall(d, v)
                cos.append(cosine(d, v))
            W = fit(list(data.values()), lam, prior)
            rows.append({"variant": f"ridge toward {prior}, lambda {lam:g}",
                         "dense_r10_in_sample": pooled(lambda c, d, W=W: mapped(d, W)),
                         "dense_r10_held_out": round(float(np.mean(held)), 4),
                         "dense_r10_test": on_test(lambda c, d, W=W: mapped(d, W)),
                         "cos_to_joined_held_out": round(float(np.mean(cos)), 4)})
            print(rows[-1], flush=True)
    print(json.dumps(rows[:3]))
    if args.out:
        args.out.write_text(json.dumps({"conversations": args.conversations, "test": args.test, "rows": rows},
                                       indent=1) + "\n")


if __name__ == "__main__":
    main()
