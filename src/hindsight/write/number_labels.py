"""Numbers that label a thing rather than measure it (split out of `write/value_align.py`, round 34): "note 1" /
"note 2", "ticket #41" / "#42", "Phase 1" / "Phase 2", 第一条 / 第二条, 笔记1 / 笔记2, 1号会议室 / 2号会议室 - two
things, not two values of one attribute.

`clause_labels` finds them in a clause (an identifier or ordinal, or a word and a number heading the clause or standing
in its subject; a number after the verb, copula or a colon is the clause's value), `label_numbers` gives their
numbers, and `labelled_apart` says why two texts are two numbered things. Read by the value tier (`value_align`),
`renumber`, `one_sided`, `evidence`, `supersede` and `state_change`. Lexical only (no vectors).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from hindsight.write.analysis import units
from hindsight.write.clause_split import clauses
from hindsight.write.conversions import amounts
from hindsight.write.lexicon import _EN_VERBS
from hindsight.write.numbers import zh_numeral

#: A number marked as an identifier or an ordinal by its writing, with the word it labels: "ticket #41", "No. 7",
#: "2nd floor", "the third note", 第三条 / 第二站 (not a period: 第三季度 / 第2周 are dates), 1号会议室 / 3号楼.
_MARKED_LABEL = re.compile(
    r"(?P<hw>\b[a-z][a-z-]*\s*)?(?:#|№|\bno\.|\bnr\.)\s*(?P<a>\d+)\b(?![.,/]\d|\s*-\s*\d)"
    r"|\b(?P<b>\d+)(?:st|nd|rd|th)\s+(?!(?:of|at|in|on|to|from|for|and|or|until|by)\b|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[a-z]*\b)(?P<bw>[a-z]+)"
    r"|\b(?P<c>first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth)\s+(?!(?:of|half|quarter|week|day|"
    r"month|year|time|hour|minute|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|mon|tue|wed|thu|fri|sat|sun)[a-z]*"
    r"\b)(?P<cw>[a-z]+)"
    r"|第\s*(?P<d>[\d一二三四五六七八九十百零两]+)\s*(?!季|周|星期|礼拜|天|日|年|月|个月|小时|分钟|学期|期间)(?P<dw>[\u4e00-\u9fff])"
    r"|(?<![\d一二三四五六七八九十])(?P<e>[\d一二三四五六七八九十]+)\s*号\s*(?P<ew>楼|会议室|房|线|床|窗口|门|厅|馆|桌|柜|机|工位|教室|宿舍|病房|站台|车厢|展位|码头|航站楼)",
    re.IGNORECASE,
)
#: Words after which a marked number is the clause's value, not a label: "is #3", "moved to No. 5", 排名第3, 是第二.
_VALUE_BEFORE = re.compile(r"(?:\b(?:is|are|was|were|be|to|at|ranked|ranks|finished|placed)|排名|名列|是|到|为|排)\s*$",
                           re.IGNORECASE)
#: A word and a whole number naming one of a series: "note 2:" (a heading), "Issue 17 tracks", "Room 204 is", "Sprint
#: 14 demo" (in the clause's subject), 笔记1：. Not a longer number (a date, range or phone: "Sept 5-12", 136 5521).
_NOUN_NUMBER = re.compile(
    r"(?P<noun>\b[a-z][a-z'-]*|[\u4e00-\u9fff])\s*(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten)"
    r"(?![\d.,/%]|:\d|\s*[-–~]\s*\d|\s+\d)\b(?=(?P<rest>.{0,24}))",  # a look: "round 32 item 1" reads both
    re.IGNORECASE,
)
#: Words that are no label's head: function words, quantifiers, currencies, months and weekdays ("about 300", "per
#: 100", "USD 500", "Jan 6").
_NOT_A_HEAD = frozenset(["about", "around", "approximately", "roughly", "nearly", "almost", "over", "under", "only",
                         "just", "up", "down", "to", "from", "at", "by", "of", "in", "on", "for", "than", "per",
                         "every", "each", "the", "a", "an", "and", "or", "with", "within", "after", "before", "until",
                         "till", "since", "last", "next", "top", "some", "all", "plus", "minus", "x", "is", "are",
                         "was", "were", "be", "has", "have", "had", "usd", "rmb", "cny", "eur", "gbp", "jpy", "chf",
                         "hkd", "aud", "cad", "inr", "rs", "us", "est", "ca", "approx", "least", "most", "jan",
                         "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june", "jul",
                         "july", "aug", "august", "sep", "sept", "september", "oct", "october", "nov", "november",
                         "dec", "december", "mon", "monday", "tue", "tues", "tuesday", "wed", "wednesday", "thu",
                         "thur", "thurs", "thursday", "fri", "friday", "sat", "saturday", "sun", "sunday", "age",
                         "aged", "size", "level", "grade", "score", "rate", "budget", "rent", "price", "cost", "fee"])
_MARKED_HEADING = re.compile(r"^\s*[条项款章节点步个号]?\s*[:：]")
_HEADING = re.compile(r"^\s*(?::(?!\d)|[-–—]\s)")
_RATE_OR_UNIT = re.compile(r"^\s*(?:per\b|a\s+(?:month|year|week|day|night|head)\b|each\b|every\b|[\u4e00-\u9fff])",
                           re.IGNORECASE)
_COPULA_WORDS = frozenset(["is", "are", "was", "were", "be", "been", "has", "have", "had", "是", "在", "有", "为"])


def _number_text(raw: str) -> str:
    """The number as the alignment's atoms write it (一 -> 1, two -> 2)."""
    if raw.isdigit():
        return str(int(raw))
    value = zh_numeral(raw)
    if value is not None:
        return str(value)
    found = [u.text for u in units(raw) if u.number]
    return found[0] if found else raw.lower()


def _in_subject(clause: str, end: int) -> bool:
    """No verb, copula or colon before character `end` of `clause`: what stands there is its subject (after a
    colon stands a value: "Flight to Austin: UA 1432")."""
    head = clause[:end]
    return ":" not in head and not any(u.verb or u.text in _COPULA_WORDS for u in units(head))


def _in_amount(text: str, position: int) -> bool:
    """The character at `position` belongs to an amount with a unit, a date or a frequency (`conversions.amounts`:
    "weighs 30 kg", 跑了5公里, "2024-05-07"): a measure, never a label."""
    return any(a.start <= position < a.end for a in amounts(text))


#: an agent noun before its number ("Runner 10", "Server 12", "Worker 3", "Driver 5"): the stemmer reads its verb
#: ("run", "serve"), but a word in -er / -or heading a number names a thing (attack round 31: numbered runners written
#: one after another were read as one runner changing its image)
_AGENT_NOUN = re.compile(r"^[a-z]{2,}(?:er|or)$")
#: verbs in -er the verb lexicon does not list (a verb before a number is no label: "Enter 6 digits", "I prefer 24-hour")
_ER_VERBS = frozenset(["enter", "deliver", "transfer", "register", "gather", "render", "refer", "defer", "differ",
                       "offer", "wonder", "discover", "recover", "suffer", "lower", "alter", "encounter", "administer",
                       "bother", "order", "filter", "monitor", "mirror", "tender", "number", "prefer", "remember"])


def _agent_noun(word: str) -> bool:
    """Is `word` a noun in -er / -or that names a thing or a person ("runner", "server", "driver"), not a verb?"""
    return bool(_AGENT_NOUN.match(word)) and word not in _ER_VERBS and word not in _EN_VERBS
#: an English word shaped like a verb before its number ("weighs 30", "scored 85", "turned 45"): not a label's head
_VERB_SHAPED = re.compile(r"^[a-z]+(?:[^su]s|ed)$")


def _noun_label(text: str, m: re.Match[str]) -> bool:
    noun, rest = m.group("noun").lower(), m.group("rest")
    if noun in _NOT_A_HEAD or _VERB_SHAPED.match(noun) or _in_amount(text, m.start("n")):
        return False
    if _HEADING.match(rest):
        return ":" not in text[:m.start()]  # "note 2: ...", 笔记1：... (a heading, not a value after one)
    # an agent noun inside an address, a file name or a path is no label ("backup.keeper2024@...")
    agent = _agent_noun(noun) and not (m.start() and text[m.start() - 1] in "@._/\\")
    if any(u.stop or u.number or (u.verb and not agent) for u in units(noun)):
        return False
    if not rest.strip() or _RATE_OR_UNIT.match(rest) or not _in_subject(text, m.start()):
        return False  # "Rent 1200" (its value), "Rent 1200 per month", "每月300元", after the verb: a value
    following = re.match(r"\s*([a-z]+)(\s+(?:the|a|an|my|our|your|their|his|her|its|this|that)\b)?", rest,
                         re.IGNORECASE)
    if following and following.group(1).lower().endswith("s") and not following.group(2) \
            and following.group(1).lower() not in _COPULA_WORDS and not any(u.verb for u in units(following.group(1))):
        return False  # a count: "5 engineers" (a verb takes an object: "Issue 17 tracks the leak")
    return True


@lru_cache(maxsize=4096)
def clause_labels(clause: str) -> frozenset[tuple[str, str]]:
    """(the word labelled, the number as the alignment reads it) for each number of `clause` that labels a thing
    rather than measures an attribute: an identifier or ordinal ("Ticket #41 ...", 运维约定第一条：..., 1号会议室) or a
    word and a number heading the clause or standing in its subject ("note 2: ...", "Phase 2 of the migration
    moves ...", 笔记1：...). A number after the verb, copula or a colon is the clause's value ("moved to gate 14",
    "my locker number is 41", "is in 3rd grade", "Flight to Austin: UA 1432", 排名第3)."""
    text = unicodedata.normalize("NFKC", clause)
    out: set[tuple[str, str]] = set()
    for m in _MARKED_LABEL.finditer(text):
        heading = _MARKED_HEADING.match(text[m.end():])
        if (heading or _in_subject(text, m.start())) and not _VALUE_BEFORE.search(text[:m.start()]) \
                and not _in_amount(text, m.start(next(g for g in "abcde" if m.group(g)))):
            number = next(m.group(g) for g in "abcde" if m.group(g))
            word = next((m.group(g) for g in ("hw", "bw", "cw", "dw", "ew") if m.group(g)), "") or "#"
            out.add((word.strip().lower(), _number_text(number)))
    for m in _NOUN_NUMBER.finditer(text):
        if _noun_label(text, m):
            out.add((m.group("noun").lower(), _number_text(m.group("n"))))
    return frozenset(out)


def label_numbers(clause: str) -> frozenset[str]:
    """The numbers of `clause` that label a thing (`clause_labels`)."""
    return frozenset(number for _, number in clause_labels(clause))


def labelled_apart(old: str, new: str) -> str:
    """Why `old` and `new` are two numbered things ("" when they are not): both label what they state with the same
    word and numbers that have none in common - "note 1" / "note 2", "Ticket #41" / "Ticket #42", "Sprint 14 demo" /
    "Sprint 15 demo", 第三章 / 第四章; a label both share beside it does not join them ("Round 32 item 1" / "Round 32
    item 2": two items of one round - attack round 32 wrote 30 such notes and 29 were retired). Such a pair is never
    a change of one fact, whichever decider read it as one."""
    left = frozenset().union(*(clause_labels(c) for c in clauses(old)))
    right = frozenset().union(*(clause_labels(c) for c in clauses(new)))
    numbers_left: dict[str, set[str]] = {}
    numbers_right: dict[str, set[str]] = {}
    for word, number in left:
        numbers_left.setdefault(word, set()).add(number)
    for word, number in right:
        numbers_right.setdefault(word, set()).add(number)
    words = {w for w in numbers_left.keys() & numbers_right.keys() if not numbers_left[w] & numbers_right[w]}
    if not words:
        return ""
    shown = sorted(f"{w} {n}" for w, n in left | right if w in words)
    return f"two numbered things ({' / '.join(shown)})"


#: Words that name one episode of a numbered series (hygiene round 45: "Sprint 14 review" / "Sprint 15 review" were
#: read by `slot_change` as one slot changing on the second note's "now"): a sprint, release, day, round ... of one
#: series; two of them are two occasions, whatever each says.
EPISODE_WORDS = frozenset(["sprint", "release", "day", "week", "round", "iteration", "phase", "stage", "session",
                           "lesson", "episode", "season", "milestone", "cycle", "wave", "batch", "cohort", "leg",
                           "part", "chapter", "term", "semester", "module", "unit", "workshop", "meetup", "retro",
                           "retrospective", "standup", "demo", "review", "lecture", "class", "trip", "visit", "run",
                           "test", "trial", "game", "match", "race", "stop", "series", "line"])
#: A numbered episode or series in Chinese: 第二天 / 第三轮 / 第二期 (`_MARKED_LABEL` leaves 第N天 out as a period), and
#: a numbered line or series (一号电解系列 / 二号系列, 2号线): the number and the word it numbers.
_ZH_EPISODE = re.compile(
    r"第\s*(?P<n>[\d一二三四五六七八九十百零两]+)\s*(?P<w>天|晚|轮|期|场|站|批|阶段|集|课|讲|次|届|关|局|盘)"
    r"|(?<![\d一二三四五六七八九十])(?P<m>[\d一二三四五六七八九十]+)\s*号\s*[\u4e00-\u9fff]{0,3}?(?P<v>系列|线|机组|产线|车间|高炉|窑|泊位|机台|工段)"
)


def _episodes(text: str) -> dict[str, set[str]]:
    """The numbered episodes `text` names: {word: numbers} - a label of `clause_labels` whose word is an
    `EPISODE_WORDS` word ("Sprint 14 review: ..."), and the Chinese forms of `_ZH_EPISODE`."""
    out: dict[str, set[str]] = {}
    for c in clauses(text):
        for word, number in clause_labels(c):
            if word in EPISODE_WORDS:
                out.setdefault(word, set()).add(number)
    for m in _ZH_EPISODE.finditer(unicodedata.normalize("NFKC", text)):
        word, number = (m.group("w"), m.group("n")) if m.group("w") else (m.group("v"), m.group("m"))
        out.setdefault(word, set()).add(_number_text(number))
    return out


def episodes_apart(old: str, new: str) -> str:
    """Why `old` and `new` tell of two episodes of one numbered series ("" when they do not): each names an episode
    by the same word and their numbers have none in common - "Sprint 14 review" / "Sprint 15 review", 第一天 / 第二天,
    一号电解系列 / 二号系列. Two such notes are two entities, not one slot given a new value."""
    left, right = _episodes(old), _episodes(new)
    words = sorted(w for w in left.keys() & right.keys() if not left[w] & right[w])
    if not words:
        return ""
    return "two episodes (" + "; ".join(f"{w} {'/'.join(sorted(left[w]))} vs {'/'.join(sorted(right[w]))}"
                                        for w in words) + ")"
