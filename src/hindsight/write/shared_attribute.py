"""Which attribute words two notes about one subject share (issue 10, retire round 25).

Two notes of one store often name the same person, place or project and tell of another attribute of it: "Marcus
likes doing renders late in the day ... online until 8pm" / "Marcus has moved house - he's in Tampines now";
"王太太喜欢浅色木地板 ..." / "王太太最近又提出老人房卫生间改成坐式淋浴". The subject is the name both carry; the
attribute is what the words around it are about (the hours, the flooring; the address, the bathroom). `shared(old,
new)` is the words the two share besides the subject and the time they are dated by:

* English: the texts' search terms (`currency._terms`: lightly stemmed, stopwords out), two characters or more,
  not generic (`currency.GENERIC`), not a change cue, not a time word (`WHEN`: a weekday, a month, a number of a day, 1 to 31),
  not a word of a name either text carries (capitalised inside a sentence or in both texts, never in lower
  case, not an acronym: persons, places, firms). Two forms
  of one word count as shared (open / opening: one is the start of the other, both `PREFIX` letters or more).
* Chinese: the Han character pairs both texts carry (their change cues taken out, a tokenizer glues 起杯测 as one
  word), not inside a person name either text carries (王太太, 苏晓梅, 刘总: `understanding.names`) nor inside the
  characters both texts begin with (the topic a Chinese sentence puts first), not a time word or generic.
* Across scripts (one text Chinese, the other English): the shared terms and the English words the dictionary
  gives for the Chinese text's words (预算 / "budget": `bilingual.shared_meaning`), less names and time words.

A number that is not a day (an amount, a model, a code) is a shared attribute word: the same value said again ties
the two notes to one thing. This is a reading only; `retire_veto.other_attribute` decides with it.
"""

from __future__ import annotations

import re

from hindsight.retrieval.bilingual import shared_meaning
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.slot_cues import CHANGE_CUE, GENERIC, _terms, anchors
from hindsight.retrieval.understanding.names import _zh_names

#: two English forms of one word: the shorter is the start of the longer, both at least this long
PREFIX = 4
#: the most characters of a shared start read as the subject's name (a Chinese person name is two or three)
LEAD = 3
#: time words: what a note is dated by, not what it is about
WHEN = re.compile(
    r"^(?:[1-9]|[12]\d|3[01]|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|jan\w*|feb\w*|march|april|may|june?|july?|aug\w*|"
    r"sept?\w*|oct\w*|nov\w*|dec\w*|today|tomorrow|yesterday|morning|afternoon|evening|tonight|weekend|"
    r"上周|本周|下周|这周|今年|去年|明年|今天|昨天|明天|后天|周末|[每上下本这]?周[一二三四五六日天]?|星期.?|"
    r"[每上下本这]个?月|早上|上午|中午|下午|晚上|每天|每年|月底|月初|年底|下半|上半|半年)$",
    re.IGNORECASE,
)
_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]+")
_CAPITALISED = re.compile(r"\b[A-Z][A-Za-z0-9]*\b")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\u2014\u2013\n]\s*|[\"“‘(]\s*)$")
_LOWER_WORD = re.compile(r"\b[a-z][a-z0-9]*\b")


def _latin_names(old: str, new: str) -> set[str]:
    """The words of names the two texts carry, lower-cased and stemmed: a word written capitalised inside a
    sentence, or in both texts ("Marcus has moved", "Tai Koo"), that neither text writes in lower case ("Clearance
    has been tested" / "frame clearance") and is not an acronym (VAT, NAS: a thing, not whose)."""
    inside: set[str] = set()
    seen: list[set[str]] = []
    for text in (old, new):
        words = set()
        for m in _CAPITALISED.finditer(text):
            words.add(m.group(0))
            if not _SENTENCE_START.search(text[max(0, m.start() - 3):m.start()]):
                inside.add(m.group(0))
        seen.append(words)
    lower = set(_LOWER_WORD.findall(old + "\n" + new))
    names = {w.lower() for w in inside | (seen[0] & seen[1]) if not w.isupper()} - lower
    return names | {t for w in names for t in _terms(w)}


def _kept(term: str, names: set[str]) -> bool:
    return (len(term) >= 2 and term not in GENERIC and term not in names and not WHEN.match(term)
            and not CHANGE_CUE.fullmatch(term))


def _english(old: str, new: str, names: set[str]) -> set[str]:
    a = {t for t in _terms(old) if not _HAN_RUN.match(t) and _kept(t, names)}
    b = {t for t in _terms(new) if not _HAN_RUN.match(t) and _kept(t, names)}
    out = a & b
    for t in a - out:
        if len(t) >= PREFIX and any(len(u) >= PREFIX and (u.startswith(t) or t.startswith(u)) for u in b):
            out.add(t)
    return out


def _han_pairs(text: str) -> set[str]:
    return {run[i:i + 2] for run in _HAN_RUN.findall(CHANGE_CUE.sub(" ", text)) for i in range(len(run) - 1)}


def _lead(old: str, new: str) -> str:
    """The Han characters both texts begin with, at most `LEAD`: the name a Chinese sentence puts first (赵明远喜欢… /
    赵明远最近…); "小姨家地址：…" / "小姨家地址：…" keep 地址 as an attribute word."""
    a, b = _HAN_RUN.match(old.strip()), _HAN_RUN.match(new.strip())
    if not a or not b:
        return ""
    n = next((i for i, (x, y) in enumerate(zip(a.group(0), b.group(0))) if x != y), min(len(a.group(0)), len(b.group(0))))
    return a.group(0)[:min(n, LEAD)] if n >= 2 else ""


def _chinese(old: str, new: str, persons: set[str]) -> set[str]:
    subject = persons | {_lead(old, new)} - {""}
    return {p for p in _han_pairs(old) & _han_pairs(new)
            if _kept(p, set()) and not any(p in name for name in subject)}


def shared(old: str, new: str) -> frozenset[str]:
    """The attribute words `old` and `new` share besides their subject's name and their times (module doc)."""
    latin, persons = _latin_names(old, new), set(_zh_names(old)) | set(_zh_names(new))
    if bias_group(old) != bias_group(new):
        chinese, english = (old, new) if bias_group(old) == "zh" else (new, old)
        found = anchors(old, new) | shared_meaning(CHANGE_CUE.sub(" ", chinese), CHANGE_CUE.sub(" ", english))
        return frozenset(t for t in found if _kept(t, latin) and not any(t in p for p in persons))
    return frozenset(_english(old, new, latin) | _chinese(old, new, persons))
