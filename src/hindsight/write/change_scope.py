"""What a change word in a new note is said of (issue 10, hygiene round 30b).

A long note often tells several things of one subject, and its change word is about one of them: "Firmware 3.2.2
is out. Dealers can push it from the fleet portal, and the field restriction is lifted" changes the restriction,
not the portal; "T60量产推迟到明年5月。陈总的意思是..." moves the mass-production date, not the first flight. Round 25's
veto (`retire_veto.other_attribute`) asks two long notes for a shared attribute word anywhere in them; a word shared
in a sentence that says no change is not evidence that the change is about the old note's attribute.

`cue_sentences(text)` is the sentences of `text` that carry a change word (`slot_cues.CHANGE_CUE`). `off_attribute`
vetoes a retirement between two long notes (`MIN_TERMS` content terms each) when the new note has sentences both
with and without a change word and the old note shares attribute words (`shared_attribute.shared`: besides the
subject's name and dates) only with the sentences without one. `names_attribute` is the same reading as a rank for
`supersede.retarget`: among candidates read as changed, the one whose attribute the change sentence names first.
A note of one sentence is never read here (its change word and its words are one statement). Readings only; `ON`
switches the veto.
"""

from __future__ import annotations

import re

from hindsight.retrieval.slot_cues import CHANGE_CUE, anchors
from hindsight.write.shared_attribute import shared

ON = True
#: content terms each note needs before its sentences are read apart (round 25's `ATTRIBUTE_MIN_TERMS`)
MIN_TERMS = 10
#: a sentence ends at . ! ? before a space (not "3.2.2"), a Chinese full stop, ！ ？, or a line break; not at a
#: semicolon ("The printer died; replaced it with ..." is one statement)
_SENTENCE = re.compile(r"(?<=[.!?])\s+|[。！？]\s*|\n+")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def cue_sentences(text: str) -> str:
    """The sentences of `text` that carry a change word, joined ("" when none does)."""
    return " \n".join(s for s in sentences(text) if CHANGE_CUE.search(s))


def _scoped(new: str) -> str:
    """The change sentences of `new` when it also has sentences without a change word, else ""."""
    parts = sentences(new)
    cued = [s for s in parts if CHANGE_CUE.search(s)]
    return " \n".join(cued) if cued and len(cued) < len(parts) else ""


def names_attribute(old: str, new: str) -> bool:
    """The change sentences of `new` share a content term with `old` (True when `new` is not split apart)."""
    scope = _scoped(new)
    return not scope or bool(anchors(old, scope))


def off_attribute(old: str, new: str) -> str:
    """Why `new` does not retire `old` ("" when it may): both long, and the sentences of `new` that say a change
    share no content term with `old` - not its subject's name, not a value of it (module doc)."""
    if not ON:
        return ""
    scope = _scoped(new)
    if not scope or anchors(old, scope):
        return ""
    fewest = min(len(anchors(old, old)), len(anchors(new, new)))
    if fewest < MIN_TERMS:
        return ""
    common = sorted(shared(old, new) or anchors(old, new))[:4]
    return (f"the change is said of something else: the sentences that say it share no term with this memory "
            f"(the notes share {', '.join(common) or 'nothing'} elsewhere)")
