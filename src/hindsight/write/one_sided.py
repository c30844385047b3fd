"""One-sided content of a pair, read both ways: what each text says that the other does not, and of what kind.

A restatement says one fact twice: what one side words differently, the other side words too, and neither carries a
value, a name, a day, a person or a condition of its own. Two distinct facts of one subject usually differ by
content present on one side only - a second number, an extra condition, another person, a different day - and often
by the same kind of thing on both sides (disk 3 / disk 1, the left knee / the right shoulder, export / deletion:
another value, another subject, another action). `features` reads, for (old, new):

* each side's share of its content units the other side lacks (`analysis.content_diff`), the smaller and the larger;
* per kind (numbers, names, dates and times, related persons, conditions, negations, verbs): how many unmatched
  units of that kind each side carries, and whether both sides carry one (a swap of that kind);
* the clauses of each side whose content the other side mostly lacks (an added clause states an added fact);
* whether the first content unit of each side (usually the subject) is unmatched on the other side;
* a related person on one side only or different ones (`slots.relation_mismatch`), two numbered things
  (`number_labels.labelled_apart`), and a replaced subject where the texts share a frame (`slots.other_entity`).

Lexical only (no encoder call), a few milliseconds a pair; `keep_decision` appends the row to its features.
"""

from __future__ import annotations

import re

import numpy as np

from hindsight.write.analysis import Unit, analyse, content_diff, lost_count
from hindsight.write.clause_split import clauses
from hindsight.write.number_labels import labelled_apart
from hindsight.write.slots import other_entity, relation_mismatch, relations

KINDS: tuple[str, ...] = ("number", "name", "date", "person", "condition", "negation", "verb")

_DATE = re.compile(
    r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b|\b(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)"
    r"(?:uary|ruary|ch|il|e|y|ust|tember|ober|ember)?\b|\bmay\s+\d|\d\s+may\b"
    r"|\b(?:today|tonight|tomorrow|yesterday|weekend|weekly|monthly|daily|morning|evening|afternoon|night|"
    r"noon|midnight|week|month|year|quarter)s?\b|\d\s*(?:am|pm)\b|\d{1,2}:\d{2}|\d{4}-\d{1,2}"
    r"|周[一二三四五六日天末]|星期|礼拜|[上下本这]周|[上下本这]个?月|[今明昨前后]天|[今明去前]年|早上|上午|中午|下午|晚上|"
    r"凌晨|夜里|每天|每周|每月|每年|季度|[0-9]{1,2}\s*[月号日点]|[一二三四五六七八九十]{1,3}[月号]"
)
_CONDITION = re.compile(
    r"\b(?:if|unless|only|except|provided|whenever|when|until|before|after|as long as|otherwise|without|"
    r"at least|at most|no more than|up to)\b"
    r"|如果|假如|要是|除非|只有|只要|除了|的话|前提|否则|之前|之后|以前|以后|至少|最多|不超过|必须|才能|才可以|就得"
)
_NEGATION = re.compile(r"\b(?:not|no|never|none|nobody|nothing|cannot|can't|don't|doesn't|isn't|aren't|won't|"
                       r"mustn't|shouldn't|without)\b|不|没|别|勿|禁止|未")

FEATURES: tuple[str, ...] = (
    "os_old_share", "os_new_share", "os_min_share", "os_max_share", "os_both_sides",
    *(f"os_old_{k}" for k in KINDS), *(f"os_new_{k}" for k in KINDS), *(f"os_swap_{k}" for k in KINDS),
    "os_old_clauses", "os_new_clauses", "os_old_clauses_alone", "os_new_clauses_alone",
    "os_old_head_alone", "os_new_head_alone",
    "os_person_apart", "os_person_one_side", "os_labelled_apart", "os_other_entity",
)


def _text_kinds(text: str) -> dict[str, int]:
    lower = text.lower()
    return {"date": len(_DATE.findall(lower)), "person": len(relations(text)),
            "condition": len(_CONDITION.findall(lower)), "negation": len(_NEGATION.findall(lower))}


def _unit_kinds(unmatched: list[Unit]) -> dict[str, int]:
    joined = " ".join(u.text for u in unmatched)
    counts = _text_kinds(joined)
    counts["number"] = sum(u.number for u in unmatched)
    counts["name"] = sum(u.entity and not u.number for u in unmatched)
    counts["verb"] = sum(u.verb for u in unmatched)
    return counts


def _clauses_alone(text: str, other: str) -> tuple[int, int]:
    """(clauses of `text`, those whose content units `other` mostly lacks: over half of them unmatched)."""
    if not text.strip():
        return 0, 0
    parts = clauses(text)
    alone = 0
    for part in parts:
        content, lost = lost_count(part, other)  # `text_diff`'s two counts: nothing else of the pair is read
        if content and lost > content / 2:
            alone += 1
    return len(parts), alone


def features(old: str, new: str) -> np.ndarray:
    """The `FEATURES` row of a pair (texts as the judge reads them: redacted, written alike)."""
    old_content, new_content, lost, novel = content_diff(analyse(old, new))
    old_share = len(lost) / len(old_content) if old_content else 0.0
    new_share = len(novel) / len(new_content) if new_content else 0.0
    old_kinds, new_kinds = _unit_kinds(lost), _unit_kinds(novel)
    # dates, persons, conditions and negations are read on the whole text too: one side's "每周二" against the
    # other's "每周三" leaves 二 / 三, not a date word, unmatched
    whole_old, whole_new = _text_kinds(old), _text_kinds(new)
    for kind in ("date", "person", "condition", "negation"):
        old_kinds[kind] = max(old_kinds[kind], max(0, whole_old[kind] - whole_new[kind]))
        new_kinds[kind] = max(new_kinds[kind], max(0, whole_new[kind] - whole_old[kind]))
    old_clauses, old_alone = _clauses_alone(old, new)
    new_clauses, new_alone = _clauses_alone(new, old)
    lost_texts, novel_texts = {u.text for u in lost}, {u.text for u in novel}
    person_old, person_new = relations(old), relations(new)
    row = [
        old_share, new_share, min(old_share, new_share), max(old_share, new_share), float(bool(lost) and bool(novel)),
        *(float(min(old_kinds[k], 5)) for k in KINDS), *(float(min(new_kinds[k], 5)) for k in KINDS),
        *(float(old_kinds[k] > 0 and new_kinds[k] > 0) for k in KINDS),
        float(min(old_clauses, 6)), float(min(new_clauses, 6)), float(min(old_alone, 6)), float(min(new_alone, 6)),
        float(bool(old_content) and old_content[0].text in lost_texts),
        float(bool(new_content) and new_content[0].text in novel_texts),
        float(relation_mismatch(old, new) is not None), float(bool(person_old) != bool(person_new)),
        float(bool(labelled_apart(old, new))), float(other_entity(old, new) is not None),
    ]
    return np.asarray(row, dtype=np.float64)
