"""What the redaction finders read: the stored text with its look-alike characters folded, mapped back.

The finders are written for the way values are usually typed: ASCII digits, letters, spaces and hyphens. The same
value typed another way renders the same and is the same secret: a card number in full-width digits (a Chinese IME
in full-width mode: ``４１１１ １１１１ …``), groups separated by a no-break or thin space (copied from a web page or
a PDF), an SSN or phone with a non-breaking hyphen (U+2011), a mailbox in full-width letters (``ｌｉｎａ＠ｇｍａｉｌ．ｃｏｍ``),
digits of another script or mathematical bold. Attack round 25: each of these was stored in clear. Characters
that render as nothing (``normalize.INVISIBLE_CHARS``, invis24) are dropped.

Every fold is one character to one character (or to nothing), so a finding in the folded text maps back to a span
of the stored text: the start of its first kept character to the end of its last. The stored text is never
rewritten; only the found value is replaced. Full-width punctuation that Chinese prose uses as punctuation (，：；！？
（）) is not folded; a full-width ``@ . - + _ # /`` only between two letters or digits (inside a value).

Inside a mailbox only (a run without spaces around an ``@`` that holds a Latin letter), letters of another script
that render as Latin ones (Cyrillic ``а``, Greek ``ο``: the guard's homoglyph table), Latin letters with an accent
and combining accents are folded too (attack round 26: ``alice.smith@exаmple.com`` with a Cyrillic ``а`` and
``josé@example.com`` were kept in clear, ``alíce@…`` kept ``alí``). Elsewhere Russian and Greek prose is read
as written: the table is not one to one for them.
"""

from __future__ import annotations

import re
import unicodedata

from hindsight.safety.normalize import _HOMOGLYPH_FROM, _HOMOGLYPH_TO, INVISIBLE_CHARS

_SPACES = "\u00a0\u2000-\u200a\u202f\u205f\u3000"  # no-break, en/em/thin/figure/narrow spaces, ideographic space
_HYPHENS = "\u2010\u2011\u2012\u2212\ufe63\uff0d"  # hyphen, non-breaking hyphen, figure dash, minus signs
_JOINERS = "\uff20\uff0e\uff0b\uff3f\uff03\uff0f"  # full-width @ . + _ # / (folded inside a value only)
# A text holding none of these takes the finders' plain path (same output as before round 25).
_FOLDABLE = re.compile(f"[{INVISIBLE_CHARS}{_SPACES}{_HYPHENS}{_JOINERS}\uff10-\uff19\uff21-\uff3a\uff41-\uff5a"
                       r"\U0001d400-\U0001d7ff]|(?![0-9])\d")
_DROP = re.compile(f"[{INVISIBLE_CHARS}]")
_MAIL_LOOKALIKE = re.compile("[\u00c0-\u024f\u0300-\u036f\u0370-\u04ff\u0500-\u052f]")  # accents, Greek, Cyrillic
# a run of characters no mailbox holds a delimiter of; found run by run, so the scan stays linear
_MAIL_RUN = re.compile(r"[^\s<>()\[\]{},;:\"'，。：；（）《》、]+")
_LATIN = dict(zip(_HOMOGLYPH_FROM, _HOMOGLYPH_TO, strict=True))
_SPACE = re.compile(f"[{_SPACES}]")
_HYPHEN = re.compile(f"[{_HYPHENS}]")


def _alnum(char: str) -> bool:
    folded = unicodedata.normalize("NFKC", char)
    return len(folded) == 1 and folded.isascii() and folded.isalnum()


def _fold_char(text: str, i: int) -> str:
    char = text[i]
    if char.isascii():
        return char
    if _DROP.match(char):
        return ""
    if _SPACE.match(char):
        return " "
    if _HYPHEN.match(char):
        return "-"
    if char in _JOINERS:
        inside = 0 < i < len(text) - 1 and _alnum(text[i - 1]) and _alnum(text[i + 1])
        return unicodedata.normalize("NFKC", char) if inside else char
    if char.isdecimal():
        return str(unicodedata.decimal(char))
    folded = unicodedata.normalize("NFKC", char)  # full-width and mathematical letters and digits
    return folded if len(folded) == 1 and folded.isascii() and folded.isalnum() else char


def imitates_latin(text: str) -> bool:
    """Whether `text` holds a letter of another script that renders as a Latin one."""
    return any(char in _LATIN for char in text)


def _mail_char(char: str) -> str:
    """A letter inside a mailbox as the Latin letter it renders as; a combining accent as nothing."""
    if char in _LATIN:
        return _LATIN[char]
    if unicodedata.category(char) == "Mn":
        return ""
    base = unicodedata.normalize("NFD", char)[0]
    return base if base.isascii() and base.isalpha() else char


def _mail_spans(text: str) -> list[tuple[int, int]]:
    """The runs around an `@` holding a Latin letter and a look-alike one (folded letter by letter)."""
    if "@" not in text and "＠" not in text or not _MAIL_LOOKALIKE.search(text):
        return []
    return [m.span() for m in _MAIL_RUN.finditer(text) if ("@" in m.group(0) or "＠" in m.group(0))
            and _MAIL_LOOKALIKE.search(m.group(0)) and re.search("[A-Za-z\uff21-\uff3a\uff41-\uff5a]", m.group(0))]


def fold_for_finders(text: str) -> tuple[str, list[int]] | None:
    """(folded text, kept) where kept[i] is the stored offset of the folded text's i-th character; None when the
    text holds nothing to fold (the finders read it as it is)."""
    mail = _mail_spans(text)
    if not mail and not _FOLDABLE.search(text):
        return None
    inside = {i for start, end in mail for i in range(start, end)}
    out: list[str] = []
    kept: list[int] = []
    for i in range(len(text)):
        char = _mail_char(text[i]) if i in inside else ""
        char = _fold_char(text, i) if i not in inside or char == text[i] else char
        if char:
            out.append(char)
            kept.append(i)
    return "".join(out), kept
