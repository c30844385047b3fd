"""A contact printed in an advertisement is published (redaction round 33, issue 10).

An organisation that buys an advertisement, prints a flyer or puts up a poster or a billboard publishes its address and
its line there for anyone to read: 'Locksmith's newspaper ad: "Call ... or visit us at 15 Market Street."', "Poster in
the cafe window: Lucky Dragon takeaway, 77 Queen Street", "The gym's advert in the paper reads \\"Join us at ...\\"",
"报纸上的广告：“老王锁业 ... 地址：建设路88号。”", "传单上写着：快乐宠物店，人民路56号". ``redact_source`` reads a source named
with a preposition ("on the flyer", "printed on"); here the advertisement introduces its own words: the ad's word (ad,
advert, advertisement, a TV / radio commercial, the classifieds, flyer, leaflet, poster, billboard, banner, brochure, placard; 广告, 广告牌,
传单, 海报, 宣传单, 宣传册, 横幅, 灯箱), then within a few words a colon, a verb that gives its text (says, reads, lists,
写着, 印着) or an opening quotation mark, and the contact inside that text - in the quotation while it is open, else in
the same sentence, on the same line.

A person's cue anywhere from the clause's start to the contact (my / his / home / 手机 / 我 ...: the caller's pattern),
a login word, or for an address a home word, wins: "Posting a flyer for my garage sale; my home is 12 Elm Street" stays
a home address, and an ad merely mentioned ("saw the ad, then drove to ...") introduces no text. Bounded windows: linear.
"""

from __future__ import annotations

import re

_AD = re.compile(
    r"(?:(?<![A-Za-z])(?-i:ad|Ad|ads|Ads)(?![A-Za-z])(?!\s*-?\s*(?i:hoc|nauseam|infinitum|lib|interim|valorem|block))|(?i:\b(?:advert|advertisement|(?:tv|radio)\s+commercial|classified\s+ad|flyer|flier|"
    r"leaflet|poster|billboard|banner|brochure|placard|handbill)s?\b|\bclassifieds\b)|广告牌?|传单|海报|宣传单页?|宣传页|宣传册|横幅|灯箱|招贴)"
)
# What introduces the ad's own text: a colon, a verb that gives it, or an opening quotation mark.
_INTRO = re.compile(
    r"[^\n.!?。！？:：\"“”]{0,40}?(?:[:：]|\b(?:says|said|reads|read|lists|listed|shows|gives|promises|runs)\b\s*[:：]?|"
    r"(?:上面|上)?(?:写着|印着|写的是|印的是|说)\s*[:：]?)\s*(?P<quote>[\"“'‘「『]?)|\s*(?P<open>[\"“「『])"
)
_SENTENCE_END = re.compile(r"[。！？\n]|[.!?](?=\s+[A-Z\u4e00-\u9fff]|\s*$)")
_CLOSE = re.compile(r"[\"”’」』]")
_LOGIN = re.compile(r"(?i)\b(?:log\s?in|sign[\s-]?in|passwords?|passcodes?|credentials?|username)\b|后台|登录|登陆|账号|密码|口令")
_HOME = re.compile(r"(?i)\b(?:home|house|flat|apartment|lives?|living|garage\s+sale|yard\s+sale|moving\s+sale)\b|家|住")
_REACH = 200


def advertised(text: str, start: int, end: int, personal: re.Pattern[str], address: bool = False) -> bool:
    """Is ``text[start:end]`` inside the text an advertisement introduces, with no person's cue before it?"""
    lo = max(0, start - _REACH)
    line_start = text.rfind("\n", lo, start) + 1 if "\n" in text[lo:start] else lo
    for cue in _AD.finditer(text, line_start, start):
        intro = _INTRO.match(text, cue.end(), start)
        if intro is None:
            continue
        content = text[intro.end() : start]
        quoted = bool(intro.group("quote") or intro.group("open"))
        if quoted and _CLOSE.search(content) or not quoted and _SENTENCE_END.search(content):
            continue  # the ad's text ended before the contact
        clause = text[line_start:start]
        stops = list(_SENTENCE_END.finditer(text, line_start, cue.start()))
        if stops:
            clause = text[stops[-1].end() : start]
        if personal.search(clause) or _LOGIN.search(clause) or address and _HOME.search(clause):
            return False
        return True
    return False
