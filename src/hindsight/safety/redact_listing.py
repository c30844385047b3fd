"""A business listing: a shop's address given with its opening hours is published (redaction round 34, issue 10).

"Sunny Side Bikes, 402 Valencia St, San Francisco, CA 94110 - open daily 10-6, call ...", "Corner Books - 77 King
Street, Bristol, opening hours Mon-Sat 9:00-17:30", "老街面馆，解放路128号，每天10:00-21:00营业", "小熊洗衣，建国路56号，营业时间
8:00-20:00": opening hours after the address, in its sentence or in a next sentence that opens with them (a listing
goes on past a full stop: "..., Wellington 6011. Open Tue-Sun 11am-9pm, tel ..."). A person's cue or a home word in the
clause before the address or between it and the hours wins ("My place is 12 Elm Street - open house Sunday 1-4",
"我家在幸福路8号，周末10:00-18:00都在家": no hours of a business there either).
"""

from __future__ import annotations

import re

_DAY = r"(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?"
_HOURS = re.compile(
    r"(?i)\b(?:open(?:s|ing)?\s+(?:daily|every\s+day|7\s+days|weekdays|" + _DAY + r"|\d{1,2}(?::\d{2})?\s*(?:am|pm)?\s*[-–~to]+\s*\d)|"
    r"(?:opening|business|shop|store)\s+hours\b|hours\s*[:：]\s*(?:" + _DAY + r"|\d)|" + _DAY + r"\s*[-–~]\s*" + _DAY + r"\s+\d{1,2}(?::\d{2})?\s*(?:am|pm)?\s*[-–~]\s*\d)|"
    r"营业时间|营业至|每天\s*\d{1,2}[:：点]\d{0,2}\s*[-–~至到]\s*\d{1,2}[:：点]?\d{0,2}\s*营业|(?:周|星期)[一二三四五六日天]\s*[-–~至到]\s*(?:周|星期)?[一二三四五六日天][^，。；\n]{0,12}营业|全年无休|24\s*小时营业"
)
_PERSON_OR_HOME = re.compile(
    r"(?i)\b(?:my|me|mine|his|her|their|our\s+(?:home|house|flat)|home|house|flat|apartment|lives?|living|open\s+house|garage\s+sale|"
    r"mr|mrs|ms|dr)\b|我|他家|她家|(?<![厂商店国大专卖买行东])家(?![具电])|住"
)
_STOP = re.compile(r"[。！？；;!?\n]|\.(?=\s)")


def listed_with_hours(text: str, start: int, end: int) -> bool:
    """Is the address at ``start:end`` a business's, given with its opening hours and no person's or home's cue?"""
    left = max((m.end() for m in _STOP.finditer(text, max(0, start - 60), start)), default=max(0, start - 60))
    if _PERSON_OR_HOME.search(text, left, start):
        return False
    window = text[end : end + 120]
    stops = list(_STOP.finditer(window))
    hours = _HOURS.search(window, 0, stops[0].start() if stops else len(window))
    if hours is None and stops:  # the next sentence opens with the hours ("... 6011. Open Tue-Sun 11am-9pm")
        nxt = stops[0].end()
        hours = _HOURS.match(window, nxt + len(window[nxt:]) - len(window[nxt:].lstrip()))
    return hours is not None and not _PERSON_OR_HOME.search(window, 0, hours.start())
