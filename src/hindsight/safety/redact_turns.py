"""A code given in the dialogue turn that answers a request for it (redaction round 33, issue 10).

``redact_roles`` reads a chat turn that is only a number after a turn that names a code. People answer with more than
the number: "shop: it's 4 0 9 1 7 3, hurry", "Amy: 7-3-9-0-1-4, it expires in a minute", "- Sure: 5 8 1 3. Don't save
it.", "店员：是 6 0 4 8 1 2，别告诉别人", "B：就是 2 7 5 0 9 3". Here a turn - a line, after an optional time stamp and
a speaker's label or a dash - that opens with the code (after at most two short leads: it's / here / sure / 是 / 就是)
and then ends or goes on after a clause break (a comma, a full stop, a dash) is a code, when one of the two turns before
it names a one-time code, a PIN or a passcode ("the app wants a code", "验证码多少？"). A code read digit by digit
("4 0 9 1 7 3", "7-3-9-0-1-4") counts as its digits; a fixture (123456, 000000), a year or a number with a unit after it
is no code; an error / zip / promo code asked for names no secret. Linear: one pass over the lines, each match anchored.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from hindsight.safety.redact_roles import code_noun_pattern, code_shaped, not_secret_code

Span = tuple[str, int, int]

_ASKS = re.compile(code_noun_pattern() + r"|(?i:\b(?:pin|passcode)\b)")
# A turn's head: a time stamp, then a speaker's label and a colon, or a dash / bullet.
_HEAD = re.compile(r"\s*(?:\[[^\]\n]{1,20}\]\s*)?(?:[\w\u4e00-\u9fff][\w\u4e00-\u9fff .'-]{0,20}\s*[:：]|[-–—*•>])?\s*")
_LEAD = r"(?:(?:it'?s|it\s+is|that'?s|here(?:'s|\s+is)?(?:\s+it)?|sure|ok(?:ay)?|yes|yep|the\s+code\s+is|code\s+is|是|就是|给你|好的?|嗯)\s*[:：,，]?\s*){0,2}"
_ANSWER = re.compile(r"(?i)" + _LEAD + r"[\"'“]?(?P<v>\d(?:[ -]\d){3,7}|\d{3}[ -]\d{3}|\d{4,8})[\"'”]?"
                     r"[#＃]?(?=\s*(?:$|[,，.。!！;；]|\s[-–—]\s))")  # round 40: a keypad's code keyed with "#" ("5519#")
_UNIT_AFTER = re.compile(r"(?i)\s*(?:位|个|次|分钟|秒|小时|天|年|元|号|%|digits?\b|minutes?\b|mins?\b|seconds?\b|hours?\b|days?\b|"
                         r"people\b|items\b|times\b|reps\b)")


# Round 37 (blind r35): an answer that opens with a label before the value - "您的取镜码是 6621", "the gate code's 2691",
# "Locker 12's code is 5581": a short noun phrase ending in a code's, a PIN's or a password's noun, then "is" / 是 / a
# colon. The label names no other number (an order, a room, a ticket: "您的订单号是 ...") and no code that is no secret
# (an error / zip / promo code, a QR code, a barcode, a postcode: 二维码, 条码, 编码).
_LABEL = re.compile(r"(?i)(?:(?:your|the|my|our|this|您|你|我们)(?:的)?\s*)?(?P<l>[^\n,，。.!?！？:：;；]{0,16}?)"
                    r"(?P<n>(?<![维条形编邮号源代乱])码|\bcode|(?-i:PIN)|\bpasscode|\bpassword|密码|口令)"
                    r"(?:'s\b|\s+is\b|\s*(?:是|为|[:：]))\s*")
_OTHER_NUMBER = re.compile(r"(?i)\b(?:order|room|ticket|tracking|booking|invoice|flight|table|seat|error|zip|postal|post|promo|"
                           r"discount|coupon|area|country|source|qr|bar)\b|订单|单号|房|票|桌|座|航班|错误|邮|优惠|折扣|区号|二维|条形")


def answer_label(text: str, say: int, end: int) -> int:
    """Where the value starts after a label that opens an answer (``say`` when there is none)."""
    m = _LABEL.match(text, say, end)
    if m is None or _OTHER_NUMBER.search(m.group("l")) or not_secret_code(text, m.start("n")):
        return say
    return m.end()


def turns(text: str, head: re.Pattern[str]) -> Iterator[tuple[int, int, int]]:
    """Each line of `text` as a dialogue turn: (its index, where what is said starts - after `head`, a time stamp and a
    speaker's label or a dash - and where the line ends), offsets into `text`."""
    pos = 0
    for i, line in enumerate(text.split("\n")):
        start, end = pos, pos + len(line)
        pos = end + 1
        m = head.match(text, start, end)
        yield i, (m.end() if m else start), end


# Round 40: a request stays open past the two turns after it - up to five - while every turn between only stalls ("one
# sec", "found it", "稍等", "why": short, no digit, no question of its own), and the answer is not the asker's own turn.
_STALL_REACH = 5
_STALL_LEN = 60
_SPEAKER = re.compile(r"\s*(?:\[[^\]\n]{1,20}\]\s*)?(?P<s>[@\w\u4e00-\u9fff][\w\u4e00-\u9fff .'-]{0,20}?)\s*[:：]")


def _speaker(text: str, say: int) -> str:
    start = text.rfind("\n", 0, say) + 1
    m = _SPEAKER.match(text, start, say)
    return m.group("s").strip().lower() if m else ""


def still_open(text: str, said: list[tuple[int, int]], at: int, i: int) -> bool:
    """Is the request made in turn `at` still open at turn `i`? `said` holds each turn's (start of what is said, end)
    up to turn `i`: the next two turns always; up to five when the turns between only stall and another speaker answers."""
    if not 0 < i - at <= _STALL_REACH:
        return False
    if i - at <= 2:
        return True
    asker = _speaker(text, said[at][0])
    if asker and asker == _speaker(text, said[i][0]):
        return False
    return all(end - say <= _STALL_LEN and not any(ch.isdigit() or ch in "?？" for ch in text[say:end])
               for say, end in said[at + 1 : i])


def _names_code(text: str, start: int, end: int) -> bool:
    m = _ASKS.search(text, start, end)
    return m is not None and not not_secret_code(text, m.start())


def find_turn_codes(text: str) -> list[Span]:
    """Codes that open the turn answering a request for one."""
    if "\n" not in text:
        return []
    out: list[Span] = []
    asked_at = -10
    said: list[tuple[int, int]] = []
    for i, say, end in turns(text, _HEAD):
        said.append((say, end))
        if still_open(text, said, asked_at, i):
            m = _ANSWER.match(text, say, end) or _ANSWER.match(text, answer_label(text, say, end), end)
            if m is not None:
                digits = re.sub(r"\D", "", m.group("v"))
                if code_shaped(digits) and not _UNIT_AFTER.match(text, m.end("v")):
                    out.append(("otp", *m.span("v")))
                    continue
        if _names_code(text, say, end):
            asked_at = i
    return out
