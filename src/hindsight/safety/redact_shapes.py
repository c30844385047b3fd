"""Values found by a cue somewhere in their clause and a shape of their own, not by one fixed label-value pattern.

The label-then-value patterns of :mod:`hindsight.safety.redact` need the value right after its label. People
write otherwise: "the password, all lowercase, is x", "登录密码（妈妈设的）是 x", "x 这个就是财务系统的登录密码",
"the four digits on the front are 7712", "安全码写在备注里是 147". Each finder here pairs

- a **cue** (EN/ZH words that name the kind: password, 密码, CVV, 安全码, wallet, 助记词, ...) with
- a **bridge** (what may stand between cue and value: a parenthesis, a short clause, a few words, never a
  sentence end), then a **separator** when the bridge is long ("is", ":", "是", "设置成了"), and
- a **value whose end is found by its shape** (the run of printable ASCII after the separator, trailing
  punctuation dropped), tested as a secret (letters with digits or symbols, a long digit run, key length).

Shape-only finders need no cue: key material (an OpenSSH key body, ``AGE-SECRET-KEY-1``, ``xprv``), a 64-hex
number in a sentence about a wallet or private key, a seed phrase of 12-24 words (EN or single Han characters),
phones spelled in Chinese numerals, emails spelled with "at"/"dot", UK National Insurance numbers.
Placeholders (``<API_KEY>``, ``${DB_PASS}``, ``******``) and variable names (``SMTP_PASS``, ``db.password``)
never pass the value test.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_hex_key import find_hex_keys
from hindsight.safety.validators import looks_random, ssn_valid

Span = tuple[str, int, int]

# --------------------------------------------------------------------------- the value test

_PLACEHOLDER = re.compile(
    r"(?i)^(?:<.*>?|\$.*|\{.*|%\w+%|x{3,}|\*{3,}|\.{3,}|_{3,}|your[_-].*|my[_-].*|changeme|example.*|placeholder|"
    r"redacted|\[redacted.*|null|none|nil|undefined|true|false|todo|tbd|env\..*|os\.environ.*|process\.env.*|"
    r"secrets?\..*|settings\..*|password|passwd|pass|secret|token|username|user|pwd|n/a)$"
)
_VARIABLE = re.compile(r"(?:[A-Za-z_][\w]*\.)+[A-Za-z_]\w*(?:\(\))?|[a-z]+(?:_[a-z]+)+|[A-Z]+(?:_[A-Z]+)+|[a-z]+(?:[A-Z][a-z]+)+")
_VERSION = re.compile(r"(?i)^v?\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?$")
_TIME_OR_DATE = re.compile(r"^\d{1,4}[-/:.]\d{1,2}(?:[-/:.]\d{1,4})?$")


def secret_shaped(value: str, min_len: int = 6, digits_ok: int = 6) -> bool:
    """What a chosen password or key looks like: letters with digits or symbols (not a variable name, a version,
    a URL, an email or a file name), or a digit run of ``digits_ok`` or more."""
    if len(value) < min(min_len, digits_ok) or _PLACEHOLDER.match(value) or re.search(r"[\u4e00-\u9fff]", value):
        return False
    if value.isdigit():
        return len(value) >= digits_ok
    if re.match(r"(?:~|\.{1,2})?/", value):
        return False  # a path: "/home/ops/app", "~/.ssh/id_rsa"
    if len(value) < min_len or "://" in value or value.startswith("[REDACTED") or _VERSION.match(value) or _TIME_OR_DATE.match(value):
        return False
    if re.fullmatch(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+", value) or re.fullmatch(r"[\w-]+\.(?:com|net|org|io|cn|txt|json|ya?ml|env|conf|pem|key)", value):
        return False
    has_alpha = bool(re.search(r"[A-Za-z]", value))
    return has_alpha and bool(re.search(r"[\d\W_]", value)) and not _VARIABLE.fullmatch(value)


# The value: a run of printable ASCII with a digit or a symbol (a prose word is skipped, so a lazy bridge moves on
# to the next separator: "is the dog's name plus the year: Biscuit2019") that ends at a space, a quote, CJK punctuation or a CJK character.
# The lookahead (not only letters) reads at most the value's 64 characters and the one after it: unbounded, it ran to
# the end of a long run without spaces from every cue in it ("pw=pw=pw=...": quadratic, attack round 7).
_VALUE = r"[\"'`“‘「]?(?=[!-~]{0,64}[^A-Za-z\s])(?P<value>[!-~]{3,64}?)(?=[\"'`”’」]?(?:[\s,;，。；、）)（(]|[.!?](?:\s|$)|[\u4e00-\u9fff]|$))"


def _span(m: re.Match[str]) -> tuple[int, int]:
    start, end = m.span("value")
    value = m.group("value")
    stripped = re.sub(r"&[A-Za-z_]\w*=.*\Z", "", value).rstrip(".,;:!?)]}>\"'”")  # "x&useSSL=false": the next parameter
    if value.endswith("!") and len(value) - len(stripped) == 1 and re.search(r"[\d@#$%^&*]", stripped):
        stripped = value  # "wangqing2023!": a trailing "!" after digits is part of the password
    return start, end - (len(value) - len(stripped))


# --------------------------------------------------------------------------- passwords: cue, bridge, separator, value

_PW_CUE = (r"(?:\b(?:password|passwd|passphrase|passcode|requirepass|pwd|pw|pass|pin(?:\s+code)?|(?:wi-?fi|wlan|wpa2?|network|wireless)\s+key|combo|combination|puk)\b"
           r"|密码|口令|暗码|开锁码|解锁码)")
# The bridge: anything but a sentence end, a newline or a second cue, up to 40 characters; then the separator.
_PW_SEP = (r"(?:=>|->|→|\bis\b|\bwas\b|\bare\b|\bnow\b|\bto\b|:|：|=|是|为|成了|成|改成|设成|设为|换成|变成|更新为|重置为|"
           r"\bbecomes?\b|\breads?\b)")
_PW_BRIDGED = re.compile(
    r"(?i)(?P<cue>" + _PW_CUE + r")(?P<bridge>(?:(?!" + _PW_CUE + r")[^\n。；;!?！？@/\\|<>{}$])"
    r"{0,60}?)(?P<sep>" + _PW_SEP + r")\s*(?:\b(?:just|simply|literally|still|now|actually)\s+)?" + _VALUE
)
# A bridge that makes the sentence about passwords in general, not a disclosure of one.
_PW_TALK = re.compile(
    r"(?i)\b(?:policy|policies|rules?|requirements?|length|must|should|hash(?:ed)?|manager|reset|expire[sd]?|field|hint|strength|"
    r"format|example|e\.g\.|regex|complexity|rotation|stored|encrypted|vault|env(?:ironment)?|variable|file|template)\b|"
    r"要求|长度|策略|规则|哈希|加密|字段|格式|示例|例如|模板|环境变量|保存在|存在|位数|至少|重置|找回"
)
# The value before its cue: "wangqing2023! 这个就是财务系统的登录密码", "Tr0ub4dor&3 is the password for the NAS".
_PW_FIRST = re.compile(
    r"(?i)(?<![!-~])(?P<value>[!-~]{6,64})\s*(?:[,，:：]\s*|\s[-–—]\s*)?(?:"
    r"(?:这个|这|它)?(?:就|才|也)?是[\u4e00-\u9fff\w ]{0,16}?(?:的)?(?:登录|开机|支付|管理员|后台)?(?:密码|口令)|"
    r"(?:is|was|=|that's|that is|it's)\s+(?:the|my|our|his|her|their|your)\s+(?:new\s+|current\s+|old\s+)?(?:[\w'-]+\s+){0,3}?"
    r"(?:password|passphrase|passcode|pin)\b)"
)

# "'Cobalt-River-1987' is what she uses for the family Netflix account": a quoted value someone uses to sign in.
_PW_USED = re.compile(
    r"(?i)[\"'“‘](?P<value>[^\s\"'”’]{6,64})[\"'”’]\s+(?:is|was)\s+what\s+(?:\w+\s+){0,2}?(?:uses?|used|types?|enters?)\s+"
    r"(?:for|on|to\s+(?:log|sign)\s+in(?:to)?|to\s+unlock|as)\b[^\n.;]{0,40}?\b(?:account|login|log-?in|sign-?in|wi-?fi|laptop|"
    r"phone|vault|router|email|mailbox|bank|app|profile|safe|lock)\b"
)
# A passphrase of Chinese words and digits after 口令/密码 and a separator: "保护口令是 铁观音2019", "密码：Panda熊猫88".
_PW_HAN = re.compile(
    r"(?:密码|口令|暗号|passphrase)(?:[\u4e00-\u9fff]{0,4}?)\s*(?:是|为|：|:|设成了?|改成了?)\s*"
    r"(?P<value>[\u4e00-\u9fff]{2,8}[A-Za-z0-9!@#$%^&*._-]{3,16}|[A-Za-z0-9!@#$%^&*._-]{3,16}[\u4e00-\u9fff]{2,8})"
    r"(?=[\s，。；、,;!?！？)）]|$)"
)
# A password changed, then its new value in the next clause (round 13): "门锁密码换了，现在是 592817#", "the wifi password
# got changed, it's now Tern#2290", "PIN was reset - new one is 4471".
_PW_CHANGED = re.compile(
    r"(?i)(?:密码|口令|\b(?:password|passcode|pin)\b)[\u4e00-\u9fff]{0,4}?(?:又?(?:换了|改了|变了|更新了|重置了)|\s+(?:was\s+|has\s+been\s+|got\s+)?"
    r"(?:changed|reset|updated|rotated))[^\n。.;；]{0,8}?\s*[，,;；-]\s*(?:现在是|现在为|新的是|改成|now\s+(?:it'?s|it\s+is)|it'?s\s+now|"
    r"(?:the\s+)?new\s+one\s+is|now\s*:)\s*(?P<value>[!-~]{4,32}?)(?=[\s，。；、,;!?！？)）]|[.]\s|[.]?$)"
)
# Round 19: a network or a lock changed, its new value in the next clause, no password word ("Guest Wi-Fi changed
# again - it's now Linden#24!", "店里的WiFi改了，现在是 Cafe@8866x"): the value must mix letters with digits and a symbol or
# two cases, so a new network name ("it's now ACME-Guest") stays.
_ACCESS_CHANGED = re.compile(
    r"(?i)(?:\bwi-?fi\b|\bwlan\b|\bwireless\b|\bhotspot\b|\brouter\b|\b(?:door|gate|lock|safe|locker|alarm)\s+code\b|"
    r"(?<![A-Za-z])(?:wifi|WiFi)|无线|热点|路由器?|门锁|密码锁|保险柜|保险箱|门禁)[^\n。.;；!?！？]{0,40}?"
    r"(?:又?(?:换了|改了|变了|更新了|重置了)|\b(?:was\s+|has\s+been\s+|got\s+)?(?:changed|reset|updated|rotated|switched(?:\s+over)?)\b)"
    r"(?:\s+again)?[^\n。.;；]{0,16}?\s*[，,;；:：—–-]\s*(?:现在是|现在为|新的是|改成了?|换成了?|now\s+(?:it'?s|it\s+is)|it'?s\s+now|it'?s|"
    r"(?:the\s+)?new\s+one\s+is|now\s*:?)\s*(?P<value>[!-~]{6,32}?)(?=[\s，。；、,;!?！？)）]|[.]\s|[.]?$)"
)
# ... or said in a free ZH sentence with no password word: "我邮箱登录用的是 huang1988Qq!", "路由器后台改成了 Zhang_home2024"
# (an account or mailbox changed to a new name is left: 账号 / 邮箱 改成了 names the login, not its secret).
_ACCESS_ZH = re.compile(r"(?P<cue>登录|登陆|开机|解锁|锁屏|后台|管理员|路由器?|无线|连接|连网|联网|(?<![A-Za-z])(?:wifi|WiFi|WIFI|Wi-Fi)|"
                        r"(?P<lock>保险箱|保险柜|门锁|密码锁|密码箱))[\u4e00-\u9fff]{0,6}?"
                        r"(?:用的是|用的|的是|用|改成了?|换成了?|设成了?|设置成了?|设的是|设为|改为|要?输入?)\s*(?P<value>[!-~]{4,32}?)(?=[\s，。；、,;!?！？)）]|$|[\u4e00-\u9fff])")
_HAN_UNIT = re.compile(r"\d\s*(?:位|个|次|年|月|天|日|号|小时|分钟|秒|以上|以内|字符|字节|岁|元|块)|^[\u4e00-\u9fff]*(?:位|个|至少|不少于|大于|小于)")
# A SIM or card PIN/PUK with only a space before it: "SIM PIN 4417, PUK 83920175" (upper-case PIN: "pin" is a verb).
_PIN_BARE = re.compile(r"(?:\bPIN2?|\b(?i:puk2?))(?:\s+(?:code|number))?\s+(?P<value>\d{4,8})(?![\d.,:/-]|\s*(?:digits?|位))")
# An app password in groups of four letters ("abcd efgh ijkl mnop"), after its cue.
_APP_PASSWORD = re.compile(r"(?i)(?:app(?:lication)?[- ]specific\s+password|app\s+password|应用专用密码)[^\n。.;；]{0,40}?"
                           r"(?P<value>(?-i:[a-z]{4}(?:[ -][a-z]{4}){3}))(?![a-z])")
# A login written as two quoted strings: "'deploy' / 'Qz!7mRt2'" (a slash or a bar: "key": "value" is JSON).
# Round 25: a password still (or reset to) a device's default, the default quoted after it: "the admin password on the
# PLC panel is still the factory default 'belt2019admin'", "路由器管理密码还是出厂默认的 'admin8899'".
_PW_DEFAULT = re.compile(
    r"(?i)(?:\b(?:password|passcode|passwd|pin|login)\b|密码|口令)[^\n.;!?。；！？]{0,60}?(?:\b(?:factory|vendor|manufacturer'?s?|"
    r"out-of-the-box)\s+)?(?:\bdefault\b|默认|出厂)[^\n.;!?。；！？\"'`“‘]{0,12}?[\"'`“‘](?P<value>[^\"'`”’\s]{4,40})[\"'`”’]"
)
_QUOTED_PAIR = re.compile(r"([\"'`])[\w.@+-]{2,40}\1\s*[/|]\s*([\"'`])(?P<value>[^\"'`\s]{4,64})\2")


def find_cued_passwords(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _PW_BRIDGED.finditer(text):
        bridge = m.group("bridge")
        if _PW_TALK.search(bridge) or re.search(r"[\"`“”]|(?<![A-Za-z])'|'(?![A-Za-z])|[!-~]*\d{3}", bridge):
            continue  # talk about passwords, a quoted value, or a value-like token inside the bridge (it was the value)
        value = m.group("value")
        cue = m.group("cue").lower()
        if cue in ("combo", "combination"):
            if re.fullmatch(r"\d{1,3}(?:[-–]\d{1,3}){2,4}", value.rstrip(".,;:")):
                out.append(("password", *_span(m)))  # "the safe combo is 12-34-56"
            continue
        if cue in ("pass", "pw") and m.group("sep") not in (":", "：", "=", "=>", "->", "→"):
            continue  # "pass" and "pw" are words too ("the tests pass now"): only with a symbol separator
        digits_ok = 4 if cue.startswith(("pin", "passcode", "puk")) else 6
        if cue.startswith("pin") and not value.rstrip(".,;:!?)]}>\"'”").isdigit():
            continue  # "pinned to sha256:...", "pin the image to 1.2.3": the verb; a PIN is a number
        if secret_shaped(value.rstrip(".,;:!?)]}>\"'”"), 6, digits_ok):
            out.append(("password", *_span(m)))
    for m in _PW_USED.finditer(text):
        if secret_shaped(m.group("value"), 6):
            out.append(("password", *m.span("value")))
    for m in _PW_HAN.finditer(text):
        if re.search(r"\d", m.group("value")) and not _HAN_UNIT.search(m.group("value")):
            out.append(("password", *m.span("value")))
    for m in _PW_CHANGED.finditer(text):  # a door or lock code ends in "#" or "*" ("592817#")
        if secret_shaped(m.group("value"), 6, 4) or re.fullmatch(r"\d{4,12}[#*]", m.group("value")):
            out.append(("password", *m.span("value")))
    for m in _ACCESS_ZH.finditer(text):  # the verb says a secret is typed or set: letters with digits, or a lock's code
        value = m.group("value")
        if (re.fullmatch(r"\d{6,12}[#*]?|\d{4,12}[#*]", value) if m.group("lock") else
                len(value) >= 6 and re.search(r"\d", value) and re.search(r"[A-Za-z]", value) and secret_shaped(value, 6)
                and not re.match(r"(?i)v?\d+(?:\.\d+)+", value)):
            out.append(("password", *m.span("value")))
    for m in _ACCESS_CHANGED.finditer(text):
        value, (start, end) = m.group("value"), m.span("value")
        mixed = value != value.lower() and len(re.findall(r"\d", value)) >= 3
        if (re.search(r"\d", value) and re.search(r"[A-Za-z]", value) and (re.search(r"[^\w-]|_", value) or mixed)
                and secret_shaped(value, 6) and not re.match(r"(?i)v?\d+(?:\.\d+)+", value)):  # not a version "V2.3.11_b2"
            out.append(("password", start, end + (text[end : end + 1] == "!")))  # "Linden#2024!": the "!" is the value's
    for m in _PIN_BARE.finditer(text):
        out.append(("password", *m.span("value")))
    for m in _APP_PASSWORD.finditer(text):
        out.append(("password", *m.span("value")))
    for m in (*_QUOTED_PAIR.finditer(text), *_PW_DEFAULT.finditer(text)):
        if secret_shaped(m.group("value"), 6):
            out.append(("password", *m.span("value")))
    for m in _PW_FIRST.finditer(text):
        value = m.group("value").rstrip(",，")
        if secret_shaped(value, 6) and not re.search(r"[=:/]", value):
            start = m.start("value")
            out.append(("password", start, start + len(value)))
    return out


# --------------------------------------------------------------------------- card security codes next to a card

_CARD_CONTEXT = re.compile(r"(?i)(?<![A-Za-z])(?:card|visa|mastercard|amex|discover|jcb|unionpay|pan|cvv2?|cvc2?|cvn2?)(?![A-Za-z])|信用卡|银行卡|借记卡|卡号|运通|银联|万事达")
_CVV_BRIDGED = re.compile(
    r"(?i)(?:(?<![A-Za-z0-9])(?:cvv2?|cvc2?|cvn2?|cid|csc|security\s+code)(?![A-Za-z0-9])|(?:last\s+)?(?:three|four|3|4)(?:[- ]digits?)?\s+(?:code\s+)?(?:on|at)\s+the\s+(?:back|front)|"
    r"安全码|校验码|cvv码|背面(?:的)?(?:三位|3位)?|卡背)"
    r"(?P<bridge>[^\d\n。.;；]{0,16}?)(?:\bis\b|\bare\b|\bwas\b|[:：=]|是|为|\s|(?<=码))\s*[\"'“]?(?P<value>\d{3,4})(?![\d/.-])"
)
# A card record as a list: "4485 ... | 03/28 | 529", "4485..., 03/28, 529": the number after the expiry.
_EXPIRY_THEN_CODE = re.compile(r"(?<![\d/])(?:0[1-9]|1[0-2])\s?/\s?(?:20)?\d{2}\s*[|,;/]\s*(?P<value>\d{3,4})(?![\d/.,]\d|[\d/])")
# Structured: "cvv":"993", cvc=771, security_code: 123.
_CVV_KEYED = re.compile(r"(?i)[\"']?(?<![A-Za-z0-9])(?:[a-z]+_)?(?:cvv2?|cvc2?|cvn2?|csc|card_?code|security_?code)[\"']?\s*[:=]\s*[\"']?(?P<value>\d{3,4})(?!\d)")


def find_card_security_codes(text: str) -> list[Span]:
    if not _CARD_CONTEXT.search(text):
        return []
    out = [("cvv", *m.span("value")) for m in _CVV_BRIDGED.finditer(text)]
    out += [("cvv", *m.span("value")) for m in _EXPIRY_THEN_CODE.finditer(text)]
    return out + [("cvv", *m.span("value")) for m in _CVV_KEYED.finditer(text)]


# --------------------------------------------------------------------------- private-key material by shape

_OPENSSH_BODY = re.compile(r"b3BlbnNzaC1rZXktdjE[A-Za-z0-9+/=\s\\n]{8,}?(?=-----|[^A-Za-z0-9+/=\s\\]|$)")
_KEY_PREFIXED = re.compile(
    r"(?<![A-Za-z0-9])(?:AGE-SECRET-KEY-1[0-9A-Z]{50,}|[xyzt]prv[1-9A-HJ-NP-Za-km-z]{100,112}|nsec1[02-9ac-hj-np-z]{50,}|"
    r"PuTTY-User-Key-File-\d(?:[^\n]*\n){1,40}?Private-MAC:[^\n]*|PuTTY-User-Key-File-\d[^\n]*|suiprivkey1[02-9ac-hj-np-z]{50,})"
)
# A keypair as a byte array (Solana's id.json, a 32/64-byte seed): 32 to 64 numbers 0-255 after a key cue.
_BYTE_ARRAY = re.compile(r"\[\s*(?P<value>\d{1,3}(?:\s*,\s*\d{1,3}){31,63})\s*\]")
_BYTES_CUE = re.compile(r"(?i)key\s*pair|private[ _-]?key|secret[ _-]?key|\bseed\b|id\.json|私钥|密钥")
_SEED_CUE = re.compile(r"(?i)(?:seed|recovery|mnemonic|backup|secret|wallet)\s+(?:phrase|words?)|\bseed\b|mnemonic|助记词|恢复短语|种子短语|恢复词")
# A wallet named without "seed phrase" ("Ledger backup, wallet 'cold-2': orbit velvet ..."): the words must read as a
# mnemonic, not prose - none of the function words that fill an English sentence and no BIP39 list has.
_WALLET_SEED_CUE = re.compile(r"(?i)\b(?:wallet|ledger|trezor|metamask|keystone|coldcard|crypto|bitcoin|ethereum)\b|钱包")
_PROSE_WORD = re.compile(r"(?i)\b(?:the|and|for|with|that|this|you|your|are|was|were|have|has|from|not|but|will|into|then|than|"
                         r"they|them|there|what|when|which|would|should|could|our|his|her|its|she|him|who|how|why|because)\b")
# Round 19: a number may stand before each word with only a space ("1 walnut 2 prism ..."), the words may run one a
# line, and a ZH note may write a phrase in words of one or two characters, spaced ("助记词：苹果 钢琴 海洋 ...").
_SEED_NUM = r"(?:\(?\d{1,2}[.):]?\s*|#\d{1,2}\s+)"
# Round 38: a word may carry accents (the Spanish, French, Italian and Czech lists: "ábaco abdomen abeja ...").
_SEED_LETTERS = "[a-zà-öø-ÿ]{3,8}"
_SEED_WORDS = re.compile(
    r"(?P<value>(?:" + _SEED_NUM + r"?" + _SEED_LETTERS + r"(?:[ ,]+|\s*\n\s*)){11,23}" + _SEED_NUM + r"?" + _SEED_LETTERS +
    r"|(?:(?:\d{1,2}[.、)]\s*)?[\u4e00-\u9fff][ 　,，、]+){11,23}(?:\d{1,2}[.、)]\s*)?[\u4e00-\u9fff]"
    r"|(?:[\u4e00-\u9fff]{1,2}[ 　]+){11,23}[\u4e00-\u9fff]{1,2})(?![a-zà-öø-ÿ\u4e00-\u9fff])"
)


def _gap(text: str, start: int, end: int) -> str:
    """The text between a cue and its words; a list that opens on a new line after a colon starts at the colon."""
    gap = text[start:end]
    return re.sub(r"[:：][ \t]*\n\s*$", ":", gap)


def find_key_material(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _OPENSSH_BODY.finditer(text):
        out.append(("private_key", m.start(), m.start() + len(m.group(0).rstrip("\\n \n"))))
    for m in _KEY_PREFIXED.finditer(text):
        out.append(("private_key", m.start(), m.end()))
    for m in _BYTE_ARRAY.finditer(text):
        if _BYTES_CUE.search(text, max(0, m.start() - 60), m.start()) and all(int(x) < 256 for x in m.group("value").split(",")):
            out.append(("private_key", *m.span("value")))
    out += find_hex_keys(text)
    for cue in _SEED_CUE.finditer(text):
        words = _seed_words(text, cue.end(), 60)
        if (words and not re.search(r"[\n。.;；]", _gap(text, cue.end(), words[0])) and words[0] - cue.end() <= 60
                and len(_PROSE_WORD.findall(text, *words)) < 3):  # round 38: "wallet words: it was the one with the ..."
            out.append(("private_key", *words))
    for cue in _WALLET_SEED_CUE.finditer(text):
        words = _seed_words(text, cue.end(), 40)
        if (words and words[0] - cue.end() <= 40 and not re.search(r"[\n。.;；]", _gap(text, cue.end(), words[0]))
                and _WALLET_GAP_END.search(text[cue.end() : words[0]]) and not _PROSE_WORD.search(text, *words)):
            out.append(("private_key", *words))
    return out


# Round 38 (blind r36): a cue's own words before the list ("my Ledger words, all 24: glove ...", "recovery words (all
# 24): ..."): the list starts after the colon that ends them, so "words" and "all" are never read as its first words; a
# lead ("Seed phrase was lemon ...", "the words are: ...") is no word of the phrase either.
_SEED_COLON = re.compile(r"[^\n。.;；:：]{0,40}[:：]")
_SEED_LEAD = re.compile(r"(?i)(?:is|was|are|were|the|these|my|here|all|words?|phrase)\b[ ,]*")
# The wallet reading's cue ends in a colon, or in "are" / "is" / "=" ("the cold wallet's words are: ...").
_WALLET_GAP_END = re.compile(r"(?i)(?:[:：=]|\b(?:are|is|were|was))\s*$")


_SEED_COUNTS = frozenset({12, 15, 18, 21, 24})


def _seed_words(text: str, start: int, reach: int) -> tuple[int, int] | None:
    """The span of the words after a cue ending at ``start``, read from after the colon that closes the cue's own
    words; a phrase written with spaces ends at its first comma when a phrase's word count (12, 15 ... 24) stands
    before it ("Seed phrase was lemon ... alpine, written on the steel plate")."""
    colon = _SEED_COLON.match(text, start)
    pos = colon.end() if colon else start
    limit = min(len(text), start + reach + 25 * 9)
    words = _SEED_WORDS.search(text, pos, limit)
    for _ in range(3):
        lead = _SEED_LEAD.match(text, words.start()) if words else None
        if words is None or lead is None or words.start() - start > reach:
            break
        words = _SEED_WORDS.search(text, lead.end(), limit)
    if words is None:
        return None
    a, b = words.span("value")
    comma = text.find(",", a, b)
    if comma > 0 and len(text[a:comma].split()) in _SEED_COUNTS:
        b = comma
    return a, b


# --------------------------------------------------------------------------- contacts and IDs spelled or spaced

_ZH_DIGIT = "零〇一二三四五六七八九幺"
_ZH_MOBILE = re.compile(rf"(?<![{_ZH_DIGIT}十百千万])[一幺][三四五六七八九](?:[\s-]?[{_ZH_DIGIT}]){{9}}(?![{_ZH_DIGIT}十百千万])")
_TLD = r"(?:com|net|org|io|co|cn|uk|de|fr|jp|me|edu|gov|info|biz|us|ca|au|in|ai|dev|app)"
_SPOKEN_EMAIL = re.compile(
    r"(?i)(?<![\w.])[a-z][\w.+-]{0,30}(?:\s+(?:dot|underscore|dash|hyphen)\s+[\w+-]{1,30}){0,3}\s+(?:at|\(at\)|\[at\]|艾特)\s+"
    r"[a-z0-9][\w-]{0,40}(?:\s+(?:dot|点|\(dot\)|\[dot\])\s+[\w-]{1,30}){0,2}\s+(?:dot|点|\(dot\)|\[dot\])\s+" + _TLD + r"\b"
)
# UK National Insurance number: two letters, three pairs of digits, a suffix letter A-D ("QQ 12 34 56 C").
_NINO = re.compile(r"(?<![A-Za-z0-9])(?P<value>[A-Z]{2}(?P<sp>[ -]?)\d{2}(?P=sp)\d{2}(?P=sp)\d{2}(?P=sp)[A-D])(?![A-Za-z0-9])")
_NINO_CUE = re.compile(r"(?i)\b(?:NI|NINO|national\s+insurance)\b[^\n]{0,30}$")
_SOCIAL = re.compile(r"(?i)\bsocial\b(?:\s+(?:security|number|no\.?|#))*\s*[:#]?\s*(?P<value>\d{3}[ -]?\d{2}[ -]?\d{4})(?![\d-])")
# Australian mobiles, spaced 4-3-3 ("0412 555 019").
_AU_MOBILE = re.compile(r"(?<![\d+])04\d{2}\s\d{3}\s\d{3}(?![\d])")


def find_spelled_contacts(text: str) -> list[Span]:
    out: list[Span] = [("phone", m.start(), m.end()) for m in _ZH_MOBILE.finditer(text)]
    out += [("email", m.start(), m.end()) for m in _SPOKEN_EMAIL.finditer(text)]
    for m in _NINO.finditer(text):
        if m.group("sp") or _NINO_CUE.search(text, max(0, m.start() - 40), m.start()):
            out.append(("national_id", *m.span("value")))
    out += [("national_id", *m.span("value")) for m in _SOCIAL.finditer(text) if ssn_valid(m.group("value"))]
    out += [("phone", m.start(), m.end()) for m in _AU_MOBILE.finditer(text)]
    return out


# --------------------------------------------------------------------------- structured records and numeric key halves

# A street line under its own key in a record: "line1":"3-12-8 Kichijoji-honcho", address_line_1: 12 Elm St.
_ADDRESS_KEY = re.compile(
    r"(?i)[\"']?\b(?:address_?line_?1|address1|addr1|line_?1|street(?:_?address)?|street_?line)[\"']?\s*[:=]\s*"
    r"(?:\"(?P<q>[^\"\n]{4,80})\"|'(?P<s>[^'\n]{4,80})'|(?P<b>[^\n,;\"']{4,80}))"
)
# A token as a URL's whole userinfo: a Sentry DSN key, "https://ghp_x@github.com/org/repo" (not an email address).
_URL_TOKEN = re.compile(r"(?i)(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{1,20}://(?P<value>[A-Za-z0-9_-]{16,80})@[\w-]+(?:\.[\w-]+)+")
# A numeric key next to its secret: "api_key 874512963301745, api_secret ...".
_NUMERIC_KEY = re.compile(r"(?i)\b(?:api[ _-]?key|apikey|app[ _-]?key|consumer[ _-]?key)[\"']?\s*(?:[:=：]|\bis\b|是|为)?\s*[\"']?(?P<value>\d{12,20})(?!\d)")
_SECRET_NEARBY = re.compile(r"(?i)\b(?:api[ _-]?secret|app[ _-]?secret|secret[ _-]?key|consumer[ _-]?secret|client[ _-]?secret)\b|密钥|秘钥")


def find_structured(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _ADDRESS_KEY.finditer(text):
        group = next(g for g in ("q", "s", "b") if m.group(g) is not None)
        if re.search(r"\d", m.group(group)) and not _PLACEHOLDER.match(m.group(group).strip()):
            start, end = m.span(group)
            out.append(("address", start, end - (len(m.group(group)) - len(m.group(group).rstrip()))))
    for m in _URL_TOKEN.finditer(text):
        value = m.group("value")
        if re.fullmatch(r"[0-9a-f]{24,}|[0-9A-F]{24,}", value) or looks_random(value, 16):
            out.append(("api_key", *m.span("value")))
    if _SECRET_NEARBY.search(text):
        out += [("api_key", *m.span("value")) for m in _NUMERIC_KEY.finditer(text)]
    for m in _VALUE_FIRST_OTP.finditer(text):
        out.append(("otp", *m.span("value" if m.group("value") else "v2")))
    return out


# "the bank just texted me 4471 92 as the code", "收到的码是 659082".
_VALUE_FIRST_OTP = re.compile(
    r"(?i)(?<![\w.-])(?P<value>\d{3,4}[ -]?\d{2,4})\s+(?:as|is|was)\s+(?:the|my|your|our)\s+(?:\w+\s+)?(?:code|otp|passcode)\b|"
    r"(?:收到|发来|短信里|短信上)的(?:码|数字)(?:是|为)\s*(?P<v2>\d{4,8})(?!\d)"
)
