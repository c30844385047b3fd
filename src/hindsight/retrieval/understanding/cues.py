"""Memory-type cues: "pitfalls" / "踩过的坑" (warning), "preferences" / "偏好" (semantic)..."""

from __future__ import annotations

import re

from hindsight.model import MemoryType

_W, _E, _S, _K = MemoryType.warning, MemoryType.episodic, MemoryType.semantic, MemoryType.working
_TYPE_RULES: list[tuple[re.Pattern[str], tuple[MemoryType, ...], bool]] = [
    # hard: words that only make sense as "give me memories of this kind"
    (re.compile(r"\b(?:pitfalls?|gotchas?)\b", re.IGNORECASE), (_W,), True),
    (re.compile(r"踩(?:过|了)?(?:的|什么|哪些|些)?坑|(?:什么|哪些|有)坑|避坑|坑点"), (_W,), True),
    (re.compile(r"\b(?:preferences?)\b", re.IGNORECASE), (_S,), True),
    (re.compile(r"偏好"), (_S,), True),
    # soft: also ordinary words, only a boost
    (re.compile(r"\blessons?(?:\s+learn(?:ed|t))?\b", re.IGNORECASE), (_W, _E), False),
    (re.compile(r"经验教训|教训"), (_W, _E), False),
    (
        re.compile(
            r"\b(?:mistakes?|warnings?|traps?|caveats?|anti-?patterns?|what\s+(?:went|goes|could\s+go)\s+wrong|"
            r"things?\s+to\s+avoid|what\s+to\s+avoid|what\s+not\s+to|should(?:n't|\s+not)?\s+(?:i|we)\s+avoid|"
            r"fail(?:ed|ure|ures|s)?)\b",
            re.IGNORECASE,
        ),
        (_W,),
        False,
    ),
    (re.compile(r"坑|失败|出错|陷阱|雷区|踩雷|警告|注意事项|避免|不要再"), (_W,), False),
    (
        re.compile(
            r"\b(?:prefers?|preferred|habits?|conventions?|facts?|knowledge|what\s+do\s+(?:we|i|you)\s+know|"
            r"best\s+practices?|rules?\s+of\s+thumb)\b",
            re.IGNORECASE,
        ),
        (_S,),
        False,
    ),
    (re.compile(r"习惯|知识|事实|约定|规范|最佳实践|喜欢|不喜欢|常识"), (_S,), False),
    (
        re.compile(
            r"\b(?:what\s+(?:did|have)\s+(?:we|i|you)\s+(?:do|done|work(?:ed)?\s+on|tr(?:y|ied)|decided?)|"
            r"what\s+happened|how\s+did\s+(?:we|i|you)\s+(?:fix|solve|resolve|handle|debug)|"
            r"(?:last|previous|earlier|that)\s+(?:session|conversation|meeting|task|run|attempt))\b",
            re.IGNORECASE,
        ),
        (_E,),
        False,
    ),
    (re.compile(r"经过|(?<!存储)过程|做了什么|干了什么|发生了什么|怎么(?:解决|修复|处理)的|上次|那次"), (_E,), False),
    (re.compile(r"\b(?:in\s+this\s+(?:session|conversation|chat)|(?:did|do)\s+(?:i|you)\s+just)\b", re.IGNORECASE), (_K,), False),
    (re.compile(r"这次会话|本次会话|当前会话|刚才说"), (_K,), False),
]


def _types(text: str) -> tuple[list[MemoryType], bool]:
    found: list[tuple[int, MemoryType]] = []
    hard = False
    for pattern, types, is_hard in _TYPE_RULES:
        m = pattern.search(text)
        if m:
            hard = hard or is_hard
            found.extend((m.start(), t) for t in types)
    found.sort(key=lambda x: x[0])
    return list(dict.fromkeys(t for _, t in found)), hard
