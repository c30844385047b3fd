"""Values found by their kind's shape and their kind's cue anywhere earlier in the clause (round 15).

Earlier finders mostly read a cue *right before* a value ("phone: X", "密码 X"), and each blind round brought the
same kinds with new words between the two ("wants a callback tonight on X", "the temporary one IT issued is X",
"老家地址 湖南省...七组23号"). Rather than one rule per wording, each family here is one pair - a kind's value shape and
its kind's cue within the clause before it (EN and ZH) - with the look-alikes of that shape named by their own cues
(ticket, order, invoice, hash, example, 工单, 订单 ...) between the cue and the value. The redactor's usual vetting
(public contacts, declared public values) applies to every finding, so an organisation's hotline or office stays.

- **Phones**: 10-13 digits, bare or in groups split by one kind of separator (space, dot or dash), after a contact
  word (call, callback, caller, ring, text, reach, contact; 回电, 回拨, 来电, 致电, 打给, 联系).
- **Passwords**: a password-shaped token (8-40 printable characters without spaces, letters and digits, with mixed case
  or a symbol other than - _ .) in the same sentence after a password word (password, passcode, passphrase, 密码, 口令).
- **Addresses under a home label**: after a label naming where a person lives or receives mail (home address,
  residence, consignee, ship to, lives at; 老家, 家住, 住在, 住址, 收货地址, 户籍地址), a street line of any spelling -
  a house number (also "4-12-7") and capitalised words up to a comma, or a Chinese place run ending in a house number
  (村 / 组 / 街 ... 23号); the province, city and district before the road stay, as in the address finder.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_address import is_public_address, region_head
from hindsight.safety.redact_public import public_address
from hindsight.safety.validators import PLACEHOLDER_VALUE

Span = tuple[str, int, int]

_WINDOW = 48
_CLAUSE_END = re.compile(r"[.!?。！？\n](?=\s|$)|[。！？\n；;]")
_SENTENCE_END = re.compile(r"[.!?。！？\n](?=\s|$)|[。！？\n]")


def _clause(text: str, pos: int, window: int, end: re.Pattern[str] = _CLAUSE_END) -> str:
    """The text before ``pos``: at most ``window`` characters, never before the clause's (or sentence's) start."""
    lo = max(0, pos - window)
    last = lo
    for m in end.finditer(text, lo, pos):
        last = m.end()
    return text[last:pos]


# --------------------------------------------------------------------------- phones

_CONTACT_CUE = re.compile(
    r"(?i)(?<![A-Za-z])(?:call(?:[ -]?backs?|ed|er|ing|s)?|ring|text(?:ed)?|reach|contact|whatsapp|phone|mobile|cell)(?![A-Za-z])|"
    r"回电|回拨|回个?电话|来电|致电|打给|拨打|联系|电话|手机|座机"
)
# Look-alikes of a phone's shape name themselves between the cue and the value.
_NOT_A_PHONE = re.compile(
    r"(?i)(?<![A-Za-z])(?:ticket|order|invoice|case|ref(?:erence)?|tracking|account|acct|card|serial|sku|id|"
    r"no\.?\s+of|total|count|hotline|helpline|toll[ -]?free|customer\s+service|support\s+line)(?![A-Za-z])|"
    r"工单|订单|单号|运单|账号|账户|卡号|编号|序列号|客服|热线|总机"
)
_PHONE_SHAPE = re.compile(
    r"(?<![\w.+/:#-])(?P<value>\+?\d{2,5}(?P<sep>[ .-])\d{2,5}(?:(?P=sep)\d{2,5}){1,3}|\+?\d{10,13})(?![\w]|[.-]\d|:\d)"
)
_IP = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_DATE = re.compile(r"(?:19|20)\d{2}[.-]\d{1,2}[.-]\d{1,2}|\d{1,2}[.-]\d{1,2}[.-](?:19|20)\d{2}")


def find_contact_phones(text: str) -> list[Span]:
    """A phone-shaped number after a contact word in its clause, with no look-alike cue between."""
    out: list[Span] = []
    for m in _PHONE_SHAPE.finditer(text):
        value = m.group("value")
        digits = re.sub(r"\D", "", value)
        if not 10 <= len(digits) <= 13 or _IP.fullmatch(value) or _DATE.match(value) or len(set(digits)) <= 2:
            continue
        clause = _clause(text, m.start(), _WINDOW)
        cues = list(_CONTACT_CUE.finditer(clause))
        if cues and not _NOT_A_PHONE.search(clause, cues[-1].start()):
            out.append(("phone", *m.span("value")))
    return out


# --------------------------------------------------------------------------- passwords

_PASSWORD_CUE = re.compile(r"(?i)(?<![A-Za-z])(?:pass(?:word|code|phrase)s?|pwd)(?![A-Za-z])|密码|口令")
# A value of the password shape that the clause calls something else: a hash, an example, a policy's pattern.
_NOT_A_PASSWORD = re.compile(
    r"(?i)(?<![A-Za-z])(?:hash(?:ed)?|digest|checksum|example|e\.g\.|such\s+as|like|sample|placeholder|format|pattern|"
    r"policy|rule|regex|username|user\s*name|login|user|account|manager|vault|version|build|commit|order|ticket|"
    r"name|ssid|id|run|restart|systemctl|sudo|command|service|unit)(?![A-Za-z])|"
    r"哈希|示例|例如|比如|格式|规则|用户名|账号|版本|订单|工单|名|执行|运行|命令|重启"
)
# Where the password is kept, not the password: "stored in X", "放在 X 里", "走 X 分享".
_PLACE_BEFORE = re.compile(r"(?i)(?:\b(?:in|into|inside|from|on|at|via|using|under|through)|在|放|存|走|进)\s*[\"'“「]?$")
# A product or a brand, a numbered label: a number glued to one capitalised word ("1Password", "7Zip"), a word, "#" and
# a number ("Build#42", "PR#311").
_PRODUCT = re.compile(r"\d+[A-Z][a-z]+|[A-Za-z]+#\d+")
_PASSWORD_SHAPE = re.compile(r"(?<![\w@/.:=$%{<\[-])(?P<value>[A-Za-z0-9!#$%&*+\-_.?@^~]{8,40})(?![\w@/:=$%}>\]-]|\.\w)")
_SYMBOL = re.compile(r"[!#$%&*+\-_.?@^~]")


def _password_shaped(value: str) -> bool:
    if not (re.search(r"[A-Za-z]", value) and re.search(r"\d", value)) or "://" in value or "@" in value[1:-1] and "." in value:
        return False
    mixed = bool(re.search(r"[a-z]", value) and re.search(r"[A-Z]", value))
    # one case only: a symbol other than a word joiner ("argon2-hashed", "db_backup_2024" are words and names)
    if not (mixed or _SYMBOL.search(value.replace("-", "").replace("_", "").replace(".", ""))) or re.fullmatch(r"[vV]?\d+(?:[.-]\d+)+[A-Za-z]*|[0-9a-f]+|[0-9A-F]+|[A-Z0-9_-]+", value):
        return False
    return not PLACEHOLDER_VALUE.match(value)


def find_clause_passwords(text: str) -> list[Span]:
    """A password-shaped token after a password word in its clause, with no look-alike cue between."""
    out: list[Span] = []
    for m in _PASSWORD_SHAPE.finditer(text):
        value = m.group("value").rstrip(".")
        if not _password_shaped(value) or _PRODUCT.fullmatch(value) or _PLACE_BEFORE.search(text, max(0, m.start() - 12), m.start()):
            continue
        clause = _clause(text, m.start(), 64, _SENTENCE_END)
        cues = list(_PASSWORD_CUE.finditer(clause))
        if cues and not _NOT_A_PASSWORD.search(clause, cues[-1].start()):
            out.append(("password", m.start(), m.start() + len(value)))
    return out


# --------------------------------------------------------------------------- addresses under a home label

_HOME_LABEL_EN = re.compile(
    r"(?i)(?<![A-Za-z])(?:home\s+address|residence|residential\s+address|consignee(?:'s)?(?:\s+(?:address|residence))?|"
    r"recipient(?:'s)?\s+address|ship(?:ping)?\s+to|deliver(?:y)?\s+to|lives?\s+at|living\s+at|resides\s+at)"
    r"(?:\s+(?:is|was|now|address))*\s*[:：-]?\s*"
)
_STREET_LINE = re.compile(r"(?P<value>\d{1,5}[A-Za-z]?(?:-\d{1,4}){0,3}\s+(?-i:[A-Z][\w'’.-]*)(?:[ -](?-i:[A-Z][\w'’.-]*)){0,4}),")
_HOME_LABEL_ZH = re.compile(r"(?:老家|家住|住在|住址|家庭地址|家的地址|收货地址|收件地址|户籍地址|现居住?地?|居住地址?)(?:地址|在|于|是|为)?\s*[:：]?\s*")
_ZH_LINE = re.compile(r"(?P<value>[\u4e00-\u9fff0-9一二三四五六七八九十]{2,30}?\d{1,5}(?:[-－]\d{1,4})?(?:号|號)(?:\d{1,4}室)?)")
_ZH_PLACE = re.compile(r"村|组|路|街|巷|弄|镇|乡|里|屯|庄|道")


def find_labelled_addresses(text: str) -> list[Span]:
    """A street line right after a label naming where a person lives or receives mail (EN / ZH)."""
    out: list[Span] = []
    for label in _HOME_LABEL_EN.finditer(text):
        m = _STREET_LINE.match(text, label.end())
        if m:
            out.append(("address", *m.span("value")))
    for label in _HOME_LABEL_ZH.finditer(text):
        m = _ZH_LINE.match(text, label.end())
        if m and _ZH_PLACE.search(m.group("value")):
            start = m.start("value") + region_head(m.group("value"))
            out.append(("address", start, m.end("value")))
    return [s for s in out if not (is_public_address(text, s[1]) or public_address(text, s[1], s[2]))]
