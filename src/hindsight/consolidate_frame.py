"""The shared frame of a set of episodes, and what each episode says without it.

Attack round 17 (docs/security.md): 32 failure notes of one template ("Task failed: <cause>; fixed by <fix>.")
over 8 topics became one cluster and one semantic memory mixing a VPN fix with a cron timezone problem. The
template's words dominate the embedding, so every pair passes the cosine band and reads as a "supplement".

`Frame.of(texts)` finds the frame of a set of texts: the content words (normalised units of `write.analysis`,
function words aside; Chinese by jieba words) that at least `FRAME_SHARE` of the texts and at least `FRAME_MIN`
of them use. `Frame.content(text)` is the text with the frame's words taken out, in order; `Frame.agree(a, b)`
whether two texts share content words beyond it (idf-weighted). `about_the_same(...)` reads each text's
neighbourhood and drops the links that agree only on a *hollow* frame - one the texts keep their meaning without
(a template); a frame the texts lose their meaning without is their topic (a pitfall hit many times), and its
links stay. Consolidation filters its link graph through it (consolidate.py), the promote and the merge pass.
"""

from __future__ import annotations

import math
import unicodedata
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from hindsight.write.analysis import _cut, units
from hindsight.write.lexicon import _WORD_RE

FRAME_SHARE = 0.5  # a frame word is in at least half of the episodes ...
FRAME_MIN = 6  # ... and in at least this many (a handful of episodes of one topic share their topic, not a frame)
HOLLOW = 0.93  # a frame is a template when the texts without it keep this much of their meaning (mean cosine)
AGREE = 0.2  # framed episodes agree on their content from this share of their rarer words in common (idf-weighted)


def _content_words(piece: str) -> frozenset[str]:
    return frozenset(u.text for u in units(piece) if not u.stop)


def _pieces(text: str) -> list[tuple[str, bool]]:
    """(surface piece, is Han) in order: each word, each jieba word of a Han run."""
    out: list[tuple[str, bool]] = []
    for match in _WORD_RE.finditer(unicodedata.normalize("NFKC", text)):
        if match.group("cjk"):
            out.extend((word, True) for word, _flag in _cut(match.group("cjk")))
        else:
            out.append((match.group(0), False))
    return out


@dataclass(frozen=True)
class Frame:
    words: frozenset[str]
    idf: dict[str, float] = field(default_factory=dict)  # of the other content words, over the same episodes

    @classmethod
    def of(cls, texts: Sequence[str]) -> Frame:
        if len(texts) < FRAME_MIN:
            return cls(frozenset())
        df = Counter(w for text in texts for w in _content_words(text))
        floor = max(FRAME_MIN, FRAME_SHARE * len(texts))
        words = frozenset(w for w, n in df.items() if n >= floor)
        return cls(words, {w: math.log(1 + len(texts) / n) for w, n in df.items() if w not in words})

    def agree(self, a: str, b: str) -> bool:
        """Whether two episodes share what they are about, not only the frame: no frame touching both, or their
        content words (the frame's aside) in common weigh at least `AGREE` of the lighter one's (idf-weighted,
        so a word many topics use counts little)."""
        if not (self.framed(a) and self.framed(b)):
            return True
        wa, wb = _content_words(a) - self.words, _content_words(b) - self.words
        weight = lambda ws: sum(self.idf.get(w, 0.0) for w in ws)  # noqa: E731
        lighter = min(weight(wa), weight(wb))
        return lighter > 0 and weight(wa & wb) >= AGREE * lighter

    def content(self, text: str) -> str:
        """`text` without the frame's words (its function words kept when a content word stays beside them)."""
        if not self.words:
            return text
        kept: list[str] = []
        for piece, han in _pieces(text):
            words = _content_words(piece)
            if words and words <= self.words:
                continue
            kept.append(piece if han or not kept else " " + piece)
        return "".join(kept).strip() or text

    def framed(self, text: str) -> bool:
        """Whether the frame touches `text` at all."""
        return bool(self.words and _content_words(text) & self.words)



def _adjacency(pairs: set[tuple[int, int]]) -> dict[int, set[int]]:
    out: dict[int, set[int]] = {}
    for a, b in pairs:
        out.setdefault(a, set()).add(b)
        out.setdefault(b, set()).add(a)
    return out


def about_the_same(texts: Sequence[str], edges: set[tuple[int, int]], vectors: np.ndarray,
                   embed: Callable[[list[str]], np.ndarray],
                   near: set[tuple[int, int]] | None = None) -> set[tuple[int, int]]:
    """The links (index pairs into `texts`, rows of `vectors`) that hold on what the texts are about, not only
    on their frame.

    Each text reads its neighbourhoods: itself and the texts it is linked to, and itself and the texts `near`
    it (as close as a link may be) - a template shared by 32 of 300 episodes is their frame, though not the
    namespace's. When a neighbourhood has a frame and the frame is hollow - the texts without it keep their
    meaning (mean cosine of each text's vector, `vectors`, and its content's, `embed`, at least `HOLLOW`:
    "Task failed: ...; fixed by ..." says nothing of its own) - the text's links to texts that do not agree
    beyond the frame (`Frame.agree`) are dropped. A neighbourhood that is one topic told many times (a pitfall
    hit eight times) keeps its links: the words all its members share are its topic, and without them the
    texts lose their meaning.
    """
    dropped: set[tuple[int, int]] = set()
    hollow: dict[frozenset[str], bool] = {}  # per frame: the first neighbourhood that has it decides

    def is_hollow(frame: Frame, hood: list[int]) -> bool:
        if frame.words not in hollow:
            content = embed([frame.content(texts[j]) for j in hood])
            hollow[frame.words] = float(np.mean(np.sum(content * vectors[hood], axis=1))) >= HOLLOW
        return hollow[frame.words]

    for adjacency in (_adjacency(edges), _adjacency(near or set())):
        for i, others in adjacency.items():
            hood = sorted({i, *others})
            if len(hood) < FRAME_MIN:
                continue
            frame = Frame.of([texts[j] for j in hood])
            if not frame.words:
                continue
            apart = {(a, b) for a, b in edges - dropped if i in (a, b) and not frame.agree(texts[a], texts[b])}
            if apart and is_hollow(frame, hood):
                dropped |= apart
    return edges - dropped
