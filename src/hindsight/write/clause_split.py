"""Where a text's clauses end (split out of `write/value_align.py`, round 34): `clauses` cuts a text at sentence and
clause punctuation, a dash between words and a few conjunctions that start another statement; `spans` adds each two
neighbouring clauses. Read by the value tier (`value_align`), the number labels (`number_labels`), `renumber` and
`one_sided`.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: Where a clause ends: sentence and clause punctuation (a full stop before a space or the end only: not in 2.0,
#: Node.js or example.com; no comma between digits: 8,436; never a time's colon), a dash between
#: words, and a few conjunctions that start another statement.
_CLAUSE_END = re.compile(
    r"(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\bSt)(?<!\bvs)[.](?=\s|$)|(?<!\d),(?!\d)|[!?;。！？；，、\n]|\s[—–-]\s|—|"
    r"\b(?:but|while|though|although|because|so that|whereas)\b|但是|不过|因为|所以|而且|但",
    re.IGNORECASE,
)


@lru_cache(maxsize=4096)
def clauses(text: str) -> tuple[str, ...]:
    """The clauses of `text` (at least two characters of words each), in order; the whole text when it has one."""
    parts = [p.strip() for p in _CLAUSE_END.split(text) if p and p.strip()]
    kept = tuple(p for p in parts if len(re.sub(r"\W", "", p)) >= 2)
    return kept or (text.strip(),)


def spans(text: str) -> tuple[str, ...]:
    """Each clause and each two neighbouring clauses (a value may follow its attribute after a comma:
    "兴趣班这学期涨价了，一学期4200")."""
    cs = clauses(text)
    return cs + tuple(f"{a} {b}" for a, b in zip(cs, cs[1:]))
