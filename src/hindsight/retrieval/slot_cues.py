"""What two memory texts say about one slot, read by the read-time currency rule (`currency.mark_outdated`) and
the write-time same-slot tiers (`write.slot_change`, `write.slot_value`): a change cue (`CHANGE_CUE`), a dated episode
or warning that stays (`lasting`) unless a plan moved (`replans`), the anchors two texts share (`anchors`), a text that
adds (`ADDITIVE`), two owners (`other_owners`), the older text's subject kept (`subject_kept`), and a number of one kind
given another value (`new_value`). Split out of `currency` (which keeps the flagging pass); every reading is linear in
the text (attack round 7's crafted runs of digits: docs/security.md).
"""

from __future__ import annotations

import re
from functools import lru_cache

from hindsight.model import MemoryType
from hindsight.retrieval.bilingual import name_keys, shared_meaning, stem
from hindsight.retrieval.crosslingual import bias_group
from hindsight.text.tokenize import query_terms
from hindsight.write.renumber import number_replaced

CHANGE_CUE = re.compile(
    # English: a value that moved ("moved to", "went up to", "cut to", "goes to"), a state that ended or was
    # renewed ("no longer", "was retired", "has left", "renewed"), a new holder of a slot ("new main contact
    # is", "took over"), a start of validity ("from September", "since May", "starting", "as of")
    r"\b(?:now|no longer|any ?more|moved|migrated|switched|replaced|upgraded|downgraded|bumped|raised|lowered|"
    r"increased|decreased|reduced|extended|shortened|postponed|changed|took over|taken over|instead|since|"
    r"has been|have been|was split|from \S+ to|"
    r"changes? to|went (?:up|down)|goes? (?:up |down )?to|cut to|(?:has|have) left|renewed|rebuilt|retired|"
    r"cancell?ed|discontinued|revised|adjusted|starting|as of|effective|new \w+(?: \w+)? (?:is|are|policy|rule)|"
    r"from (?:next|this|january|february|march|april|may|june|july|august|september|october|november|december)|"
    # a date or plan that moved or ended ("slipped to", "pushed back", "rescheduled", "is off", "called off"), a
    # new holder ("promoted", "quit", "rebooked"), an announced revision ("update:", "updated", "again")
    r"slip(?:s|ped)?|delayed|rescheduled|re-?booked|pushed (?:back|out)|called off|(?:is|are|was|were) off|"
    r"promoted|decommissioned|quit|resigned|updated?|again|not \w+ any ?more)\b"
    # Chinese: the same kinds (改成/升到/搬到: moved; 取消/停用/下线: ended; 接手/换成: new holder; …起/从…开始:
    # from when the new value holds; 上调/调整/又调: revised)
    r"|现在|目前已|已经|已从|已改|改成|改为|改用|换成|换到|迁到|迁至|迁移|升级|降级|提高|降低|缩短|延长|提前|推迟|"
    r"不再|停用|下线|上线|调整|转正|接手|以后|变成|变为|涨到|降到|压回|改到|挪到|从.{1,20}?(?:到|为)|"
    r"升到|提到|搬到|搬去|上调|下调|又调|调了|取消|[年月周]起|今年起|明年起|从.{1,12}?开始|"
    # Chinese, the same additions: 延期/顺延/延后/改签/改计划/改去/改在 (a plan moved), 换人/换了/离职/不干了/新来的
    # (a new holder), 更新/重新 (a revision)
    r"延期|顺延|延后|改签|改计划|改去|改在|不去了|换人|换了|离职|不干了|新来的|更新|重新",
    re.IGNORECASE,
)


#: A dated episode ("DR drill on 2024-04-18 took 47 minutes", "3 月 2 日凌晨证书过期") is what happened that day
#: and a warning what failed: a newer memory never makes either outdated. (Episodic is also the default type of
#: an untyped write, so an undated episodic memory is still compared: "the standup is at 9:30".) On the released
#: rounds every flag on such a memory was wrong, and no replaced memory was one.
_DAY = re.compile(
    r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.? \d{1,2}\b"
    r"|\b\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\b|\d{1,2}\s*月\s*\d{1,2}\s*[日号]",
    re.IGNORECASE,
)


def lasting(kind: MemoryType, content: str) -> bool:
    """A memory no newer one makes outdated: a warning, or an episode that names its day."""
    return kind == MemoryType.warning or (kind == MemoryType.episodic and _DAY.search(content) is not None)


#: a newer memory that says a plan moved or ended ("postponed", "rescheduled", "is off", 推迟, 改签, 取消)
PLAN_CHANGE = re.compile(
    r"\b(?:moved|moves|postponed|slip(?:s|ped)?|delayed|rescheduled|re-?booked|changed|is off|called off|"
    r"cancell?ed|pushed (?:back|out)|brought forward)\b|推迟|延期|改签|改计划|改期|取消|挪到|改到|改成|提前到|顺延|改去|不去",
    re.IGNORECASE,
)

#: the share of the shorter text's content terms a plan change must repeat to make a dated episode outdated
REPLAN_OVERLAP = 0.3


@lru_cache(maxsize=4096)
def _terms(text: str) -> frozenset[str]:
    """A text's search terms, English ones lightly stemmed ("Tuesdays" / "Tuesday"); kept per text, as a search
    compares each hit with several others."""
    return frozenset(stem(t) for t in query_terms(text))


def overlap(old: str, new: str) -> float:
    """The share of the shorter text's content terms (2+ characters, not generic) that the other one has too."""
    a, b = _terms(old), _terms(new)
    return len({t for t in a & b if len(t) >= 2 and t not in GENERIC}) / (min(len(a), len(b)) or 1)


def replans(old: str, new: str, least: float = REPLAN_OVERLAP) -> bool:
    """A dated episode that was a plan ("booked LH 455 on March 14", "4 月 15 日上线") is outdated when a newer
    memory in its own script says the plan moved or ended and repeats much of it (`REPLAN_OVERLAP`). A past event
    ("the restore drill on March 3 took 40 minutes") is not: "restores now take 15 minutes" names no plan change."""
    return PLAN_CHANGE.search(new) is not None and overlap(old, new) >= least



#: words that say whose fact it is, not which fact: sharing only these is no anchor
GENERIC = frozenset({"user", "users", "用户", "team", "团队", "我们", "公司", "the", "our",
                     # units of time: "per month" and 每月 say how often, not what
                     "month", "months", "day", "days", "week", "weeks", "year", "years", "每月", "每天", "每周", "每年"})


@lru_cache(maxsize=4096)
def anchors(old: str, new: str) -> frozenset[str]:
    """Content terms both texts mention (an entity, a number, a word), not counting change cues or generic words;
    across scripts also the English words of one that the dictionary gives for the other's Chinese words
    (房租 / "rent", 航班 / "flight": `bilingual.shared_meaning`)."""
    shared = _terms(old) & _terms(new)
    found = {t for t in shared if len(t) >= 2 and t not in GENERIC and not CHANGE_CUE.fullmatch(t)}
    groups = bias_group(old), bias_group(new)
    if not found and groups[0] != groups[1]:  # the dictionary only when no word is shared
        chinese, english = (old, new) if groups[0] == "zh" else (new, old)
        # a change cue is no anchor: "不再" and "no longer" say that something changed, not what
        found |= {w for w in shared_meaning(CHANGE_CUE.sub(" ", chinese), CHANGE_CUE.sub(" ", english))
                  if w not in GENERIC}
        found |= name_keys(english, latin=True) & name_keys(chinese, latin=False)
    return frozenset(found)


def states_change(text: str) -> bool:
    return CHANGE_CUE.search(text) is not None


#: read time only, when `SlotRule.value_moved` (round 21, off; the write side keeps `CHANGE_CUE`): a value moved to
#: a number - a Chinese verb and 到 before a number or 每 (放宽到1分45秒, 推到12月, 扩到每期8个人) - or a date from which it holds ("From 1 September
#: Fitzroy opens at 6:30am"; `CHANGE_CUE` reads "from September", not a day before the month)
VALUE_MOVED = re.compile(
    r"[\u4e00-\u9fff]到\s*(?:每.{0,2})?[\d一二两三四五六七八九十百]"
    r"|\bfrom (?:\d{1,2}(?:st|nd|rd|th)? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*"
    r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{1,2}(?:st|nd|rd|th)?)\b",
    re.IGNORECASE,
)


def states_change_read(text: str) -> bool:
    """A change the read-time rule takes: `CHANGE_CUE`, or a value moved to a number or from a day (`VALUE_MOVED`)."""
    return states_change(text) or VALUE_MOVED.search(text) is not None


def states_new_change(old: str, new: str) -> bool:
    """`new` states a change (`CHANGE_CUE`) in words `old` does not use: a cue both share is part of their common
    topic ("code changes to", "the flight was delayed", 提前一天报备), not news of a change."""
    found = {m.group(0).lower() for m in CHANGE_CUE.finditer(new)}
    return bool(found - {m.group(0).lower() for m in CHANGE_CUE.finditer(old)})



#: a newer memory that says it adds ("now also signs", 另外, 同时) supplements the older one, it does not restate it
ADDITIVE = re.compile(r"\b(?:also|as well|in addition|additionally)\b|另外|此外|同时|也会|也要|也在|也是|还会|还要",
                      re.IGNORECASE)

#: whose fact a text states: an English possessive ("Anna's", "Tom's") or the two Han characters before 的 (张伟的)
_OWNER = re.compile(r"\b([A-Z][a-z]+)['’]s\b|([\u4e00-\u9fff]{2})的")


def other_owners(old: str, new: str) -> bool:
    """Each text names an owner the other does not mention ("Anna's extension" / "Ben's extension", 张伟的手机 /
    李娜的手机): two people's facts, not two versions of one."""
    def owners(text: str) -> set[str]:
        return {a or b for a, b in _OWNER.findall(text)}
    return any(o not in new for o in owners(old)) and any(o not in old for o in owners(new))


def subject_kept(old: str, new: str) -> bool:
    """The older text's first content term (its subject: "Tom", 刘洋, "design" of "the design review") is among the
    newer one's terms: without a change word, a newer text that does not name the older one's subject is about
    something else ("the design review" / "the security review", both in room Bern on the billing page)."""
    first = subject_term(old)
    return first is None or first in _terms(new)


def subject_term(text: str) -> str | None:
    """A text's first content term, stemmed: what `subject_kept` reads as its subject."""
    first = next((t for t in query_terms(text) if len(t) >= 2 and t not in GENERIC and not t.isdigit()), None)
    return None if first is None else stem(first)



def new_value(old: str, new: str, cos: float, bar: tuple[float, int] | None) -> bool:
    """The newer text gives a number of one kind in place of the older one's (`renumber.number_replaced`, one of them
    gone), the pair already close enough for the change tier (`bar`); read only then, so most pairs read no text."""
    return (bar is not None and cos >= bar[0] and bool(number_replaced(old, new, every=False))
            and _same_unit(old, new))


#: a number and the word right after it (its unit or the thing counted: "12 bikes", "18,000 元", "1分45秒", "7am")
_NUMBER_NEXT = re.compile(r"(\d[\d,.:]{0,39})\s*([A-Za-z]+|[\u4e00-\u9fff])")
#: words beside a number that name no thing ("is 4" / "is 3", "at 10" / "at 11")
_NOT_A_UNIT = frozenset(["i", "is", "are", "was", "were", "be", "at", "to", "of", "on", "in", "for", "by", "about",
                         "around", "the", "a", "an", "from", "until", "till", "and", "or", "only", "now", "it", "its",
                         "than", "over", "under", "up", "down", "after", "before", "with", "per", "x", "是", "在",
                         "为", "到", "和", "或", "约", "共", "第"])


def _same_unit(old: str, new: str) -> bool:
    """A number of the older text the newer one lacks and a number of the newer one the older lacks share the word
    right after them: the same thing counted or measured ("12 bikes" / "18 bikes", 600公斤 / 450公斤, 7am / 6:30am),
    not another figure of the same topic ("before 10:00 on Sundays" / "24 hours before any call"; a currency or a
    month before two numbers is no such word: "CAD 249" / "CAD 219" were two products)."""
    def marks(text: str) -> set[tuple[str, str]]:
        return {(m.group(1).replace(",", ""), m.group(2).lower().rstrip("s")) for m in _NUMBER_NEXT.finditer(text)}
    a, b = marks(old), marks(new)
    gone = {w for n, w in a if n not in {x for x, _ in b}}
    came = {w for n, w in b if n not in {x for x, _ in a}}
    return bool((gone & came) - _NOT_A_UNIT)
