"""A turn of a dialogue between named people: its speaker label is not part of what the guard's classifier reads.

A conversation stored one memory per turn reads "Caroline: That's so great to hear! ..." with the session's earlier
turns "Melanie: ..." and "Caroline: ...". The guard's classifier learned the bare words of such turns as benign
(LoCoMo conversations 0-3 train it, bare; `bench/guard_plain.py` measures it on bare turns), but the write path shows
it the labelled text, whose vector leans towards the labelled orders of the attack sets ("Preference: ...",
"Remember: ..."): the round-18 ensemble quarantined 76 of the 3,802 turns of LoCoMo conversations 4-9 (39 bare),
and LoCoMo R@10 fell 0.819 -> 0.790 (docs/benchmarks.md "LoCoMo drift (round 20)").

A label counts as a speaker only in a dialogue: the text opens with a name (one or two capitalised words, not a
role such as "System" or "Assistant", which `safety.view` reads) and a colon, and the session's preceding turns
include a turn of the same speaker and one of another. A lone "Preference: ..." or "Remember: ..." is never a
speaker's turn, so its label stays part of what the guard reads. `WritePipeline` re-screens the words after the
label when the classifier alone quarantined such a turn: it stays quarantined only if they are flagged too.

What a turn ends with in brackets ("... [shares a photo: a dog on a beach]": what the speaker showed, not what they
said) is screened as a part of its own (`parts`): the two joined read as neither (LoCoMo, the round-20 guard: 25 of
the 48 turns it still held carry a caption; 18 of the 42 with a dialogue context pass once speech and caption are
read apart, docs/benchmarks.md "LoCoMo, round 21"). Each part must pass on its own, so an order hidden in the
caption is still read as one.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from hindsight.safety.view import ASSISTANT_ROLES, AUTHORITY_ROLES, USER_ROLES

_NAME = r"[A-Z][a-z][A-Za-z'’-]*"
_LABEL = re.compile(rf"^\s*({_NAME}(?: {_NAME})?)\s*:\s*(?=\S)")
_ROLES = frozenset(AUTHORITY_ROLES + ASSISTANT_ROLES + USER_ROLES)
_SHOWN = re.compile(r"\s*\[([^\[\]]*\S[^\[\]]*)\]\s*$")


def speaker(text: str) -> re.Match[str] | None:
    """The speaker label a text opens with ("Caroline: ..."), None when there is none or it names a role."""
    match = _LABEL.match(text)
    if match is None or match.group(1).lower() in _ROLES:
        return None
    return match


def dialogue_body(content: str, previous: Sequence[str]) -> str | None:
    """The words of `content` after its speaker label, when it is a turn of a dialogue (`previous`: the session's
    preceding turns, oldest first): its speaker and another one each opened one of them. Else None."""
    own = speaker(content)
    if own is None:
        return None
    earlier = {m.group(1) for m in map(speaker, previous) if m is not None}
    if own.group(1) not in earlier or not earlier - {own.group(1)}:
        return None
    return content[own.end():]


def parts(body: str) -> list[str]:
    """A dialogue turn's words read apart: what was said, then what it ends with in brackets (a shared photo's
    caption), when both hold words. Else the body alone."""
    shown = _SHOWN.search(body)
    if shown is None or not body[: shown.start()].strip():
        return [body]
    return [body[: shown.start()], shown.group(1)]
