"""The kind of value a question asks for, and a text's values of that kind (issue 10, retrieval round 46).

Round 45's reading (`asked_slot`) found two hits of one subject under a present-tense question, the newer telling a
change - and flagged as many pairs that changed *another* attribute of the subject ("Who's in charge of the Ningbo
plant these days?" over a hiring note and a promotion note) as pairs that changed the one asked. What tells them apart
is the value the question asks for: "who" wants a person, "where" a place, "how many" / 多少 a number, "when" / 什么时候
a date or time, "which tool" a name. Two hits that both hold a value of that kind, and hold different ones, answer the
question differently.

* `asked_kind(question)`: "time", "place", "person", "count", "name", or None (a yes / no or "how" question asks
  for no value of a kind read here). Checked in that order: 几点 is a time before 几 is a count.
* `values(kind, text)`: the text's values of the kind, lower-cased: clock times, dates, weekdays, months, quarters
  (time); capitalised names, street addresses, Chinese place words (place); capitalised names, Chinese personal names
  by surname (person); numbers (count); capitalised or alphanumeric names, quoted names, version numbers (name). A
  typed redaction placeholder is a value of its kind (`[REDACTED:address]` a place, `[REDACTED:phone]` /
  `[REDACTED:email]` / `[REDACTED:name]` a person's contact).
* `answers_differently(question, older, newer)`: both hold a value of the asked kind beyond those the question names
  itself (its subject), and each holds one the other does not.

Every reading is a regular expression over the text, linear in its length.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: question forms per kind, checked in this order (a time before a count: 几点, 几号; a place before a name: 哪里)
_ASKS = (
    ("time", re.compile(
        r"\b(?:when|what time|which day|what day|what date|which date|how soon|by when|deadline|due date)\b|"
        r"什么时候|几点|哪天|哪一天|哪几天|何时|几号|几月|什么时间|哪个月|截止", re.IGNORECASE)),
    ("place", re.compile(
        r"\b(?:where|what address|which address|which city|which town|which suburb)\b|哪里|哪儿|哪边|在哪|住哪|去哪|地址|哪个城市",
        re.IGNORECASE)),
    ("person", re.compile(r"\b(?:who|whom|whose)\b|谁|哪位", re.IGNORECASE)),
    ("count", re.compile(
        r"\b(?:how (?:many|much|long|often|far|big|large|heavy|old|fast)|what (?:is the |'s the )?(?:price|cost|rate|"
        r"fee|salary|budget|size|number|amount|percentage|temperature|speed|capacity))\b|多少|多久|多长|多大|多远|多重|多高|"
        r"几(?:个|家|次|天|人|间|台|件|位|周|年|小时|分钟|公斤|斤|元|块)|价格|价钱|费用|几成", re.IGNORECASE)),
    ("name", re.compile(
        r"\bwhich\b|\bwhat (?:tool|app|software|system|version|brand|model|supplier|vendor|provider|platform|service|"
        r"program|product|airline|bank|carrier|courier|school|shop|store|firm|company|hotel|restaurant)\b|"
        r"哪个|哪家|哪款|哪种|哪一|什么(?:软件|工具|系统|版本|品牌|平台|牌子|型号|供应商|快递|银行|学校|公司|酒店|餐厅|航空)",
        re.IGNORECASE)),
)

#: the kinds read, in the order questions are matched
KINDS = tuple(kind for kind, _ in _ASKS)

#: a redaction placeholder, bare or with its pseudonym (`write.labels`), and the kinds each kind of value takes
_PLACEHOLDER = re.compile(r"\[REDACTED:([a-z_]+)(?::[0-9a-f]+)?\]")
_PLACEHOLDER_KINDS = {"place": {"address", "location", "postcode"},
                      "person": {"name", "person", "phone", "email"},
                      "count": {"amount", "salary", "money"}, "time": {"date", "dob"}, "name": {"account"}}

_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
           "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday|mondays|tuesdays|wednesdays|thursdays|fridays|" \
        "saturdays|sundays|weekday|weekdays|weekend|weekends"
_TIME = re.compile(
    rf"\b(?:{_MONTHS}|{_DAYS})\b|\b\d{{1,2}}[:.]\d{{2}}\b|\b\d{{1,2}}\s*(?:am|pm)\b|\bq[1-4]\b|\b(?:19|20)\d{{2}}\b|"
    r"\b\d{4}-\d{1,2}-\d{1,2}\b|\b(?:noon|midday|midnight)\b|"
    r"(?:周|星期|礼拜)[一二三四五六日天]|[上下]午|中午|凌晨|晚上|早上|[\d一二两三四五六七八九十]{1,3}\s*点(?:半|\d{1,2}分?)?|"
    r"[\d一二三四五六七八九十]{1,3}\s*月(?:底|初|中)?|[\d一二三四五六七八九十]{1,3}\s*[日号]|第[一二三四1-4]季度|[年月周]底|[年月]初",
    re.IGNORECASE)
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*(?:\s*(?:万|千|百|k|m|%))?|[零一二两三四五六七八九十百千万]{1,6}(?=[个家次天人间台件位周年元块斤岁层栋辆])",
                     re.IGNORECASE)
#: a capitalised word or run of them (a name), a word with digits or inner capitals (EK43, iPhone), a quoted name
_NAME = re.compile(r"\b[A-Z][\w'’&-]*(?:\s+(?:[A-Z][\w'’&-]*|&|of|de|van))*|\b[a-z]+[A-Z]\w*|\b[A-Za-z]+\d[\w.-]*|"
                   r"[「“\"《](.{1,20}?)[」”\"》]")
_CALENDAR = re.compile(f"{_MONTHS}|{_DAYS}", re.IGNORECASE)
_VERSION = re.compile(r"\b[vV]?\d+(?:\.\d+)+\b")
#: capitalised words that are no name (sentence openers, pronouns, months and days are read as times)
_NOT_NAME = frozenset(
    "the a an and but or so if from on in at for to of by with as our we i he she they it its this that these those "
    "there here last next new update note from until after before since every each all any some no not now today "
    "tomorrow yesterday mr mrs ms dr prof please also just still then when where who what which how is are was were "
    "has have had will can may should must do does did let team office call ask send use go see check book contact "
    "email ring talk meet keep make take get pay bring".split())
#: a Chinese personal name: a common surname and one or two characters
_SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐韩冯邓曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁沈任姚卢傅钟姜崔谭陆范汪廖石金贾夏韦付方邹熊白孟秦邱侯江尹薛闫段雷龙黎史陶贺毛郝顾龚邵万覃武钱严莫孔向常汤康易乔赖文"
_ZH_PERSON = re.compile(rf"[{_SURNAMES}][\u4e00-\u9fff]{{1,2}}?(?=[总工经老姐哥说的是在和跟负接管会已要去来升任调离走做当，。、：\s]|$)|"
                        r"(?:小|老|阿)[\u4e00-\u9fff](?=[总说的是在和跟负接管会已要去来，。、：\s])")
_ZH_PLACE = re.compile(r"(?:(?![在到去搬住从往于至是的了和与为把向])[\u4e00-\u9fff]){2,4}?(?:路|街|大道|区|市|县|镇|村|省|大厦|广场|园区|小区|花园|中心)(?:\d+号)?|\d+号(?:楼)?")
_ADDRESS = re.compile(r"\b\d+[A-Za-z]?\s+[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*\s+(?:St|Street|Rd|Road|Ave|Avenue|Lane|Ln|Dr|Drive|"
                      r"Way|Blvd|Place|Pl|Court|Ct|Terrace|Tce|Parade|Pde)\b")


def asked_kind(question: str) -> str | None:
    """The kind of value the question asks for (module doc), or None."""
    for kind, form in _ASKS:
        if form.search(question):
            return kind
    return None


def _names(text: str, people: bool = False) -> set[str]:
    """Capitalised names of the text, lower-cased; `people`: no all-capital word (QA, BMS, HK are no person)."""
    out = set()
    for m in _NAME.finditer(text):
        name = (m.group(1) or m.group(0)).strip()
        words = [w for w in name.split() if w.lower() not in _NOT_NAME and not _CALENDAR.fullmatch(w)
                 and not (people and w.isupper())]
        if words:
            out.add(" ".join(words).lower())
    return out


@lru_cache(maxsize=8192)
def values(kind: str, text: str) -> frozenset[str]:
    """The text's values of one kind (module doc), lower-cased; empty for an unknown kind."""
    found = {f"[{m.group(1)}]" for m in _PLACEHOLDER.finditer(text) if m.group(1) in _PLACEHOLDER_KINDS.get(kind, ())}
    plain = _PLACEHOLDER.sub(" ", text)
    if kind == "time":
        found |= {re.sub(r"\s+", "", m.group(0).lower()) for m in _TIME.finditer(plain)}
    elif kind == "count":
        found |= {re.sub(r"[\s,]", "", m.group(0).lower()) for m in _NUMBER.finditer(_TIME.sub(" ", plain))}
    elif kind == "place":
        found |= {m.group(0).lower() for m in _ADDRESS.finditer(plain)} | _names(plain)
        found |= {m.group(0) for m in _ZH_PLACE.finditer(plain)}
    elif kind == "person":
        found |= _names(plain, people=True)
        found |= {m.group(0) for m in _ZH_PERSON.finditer(plain)}
    elif kind == "name":
        found |= _names(plain) | {m.group(0).lower() for m in _VERSION.finditer(plain)}
    return frozenset(found)


#: what a count question counts: money, a duration, or a unit / noun it names (多少间, 几公斤, "how many rooms")
_MONEY_ASKED = re.compile(r"钱|价|费|预算|成本|薪|工资|\b(?:cost|costs|price|priced|pay|paid|budget|fee|fees|salary|rate|"
                          r"spend|charge|charges|worth|costing)\b|\bhow much\b(?! time)", re.IGNORECASE)
_DURATION_ASKED = re.compile(r"\bhow long\b|多久|多长时间", re.IGNORECASE)
_UNIT_ASKED = re.compile(r"(?:多少|几)(公斤|公里|小时|分钟|个月|[间件个天人台吨斤次周年位家辆米层栋箱杯克])|"
                         r"\bhow many ([a-z]{3,})", re.IGNORECASE)
_MONEY = re.compile(r"(?:[$£€¥]|\b(?:usd|hk\$|r\$|rmb|aud|sgd|eur|gbp)\s?)\s?\d[\d,.]*\s?[kmb万]?|"
                    r"\d[\d,.]*\s?(?:万元|万|元|块|k\b|dollars?\b|pounds?\b|yuan\b|euros?\b)", re.IGNORECASE)
_DURATION = re.compile(r"\d[\d,.:]*\s?(?:min(?:ute)?s?|h(?:ou)?rs?|days?|weeks?|months?|years?|分钟|小时|天|周|个月|年)"
                       r"|[一二两三四五六七八九十半]{1,3}\s?(?:分钟|小时|天|周|个月|年)", re.IGNORECASE)


def asked_unit(question: str) -> str | None:
    """What a count question counts: "money", "duration", a unit or noun it names, or None (any number)."""
    if _MONEY_ASKED.search(question):
        return "money"
    if _DURATION_ASKED.search(question):
        return "duration"
    m = _UNIT_ASKED.search(question)
    return None if m is None else (m.group(1) or m.group(2)[:4]).lower()


@lru_cache(maxsize=8192)
def counted(unit: str, text: str) -> frozenset[str]:
    """The text's numbers of one unit (`asked_unit`): sums of money, durations, or numbers the unit follows."""
    if unit == "money":
        return frozenset(re.sub(r"[\s,元块]", "", m.group(0).lower()) for m in _MONEY.finditer(text))  # 48万元 = 48万
    if unit == "duration":
        return frozenset(re.sub(r"[\s,]", "", m.group(0).lower()) for m in _DURATION.finditer(text))
    return frozenset(m.group(1) for m in re.finditer(r"(\d[\d,.]*|[一二两三四五六七八九十百千万]{1,6})\s?" + re.escape(unit),
                                                    text, re.IGNORECASE))


def answers_differently(question: str, older: str, newer: str, both: bool = True, units: bool = True) -> bool:
    """Both texts hold a value of the kind the question asks for, beyond the ones the question names, and the newer
    holds one the older does not - and, `both`, the older one the newer does not (a newer "from 48万 to 55万" repeats
    the older value). `units`: a count question that names what it counts (money, a duration, 多少间, "how many
    rooms") compares those numbers only (`asked_unit`, `counted`). False when the question asks for no kind read
    here (module doc)."""
    kind = asked_kind(question)
    if kind is None:
        return False
    unit = asked_unit(question) if kind == "count" and units else None
    if unit is not None:  # the numbers of what the question counts, not any number of the texts
        a, b = counted(unit, older), counted(unit, newer)
    else:
        asked = values(kind, question)
        a, b = values(kind, older) - asked, values(kind, newer) - asked
    return bool(a) and bool(b - a) and (not both or bool(a - b))
