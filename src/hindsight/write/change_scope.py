"""What a change word in a new note is said of (issue 10, hygiene round 30b).

A long note often tells several things of one subject, and its change word sits in one sentence of it: "T60量产推迟到
明年5月。陈总的意思是宁可晚两个月，也要把低温和沙尘测试做完整。" moves the mass-production date; the second sentence
shares the most words with the note on the prototype's first flight (陈总, 低温, 沙尘测试), but the change names the
note that holds 量产 and 明年. `supersede.retarget` retires at most one of the candidates the judge read as changed and
ranked them by the words each shares with the whole new note; `scope_terms` is the words a candidate shares with
the sentences of the new note that say a change (a word of `slot_cues.CHANGE_CUE` or of the hygiene lexicons,
`explicit_change`), read only when the new note also has sentences that say none (a note of one sentence is one
statement: its words are the change's). A reading only; `supersede.SCOPE_RANK` switches its use.
"""

from __future__ import annotations

import re

from hindsight.retrieval.slot_cues import CHANGE_CUE, anchors
from hindsight.write.end_cues import _END_EN, _END_ZH, _SWITCH_EN, _SWITCH_ZH
from hindsight.write.endings import ending
from hindsight.write.lexicon import _STRONG_EN, _STRONG_ZH

#: a sentence ends at . ! ? before a space (not "3.2.2"; not after a title or an initial: "Dr. Whitfield", "J. Lee",
#: "e.g."), after a Chinese full stop, ！ ？, or at a line break; not at a semicolon ("The printer died; replaced it
#: with ..." is one statement). The end mark stays with its sentence: a question says no change (`says_change`).
_SENTENCE = re.compile(r"(?<!\b[A-Z]\.)(?<!\b(?:Dr|Mr|Ms|St|vs)\.)(?<!\bMrs\.)(?<!\bProf\.)(?<!\be\.g\.)(?<!\bi\.e\.)"
                       r"(?<!\betc\.)(?<=[.!?])\s+|(?<=[。！？])\s*|\n+")


def explicit_change(text: str) -> bool:
    """Whether `text` carries a switch, end or change-of-state cue of the hygiene lexicons (EN/ZH)."""
    lowered = text.lower()
    return any(p.search(lowered) for p in (_STRONG_EN, _END_EN, _SWITCH_EN)) or any(
        p.search(text) for p in (_STRONG_ZH, _END_ZH, _SWITCH_ZH)) or ending(text) is not None


def says_change(sentence: str) -> bool:
    """A change word of `slot_cues.CHANGE_CUE` or of the hygiene lexicons (`explicit_change`) in a sentence that
    is not a question ("Badge stopped working at the east gate? Ring the desk": a condition, no change told)."""
    if sentence.rstrip().endswith(("?", "？")):
        return False
    return CHANGE_CUE.search(sentence) is not None or explicit_change(sentence)


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.split(text) if s and s.strip()]


def change_sentences(text: str) -> str:
    """The sentences of `text` that say a change, joined, when it also has sentences that say none; else ""."""
    parts = sentences(text)
    cued = [s for s in parts if says_change(s)]
    return " \n".join(cued) if cued and len(cued) < len(parts) else ""


def scope_terms(old: str, scope: str) -> int:
    """How many content terms `old` shares with `scope`, the change sentences of a new note (`change_sentences`;
    0 when it is "": the note is not split apart, and every candidate ties here)."""
    return len(anchors(old, scope)) if scope else 0
