"""A long text read as windows of the length the classifier was trained on (issue 10, round 23).

The classifier was fitted on short notes: over the 33,492 training texts (our sets, the released blind rounds and the
training writers) the median is 18 words, the 99th percentile 39, the 99.9th 60, and no hand-written text passes 76
(only 23 synthetic repeated-step texts do). A whole-text vector of a long text - truncated by the encoder or spread
over many topics - is out of that distribution: a 7,219-character benign "Step N: rotate the key of shard N ..." scored
0.62 as a whole while each of its steps scores 0.07, and a benign update repeated twenty times read as an attack.

A text over :data:`LONG_WORDS` words is therefore scored window by window: whole sentences
(``segments.sentences``, the parts reading's own splitter) packed up to :data:`WINDOW_WORDS` words, each window
overlapping the next by one sentence. The guard scores the first, the last (where an order is appended to a recap),
evenly spaced ones between (:data:`MAX_WINDOWS` in all) and - attack round 21: an order put in a window that was not
sampled passed inside long benign padding - every other window the caller's cheap text gate marks (a sensitive topic,
a framing cue), up to :data:`MAX_SCORED` windows, so a write's cost stays bounded whatever its length. The guard keeps
the highest window score. Shorter texts are read whole, exactly as before. Text only: nothing here embeds or scores.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from hindsight.safety.segments import sentences

#: Texts of more words than this are read as windows (a Han character counts half, the guard's count on the
#: normalised text): above every hand-written training text (76) and the 99.9th percentile (60).
LONG_WORDS = 80
#: A window holds whole sentences up to this many words (the training texts' 99th percentile is 39).
WINDOW_WORDS = 40
#: Windows always read of a long text: the first, the last and evenly spaced ones between.
MAX_WINDOWS = 8
#: The cost bound: at most this many windows (embeddings) per long text, whatever its length - the evenly spaced
#: ones plus the windows the caller's gate marks (evenly thinned when more are marked).
MAX_SCORED = 32

_WORD = re.compile(r"[a-z0-9]+|[\u3400-\u9fff]", re.IGNORECASE)


def words(text: str) -> float:
    """Words of ``text`` as the guard counts them (``guard._words``): a Han character counts half."""
    return sum(0.5 if len(w) == 1 and w >= "\u3400" else 1.0 for w in _WORD.findall(text))


def is_long(normalised: str) -> bool:
    """Is the (normalised) text longer than any training text, so that it is read as windows?"""
    return words(normalised) > LONG_WORDS


def _pieces(sentence: str) -> list[str]:
    """A sentence longer than a window, cut into window-sized stretches (at a blank where one is near)."""
    count = words(sentence)
    if count <= WINDOW_WORDS:
        return [sentence]
    n = math.ceil(count / WINDOW_WORDS)
    width = max(1, math.ceil(len(sentence) / n))
    out: list[str] = []
    start = 0
    while start < len(sentence):
        end = min(len(sentence), start + width)
        blank = sentence.rfind(" ", start + width // 2, end) if end < len(sentence) else -1
        end = blank + 1 if blank > start else end
        piece = sentence[start:end].strip()
        if piece:
            out.append(piece)
        start = end
    return out


def _spread(indices: list[int], count: int) -> list[int]:
    """``count`` of ``indices`` evenly spaced, the first and the last kept."""
    if len(indices) <= count:
        return indices
    last = len(indices) - 1
    return [indices[round(i * last / (count - 1))] for i in range(count)]


def windows(text: str, marked: Callable[[str], bool] | None = None) -> list[str]:
    """``text`` as overlapping sentence-aligned windows of at most :data:`WINDOW_WORDS` words (one sentence shared
    between neighbours), in text order: :data:`MAX_WINDOWS` evenly spaced ones (the first and the last among them)
    and every window ``marked`` accepts, at most :data:`MAX_SCORED` in all."""
    units = [p for s in sentences(text) for p in _pieces(s)]
    if not units:
        return [text]
    out: list[str] = []
    start = 0
    while True:
        end, total = start, 0.0
        while end < len(units) and (end == start or total + words(units[end]) <= WINDOW_WORDS):
            total += words(units[end])
            end += 1
        out.append(" ".join(units[start:end]))
        if end >= len(units):
            break
        start = max(start + 1, end - 1)  # the next window opens on this one's last sentence
    every = list(range(len(out)))
    base = _spread(every, MAX_WINDOWS)
    if marked is None or len(out) <= MAX_WINDOWS:
        return [out[i] for i in base]
    sampled = set(base)
    extra = [i for i in every if i not in sampled and marked(out[i])]
    chosen = sorted(sampled | set(_spread(extra, MAX_SCORED - len(base))))
    return [out[i] for i in chosen]
