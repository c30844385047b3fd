"""Values bound to a credential by their role in the sentence (redaction round 27, issue 10).

Round 26 (:mod:`redact_roles`) reads a value *assigned* to a secret-bearing noun ("the code is 4417", "密码改成 X"). The
misses left are the same roles told another way:

- **a code that arrived, was entered or is shown**: a sentence names a code (验证码, OTP, door / recovery / one-time
  code, a security token or key fob) and, later in the same sentence, a number or a grouped code that someone received,
  entered or read off a device ("验证码是四位的，王医生手机收到8826", "Security token showed 09 27 64", "收到两条短信码，
  一条4418一条6072"), or the value follows the noun straight away ("开门码7#3#9#1", "恢复码qk4m-7zt2-x9pl"), or after a
  parenthesis and a colon ("check-in code for the flat (valid from 14:00 today only): 90317"). A number with its own
  label (an order, a room, a phone, "ending 4521", 订单, 尾号) is not the code, and a number followed by a unit is a
  quantity;
- **a password an account uses**: an account, a login, an inbox, a router or a network (账号, 邮箱, 后台, 路由器) and a
  change of its secret - now uses / changed to / reset to / rotated to / 改成 / 重置成 - to a password-shaped value
  ("the shared scheduling account now uses 'X'"); a username is never what an account "is", so "is" does not count;
- **a login typed in**: an entry verb (填 / 输入 / enter / type / log in with / sign in with) and a ``user / password``
  pair, the second half password-shaped, in a sentence about signing in ("浏览器弹框里填 teacher01 / X 就能进");
- **a Basic credential decoded**: an ``Authorization: Basic`` value whose base64 decodes to ``user:password``; the
  password written out elsewhere in the text is the same secret ("(that's dentallab:X decoded)").

EN and ZH. Every pattern is bounded and each scan looks at most a sentence ahead, so the cost stays linear.
"""

from __future__ import annotations

import base64
import binascii
import re

from hindsight.safety.redact_roles import (
    NOT_THE_VALUE,
    code_noun_pattern,
    code_shaped,
    listed,
    not_secret_code,
    password_shaped,
)

Span = tuple[str, int, int]

# --------------------------------------------------------------------------- a code that arrived, was entered or is shown

# A device that shows a code is a code's noun too ("Security token showed 09 27 64", "动态令牌显示").
_DEVICE = (r"(?i)(?:\b(?:security|hardware|rsa|soft(?:ware)?|physical|bank(?:ing)?|authenticator|otp)\s+(?:token|fob)s?\b|\bkey\s?fobs?\b|"
           r"动态令牌|硬件令牌|令牌器|口令卡)")
_NOUN = re.compile(code_noun_pattern() + "|" + _DEVICE[4:])
# What a value of the code is to its sentence, said right before it: received, entered, shown, read, counted (一条).
_ROLE_MARK = re.compile(
    r"(?i)(?:\b(?:got|gets|received|receives|entered|enters|typed|types|keyed\s+in|punched\s+in|showed|shows|shown|showing|displayed|"
    r"displays|reads|read|says|said|came\s+(?:through|in|back)\s+as|arrived\s+as|is|was|are|were|one\s+(?:is|was)|the\s+other|first|second|"
    r"then|and|gave(?:\s+(?:him|her|them|it))?|told\s+(?:him|her|them)|read\s+(?:out|back)|texted\s+(?:me|us)|sent\s+(?:me|us))\b|[:：=]|"
    r"报给[\u4e00-\u9fff]{0,3}|告诉[\u4e00-\u9fff]{0,3}|给了[\u4e00-\u9fff]{0,3}|收到了?|发来了?|发过来了?|输入了?|输了|填了?|显示(?:的)?(?:是)?|跳出|弹出|是|为|(?:另)?一条|一个|第[一二三]个|还有)"
    r"\s*[:：,，]?\s*[\"'“‘`「(（]?(?-i:(?<![\w-])[A-Z]-)?$"  # round 39: a one-capital prefix ("is G-582046")
)
# A number with its own label is not the code: an order, a room, a phone, a flight, "ending 4521", 订单, 尾号, 工单.
_OWN_LABEL = re.compile(
    r"(?i)(?:\b(?:order|room|flight|ticket|case|ref(?:erence)?|invoice|booking|tracking|phone|tel|mobile|fax|ext(?:ension)?|no\.?|number|"
    r"ending(?:\s+in)?|last\s+(?:four|4)|account|acct|card|unit|suite|gate|bay|floor|line|version|build|pr|issue|step|page|id)\s*[:#]?\s*"
    r"|[#+$€£¥]\s*|订单号?|单号|房间?号?|航班号?|电话|手机号|尾号|末四位|工单号?|编号|账号|卡号|金额|版本号?|分机)$"
)
_RIGHT_AFTER = re.compile(r"\s*(?:[:：,，=]|[-–—]|is)?\s*[\"'“‘`「(（]?\s*|\s*[(（][^()（）\n]{0,60}[)）]\s*[:：]\s*[\"'“‘]?")
_VALID_FOR = re.compile(r"(?i)\s*[,，(（]?\s*(?:valid|expires?|expiring|good\s+(?:for|until)|only\s+works|有效|过期|失效)")
_SENTENCE_STOP = re.compile(r"[。！？；\n]|[.;!?](?=\s|$)")
_BRACKETED = re.compile(r"[(（][^()（）\n]{0,60}[)）]")
_VALUE = re.compile(r"(?P<v>(?:(?<![A-Za-z0-9_-])|(?<=(?<![\w-])[A-Z]-))\d(?:[ #*-]?\d){3,7}#?|(?=[A-Za-z-]*\d)(?=[\dA-Za-z-]*[A-Za-z])[A-Za-z0-9]{3,5}(?:-[A-Za-z0-9]{3,5}){1,5})"
                    r"(?![A-Za-z0-9_-]|[.,:/]\d|[ -]\d)")
_UNIT = re.compile(r"\s*(?:位|个|次|分钟|秒|小时|天|年|元|块|条|笔|人|张|%|[KMG]B\b|(?i:percent|digits?|characters?|chars?|times?|minutes?|mins?|"
                   r"seconds?|secs?|hours?|hrs?|days?|weeks?|years?|lines?|words?|bytes?|pages?|steps?|rows?|users?|items?|people|"
                   r"attempts?|tries|points?|pts|kg|km|ms|hkd|usd|rmb|cny|eur|gbp|dollars?|yuan|pounds?)\b)")
_HASHISH = re.compile(r"(?i)hash|digest|checksum|crc|md5|sha-?\d|哈希|摘要|校验和")
_REACH = 90  # how far after the noun a value may stand (the rest of its sentence, a clause or two)


def _sentence_end(text: str, start: int) -> int:
    stop = _SENTENCE_STOP.search(text, start, start + _REACH)
    return stop.start() if stop else min(len(text), start + _REACH)


def _received_codes(text: str) -> list[Span]:
    out: list[Span] = []
    for noun in _NOUN.finditer(text):
        if not_secret_code(text, noun.start()) or _HASHISH.search(text, max(0, noun.start() - 16), noun.end()):
            continue
        end = _sentence_end(text, noun.end())
        pos = noun.end()
        for _ in range(3):  # at most the first three values of the sentence
            m = _VALUE.search(text, pos, end)
            if m is None:
                break
            pos = m.end()
            between = _BRACKETED.sub(" ", text[noun.end() : m.start()])
            if any(c.isdigit() for c in between):
                break  # another number stands between the noun and this one: this one is not the noun's
            value = m.group("v").rstrip("#")
            if _UNIT.match(text, m.end()) or not code_shaped(value.replace("#", "").replace("*", "")) and not re.fullmatch(r"\d(?:[#*]\d){3,7}", value):
                continue
            before = text[max(noun.end(), m.start() - 16) : m.start()]
            if _OWN_LABEL.search(before):
                continue
            # Right after its noun: glued, spaced, after a colon, a comma or a dash of apposition, in brackets, or after a
            # parenthesis and a colon ("code for the flat (valid from 14:00 today only): 90317").
            right_after = _RIGHT_AFTER.fullmatch(text, noun.end(), m.start()) and (
                noun.group(0).lower() not in ("code", "codes") or _VALID_FOR.match(text, m.end()))  # "Code 448213 valid for 10 min"
            if right_after or _ROLE_MARK.search(text, max(noun.end(), m.start() - 24), m.start()):
                out.append(("otp", m.start(), m.start() + len(value)))
                break
    return out


def _repeated(text: str, spans: list[Span]) -> list[Span]:
    """A found code said again later in its text ("..., 以后 6072 为准") is the same secret."""
    out: list[Span] = []
    for kind, start, end in spans[:8]:
        value, pos = text[start:end], end
        for _ in range(4):
            at = text.find(value, pos)
            if at < 0:
                break
            pos = at + len(value)
            if not (text[at - 1 : at].isascii() and text[at - 1 : at].isalnum()) and not (text[pos : pos + 1].isascii() and text[pos : pos + 1].isalnum()):
                out.append((kind, at, pos))
    return out


# --------------------------------------------------------------------------- a password an account uses

_HOLDER = (r"(?i)(?:\b(?:account|login|log-?in|inbox|mailbox|router|wi-?fi|network|ssid|portal|console|admin\s+panel|dashboard|laptop|"
           r"computer|pc|phone|tablet|safe|vault|database|db|server)s?\b|账号|帐号|账户|邮箱|后台|路由器|无线网|热点|系统|电脑|保险柜)")
_CHANGE = (r"(?:\b(?:now\s+uses?|uses?\s+(?:the\s+)?(?:password|passphrase|passcode|pin)|(?:has\s+been\s+|was\s+|got\s+)?(?:changed|reset|rotated|set|updated)\s+to)\b"
           r"|改成了?|改为|重置成了?|重置为|设置成了?|设置为|换成了?|更新为|更新成了?)")
_BRIDGE = r"[^\n。！？.!?;；]{0,60}?"
_QUOTED_OR_TOKEN = (r"\s*(?:[\"'“‘`「](?P<q>[^\"'”’`」\n]{4,48})[\"'”’`」]|(?P<v>[^\s\u4e00-\u9fff\u3000-\u303f\uff00-\uffef,;()\[\]{}<>|\"'”’`]{4,64}))")
_ACCOUNT_PASSWORD = re.compile(_HOLDER + _BRIDGE + _CHANGE + _QUOTED_OR_TOKEN)
_DOMAIN_END = re.compile(r"(?i)\.[a-z]{2,6}$")
_STRONGISH = re.compile(r"(?=.*\d)(?=.*[^\w\s])|(?=.*\d)(?=.*[A-Z])(?=.*[a-z])")


def _account_passwords(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _ACCOUNT_PASSWORD.finditer(text):
        group = "q" if m.group("q") is not None else "v"
        value = m.group(group).rstrip(".,;:!?")
        # A quoted value needs a password's shape; a bare one also a digit and a symbol or mixed case ("v2" is a plan),
        # eight characters ("UTF-8" is an encoding) and no domain's ending ("mail-login.cn" is an address).
        if not password_shaped(value) or (group == "v" and (not _STRONGISH.search(value) or len(value) < 8 or _DOMAIN_END.search(value))):
            continue
        start = m.start(group)
        out.append(("password", start, start + len(value)))
    return out


# --------------------------------------------------------------------------- a password named after its value, or asked for

_PW_NOUN = r"(?:pass(?:word|phrase|code)|passwd|(?-i:PIN)|pin\s+code|wi-?fi\s+key|密码|口令)"
_BARE_VALUE = r"(?P<v>(?<![^\s\u4e00-\u9fff\"'“‘`「:：,，(（])[^\s\u4e00-\u9fff\u3000-\u303f\uff00-\uffef,;()\[\]{}<>|\"'”’`]{4,48})"
_VALUE_BEFORE = _BARE_VALUE.replace(":：,，", "")  # a value named by the noun after it starts a word, not inside "user:pass@host"
# "用 kaola2024 这个密码", "kaola2024 就是新的 Wi-Fi 密码", "'mint4417' is the guest password": the value, then its noun.
_VALUE_THEN_NOUN = re.compile(
    r"(?i)" + _VALUE_BEFORE + r"[\"'”’`」]?[ \t]*(?:(?:这个|这串|那个|那串)|(?:就是|也是|是|作为|当)\s*(?:新的|现在的|以后的|我们的|他的|她的)?|"
    r"(?:is|was|will\s+be|becomes?)\s+(?:now\s+|still\s+)?(?:the|our|my|his|her|their|its|your)\s+(?:new\s+|current\s+|temporary\s+|guest\s+|admin\s+)?)"
    r"[\w\u4e00-\u9fff -]{0,12}?" + _PW_NOUN + NOT_THE_VALUE
)
# A question that names a password or a PIN, answered in the next words: "Password for the label printer? It's mint4417.",
# "Her passcode? 9921.", "门禁密码呢？是 4417。"
_ASKED_THEN_TOLD = re.compile(
    r"(?i)" + _PW_NOUN + r"[^\n?？。.!！]{0,40}[?？]\s*(?:(?:it'?s|it\s+is|that'?s|is|was|就是|是|[:：])\s*)?[\"'“‘`「]?" + _BARE_VALUE
)
# A wireless network named in the sentence, then its key ("network ClinicGuest, key sunflower82").
_NETWORK_KEY = re.compile(r"(?i)\b(?:wi-?fi|wlan|ssid|network|hotspot)\b[^\n.。;；!?]{0,60}?\bkey\s*(?:[:：=]|is)?\s*[\"'“]?" + _BARE_VALUE)


def _named_passwords(text: str) -> list[Span]:
    out: list[Span] = []
    for pattern in (_VALUE_THEN_NOUN, _ASKED_THEN_TOLD, _NETWORK_KEY):
        for m in pattern.finditer(text):
            value = m.group("v").rstrip(".,;:!?)")
            pin = pattern is _ASKED_THEN_TOLD and re.search(r"(?i)pin|code|码", m.group(0)[:12]) and re.fullmatch(r"\d{4,8}", value)
            if password_shaped(value) or pin:
                out.append(("password", m.start("v"), m.start("v") + len(value)))
    return out


# --------------------------------------------------------------------------- a login typed in

_ENTRY = r"(?i)(?:\b(?:enter|type|use|log\s?in\s+with|sign\s?in\s+with|logs?\s+in\s+as|fill\s+in)\b|填入?|输入|输|键入|用)"
_LOGIN_PAIR = re.compile(_ENTRY + r"\s*[:：]?\s*[\"'“]?(?P<u>[\w.@+-]{3,40})[\"'”]?\s*(?:/|／|\|)\s*[\"'“]?(?P<v>[^\s/\"'”`,;，。；]{4,64})")
_SIGN_IN = re.compile(r"(?i)\b(?:log\s?in|sign\s?in|login|auth(?:entication)?|basic\s+auth|credentials?|username|get\s+in|access)\b|"
                      r"登录|登陆|认证|进得去|就能进|能进|弹框|账号|用户名")


def _typed_logins(text: str) -> list[Span]:
    out: list[Span] = []
    for m in _LOGIN_PAIR.finditer(text):
        value = m.group("v").rstrip(".!?)")
        lo = max(0, m.start() - 80)
        window = text[lo : m.end() + 40]
        if password_shaped(value) and _STRONGISH.search(value) and _SIGN_IN.search(window):
            out.append(("password", m.start("v"), m.start("v") + len(value)))
    return out


# --------------------------------------------------------------------------- a Basic credential decoded

_BASIC = re.compile(r"(?i)\bbasic\s+(?P<b>[A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])")


def _decoded_basic(text: str) -> list[Span]:
    out: list[Span] = []
    for m in list(_BASIC.finditer(text))[:8]:
        try:
            plain = base64.b64decode(m.group("b"), validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
        _, sep, secret = plain.partition(":")
        if not sep or len(secret) < 4:
            continue
        pos = 0
        for _ in range(8):
            at = text.find(secret, pos)
            if at < 0:
                break
            pos = at + len(secret)
            if not (m.start("b") <= at < m.end("b")):
                out.append(("password", at, at + len(secret)))
    return out


def find_bound_values(text: str) -> list[Span]:
    """Codes that arrived, were entered or are shown; a password an account now uses; a login typed in; a Basic
    credential's password written out."""
    codes = _received_codes(text)
    codes += listed(text, codes)
    return codes + _repeated(text, codes) + _account_passwords(text) + _named_passwords(text) + _typed_logins(text) + _decoded_basic(text)
