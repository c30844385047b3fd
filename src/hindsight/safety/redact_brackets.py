"""A value in brackets read as a quoted one: "门锁临时密码【739104】", "Steam Guard code was [K7PXQ]".

Writers fence a value with brackets as often as with quotes - 【】, [], 「」, 〔〕, (), （） - and the cue readers know
quotes. Each bracket pair around one token (3-64 printable ASCII characters, no space, bracket or quote; a digit or
mixed case: value-shaped; "（至少8位）" is prose) is rewritten as a pair of ASCII double quotes, one character for one,
and every finder runs once more on the rewritten text. Offsets do not move, so a finding maps back as it is; only findings on a rewritten token count (the rest of the
text was read already). A placeholder (``[REDACTED:...]``, ``[YOUR_KEY]``), a footnote (``[12]``) and a link text are
left as they are.
"""

from __future__ import annotations

import re
from collections.abc import Callable

Span = tuple[str, int, int]

_PAIRS = {"【": "】", "[": "]", "「": "」", "〔": "〕", "(": ")", "（": "）", "『": "』"}
_BRACKETED = re.compile(r"(?P<open>[【\[「〔(（『])(?P<value>[!#-&*-Z\\^-~]{3,64})(?P<close>[】\]」〕)）』])")
_VALUE_SHAPED = re.compile(r"(?=.*\d)|(?=.*[a-z])(?=.*[A-Z])")
_NOT_A_VALUE = re.compile(r"(?i)^(?:redacted|your|example|placeholder|\d{1,3}$|[A-Z_]+$)|^\w+\(|"
                         r"^\d{1,2}:\d{2}(?::\d{2})?$|^(?:\d{1,4}[-/.年月日]){1,2}\d{0,4}[日号]?(?:\s?\d{1,2}:\d{2})?$")  # a time, a date
_LINK_AFTER = re.compile(r"\(")


def bracketed_tokens(text: str) -> list[tuple[int, int]]:
    """(start, end) of each value-shaped token fenced by a matching bracket pair."""
    out = []
    for m in _BRACKETED.finditer(text):
        value = m.group("value")
        line_start = m.start() == 0 or text[m.start() - 1] == "\n"  # "【10:23】助手：" labels a line
        if (_PAIRS[m.group("open")] != m.group("close") or not _VALUE_SHAPED.match(value) or _NOT_A_VALUE.match(value)
                or line_start or (m.group("open") == "[" and _LINK_AFTER.match(text, m.end()))):
            continue
        out.append(m.span())
    return out


def bracketed_findings(text: str, find: Callable[[str], list[Span]]) -> list[Span]:
    """What ``find`` reports on a bracketed token once its brackets read as quotes (offsets of ``text``)."""
    tokens = bracketed_tokens(text)
    if not tokens:
        return []
    chars = list(text)
    for a, b in tokens:
        chars[a] = chars[b - 1] = '"'
    return [s for s in find("".join(chars)) if any(a < s[2] and s[1] < b for a, b in tokens)]
