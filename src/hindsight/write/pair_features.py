"""The feature row of one (existing, new) pair for the trained pair classifier (`write.pair_model`).

Everything here is read from the two texts and two cosines the write path already has (the stored passage
vectors' cosine and the E5 query-side cosine of the two texts): no encoder call. The lexical readings come
from the modules that used to decide on their own: the alignment of normalised units (`analysis`), the
conflict heuristic (`conflict`), slot evidence of a change or of a merge blocker (`evidence`, `slots`), change
cues (`lexicon`), amounts and dates (`amounts`). Each becomes a number; the classifier weighs them, trained on
independently written pair sets (scripts/train_hygiene_pairs.py).

The base row is repeated for Chinese pairs and for cross-script pairs (an interaction with the script: word
overlap means something else in Chinese, and nothing at all across languages).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

import numpy as np

from hindsight.retrieval.bilingual import english_words
from hindsight.text.script import script_of
from hindsight.text.tokenize import EN_STOPWORDS
from hindsight.write.amounts import quantities
from hindsight.write.analysis import PairAnalysis, analyse, content_diff
from hindsight.write.conflict import LABELS, heuristic
from hindsight.write.end_cues import _END_EN, _END_ZH, _SWITCH_EN, _SWITCH_ZH, end_cue
from hindsight.write.evidence import Slots, change_evidence, merge_blocker
from hindsight.write.name_cover import _uncovered_names
from hindsight.write.one_slot import single_substitution
from hindsight.write.slots import other_entity, subject_shared

_ANCHOR = re.compile(r"[A-Za-z][A-Za-z0-9_.+#-]*[A-Za-z0-9+#]|\d+(?:[.:]\d+)*")
_NOT_ANCHORS = frozenset({"the", "a", "an", "and", "or", "of", "to", "in", "on", "is", "are", "was", "it", "for"})


@lru_cache(maxsize=8192)
def anchor_terms(text: str) -> frozenset[str]:
    """Latin-script words and numbers of a text, lower-cased: what a Chinese and an English sentence about the same
    thing usually share (names, products, versions, amounts). Kept per text: a write's text meets every
    candidate, and a stored text the writes after it."""
    return frozenset({t.lower() for t in _ANCHOR.findall(text)} - _NOT_ANCHORS)


#: Merge blockers (`evidence.merge_blocker`) by the start of their reason.
BLOCKER_KINDS: tuple[tuple[str, str], ...] = (
    ("amounts", "amounts differ"),
    ("numbers", "numbers differ"),
    ("name", "a name on one side only"),
    ("switch", "a switch cue"),
    ("negates", "one side negates"),
    ("slot", "one slot"),
    ("words", "words of each side missing"),
    ("detail", "adds detail"),
    ("clause", "adds a clause"),
    ("subject", "another "),
    ("slots", "several slots"),
)
#: Change evidence (`evidence.change_evidence`) by the start of its reason.
CHANGE_KINDS: tuple[tuple[str, str], ...] = (
    ("cue", "the new memory says"),
    ("polarity", "polarity changed"),
    ("negates", "one memory negates"),
    ("value", "value changed"),
    ("single", "single-valued"),
)

BASE_FEATURES: tuple[str, ...] = (
    "cosine_passage", "cosine_query", "cosine_gap", "cosine_passage_hi", "cosine_query_hi",
    "word_jaccard", "old_kept", "new_covered", "kept_min", "kept_max", "lost_share", "novel_share",
    "bigram_jaccard", "char_ratio", "length_ratio", "short_pair",
    "numbers_shared", "numbers_old_only", "numbers_new_only", "number_change", "quantities_differ",
    "quantities_shared",
    "names_lost", "names_added", "anchors_shared", "anchors_one_side",
    "strong_cue", "weak_cue", "end_cue", "switch_cue", "old_end_or_switch", "old_has_contrast",
    "gloss_share", "gloss_count",
    "polarity_flip", "antonym", "single_substitution", "other_entity", "subject_shared", "subject_kept",
    *(f"blocker_{name}" for name, _ in BLOCKER_KINDS), "blocker_any",
    *(f"change_{name}" for name, _ in CHANGE_KINDS), "change_any",
    *(f"heuristic_{label}" for label in LABELS),
)
FEATURES: tuple[str, ...] = (*BASE_FEATURES, *(f"zh_{n}" for n in BASE_FEATURES),
                             *(f"cross_{n}" for n in BASE_FEATURES), "zh", "cross")


@lru_cache(maxsize=8192)
def _squash(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).lower() if ch.isalnum())


@lru_cache(maxsize=8192)
def _bigrams(text: str) -> frozenset[str]:
    chars = _squash(text)
    return frozenset(chars[i : i + 2] for i in range(len(chars) - 1))


def _kind(reason: str | None, kinds: tuple[tuple[str, str], ...]) -> list[float]:
    row = [float(bool(reason) and reason.startswith(prefix)) for _, prefix in kinds]  # type: ignore[union-attr]
    return [*row, float(bool(reason))]


_EN_CONTENT = re.compile(r"[a-z][a-z'\-]*[a-z]")


def gloss_overlap(old: str, new: str) -> tuple[float, int]:
    """Across scripts: (share, count) of the English side's content words that the Chinese side's words mean
    (CC-CEDICT senses, `retrieval.bilingual`); (0, 0) for a pair in one script."""
    a, b = script_of(old) == "zh", script_of(new) == "zh"
    if a == b:
        return 0.0, 0
    chinese, english = (old, new) if a else (new, old)
    own = {w for w in _EN_CONTENT.findall(english.lower()) if w not in EN_STOPWORDS}
    glosses = {_prefix(g) for g in english_words(chinese)}
    shared = {w for w in own if _prefix(w) in glosses}
    return len(shared) / max(1, len(own)), min(4, len(shared))


def _prefix(word: str) -> str:
    """A crude common stem of an English word and a dictionary gloss (nodes / node, retention / retain-)."""
    return word[:5] if len(word) > 5 else word.rstrip("s")


def script_pair(old: str, new: str) -> str:
    """'zh' (both Chinese), 'cross' (one Chinese, one not) or 'en'."""
    a, b = script_of(old) == "zh", script_of(new) == "zh"
    return "zh" if a and b else "cross" if a != b else "en"


def pair_features(old: str, new: str, cosine: float, query_cosine: float | None,
                  analysis: PairAnalysis | None = None) -> np.ndarray:
    """The feature row of one pair, in the order of `FEATURES` (`query_cosine` None: the passage cosine)."""
    a = analysis or analyse(old, new)
    qc = cosine if query_cosine is None else query_cosine
    label, _, _ = heuristic(old, new)
    slots = Slots.of(a)
    old_content, new_content, lost, novel = content_diff(a)
    ob, nb = _bigrams(old), _bigrams(new)
    lo, ln = len(_squash(old)), len(_squash(new))
    on, nn = a.old_numbers - {"1"}, a.new_numbers - {"1"}
    oq, nq = quantities(old), quantities(new)
    oa, na = anchor_terms(old), anchor_terms(new)
    names_lost = _uncovered_names([u for u in lost if u.entity and not u.number], new, old)
    names_added = _uncovered_names([u for u in novel if u.entity and not u.number], old, new)
    old_cue = bool(_END_EN.search(old.lower()) or _END_ZH.search(old)
                   or _SWITCH_EN.search(old.lower()) or _SWITCH_ZH.search(old))
    subject = slots.subject
    gloss_share, gloss_count = gloss_overlap(old, new)
    base = [
        cosine, qc, qc - cosine, max(0.0, cosine - 0.9) * 10, max(0.0, qc - 0.9) * 10,
        a.jaccard, a.containment, a.coverage, min(a.containment, a.coverage), max(a.containment, a.coverage),
        len(lost) / max(1, len(old_content)), len(novel) / max(1, len(new_content)),
        len(ob & nb) / max(1, len(ob | nb)), min(lo, ln) / max(1, lo, ln),
        abs(np.log((lo + 1) / (ln + 1))), float(min(len(old_content), len(new_content)) <= 3),
        min(3, len(on & nn)), min(3, len(on - nn)), min(3, len(nn - on)), float(a.number_change),
        float(bool(oq ^ nq) and bool(oq) and bool(nq)), float(bool(oq & nq)),
        min(3, len(names_lost)), min(3, len(names_added)), min(3, len(oa & na)), float(bool(oa ^ na) and not oa & na),
        float(bool(a.strong_cue)), float(bool(a.weak_cue)), float(bool(end_cue(old, new))),
        float(bool(end_cue(old, new, (_SWITCH_EN, _SWITCH_ZH)))), float(old_cue), float(a.old_has_contrast),
        gloss_share, float(gloss_count),
        float(a.polarity_flip), float(bool(a.antonym)), float(single_substitution(old, new) is not None),
        float(bool(other_entity(old, new))), float(subject_shared(old, new)),
        float(bool(subject) and slots.subject_kept()),
        *_kind(merge_blocker(a, None, old, new), BLOCKER_KINDS),  # (slots: `Slots.of(a)`, as read by the rules:
        *_kind(change_evidence(old, new, a), CHANGE_KINDS),  # kept for one `judge.classify` call, `pair_memo`)
        *(float(label == name) for name in LABELS),
    ]
    row = np.asarray(base, dtype=np.float64)
    script = script_pair(old, new)
    zh, cross = float(script == "zh"), float(script == "cross")
    return np.concatenate([row, row * zh, row * cross, [zh, cross]])
