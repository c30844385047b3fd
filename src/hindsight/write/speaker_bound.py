"""A memory's speaker bounds what it may supersede: another speaker's turn does not retire a fact about the user
(correct47, found by relev46).

A store that holds both the user's facts and chat turns of other people read "Alice: I switched my editor to light
mode yesterday ..." as a change of "The user now prefers light mode in the editor" (p(change) 0.92): the user's own
fact was retired by what Alice said of herself. `other_speaker` vetoes such a retirement (the pair is linked
instead, `retire_veto.veto`) when both hold:

* the new text is another speaker's turn about themselves: it opens with a speaker label naming someone
  (`dialogue.speaker`: one or two capitalised words and a colon, not a role such as User, Assistant or System),
  its words speak in the first person (I, my, me, we, our, 我) and never name the user;
* the old text is a fact about the user: it opens with "the user" / "user" / "user's" (the phrasing of the write
  path and of extractors: "The user prefers ...", "User said: ...") or 用户, or it is the user's own turn (a
  user-role label: "User: ...", "用户：...").

Lexical; nothing fitted. `ON` switches it (its ship rule: bench/results/correct47/ship_rule.md).
"""

from __future__ import annotations

import re

from hindsight.write.dialogue import speaker
from hindsight.write.speaker_label import other_label

ON = True
#: attack round 47 (its ship rules: bench/results/attack47/ship_rule.md): a heading word ("Correction:", "Update:",
#: "更正：") is never a speaker - ON; the wider labels of `speaker_label` ("Alice said:", "ALICE:", "[Alice]",
#: "小李：") - measured, OFF: it read "用户要求：" as another speaker on a held-out row (r2:6)
NO_HEADINGS = True
WIDE_LABELS = False

_ABOUT_USER = re.compile(r"^\s*(?:the\s+)?user(?:'s|’s)?\b|^\s*用户", re.IGNORECASE)
_NAMES_USER = re.compile(r"\buser(?:'s|’s|s)?\b|用户", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:i|i'm|i’m|i've|i’ve|i'd|i’d|i'll|i’ll|me|my|mine|we|our|us)\b|我", re.IGNORECASE)


def about_user(text: str) -> bool:
    """Whether `text` is a fact about the user or the user's own turn (module doc)."""
    return bool(_ABOUT_USER.match(text))


def others_turn(text: str) -> str:
    """The speaker of `text` when it is another person's turn about themselves (module doc), else ""."""
    label = other_label(text, WIDE_LABELS) if NO_HEADINGS or WIDE_LABELS else speaker(text)
    if label is None:
        return ""
    body = text[label.end():]
    if _NAMES_USER.search(body) or not _FIRST_PERSON.search(body):
        return ""
    return label.group(1)


def other_speaker(old: str, new: str) -> str:
    """Why `new` does not retire `old` ("" when it may): a turn of another speaker about themselves, and a fact
    about the user."""
    if not ON or not about_user(old):
        return ""
    name = others_turn(new)
    return f"another speaker: {name}'s turn does not change a fact about the user" if name else ""
