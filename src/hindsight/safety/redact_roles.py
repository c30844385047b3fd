"""Values read by their role in the sentence, not by a phrase (redaction round 26, issue 10).

Earlier rounds added one pattern per phrasing a writer used ("password is", "密码改成"); a new writer phrases it
another way and the pattern misses. These readings ask what the value *is* in its sentence:

- **assigned to a secret-bearing noun**, in any phrasing: the noun (password, passcode, PIN, a one-time / recovery /
  door code, an app / merchant / webhook key, 密码, 口令, 验证码, 开门码, 密钥 ...), up to a few words that say whose
  it is ("for the shared inbox", "上周"), then any assignment - is / was / now uses / changed to / came through as /
  ":" / "=" / 是 / 为 / 设置成 / 改成 / 更新为 / 收到 - and a value of the noun's kind, quoted or not;
- **the value it replaced**: in a sentence that names a password, the old one ("旧的 X 作废", "原来那个 X",
  "the old one, X, is retired") is a password too;
- **a code said to a person in chat**: a turn that asks for or names a code ("code pls", "验证码发我") and the next
  turn, one or two lines on, that is only a number ("0427", "09 27 64");
- **a list of values of one kind**: after a value this module found, the next ones joined to it by a list word
  ("4410 2281 and 7731 0926", "一条4418一条6072") with the same shape;
- **an identifier and its document word**: a document's name (passport, ID card, PPS number, 身份证, 回乡证 ...), a
  few words or a comma, and an identifier's shape (letters and at least four digits, a check character in brackets
  "1234567(8)", digit groups).

What a value must look like is the kind's, never a word: a password has a digit or a symbol or mixed case and is not
a version, a date, a path, a URL or a reference (``os.environ[...]``, ``$VAR``, a stand-in); a code is four to eight
digits not followed by a unit; a key is eight or more characters with letters and digits. EN and ZH. Every pattern is
bounded, so the cost stays linear in the text.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_cues import NOT_SECRET_CODE, declared_invalid
from hindsight.safety.validators import cn_id_valid, stand_in_value

Span = tuple[str, int, int]

# --------------------------------------------------------------------------- nouns that bear a secret

# A password's noun, not a thing named after it ("password manager", "密码策略", "1Password"); also read by ``redact_bound``.
NOT_THE_VALUE = (r"(?!\s*(?:manager|policy|policies|reset|resets|hash|hashes|field|length|rules?|requirements?|prompt|strength|expiry|"
                  r"change|vault|protected|less|store|list|file|spray|generator|hint|rotation|expiration|complexity|history|form|screen|page)\b|策略|管理|规则|长度|强度|提示|重置链接|哈希|字段|框)")
# Not inside a URL or a template ("postgres://user:password@host", "<密码>"); "pin" only as a PIN ("pin numpy==1.26" pins a version).
_PASSWORD_NOUN = (r"(?i)(?:(?<![\w:/<-])(?:pass(?:word|phrase|code)?s?|passwd|pwd|pw|(?-i:PIN)(?:\s+code)?|pin\s+(?:code|number)|login\s+pin|"
                  r"wi-?fi\s+key|plain-?text|clear-?text)\b(?![@>])|(?<![<])(?:密码|口令|明文)(?![>]))" + NOT_THE_VALUE)
_CODE_NOUN = (r"(?i)(?:\b(?:(?:one[- ]time|verification|login|sign-?in|sms|text|2fa|mfa|otp|totp|recovery|backup|door|gate|entry|"
              r"check-?in|access|security|token|auth(?:entication)?|confirmation|unlock|keypad|lockbox|alarm)\s+(?:codes?|pins?)|"
              r"otp|totp|2fa\s+code|codes?)\b|验证码|短信码|校验码|动态码|动态口令|开门码|门禁码|恢复码|备用码|取件码|一次性码|短信里的码|"
              # round 37 (blind r35): a PIN said alone ("Delivery PIN for order #55821 is 4096"; ASCII-bounded, so "PIN码"
              # counts), and the code a parcel, a meal or an order is collected or signed for with (取餐码, 取镜码, 提货码,
              # 收货码, 签收码, 开柜码 - 取号码 / 取款码 name a queue number and a withdrawal, 提示码 / 提交码 no code)
              r"(?<![A-Za-z0-9_])(?-i:PINs?)(?![A-Za-z0-9_])|(?:取|提|领)(?![号款消交供示])[\u4e00-\u9fff]?码|"
              r"(?:收货|签收|寄件|开箱|开柜|存件|存包|核销|自提)码)")
_KEY_NOUN = (r"(?i)(?:\b(?:app|api|merchant|webhook|secret|signing|sdk|partner|client|application)[ _-]?keys?\b|"
             r"\b(?:app|api|client)[ _-]?secrets?\b|\bappkey\b|\bappsecret\b|(?<=[a-z])(?<!ublic)(?-i:Key|Secret)\b|密钥|秘钥|私钥|(?<=[\u4e00-\u9fff的])key)")
# The other half of a key pair ("keyID", "公钥", "appKey" beside "appSecret"): only in a text that names the secret half.
_ID_HALF_NOUN = r"(?i)(?:\bkey\s?id\b|\baccess\s?key(?:\s?id)?\b|公钥|\bpublic\s+key\b|\b(?:live|merchant|app)\s+key\b)"
_SECRET_HALF = re.compile(r"(?i)\bsecret\b|secret(?:key)?\b|(?<=[a-z])Secret|applicationKey|私钥|密钥|\bSK\b")
# An assignment: whatever says "the value of the noun is the following" (EN / ZH).
_ASSIGN = (r"(?:\b(?:is|was|are|were|be|becomes?|became|has\s+been|have\s+been)(?:\s+(?:now|still|currently|just))?"
           r"(?:\s+(?:re)?(?:set|changed|updated|rotated|switched|moved)\s+to)?\b|"
           r"\bnow\s+(?:uses?|reads?)\b|\buses?\b|\b(?:changed|set|reset|updated|rotated|switched|moved|changing|setting)\s+(?:it\s+)?to\b|"
           r"\bcame\s+(?:through|in|back)\s+as\b|\b(?:reads?|says|shows?|showed|got|gave)\b|->|→|=|[:：]|"
           r"(?:已经|已)?(?:是|为|设置成了?|设置为|设成了?|设为|改成了?|改为|改了?成|更新成了?|更新为|重置成了?|重置为|换成了?|变成了?|用的是|收到了?|显示(?:的)?是?|"
           r"发来了?|报了?))")
# Between the noun and the assignment: a few words about whose it is (no sentence end, no other value).
# (a comma only in a bridge without a number: "code 7264, valid 10:00" is another clause, "codes for X, the first two are" is not).
_BRIDGE_EN = r"(?:\s+(?![\"'“‘])[^\s\n.，;!?。；！？:：=\"“‘]{1,24}){0,9}?"
_BRIDGE_ZH = r"[^\n.,，;!?。；！？:：=\"'“‘\s]{0,12}?"
_QUOTED = r"[\"'“‘`「](?P<q>[^\"'”’`」\n]{4,48})[\"'”’`」]"
# A value ends at a space, a Han character, full-width punctuation, a bracket, a pipe or a query string's "&".
_TOKEN = r"(?P<v>(?![=:])[^\s\u4e00-\u9fff\u3000-\u303f\uff00-\uffef,;()\[\]{}<>|&\"'”’`]{4,64})"


def _noun_value(noun: str, value: str = _TOKEN) -> re.Pattern[str]:
    return re.compile(noun + r"(?P<b>" + _BRIDGE_EN + r"\s*|" + _BRIDGE_ZH + r")" + _ASSIGN + r"\s*(?:" + _QUOTED + "|" + value + ")")


def _crosses_clause(m: re.Match[str]) -> bool:
    bridge = m.group("b")
    return "," in bridge and any(c.isdigit() for c in bridge)


_PASSWORD_VALUE = _noun_value(_PASSWORD_NOUN)
_CODE_VALUE = _noun_value(_CODE_NOUN, r"(?P<v>[\dA-Za-z][\dA-Za-z #*-]{3,30})")
_KEY_VALUE = _noun_value(_KEY_NOUN)
_ID_HALF_VALUE = _noun_value(_ID_HALF_NOUN)

# --------------------------------------------------------------------------- what a value of each kind looks like

_NOT_A_VALUE = re.compile(
    r"(?i)^(?:v?\d+(?:\.\d+)+[\w.+-]*|\d{1,4}[-/.年]\d{1,2}(?:[-/.月]\d{1,4})?日?|\d{1,2}:\d{2}(?::\d{2})?|https?://.*|www\..*|[\w.+-]+@[\w-]+\.[\w.]+|"
    r"[~./\\].*|.*[/\\].*[/\\].*|[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+|.*(?:\(|\)|\[|\]|\{|\}|\$).*|[A-Z]+(?:_[A-Z0-9]+)+|\d+(?:%|px|ms|s|x)|"
    r"(?:the|a|an|same|different|new|old|one|set|not|no|in|on|at|to|it|this|that|required|reset|changed|expired|blank|empty|"
    r"shared|stored|saved|written|managed|rotated|wrong|right|correct|incorrect|weak|strong|long|short|unknown|hidden)\b.*)$")
_HASH_NEAR = re.compile(r"(?i)hash|digest|checksum|fingerprint|sha-?\d|md5|bcrypt|crc|哈希|散列|摘要|校验和|指纹")
# An authenticator's seed is found whole by its own finder (``redact_cues``); a key reading would take its first group.
_SEED_NEAR = re.compile(r"(?i)totp|2fa|mfa|authenticator|two[- ]factor|两步验证|二次验证|身份验证器|谷歌验证")
_UNIT_AFTER = re.compile(r"\s*(?:位|个|次|分钟|秒|小时|天|年|元|块|条|笔|人|号(?!码)|%|percent\b|digits?\b|characters?\b|chars?\b|times?\b|"
                         r"minutes?\b|mins?\b|seconds?\b|hours?\b|days?\b|years?\b|litres?\b|liters?\b|kg\b|km\b|employees\b|people\b|"
                         r"items\b|rows\b|users\b|attempts?\b|tries\b|lines?\b|words?\b|bytes?\b|pages?\b|steps?\b|[KMG]B\b|ms\b)", re.IGNORECASE)
_CODE_SHAPE = re.compile(r"\d{4,8}|\d{2,4}(?:[ -]\d{2,4}){1,3}|\d(?:[ #*]\d){3,7}|(?=[A-Za-z-]*\d)(?=[\dA-Za-z-]*[A-Za-z])[A-Za-z0-9]{3,5}(?:-[A-Za-z0-9]{3,5}){1,5}")
_CODE_VALUE_AT = re.compile(r"[\"'“‘`「(（]?(?P<v>\d(?:[ #*-]?\d){3,7}#?|(?=[A-Za-z-]*\d)(?=[\dA-Za-z-]*[A-Za-z])[A-Za-z0-9]{3,5}(?:-[A-Za-z0-9]{3,5}){1,5})"
                            r"(?![\w-]|[.,]\d|[ -]\d)")


def password_shaped(value: str) -> bool:
    """A password as people write one: not a word, a version, a date, a path, a URL or a reference."""
    if len(value) < 4 or _NOT_A_VALUE.match(value) or stand_in_value(value) or value.startswith("[REDACTED"):
        return False
    if " " in value:  # a quoted passphrase ("blue whale 42"): a few short words with a digit or a symbol, not a sentence
        words = value.split()
        return len(words) <= 5 and any(not w.isalpha() for w in words)
    digit = any(c.isdigit() for c in value)
    alpha = any(c.isalpha() for c in value)
    symbol = any(not c.isalnum() for c in value)
    mixed = any(c.islower() for c in value) and any(c.isupper() for c in value[1:])
    if value.isdigit():
        return False  # a bare number is a PIN or a code only after their own nouns
    if not alpha and not re.search(r"[!@#$%^&*_+=?~]", value):
        return False  # "412/412", "10-13": a ratio or a range, not a password
    return (digit and alpha) or (symbol and (digit or alpha) and len(value) >= 6) or (mixed and len(value) >= 8)


def code_shaped(value: str) -> bool:
    """A one-time code's shape: 4-8 digits (grouped or spaced) or letter-digit groups, not a fixture or a year."""
    digits = re.sub(r"\D", "", value)
    if not _CODE_SHAPE.fullmatch(value):
        return False
    if digits and re.fullmatch(r"(\d)\1{3,}|0?1234(?:56?7?8?9?)?", digits):
        return False  # a fixture ("000000", "123456")
    return not (len(digits) == 4 and digits.startswith(("19", "20")) and value.isdigit())  # a year


_EXAMPLE_PART = re.compile(r"(?i)(?:^|[-_.])(?:example|sample|dummy|placeholder)(?:$|[-_.])")


def _key_shaped(value: str) -> bool:
    return (len(value) >= 8 and not _EXAMPLE_PART.search(value) and any(c.isdigit() for c in value) and any(c.isalpha() for c in value)
            and not _NOT_A_VALUE.match(value) and not stand_in_value(value) and not value.startswith("[REDACTED"))


_SENTENCE = re.compile(r"[。！？；\n]|[.;!?](?:\s|$)")  # "Dbx2025!，" ends no sentence
_FULL_STOP = re.compile(r"[。！？\n]|[.!?](?:\s|$)")


def _sentence_before(text: str, start: int, reach: int = 120) -> str:
    lo = max(0, start - reach)
    ends = [m.end() for m in _SENTENCE.finditer(text, lo, start)]
    return text[ends[-1] if ends else lo : start]


def _value_span(m: re.Match[str]) -> tuple[str, int, int]:
    group = "q" if m.group("q") is not None else "v"
    start, end = m.span(group)
    value = m.group(group)
    if group == "v":  # trailing punctuation belongs to the sentence
        stripped = value.rstrip(".,;:!?)]}>。，；：！？")
        end -= len(value) - len(stripped)
        value = stripped
        inner = re.search(r"[=:](?=[^=:]+$)", value)
        if inner and inner.start() > 0:  # "amap_key=7e2b...": the value is what follows its own key
            start += inner.end()
            value = value[inner.end() :]
    return value, start, end


# --------------------------------------------------------------------------- the readings

_OLD_VALUE = re.compile(
    r"(?i)(?:旧的?(?:密码|口令)?|原来(?:的|那个)?(?:密码|口令)?|之前(?:的|那个)?|以前(?:的|那个)?|老(?:的|密码)|"
    r"\b(?:the\s+)?(?:old|previous|former|prior)(?:\s+(?:one|password|passcode|pin))?)\s*(?:[,，:：]|\bwas\b|\bis\b|是)?\s*"
    r"(?:[\"'“‘`](?P<q>[^\"'”’`\n]{4,48})[\"'”’`]|" + _TOKEN + ")")
_PASSWORD_WORD = re.compile(_PASSWORD_NOUN)


def _assigned(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _PASSWORD_VALUE.finditer(text):
        if _crosses_clause(m):
            continue
        value, start, end = _value_span(m)
        if password_shaped(value) and not _HASH_NEAR.search(text, m.start(), start):
            out.append(("password", start, end))
    for m in _CODE_VALUE.finditer(text):
        if _crosses_clause(m):
            continue
        value, start, end = _value_span(m)
        cut = _CODE_VALUE_AT.match(text, start)  # "55 03 91." / "8826，输完" / "4417#": the code's own characters
        if cut is None or _UNIT_AFTER.match(text, cut.end("v")) or not code_shaped(cut.group("v").rstrip("#")):
            continue
        if _HASH_NEAR.search(text, max(0, m.start() - 12), start) or not_secret_code(text, m.start()):
            continue  # a CRC / a file's 校验码 is a checksum; an error / zip / promo code is no secret
        out.append(("otp", *cut.span("v")))
    pairs = (_KEY_VALUE, _ID_HALF_VALUE) if _SECRET_HALF.search(text) else (_KEY_VALUE,)
    for pattern in pairs:
        for m in pattern.finditer(text):
            value, start, end = _value_span(m)
            if _PASSWORD_WORD.search(m.group("b")):
                continue  # "私钥的口令是 X": the passphrase of a key is a password (the password reading takes it)
            if not _crosses_clause(m) and (_key_shaped(value) and not _HASH_NEAR.search(text, m.start(), start) and not _pagination(text, m.start())
                    and not _SEED_NEAR.search(text, max(0, m.start() - 24), start)):
                out.append(("api_key", start, end))
    return out


_WORD_BEFORE = re.compile(r"([A-Za-z]+)\s*$")


def not_secret_code(text: str, start: int) -> bool:
    """A code noun at ``start`` that names no secret: an error / zip / promo code, code review, a code base."""
    word = _WORD_BEFORE.search(text, max(0, start - 16), start)
    return bool(word and word.group(1).lower() in NOT_SECRET_CODE) or text[start : start + 4].lower() == "code" and bool(
        re.match(r"(?i)codes?\s+(?:review|base|freeze|owner|name|path|change|style|block|snippet)", text[start:]))


def code_noun_pattern() -> str:
    """The pattern of a one-time / door / recovery code's noun (EN / ZH), for readings of a code's role elsewhere."""
    return _CODE_NOUN


_PAGINATION = re.compile(r"(?i)(?:next|page|pagination|continuation|cursor|sync|marker|start)[_ -]?$")


def _pagination(text: str, start: int) -> bool:
    return bool(_PAGINATION.search(text, max(0, start - 12), start))


#: how far past a replaced value `_former` looks for the end of its sentence
_SENTENCE_REACH = 400


def _former(text: str) -> list[Span]:
    """The value a password replaced, in a sentence that names a password."""
    out: list[Span] = []
    for m in _OLD_VALUE.finditer(text):
        value, start, end = _value_span(m)
        if not password_shaped(value):
            continue
        lo = max(0, m.start() - 80)  # a semicolon joins the clause of the new value and the clause of the old one
        ends = [e.end() for e in _FULL_STOP.finditer(text, lo, m.start())]
        sentence_start = ends[-1] if ends else lo
        # the sentence's end, looked for within a sentence's reach: an unbounded look from every match made a long
        # text without a full stop cost its length squared (tests/test_redaction_round26.py, 10x text -> 65x time)
        sentence_end = _FULL_STOP.search(text, end, min(len(text), end + _SENTENCE_REACH))
        window = text[sentence_start : sentence_end.start() if sentence_end else min(len(text), end + 80)]
        if _PASSWORD_WORD.search(window):
            out.append(("password", start, end))
    return out


# A chat turn: an optional time stamp, a speaker and a colon.
_TURN = re.compile(r"^\s*(?:\[[^\]\n]{1,20}\]\s*)?(?P<who>[\w\u4e00-\u9fff][\w\u4e00-\u9fff .'-]{0,20})\s*[:：]\s*(?P<say>.*)$")
_ASKS_CODE = re.compile(_CODE_NOUN + r"|\b(?:pin|passcode)\b")
# Round 27: a code of capitals and digits ("7F3K9Q") and a remark in brackets after it ("(the email one, not SMS)").
_BARE_CODE_TURN = re.compile(r"^(?:(?:it'?s|is|here|here'?s\s+it|ok|好的?|是|给)\s*[:：,，]?\s*)?[\"'“‘]?(?P<v>\d(?:[ #*-]?\d){3,7}|"
                             r"(?-i:(?=(?:[A-Z]*\d){2})(?=\d*[A-Z])[A-Z0-9]{5,8}))[\"'”’]?"
                             r"\s*(?:[(（][^()（）\n]{1,60}[)）])?\s*(?:[.!。！]|\s*(?:thx|thanks|ty|谢谢)\W*)?$", re.IGNORECASE)


def _chat_codes(text: str) -> list[Span]:
    if "\n" not in text:
        return []
    out: list[Span] = []
    lines = text.split("\n")
    offsets = [0]
    for line in lines[:-1]:
        offsets.append(offsets[-1] + len(line) + 1)
    asked_at = -10
    for i, line in enumerate(lines):
        turn = _TURN.match(line)
        if turn is None:
            continue
        say = turn.group("say")
        if i - asked_at <= 2:
            bare = _BARE_CODE_TURN.match(say)
            if bare and (code_shaped(bare.group("v").replace("#", "").replace("*", "")) or re.fullmatch(r"\d(?:[ #*]\d){3,7}", bare.group("v"))
                         or re.search(r"[A-Z]", bare.group("v"))):
                base = offsets[i] + turn.start("say")
                out.append(("otp", base + bare.start("v"), base + bare.end("v")))
                continue
        asks = _ASKS_CODE.search(say)
        if asks and not not_secret_code(say, asks.start()):  # round 33: "what's the zip code?" asks for no secret
            asked_at = i
    return out


# A header that names codes and ends in a colon, then one code a line ("Backup codes for the admin mailbox:\n8821-4410\n...").
_CODE_HEADER = re.compile(r"(?im)^[^\n]{0,80}?" + _CODE_NOUN[4:] + r"[^\n]{0,80}[:：]\s*$")
_CODE_LINE = re.compile(r"[ \t]*(?:[-*•]|\d{1,2}[.)])?[ \t]*(?P<v>\d(?:[ #*-]?\d){3,9}|(?=[A-Za-z-]*\d)[A-Za-z0-9]{3,5}(?:-[A-Za-z0-9]{3,5}){1,5})[ \t]*(?:\n|$)")
# A code named earlier in the sentence, then "it" and how it arrived ("the portal OTP ...; it came through as 55 03 91").
_CODE_PRONOUN = re.compile(_CODE_NOUN + r"[^\n.。!?！？]{0,80}?\b(?:it|which|that)\s+(?:came\s+(?:through|in|back)\s+as|was|is|reads?|said)\s*:?\s*"
                           r"(?P<v>\d(?:[ #*-]?\d){3,7})(?![\w-]|[.,]\d|[ -]\d)")


def _code_lists(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _CODE_HEADER.finditer(text):
        if not_secret_code(text, m.start()) or _HASH_NEAR.search(m.group(0)):
            continue
        pos = m.end() + 1
        for _ in range(32):  # a bounded list
            line = _CODE_LINE.match(text, pos)
            if line is None or not code_shaped(line.group("v").replace("#", "")):
                break
            out.append(("otp", *line.span("v")))
            pos = line.end()
    for m in _CODE_PRONOUN.finditer(text):
        if not _UNIT_AFTER.match(text, m.end("v")) and code_shaped(m.group("v")):
            out.append(("otp", *m.span("v")))
    return out


# After a value this module found: the next ones joined by a list word, with the same shape.
_LIST_JOIN = re.compile(r"\s*(?:[,，、;；/]|\band\b|\bor\b|\bthen\b|和|及|与|或|(?:另)?一条|另一个|还有)\s*(?:(?:and|和)\s*)?")


def _shape(value: str) -> str:
    return re.sub(r"[A-Za-z]", "a", re.sub(r"\d", "9", value))


def listed(text: str, spans: list[Span]) -> list[Span]:
    """After each found value, the next ones joined to it by a list word with the same shape (at most eight)."""
    out: list[Span] = []
    for kind, start, end in spans:
        shape = _shape(text[start:end])
        pos = end
        for _ in range(8):  # a list is short; bounded, so many findings stay linear
            join = _LIST_JOIN.match(text, pos)
            if join is None or join.end() == pos:
                break
            nxt = text[join.end() : join.end() + len(shape)]
            after = text[join.end() + len(shape) : join.end() + len(shape) + 1]
            if _shape(nxt) != shape or (after and (after.isascii() and after.isalnum() or after in "-_")):
                break
            out.append((kind, join.end(), join.end() + len(shape)))
            pos = join.end() + len(shape)
    return out


# --------------------------------------------------------------------------- identifiers and their document word

_DOC_WORD = re.compile(
    r"(?i)(?:\bpassport(?:\s+(?:no\.?|number|#))?|\b(?:national\s+|personal\s+|resident\s+|citizen\s+)?(?:id|identity)\s+(?:card|document)(?:\s+(?:no\.?|number|#))?|"
    r"\bPPS(?:N|\s+(?:no\.?|number))?|\bmedicare(?:\s+(?:card\s+)?(?:no\.?|number))?|\b(?:driver'?s?|driving|provisional|learner'?s?)\s+licen[cs]e(?:\s+(?:no\.?|number|#))?|"
    r"\b(?:national|resident|citizen)\s+ID\b(?:\s+(?:no\.?|number|#))?|\b(?:residence|work|resident)\s+permit(?:\s+(?:no\.?|number|#))?|\bvisa\s+(?:no\.?|number|#)|\bnational\s+insurance(?:\s+(?:no\.?|number))?|"
    r"\b(?:social\s+insurance|health\s+insurance|tax\s+file|personal\s+public\s+service)\s+number|"
    # round 40: every document's 号 / 号码 is part of its label (a wrong check character right after it is still the number)
    r"(?:(?:居民)?身份证|护照|回乡证|港澳(?:台)?(?:居民)?(?:来往)?(?:内地)?通行证|台胞证|居留许可|居住证|驾驶证|驾照)(?:号码?)?|"
    r"社保(?:卡)?号|医保(?:卡)?号|证件号(?:码)?)"
)
_DOC_BRIDGE = re.compile(r"[^\n\d.;!?。；！？]{0,20}?(?:[,，:：]|\bis\b|\bwas\b|是|为|\bno\.?|#)?\s*")
_DOC_ID = re.compile(r"(?P<v>(?=[A-Z]*\d)[A-Z0-9]{6,20}(?:\s?[(（][0-9A-Z][)）])?|\d{2,6}(?:[ -]\d{1,6}){1,4})(?![A-Za-z0-9*•●＊-]|[.,]\d)")  # "110105****": masked
_DOC_GROUPED = re.compile(r"(?P<v>(?=[A-Z0-9 -]{0,40}\d)[A-Z0-9]{3,8}(?:[ -][A-Z0-9]{2,8}){1,3})(?![A-Za-z0-9*•●＊-])")
_LABEL_ONLY = re.compile(r"(?i)\s*(?:[,，:：#]|\bis\b|\bwas\b|是|为|\bno\.?)?\s*")
_NOT_DOC_BETWEEN = re.compile(r"(?i)\b(?:claim|order|booking|ticket|case|ref(?:erence)?|invoice|policy|tracking|phone|tel|mobile|fax|"
                              r"photo|fee|expir\w*|issued|valid|renewal\s+fee|appointment)\b|订单|工单|快递|电话|手机|有效期|办理费|费用|照片")


def _documents(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _DOC_WORD.finditer(text):
        bridge = _DOC_BRIDGE.match(text, m.end())
        if bridge is None:
            continue
        between = bridge.group(0)
        if _NOT_DOC_BETWEEN.search(between):
            continue
        ident = _DOC_ID.match(text, bridge.end())
        if ident is None and _LABEL_ONLY.fullmatch(between):  # round 29: right after its label, any grouping of capitals
            ident = _DOC_GROUPED.match(text, bridge.end())  # and digits ("licence number BELL9 905142 MJ9AB")
        if ident is None:
            continue
        value = ident.group("v")
        digits = sum(c.isdigit() for c in value)
        body = re.sub(r"\s?[(（][0-9A-Z][)）]$", "", value)  # "1234567(8)": the check character in brackets
        if digits < 4 or (value.isdigit() and len(value) < 6) or _NOT_A_VALUE.match(body) or _UNIT_AFTER.match(text, ident.end()):
            continue
        if re.fullmatch(r"(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:[0-2]\d|3[01])", value) or declared_invalid(text, *ident.span("v")):
            continue  # a date written YYYYMMDD; "校验位不对", "sample data"
        if re.fullmatch(r"\d{17}[\dX]", value) and not cn_id_valid(value) and not _LABEL_ONLY.fullmatch(between):
            continue  # a resident ID's shape with a wrong check character far from its label is a sample or a typo
            # (redact.py's policy); round 29: right after its label ("驾驶证号2102..."), the label decides, not the checksum
        out.append(("national_id", *ident.span("v")))
    return out


def find_role_values(text: str) -> list[Span]:
    """Values read by their role: assigned to a secret-bearing noun, the value a password replaced, a code said in chat,
    the rest of a list of such values, an identifier after its document word."""
    found = _assigned(text) + _former(text) + _chat_codes(text) + _code_lists(text)
    found += listed(text, [s for s in found if s[0] == "otp"])
    docs = _documents(text)
    return found + docs + listed(text, docs)
