"""A veto on retiring a memory at write (issue 10, round 24b): positive evidence that the new memory is about
another thing than the old one.

The judge's pair model reads "change" for two long notes of one store that name the same place, person or project
but tell of another attribute, event or topic ("黄博是左撇子" / "黄博在评估把主控从STM32换成兆易的GD32";
"Hana周末喜欢去西湖边拍照" / "Hana has relocated to Hangzhou"); a wrong retirement hides a current, distinct fact.
`other_topic` vetoes the retirement (the pair is linked instead) when both texts are long enough to name their
subject (`MIN_TERMS` content terms each, `currency.anchors` of a text with itself), they share at most `MAX_SHARED`
content terms, and those are under `MAX_SHARE` of the shorter text's terms, and the new text says no change in a
word of `currency.CHANGE_CUE`. Short pairs ("Taking 1000 IU vitamin D daily." / "Stopped the vitamin D") share few
terms because they have few, so they are never read here. Thresholds chosen on the 19 released blind retrieval
stores' write logs, leave-one-round-out (docs/benchmarks.md "Currency, round 24b"); `ON` switches it.

`other_attribute` (round 25) reads the commoner wrong retirement: two long notes of one subject about another
attribute of it ("Marcus likes doing renders late in the day ... online until 8pm" / "Marcus has moved house - he's
in Tampines now"), where a change word in the new note is about its own attribute, not the old one's. A change
verdict needs positive evidence that the new note speaks of the same attribute: a word the two share besides the
subject's name and their dates (`shared_attribute.shared`). When both notes are long (`ATTRIBUTE_MIN_TERMS` content
terms each: a note that long tells several things of its subject) and share none, the pair is linked, not retired.
A short text states one attribute, so sharing its subject is enough ("Aunt Rosa lives at 14 Pell Street" / "Aunt
Rosa's address: 88 Garnet Avenue"): never read here. Chosen leave-one-round-out (docs/benchmarks.md "Currency,
round 25"); `ATTRIBUTE_ON` switches it.
"""
from __future__ import annotations

from hindsight.retrieval.currency import anchors, states_change
from hindsight.write.preference_slot import other_preference
from hindsight.write.shared_attribute import shared
from hindsight.write.speaker_bound import other_speaker

ON = True
MIN_TERMS = 8
MAX_SHARED = 3
MAX_SHARE = 0.25
ATTRIBUTE_ON = True
ATTRIBUTE_MIN_TERMS = 10


def terms(text: str) -> int:
    """How many content terms the text has (an entity, a number, a word; not a change cue or a generic word)."""
    return len(anchors(text, text))


def other_topic(old: str, new: str) -> str:
    """Why `new` does not retire `old` ("" when it may): the two long texts share almost no content term and the
    new one states no change."""
    if not ON or states_change(new):
        return ""
    fewest = min(terms(old), terms(new))
    if fewest < MIN_TERMS:
        return ""
    shared = anchors(old, new)
    if len(shared) > MAX_SHARED or len(shared) >= MAX_SHARE * fewest:
        return ""
    return (f"another topic: {len(shared)} of {fewest} content terms shared ({', '.join(sorted(shared))}), "
            f"no change stated")


def other_attribute(old: str, new: str) -> str:
    """Why `new` does not retire `old` ("" when it may): two long notes that share no attribute word, only their
    subject's name and dates (module doc)."""
    if not ATTRIBUTE_ON:
        return ""
    fewest = min(terms(old), terms(new))
    if fewest < ATTRIBUTE_MIN_TERMS or shared(old, new):
        return ""
    return f"another attribute: no word of {fewest} content terms shared besides the subject's name and dates"


def veto(old: str, new: str) -> str:
    """Why a change verdict does not retire `old` ("" when it may): another topic, another attribute, a preference
    about another attribute (`preference_slot`, prefs45), or another speaker's turn and a fact about the user
    (`speaker_bound`, correct47)."""
    return other_topic(old, new) or other_attribute(old, new) or other_preference(old, new) or other_speaker(old, new)
