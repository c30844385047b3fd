"""Exact phrases: quoted text and identifiers (error codes, CamelCase, snake_case, paths, URLs, versions)."""

from __future__ import annotations

import re

_QUOTE_RES = [
    re.compile(r'"([^"\n]{1,300})"'),
    re.compile(r"\u201c([^\u201d\n]{1,300})\u201d"),  # “…”
    re.compile(r"\u300c([^\u300d\n]{1,300})\u300d"),  # 「…」
    re.compile(r"\u300e([^\u300f\n]{1,300})\u300f"),  # 『…』
    re.compile(r"\u2018([^\u2019\n]{1,300})\u2019(?!\w)"),  # ‘…’
    re.compile(r"(?<![\w'])'([^'\n]{1,300})'(?!\w)"),
    re.compile(r"`([^`\n]{1,300})`"),
]
_A = re.ASCII  # identifiers are ASCII; \w and \b must not treat adjacent Han characters as word characters
_IDENT_RES = [
    re.compile(r"\bhttps?://[^\s<>\"'`\u3000-\u303f\uff00-\uffef]+[^\s<>\"'`\u3000-\u303f\uff00-\uffef.,;:!?)]", _A),
    re.compile(r"(?<![\w/.~-])(?:~|\.{1,2})?/(?:[\w.-]+/)*[\w.-]*\w|\b(?:[\w-]+/)+[\w-]*\.\w{1,6}\b", _A),  # paths
    re.compile(r"\b[A-Za-z]:\\(?:[\w .-]+\\)*[\w.-]+", _A),  # Windows paths
    re.compile(r"\bCVE-\d{4}-\d{4,}\b", re.IGNORECASE | _A),
    re.compile(r"\bHTTP(?:/\d(?:\.\d)?)?\s?[1-5]\d{2}\b", _A),
    re.compile(r"\b0x[0-9A-Fa-f]{4,}\b", _A),
    re.compile(r"\b[A-Z]{1,6}-?\d{2,}[A-Z]?\b", _A),  # E1234, ORA-00942, TS2345
    re.compile(r"\b[A-Za-z]\w*(?:_[A-Za-z0-9]+)+\b|\b__\w+__\b", _A),  # snake_case, ERR_X, __init__
    re.compile(r"\b\w*[a-z][A-Z]\w*\b|\b[A-Z]{2,}[a-z]\w*\b", _A),  # CamelCase / camelCase / HTTPServer
    re.compile(r"\b[A-Za-z_]\w+(?:\.[A-Za-z_]\w+)+(?:\(\))?", _A),  # os.path.join, config.yaml
    re.compile(r"\bv?\d+\.\d+\.\d+(?:[-+][\w.]+)?\b|\bv\d+\.\d+\b", _A),  # versions
]


def _resolve(cands: list[tuple[int, int, object]]) -> list[tuple[int, int, object]]:
    """Longest-first, non-overlapping selection; returned in text order."""
    chosen: list[tuple[int, int, object]] = []
    for s, e, v in sorted(cands, key=lambda c: (-(c[1] - c[0]), c[0])):
        if all(e <= cs or s >= ce for cs, ce, _ in chosen):
            chosen.append((s, e, v))
    chosen.sort(key=lambda c: c[0])
    return chosen


def _phrases(text: str, blocked: list[tuple[int, int]]) -> list[str]:
    """Quoted phrases (always) and identifiers (outside time spans), longest-first, text order."""
    cands: list[tuple[int, int, object]] = []
    for pattern in _QUOTE_RES:
        for m in pattern.finditer(text):
            inner = m.group(1).strip()
            if inner:
                cands.append((m.start(), m.end(), inner))
    quoted = _resolve(cands)
    cands = list(quoted)
    taken = [(s, e) for s, e, _ in quoted] + blocked
    for pattern in _IDENT_RES:
        for m in pattern.finditer(text):
            s, e = m.start(), m.end()
            if any(s < te and e > ts for ts, te in taken):
                continue
            cands.append((s, e, m.group(0)))
    out = [str(v) for _, _, v in _resolve(cands)]
    return list(dict.fromkeys(out))
