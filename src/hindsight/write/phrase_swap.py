"""Two notes one noun phrase apart: the slot-difference reading (hygiene round 22).

"Our anniversary is June 18." / "Mom's birthday is June 18.", "Office hours are in Gates 104." / "The midterm is in
Gates 104.": the same frame and the same values, one thing (an entity, a place, a product) in place of another. That is
another fact about another thing - or a change where a change cue says so - never a restatement, however close the
vectors are and whatever a model says (round 21's most confident wrong merges differ in exactly this way).
`one_phrase_apart(old, new)` reads the two texts' content units (`analysis.units`: stems, synonyms folded, function
words dropped) with every value mention (`value_canon.canonical_values`) read as one placeholder, aligns them, and
answers the two stretches when exactly one stretch of each side differs (in place, or one dropped here and another
written there: "Office hours for CS 231 ..." / "The CS 231 midterm ..."), both sides fill it (a replacement, not an
addition), each is short (at most `MAX_UNITS` units), they share no unit, one of them holds a unit that is no verb (a
noun phrase, not "likes" / "loves"), and the two share the rest of the frame (at least one unit or value). Lexical only.
"""

from __future__ import annotations

import unicodedata
from difflib import SequenceMatcher
from functools import lru_cache

from hindsight.write.analysis import units
from hindsight.write.value_canon import value_spans

#: The longest stretch (content units) read as one noun phrase.
MAX_UNITS = 3
_VALUE = "zzvalue"


def _content(text: str) -> tuple[tuple[str, bool], ...]:
    """(unit, is_verb) of the text's content units, each value mention one placeholder."""
    text = unicodedata.normalize("NFKC", text)
    pieces, last = [], 0
    for start, end in value_spans(text):
        pieces += [text[last:start], f" {_VALUE} "]
        last = end
    masked = "".join([*pieces, text[last:]])
    return tuple((u.text, u.verb) for u in units(masked) if not u.stop)


@lru_cache(maxsize=4096)
def one_phrase_apart(old: str, new: str) -> tuple[str, str] | None:
    """The two stretches ("anniversary", "mom birthday") where `old` and `new` differ in exactly one noun phrase;
    None otherwise."""
    a, b = _content(old), _content(new)
    ta, tb = [t for t, _ in a], [t for t, _ in b]
    ops = [op for op in SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes() if op[0] != "equal"]
    if not ops or len(ops) > 2 or (len(ops) == 2 and {op[0] for op in ops} != {"delete", "insert"}):
        return None  # one stretch replaced in place, or one phrase dropped here and another written there
    left = tuple(u for _, i1, i2, _, _ in ops for u in a[i1:i2])
    right = tuple(u for _, _, _, j1, j2 in ops for u in b[j1:j2])
    if not left or not right or len(left) > MAX_UNITS or len(right) > MAX_UNITS or len(ta) - len(left) < 1:
        return None
    if all(verb for _, verb in left + right):
        return None  # a verb or a predicate swapped ("likes" / "loves"): no noun phrase
    if {t for t, _ in left} & {t for t, _ in right}:
        return None  # the same words moved, not another thing
    return " ".join(t for t, _ in left), " ".join(t for t, _ in right)
