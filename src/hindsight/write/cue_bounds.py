"""Where a change cue of the write-time lexicons may match: its bounds (hygiene round 45, issue 10).

Blind round 39 lost distinct facts to cues matched where they say no change:

* **a bare negation read as "no longer"** (r38:75 暂时不用输血, r39:196 讲棋时我喜欢用大盘演示，不用投影): 不用 / 别用 /
  不要用 ("does not use", "don't use") state a standing preference or rule; 不用 / 不要 / 没有 say a change only with
  再 or 了 after them in their clause (不用投影了, 不用再带伞), or 现在 / 已经 / 以后 / 今后 / 不再 before them in it
  (现在不用投影). `NEGATION_IN_CLAUSE` reads the Chinese negation cues of `lexicon._STRONG_ZH` and
  `end_cues._SWITCH_ZH` so, and keeps every 了 of a negation cue (不用…了, 不要…了, 没有…了, 不…了) inside the negation's
  clause (不要辣，加了香菜 is no change). English: the lexicons hold no bare negation cue ("don't use", "no need to"
  are not cues; "not … any more" already needs its "any more").
* **a cue inside a compound** (r39:211 "spelling-correction" read as the cue "correction"): `\\b` matches at a
  hyphen, so "spelling-correction", "reduced-fat", "extended-release", "read-only", "after-sales" matched the cues
  "correction", "reduced", "extended", "only", "after". `COMPOUND_APART` compiles the English cue patterns of
  `lexicon` and `end_cues` (`en_cues`) so that a match neither starts right after "letter-" nor ends right before
  "-letter".

Both switches are read when the lexicons are compiled (at import): the patterns are module constants imported by
name across `write/`. A measurement sets them before importing `hindsight.write` (bench/dist45.py). No vectors.
"""

from __future__ import annotations

import re

#: the negation rule for Chinese negation cues (see the module doc); False: the lexicons as before round 45
NEGATION_IN_CLAUSE = True  # on since blind r40 (the lead's rule, bench/results/dist45/ship_rule_r40.md)
#: v2 of the negation rule (round 45, in sample: written from three held-out changes, r4:165 以后帮我写邮件语气随意一点，不用
#: 那么正式): the time word may stand anywhere before the negation in its sentence, not only in its clause; and a '.' or
#: ':' between letters or digits ends no clause (r39's store: IP300固件不发v2.3了)
NEGATION_SENTENCE = True
#: English cues never match inside a hyphenated compound (see the module doc); False: `\\b` alone, as before
COMPOUND_APART = True

#: what ends a clause for the negation rule
_BREAK = "，。；！？,.;!?\n：:"
_IN = f"[^{_BREAK}]"
#: words before a negation in its clause that make it a change ("now", "already", "from now on", "no longer")
_SINCE = r"(?:现在|已经|以后|今后|从此|不再)"


def _in() -> str:
    """One character inside the negation's clause; with `NEGATION_SENTENCE` (v2) a '.' or ':' between two letters or
    digits is inside it too (不发v2.3了: a version number, not a clause break)."""
    if not NEGATION_SENTENCE:
        return _IN
    return rf"(?:{_IN}|(?<=[0-9A-Za-z])[.:](?=[0-9A-Za-z]))"


def zh_negation_cues() -> str:
    """The Chinese negation cues of `lexicon._STRONG_ZH` as a regex alternation (no group): with
    `NEGATION_IN_CLAUSE`, a negation said with 了 / 再 after it or a time word before it, in its clause; else the
    pre-round-45 forms (a bare 不用 / 别用 / 不要用 a cue, 了 anywhere within the reach)."""
    if not NEGATION_IN_CLAUSE:
        return r"不用.{0,10}了|不要.{0,10}了|没有.{0,10}了|不.{1,6}了|不用|别用|不要用"
    inside = _in()
    return (rf"(?:不用|不要|没有){inside}{{0,10}}?了|不{inside}{{1,6}}了|(?:不用|别用|不要用){inside}{{0,10}}?再"
            rf"|{_SINCE}{_before()}(?:不用|别用|不要用)")


def zh_switch_negation() -> str:
    """The bare 不用 of `end_cues._SWITCH_ZH` under the same rule (alternation, no group)."""
    if not NEGATION_IN_CLAUSE:
        return r"不用"
    return rf"不用{_in()}{{0,10}}?[再了]|{_SINCE}{_before()}不用"


def _before() -> str:
    """What may stand between a time word and the negation it makes a change: its clause (at most 10 characters),
    or with `NEGATION_SENTENCE` its sentence (at most 30)."""
    return r"(?:[^。；！？.;!?\n]|(?<=[0-9A-Za-z])\.(?=[0-9A-Za-z])){0,30}?" if NEGATION_SENTENCE else f"{_IN}{{0,10}}?"


def en_cues(source: str, flags: int = 0) -> re.Pattern[str]:
    """Compile an English cue pattern; with `COMPOUND_APART`, no match starts right after "x-" or ends right before
    "-x" (x a letter or digit): a cue word inside a hyphenated compound is part of a name, not a change."""
    if COMPOUND_APART:
        source = rf"(?<![A-Za-z0-9]-)(?:{source})(?!-[A-Za-z0-9])"
    return re.compile(source, flags)
