"""Secrets whose kind is set by what stands around them, not by a cue right before them (round 9).

Round 9's error analysis (docs/benchmarks.md, "Redaction, round 9") found values that every finder skipped
because the word that names them sits somewhere else in the sentence:

- **A card written as a combination**: "4847 ... 3395 / 12/27 / 309", "card, 09/28, 417" - after a card number
  and its expiry date, the 3-4 digits that close the list are the security code (called only for a text with a
  card in it, like the expiry finder).
- **An account at a named bank**: "my savings acct at Ally is 2198837465", "the checking account with Chase:
  ..." - the account word, a bank named after "at"/"with", then the number.
- **A code named after it**: "880472（支付宝验证码）", "482913 (Google verification code)" - the value first, its
  kind in brackets right after it; "Google texted me G-550218" - who sent it and to whom, then a code-shaped
  value (a letter-dash-digits code or six to eight digits).
- **A database login written as user/password@host:port/service** (Oracle EZConnect and the like), with no
  client name before it.
"""

from __future__ import annotations

import re

Span = tuple[str, int, int]

# The expiry date right after a card number (any separator), then the code that closes the list.
_CARD_COMBO = re.compile(
    r"(?<![\d/-])(?P<expiry>(?:0[1-9]|1[0-2])\s?[/-]\s?(?:20)?\d{2})(?![\d/-])\s*(?:/|\||,|，|;|；)\s*(?:cvv2?|cvc2?|cvn2?|安全码|背面)?\s*[:：]?\s*"
    r"(?P<value>\d{3,4})(?![\d/.,]\d|\d)"
)
_LIST_SEP = re.compile(r"\s*(?:/|\||,|，|;|；)\s*")


def find_card_combo(text: str, cards: list[tuple[int, int]]) -> list[Span]:
    """The security code after "card / expiry /": only where a card number ends right before the expiry date. The
    expiry itself (MM/YY or MM-YY; a bare MM-YY is only an expiry in this list) goes with it."""
    out: list[Span] = []
    for m in _CARD_COMBO.finditer(text):
        if any(_LIST_SEP.fullmatch(text, end, m.start()) for _, end in cards):
            out += [("card_expiry", *m.span("expiry")), ("cvv", *m.span("value"))]
    return out


# "savings acct at Ally is 2198837465", "joint savings at Ally is ...", "checking account with Chase: ...".
_ACCOUNT_AT_BANK = re.compile(
    r"(?i)\b(?:savings|checking|current|chequing|deposit|brokerage)(?:\s+(?:acct|account|a/c))?\.?\s+(?:at|with|in)\s+"
    r"(?-i:[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,3})\s*(?:\bis\b|:|=|：|#|no\.?)\s*(?:\bnumber\b\s*)?"
    r"(?P<value>\d(?:[ -]?\d){5,16})(?![\d-])"
)

_OTP_VALUE = r"(?:[A-Z]-\d{4,8}|\d{4,8}|(?=[A-Z]*\d)[A-Z0-9]{5,8})"
# "880472（支付宝验证码）", "482913 (your Google verification code)": the value, then its kind in brackets.
_CODE_THEN_KIND = re.compile(
    r"(?<![\w-])(?P<value>" + _OTP_VALUE + r")\s*[（(]\s*(?:[^()（）\n]{0,16}?)"
    r"(?:验证码|校验码|核验码|动态码|短信码|一次性密码|(?i:verification\s+code|security\s+code|login\s+code|one[- ]time\s+(?:code|password)|otp|2fa\s+code))"
)
# "Google texted me G-550218", "the bank sent him 83920417": a sender, a verb of sending, a person, the code.
_SENT_TO_PERSON = re.compile(
    r"(?i)\b(?:texted|sent|messaged|emailed|sms(?:'d|ed)|pinged)\s+(?:me|him|her|them|us|the\s+user)\s+(?:a\s+code\s+|the\s+code\s+)?"
    r"(?-i:(?P<value>[A-Z]-\d{4,8}|\d{6,8}))(?![\w-]|[.,]\d)"
)
_UNIT_AFTER = re.compile(r"(?i)\s*(?:dollars|euros|pounds|yuan|bucks|times|photos|files|messages|emails|rows|records|items|bytes|元|次|个)\b")

# Oracle EZConnect and the like: "erp_user/Erp#9981@10.1.1.50:1521/ORCLPDB1" - a login, "/", a password, "@",
# a host with a port and a service. The password must have a digit (paths and package names rarely do).
_USER_PASS_HOST = re.compile(
    r"(?<![\w/.@-])[A-Za-z][\w$.-]{0,29}/(?P<value>(?=[^\s@/]*\d)[^\s@/\"'`]{3,64})@"
    r"(?:\d{1,3}(?:\.\d{1,3}){3}|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+):\d{2,5}(?:/[\w.-]+)?"
)


def find_context_secrets(text: str) -> list[Span]:
    """Accounts at a named bank, codes named after them or sent to a person, user/password@host logins."""
    out: list[Span] = [("bank_account", *m.span("value")) for m in _ACCOUNT_AT_BANK.finditer(text)]
    out += [("otp", *m.span("value")) for m in _CODE_THEN_KIND.finditer(text)]
    out += [("otp", *m.span("value")) for m in _SENT_TO_PERSON.finditer(text) if not _UNIT_AFTER.match(text, m.end())]
    out += [("password", *m.span("value")) for m in _USER_PASS_HOST.finditer(text)]
    return out
