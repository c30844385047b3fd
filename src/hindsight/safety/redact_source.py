"""Where the writer read a contact: a public source named in its sentence makes it a public contact (redaction round 21).

Blind round 22 and its training writers (r22T43, r22T44) redacted 17 organisations' contacts that their writers kept:
each sentence says where the contact is published - "on Google Maps", "from their public contact page", "listed on the
company site", "the booking page lists", "printed on the package insert", "from the charity register", "on their
letterhead", "大众点评上就有", "营业执照上的地址", "官网公布的", "对外联系方式", "public office" / "(public number)". The
older readings (:mod:`redact_public`) want the cue in a fixed place - right before the contact or right after it in its
clause; this one reads the whole sentence for the *source*: a public medium the contact was read from (a map listing,
a website or page, a register or directory, a letterhead, a package insert, a storefront, a review app, a business
licence), or the contact or place itself called public / published / 对外.

The source is what makes a value public, whatever its format, so the reading takes phones, emails and addresses alike;
a person's cue anywhere in the sentence (my / his / personal / mobile / 私人 / 家 ...: ``redact_public._PERSONAL``) or a
negation right before the cue ("not listed", "没有公布", "unlisted") wins, as does a mobile number or a personal mailbox
at consumer webmail (the caller checks those). Every pattern is bounded: linear in the text.
"""

from __future__ import annotations

import re

# A public medium the contact was read from, or the contact / place named public.
_SOURCE = re.compile(
    r"(?i)(?:\b(?:on|from|in|per|via)\s+(?:the\s+|their\s+|its\s+|our\s+|a\s+|an\s+)?(?:[\w'’-]+\s+){0,3}?"
    r"(?:google\s+maps|maps|website|web\s?site|site|web\s?page|(?:contact|booking|listing|venue|about|product|company|public)\s+page|"
    r"listing|register|registry|directory|yellow\s+pages|letterhead|(?:package|packaging|product)\s+(?:insert|label)|insert|"
    r"packaging|brochure|leaflet|flyer|storefront|shop\s?front)s?\b|"
    r"\b(?:page|site|website|storefront|listing|register|directory|letterhead|insert|brochure)\s+(?:lists|listed|shows|gives|says|has)\b|"
    r"\b(?:listed|published|printed|advertised|posted)\s+(?:on|in|at|under|as|by)\b|\bpublished\b|"
    r"\bpublic\s+(?:[\w-]+\s+){0,2}?(?:office|address|number|line|phone|email|e-mail|inbox|mailbox|contact|page|listing|record|location)s?\b|"
    r"[(（]\s*public\s*(?:number|line|address|email|contact)?\s*[)）]|"
    r"\blists\s+(?:the|our|their|its)\b|"
    # round 27: a place open to anyone, a sign anyone reads ("open to the public at", "Storefront sign:", "signposted from")
    r"\bopen\s+to\s+(?:the\s+)?(?:public|everyone|walk-?ins|visitors)\b|\b(?:storefront|shop\s?front|shop|store|door|window|street)\s+sign(?:age|board)?s?\b|"
    r"\bsign-?posted\b)|"
    r"官网|官方网站|网站上|网页上|主页上|大众点评|美团|高德|百度地图|地图上|营业执照|公众号|黄页|说明书|包装上|公布|公示|对外(?:联系|公开|电话|地址|邮箱|办公)?|"
    r"向公众开放|对公众开放|门头|招牌|指示牌"
)
# A negation right before the cue: "not listed on", "isn't on the website", "没有公布", "不对外".
_NEGATED_BEFORE = re.compile(r"(?i)(?:\b(?:not|never|no\s+longer|isn't|aren't|wasn't)\s+(?:\w+\s+){0,3}|(?:不|没有?|未|别|非))\s*$")
# ... or right after it: "官网查不到", "the site doesn't list it".
_NEGATED_AFTER = re.compile(r"(?i)\s*(?:上|里)?(?:查不到|找不到|搜不到|没有|没|不|未)|\s*(?:doesn't|does\s+not|don't|won't|never)\b")
# A login: a contact beside a password or a sign-in is an account's name, not a published contact ("公众号后台：[e] / [pw]").
_LOGIN = re.compile(r"(?i)\b(?:log\s?in|sign[\s-]?in|passwords?|passcodes?|credentials?|username)\b|后台|登录|登陆|账号|密码|口令")
# A move between the source and the contact: the source names what moves, the contact is where it goes ("Lead forms from
# the clinic site should also go to [e]", "via the website form, which emails [e]").
_MOVE = re.compile(
    r"(?i)\b(?:go(?:es)?\s+to|sen[dt]s?|forward(?:s|ed)?|e-?mails?|mail(?:s|ed)?|cc|copy|copied|deliver(?:s|ed)?|route[sd]?)\b|"
    r"发到|发给|转到|转给|转发|抄送|寄到"
)
# A period ends a sentence only before a capital, a Han character or the end ("No. 9 Xinmei Road" is one sentence).
# Round 28: a semicolon before a clause that points back at the contact ("; it's on the public listing", "; both on their
# site", "；都挂在官网上") joins it too: the source is named in that clause.
# Round 27: a semicolon before a record's next field ("...: Room 204, 1200 College Ave; phone ...") joins its record.
_SENTENCE_END = re.compile(r"[。！？!?\n]|[；;](?!\s*(?i:phone|tel|fax|e-?mail|mail|whatsapp|wechat|电话|邮箱|传真|微信)\b|"
                           r"\s*(?i:it'?s|it\s+is|that'?s|that\s+is|both(?:\s+are)?|they'?re|they\s+are|all|listed|published|as\s+(?:listed|published))\s|"
                           r"\s*(?:都|这个|这是|均)[^。！？\n]{0,4}(?:在|是|印|挂|公布|公开|登))|\.(?=\s+[A-Z\u4e00-\u9fff]|\s*$)")


def _sentence(text: str, start: int, end: int) -> tuple[str, str]:
    """The sentence holding ``text[start:end]``, at most 160 characters either side: the parts before and after it."""
    lo = max(0, start - 160)
    before = text[lo:end]  # the value too: a period's lookahead reads what follows it
    stops = [m for m in _SENTENCE_END.finditer(before) if m.start() < start - lo]
    head = before[stops[-1].end() : start - lo] if stops else before[: start - lo]
    after = text[end : end + 160]
    stop = _SENTENCE_END.search(after)
    return head, after[: stop.start()] if stop else after


def in_url(text: str, start: int) -> bool:
    """Does the value start inside a URL ("https://upload:pw@host": the user info, not a contact)?"""
    token = re.search(r"\S*$", text[max(0, start - 80) : start])
    return bool(token and "://" in token.group(0))


def published_source(text: str, start: int, end: int, personal: re.Pattern[str]) -> bool:
    """Does the sentence holding the contact name a public source for it, with no person's cue (``personal``) in it?"""
    if in_url(text, start):
        return False
    head, tail = _sentence(text, start, end)
    sentence, at = head + " " + tail, len(head)  # the value left out: ``at`` is where it stood
    if personal.search(sentence) or _LOGIN.search(sentence):
        return False
    for cue in _SOURCE.finditer(sentence):
        between = sentence[cue.end() : at] if cue.end() <= at else sentence[at : cue.start()]
        negated = _NEGATED_BEFORE.search(sentence[max(0, cue.start() - 32) : cue.start()]) or _NEGATED_AFTER.match(sentence, cue.end())
        if not negated and not _MOVE.search(between):
            return True
    return False
