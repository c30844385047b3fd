"""Values a found value vouches for (round 13): once one value in a text is known to be sensitive, the values that
repeat it or stand beside it in its own record or sentence are too. One mechanism, four relations, EN and ZH:

- *restated*: a spoken number (spelled digits, Chinese numerals, digits spaced one by one; ``redact_spelled``) whose
  digits repeat a found card, phone, account or ID - the same digits, or the same first six or more ("three seven one
  four, ... - so 3714 496353 21005", "一三九，零一七二，八八四六，就是 13901728846");
- *a sibling*: in the sentence of a found account or card, a number of the same length that shares its first half
  ("acct# 5566021987 (Chase), split 80/20 with savings 5566021995");
- *its record*: in a record (SQL tuple, YAML, form lines) holding a found card, the value under an expiry key
  (exp, expiry, valid thru, 有效期); holding a found address, the value under a postcode key (postcode, ZIP, 邮编);
  holding a found secret key, the value under its access-key partner's key (ak, app_key, access_key_id, appkey);
- *the address's own detail*: "(2nd floor, left door)", "flat 3", "apt 4B" right after a found address;
- *a phone listed with it* (round 25): "Jin +1-555-0147, Paula 555.0193, and me on 555 0128";
- *a password listed after it* (round 28, ``redact_listed``): "login tashi / X, and the spreadsheet opens with Y",
  "电脑密码改成 X 了，收银系统的是 Y";
- *a code of the same shape* (round 14): in a found one-time code's sentence, another grouped code written exactly
  like it ("backup codes: 5521-0937, 4410-2268; used up 7713-5046", "备用码 3307-1186、已作废 2291-7730").

Nothing here fires in a text where no finder found a value of the kind, so look-alikes without a secret are
untouched by construction.
"""

from __future__ import annotations

import bisect
import re

from hindsight.safety.redact_listed import find_listed_passwords
from hindsight.safety.redact_records import record_pairs
from hindsight.safety.redact_spelled import spoken_runs

Span = tuple[str, int, int]

_NUMBER_KINDS = frozenset({"card", "phone", "bank_account", "national_id", "cn_id", "other_id", "otp"})
_SIBLING_KINDS = frozenset({"card", "bank_account"})
_NUMBER = re.compile(r"(?<![\w.-])\d(?:[ -]?\d){5,}(?![\w-]|[.,]\d)")
_SENTENCE_END = re.compile(r"[.!?。！？]\s|\n|[。！？]")
_EXPIRY_KEY = re.compile(r"(?i)^(?:card[_ ]?)?(?:exp|expiry|expiration|expires|exp[_ ]?date|expiry[_ ]?date|expiration[_ ]?date|"
                         r"valid[_ ]?(?:thru|through|until)|mm[_/]?yy)$|^(?:卡)?有效期(?:至)?$|^到期(?:日|时间)?$")
_EXPIRY_VALUE = re.compile(r"(?:0?[1-9]|1[0-2])\s?[/-]\s?(?:20)?\d{2}|20\d{2}\s?[/-]\s?(?:0?[1-9]|1[0-2])|20\d{2}\s?年\s?\d{1,2}\s?月")
# An expiry split over two keys ("exp_month=11&exp_year=2026", expiryYear, 有效期月份): each half under its own key.
_EXPIRY_PART_KEY = re.compile(r"(?i)^(?:card[_ ]?)?(?:exp|expiry|expiration|expires)[_ ]?(?:(?P<m>month|mon|mm)|year|yr|yy(?:yy)?)$|"
                              r"^(?:卡)?(?:有效期|到期|过期)(?:(?P<zm>月份?)|年份?)$")
_MONTH_VALUE = re.compile(r"0?[1-9]|1[0-2]")
_YEAR_VALUE = re.compile(r"(?:20)?\d{2}")
_POSTCODE_KEY = re.compile(r"(?i)^(?:post[_ ]?code|postal[_ ]?code|zip(?:[_ ]?code)?|邮编|邮政编码)$")
_POSTCODE_VALUE = re.compile(r"(?i)[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}|\d{5}(?:-\d{4})?|\d{6}|[A-Z]\d[A-Z]\s?\d[A-Z]\d|\d{4}")
_SECRET_KEY = re.compile(r"(?i)^(?:\w*[_-])?(?:sk|secret|app[_-]?secret|secret[_-]?(?:access[_-]?)?key|access[_-]?key[_-]?secret)$")
_ACCESS_KEY = re.compile(r"(?i)^(?:\w*[_-])?(?:ak|app[_-]?key|appkey|access[_-]?key(?:[_-]?id)?|accesskeyid|key[_-]?id)$")
_ACCESS_VALUE = re.compile(r"[A-Za-z0-9_-]{12,64}")
_ADDRESS_DETAIL = re.compile(
    r"(?i)[ \t]*,?[ \t]*(?:[A-Z][a-z]+[ \t]*,?[ \t]*)?(?P<v>\((?:[^()\n]{0,12}\b(?:floor|fl\.|door|flat|apt\.?|apartment|unit|suite|"
    r"staircase|porte|étage|piso)\b[^()\n]{0,24})\)|（[^（）\n]{0,12}[\d一二三四五六七八九十]\s*(?:楼|层|室|单元)[^（）\n]{0,12}）)"
)


def _digits(value: str) -> str:
    return re.sub(r"\D", "", value)


class _Taken:
    """Overlap tests against a set of spans by bisection over their merged ranges (linear-logarithmic overall)."""

    def __init__(self, spans: list[Span]) -> None:
        merged: list[list[int]] = []
        for _, a, b in sorted(spans, key=lambda s: s[1]):
            if merged and a < merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], b)
            else:
                merged.append([a, b])
        self._starts = [m[0] for m in merged]
        self._merged = merged

    def overlaps(self, start: int, end: int) -> bool:
        i = bisect.bisect_left(self._starts, end) - 1
        return i >= 0 and self._merged[i][1] > start


def _restated(text: str, spans: list[Span]) -> list[Span]:
    """A spoken number whose first six digits are a found number's (no card, phone or account is over 40 digits)."""
    found: dict[str, str] = {}
    for kind, a, b in spans:
        digits = _digits(text[a:b])
        if kind in _NUMBER_KINDS and 6 <= len(digits) <= 40:
            found.setdefault(digits[:6], kind)
    out: list[Span] = []
    taken = _Taken(spans)
    for start, end, run in spoken_runs(text) if found else []:
        digits = _digits(run)
        named = found.get(digits[:6]) if 6 <= len(digits) <= 40 else None
        if named and not taken.overlaps(start, end):
            out.append((named, start, end))
    return out


def _sentence(text: str, start: int, end: int) -> tuple[int, int]:
    lo = max((m.end() for m in _SENTENCE_END.finditer(text, max(0, start - 200), start)), default=max(0, start - 200))
    stop = _SENTENCE_END.search(text, end, end + 200)
    return lo, stop.start() if stop else min(len(text), end + 200)


def _siblings(text: str, spans: list[Span]) -> list[Span]:
    """In a found account's or card's sentence (200 characters either side at most), a number of its length that
    shares its first half."""
    by_sentence: dict[tuple[int, int], dict[tuple[int, str], str]] = {}
    for kind, a, b in spans:
        digits = _digits(text[a:b])
        if kind in _SIBLING_KINDS and 6 <= len(digits) <= 34:
            half = max(4, len(digits) // 2)
            by_sentence.setdefault(_sentence(text, a, b), {}).setdefault((len(digits), digits[:half]), kind)
    taken = _Taken(spans)
    out: list[Span] = []
    for (lo, hi), keys in by_sentence.items():
        for m in _NUMBER.finditer(text, lo, hi):
            other = _digits(m.group(0))
            sibling = keys.get((len(other), other[: max(4, len(other) // 2)]))
            if sibling and not taken.overlaps(*m.span()):
                out.append((sibling, *m.span()))
    return out


# A grouped code: two to four groups, each with a digit (letters allowed), joined by a dash or a space.
_GROUP = r"(?=[A-Za-z]{0,7}\d)[A-Za-z0-9]{3,8}"
_GROUPED_CODE = re.compile(r"(?<![\w-])" + _GROUP + r"(?:[- ]" + _GROUP + r"){1,3}(?![\w-])")


_NAMED_OTHER = re.compile(r"(?i)(?<![A-Za-z])(?:order|invoice|ticket|tracking|ref(?:erence)?|case|booking|serial|phone|tel)(?![A-Za-z])"
                          r"[^\d\n]{0,12}$|(?:订单|单号|工单|快递|运单|序列号|电话)[^\d\n]{0,8}$")


def _shape(value: str) -> str:
    return re.sub(r"[A-Za-z]", "a", re.sub(r"\d", "9", value))


def _same_shape_codes(text: str, spans: list[Span]) -> list[Span]:
    """In a found one-time code's sentence, another code of exactly its grouped shape (``9999-9999``)."""
    by_sentence: dict[tuple[int, int], set[str]] = {}
    for kind, a, b in spans:
        value = text[a:b]
        if kind == "otp" and _GROUPED_CODE.fullmatch(value) and len(_digits(value)) >= 6:
            by_sentence.setdefault(_sentence(text, a, b), set()).add(_shape(value))
    taken = _Taken(spans)
    out: list[Span] = []
    for (lo, hi), shapes in by_sentence.items():
        for m in _GROUPED_CODE.finditer(text, lo, hi):
            if (_shape(m.group(0)) in shapes and not taken.overlaps(*m.span())
                    and not _NAMED_OTHER.search(text, max(lo, m.start() - 24), m.start())):  # "order 7731 0093" is named
                out.append(("otp", *m.span()))
    return out


# Round 25: a phone-shaped number listed with a found phone ("Jin +1-555-0147, Paula 555.0193, and me on 555 0128"):
# contacts listed together are the same kind, whatever separator each is written with.
_PHONE_SHAPE = re.compile(r"(?<![\w.+-])(?:\+?\d{1,3}[ .-])?(?:\(?\d{2,4}\)?[ .-])?\d{3,4}[ .-]\d{4}(?![\w-]|[.,]\d)")
_LISTED = re.compile(r"(?i)[,;/、，；]|\band\b|\bor\b|和|或")


def _listed_phones(text: str, spans: list[Span], public: list[tuple[int, int]]) -> list[Span]:
    """In a found phone's sentence, a phone-shaped number within 60 characters of it with a list separator between
    (never one judged public: "my cell ..., or the hotline 0800 ...")."""
    phones = [(a, b) for kind, a, b in spans if kind == "phone"]
    if not phones:
        return []
    taken = _Taken(spans + [("public", a, b) for a, b in public])
    out: list[Span] = []
    for a, b in phones:
        lo, hi = _sentence(text, a, b)
        for m in _PHONE_SHAPE.finditer(text, lo, hi):
            gap = text[b : m.start()] if m.start() >= b else text[m.end() : a]
            if (len(gap) <= 60 and _LISTED.search(gap) and not taken.overlaps(*m.span())
                    and not _NAMED_OTHER.search(text, max(lo, m.start() - 24), m.start())):
                out.append(("phone", *m.span()))
    return out


def _record_neighbours(text: str, spans: list[Span]) -> list[Span]:
    kinds = {s[0] for s in spans}
    want_expiry = bool(kinds & {"card", "cvv"} or "bank_account" in kinds and re.search(r"(?i)\bcards?\b|卡", text))
    want_postcode = "address" in kinds
    pairs = list(record_pairs(text)) if want_expiry or want_postcode or "api_key" in kinds else []
    keys = _Taken([s for s in spans if s[0] == "api_key"])
    secret_record = any(_SECRET_KEY.match(k) and keys.overlaps(a, b) for k, a, b in pairs)
    taken = _Taken(spans)
    out: list[Span] = []
    for key, a, b in pairs:
        value = text[a:b].strip()
        if not value or taken.overlaps(a, b):
            continue
        part = _EXPIRY_PART_KEY.match(key) if want_expiry else None
        if want_expiry and _EXPIRY_KEY.match(key) and _EXPIRY_VALUE.fullmatch(value):
            out.append(("card_expiry", a, b))
        elif part and (_MONTH_VALUE if part.group("m") or part.group("zm") else _YEAR_VALUE).fullmatch(head := value.split()[0]):
            start = a + text[a:b].index(head)  # the record's last item may run on into prose: "exp_year=29 leaked ..."
            out.append(("card_expiry", start, start + len(head)))
        elif want_postcode and _POSTCODE_KEY.match(key) and _POSTCODE_VALUE.fullmatch(value):
            out.append(("address", a, b))
        elif secret_record and _ACCESS_KEY.match(key) and _ACCESS_VALUE.fullmatch(value) and re.search(r"\d", value):
            out.append(("api_key", a, b))
    return out


# Round 43: the postcode a found address's sentence goes on to give under its label ("...2栋1单元，邮编610041",
# "..., Leeds, postcode LS6 2QP"), glued or after a colon; only the label's own shape of value. ("zip" measured, left out:
# it moved a released non-PII text.)
_POSTCODE_AFTER = re.compile(r"(?i)[^\n.。!?！？;；]{0,40}?(?:邮编|邮政编码|\bpost(?:al)?\s?code)\s*[:：]?\s*"
                             r"(?P<v>" + _POSTCODE_VALUE.pattern[4:] + r")(?![\w-])")


def _address_details(text: str, spans: list[Span]) -> list[Span]:
    out: list[Span] = []
    taken = _Taken(spans)
    for kind, _a, b in spans:
        if kind == "address":
            m = _ADDRESS_DETAIL.match(text, b)
            if m and not taken.overlaps(*m.span("v")):
                out.append(("address", m.start("v") + 1, m.end("v") - 1))
            m = _POSTCODE_AFTER.match(text, b)
            if m and not taken.overlaps(*m.span("v")):
                out.append(("address", *m.span("v")))
    return out


def find_echoes(text: str, spans: list[Span], public: list[tuple[int, int]] | None = None) -> list[Span]:
    """The values ``spans`` (findings already made, kind ``public`` excluded) vouch for; ``public``: ranges judged public
    (``redact_vet.vet``), never taken by a listed phone."""
    spans = [s for s in spans if s[0] != "public"]
    if not spans:
        return []
    return (_restated(text, spans) + _siblings(text, spans) + _same_shape_codes(text, spans) + _record_neighbours(text, spans)
            + _address_details(text, spans) + _listed_phones(text, spans, public or []) + find_listed_passwords(text, spans))
