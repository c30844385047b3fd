"""Positive evidence for a merge the wording rules vetoed: the same values, in other words (hygiene round 22).

Where the judge keeps a pair, `gate_reason(old, new)` says whether the pair is a restatement candidate that the
wording rules must not veto: both texts state values and their canonical multisets are equal
(`value_canon.value_match`: 3 pm / 15:00, 两千 / 2000, Q3 / 第三季度, 8.3k / $8,300), one script, no negation or
antonym flipped, no change cue (`analysis`: "moved to", 改成; `end_cues.end_cue`), no "also" (`currency.ADDITIVE`,
and "another", "too", 还, 也, 又 where the old text lacks them: another fact beside the old one), and the two are not one noun phrase apart (`phrase_swap.one_phrase_apart`: the same
values said of another thing), nor does the new text keep the old one whole and add a clause (`slots.appended_detail`:
kept and linked, as `evidence.merge_blocker` does). `judge.classify` then merges it from the pair model's p(merge) `VALUES_MERGE_P`
(chosen leave-one-round-out: no distinct fact, change or other memory lost on the training rounds). None: open;
otherwise the reason it is shut.
"""

from __future__ import annotations

import re
from functools import lru_cache

from hindsight.retrieval.currency import ADDITIVE
from hindsight.text.script import script_of
from hindsight.write.analysis import analyse
from hindsight.write.end_cues import end_cue
from hindsight.write.negation_read import restated_negation
from hindsight.write.phrase_swap import one_phrase_apart
from hindsight.write.slots import appended_detail
from hindsight.write.value_canon import value_match

#: Words that say the new text tells one more thing beside the old one (one more item, the same occasion again), read
#: where the old text lacks them: `currency.ADDITIVE` and these
_MORE = re.compile(r"\b(?:too|another|plus|same)\b|[还也又]")


def _added(old: str, new: str) -> bool:
    return any(m.group(0).lower() not in old.lower() for m in _MORE.finditer(new))


#: A negation said the other way round where the values agree ("no later than 11:00" / "by 11am") does not shut the
#: gate (`negation_read.restated_negation`, round 25); False: round 22's gate, every parity flip shuts it (replays).
NEGATION_READ = True

#: The pair model's p(merge) from which a pair the gate opens is merged (docs/benchmarks.md "Hygiene, round 22").
VALUES_MERGE_P = 0.96


@lru_cache(maxsize=4096)
def gate_reason(old: str, new: str) -> str | None:
    """None where the values of `old` and `new` (as the judge reads them, after `conversions.written_alike`) are
    the same multiset and nothing says another fact; else why not."""
    match = value_match(old, new)
    if not match.equal:
        return f"values differ or none ({match.paired} paired, {match.old_left} / {match.new_left} left)"
    if script_of(old) != script_of(new):
        return "another script"
    if ADDITIVE.search(new) or _added(old, new):
        return "the new text adds something"
    a = analyse(old, new)
    if a.antonym is not None or (a.polarity_flip and not (NEGATION_READ and restated_negation(old, new))):
        return "negation or antonym"
    if a.strong_cue or end_cue(old, new):
        return "a change cue"
    if appended_detail(old, new):
        return "adds a clause"  # the old text whole and more: kept and linked, as the merge blocker does
    swap = one_phrase_apart(old, new)
    if swap is not None:
        return f"one noun phrase apart ({swap[0]} / {swap[1]})"
    return None
