"""A lock's code keyed in with the keypad's "#" (redaction round 34, issue 10).

"Front door keypad: 7720#", "guests key in 3917# at the side gate", "单元门禁输入 8812# 就能开", "民宿大门按 5093# 开门":
four to eight digits closed by "#" (the enter key of a door's keypad), with a door's, a gate's or a lock's word in the
clause before the code or right after it. A USSD or phone-menu code ("*123#", "*#06#") opens with "*" and is no
door's; "3#楼", "1203#房" number a building or a room ("#" read as "No."), never a code.
"""

from __future__ import annotations

import re

Span = tuple[str, int, int]

_KEYED = re.compile(r"(?<![\w*#.+-])(?P<value>\d{4,8})#(?![A-Za-z0-9#*]|\s*[楼房栋座号机线库仓室层])")
_LOCK_WORD = re.compile(
    r"(?i)\b(?:doors?|gates?|locks?|smart[- ]?locks?|keypads?|entry|entrance|lobby|garage|key\s?safe|lock\s?box|padlock|locker|"
    r"intercom|buzzer|front|side|back)\b|door-?lock|门|锁|门禁|密码箱|保险柜|保险箱|开门"
)
_CLAUSE_STOP = re.compile(r"[.!?。！？;；\n]")


def _clause_before(text: str, start: int) -> str:
    window = text[max(0, start - 60) : start]
    stops = list(_CLAUSE_STOP.finditer(window))
    return window[stops[-1].end() :] if stops else window


def find_keyed_codes(text: str) -> list[Span]:
    if "#" not in text:
        return []
    out: list[Span] = []
    for m in _KEYED.finditer(text):
        after = text[m.end() : m.end() + 12]
        stop = _CLAUSE_STOP.search(after)
        after = after[: stop.start()] if stop else after
        if _LOCK_WORD.search(_clause_before(text, m.start())) or _LOCK_WORD.search(after):
            out.append(("otp", *m.span("value")))
    return out
