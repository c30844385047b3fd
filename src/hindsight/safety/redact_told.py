"""Codes told by what happens to them, with no code word right before the value (redaction round 32).

Three ways people give a one-time code or a lock's code without the cue that :mod:`redact_cues` reads right before it:

- a lock's code told as the lock's new state: "the cabinet keypad is now 908216", "the key safe was reset to 4471",
  "门禁改成了 3391", "保险柜现在是 0618" (the lock named, then "is now" / "changed to" / "reset to" / 改成 / 现在是);
- a code a device shows: "the authenticator showed 309 118", "my RSA token displays 41 77 20", "谷歌验证器上显示 309118",
  "令牌显示的是 482913" (an authenticator, a hardware / 2FA token, a key fob; shows / displayed / gave / generated / 显示);
- a code named in one clause and given in the next by a back reference: "needs the SMS code; today's was 771204",
  "the verification code came by text - the latest one is 550 183", "登录要短信验证码；今天的是 771204".

Each is one anchored pattern with bounded gaps (linear in the text); the value must still pass the code checks of
:func:`redact_cues.otp_ok` (four digits at least, not "123456", not a quantity or a year).
"""

from __future__ import annotations

import re

from hindsight.safety.redact_cues import OTP_VALUE, declared_invalid, otp_ok

Span = tuple[str, int, int]

_END = r"(?![\w-]|[.,]\d|[ -]\d)"
_LOCK = (
    r"(?i)(?:\bkey\s?pad(?:\s+lock)?|\bkey\s?safe|\block\s?box|\bkey\s?box|\bpadlock|\b(?:combination|door|smart|digital|code|cabinet|locker|gate|"
    r"safe|front[- ]door|back[- ]door)\s+lock|\b(?:the|our|my|his|her|their|office|wall|gun|floor|hotel|room|drug|cash|deposit)\s+safe\b|"
    r"门禁|门锁|密码锁|智能锁|指纹锁|保险柜|保险箱|钥匙盒|钥匙箱|密码箱|储物柜|柜子?锁)"
)
# The lock's state changed or told: "is now", "now reads", "was reset to", "changed to", 改成了, 现在是, 换成.
_NOW = (
    r"(?:\s+(?:code|pin|combination|combo|passcode))?\s*(?:(?:\bis|'s|has\s+been|was|got)\s+(?:now\s+)?(?:(?:re)?set|changed|switched|updated)\s+to\b|"
    r"\bis\s+now\b|\bnow\s+(?:reads|opens\s+(?:on|with)|is)\b|\b(?:(?:re)?set|changed|switched|updated)\s+(?:it\s+)?to\b|"
    r"(?:密码)?(?:现在|目前)?(?:已经)?(?:改成了?|改为|换成了?|重置为|重置成|设成了?|设为|设置为|更新为|现在是|目前是))"
)
# Between the lock and its state a few words, never a schedule's ("门禁时间改成了 2230", "the gate's hours are now 0700").
_NOT_CODE = r"(?!时间|时段|开放|关门|几点|\bhours?\b|\btimes?\b|\bschedule|\bopening|\bclosing)"
_LOCK_NOW = re.compile(_LOCK + r"(?:" + _NOT_CODE + r"[^\n.;!?。；！？\d]){0,12}?" + _NOW + r"\s*[:：]?\s*[\"'“]?(?P<value>\d{4,8}|\d{3}[ -]\d{3})(?![\w-]|[.,]\d)")
# A device that shows one-time codes, then a verb that says it showed one.
_DEVICE = (
    r"(?i)(?:\b(?:google\s+|microsoft\s+|ms\s+|duo\s+|okta\s+)?authenticator(?:\s+app)?|\b(?:hardware|rsa|securid|security|soft|otp|2fa|mfa|totp)\s+token|"
    r"\b(?:2fa|mfa|otp|totp)\s+app|\bkey\s?fob|(?:谷歌|微软|身份)?验证器|动态令牌|硬件令牌|令牌|动态口令卡?|"
    # round 43: an authenticator app by its name ("my Authy says 771-204", "Okta Verify gave me 309 118")
    r"\b(?:authy|okta\s+verify|duo\s+(?:mobile|app)|freeotp|aegis|2fas)\b|\b(?:authentication|auth|verification|security|code)\s+app)"
)
_SHOWED = (
    r"[^\n.;!?。；！？\d]{0,24}?(?:\b(?:showed|shows|showing|displayed|displays|displaying|gave|gives|generated|generates|read|reads|said|says|"
    r"spat\s+out|came\s+up\s+with|popped\s+up\s+with)\b(?:\s+(?:me|us|him|her|them))?(?:\s+(?:the|a)?\s*(?:code|number|digits))?|"
    r"(?:上)?(?:显示|给出|生成)(?:了|的是|着|为)?|"
    # round 43: what the app reads now ("验证器App里现在是330871", "刚刷新，六位数是 812 470")
    r"(?:里|上)?(?:现在|当前|此刻)(?:的码)?(?:是|为)|(?<=刷新)[^\n。；！？\d]{0,8}?(?:是|为))"
)
_DEVICE_CODE = re.compile(_DEVICE + _SHOWED + r"\s*[:：]?\s*[\"'“]?(?P<value>\d{6,8}|\d{3}[ -]\d{3}|\d{2}[ -]\d{2}[ -]\d{2}|\d{4}[ -]\d{4})" + _END)
# A code named, then the next clause gives it by a back reference ("; today's was", "- the latest one is", "；今天的是").
_CODE_NAMED = (
    r"(?i)(?:\b(?:sms|text|verification|verify|login|log-in|sign-?in|security|one[- ]time|2fa|mfa|otp|auth(?:entication)?|confirmation|"
    r"access)\s+(?:codes?|pins?|passcodes?)\b|\b(?:otp|2fa\s+code)\b|验证码|校验码|动态码|短信码|动态密码|一次性密码|"
    # round 39: a code named as sent to someone ("the bank texted me a code for the reader, it's 550317")
    r"\b(?:texted|sent|emailed|messaged|sms'?d)\s+(?:me|us|him|her|them|you)\s+(?:a|the|another|my|our)\s+(?:new\s+)?"
    r"(?:codes?|pins?|passcodes?)\b)"
)
_BACK = (
    r"[^\n.!?。！？]{0,40}?(?:[;；,，:：]|\s[-–—]|\band\b)\s*(?:(?:and|but|so)\s+)?"
    r"(?:today's|tonight's|yesterday's|this\s+(?:morning|afternoon|evening|week)'s|(?:the\s+)?(?:latest|newest|new|current|last|first|second)"
    r"(?:\s+one)?|(?:the\s+)?one\s+(?:I|we|he|she|they|you)\s+(?:got|received|used|entered|typed)|mine|his|hers|theirs|ours|this\s+one|"
    r"that\s+one|it|今天的|今天那个|今早的|这次的|这回的|刚才的|刚收到的|最新的|新的|我的|他的|她的)"
    r"\s*(?:\bis\b|\bwas\b|\bwere\b|\bcame\s+as\b|\breads?\b|[:：]|是|为|(?<=\bit)['’]s\b)\s*[\"'“]?"
)
_BACK_CODE = re.compile(_CODE_NAMED + _BACK + r"(?P<value>" + OTP_VALUE + r")" + _END)


# A year, not a code: "门禁改成了 2025 年的新系统", "the safe is now 2019 vintage" is read by ``otp_ok`` only when 年 is glued.
_YEAR = re.compile(r"(?:19|20)\d{2}")
_YEAR_AFTER = re.compile(r"\s*(?:年|\b(?:model|vintage|edition|version)\b)")


# A digit value in a code's shape: the lock and device readings look back from each one over a bounded window (a scan of
# the whole text with their long alternations cost ten times more on ordinary prose).
# Round 41 (blind r38): a value glued to a Chinese verb ("显示771 406") is read as after a space.
_DIGITS = re.compile(r"(?<![A-Za-z0-9_-])(?:\d{4,8}|\d{3}[ -]\d{3}|\d{2}[ -]\d{2}[ -]\d{2}|\d{4}[ -]\d{4})(?![A-Za-z0-9_-]|[.,]\d|[ -]\d)")
_LOOK_BACK = 96
# A cheap first look at the window: a lock's or a device's word somewhere in it (most numbers in prose have neither).
_HINTS = (re.compile(r"(?i)pad|safe|lock|box|门|锁|柜|箱"), re.compile(r"(?i)authenticator|token|fob|app\b|authy|verify|duo|freeotp|aegis|2fas|验证器|令牌|口令"))


def _kept(text: str, value: str, end: int) -> bool:
    if _YEAR.fullmatch(value) and _YEAR_AFTER.match(text, end):
        return False
    return otp_ok(text, value, end) and not declared_invalid(text, end - len(value), end)


def find_told_codes(text: str) -> list[Span]:
    """A lock's code told as its new state, a code a device showed and a code given by a back reference; see the
    module."""
    out: list[Span] = []
    for d in _DIGITS.finditer(text):
        lo = max(0, d.start() - _LOOK_BACK)
        for hint, pattern in zip(_HINTS, (_LOCK_NOW, _DEVICE_CODE), strict=True):
            if not hint.search(text, lo, d.start()):
                continue
            m = next((m for m in pattern.finditer(text, lo, d.end()) if m.end("value") == d.end()), None)
            if m is not None and _kept(text, m.group("value"), d.end()):
                # as ``redact_cues``' lock reading: a lock's 密码 is a password, a code / PIN / combination a code
                out.append(("password" if "密码" in m.group(0) else "otp", *m.span("value")))
                break
    for m in _BACK_CODE.finditer(text):
        if _kept(text, m.group("value"), m.end("value")):
            out.append(("otp", *m.span("value")))
    return out
