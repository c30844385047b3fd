"""The engine the screening rules are written in (split out of `rules.py` in round 43, tidy43).

`_c` compiles a rule pattern: a literal space tolerates collapsed or repeated spacing (rules run on the output of
:func:`hindsight.safety.normalize.normalize_for_screening`, where "i g n o r e" collapses to "ignore"), and a gap of
words is rewritten to match the same texts in linear time. `_alt` / `_near` build the lexicons' alternations. `Rule`
fires when every ``all_of`` pattern and no ``none_of`` pattern is found inside one window of its ``scope``;
`Windows` cuts one normalised text into clauses and sentences lazily. The lexicons are `lexicons.py`, the rule
table and the matcher with its cache `rules.py` (which re-exports every name here).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

Category = Literal["injection", "privilege_escalation", "exfiltration"]
Scope = Literal["clause", "sentence", "text"]

CATEGORIES: tuple[Category, ...] = ("injection", "privilege_escalation", "exfiltration")
# When several rules fire, the verdict names the most specific harm.
CATEGORY_PRIORITY: dict[str, int] = {"exfiltration": 0, "privilege_escalation": 1, "injection": 2}


#: A gap of a few words, ``(?:\w+ ){0,3}`` / ``(?: \w+){0,4}`` / ``(?:[\w'-]+ ){0,4}`` / ``(?:\w+'?s? ){0,2}``: with its
#: space compiled as ``\s*`` a run of letters can be cut into words at any point, so the matcher tried every cut of a
#: long run before it gave up - O(n^k) for a gap of k words (attack round 37: "the landlord said " + 400 letters took
#: minutes in `claimed.CLAIM`, holding the GIL, so the whole server stopped answering).
_WORD_GAP = re.compile(r"\(\?:(?P<lead> ?)(?P<first>\[[^\] ]*\])?(?P<atom>\\w|\[[^\] ]*\])\+(?P<tail>(?:'\?s\?)?)(?P<trail> ?)\)"
                       r"\{(?P<m>[01]),(?P<n>\d+)\}")


def _gap(match: re.Match[str]) -> str:
    """The same gap, matching the same texts, in linear time: every word but the last is taken whole (possessive), and
    only the last may end inside a run - the one place a cut can matter (the words after the gap may be glued to it)."""
    lead, first, atom, tail, trail = (match.group(g) or "" for g in ("lead", "first", "atom", "tail", "trail"))
    if bool(lead) == bool(trail) or int(match.group("n")) < 2:
        return match.group(0)
    whole, last = f"(?:{lead}{first}{atom}++{tail}{trail})", f"(?:{lead}{first}{atom}+{tail}{trail})"
    return f"{whole}{{0,{int(match.group('n')) - 1}}}{last}{'?' if match.group('m') == '0' else ''}"


def _c(pattern: str) -> re.Pattern[str]:
    """Compile a rule pattern; literal spaces tolerate collapsed or repeated spacing (a gap of words is rewritten to
    match in linear time, the same texts: `_gap`)."""
    return re.compile(_WORD_GAP.sub(_gap, pattern).replace(" ", r"\s*"))


def _alt(*parts: str) -> str:
    return "(?:" + "|".join(parts) + ")"


def _near(first: str, second: str, gap: int = 40) -> str:
    """``first`` followed by ``second`` within ``gap`` characters (same window)."""
    return f"(?:{first}).{{0,{gap}}}?(?:{second})"


@dataclass(frozen=True)
class Rule:
    """One screening rule: every ``all_of`` pattern inside one window, no ``none_of`` pattern.

    ``scope`` sets the window: a clause (split on commas and "but"), a sentence
    (and each adjacent pair of sentences), or the whole text. Narrow windows keep
    the co-occurrence meaningful in long memories.
    """

    id: str
    category: Category
    description: str
    all_of: tuple[re.Pattern[str], ...]
    none_of: tuple[re.Pattern[str], ...] = field(default_factory=tuple)
    scope: Scope = "sentence"

    def _window_hit(self, window: str) -> bool:
        if not all(p.search(window) for p in self.all_of):
            return False
        return not any(p.search(window) for p in self.none_of)

    def matches(self, text: str, windows: Windows) -> bool:
        """True if the rule fires anywhere in ``text`` (already normalised)."""
        # Cheap prefilter: every required pattern must occur somewhere at all.
        if not all(p.search(text) for p in self.all_of):
            return False
        candidates = windows.get(self.scope)
        return any(self._window_hit(w) for w in candidates)


def _rule(
    rule_id: str,
    category: Category,
    description: str,
    all_of: Sequence[str],
    none_of: Sequence[str] = (),
    scope: Scope = "sentence",
) -> Rule:
    return Rule(
        id=rule_id,
        category=category,
        description=description,
        all_of=tuple(_c(p) for p in all_of),
        none_of=tuple(_c(p) for p in none_of),
        scope=scope,
    )


_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;])\s+|[。！？；\n]+|(?<=[!?;])(?=[\u3400-\u9fff])")
_CONTRAST_SPLIT = re.compile(r"\s(?:but|however|whereas|although|though|yet|while)\s|但是|但|然而|不过|可是|而是")
_COMMA_SPLIT = re.compile(r"(?<!\d),|,(?!\d)|[，：]|(?<!\d):|:(?!\d)")


class Windows:
    """Lazily built clause/sentence windows of one normalised text.

    A clause window is one comma-separated clause or two adjacent ones, but never
    spans a contrast ("but", "但"): "查询操作不需要确认，但删除操作必须确认" must not
    pair "不需要确认" with "删除". Sentence windows are sentences and adjacent pairs.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self._sentences: list[str] | None = None
        self._clauses: list[str] | None = None
        self._pairs: list[str] | None = None

    def sentences(self) -> list[str]:
        if self._sentences is None:
            self._sentences = [s.strip() for s in _SENTENCE_SPLIT.split(self.text) if s and s.strip()]
        return self._sentences

    def clauses(self) -> list[str]:
        if self._clauses is None:
            out: list[str] = []
            for sentence in self.sentences():
                for segment in _CONTRAST_SPLIT.split(sentence):
                    parts = [c.strip() for c in _COMMA_SPLIT.split(segment) if c and c.strip()]
                    out.extend(parts)
                    out.extend(parts[i] + ", " + parts[i + 1] for i in range(len(parts) - 1))
            self._clauses = out
        return self._clauses

    def get(self, scope: Scope) -> list[str]:
        if scope == "text":
            return [self.text]
        if scope == "clause":
            return self.clauses()
        if self._pairs is None:
            sents = self.sentences()
            self._pairs = sents + [sents[i] + " " + sents[i + 1] for i in range(len(sents) - 1)]
        return self._pairs


@dataclass(frozen=True)
class RuleHit:
    """A rule that fired, with its category."""

    rule_id: str
    category: Category
