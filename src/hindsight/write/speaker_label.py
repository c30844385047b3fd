"""The speaker a turn of another person opens with, read more widely than `dialogue.speaker` (attack round 47).

The speaker bound (`write/speaker_bound.py`) read another speaker only from `dialogue.speaker`'s label (one or two
capitalised words and an ASCII colon), so the same turn written "Alice said: ...", "ALICE: ...", "Alice (PM): ...",
"Mary Jane Watson: ...", "[Alice] ..." or "小李：..." retired the user's fact; and a heading word read as a speaker
("Correction: I now use light mode"), so the user's own correction was vetoed. `other_label` reads those labels and
never a heading word or a role. Lexical; nothing fitted (its ship rule: bench/results/attack47/ship_rule.md).
"""

from __future__ import annotations

import re

from hindsight.safety.view import ASSISTANT_ROLES, AUTHORITY_ROLES, USER_ROLES
from hindsight.write.dialogue import speaker

_ROLES = frozenset(AUTHORITY_ROLES + ASSISTANT_ROLES + USER_ROLES)
#: words that open a note, not a turn: "Correction: I now ...", "更正：我现在 ..."
HEADINGS = frozenset(
    "correction corrections update updates note notes edit fix reminder important actually change changes summary "
    "fyi ps tip warning context preference preferences rule rules decision fact facts lesson".split()
    + "更正 纠正 更新 补充 注意 提醒 备注 总结 偏好 规则 决定 说明 不对 其实 对了 另外 顺便 现在".split())

_CAP = r"[A-Z][a-z][A-Za-z'’-]*"
_UPPER = r"[A-Z][A-Z'’-]+"
_LABELS = (
    re.compile(rf"^\s*({_CAP}(?: {_CAP})?) (?:said|says|wrote|writes)\s*[:：]\s*(?=\S)"),
    re.compile(rf"^\s*({_UPPER}(?: {_UPPER})?)\s*[:：]\s*(?=\S)"),
    re.compile(rf"^\s*({_CAP}(?: {_CAP})?)\s*[(（][^()（）]{{1,40}}[)）]\s*[:：]\s*(?=\S)"),
    re.compile(rf"^\s*({_CAP} {_CAP} {_CAP})\s*[:：]\s*(?=\S)"),
    re.compile(rf"^\s*\[({_CAP}(?: {_CAP})?)\]\s*(?=\S)"),
    re.compile(rf"^\s*({_CAP}(?: {_CAP})?)\s*：\s*(?=\S)"),
    re.compile(r"^\s*([\u4e00-\u9fff]{1,4})\s*[:：]\s*(?=\S)"),
)
_NOT_A_NAME = re.compile(r"[我你您他她它们的]")


def _a_name(label: str) -> bool:
    low = label.lower()
    return low not in _ROLES and low not in HEADINGS and not _NOT_A_NAME.search(label)


def other_label(text: str, wide: bool = True) -> re.Match[str] | None:
    """The label of another person's turn `text` opens with (its group 1 the name), None when there is none, or
    it is a role or a heading word (module doc). `wide`: read the wider labels too, else `dialogue.speaker`'s only."""
    own = speaker(text)
    if own is not None:
        return own if _a_name(own.group(1)) else None
    if not wide:
        return None
    for label in _LABELS:
        match = label.match(text)
        if match is not None:
            return match if _a_name(match.group(1)) else None
    return None
