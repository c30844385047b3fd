"""Secrets found by structure: the value's own validation, the record it sits in, the list it belongs to.

Round 8's error analysis (docs/benchmarks.md, "Round 8 redaction") grouped the misses of an unseen writer into
causes that are not missing words but missing structure; each finder here answers one:

- **Grouped digits validated as a whole**: a Chinese resident ID written in groups ("3301 0619 9511 2048 24") is
  found by joining the groups and checking the date and the ISO 7064 check character, so a phone-like run of
  groups that fails the check stays.
- **Keyed records**: ``'account_number': '0001...'``, ``acctNo=...``, ``"routing_number": ...`` - the key is
  split into words (snake_case, camelCase, kebab) and read as a cue, so every record syntax (JSON, Python dict,
  env, YAML, query string) is one rule.
- **A bank named before a card number**: a Chinese debit card is the account ("农行卡 6228...", "招行一卡通
  6214..."): 12-19 digits right after a bank's name or a bank-card word are an account number with or without a
  Luhn check digit (a credit card number is still the card finder's, by Luhn).
- **Lists after one cue**: recovery / backup codes ("recovery codes: 7f3a2-c91be 0d8e4-b62fa ...", "备用码：...")
  - every member of a run of same-shaped tokens after the cue, not only the first.
- **A password by its shape in a clause about an account**: a token with upper, lower, digit and symbol, 8-40
  characters, high entropy, where the clause names an account or a login ("svc-build account uses Qz8!vLm2@pR4n").
- **The ID half of a pair written as "access X / secret Y"**: an upper-case ID-shaped token joined to a secret.
"""

from __future__ import annotations

import math
import re

from hindsight.safety.validators import cn_id_valid, shannon_entropy, ssn_valid

Span = tuple[str, int, int]

# --------------------------------------------------------------------------- grouped IDs

_GROUPED_DIGITS = re.compile(r"(?<![\w+-])\d{2,8}(?:[ \u00a0-]\d{1,8}){2,6}(?:[ \u00a0-]?[Xx])?(?![\w-])")


def find_grouped_ids(text: str) -> list[Span]:
    """A Chinese resident ID in groups: 17 digits and a check character once the separators are dropped."""
    out: list[Span] = []
    for m in _GROUPED_DIGITS.finditer(text):
        joined = re.sub(r"[ \u00a0-]", "", m.group(0)).upper()
        if len(joined) == 18 and cn_id_valid(joined):
            out.append(("cn_id", m.start(), m.end()))
    return out


# --------------------------------------------------------------------------- keyed records

_KEYED = re.compile(
    r"(?<![\w.-])[\"']?(?P<key>[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+){0,4})[\"']?\s*(?::|=>|=)\s*[\"']?"
    r"(?P<value>[A-Za-z0-9][A-Za-z0-9 -]{4,40}?)(?=[\"'\s,;}\])&]|$)"
)
_KEY_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
_ACCOUNT_KEYS = (
    {"account", "number"}, {"account", "no"}, {"account", "num"}, {"acct"}, {"acc", "no"}, {"acc", "num"}, {"iban"},
    {"routing", "number"}, {"routing", "no"}, {"aba"}, {"bsb"}, {"sort", "code"}, {"bank", "account"},
    {"beneficiary", "account"}, {"payee", "account"}, {"clabe"}, {"nuban"},
)
_CARD_KEYS = ({"card"}, {"card", "number"}, {"card", "no"}, {"card", "num"}, {"pan"}, {"cc", "number"}, {"ccnum"})
_KEY_HINT = re.compile(r"(?i)acc|iban|routing|aba|bsb|sort|card|pan|cc|clabe|nuban|ssn|social|line|addr|apt|unit|suite")
# A national ID named by its field ("ssn": "418552730"): the key says what it is, the number must still be issuable.
_SSN_KEYS = ({"ssn"}, {"social", "security"}, {"social", "security", "number"}, {"ssn", "number"})
# The second line of a postal address in a record ("line2": "Unit 14", "address_2": "Apt 3B"): a home's unit, but only
# in a record that also holds a street line.
_ADDRESS_LINE_KEYS = ({"line", "2"}, {"line2"}, {"address", "2"}, {"address2"}, {"addr", "2"}, {"address", "line", "2"}, {"apt"},
                      {"apartment"}, {"suite"}, {"unit"})
_STREET_KEY = re.compile(r"(?i)[\"']?(?:line_?1|address_?(?:line_?)?1|street(?:_address)?|address|addr)[\"']?\s*(?::|=>|=)\s*[\"']?\d{1,5}\s+[A-Za-z]")
_UNIT_VALUE = re.compile(r"(?i)(?:(?:apt|apartment|unit|suite|ste|flat|fl|floor|room|rm)\.?\s*#?)?\w{1,6}")
_NOT_BANK = re.compile(r"(?i)aws|gcp|azure|cloud|project|tenant|user|customer|client|order|invoice|ticket|service")


def _key_words(key: str) -> set[str]:
    return {w.lower() for w in _KEY_WORDS.findall(key)}


def find_keyed_accounts(text: str) -> list[Span]:
    """A bank account or card number as the value of a record field named like one (a card key says what the
    number is, so no Luhn check: a declined or made-up card in a log is still somebody's card)."""
    out: list[Span] = []
    street: bool | None = None
    for m in _KEYED.finditer(text):
        key, value = m.group("key"), m.group("value").strip()
        if not _KEY_HINT.search(key):
            continue  # most keys name nothing of the kind: skip the word split
        words = _key_words(key)
        if words in _SSN_KEYS:
            if ssn_valid(value):
                out.append(("national_id", m.start("value"), m.start("value") + len(value)))
            continue
        if words in _ADDRESS_LINE_KEYS:
            if street is None:
                street = bool(_STREET_KEY.search(text))  # once per text: many fields must not mean many scans
            if street and _UNIT_VALUE.fullmatch(value) and re.search(r"\d", value):
                out.append(("address", m.start("value"), m.start("value") + len(value)))
            continue
        if _NOT_BANK.search(key):
            continue
        digits = re.sub(r"[ -]", "", value)
        if words in _CARD_KEYS and digits.isdigit() and 13 <= len(digits) <= 19:
            out.append(("card", m.start("value"), m.start("value") + len(value)))
            continue
        if not any(k <= words for k in _ACCOUNT_KEYS):
            continue
        if digits.isdigit() and 6 <= len(digits) <= 34 or re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}", digits):
            start = m.start("value")
            out.append(("bank_account", start, start + len(value)))
    return out


# --------------------------------------------------------------------------- a bank named before a card number

_BANK_NAMED = re.compile(
    r"(?:[农工建中招交兴光浦邮民平广华北]行|银行|农信|信用社|一卡通|储蓄卡|借记卡|工资卡|存折|银联卡|社保卡)"
    r"(?:[\u4e00-\u9fff]{1,12}?(?:支行|分行|营业部))?(?:的)?(?:卡|卡号|账号|帐号|账户)?"
    r"\s*(?:是|为|：|:|号)?\s*(?P<value>\d{4}(?:[ -]?\d){8,15})(?![\d-])"
)
_TEST_CARD = re.compile(r"(?i)测试|沙箱|test|sandbox|示例|样例|example")


def find_named_bank_cards(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _BANK_NAMED.finditer(text):
        digits = re.sub(r"\D", "", m.group("value"))
        if 12 <= len(digits) <= 19 and not _TEST_CARD.search(text, max(0, m.start() - 20), m.start("value")):
            out.append(("bank_account", *m.span("value")))
    return out


# --------------------------------------------------------------------------- lists of codes after one cue

_CODE_LIST_CUE = re.compile(
    r"(?i)(?:\b(?:recovery|backup|back-up|scratch|rescue|emergency|one[- ]time|single[- ]use)\s+(?:codes?|keys?)\b|"
    r"恢复码|备用码|救援码|备份码|应急码|一次性(?:验证)?码)(?:[^\n:：]{0,60}?[:：])?"
)
# Items: separated by commas, spaces or line breaks, numbered ("1. ") or bulleted ("- ", "• ").
_CODE_ITEM = re.compile(r"\s*(?:[,，、;；]|\d{1,2}[.)]\s|[-*•·]\s)?\s*(?P<code>[A-Za-z0-9]{3,12}(?:-[A-Za-z0-9]{3,12})?)(?![\w-])")


def _code_shape(value: str) -> str:
    return re.sub(r"[A-Za-z0-9]", "x", value)


def find_code_lists(text: str) -> list[Span]:
    """Every code of a recovery/backup code list: a run of at least two tokens of one shape, each with a digit."""
    out: list[Span] = []
    for cue in _CODE_LIST_CUE.finditer(text):
        pos = cue.end()
        run: list[tuple[int, int]] = []
        while True:
            m = _CODE_ITEM.match(text, pos)
            if not m or not re.search(r"\d", m.group("code")):
                break
            if run and _code_shape(m.group("code")) != _code_shape(text[run[0][0] : run[0][1]]):
                break
            run.append(m.span("code"))
            pos = m.end()
        if len(run) >= 2:
            out.extend(("otp", a, b) for a, b in run)
    return out


# --------------------------------------------------------------------------- a password by its shape

_PW_CHARS = r"[A-Za-z0-9!@#$%^&*~?+=_.-]"
_STRONG_TOKEN = re.compile(rf"(?<![\w@/.:=$%&*#!~?+-])(?={_PW_CHARS}*[A-Z])(?={_PW_CHARS}*[a-z])(?={_PW_CHARS}*\d)"
                           rf"(?={_PW_CHARS}*[!@#$%^&*~?+=_.-]){_PW_CHARS}{{8,40}}(?![\w@/(])")
_ACCOUNT_CLAUSE = re.compile(
    r"(?i)\b(?:account|login|log\s+in|sign\s+in|creds?|credentials?|user(?:name)?|svc|service\s+user|admin|root)\b|账号|帐号|账户|登录|登陆|用户名"
)
# ... or one about a password itself or a mailbox whose password was reset, when the value is what the clause says
# something *is* or *uses* ("the shared mailbox now uses X after the reset", "初始密码统一是…，我的就是 X"; not
# "密码重置后 Build#42 才发布").
_PASSWORD_CLAUSE = re.compile(r"(?i)\b(?:passwords?|passcode|passphrase|mailbox|reset)\b|密码|口令|邮箱")
_COPULA_BEFORE = re.compile(r"(?i)(?:\b(?:is|are|was|uses|now|to|=)|是|为|成|[:：=])\s*$")
_CLAUSE_STOP = re.compile(r"[。！？；;!?\n]|\.\s")
_PASSWORD_WORD = re.compile(r"(?i)\b(?:passwords?|passcode|passphrase)\b|密码|口令")
_NETWORK_NAME = re.compile(r"(?i)wi-?fi\s*(?:名|名称|叫|name\b|network\b)|\bssid\b|network\s+name|网络名|热点名?")
# Domains, versions (also inside a name: Config_v2.1-Beta), emails and user@host (not "03211X@Jw"), file names; a camelCase or snake_case setting
# given a number ("minLength=12", "max_retries=3"): code, not a password.
_NOT_PASSWORD_SHAPE = re.compile(r"(?i)^(?:[\w.-]+\.(?:com|org|net|io|cn|py|js|ts|md|json|ya?ml)|.*(?<![A-Za-z0-9])v?\d+\.\d+.*|[\w.+-]+@(?:[\w-]+\.[\w.-]+|(?-i:[a-z0-9-]+))|.*\.\w{2,4})$"
                                r"|^(?-i:[a-z]+(?:[A-Z][a-z]*)+|[a-z]+(?:_[a-z]+)+)=\d+$")


def find_strong_passwords(text: str) -> list[Span]:
    """A token shaped like a generated password (four character classes) in a clause about an account or login."""
    out: list[Span] = []
    for m in _STRONG_TOKEN.finditer(text):
        value = m.group(0).rstrip(".,;:!?")
        if len(value) < 8 or _NOT_PASSWORD_SHAPE.match(value) or not _STRONG_TOKEN.fullmatch(value):
            continue
        lo = max(0, m.start() - 60)
        stops = list(_CLAUSE_STOP.finditer(text, lo, m.start()))
        clause = text[stops[-1].end() if stops else lo : m.start()]
        if _NETWORK_NAME.search(clause[-16:]):
            continue  # "密码改成了 X，wifi 名还是 ChenFamily_5G": the nearer cue names a network
        entropy = shannon_entropy(value)
        if _ACCOUNT_CLAUSE.search(clause) and entropy >= 3.0:
            out.append(("password", m.start(), m.start() + len(value)))
        elif _PASSWORD_CLAUSE.search(clause) and _COPULA_BEFORE.search(clause[-8:]):
            # Near the most a short token can have where the clause names a password itself ("初始密码统一是…，我的就是
            # 03211X@Jw": 9 characters, one repeated, 2.95); 3.0 for a mailbox or a reset.
            floor = min(3.0, math.log2(len(value)) - 0.3) if _PASSWORD_WORD.search(clause) else 3.0
            if entropy >= floor:
                out.append(("password", m.start(), m.start() + len(value)))
    return out


# --------------------------------------------------------------------------- "access X / secret Y"

_ACCESS_SLASH_SECRET = re.compile(
    r"(?i)\b(?:access|key|id)\s*[:=]?\s*(?-i:(?P<value>[A-Z0-9]{16,40}))\s*(?:/|,|\|)\s*(?:secret|sk)\b"
)


def find_pair_ids(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _ACCESS_SLASH_SECRET.finditer(text):
        value = m.group("value")
        if re.search(r"\d", value) and re.search(r"[A-Z]", value):
            out.append(("api_key", *m.span("value")))
    return out


# --------------------------------------------------------------------------- "client_secret <value>"

# A credential named as an identifier (snake_case or camelCase: code, config, a console's field label) and its value
# after a bare space: the name is unambiguous, so no separator is needed.
_NAMED_SECRET = re.compile(
    r"(?i)(?<![\w-])[a-z]*[_-]?(?:client[_-]?secret|app[_-]?secret|secret[_-]?key|api[_-]?key|access[_-]?token|auth[_-]?token|"
    r"refresh[_-]?token|private[_-]?key|signing[_-]?key)\s+(?P<value>[A-Za-z0-9_\-.~+/=]{16,128})(?![\w~+/=-])"
)


# "新密码（CaiWu_2024Q3）", "the password (Tr1cky-2024) is on the whiteboard": the value in brackets after its cue.
_PAREN_PASSWORD = re.compile(
    r"(?i)(?:密码|口令|\bpassword|\bpasscode|\bpassphrase|\bpin)\s*[（(]\s*(?P<value>(?!(?i:sha|md5|bcrypt|argon|pbkdf|scrypt|utf|rsa|aes|v\d))(?=[!-~]*\d)(?=[!-~]*[A-Za-z])[!-~]{4,40}?)\s*[)）]"
)


def find_named_secrets(text: str) -> list[Span]:
    out: list[Span] = [("password", *m.span("value")) for m in _PAREN_PASSWORD.finditer(text)
                       if not re.search(r"[\s()（）]", m.group("value"))]
    for m in _NAMED_SECRET.finditer(text):
        value = m.group("value").rstrip(".")
        if shannon_entropy(value) >= 3.5 and re.search(r"\d", value) and re.search(r"[A-Za-z]", value):
            out.append(("api_key", m.start("value"), m.start("value") + len(value)))
    return out


def find_structured_secrets(text: str) -> list[Span]:
    """Every finder of this module."""
    return (find_grouped_ids(text) + find_keyed_accounts(text) + find_named_bank_cards(text) + find_code_lists(text)
            + find_strong_passwords(text) + find_pair_ids(text) + find_named_secrets(text))
