"""Episodes are occurrences (hygiene round 20, issue 10): whether two records report two things that happened.

An episodic or warning record that reports something that happened - a failure, an incident, an alert, a stand-up,
a run - is an occurrence. A later occurrence of the same kind ("Task failed: X" after "Task failed: Y", the fifth
report of a recurring incident on another day) is neither a change of the earlier one nor a restatement of it, so
hygiene only links the two (`hygiene._separate_events`). The same occurrence still merges: the same text re-sent
within `SAME_WINDOW` by a retrying client, or in one session / run, or a rewording with the same details.

Lexical only (EN / ZH); semantic facts are never read here.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import timedelta

from hindsight.model import MemoryRecord, MemoryType
from hindsight.write.conversions import written_alike
from hindsight.write.same_fact import agreement

__all__ = ["OCCURRENCE_TYPES", "SAME_WINDOW", "distinct_occurrences", "occurrence_report"]

#: the types whose records are occurrences when they report one
OCCURRENCE_TYPES = (MemoryType.episodic, MemoryType.warning)
#: the same text without any distinguishing detail is one occurrence when written within this window (a retry)
SAME_WINDOW = timedelta(hours=1)

_EN = re.compile(
    r"\b(?:fail(?:ed|s|ure|ures|ing)?|errors?|errored|crash(?:ed|es)?|incidents?|outages?|alerts?|alarms?|"
    r"warnings?|time[sd] out|timeouts?|exceptions?|stand-?ups?|retro(?:spective)?s?|paged|went down|"
    r"broke|oom|run #?\d+|again|rolled back|aborted|tripped)\b")
_ZH = re.compile(r"失败|报错|出错|故障|告警|报警|宕机|崩溃|超时|异常|站会|晨会|又一次|再次|又出|跳闸|回滚|中断")
#: the new text reschedules or ends a recurring thing ("stand-up moved to 10:00", "周会改到周四") or corrects the
#: report ("Correction: it happened at 14:40"): a change, judged as before
_RESCHEDULE_EN = re.compile(r"\b(?:moved|rescheduled|postponed|cancell?ed|pushed (?:back|to)|brought forward|"
                            r"from now on|going forward|no longer|correction|corrected|actually)\b")
_RESCHEDULE_ZH = re.compile(r"改到|改成|改为|改在|推迟|延期|提前到|取消|以后|今后|不再|更正|纠正|说错|记错|其实是|应该是")
_WORD = re.compile(r"[a-z0-9]+|[\u4e00-\u9fff]")
_STOP = frozenset("the a an of to in on at for and or with while was were is are by from it its this that be been "
                  "has had have as our we i".split())
#: shared leading tokens that make two reports one template ("Task failed: the nightly export ...")
TEMPLATE_HEAD = 2


def occurrence_report(text: str) -> bool:
    """Whether `text` reports something that happened (a failure, incident, alert, stand-up, run), EN / ZH."""
    return bool(_EN.search(text.lower()) or _ZH.search(text))


def _same_text(a: str, b: str) -> bool:
    return " ".join(unicodedata.normalize("NFKC", a).split()) == " ".join(unicodedata.normalize("NFKC", b).split())


def _tokens(text: str) -> list[str]:
    return _WORD.findall(unicodedata.normalize("NFKC", text).lower())


def _other_cause(old: str, new: str) -> bool:
    """One template, another detail: a shared head of at least `TEMPLATE_HEAD` tokens, and what follows it on each
    side shares no content token ("Task failed: the export timed out ..." / "... ran out of memory ...")."""
    a, b = _tokens(old), _tokens(new)
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    if head < TEMPLATE_HEAD:
        return False
    rest_a = {t for t in a[head:] if t not in _STOP}
    rest_b = {t for t in b[head:] if t not in _STOP}
    return bool(rest_a and rest_b) and not rest_a & rest_b


def distinct_occurrences(old: MemoryRecord, new: MemoryRecord) -> bool:
    """Whether `old` and `new` are two occurrences: never merged, never one retiring the other, only linked.

    Both of one occurrence type (episodic, warning) and both reports of something that happened; then two when
    their runs (`source_task_id`) differ, when the same text was written more than `SAME_WINDOW` apart (event or
    write time) in no shared session, or when the texts differ in a detail: a value (date, time, number, id) on one
    side the other lacks, or one template with another cause - unless the new text reschedules or ends something
    ("moved to", "取消"). Same session and run, or a rewording with the same
    details: one occurrence (the judge decides as before)."""
    if old.type != new.type or old.type not in OCCURRENCE_TYPES:
        return False
    if not (occurrence_report(old.content) and occurrence_report(new.content)):
        return False
    if _RESCHEDULE_EN.search(new.content.lower()) or _RESCHEDULE_ZH.search(new.content):
        return False  # a recurring meeting or job rescheduled or ended: the judge reads the change
    if old.source_task_id and new.source_task_id and old.source_task_id != new.source_task_id:
        return True
    if old.session_id and old.session_id == new.session_id:
        return False  # one session: its turns are judged by `hygiene._two_events`
    if _same_text(old.content, new.content):
        when_old, when_new = old.event_time or old.created_at, new.event_time or new.created_at
        return abs(when_new - when_old) > SAME_WINDOW
    if agreement(*written_alike(old.content, new.content)).unmatched:
        return True
    return _other_cause(old.content, new.content)
