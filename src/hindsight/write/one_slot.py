"""Two texts that are one sentence with one short stretch replaced (split out of `evidence.py`, write cost round 37).

`single_substitution(old, new)` compares the texts token by token (English words, Han characters) and names the one
replaced stretch; `_same_units` (two stretches that normalise to the same words) and `_all_verbs` are what the merge
blocker asks of that stretch. Read by `evidence.merge_blocker`, `same_fact`, `slot_change` and the pair model's row.
"""

from __future__ import annotations

import difflib
import re
import unicodedata

from hindsight.write.analysis import units
from hindsight.write.lexicon import _CJK_RE

#: the longest replaced stretch still read as one slot: English words, Han characters
SLOT_WORDS = 2
SLOT_HAN = 4
_FRAME_STOP = frozenset(["the", "a", "an", "user", "user's", "users", "is", "are", "was", "were", "of", "to", "in", "on", "for", "and", "的", "是", "了", "在", "用", "户"])
_TOKEN_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|[^\W_]+")


def single_substitution(old: str, new: str) -> tuple[str, str] | None:
    """(old span, new span) when the two texts are the same sentence with one stretch replaced.

    Compared token by token (English words, Han characters), so it sees 用户的[爱人]是护士 /
    用户的[姐姐]是护士 even where segmentation or synonym folding blur the units.
    """
    a = [t.lower() for t in _TOKEN_RE.findall(unicodedata.normalize("NFKC", old))]
    b = [t.lower() for t in _TOKEN_RE.findall(unicodedata.normalize("NFKC", new))]
    ops = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    if len(ops) != 1 or ops[0][0] != "replace":
        return None
    _, i1, i2, j1, j2 = ops[0]
    han = bool(_CJK_RE.match(a[i1]))
    if max(i2 - i1, j2 - j1) > (SLOT_HAN if han else SLOT_WORDS):
        return None  # a longer stretch is a rewording, not one slot
    frame = [t for t in a[:i1] + a[i2:] if t not in _FRAME_STOP]
    if len(frame) < 2:
        return None  # "The user ..." alone is no shared sentence
    joiner = "" if han else " "
    return joiner.join(a[i1:i2]), joiner.join(b[j1:j2])


def _same_units(a: str, b: str) -> bool:
    """Two stretches that normalise to the same words (住 / 家: both 'live')."""
    return {u.text for u in units(a) if not u.stop} == {u.text for u in units(b) if not u.stop}


def _all_verbs(text: str) -> bool:
    found = [u for u in units(text) if not u.stop]
    return bool(found) and all(u.verb for u in found)
