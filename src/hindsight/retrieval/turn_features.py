"""Features of a candidate's own text for the second step (no encoder, no store read).

The stored vector and the BM25 entry of a chat turn both carry its session context (the turns before it), so
the first pass scores a turn and its neighbours alike. These features look at the turn's own words only:
how much of the query's vocabulary it uses itself (weighted by rarity in the pool), how long it is (a
substantive statement vs "Wow, that's great!"), whether it asks rather than tells (a question is rarely the
evidence), and whether it shares a photo.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

NAMES = ("own_terms", "own_length", "own_question", "own_photo")

_SPEAKER = re.compile(r"^\s*([^\W\d_][\w .'-]{0,40}?)\s*[:：]")
_WORD = re.compile(r"[^\W_]+")
_PHOTO = "[shares a photo"
#: words this short carry no topic; a crude stem: the first STEM letters (matches plural, tense, -ing forms)
MIN_LETTERS = 3
STEM = 5
STOP = frozenset("""the and for with you your that this what when where which who whom how did does was were has have
had are not but about from they them their there then than into over after before would could should will might
its it's i'm you're been being any some she her his him our out very just also much many more most""".split())


def own_text(content: str) -> str:
    """The memory's text without a leading 'Name:' speaker prefix."""
    match = _SPEAKER.match(content)
    return content[match.end():].lstrip() if match else content


def stems(text: str) -> set[str]:
    """Lower-cased content words (3+ letters, not stopwords), cut to their first STEM letters."""
    return {w[:STEM] for w in _WORD.findall(text.lower()) if len(w) >= MIN_LETTERS and w not in STOP}


def rows(contents: Mapping[str, str], ids: Sequence[str], query: str) -> dict[str, list[float]]:
    """id -> [own_terms, own_length, own_question, own_photo] for each of `ids` (see NAMES).

    own_terms: the query stems the turn's own text uses, each weighted by log(1 + n / df) with df its count
    among the candidates' own texts, over the same weight of all query stems (0 when the query has none).
    """
    own = {mid: own_text(contents[mid]) for mid in ids}
    words = {mid: stems(text) for mid, text in own.items()}
    wanted = stems(query)
    n = max(1, len(ids))
    weight = {w: math.log1p(n / (1 + sum(1 for mid in ids if w in words[mid]))) for w in wanted}
    total = sum(weight.values())
    out = {}
    for mid in ids:
        text = own[mid]
        shared = sum(weight[w] for w in wanted if w in words[mid])
        out[mid] = [shared / total if total else 0.0, math.log1p(len(_WORD.findall(text))),
                    1.0 if "?" in text.split(_PHOTO)[0] else 0.0, 1.0 if _PHOTO in text else 0.0]
    return out
