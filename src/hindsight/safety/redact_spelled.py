"""Numbers spelled out in words, read as digits (round 12b: voice-note transcripts).

A transcript writes "the gate code is four nine one seven" or "银行卡号是六二二二 零二一二 ...": every finder of this
package reads digits, so a spelled number escapes them all. Here each run of spelled digits (four or more English
digit words, six or more Chinese numerals) is rewritten as digits - words in one group joined, a comma or dash
between groups kept as "-", a space between Chinese groups kept - and the finders run once more over the rewritten
text; a finding that touches a rewritten run is mapped back to the run's span in the original. Nothing else changes:
what the finders take in "4917" they take in "four nine one seven", no more - except a phone number: a number
read out to call back is as often an office's as a person's ("reach the clinic at six one seven, ..."), and main's
reading of released non-PII texts must not gain a redaction (Chinese mobiles spelled in numerals have their own
finder in ``redact_shapes``).
"""

from __future__ import annotations

import re
from collections.abc import Callable

Span = tuple[str, int, int]

_EN = {"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
       "eight": "8", "nine": "9"}
_EN_WORD = "(?:" + "|".join(_EN) + ")"
_EN_RUN = re.compile(rf"(?i)\b{_EN_WORD}(?:(?:\s*[,-]\s*|\s+){_EN_WORD}){{3,}}\b")
_ZH = dict(zip("零〇一二三四五六七八九幺", "001234567891", strict=True))
_ZH_RUN = re.compile(r"(?<![零〇一二三四五六七八九幺十百千万亿])[零〇一二三四五六七八九幺](?:[ \u00a0-]?[零〇一二三四五六七八九幺]){5,}(?![零〇一二三四五六七八九幺十百千万亿])")


def _digits(run: str) -> str:
    if run[0] in _ZH:
        return "".join(_ZH.get(ch, ch) for ch in run)
    parts = re.split(r"(\s*[,-]\s*|\s+)", run)
    return "".join(_EN[p.lower()] if p.lower() in _EN else "-" if p.strip() in (",", "-") else "" for p in parts)


def spelled_findings(text: str, find: Callable[[str], list[Span]]) -> list[Span]:
    """What ``find`` reports in ``text`` once its spelled numbers are digits, for the findings on a spelled run only,
    in the original's offsets."""
    runs = sorted([m.span() for m in _EN_RUN.finditer(text)] + [m.span() for m in _ZH_RUN.finditer(text)])
    if not runs:
        return []
    parts: list[str] = []
    mapped: list[tuple[int, int, int, int]] = []  # rewritten start, end; original start, end
    cursor = 0
    length = 0
    for a, b in runs:
        if a < cursor:
            continue
        parts.append(text[cursor:a])
        length += a - cursor
        digits = _digits(text[a:b])
        mapped.append((length, length + len(digits), a, b))
        parts.append(digits)
        length += len(digits)
        cursor = b
    parts.append(text[cursor:])
    out: list[Span] = []
    for kind, start, end in find("".join(parts)):
        hit = [m for m in mapped if m[0] < end and start < m[1]]
        if hit and kind != "phone":
            out.append((kind, min(m[2] for m in hit), max(m[3] for m in hit)))
    return out
