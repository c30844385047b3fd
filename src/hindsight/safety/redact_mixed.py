"""Passwords that mix Chinese characters with letters and digits, told after a password word and a separator or a
verb of change (round 35, blind r33): "开机密码我改成猫咪2024xy了", "路由器密码刚换成小橘子88ab，", "the shared drive password was
changed to 书法2023go", "I set the NAS password to 晨跑Run2024".

The other password readers take an ASCII value (``redact_passwords``), or a Han-and-ASCII value only when punctuation
or a space ends it (``redact_shapes._PW_HAN``); a particle glued after the value (了, 啦, 吧) or an English label left
it. The value here is Han characters and an ASCII run (three or more characters, a digit among them) in either order,
ended where the ASCII run ends: "改成琴房2023abc了" gives "琴房2023abc". Prose after a password word names no such value:
"改成从环境变量DB_PASS读取" (no digit), "长度改成12位以上" (no Han lead), "改为字母加数字8位以上" (one ASCII character).
A lead that points at a value ("之前那个", "默认的") is not part of it.
"""

from __future__ import annotations

import re

Span = tuple[str, int, int]

_ASCII = r"[A-Za-z0-9!@#$%^&*._+~-]"
# Han characters, then an ASCII run; or an ASCII run, Han characters and an ASCII run ("love猫咪2024"). A particle is the
# sentence's, not the value's ("改成了Abc123": the value is "Abc123", another reader's).
_VALUE = (rf"(?![了啦吧呢哦的])(?P<value>[\u4e00-\u9fff]{{1,6}}{_ASCII}{{3,24}}(?:[\u4e00-\u9fff]{{1,4}}{_ASCII}{{1,24}})?|"
          rf"{_ASCII}{{2,24}}[\u4e00-\u9fff]{{1,4}}{_ASCII}{{2,24}})(?![A-Za-z0-9])")
_VERB_ZH = (r"(?:是|为|：|:|=|改成了?|改为|换成了?|设成了?|设为|设置成了?|设置为|更新为|更新成了?|修改为|修改成了?|重置为|重置成了?|"
            r"变成了?|变为|现在是)")
_ZH = re.compile(r"(?:密码|口令)[\u4e00-\u9fff]{0,4}?" + _VERB_ZH + r"\s*[\"'“‘「]?" + _VALUE)
_EN = re.compile(
    r"(?i)\b(?:password|passcode|passphrase|passwd)\b(?:\s+(?:for|of|on)\s+(?:the\s+|my\s+|our\s+)?[\w.-]{1,30}(?:\s+[\w.-]{1,20})?)?"
    r"(?P<sep>\s*[:=]|\s+(?:is\s+now|is|was|now|(?:was\s+|has\s+been\s+|got\s+|is\s+)?(?:changed|set|reset|updated|switched)\s+to|to))"
    r"\s*[\"'“‘]?" + _VALUE
)
# A verb that sets a value before "the X password to ..." ("I set the NAS password to 晨跑Run2024").
_SETS = re.compile(r"(?i)\b(?:set|sets|setting|change[sd]?|changing|reset|resets|resetting|update[sd]?|updating|switch(?:ed|es)?)\b"
                   r"[^.;!?\n。；]{0,40}\Z")
# A lead that points at a value rather than being part of it: "之前那个abc123", "默认的abc123", "用abc123".
_POINTER = re.compile(r"^[\u4e00-\u9fff]*?(?:的|那个|这个|那串|这串|那组)|^(?:用|从|按|以)")


def _mixed(value: str) -> bool:
    """Han characters with an ASCII run of three or more that holds a digit."""
    runs = re.findall(_ASCII + r"+", value)
    return any(len(r) >= 3 for r in runs) and bool(re.search(r"\d", value)) and bool(re.search(r"[\u4e00-\u9fff]", value))


def find_mixed_passwords(text: str) -> list[Span]:
    out: list[Span] = []
    for pattern in (_ZH, _EN):
        for m in pattern.finditer(text):
            start, end = m.span("value")
            value = m.group("value")
            if pattern is _EN and m.group("sep").strip().lower() == "to" and not _SETS.search(text, max(0, m.start() - 60), m.start()):
                continue  # "send the password to 张三abc1": a recipient, not the password
            if _POINTER.match(value):
                continue  # "改成之前那个abc123": the ASCII value is another reader's
            if _mixed(value):
                out.append(("password", start, end))
    return out
