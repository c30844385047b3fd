"""Phones announced by a cue or written in a phone's own national shape (moved out of ``redact_cues``, round 33).

A number after a contact word ("call", "mobile", "电话", "微信") is a phone when it has 7-15 digits and is not a
version or a clock time; a landline, a spaced NANP number, a dotted or spaced Chinese mobile and a UK / French mobile
are phones by their shape alone, unless the number is a quantity (a unit after it, a total or a part number before it:
``is_quantity``, also read by the contact and tagger readings).
"""

from __future__ import annotations

import re

from hindsight.safety.redact_cues import CUE_SEP as _SEP

Span = tuple[str, int, int]

# --------------------------------------------------------------------------- phones announced by a cue

_PHONE_CUE = re.compile(
    r"(?i)(?:\b(?:phone|tel|telephone|mobile|cell|cellphone|call|text|whatsapp|wechat|signal|telegram|fax|contact\s+number|"
    r"hotline|reach(?:\s+(?:me|him|her|them|us))?|ring|(?:phone|mobile|cell|contact)\s+number|(?<=['’]s)\s+(?:number|cell|mobile))\b(?:\s+(?:me|us|him|her|them|back|number|no\.?))?(?:\s+(?:at|on|via|to))?|"
    r"(?:电话|手机号?码?|联系方式|联系电话|(?<![票单递流序列型编批照证卡])号码|座机|传真|微信(?!支付|商户|小程序|公众|群|开放)|致电|打给|拨打)[\u4e00-\u9fff]{0,4}?)"
    + _SEP + r"(?P<value>\+?\(?\d[\d ().-]{5,20}\d)(?![\d.-])"
)
_CN_MOBILE_DOTTED = re.compile(r"(?<![\d.])1[3-9]\d\.\d{4}\.\d{4}(?![\d.]|\.\d)")
# UK mobiles (07700 900123, 07700 900 123) and French mobiles (06 12 34 56 78).
# Round 25: a full stop after the number ends the sentence ("on his mobile 07700 900461."); only ".5" is a decimal.
# Round 41 (blind r38): hyphenated groups too ("07123-456-789"), a hyphen both times.
_UK_MOBILE = re.compile(r"(?<![\d+])(?:07\d{3}(?:\s?\d{3}\s?|-\d{3}-(?=\d{3}(?!-\d)))\d{3}|0[67](?:[ .]\d{2}){4})(?!\d|\.\d|\s\d)")
# A count, not a phone: "total events: 13872645019", "共执行 18612345678 次".
_QUANTITY_AFTER = re.compile(r"\s*(?:次|个|条|笔|行|元|件|人|words?\b|times\b|events\b|requests\b|ops\b|rows\b|bytes\b|records\b|"
                             r"hashes\b|items\b|users\b|calls\b|tokens\b|lines\b)", re.IGNORECASE)
_QUANTITY_BEFORE = re.compile(r"(?i)(?:total|count|sum|events|requests|共|总计|合计|累计|执行|处理)[^\n\d]{0,12}$"
                              r"|(?:part\s+(?:no\.?|number)|\bSKU|model\s+(?:no\.?|number)|编码|编号|料号|货号|型号|条码)[^\n\d]{0,4}$"
                              # round 43: a bare model or a batch / lot ("model 0472-5318800", "Batch 86-10-6275-1234")
                              r"|\b(?:model|batch|lot)\s*(?:no\.?|number|#)?\s*[:#]?\s*$"
                              # round 25: an amount of money ("£250", "USD 1200") is a quantity, not a code
                              r"|[$£€¥￥₹₩]\s?$|\b(?:usd|eur|gbp|rmb|cny|jpy|hkd|aud|cad|chf|inr|sgd)\s?$")


def is_quantity(text: str, start: int, end: int) -> bool:
    """The number is followed by a unit or announced as a total: a quantity, whatever its shape."""
    return bool(_QUANTITY_AFTER.match(text, end) or _QUANTITY_BEFORE.search(text, max(0, start - 24), start))


_NANP_SPACED = re.compile(r"(?<![\w(])\(\d{3}\)\s?\d{3}\s\d{4}(?![\d-])")
# Round 42: "(010)-62751234" (a hyphen after the brackets) and the 0086 prefix ("0086 472 5318800") too.
_LANDLINE = re.compile(r"(?<![\d(-])(?<!\d )(?:\(0[1-9]\d{1,2}\)[\s-]?|0[1-9]\d{1,2}[\s-]|0086[\s-]?[1-9]\d{1,2}[\s-])"
                       r"\d{3,4}[\s-]?\d{4}(?![\d-])")
_CN_MOBILE_SPACED = re.compile(r"(?<![\d+*])(?:(?:\+|00)86[\s-]?)?1[3-9]\d(?:[\s-]?\d){8}(?![\d*])")


# Round 42 (issue 10): a Chinese landline written with full-width brackets ("（0472）5318800") or an en / em /
# full-width dash between its digit groups ("0472–5318800") reads as its ASCII form does. One character stands for
# one, so the spans found in the ASCII form are the text's own.
_WIDE_AREA = re.compile(r"（(0[1-9]\d{1,2}|\+?86)）")
_DASH = re.compile(r"(?<=\d)[–—－](?=\d)")


def ascii_phone_form(text: str) -> str:
    """`text` with a bracketed area code's full-width brackets and a dash between digits in ASCII, offsets unchanged."""
    if "（" in text:
        text = _WIDE_AREA.sub(lambda m: "(" + m.group(1) + ")", text)
    return _DASH.sub("-", text)


# Round 43 (issue 10): the national and international forms no reader took - a country code after 00 or in brackets
# ("0044 20 7946 0321", "(+86) 10 6275 1234", "0086 (10) 6275 1234"), China's 86 with no + before an area code
# ("86-10-6275-1234"), a subscriber number in pairs after the area code ("0472 531 88 00", French "01 42 68 53 00"),
# a two-digit area code (Japan "03-5412-8890", Australia "(02) 9876 5432"), a slash after the area code (German
# "030/2847 5519") and a NANP number after a "1 " trunk prefix ("1 (415) 728 3391"); round 44 (blind r39): an
# Australian mobile in its 4-3-3 groups ("0433-120-655", "0412 339 870"). A country code is one that is
# assigned, and a number a quantity or a part number (`is_quantity`) is none.
_CC = (r"(?:1|7|2[07]|3[0-469]|4[013-9]|5[1-8]|6[0-6]|8[1246]|9[0-58]|35\d|37\d|38[0-9]|42[013]|85[2356]|880|886|"
       r"9[67]\d)")
# Round 47 (blind r41): the subscriber's last group may run to six digits, as a UK mobile's does after 00 44
# ("0044 7911 123456"); the digit count (8 - 15) still bounds the whole.
INTL_LAST_GROUP_SIX = True
_LAST = r"(?:[\s.-]\d{2,4}){0,3}[\s.-]\d{2,6}" if INTL_LAST_GROUP_SIX else r"(?:[\s.-]\d{2,4}){1,4}"
_INTL_FORM = re.compile(r"(?<![\w+(])(?<!\d[ .-])(?:00" + _CC + r"[\s.-]|\(\+?" + _CC + r"\)[\s.-]?)(?:\(0\)\s?)?(?:\(\d{1,4}\)|\d{1,4})"
                        + _LAST + r"(?![\d-]|\.\d)")
_CN_NO_PLUS = re.compile(r"(?<![\w+(.-])(?<!\d )86([\s-])(?:\(0?(?:10|2\d|[3-9]\d{2})\)|0?(?:10|2\d|[3-9]\d{2}))\1\d{3,4}[\s-]?\d{4}"
                         r"(?![\w-])")
_NATIONAL_FORM = re.compile(
    r"(?<![\w(/.+-])(?<!\d )(?:"
    r"(?:\(0[1-9]\d{1,2}\)\s?|0[1-9]\d{1,2}[\s-])(?:\d{3,4}([\s-])\d{2}\1\d{2}|\d{2}([\s-])\d{2}\2\d{2}\2\d{2})"  # pairs
    r"|0[1-59]([ .-])\d{2}(?:\3\d{2}){3}"  # French landline pairs
    r"|(?:\(0[1-9]\)\s?\d{4}[\s-]?|0[1-9]([\s-])\d{4}\4)\d{4}"  # two-digit area code: Japan, Australia
    r"|0[1-9]\d{1,3}/\s?\d{3,4}[\s-]?\d{3,4}"  # German slash
    r"|1\s\(\d{3}\)\s?\d{3}[\s.-]\d{4}"  # NANP with its trunk 1
    r"|04\d{2}([ -])\d{3}\5\d{3}"  # round 44: an Australian mobile, spaced or hyphenated ("0433-120-655")
    r")(?![\w-]|[.,]\d|[ .-]\d)"  # a group more in the same rhythm: a list ("Lottery picks: 04 11 19 23 31 42 05")
)


def _counted(value: str) -> bool:
    """Groups that count up or down by one step ("01.02.03.04.05", "02 03 04 05 06"): a list, not a number."""
    groups = [int(g) for g in re.findall(r"\d+", value)]
    steps = {b - a for a, b in zip(groups, groups[1:], strict=False)}
    return len(groups) >= 4 and len(steps) == 1


def _forms(text: str) -> list[Span]:
    out: list[Span] = []
    for pattern in (_INTL_FORM, _CN_NO_PLUS, _NATIONAL_FORM):
        for m in pattern.finditer(text):
            digits = sum(c.isdigit() for c in m.group(0))
            if 8 <= digits <= 15 and not _counted(m.group(0)) and not is_quantity(text, m.start(), m.end()):
                out.append(("phone", m.start(), m.end()))
    return out


def find_phones(text: str) -> list[Span]:
    out: list[Span] = []
    text = ascii_phone_form(text)
    out += _forms(text)
    for m in _PHONE_CUE.finditer(text):
        value = m.group("value")
        digits = re.sub(r"\D", "", value)
        if 7 <= len(digits) <= 15 and not re.search(r"\d\.\d+\.\d", value) and not re.fullmatch(r"\d{1,2}:\d{2}", value):
            out.append(("phone", *m.span("value")))
    for pattern in (_LANDLINE, _NANP_SPACED):  # round 43: a part or model number in a landline's shape is none
        out += [("phone", m.start(), m.end()) for m in pattern.finditer(text) if not is_quantity(text, m.start(), m.end())]
    for m in _CN_MOBILE_DOTTED.finditer(text):
        out.append(("phone", m.start(), m.end()))
    for m in _UK_MOBILE.finditer(text):
        out.append(("phone", m.start(), m.end()))
    for m in _CN_MOBILE_SPACED.finditer(text):
        groups = re.split(r"[\s-]+", m.group(0))
        if (all(len(g) >= 3 for g in groups[1:]) or len(groups) == 1) and not is_quantity(text, m.start(), m.end()):
            out.append(("phone", m.start(), m.end()))
    return out
