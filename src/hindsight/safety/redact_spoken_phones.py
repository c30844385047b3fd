"""A person's phone number said in English digit words (round 46, issue 10).

``redact_spelled`` reads spelled digits as written ones for every finder but the phone readers: a number read out to
call back is as often an office's as a person's ("reach the clinic at six one seven, ..."). A spelled run is a phone
here only when the sentence says whose it is before it - a possessive phone noun ("my number", "her mobile", "his
cell is") or a request to call a person ("call me on", "text her at") - and it has 7 - 15 digits. "double" / "triple"
repeat the digit after them ("double zero" = 00), and "oh" is zero inside the run. Chinese numerals said as a mobile
have their own reader (``redact_shapes``).
"""

from __future__ import annotations

import re

Span = tuple[str, int, int]

# Measured, NOT shipped (round 46): held out it redacted one non-PII text (r21T16, a grandfather's mobile said in words)
# whose written twin the written readers keep, and that hygiene pair's restatement then read as a supplement.
ON = False

_WORD = r"(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_RUN = re.compile(rf"(?i)\b(?:(?:double|triple)\s+)?{_WORD}(?:(?:\s*[,-]\s*|\s+)(?:(?:double|triple)\s+)?{_WORD})+\b")
_OWNER = re.compile(
    r"(?i)(?:\b(?:my|his|her|their|your|our)\s+(?:new\s+|own\s+|home\s+|private\s+|personal\s+)?"
    r"(?:(?:phone|mobile|cell|contact)\s+)?(?:number|mobile|cell|cellphone|phone|landline)\b"
    r"|\b(?:call|text|ring|phone|whatsapp)\s+(?:me|him|her|them|us)\b)[^.!?\n\d]{0,30}$")


def _digit_count(run: str) -> int:
    count, repeat = 0, 1
    for word in re.findall(r"[A-Za-z]+", run.lower()):
        if word in ("double", "triple"):
            repeat = 2 if word == "double" else 3
            continue
        count += repeat
        repeat = 1
    return count


def find_spoken_phones(text: str) -> list[Span]:
    if not ON or not re.search(r"(?i)\b(?:zero|one|two|three|four|five|six|seven|eight|nine)\b", text):
        return []
    out: list[Span] = []
    for m in _RUN.finditer(text):
        words = [w for w in re.findall(r"[A-Za-z]+", m.group(0).lower()) if w not in ("double", "triple")]
        if sum(w != "oh" for w in words) < 3 or not 7 <= _digit_count(m.group(0)) <= 15:
            continue
        if _OWNER.search(text, max(0, m.start() - 80), m.start()):
            out.append(("phone", m.start(), m.end()))
    return out
