"""Features of a candidate's own text for the second step (no encoder, no store read).

The stored vector and the BM25 entry of a chat turn both carry its session context (the turns before it), so
the first pass scores a turn and its neighbours alike. These features look at the turn's own words only:
how much of the query's vocabulary it uses itself (weighted by rarity in the pool), how long it is (a
substantive statement vs "Wow, that's great!"), whether it asks rather than tells (a question is rarely the
evidence), whether it shares a photo, and, for a question that asks when, whether the turn itself names a time
(the evidence of "When did Jon go to Seattle?" says "I was in Seattle last week").
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

NAMES = ("own_terms", "own_length", "own_question", "own_photo", "own_when_time")

_SPEAKER = re.compile(r"^\s*([^\W\d_][\w .'-]{0,40}?)\s*[:：]")
_WORD = re.compile(r"[^\W_]+")
_PHOTO = "[shares a photo"
#: words this short carry no topic; a crude stem: the first STEM letters (matches plural, tense, -ing forms)
MIN_LETTERS = 3
STEM = 5
STOP = frozenset("""the and for with you your that this what when where which who whom how did does was were has have
had are not but about from they them their there then than into over after before would could should will might
its it's i'm you're been being any some she her his him our out very just also much many more most""".split())


#: a question about a time: "When did ...", "What year ...", "How long ...", 什么时候, 哪年, 几月, 多久
_WHEN = re.compile(r"^\s*(when|what (year|month|day|date|week)|which (year|month|day|week|weekend)|how long|how many "
                   r"(days|weeks|months|years))\b|什么时候|何时|哪一?年|几月|哪一?天|哪个月|多久|多长时间", re.I)
#: a turn that names a time (relative words, month and day names, years, durations); the English list is the one
#: measured on LoCoMo dev (docs/benchmarks.md), "may" included
_TIME = re.compile(r"\b(yesterday|today|tonight|tomorrow|ago|last (night|week|weekend|month|year|summer|winter|spring|"
                   r"fall|friday|saturday|sunday|monday|tuesday|wednesday|thursday)|next (week|weekend|month|year|summer)|"
                   r"this (week|weekend|month|year|summer|past)|recently|since|(jan|febr)uary|march|april|may|june|july|"
                   r"august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
                   r"(19|20)\d\d|weeks?|months?|years?)\b|昨天|今天|明天|前天|后天|上周|下周|本周|这周|上个月|下个月|"
                   r"这个月|去年|今年|明年|(?<![一二三四五六七八九十\d])[一二三四五六七八九十\d]+月|周[一二三四五六日末]|星期|[天周年]前|个月前", re.I)


def asks_when(question: str) -> bool:
    """Whether the question asks about a time (when, what year, how long ...)."""
    return bool(_WHEN.search(question))


def names_time(text: str) -> bool:
    """Whether the text names a time (yesterday, last week, a month or weekday, a year, a duration)."""
    return bool(_TIME.search(text))


def own_text(content: str) -> str:
    """The memory's text without a leading 'Name:' speaker prefix."""
    match = _SPEAKER.match(content)
    return content[match.end():].lstrip() if match else content


def stems(text: str) -> set[str]:
    """Lower-cased content words (3+ letters, not stopwords), cut to their first STEM letters."""
    return {w[:STEM] for w in _WORD.findall(text.lower()) if len(w) >= MIN_LETTERS and w not in STOP}


def rows(contents: Mapping[str, str], ids: Sequence[str], query: str, question: str = "") -> dict[str, list[float]]:
    """id -> [own_terms, own_length, own_question, own_photo, own_when_time] for each of `ids` (see NAMES);
    `query` is the parsed residual, `question` the whole question (its "when" survives the parse).

    own_terms: the query stems the turn's own text uses, each weighted by log(1 + n / df) with df its count
    among the candidates' own texts, over the same weight of all query stems (0 when the query has none).
    """
    own = {mid: own_text(contents[mid]) for mid in ids}
    words = {mid: stems(text) for mid, text in own.items()}
    wanted = sorted(stems(query))  # a fixed order: sums over a set would follow the string hash seed
    n = max(1, len(ids))
    weight = {w: math.log1p(n / (1 + sum(1 for mid in ids if w in words[mid]))) for w in wanted}
    total = sum(weight.values())
    when = asks_when(question)
    out = {}
    for mid in ids:
        text = own[mid]
        shared = sum(weight[w] for w in wanted if w in words[mid])
        out[mid] = [shared / total if total else 0.0, math.log1p(len(_WORD.findall(text))),
                    1.0 if "?" in text.split(_PHOTO)[0] else 0.0, 1.0 if _PHOTO in text else 0.0,
                    1.0 if when and names_time(contents[mid]) else 0.0]
    return out
