"""Is a close pair a restatement? A small learned judge on top of the lexical heuristic.

The heuristic in `conflict` is good at what it can *see* (a changed number, a
negation, "switched to", one value word swapped) but it reads a paraphrase with
few shared words ("takes their coffee unsweetened" / "drinks coffee without
sugar", "用户的时区为UTC+8" / "用户所在时区是东八区") as new detail, and a small
embedding model cannot settle it either: on multilingual-e5-small, paraphrases
and same-topic different facts overlap over most of the 0.9-0.98 cosine range.
Each signal alone is weak; together they are not. So the final dedup decision is
a logistic regression over:

* two cosines: the stored passage embeddings, and the E5 ``query:`` embeddings
  of both texts (E5's recipe for *symmetric* tasks such as paraphrase detection;
  it separates restatements better than the asymmetric passage side);
* the heuristic's own reading of the pair: its label, the share of content
  lost and added, changed or new numbers, negation, antonym and switch cues,
  lost or new names, word and character-bigram overlap, the length ratio;
* each of these again for Chinese pairs (an interaction with the script), since
  character-level overlap means something else in Chinese.

It is trained by scripts/calibrate_hygiene.py on the calibration part of the
labelled pairs only, its threshold chosen on out-of-fold predictions under the
same safety floor as the bands (at least 97% of same-topic different facts kept
apart), and shipped as ~90 numbers in hygiene_thresholds.json next to the
thresholds of the embedding model it was fitted for. A model without it (an
uncalibrated embedder) keeps the heuristic's decision.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from hindsight.linear import train_softmax
from hindsight.write.analysis import PairAnalysis, content_diff, pair_script
from hindsight.write.conflict import ADDS_DETAIL, LABELS

BASE_FEATURES: tuple[str, ...] = (
    "cosine_passage",
    "cosine_query",
    "word_jaccard",
    "old_kept",
    "new_covered",
    "lost_share",
    "novel_share",
    "number_changed",
    "number_added",
    "polarity_flip",
    "antonym",
    "strong_cue",
    "weak_cue",
    "bigram_jaccard",
    "length_ratio",
    "name_lost",
    "name_added",
    "adds_wording_only",
    *(f"heuristic_{label}" for label in LABELS),
)
#: Every base feature, then every base feature again for Chinese pairs, then the script flag.
FEATURES: tuple[str, ...] = (*BASE_FEATURES, *(f"zh_{name}" for name in BASE_FEATURES), "zh")


@lru_cache(maxsize=8192)
def _bigrams(text: str) -> frozenset[str]:
    chars = "".join(ch for ch in text.lower() if ch.isalnum())
    return frozenset(chars[i : i + 2] for i in range(len(chars) - 1))


def pair_features(
    old: str,
    new: str,
    cosine: float,
    query_cosine: float,
    analysis: PairAnalysis,
    heuristic_label: str,
    heuristic_reason: str,
) -> np.ndarray:
    """The feature row of one pair, in the order of `FEATURES`."""
    old_content, new_content, lost, novel = content_diff(analysis)
    old_bigrams, new_bigrams = _bigrams(old), _bigrams(new)
    base = [
        cosine,
        query_cosine,
        analysis.jaccard,
        analysis.containment,
        analysis.coverage,
        len(lost) / max(1, len(old_content)),
        len(novel) / max(1, len(new_content)),
        float(analysis.number_change),
        float(bool((analysis.new_numbers - analysis.old_numbers) - {"1"})),
        float(analysis.polarity_flip),
        float(bool(analysis.antonym)),
        float(bool(analysis.strong_cue)),
        float(bool(analysis.weak_cue)),
        len(old_bigrams & new_bigrams) / max(1, len(old_bigrams | new_bigrams)),
        min(len(old), len(new)) / max(1, len(old), len(new)),
        float(any(u.entity for u in lost)),
        float(any(u.entity for u in novel)),
        float(heuristic_label == "supplement" and heuristic_reason.startswith(ADDS_DETAIL)),
        *(float(heuristic_label == label) for label in LABELS),
    ]
    zh = 1.0 if pair_script(old, new) == "zh" else 0.0
    row = np.asarray(base, dtype=np.float64)
    return np.concatenate([row, row * zh, [zh]])


def visible_change(analysis: PairAnalysis) -> bool:
    """Evidence of a changed fact that the model may not overrule.

    A changed number, a switch cue, a negation or an antonym. Calling such a pair a
    duplicate would drop the new memory (a duplicate stores nothing), so the
    heuristic's reading stands whatever the model says.
    """
    return bool(analysis.number_change or analysis.strong_cue or analysis.polarity_flip or analysis.antonym)


def settle(label: str, probability: float, threshold: float, protected: bool) -> str:
    """The final label: the model decides duplicate-or-not, except where a visible change protects the pair."""
    if protected:
        return label
    if probability >= threshold:
        return "duplicate"
    return "supplement" if label == "duplicate" else label


@dataclass(frozen=True)
class RestatementModel:
    """Standardise, then a two-class logistic regression; `threshold` on P(restatement)."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray  # (n_features,): the logit of "restatement"
    bias: float
    threshold: float

    def probabilities(self, X: np.ndarray) -> np.ndarray:
        """P(restatement) for each row of `X` (rows from `pair_features`)."""
        Z = (np.atleast_2d(np.asarray(X, dtype=np.float64)) - self.mean) / self.scale
        return 1.0 / (1.0 + np.exp(-(Z @ self.weights + self.bias)))

    def probability(self, features: np.ndarray) -> float:
        return float(self.probabilities(features)[0])

    def to_dict(self) -> dict[str, Any]:
        return {
            "features": list(FEATURES),
            "mean": [round(float(x), 6) for x in self.mean],
            "scale": [round(float(x), 6) for x in self.scale],
            "weights": [round(float(x), 6) for x in self.weights],
            "bias": round(float(self.bias), 6),
            "threshold": round(float(self.threshold), 4),
        }

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> RestatementModel | None:
        """None when the stored model was fitted on another feature set (then the heuristic decides)."""
        if tuple(raw.get("features", ())) != FEATURES:
            return None
        return cls(
            mean=np.asarray(raw["mean"], dtype=np.float64),
            scale=np.asarray(raw["scale"], dtype=np.float64),
            weights=np.asarray(raw["weights"], dtype=np.float64),
            bias=float(raw["bias"]),
            threshold=float(raw["threshold"]),
        )

    @classmethod
    def fit(cls, X: np.ndarray, y: np.ndarray, l2: float, threshold: float = 0.5, seed: int = 0) -> RestatementModel:
        """Fit on rows `X` (from `pair_features`) with `y` True for restatements."""
        mean = X.mean(axis=0)
        scale = X.std(axis=0)
        scale[scale < 1e-6] = 1.0
        Z = (X - mean) / scale
        labels = np.asarray(y, dtype=np.int64)
        W, b = train_softmax(Z, labels, 2, l2=l2, epochs=800, lr=0.05, seed=seed)
        # two-class softmax == logistic regression on the difference of the two logits
        return cls(mean=mean, scale=scale, weights=(W[:, 1] - W[:, 0]).astype(np.float64),
                   bias=float(b[1] - b[0]), threshold=threshold)
