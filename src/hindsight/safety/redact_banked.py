"""Account numbers told by the bank after them or by the account's kind (redaction round 34, issue 10).

- *its bank after it*: in a chat turn or a note that moves money or names an account ("send my share to my account
  pls, 7719 ... at Bank of X", "钱转我卡上就行，6214 ...，招商银行"), a number of 10 - 30 digits (grouped or not) followed,
  after at most a comma and "at" / "with" / "in", by a bank's name: "Bank of X", "X Bank", "X Credit Union", "X Building
  Society", a bank's common name (Chase, HSBC, DBS ...), 银行, 信用社, 工行 / 农行 / 招行 ...;
- *its kind before it*: an account named by its currency or its type ("the euro account is", "USD acct:", 美元户,
  人民币户是, 港币账户, 外币户, 另一个一般户是) and then the number; "the savings one is" / "另一个是" - an account said
  as "one" - only where the text already names an account number before it.

- *what it is for, or its bank in brackets* (round 40): "account for the rent: ...", "HKD account (HSBC): ...", in a
  text about a bank or money moving; a cloud's, a customer's or a member's account is none.

A phone's cue right before the number (call, tel, 电话) wins; an order, invoice or tracking number's label does too.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_cues import MONEY_CONTEXT

Span = tuple[str, int, int]

_NUMBER = r"(?P<value>(?<![A-Za-z0-9_.+-])\d(?:[ -]?\d){9,29})(?![A-Za-z0-9_-]|[.,]\d)"
_BANK_NAME = (
    r"(?:(?-i:Bank\s+of\s+[A-Z][\w&'-]*(?:\s+[A-Z][\w&'-]*){0,2}|[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3}\s+"
    r"(?:Bank|Credit\s+Union|Building\s+Society|Savings\s+Bank))|"
    r"\b(?:Chase|HSBC|Barclays|Wells\s+Fargo|Citi(?:bank)?|Santander|Lloyds|NatWest|Monzo|Revolut|DBS|OCBC|UOB|ICBC|BOC|CCB|ABC|"
    r"Maybank|ING|Rabobank|Deutsche\s+Bank|BNP\s+Paribas|Standard\s+Chartered|Hang\s+Seng)\b|"
    # a bank's own name before 银行, never a clause ("打来说是银行风控的": a caller's claim)
    r"(?:(?![说是打来的到给转在从把让叫称])[\u4e00-\u9fff]){0,8}(?:银行|信用社|信用合作社)|[农工建中交招浦兴]行|邮储)"
)
_BANK_AFTER = re.compile(_NUMBER + r"\s*[,，、(（]?\s*(?:(?i:at|with|in|@)\s+)?" + _BANK_NAME)
_MONEY_OR_ACCOUNT = re.compile(
    r"(?i)\b(?:accounts?|acct|acc|a/c|transfer|wire|send|sent|pay|paid|payment|refund|reimburse|deposit|share|owe|balance|"
    r"rent|salary|money|funds?|back)\b|转|汇|打款|打钱|退|付|收款|账户|帐户|账号|卡上|卡里|这张卡|钱|押金|工资"
)
_NOT_ACCOUNT = re.compile(
    r"(?i)\b(?:call|phone|tel|mobile|cell|fax|whatsapp|order|invoice|tracking|ticket|case|ref(?:erence)?|booking|serial|sku|"
    r"parcel|waybill)\b[^\n\d]{0,12}$|(?:电话|手机|热线|订单|单号|运单|快递|发票|工单|编号)[^\n\d]{0,8}$"
)
_KIND_LABEL = re.compile(
    r"(?i)(?:\b(?:USD|EUR|GBP|HKD|RMB|CNY|JPY|SGD|AUD|CAD|CHF|dollar|euro|sterling|pound|yen|savings|checking|current|business|"
    r"personal|joint|payroll|escrow|foreign[- ]currency)\s+(?:account|acct|a/c)(?:\s+(?:no\.?|number|#))?|"
    r"(?:人民币|美元|美金|港币|港元|欧元|日元|英镑|澳元|新加坡元|外币|外汇|本币|基本|一般|专用|临时|备用|对私|结算)(?:存款)?(?:户|账户|帐户)(?:账号|帐号|号)?)"
    r"\s*(?:\bis\b|[:：=]|是|为)?\s*$"
)
_ONE_LABEL = re.compile(
    r"(?i)(?:\b(?:the\s+)?(?:USD|EUR|GBP|HKD|RMB|dollar|euro|sterling|savings|checking|current|business|personal|joint|other|"
    r"second|backup)\s+one\s+(?:is|:)|另一个(?:账户|户|账号|卡)?(?:是|为|：|:)|另外一个(?:账户|户|账号|卡)?(?:是|为|：|:))\s*$"
)
_FIRST_ACCOUNT = re.compile(r"(?i)\b(?:account|acct|a/c|IBAN)\b|账[号户]|帐[号户]|户口|卡号|(?<![A-Za-z])\d(?:[ -]?\d){9,29}(?!\d)")
_NUMBER_RE = re.compile(_NUMBER)
# A phone's shape: a service line (400 / 800), a CN mobile, a 3-3-4 or 3-4-4 grouping with hyphens.
_PHONE_SHAPE = re.compile(r"(?:400|800)\d{7}|1[3-9]\d{9}|\d{3}-\d{3,4}-\d{4}")


# Round 40: an account named with what it is for or its bank in brackets, then a colon ("Landlord's account for the rent:
# 12-3456-...", "personal HKD account (HSBC): 004-...", "my account for the refund: 40218836"), in a text about a bank
# or money moving (``redact_cues.MONEY_CONTEXT``); a cloud's, a customer's or a member's account is none.
_NAMED_ACCOUNT = re.compile(r"(?i)\b(?:account|acct|a/c)(?:\s*[(（][^)）\n]{1,30}[)）]|\s+for\s+[^\n\d:：,，.。]{1,24}?)\s*[:：]\s*"
                            r"(?P<value>\d(?:[ -]?\d){5,29})(?![A-Za-z0-9_-]|[.,]\d)")
_NOT_BANK = re.compile(r"(?i)\b(?:aws|gcp|azure|cloud|customer|client|portal|member(?:ship)?|loyalty|user|login|game|prod|"
                       r"staging|project|tenant|service|utility|utilities)\b")


def _turn(text: str, pos: int) -> tuple[int, int]:
    lo = text.rfind("\n", 0, pos) + 1
    hi = text.find("\n", pos)
    return lo, len(text) if hi < 0 else hi


def find_banked_accounts(text: str) -> list[Span]:
    out: list[Span] = []
    money: dict[int, bool] = {}  # each turn read once for a money or account word, however many numbers it holds
    for m in _BANK_AFTER.finditer(text):
        lo, hi = _turn(text, m.start())
        if lo not in money:
            money[lo] = bool(_MONEY_OR_ACCOUNT.search(text, lo, hi))
        if (money[lo] and not _NOT_ACCOUNT.search(text, max(lo, m.start() - 20), m.start())
                and not _PHONE_SHAPE.fullmatch(m.group("value").replace(" ", "") if "-" not in m.group("value") else m.group("value"))):
            out.append(("bank_account", *m.span("value")))
    if any(c.search(text) for c in MONEY_CONTEXT):
        for m in _NAMED_ACCOUNT.finditer(text):
            if not _NOT_BANK.search(text, max(0, m.start() - 24), m.start("value")):
                out.append(("bank_account", *m.span("value")))
    for m in _NUMBER_RE.finditer(text):
        before = text[max(0, m.start() - 40) : m.start()]
        if _KIND_LABEL.search(before):
            out.append(("bank_account", *m.span("value")))
        elif (one := _ONE_LABEL.search(before)) and _FIRST_ACCOUNT.search(text, 0, m.start() - len(before) + one.start()):
            out.append(("bank_account", *m.span("value")))
    return out
