"""A secret told as the answer to a request for it, or announced as sent privately (redaction round 36, issue 10).

In a dialogue the value often has no label of its own: the label is in the question a turn before ("密码多少？" /
"0527xl，别外传"; "I need the passport number" / "533380006, US passport"; "CVV?" / "552"). Here a turn - a line, after
an optional time stamp and a speaker's label or a dash - that asks for a kind of secret (it names the kind and asks: a
question mark, 多少 / 啥 / 呢 / 吗, please / need / what / tell / send / 请 / 报 / 发我 / 告诉; or it is the noun alone)
makes the next two turns candidates: a turn that opens with a value of that kind's shape (after at most two short
leads: it's / here / 是 / 就是) and then ends or goes on after a clause break is that kind. The kinds and their shapes:

- a password (password, passcode, PIN, 密码, 口令): a password as people write one (``password_shaped``) or 4 - 8 digits
  that are no fixture or year;
- a card number (card number, 卡号): 13 - 19 digits, grouped or not; its CVV (CVV, CVC, security code, 安全码, 背面三位):
  3 - 4 digits;
- a passport, driving licence or ID number (passport, licence number, ID number, SSN, 护照, 驾照号, 身份证号, 证件号;
  round 39: a Medicare, NHS or health-card number, 医保卡号): up to five capitals, 6 - 18 digits, up to six capitals or
  digits (6 - 24 in all), or 8 - 14 digits in three or four space-separated groups as the card prints them;
- a one-time code a phone received, named by 码 alone (我手机收到一个码, 短信来了个码, 收到的码; a QR code, a barcode or a
  password is none): 4 - 8 digits (Chinese numerals are read as digits by ``redact_spelled``). Such a turn needs no
  question: the code is announced, and the turn after asks for it ("念一下").

Round 39: a password may be asked for by its short name ("pw"), and the answer may end with a filler word before its
clause break ("it's crate-digger-77 lol, ...", "是 X 哈哈，...").

An order, a tracking number, a ticket or a quantity asked for names no secret, so its answer stays; so does an answer
with a unit after it ("12位", "2019年换过"). Second, a key, token, secret or password announced as sent privately -
"AppKey私发你了：VALUE", "密码单独发你了：VALUE", "the staging token, DM'd you: VALUE", "API key, sent privately: VALUE" -
is that kind when its value is a generated string (a UUID too: announced as sent it is a key, not an identifier) or,
for a password, password-shaped. Linear: one pass over the lines; every pattern is anchored or bounded.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_cues import MONEY_CONTEXT
from hindsight.safety.redact_documents import document_number
from hindsight.safety.redact_roles import code_shaped, password_shaped
from hindsight.safety.redact_turns import answer_label, still_open, turns
from hindsight.safety.validators import looks_random

Span = tuple[str, int, int]

_ASKED: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("cvv", re.compile(r"(?i)(?<![A-Za-z0-9])(?:cvv2?|cvc2?|csc)(?![A-Za-z0-9])|\bsecurity\s+code\b|安全码|背面的?(?:三|3)位")),
    ("card", re.compile(r"(?i)\bcard\s*(?:number|no\b\.?|num\b|#)|卡号")),
    ("national_id", re.compile(r"(?i)\bpassport(?![A-Za-z])|\b(?:driver'?s?|driving)\s+licen[cs]e\s*(?:number|no\b|#)|"
                               r"\bid\s*(?:card\s*)?(?:number|no\b)|(?<![A-Za-z])ssn(?![A-Za-z])|social\s+security\s+number|护照|驾照号|驾驶证号|"
                               r"身份证号|证件号|"
                               # round 39: a health card's number
                               r"\b(?:medicare|medicaid|nhs|health\s+(?:card|insurance|id))\s*(?:card\s*)?(?:number|no\b|#)|医保卡号|社保卡号|医保号")),
    # round 40: a bank account asked for, in a text about a bank or money moving (``redact_cues.MONEY_CONTEXT``)
    ("bank_account", re.compile(r"(?i)\b(?:bank\s+)?account\s*(?:number|no\b|#)|\bacct\b|(?<![A-Za-z])A/C\b|银行卡号|[账帐][号户]|户头|"
                                r"口座|계좌")),
    ("password", re.compile(r"(?i)(?<![\w-])(?:password|passcode|passwd|pwd|pw|(?-i:PIN))(?![\w-])|密码|口令")),
)
# A code a phone received, named by 码 alone: a QR code (二维码), a barcode (条码), a password (密码) or a postcode is none.
_RECEIVED_CODE = re.compile(r"(?:收到|来了|发来|到了)[^，。？！?!\n]{0,6}?(?<![维条形密编邮号源代乱])码|"
                            r"(?:短信|手机)(?:上|里)?(?:收到)?的(?<![维条形密编邮号源代乱])码")
_ASKING = re.compile(r"(?i)[?？]|多少|啥|什么|呢|吗|请|报一下|发我|告诉|给我|念|\b(?:please|pls|need|what'?s|what|tell|send|"
                     r"give|provide|read)\b")
# Words that say the turn asks for no secret of its kind (an order's or a ticket's number, a length).
_NOT_SECRET = re.compile(r"(?i)\b(?:order|tracking|ticket|invoice|booking|reference|flight)\s*(?:number|no\b|#)|订单|运单|工单|"
                         r"多少位|几位|长度|\blength\b|\bhow\s+long\b|\bforgot\b|\breset\b|忘了|重置")
_HEAD = re.compile(r"\s*(?:\[[^\]\n]{1,20}\]\s*)?(?:[@\w\u4e00-\u9fff][\w\u4e00-\u9fff .'-]{0,20}\s*[:：]|[-–—*•>])?\s*")
_LEAD = re.compile(r"(?i)(?:(?:it'?s|it\s+is|that'?s|here(?:'s|\s+is)?(?:\s+it)?|sure|ok(?:ay)?|yes|yep|是|就是|给你|好的?|嗯|对)"
                   r"\s*[:：,，]?\s*){0,2}")
_VALUE = re.compile(r"[\"'“‘]?(?P<v>[^\s\"'”’，。,；;！!？?、：:\u4e00-\u9fff]{3,40}?|\d{4}(?:[ -]\d{2,6}){2,4}|\d{3,4}(?:[ -]\d{1,6}){2,3})[\"'”’]?"
                    r"(?=(?:\s+(?:lol|lmao|haha+|hehe|btw|tho|xd|哈哈+|嘿嘿))?\s*(?:$|[,，。!！;；]|[.](?:\s|$)|\s[-–—(（]))")
_CARD = re.compile(r"\d{4}(?:[ -]?\d{2,6}){1,4}")
_GROUPED_ID = re.compile(r"\d{3,4}(?: \d{1,6}){2,3}")
_ACCOUNT = re.compile(r"\d+(?:[ -]\d+){0,5}")
_ID = re.compile(r"[A-Z]{0,5}\d{6,18}[A-Z0-9]{0,6}|\d{17}[\dXx]")


def _fits(kind: str, value: str) -> bool:
    digits = re.sub(r"\D", "", value)
    if kind == "card":
        return bool(_CARD.fullmatch(value)) and 13 <= len(digits) <= 19
    if kind == "cvv":
        return value.isdigit() and len(value) in (3, 4)
    if kind == "national_id":
        grouped = bool(_GROUPED_ID.fullmatch(value)) and 8 <= len(digits) <= 14  # round 39: "2953 71840 1", "485 777 3456"
        return bool(_ID.fullmatch(value)) and 6 <= len(value) <= 24 or document_number(value) or grouped  # round 38: C7XK2P9R4
    if kind == "bank_account":
        return bool(_ACCOUNT.fullmatch(value)) and 6 <= len(digits) <= 20
    if kind == "otp":
        return value.isdigit() and code_shaped(value)
    return password_shaped(value) or (value.isdigit() and 4 <= len(value) <= 8 and code_shaped(value))


def _asked(turn: str, text: str) -> list[str]:
    """The kinds of secret a turn asks for, most specific first."""
    if _NOT_SECRET.search(turn):
        return []
    asking = _ASKING.search(turn) is not None
    kinds = [kind for kind, noun in _ASKED if (m := noun.search(turn)) and (asking or len(turn.strip(" ?？。.")) <= m.end() - m.start() + 4)]
    if "bank_account" in kinds and not any(c.search(text) for c in MONEY_CONTEXT):
        kinds.remove("bank_account")
    if _RECEIVED_CODE.search(turn):
        kinds.append("otp")
    return kinds


def find_answered_values(text: str) -> list[Span]:
    """Values that open a turn answering a request for their kind (one of the two turns before)."""
    if "\n" not in text:
        return []
    out: list[Span] = []
    asked: dict[str, int] = {}
    said: list[tuple[int, int]] = []
    for i, say, end in turns(text, _HEAD):
        said.append((say, end))
        live = sorted((k for k, at in asked.items() if still_open(text, said, at, i)), key=lambda k: -asked[k])
        if live:
            lead = _LEAD.match(text, answer_label(text, say, end), end)  # round 37: a label may open the answer
            m = _VALUE.match(text, lead.end() if lead else say, end)
            value = m.group("v") if m else ""
            value = value[:-1] if value[-1:] in ("#", "＃") and value[:-1].isdigit() else value  # round 40: "8830#"
            kind = next((k for k in live if m and _fits(k, value)), None)
            if m is not None and kind is not None:
                out.append((kind, m.start("v"), m.start("v") + len(value)))
                del asked[kind]
                continue
        for kind in _asked(text[say:end], text):
            asked[kind] = i
    return out


_KEY_LABEL = (r"(?i)(?:\b(?:api|app|access|secret|client)?[ _-]?(?:key|secret|token)s?|(?<=[a-z])(?-i:Key|Secret|Token)|"
              r"\bpass(?:word|code)|密钥|秘钥|令牌|密码|口令|(?<![A-Za-z])(?:app)?key)")
_SENT_EN = (r",?\s*(?:(?:I\s+)?(?:just\s+|already\s+)?(?:sent|DM'?d|DMed|messaged|texted|emailed|passed)\s+(?:it\s+)?(?:to\s+)?"
            r"(?:you|u)|(?:was\s+|is\s+)?sent\s+(?:to\s+you\s+)?(?=privately|directly|in\s|by\s))"
            r"(?:\s+(?:privately|directly|in\s+(?:a\s+)?(?:DM|private)|by\s+DM))?")
_SENT_ZH = r"的?\s*(?:我)?(?:已经?|刚刚?)?(?:私发|私信|单独发|发|传|转)(?:给)?(?:你|您)(?:了)?"
_SENT = re.compile(_KEY_LABEL + r"(?:" + _SENT_EN + r"|" + _SENT_ZH + r")\s*[:：]\s*[\"'“‘`]?(?P<v>[A-Za-z0-9_\-./+=~!@#$%^&*]{6,80})")
_UUID = re.compile(r"(?i)[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def find_sent_values(text: str) -> list[Span]:
    """A key, token or password announced as sent privately, then its value."""
    out: list[Span] = []
    for m in _SENT.finditer(text):
        value = m.group("v").rstrip(".,;:!")
        label = m.group(0)[: m.start("v") - m.start()].lower()
        if any(w in label for w in ("pass", "密码", "口令")):
            if password_shaped(value):
                out.append(("password", m.start("v"), m.start("v") + len(value)))
        elif _UUID.fullmatch(value) or looks_random(value):
            out.append(("api_key", m.start("v"), m.start("v") + len(value)))
    return out
