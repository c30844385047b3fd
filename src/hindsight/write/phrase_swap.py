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

#: The longest stretch (units) read as one noun phrase.
MAX_UNITS = 3
#: Two stretches apart are two slots of one frame only where the frame shares this many times their units.
FRAME = 2.0
_VALUE = "zzvalue"


def _units(text: str) -> tuple[tuple[str, bool, bool], ...]:
    """(unit, is_verb, is_function_word) of the text's units, each value mention one placeholder."""
    text = unicodedata.normalize("NFKC", text)
    pieces, last = [], 0
    for start, end in value_spans(text):
        pieces += [text[last:start], f" {_VALUE} "]
        last = end
    masked = "".join([*pieces, text[last:]])
    return tuple((u.text, u.verb, u.stop) for u in units(masked))


@lru_cache(maxsize=4096)
def one_phrase_apart(old: str, new: str) -> tuple[str, str] | None:
    """The stretches ("anniversary", "mom birthday") where `old` and `new` differ in one noun phrase - or two short
    ones in a frame at least `FRAME` times their size ("Customer refunds over $500 need manager sign-off." /
    "Customer credits over $500 need finance sign-off.") -; None otherwise. Stretches of function words alone are
    read as the same frame; a thing named by a word the tables call a function word (用户, "the user") still counts."""
    a, b = _units(old), _units(new)
    ta, tb = [t for t, _, _ in a], [t for t, _, _ in b]
    ops = [op for op in SequenceMatcher(None, ta, tb, autojunk=False).get_opcodes() if op[0] != "equal"
           and not all(stop for _, _, stop in a[op[1]:op[2]] + b[op[3]:op[4]])]
    if not ops or len(ops) > 2:
        return None  # the same text, or reworded in more places than two slots
    left = [u for _, i1, i2, _, _ in ops for u in a[i1:i2] if (not u[2] or i2 - i1 == 1) and not u[0].startswith("zzvalu")]
    right = [u for _, _, _, j1, j2 in ops for u in b[j1:j2] if (not u[2] or j2 - j1 == 1) and not u[0].startswith("zzvalu")]
    if not left or not right or any(i2 - i1 > MAX_UNITS or j2 - j1 > MAX_UNITS for _, i1, i2, j1, j2 in ops):
        return None  # an addition (detail), not a replacement; or a long stretch reworded
    shared = sum(not stop for _, _, stop in a) - sum(not stop for _, _, stop in left)
    if shared < (1 if len(ops) == 1 else FRAME * max(len(left), len(right))):
        return None  # no frame left in common
    if all(verb for _, verb, _ in left + right):
        return None  # a verb or a predicate swapped ("likes" / "loves"): no noun phrase
    if {t for t, _, _ in left} & {t for t, _, _ in right}:
        return None  # the same words moved, not another thing
    return " ".join(t for t, _, _ in left), " ".join(t for t, _, _ in right)
