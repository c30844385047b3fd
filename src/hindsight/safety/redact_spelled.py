"""Spoken forms read as written ones (round 12b: spelled numbers; round 13: the rest of a transcript's habits).

A transcript writes "the gate code is four nine one seven", "银行卡号是六二二二 零二一二 ...", "it's 3 8 1 5 5 0",
"the password is, uh, X", "玉林北路十八号三单元" or "有效期二零二六年十月": every finder of this package reads the
written form, so a spoken one escapes them all. Here each spoken form is rewritten as its written form and every
finder runs once more over the rewritten text; a finding is mapped back to the original's offsets (one that touches
a rewritten run covers the whole run). The forms:

- runs of spelled digits: four or more EN digit words ("oh" counts as zero inside a run of at least three others),
  six or more Chinese numerals (groups split by a space, a dash or a comma of three or more numerals each), digits
  written one by one with a space between (six or more);
- a Chinese house, unit, floor or room number in numerals before its unit word (十八号, 三单元, 五楼) and a year and
  month in numerals (二零二六年十月);
- a spoken year after a month ("March twenty-eight");
- fillers between a cue and its value ("uh,", "um,", "呃，") are dropped.

Nothing else changes: what the finders take in "4917" they take in "four nine one seven", no more - except a phone
number: a number read out to call back is as often an office's as a person's ("reach the clinic at six one seven,
..."), and main's reading of released non-PII texts must not gain a redaction (Chinese mobiles spelled in numerals
have their own finder in ``redact_shapes``; a spoken phone that restates a written one is found by ``redact_echo``).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable

Span = tuple[str, int, int]

_EN = {"zero": "0", "oh": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7",
       "eight": "8", "nine": "9"}
_EN_WORD = "(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)"
_EN_RUN = re.compile(rf"(?i)\b{_EN_WORD}(?:(?:\s*[,-]\s*|\s+){_EN_WORD}){{3,}}\b")
_ZH = dict(zip("零〇一二三四五六七八九幺", "001234567891", strict=True))
_ZH_NUM = "零〇一二三四五六七八九幺"
_ZH_RUN = re.compile(rf"(?<![{_ZH_NUM}十百千万亿])[{_ZH_NUM}](?:[ \u00a0-]?[{_ZH_NUM}]){{5,}}(?:[，,][{_ZH_NUM}]{{3,}})*"
                     rf"(?![{_ZH_NUM}十百千万亿])|(?<![{_ZH_NUM}十百千万亿])[{_ZH_NUM}]{{3,}}(?:[，,][{_ZH_NUM}]{{3,}}){{2,}}(?![{_ZH_NUM}十百千万亿])")
_SPACED = re.compile(r"(?<![\w.,:/-])\d(?: \d){5,}(?![\w-]|[.,:/]\d| \d)")
# A Chinese number before an address unit (十八号, 三单元, 五楼, 二号) or a year and month (二零二六年十月).
_ZH_UNIT = re.compile(r"[零一二三四五六七八九十百两]{1,4}(?=号|单元|栋|幢|楼|层|室|弄|座)")
_ZH_YEAR_MONTH = re.compile(rf"(?P<y>[{_ZH_NUM}]{{4}})年(?P<m>十[一二]?|[一二三四五六七八九])月")
_MONTH = r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?,?"
_EN_TENS = {"twenty": 20, "thirty": 30}
_EN_UNITS = {w: int(d) for w, d in _EN.items() if w not in ("zero", "oh")}
_SPOKEN_YEAR = re.compile(rf"{_MONTH}\s+(?P<y>(?i:twenty|thirty)(?:[- ](?i:one|two|three|four|five|six|seven|eight|nine))?)\b")
_FILLER = re.compile(r"(?i)(?<=\w)[,，]?\s+(?:uh+|um+|erm|er|hmm)\s*[,，]\s*|(?<=[是：:])[，,]?(?:呃|嗯)+[，,]?")


def _digits(run: str) -> str:
    if run[0] in _ZH:
        return "".join(_ZH.get(ch, " " if ch in "，," else ch) for ch in run)
    if run[0].isdigit():
        return run.replace(" ", "")
    parts = re.split(r"(\s*[,-]\s*|\s+)", run)
    return "".join(_EN[p.lower()] if p.lower() in _EN else "-" if p.strip() in (",", "-") else "" for p in parts)


def _zh_number(word: str) -> str:
    """十八 -> 18, 三 -> 3, 一百零五 -> 105, 两 -> 2."""
    total, unit_seen, digit = 0, False, 0
    for ch in word:
        if ch in "十百":
            total += (digit or 1) * (10 if ch == "十" else 100)
            digit, unit_seen = 0, True
        else:
            digit = int(_ZH.get(ch, "2"))
    return str(total + digit if unit_seen else digit)


def spoken_runs(text: str) -> list[tuple[int, int, str]]:
    """Each spoken number as (start, end, digits): spelled EN / ZH digit runs and digits spaced one by one."""
    runs = [(*m.span(), _digits(m.group(0))) for pattern in (_EN_RUN, _ZH_RUN, _SPACED) for m in pattern.finditer(text)]
    return [r for r in runs if sum(ch.isdigit() for ch in r[2]) >= 4 and (r[2][0].isdigit() or _real_digits(text[r[0]:r[1]]))]


def _real_digits(run: str) -> bool:
    """"oh" is zero only among at least three other digit words ("oh one two" is no number)."""
    words = re.findall(r"[A-Za-z]+", run)
    return not words or sum(w.lower() != "oh" for w in words) >= 3


def _rewrites(text: str) -> list[tuple[int, int, str]]:
    out = [(a, b, digits) for a, b, digits in spoken_runs(text)]
    if re.search(r"[路街道巷弄]", text):
        out += [(m.start(), m.end(), _zh_number(m.group(0))) for m in _ZH_UNIT.finditer(text) if m.group(0)]
    out += [(m.start(), m.end(), "".join(_ZH[c] for c in m.group("y")) + "年" + _zh_number(m.group("m")) + "月")
            for m in _ZH_YEAR_MONTH.finditer(text)]
    for m in _SPOKEN_YEAR.finditer(text):
        words = re.split(r"[- ]", m.group("y").lower())
        out.append((m.start("y"), m.end("y"), str(_EN_TENS[words[0]] + (_EN_UNITS[words[1]] if len(words) > 1 else 0))))
    out += [(m.start(), m.end(), " " if m.group(0)[-1:].isspace() else "") for m in _FILLER.finditer(text)]
    out.sort()
    kept: list[tuple[int, int, str]] = []
    for r in out:
        if not kept or r[0] >= kept[-1][1]:
            kept.append(r)
    return kept


def spelled_findings(text: str, find: Callable[[str], list[Span]]) -> list[Span]:
    """What ``find`` reports in ``text`` once its spoken forms are written ones, in the original's offsets: every
    finding on a rewritten run, and a finding elsewhere only where a filler was dropped before it."""
    runs = _rewrites(text)
    if not runs:
        return []
    parts: list[str] = []
    new_starts: list[int] = []  # rewritten offset of each run's start
    mapped: list[tuple[int, int, int, int]] = []  # rewritten start, end; original start, end
    cursor = length = 0
    for a, b, digits in runs:
        parts.append(text[cursor:a])
        length += a - cursor
        mapped.append((length, length + len(digits), a, b))
        new_starts.append(length)
        parts.append(digits)
        length += len(digits)
        cursor = b
    parts.append(text[cursor:])

    def back(pos: int, end: bool) -> int:
        i = bisect.bisect_right(new_starts, pos - (1 if end else 0)) - 1
        if i < 0:
            return pos
        ns, ne, os_, oe = mapped[i]
        if pos < ne or (end and pos == ne):
            return oe if end else os_
        return oe + (pos - ne)

    out: list[Span] = []
    ends = [m[1] for m in mapped]
    filler_ends = [m[1] for m, r in zip(mapped, runs, strict=True) if not r[2].strip()]
    for kind, start, end in find("".join(parts)):
        j = bisect.bisect_right(ends, start)  # the first run that ends after the finding starts
        hit = j < len(mapped) and mapped[j][0] < end and runs[j][2].strip() != ""
        k = bisect.bisect_right(filler_ends, start) - 1  # the last filler dropped before it
        if hit and kind != "phone" or not hit and k >= 0 and start - filler_ends[k] <= 40:
            out.append((kind, back(start, False), back(end, True)))
    return out
