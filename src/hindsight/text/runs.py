"""Long runs of digits or Chinese numerals: read as no quantity, and never scanned from inside.

A pattern that starts a match at a digit and scans the digits after it (`(\\d+)\\s*度`) costs the square of a run's
length where no match comes of it: a crafted memory of 20,000 digits cost minutes of CPU per reading (attack round 7).
No quantity is 33 digits long, so the number readings mask such a run (`mask_long_runs`: "#" of the same length, so
offsets hold) or read around it (`sub_outside_long_runs`: the run kept as written). The readings' own patterns start
no match inside a shorter run (a lookbehind before a leading `\\d+`, where that gives the same matches).
"""

from __future__ import annotations

import re
from collections.abc import Callable

#: a run of digits (any script's: fullwidth ones too) or Chinese numerals longer than any quantity
LONG_RUN = re.compile(r"\d{33,}|[零〇一二两三四五六七八九十百千万亿]{33,}")


def mask_long_runs(text: str) -> str:
    """`text` with each long run written as "#" of its length (the same offsets; nothing is read inside it)."""
    return LONG_RUN.sub(lambda m: "#" * len(m.group(0)), text)


def sub_outside_long_runs(pattern: re.Pattern[str], repl: str | Callable[[re.Match[str]], str], text: str) -> str:
    """`pattern.sub(repl, text)` on the stretches between long runs, each run kept as written."""
    if LONG_RUN.search(text) is None:
        return pattern.sub(repl, text)
    pieces = LONG_RUN.split(text)
    runs = [m.group(0) for m in LONG_RUN.finditer(text)]
    out = [pattern.sub(repl, pieces[0])]
    for run, piece in zip(runs, pieces[1:], strict=True):
        out += [run, pattern.sub(repl, piece)]
    return "".join(out)
