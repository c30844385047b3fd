"""A key, token, secret or password named by an ASCII noun glued to Chinese, then changed to a value (redaction round 37,
issue 10).

"把测试环境的token改成 x9Kq2LmN8vRt4Wz7", "飞书机器人的token改成q7Wm3Zx8Lk2Vp9Rt了", "小程序的secret换成了A8f3...", "服务器的pw改成
Hx7pLm29qz", "打印机的pass是Qw8rTy2024": Python's ``\\b`` and ``(?<!\\w)`` read a Han character as a word character, so
the readings that want a word boundary beside "token" / "key" / "pw" see none between 的 and token or between token and
改成 (round 36b: a blanket ASCII-aware boundary in every module cost 2.2x CPU and moved look-alikes). This reader is the
targeted one: its noun is bounded by "no ASCII letter, digit or underscore" on either side, so a Han character beside it
is a boundary. After the noun, at most an adverb (也 / 已 / 已经 / 又 / 刚 / 都 / 再), then a change verb (改成, 改为, 换成,
更新为, 设成, 重置为, 变成, "changed / rotated / reset / updated / set to"), or for a password noun also 是 / 为; then the
value, ended by a space, a Han character or punctuation:

- after a key, token or secret noun: a generated string (``looks_random``) with a letter and a digit, no constant's
  name (SECRET_KEY_V2), no path or file (config.yaml) and no word (Bearer, JWT);
- after a password noun (pw, pwd, pass, passwd, password, passcode): a password's shape (``password_shaped``) with a
  letter and a digit.

What a token or key is changed *to* when that is a way of working ("改成从环境变量读取", "改成 Bearer 认证方式"), a name
("改成英文名"), a field ("改成 config.yaml 里的 api_key 字段") or a duration ("过期时间改成 3600 秒": the noun is not
right before the verb) stays. Linear: one bounded pattern, each match checked in constant time.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_roles import password_shaped
from hindsight.safety.validators import looks_random

Span = tuple[str, int, int]

_NOUN = (r"(?i)(?<![A-Za-z0-9_])(?:(?P<k>(?:(?:api|app|access|auth|bot|webhook|secret|client|signing|refresh|session)[ _-]?)?"
         r"(?:token|key|secret)s?)|(?P<p>pw|pwd|pass|passwd|password|passcode))(?![A-Za-z0-9_])")
_ADVERB = r"\s*(?:也|已经?|又|刚|都|再)?\s*"
_CHANGE = (r"(?:改成了?|改为|换成了?|换为|更新为|更新成了?|设成了?|设为|设置为|设置成了?|重置为|重置成了?|变成了?|"
           r"\s+(?:(?:was|has\s+been|is|got)\s+)?(?:changed|rotated|reset|updated|set)\s+to\b)")
_COPULA = r"(?:是|为)"
_VALUE = r"\s*[:：]?\s*[\"'“‘`]?(?P<v>[A-Za-z0-9_\-./+=~!@#$%^&*]{6,80})"
_GLUED = re.compile(_NOUN + _ADVERB + r"(?:(?P<c>" + _CHANGE + r")|" + _COPULA + r")" + _VALUE)
_HAN = re.compile(r"[\u4e00-\u9fff]")
_CONSTANT = re.compile(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+")
_FILE_OR_PATH = re.compile(r"(?i).*(?:/|\.(?:ya?ml|json|toml|ini|env|py|js|ts|txt|conf|cfg|xml)$)")


def _has_letter_and_digit(value: str) -> bool:
    return any(c.isdigit() for c in value) and any(c.isalpha() for c in value)


def find_glued_values(text: str) -> list[Span]:
    """Values a key / token / password noun glued to Chinese is changed to (or, for a password, is)."""
    out: list[Span] = []
    for m in _GLUED.finditer(text):
        value = m.group("v").rstrip(".,;:!?")
        start = m.start("v")
        if not _has_letter_and_digit(value) or _CONSTANT.fullmatch(value) or _FILE_OR_PATH.match(value):
            continue
        if m.group("k") is not None:
            if m.group("c") is not None and looks_random(value):
                out.append(("api_key", start, start + len(value)))
        elif password_shaped(value) and (m.group("p").lower() != "pass" or _HAN.match(text, max(0, m.start() - 1))):
            out.append(("password", start, start + len(value)))  # "pass" only glued to Chinese: "boarding pass是 ..." stays
    return out
