"""Findings that need a context cue: one-time codes, national IDs, bank accounts, card expiry (phones: ``redact_phones``).

A bare six-digit number is a price, a port or a build number; after "verification code" or
"验证码" it is a secret. Each finder here pairs a *cue* (EN and ZH words that announce the value)
with a *shape* (and, where one exists, a checksum from :mod:`hindsight.safety.validators`), so a
number is redacted only when the sentence says what it is. The cue must sit right before the value
(separators like "is", ":", "是", "为" in between), which keeps the patterns linear and the
look-alikes ("exit code 137", "port 5432", "有效期到2030年") untouched.
"""

from __future__ import annotations

import re

from hindsight.safety.validators import (
    card_valid,
    iban_shape,
    iban_valid,
    ssn_valid,
)

Span = tuple[str, int, int]

# What may stand between a cue and its value: "is", "was", ":", "=", "是", "为", "#", "no.".
_SEP = r"(?:\s*(?:[:：=#]|\bis\b|\bwas\b|\bare\b|\bof\b|是|为|号码|号|no\.?|number|:)\s*){0,3}\s*"
CUE_SEP = _SEP  # also read by ``redact_phones``

# --------------------------------------------------------------------------- one-time codes

_OTP_CUE = (
    r"(?i)(?:\b(?:digicode|keycode)\b|\b(?:verification|verify|confirmation|login|log-in|sign-?in|security|access|auth(?:entication|orization)?|"
    r"one[- ]time|2fa|mfa|otp|sms|text|backup|recovery|reset|pairing|unlock|lock|door|gate|entry|alarm|safe|activation|"
    r"two[- ]factor|lockbox|keypad|garage|padlock|locker|building|guard|magic)\s+(?:codes?|pins?|passcodes?|keys?|combination)\b|"
    r"\bcode\s+(?:to|for)\s+the\s+(?:door|gate|lockbox|key\s?box|safe|alarm|garage|building|front\s+door|padlock|locker)\b|\b(?:otp|totp|2fa|mfa)\b(?:\s+codes?)?|"
    r"\bone[- ]time\s+(?:pass(?:code|word)|pin)\b|\byour\s+code\b|\btwo[- ]factor\b|\b2-step\b|"
    r"(?:验证|认证)[\u4e00-\u9fff，,]{0,8}?码|门禁(?:密码)?|[校核查]验码|动态码|动态密码|短信码|令牌码|动态令牌|动态口令牌?(?:现在|当前)?(?:显示的?)?|口令码|确认码|激活码|授权码|登录码|一次性(?:密码|验证码|口令)|备用码|恢复码|取件码|提货码|门禁码)"
)
_OTP_VALUE = (r"(?:\d{2,4}(?:[ -]\d{2,4}){1,3}|\d(?: \d){3,7}|(?=[A-Za-z]*\d)[A-Z0-9]{4,10}|[A-Z]-\d{4,8}"
              r"|(?=[A-Za-z-]*\d)[A-Z0-9]{3,6}(?:-[A-Z0-9]{3,6}){1,7}|(?=[a-z-]*\d)[a-z0-9]{4,5}-[a-z0-9]{4,5})")
_OTP = re.compile(_OTP_CUE + r"(?:\s*\([^)\n]{0,20}\))?(?:\s+(?:for|from|to|on)\s+[^\n:：]{1,48}?[:：])?" + _SEP + r"[【\[(（「\"“']?(?P<value>" + _OTP_VALUE + r")(?![\w-]|[.,]\d|[ -]\d)")
# Round 44 (blind r39): a filler word may carry a hyphen ("2FA recovery key for the X-ray vendor portal is ...").
_OTP_FILLER = re.compile(
    _OTP_CUE + r"(?:(?:\s+[A-Za-z'](?:[A-Za-z']|-(?=[A-Za-z])){0,11}){1,6}?\s+(?:is|was|are|were|reads?|said)\s*:?|(?:\s+[A-Za-z'-]{1,12}){1,3}\s*:|[\u4e00-\u9fff，,]{1,10}?(?:是|为|：|:))\s*"
    r"[【\[(（「\"“']?(?P<value>" + _OTP_VALUE + r")(?![\w-]|[.,]\d|[ -]\d)"
)
# "the code they just texted me is 0 5 7 3 1 8": a code, words that say it was sent, then the value.
_SENT_CODE = re.compile(
    r"(?i)\b(?:code|pin|passcode)s?\b(?:\s+[A-Za-z']{1,12}){0,4}?\s+(?:texted|sent|emailed|messaged|sms(?:'d|ed)|read\s+out|got)"
    r"(?:\s+[A-Za-z']{1,12}){0,3}?\s+(?:is|was|are|were|reads?)\s*:?\s*[\"“']?(?P<value>" + _OTP_VALUE + r")(?![\w-]|[.,]\d|[ -]\d)"
)
# "required SMS OTP; user supplied 062915": the code named, then a verb that hands it over, in the same sentence.
_SUPPLIED_CODE = re.compile(
    r"(?i)(?:\b(?:otp|2fa|mfa|one[- ]time\s+(?:code|passcode|password)|verification\s+code|sms\s+code|auth(?:entication)?\s+code)\b|"
    r"验证码|动态码|校验码)[^\n.。!?！？]{0,40}?(?:\b(?:supplied|provided|entered|gave|typed|keyed\s+in|read\s+out|submitted)|"
    r"输入了?|提供了?|报了)\s*(?:the\s+code\s+|code\s+|验证码\s*)?(?P<value>\d{4,8}|\d{3,4}[- ]\d{3,4})(?![\w-]|[.,]\d)"
)
# "the code off his authenticator - 602 118", "验证码我念给你：三七一九零二": where the code came from, a separator, the value
# (digits, or spelled in Chinese numerals).
_SOURCE_CODE = re.compile(
    r"(?i)\b(?:code|pin|passcode)s?\b[^\n.;!?]{0,40}?\b(?:authenticator(?:\s+app)?|sms|text(?:\s+message)?|token|app)\b\s*"
    r"(?:[-–—:：]|\bis\b|\bwas\b|\bsays\b|\bshows\b|\breads\b)\s*(?P<value>" + _OTP_VALUE + r")(?![\w-]|[.,]\d|[ -]\d)|"
    r"(?:验证码|校验码|动态码|短信码)[\u4e00-\u9fff，,]{0,10}?(?:是|为|：|:)\s*(?P<han>[零〇一二三四五六七八九]{4,8})(?![零〇一二三四五六七八九十百千万])"
)
# Round 30: "read the code out to me over the phone, 739 204, for her app": a code handed over aloud or by text, then the
# value set off by commas in its sentence; "key safe by the back door, code 4471", "钥匙盒，密码 3307": a lock named,
# then its code.
_READ_CODE = re.compile(
    r"(?i)\b(?:read|texted|told|gave|sent|recited|spelled)\b[^\n.;!?]{0,30}?\b(?:code|pin|passcode)\b[^\n.;!?,]{0,40}?,\s*"
    r"(?P<value>\d{3}[ -]\d{3}|\d(?:[ -]\d){3,7}|\d{4,8})(?=\s*(?:[,;.]|$))"
)
_LOCK_CODE = re.compile(
    r"(?i)(?:\bkey\s?safe|\block\s?box|\bkey\s?box|\bkeypad\s+lock|\bpadlock|\bcombination\s+lock|钥匙盒|钥匙箱|密码箱|密码锁|门锁|保险箱|保险柜|[\u4e00-\u9fff]卡)"
    r"(?:(?!shows?\b|display|error|fault|显示|故障|报错)[^\n.;!?。；！？]){0,40}?(?:\b(?:code|pin|combination|combo)\b|密码|开箱码)\s*(?:[:：=]|\bis\b|是|为)?\s*"
    r"(?P<value>\d{4,8})(?![\w-]|[.,]\d)"
)
_USE_CODE = re.compile(r"(?i)\b(?:use|enter|type|input|punch in|key in)\s+(?:the\s+)?(?:code|pin|passcode)\s+(?P<value>\d{4,8})(?![\w-]|[.,]\d)")
_OTP_MORE = re.compile(r"(?i)\s*(?:[,，、;；/]|\band\b|和|及)\s*(?P<value>" + _OTP_VALUE + r")(?![\w-]|[.,]\d|[ -]\d)")
_UNIT_AFTER = re.compile(r"\s*(?:分钟|秒|小时|位|次|天|个|minutes?|mins?|seconds?|secs?|hours?|digits?|characters?|chars?|times|days?|lines?)\b|\s*(?:分钟|秒|小时|位|次|天|个)")
# A TOTP seed: base32 after an authenticator cue.
_TOTP_SEED = re.compile(
    r"(?i)(?:totp|2fa|mfa|otp|authenticator|two[- ]factor|谷歌验证器|身份验证器)[^\n.。]{0,30}?(?:seed|secret|key|密钥|种子|秘钥)"
    r"(?:[^\n.。:：=]{0,40}?(?:\bis\b|[:：=]|是|为))?\s*(?P<value>(?=[A-Z]*[2-7])(?-i:[A-Z2-7]{4}(?: ?[A-Z2-7]{4}){3,15})=*)(?![A-Za-z0-9])"
)


# "Your Apple ID code is: 739201": a bare "code" with an explicit "is"/":" and a 4-8 digit number,
# unless the code is one of the many that are not secrets (error, status, zip, product ...).
_BARE_CODE = re.compile(r"(?i)(?<![\w-])(?:(?P<word>[A-Za-z]+)\s+)?codes?\s*(?:\bis\b\s*:?|[:：=])\s*(?P<value>\d{4,8}|\d{3}[- ]\d{3})(?![\w-]|[.,]\d)")
# "Telegram code 52817", "Steam code 48213": a service name, "code" and a 5-8 digit number with no separator.
_NAMED_CODE = re.compile(r"(?<![\w-])(?P<word>[A-Z][A-Za-z]+)\s+(?:login\s+|sign-?in\s+|security\s+)?code\s+(?P<value>\d{5,8}|\d{3}[- ]\d{3})(?![\w-]|[.,]\d)")
# "Enter 604193 to finish signing in", "输入 482913 完成验证": the code before what it unlocks.
_ENTER_CODE = re.compile(
    r"(?i)(?:\b(?:enter|use|type|input)\s+(?P<v1>\d{4,8}|\d{3}[- ]\d{3})\s+(?:to|for|as)\s+(?:\w+\s+){0,2}?"
    r"(?:verify|verif|confirm|sign|log|login|complete|finish|reset|authori[sz]e|authenticate|approve|continue|activate|unlock)|"
    # "enter 73920651 from the SMS": where the number came from says it is a code
    r"\b(?:enter|use|type|input)\s+(?P<v3>\d{4,8}|\d{3}[- ]\d{3})\s+(?:from|in|on)\s+(?:the|your|my|his|her|their)\s+"
    r"(?:sms|text(?:\s+message)?|message|email|e-mail|authenticator(?:\s+app)?|app|token|push|letter)\b|"
    r"输入\s*(?P<v2>\d{4,8})\s*(?:完成|进行|以|来)?(?:验证|登录|登陆|确认|支付|注册|绑定|解锁))"
)
NOT_SECRET_CODE = frozenset(
    ["error", "status", "exit", "zip", "postal", "post", "area", "country", "return", "response", "http", "promo", "discount", "coupon", "product", "source", "region", "airport", "station", "tracking", "item", "sku", "bar", "qr", "color", "colour", "dial", "iso", "currency", "event", "fault", "reason", "language", "stock", "class", "course", "tax", "hs", "bank", "swift", "branch", "sort", "program", "opcode", "unicode", "ascii", "morse", "dress", "zone", "signal"]
)


# The SMS form puts the code first: "482913 is your Uber code", "583920是您的登录验证码".
_OTP_FIRST = re.compile(
    r"(?i)(?<![\w-])(?:[A-Z]-)?(?P<value>\d{4,8})\s*(?:is\s+your\s+(?:[\w-]+\s+){0,3}?(?:verification\s+|login\s+|security\s+|one-time\s+)?"
    r"(?:code|passcode|otp|pin)\b|(?:是|为)?(?:您|你)(?:的|本次)[\u4e00-\u9fff]{0,6}?(?:验证码|校验码|动态码))"
)


def _otp_ok(text: str, value: str, end: int, cued: bool = False) -> bool:
    if re.fullmatch(r"(\d)\1{3,}|0?123456(?:78?9?)?|1234", value.replace(" ", "")):
        return False  # "000000", "123456": a test fixture or a placeholder, not somebody's code
    digits = sum(ch.isdigit() for ch in value)
    letters = sum(ch.isalpha() for ch in value)
    # Four digits at least, or a short mixed code such as "K7Q2M" (two digits among letters).
    grouped = "-" in value and digits >= 1 and letters and len(value) >= 6  # "QXR-7KP"
    # A four-character mixed code ("4Q9K") only as it stands after its cue: two digits and two capitals.
    mixed = digits >= 2 and letters and (len(value) >= 5 or (len(value) == 4 and value.isupper()))
    # Right after its cue ("Steam Guard code was K7PXQ"), a capitals code of five or more with one digit is a code too.
    mixed = mixed or cued and digits == 1 and len(value) >= 5 and value.isupper()
    if not (4 <= digits <= 10 or mixed or grouped) or _UNIT_AFTER.match(text, end):
        return False
    return not (value.isdigit() and len(value) == 4 and value.startswith(("19", "20")) and text[end : end + 1] in "年-/")


# Shared with ``redact_told`` (codes told by what happens to them).
OTP_VALUE = _OTP_VALUE
otp_ok = _otp_ok


def find_otp(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _OTP.finditer(text):
        # A booking's confirmation code ("Southwest confirmation code is K7QPZR") is a reference, not a login.
        if not _otp_ok(text, m.group("value"), m.end(), cued="confirm" not in m.group(0).lower()):
            continue
        out.append(("otp", *m.span("value")))
        pos = m.end()
        while (more := _OTP_MORE.match(text, pos)) and _otp_ok(text, more.group("value"), more.end()):
            out.append(("otp", *more.span("value")))
            pos = more.end()
    for m in _LOCK_CODE.finditer(text):  # a lock's 密码 is a password, its code / PIN / combination a code
        if _otp_ok(text, m.group("value"), m.end()):
            out.append(("password" if "密码" in m.group(0) else "otp", *m.span("value")))
    for pattern in (_OTP_FILLER, _USE_CODE, _SENT_CODE, _SUPPLIED_CODE, _READ_CODE):
        for m in pattern.finditer(text):
            if _otp_ok(text, m.group("value"), m.end()):
                out.append(("otp", *m.span("value")))
    for m in _SOURCE_CODE.finditer(text):
        group = "value" if m.group("value") else "han"
        if group == "han" or _otp_ok(text, m.group("value"), m.end()):
            out.append(("otp", *m.span(group)))
    for m in _OTP_FIRST.finditer(text):
        out.append(("otp", *m.span("value")))
    for m in _BARE_CODE.finditer(text):
        if (m.group("word") or "").lower() not in NOT_SECRET_CODE and _otp_ok(text, m.group("value"), m.end()):
            out.append(("otp", *m.span("value")))
    for m in _NAMED_CODE.finditer(text):
        if m.group("word").lower() not in NOT_SECRET_CODE and not _UNIT_AFTER.match(text, m.end()):
            out.append(("otp", *m.span("value")))
    for m in _ENTER_CODE.finditer(text):
        out.append(("otp", *m.span(next(g for g in ("v1", "v2", "v3") if m.group(g)))))
    for m in _TOTP_SEED.finditer(text):
        out.append(("otp", *m.span("value")))
    return out


# --------------------------------------------------------------------------- national IDs

_SSN_CUE = re.compile(r"(?i)(?:\bSSN|\bsocial security(?:\s+(?:number|no\.?|#))?|社会安全号码?|社安号)(?:\s+on\s+(?:file|record))?" + _SEP
                      + r"(?P<value>\d{3}[- ]?\d{2}[- ]?\d{4})(?![\d-])")
_SSN_BARE = re.compile(r"(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])")
_SSN_NOT = re.compile(r"(?i)(?:order|ticket|invoice|case|ref|isbn|tel|phone|fax|call|#|订单|单号|工单|电话)\W{0,3}$")
_DOC_CUE = (
    r"(?i)(?:\bpassport|\bdriver'?s?\s+licen[cs]e|\bdriving\s+licen[cs]e|\bnational\s+insurance|\bNINO\b|\btax\s+(?:id|number)|"
    r"\bTIN\b|\bSIN\b|\bTFN\b|\btax\s+file\s+number|\bmedicare\s+(?:card\s+)?(?:no\.?|number)|\bhealth\s+card|\baadhaar|\bPAN\b|\bresident\s+(?:id|permit)|\bID\s+(?:card\s+)?(?:no\.?|number|#)|\bidentity\s+(?:card\s+)?number|"
    r"\bpersonalausweis|\breisepass|\bcarte\s+d'identit[ée]|\bDNI\b|\bNIE\b|\bcodice\s+fiscale|\bmy\s+number\b|マイナンバー|护照|港澳通行证|台胞证|通行证|驾驶证|驾照|社保卡?|医保卡?|居住证|证件|军官证|"
    # round 17: a national identity number by its generic name, whatever the country ("national ID 7803...", "citizen ID",
    # "personal identity code", "identity document"), and the national names that are not common words
    r"\bnational\s+id(?:entity|entification)?\b|\bcitizen(?:ship)?\s+(?:id|number|card)\b|\bpersonal\s+id(?:entity|entification)?\s+(?:code|number)\b|"
    r"\bidentity\s+document\b|\bpersonnummer|\bf(?:ø|o)dselsnummer|\bhenkil(?:ö|o)tunnus|\bPESEL\b|\bemirates\s+id\b|\bc[ée]dula\b|"
    r"(?-i:\bBSN\b|\bCURP\b|\bRUT\b|\bNIN\b)|주민등록번호|身份号码?|公民号码|"
    # round 18: civil-status documents, a person's from birth (出生医学证明, 出生证, 户口本, 结婚证, birth certificate)
    r"出生(?:医学)?证明?|户口[本簿]|结婚证|离婚证|\bbirth\s+certificate|\bmarriage\s+certificate|"
    # round 38 (blind r36): a permit a person crosses a border or stays with (回乡证 - the Home Return Permit -, 旅行证,
    # 居留证 / 居留许可, 绿卡; a residence, work, travel, exit-entry or re-entry permit, a green card)
    r"回乡证|旅行证|居留证|居留许可|永久居留|绿卡|\bhome\s+return\s+permit|\b(?:residence|work|(?:mainland\s+)?travel|exit[\s-]entry|"
    r"re-?entry)\s+permit|\bgreen\s+card|\bpermanent\s+resident\s+card)"
)
# The document cue alone, for readers of the sentences around it (``redact_documents``).
DOC_CUE = _DOC_CUE
# Between the document's name and its number: a few words ("number on file"), or what it is for ("for the Tokyo trip:").
# Round 38: a record's quotes may stand around the number ('"dni": "48291...K"', "'passport_no': 'E4821...'").
_DOC = re.compile(_DOC_CUE + r"(?:[^\d\n,.;，。；:：]{0,16}?|\s+(?:for|of)\s+[^\d\n,.;，。；:：]{1,32}?(?=\s*(?:[:：]|\b(?:is|was)\b)))" + _SEP
                  + r"[\"'“]?(?P<value>(?-i:\d{6,8}[-+A]\d{3}[0-9A-Z]|[A-Z]{0,3}\d[A-Z0-9]{4,16}|[A-Z]{0,2}\d{2,5}(?:[ -]\d{2,6}){1,4}(?: ?[A-Z0-9])?|[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D]))(?![A-Za-z0-9])")
# "Kids' passports: Mia #548201937, Leo #548201938", "护照：爸爸 E12345678，妈妈 E87654321": after a document cue and a
# colon, a list whose items are a name (or a relation) and a number.
_DOC_LIST = re.compile(_DOC_CUE + r"(?:[^\d\n:：]{0,16}[:：]|s?\s+(?:for|of)\s+[^\d\n:：.。;；—–]{1,32}?\s*(?:[:：—–]|\s-\s))")
# Round 30: an item may name its holder by a possessive and a copula ("mine is ..., and Mei's is ...", "我的是..."), or
# by a full name ("Mia Chen's is ...").
_DOC_ITEM = re.compile(r"\s*(?:[,，、;；]|\band\b|和)?\s*(?:[A-Z][a-z]{1,15}(?:\s[A-Z][a-z]{1,15}){0,2}|(?:mine|my\s+\w+|his|hers|ours|theirs)\b|[\u4e00-\u9fff]{1,4})\s*"
                       r"(?:[:：#]|'s)?\s*(?:(?:is|was)\s+|[是为]\s*)?"
                       r"(?P<value>(?-i:[A-Z]{0,2}\d{6,12}))(?![A-Za-z0-9])")
# Round 17: a document's other number, named by its own label later in the sentence that names the document ("驾驶证号就是
# 身份证号 ...，档案编号 5101...", "passport ..., file number ..."): the licence's file number is the same person's record.
_DOC_SECOND = re.compile(
    r"(?i)(?:档案编?号码?|证件?编号|证号|\b(?:file|document|record|dossier)\s+(?:no\.?|number|#))" + _SEP
    + r"(?P<value>(?-i:[A-Z]{0,3}\d[A-Z0-9]{4,14}|\d{2,6}(?:[ -]\d{2,6}){1,4}))(?![A-Za-z0-9])"
)
_DATE = re.compile(r"(?:19|20)\d{2}[-/.](?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])|(?:0?[1-9]|[12]\d|3[01])[-/.](?:0?[1-9]|1[0-2])[-/.](?:19|20)\d{2}")
_SENTENCE_END = re.compile(r"[。！？；;\n]|[.!?](?:\s|$)")
_DOC_NAMED = re.compile(_DOC_CUE)
_CN_ID_CUE = re.compile(r"(?i)(?:身份证|身份号码|证件号|公民身份|\bID\b|identity|\bresident\b)[^\n。；;]{0,16}$")
# The pre-1999 15-digit resident ID (no check character): only after a cue, with a real birth date.
_CN_ID_15 = re.compile(r"(?<![0-9A-Za-z])\d{6}(\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])\d{3}(?![0-9A-Za-z])")


def find_national_ids(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _SSN_CUE.finditer(text):
        if ssn_valid(m.group("value")):
            out.append(("national_id", *m.span("value")))
    for m in _SSN_BARE.finditer(text):
        if ssn_valid(m.group(0)) and not _SSN_NOT.search(text[max(0, m.start() - 16) : m.start()]):
            out.append(("national_id", m.start(), m.end()))
    for m in _DOC.finditer(text):
        value = m.group("value")
        if _DATE.fullmatch(value):
            continue  # round 38: the document's expiry or issue date ('"passport_expiry": "2031-05-01"'), not its number
        if sum(ch.isdigit() for ch in value) >= 5 or (sum(ch.isdigit() for ch in value) >= 3 and len(value) >= 8):
            out.append(("national_id", *m.span("value")))
    for m in _DOC_SECOND.finditer(text):  # the rare label first, then the document named before it in its sentence
        lo = max(0, m.start() - 80)  # a bounded window: many labels in one long sentence stay linear
        ends = [e.end() for e in _SENTENCE_END.finditer(text, lo, m.start())]
        if sum(ch.isdigit() for ch in m.group("value")) >= 6 and _DOC_NAMED.search(text, ends[-1] if ends else lo, m.start()):
            out.append(("national_id", *m.span("value")))
    for m in _DOC_LIST.finditer(text):
        pos = m.end()
        while item := _DOC_ITEM.match(text, pos):
            out.append(("national_id", *item.span("value")))
            pos = item.end()
    for m in _CN_ID_15.finditer(text):
        # The 18-character ID is found by its checksum alone (redact.py); a wrong check character is
        # a sample or a typo and stays.
        if _CN_ID_CUE.search(text[max(0, m.start() - 24) : m.start()]):
            out.append(("cn_id", m.start(), m.end()))
    return out


# --------------------------------------------------------------------------- bank accounts

_IBAN = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:[A-Z0-9]{11,30}|(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?)(?![A-Za-z0-9])")
_ACCOUNT_CUE = (
    r"(?i)(?:\bacct\.?|\baccount\s+(?:no\.?|number|#)|\bbank\s+account|\b(?:checking|savings)(?:\s+account|\s*#)|\brouting\s+(?:no\.?|number)|"
    r"\bsort\s+code|\bA/C|\bNUBAN\b|\bBSB\b|\bwire\s+(?:it\s+)?to|银行卡号?|卡号|储蓄卡|借记卡|信用卡|银行账[号户]|对公账[号户]|收款账[号户]|开户账号|"
    r"账[号户]|帐[号户]|户口|这张卡|这个卡|的卡|"
    # round 18: a company's accounts by their type (基本存款账户 "基本户", 一般户, 专用户, 临时户 ...), one after another
    r"(?:基本|一般|专用|临时|结算|外汇|外币)(?:存款)?户)"
)
_BANK_CONTEXT = re.compile(r"(?i)\b(?:bank|banking|routing|sort\s+code|BSB|IBAN|SWIFT|BIC|wire|transfer|deposit|payee|payroll|"
                           r"checking|savings|credit\s+union|building\s+society|Chase|Barclays|HSBC|Wells\s+Fargo|Citi|Santander|Lloyds|NatWest|Monzo|Revolut)\b|银行|信用社|开户|转账|汇款|收款|户名")
# Money moving to or from an account: a refund, a payment, rent or fees (with _BANK_CONTEXT, the sentence an IBAN-shaped
# value failing its mod-97 check must stand in).
_PAYMENT_CONTEXT = re.compile(r"(?i)\b(?:refund|reimburs|pay(?:s|ment|ments|ing|out|able)?\b|paid\b|rent\b|tuition|salary|wages|invoice|"
                              r"fees?\b|remit|beneficiar|lands?\s+in\b|send\s+(?:money|funds)|funds\b)|退款|付款|支付|汇|打款|学费|房租|工资|报销")
# "acct # at Ally is 2081577340", "account with Chase: ...": the bank may be named between the cue and the value.
_AT_BANK = r"(?:\s*#)?(?:\s+(?:at|with|@)\s+(?-i:[A-Z][\w&.'-]*(?:\s+[A-Z][\w&.'-]*){0,2}))?"
# Round 17: other countries' grouped formats may open with a two- or three-digit group - a bank and branch before the
# account and its suffix (New Zealand 12-3456-7890123-00, a transit-institution prefix 00123-004-...).
_LOOSE_ACCOUNT = re.compile(r"(?i)\b(?:account|acct|acc|a/c)\.?(?:\s+(?:no\.?|number|#))?" + _AT_BANK + _SEP
                            + r"(?P<value>\d{4}[ -]?\d{2,4}(?:[ -]?\d{2,5}){0,4}|\d{2,6}(?:[ -]\d{1,8}){1,4})(?![\d-])")  # round 29: any grouping
_DATE = re.compile(r"(?:19|20)\d{2}[ -]\d{1,2}[ -]\d{1,2}|\d{1,2}[ -]\d{1,2}[ -](?:19|20)\d{2}")
_SORT_CODE = re.compile(r"(?i)\b(?:sort\s+code|BSB)" + _SEP + r"(?P<value>\d{2}[- ]?\d{2}[- ]?\d{2}|\d{3}[- ]\d{3})(?![\d-])")
# Round 19: a US routing number (ABA checksum) goes like a sort code: three fresh writers running list it as a secret.
_ROUTING = re.compile(r"(?i)\b(?:routing|ABA|RTN)(?:\s+(?:no\.?|number|#))?" + _SEP + r"(?P<value>\d{9})(?![\d-])")
# Round 25: a Chinese bank's interbank code (联行号 / CNAPS, 12 digits) goes with the account it routes to (the two fresh
# writers that wrote one listed it as a secret).
_CN_BANK_CODE = re.compile(r"(?i)(?:联行号|支付系统行号|大额行号|\bCNAPS(?:\s+(?:code|no\.?|number))?)" + _SEP + r"(?P<value>\d{12})(?!\d)")
_ACCOUNT = re.compile(_ACCOUNT_CUE + _SEP + r"(?P<value>\d(?:[ -]?\d){7,29})(?![\d-])")
MONEY_CONTEXT = (_BANK_CONTEXT, _PAYMENT_CONTEXT)  # also read by ``redact_answers`` (an account asked for in a chat)
_CLOUD_ACCOUNT = re.compile(r"(?i)aws|gcp|azure|阿里云|腾讯云|华为云|云|project|tenant|租户|项目")
_CARD_WORD = re.compile(r"(?i)卡|card")


# A card that pays for nothing (membership, transit, library, staff badge): its number is an account of a club, not a
# payment card ("会员卡号 8800 ...", "公交卡 3100 ...", "library card 2901 ...").
NOT_PAYMENT_CARD = re.compile(r"(?i)(?:会员|积分|公交|交通|饭|校园|门禁|健身|图书|借书|员工|学生|考勤|SIM|电话|手机|流量|上网)卡|\b(?:loyalty|membership|member|library|transit|"
                              r"rewards?|key|sim|staff|student|gym|bus)\s+card\b")
# A card number announced as a processor's test card is published documentation, not somebody's card.
TEST_CARD = re.compile(r"(?i)\btest(?:ing)?\s+(?:card|visa|mastercard|number)|\bsandbox\b|测试卡|测试用的?(?:卡|卡号)|沙箱")


def find_bank_accounts(text: str) -> list[Span]:
    out: list[Span] = []
    paid = _BANK_CONTEXT.search(text) or _PAYMENT_CONTEXT.search(text)
    for m in _IBAN.finditer(text):
        value = m.group(0)
        # A spaced IBAN may run into a following capitalised word: drop trailing groups until it checks.
        while value and not iban_valid(value):
            if " " not in value:
                value = ""
                break
            value = value.rsplit(" ", 1)[0]
        if not value and paid:  # a failing mod-97 check in a bank or payment sentence: still written as an account
            value = m.group(0)
            while value and not iban_shape(value):
                value = value.rsplit(" ", 1)[0] if " " in value else ""
        if value:
            out.append(("bank_account", m.start(), m.start() + len(value)))
    for m in _SORT_CODE.finditer(text):
        out.append(("bank_account", *m.span("value")))
    for m in _CN_BANK_CODE.finditer(text):
        out.append(("bank_account", *m.span("value")))
    if paid:  # round 17: money moving names a bank account as well as a bank word does ("pay rent into acc ...")
        for m in _LOOSE_ACCOUNT.finditer(text):
            if 6 <= len(re.sub(r"\D", "", m.group("value"))) <= 20 and not _DATE.fullmatch(m.group("value")) and not _CLOUD_ACCOUNT.search(text, max(0, m.start() - 12), m.end()):
                out.append(("bank_account", *m.span("value")))
    for m in _ACCOUNT.finditer(text):
        if _CLOUD_ACCOUNT.search(text, max(0, m.start() - 12), m.start("value")):
            continue  # "AWS 账号 123456789012" names a cloud account, not a bank account
        digits = re.sub(r"\D", "", m.group("value"))
        if _CARD_WORD.search(m.group(0)):
            if TEST_CARD.search(text, max(0, m.start() - 40), m.start("value")) or NOT_PAYMENT_CARD.search(text, max(0, m.start() - 6), m.start("value")):
                continue
            # A card number (银行卡号, 卡号, card no.) must pass Luhn like any card; an account number has no checksum.
            if card_valid(digits):
                out.append(("card", *m.span("value")))
            continue
        out.append(("bank_account", *m.span("value")))
    accounts = bool(out)
    for m in _ROUTING.finditer(text):
        d = [int(c) for c in m.group("value")]
        # Round 25: like an IBAN, a failing checksum is still written as a routing number next to an account or in a
        # bank or payment sentence - other than the cue's own word (4 fresh writers' made-up routing numbers fail ABA
        # and were listed as secrets; none kept); "Routing 123456789 trucks through the north gate" stays.
        rest = text[: m.start()] + text[m.end() :]
        if ((3 * (d[0] + d[3] + d[6]) + 7 * (d[1] + d[4] + d[7]) + d[2] + d[5] + d[8]) % 10 == 0 or accounts
                or _BANK_CONTEXT.search(rest) or _PAYMENT_CONTEXT.search(rest)):
            out.append(("bank_account", *m.span("value")))
    return out


# --------------------------------------------------------------------------- card expiry (only next to a card)

_EXPIRY = re.compile(
    r"(?i)(?:\bexp(?:iry|ires|iring|iration|\.)?(?:\s+date)?|\bvalid\s+(?:thru|through|until|till|to)|\bgood\s+thru|有效期(?:至|到)?|有效至|到期(?:日|时间)?|过期时间|截止(?:日期|日|到|至)?)"
    + _SEP + r"(?P<value>(?:0[1-9]|1[0-2])\s?[/-]\s?(?:20)?\d{2}|(?:0[1-9]|1[0-2])\d{2}|(?-i:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?,?\s+(?:20)?\d{2})|20\d{2}\s?年\s?\d{1,2}\s?月|20\d{2}[/-](?:0?[1-9]|1[0-2]))(?![\d/])"
)


# In a card note: "2027 年 3 月到期", "过期 10/26", or a bare "05/30" next to the number. Round 18: a bare month and a
# four-digit year ("4465 ..., 09/2026, security code ...") too: in a note that carries a card, MM/YYYY is its expiry.
_EXPIRY_AFTER = re.compile(r"(?P<value>20\d{2}\s?年\s?\d{1,2}\s?月)(?:份)?\s?(?:到期|过期|失效)")
_EXPIRY_BARE = re.compile(r"(?:过期|失效)\s*(?P<value>(?:0[1-9]|1[0-2])/\d{2})(?![\d/])|"
                          r"(?<![\d/.:-])(?P<bare>(?:0[1-9]|1[0-2])/(?:20)?\d{2})(?![\d/.:])")


def find_card_expiry(text: str) -> list[Span]:
    """Only called for a text with a card or CVV in it (the context makes a bare MM/YY an expiry date)."""
    out = [("card_expiry", *m.span("value")) for m in (*_EXPIRY.finditer(text), *_EXPIRY_AFTER.finditer(text))]
    out += [("card_expiry", *m.span("value" if m.group("value") else "bare")) for m in _EXPIRY_BARE.finditer(text)]
    return out


# The sentence itself says the number is not a real one: "校验位错误", "fails the Luhn check", "示例数据".
_DECLARED_INVALID = re.compile(
    r"(?i)校验(?:位|码)?(?:是)?(?:不对|错误|错的|有误|不通过|失败|没过)|示例|样例|假的|虚构|\binvalid\b|\bfails?\b[^.\n]{0,20}(?:luhn|check|validation)|"
    r"\b(?:sample|example|fake|dummy|made[- ]up)\s+(?:data|number|id|card)|not\s+a\s+real|"
    # round 32: the value called a sample, or its check character called wrong, in its own sentence ("ID 1101... is the
    # sample with a wrong checksum", "a test ID", "the check digit is off")
    r"\b(?:is|as|was)\s+(?:the|a|an|our|just\s+a)\s+(?:sample|example|test|dummy|fake|placeholder)\b|\b(?:test|sample|example)\s+ids?\b|"
    r"\b(?:wrong|bad|invalid|incorrect|broken|failing)\s+(?:checksum|check\s*(?:digit|character|char|sum))|"
    r"\b(?:checksum|check\s+(?:digit|character))\s+(?:is\s+)?(?:wrong|off|bad|invalid|fails)"
)


def declared_invalid(text: str, start: int, end: int) -> bool:
    """The sentence around ``text[start:end]`` calls the value invalid or made up."""
    return bool(_DECLARED_INVALID.search(text, max(0, start - 30), min(len(text), end + 40)))


# "wei.zhang [at] example [dot] com", "lina＠163.com": an address spelled to dodge scrapers.
_SPELLED_EMAIL = re.compile(
    r"(?i)(?<![\w.+-])[\w.+-]{1,64}\s*(?:\[at\]|\(at\)|\{at\}|\[@\]|＠)\s*[\w-]{1,63}"
    r"(?:\s*(?:\[dot\]|\(dot\)|\{dot\}|\.|。|．)\s*[\w-]{1,63}){1,4}"
)


def find_spelled_emails(text: str) -> list[Span]:
    return [("email", m.start(), m.end()) for m in _SPELLED_EMAIL.finditer(text)]
