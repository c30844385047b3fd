"""Where a found value ends (redaction round 28): one bound for every finder's span.

A finder's value pattern is written for the value's characters, but many of them use classes that also match the
text around it: ``\\w`` and ``\\S`` match Han characters, a "not a space" run crosses a closing bracket, so a password
written in Latin letters and glued to the Chinese sentence after it ("密码是Qa2025store#老王说下周再改") took the
sentence with it, and a fact was lost with the secret. Rather than patch each pattern, every span goes through
``bound`` once:

- a value written in Latin letters, digits and symbols ends where Han, kana or Hangul text or CJK punctuation
  (，。、：；！？）」…) begins; where such a span holds several Latin pieces (a long-token pattern that ran backwards
  over "pipeline-318里...的AK是HPUAQ7..."), the value is the piece that looks generated, else the first value-shaped
  piece;
- a closing bracket the value never opened ends it when the sentence opened that bracket before the value ("(pw
  X)", "（密码 X）"): a password that merely ends with ")" keeps it;
- a value with spaces (a passphrase, a grouped number) ends before an English clause starting (", and ...", ". The
  ...", "; so ..."); a comma alone ends nothing (a seed phrase is words and commas), a quoted value and key material are never cut.

A one-time code's digits after a one-capital prefix ("G-582046") take the prefix along (round 39).

A value that starts with a CJK character (a Chinese address, a plate such as 京A12345, a password in Han characters),
a card expiry ("2028年3月")
and a postal address are left as the finder made them.
"""

from __future__ import annotations

import re

from hindsight.safety.validators import looks_random

Span = tuple[str, int, int]

_LETTER_PREFIX = re.compile(r"(?<![\w-])[A-Z]-\Z")

# Han (with extensions and compatibility ideographs), kana, Hangul, CJK and full-width punctuation.
_CJK = re.compile(r"[\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff01-\uff0f"
                  r"\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65\u2018-\u201f\u2026]")
_CJK_START = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_UNBOUNDED = frozenset({"address", "card_expiry", "public"})  # "2028年3月": an expiry is written in Han too
_CLOSERS = {")": "(", "]": "[", "}": "{", "）": "（", "】": "【", "」": "「", "』": "『", "〕": "〔"}
_PIECE = re.compile(r"[^\s\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff01-\uff0f"
                    r"\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65\u2018-\u201f\u2026]+")
# An English clause after a value with spaces: a comma / semicolon / full stop and a word, or a joining word.
_CLAUSE = re.compile(r"(?:\.\s+(?=[A-Z][a-z])|[,;]\s+(?=(?:and|but|so|then|which|because|until|before|after|since|while)\s))")
_QUOTES = frozenset("\"'“”‘’`「」")
_SENTENCE_START = re.compile(r"[。！？\n]|[.!?]\s")


def _value_shaped(piece: str) -> bool:
    core = piece.strip(".,;:!?'\"`()[]{}<>=")
    return len(core) >= 3 and (any(c.isdigit() for c in core) or not core.isalpha())


def _latin_piece(value: str) -> tuple[int, int] | None:
    """The Latin piece of a mixed-script value: the first long generated-looking one, else the first generated-looking,
    else the first value-shaped, else the first."""
    pieces = list(_PIECE.finditer(value))
    if not pieces:
        return None
    for test in (lambda p: looks_random(p, 16), looks_random, _value_shaped, lambda p: True):
        for m in pieces:
            if test(m.group(0).strip(".,;:!?'\"`=")):
                return m.span()
    return None


def _opened_before(text: str, start: int, opener: str, closer: str) -> bool:
    """The sentence before ``start`` opened ``opener`` and did not close it."""
    head = text[max(0, start - 120) : start]
    stops = list(_SENTENCE_START.finditer(head))
    if stops:
        head = head[stops[-1].end() :]
    return head.count(opener) > head.count(closer)


def bound(text: str, span: Span) -> Span:
    """``span`` with its value ended where the value ends (see the module's docstring); the kind is unchanged."""
    kind, start, end = span
    if kind in _UNBOUNDED or end - start < 2:
        return span
    value = text[start:end]
    if _CJK_START.match(value):
        return span  # a value written in CJK characters
    if _CJK.search(value):
        piece = _latin_piece(value)
        if piece is None:
            return span
        start, end = start + piece[0], start + piece[1]
        value = text[start:end]
    for i, c in enumerate(value):
        opener = _CLOSERS.get(c)
        if opener and opener not in value[:i] and _opened_before(text, start, opener, c):
            end = start + i
            value = value[:i]
            break
    quoted = text[start - 1 : start] in _QUOTES and text[end : end + 1] in _QUOTES
    if " " in value.strip() and kind != "private_key" and not quoted:
        m = _CLAUSE.search(value)
        if m and m.start() > 0:
            end = start + m.start()
            value = value[: m.start()]
    stripped = value.rstrip(" \t,;")
    end -= len(value) - len(stripped)
    lead = len(stripped) - len(stripped.lstrip("=:： \t"))  # "密钥=X": the assignment sign is the label's
    if lead and lead < len(stripped):
        start += lead
    if kind == "otp" and stripped.isdigit() and _LETTER_PREFIX.search(text, max(0, start - 3), start):
        start -= 2  # round 39: "G-582046": the service's letter goes with the code
    return (kind, start, end) if end > start else span


def bound_all(text: str, spans: list[Span]) -> list[Span]:
    return [bound(text, s) for s in spans]
