"""Values a sentence calls old, previous, replaced or revoked are still secrets (redaction round 33, issue 10).

A password that was changed is still somebody's password: people reuse them, and an old one opens the backups, the
other accounts and the logs written under it. ``redact_roles`` reads the old value after an "old" cue and a comma or
"was" ("the old password, X, ..."); people also put it in brackets or name both ends of the change:

- the old one in brackets or set off by commas: "the old one (X) is revoked", "its previous passcode (X) expired",
  "the old password, X, was revoked", "旧的（X）已作废", "之前那个（X）不能再用了", "原来的密码（X）已停用";
- the change from one value to another: "rotated the SFTP password from X to Y", "VPN密码从X改为Y" (both go).

The sentence must name a password (or a PIN / passcode / 密码 / 口令): an old version, ticket or room in brackets stays.
A value must look like a password (``redact_roles.password_shaped``, or words joined by underscores with a digit, not in
capitals: "felix_cat99" - the general reading takes those for a constant's name), or, after a PIN's or a code's noun,
be 4-8 digits.
Every pattern is anchored with bounded gaps, so the cost stays linear in the text.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_roles import password_shaped

Span = tuple[str, int, int]

_VALUE = r"(?P<v>[^\s\u4e00-\u9fff\u3000-\u303f\uff00-\uffef,;()\[\]{}<>|\"'”’`]{4,64})"
# An "old" cue and its own noun ("the old one", "the previous passcode", "旧的", "之前那个", "原来的密码"), then the value
# in brackets.
_OLD_BRACKETED = re.compile(
    r"(?i)(?:\b(?:the\s+|its\s+|their\s+|his\s+|her\s+|our\s+|my\s+)?(?:old|previous|former|prior|earlier|last)"
    r"(?:\s+(?:one|password|passcode|passphrase|pin|code|login))?|"
    r"(?:旧|原来|之前|以前|老|上一个|上次)(?:的|那个|这个|一个)?(?:密码|口令|登录密码)?)"
    r"\s*(?:[(（]\s*[\"'“]?" + _VALUE + r"[\"'”]?\s*[)）]|[,，]\s*[\"'“]?" + _VALUE.replace("<v>", "<c>") + r"[\"'”]?\s*[,，])"
)
# Round 41 (blind r38): an old value glued to its cue and voided ("旧的X作废了", "之前那个X已经停用了", "the old one X is
# dead", "our old wifi pass X no longer works"), and the new one given after it in the same sentence ("新的是Y",
# "现在用 Y", "it's now Y", "use Y now").
_OLD_VOIDED = re.compile(
    r"(?i)(?:\b(?:the\s+|its\s+|their\s+|his\s+|her\s+|our\s+|my\s+)?(?:old|previous|former|prior|earlier)"
    r"(?:\s+one|(?:\s+[a-z][\w-]{1,11})?\s+(?:password|pass|passcode|passphrase|pw|pwd|pin|code|login))|"
    r"(?:旧|原来|之前|以前|老|上一个|上次)(?:的|那个|这个|一个)?(?:密码|口令|登录密码)?)"
    r"\s*(?:\bis\b|\bwas\b|是|[:：])?\s*[\"'“]?" + _VALUE + r"[\"'”]?"
    r"(?P<void>\s*(?:已经?|都|早就?)?(?:作废|失效|停用|不能再?用|没用|不用|过期|废)了?|"
    r"\s+(?:(?:is|was|has\s+been|got)\s+)?(?:dead|expired|revoked|retired|disabled|deactivated|voided|invalid)\b|"
    r"\s+(?:no\s+longer\s+works|doesn['’]t\s+work|stopped\s+working))"
)
_NEW_AFTER = re.compile(
    r"(?i)[^\n。！？]{0,24}?(?:\bnew\s+one\s+(?:is\b|[:：])|\bit['’]s\s+now\b|\bit\s+is\s+now\b|\bnow\s+(?:it['’]s|it\s+is)\b|"
    r"\buse\b|新的(?:是|为|[:：])?|现在(?:是|用|改成了?)?|改成了?|换成了?)\s*[\"'“]?" + _VALUE
)
_FROM_TO = re.compile(
    r"(?i)\bfrom\s+[\"'“]?(?P<old>[^\s,;()\[\]{}<>|\"'”’`]{4,64})[\"'”]?\s+(?:to|into)\s+[\"'“]?(?P<new>[^\s,;()\[\]{}<>|\"'”’`]{4,64})|"
    r"从\s*[\"'“]?(?P<old_zh>[^\s\u4e00-\u9fff\u3000-\u303f\uff00-\uffef,;()<>|\"'”’`]{4,64})[\"'”]?\s*"
    r"(?:改|换|变|重置|更新|调整)(?:成了?|为|到)\s*[\"'“]?(?P<new_zh>[^\s\u4e00-\u9fff\u3000-\u303f\uff00-\uffef,;()<>|\"'”’`]{4,64})"
)
# The password noun that makes the sentence about a password ("password manager", "密码策略" name no value).
_PASSWORD_NOUN = re.compile(
    r"(?i)(?<![\w:/<-])(?:pass(?:word|phrase|code)s?|passwd|pwd|(?-i:PIN)s?|pin\s+(?:code|number))\b"
    r"(?!\s*(?:manager|policy|hash|field|length|rules?|hint|generator|strength|history|requirements?)\b)|"
    r"(?:密码|口令)(?!策略|管理|规则|长度|强度|提示|哈希|字段)"
)
_CHANGE = re.compile(r"(?i)\b(?:chang|rotat|reset|updat|switch|swapp|swap|mov|flipp|set)\w*\b")
_DIGIT_NOUN = re.compile(r"(?i)\b(?-i:PIN)s?\b|\bpin\s+(?:code|number)|\bpasscode|\bcodes?\b|密码|口令|码")
_SENTENCE_END = re.compile(r"[。！？\n]|[.!?](?:\s|$)")
_REACH = 160  # how far a sentence is looked for either side of a value: bounded, so the cost stays linear


def _sentence(text: str, start: int, end: int) -> str:
    lo = max(0, start - _REACH)
    ends = [m.end() for m in _SENTENCE_END.finditer(text, lo, start)]
    stop = _SENTENCE_END.search(text, end, min(len(text), end + _REACH))
    return text[ends[-1] if ends else lo : stop.start() if stop else min(len(text), end + _REACH)]


_SNAKE_WITH_DIGIT = re.compile(r"(?=[^_]*_)(?=\D*\d)[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+")


def written_password(value: str) -> bool:
    """A password's shape where a password's noun names the value (also read by ``redact_respective``)."""
    return password_shaped(value) or bool(_SNAKE_WITH_DIGIT.fullmatch(value)) and not value.isupper()


def _value_ok(value: str, sentence: str) -> bool:
    value = value.rstrip(".,;:!?")
    if value.isdigit():
        return 4 <= len(value) <= 8 and bool(_DIGIT_NOUN.search(sentence))
    return written_password(value)


def find_replaced_values(text: str) -> list[Span]:
    """Old and replaced passwords in a sentence that names a password."""
    out: list[Span] = []
    for m in _OLD_BRACKETED.finditer(text):
        sentence = _sentence(text, m.start(), m.end())
        group = "v" if m.group("v") is not None else "c"
        if _PASSWORD_NOUN.search(sentence) and _value_ok(m.group(group), sentence):
            out.append(("password", *m.span(group)))
    for m in _OLD_VOIDED.finditer(text):
        if not (_PASSWORD_NOUN.search(text, max(0, m.start() - _REACH), m.end("v")) or _PASSWORD_NOUN.search(m.group(0))
                or re.search(r"(?i)\b(?:pass|pw)\b", m.group(0))):
            continue
        around = _sentence(text, m.start(), m.end())
        if not _value_ok(m.group("v"), around):
            continue
        out.append(("password", *m.span("v")))
        new_value = _NEW_AFTER.match(text, m.end("void"))
        if new_value is not None and written_password(new_value.group("v").rstrip(".,;:!?")):
            out.append(("password", new_value.start("v"), new_value.start("v") + len(new_value.group("v").rstrip(".,;:!?"))))
    for m in _FROM_TO.finditer(text):
        old, new = ("old", "new") if m.group("old") is not None else ("old_zh", "new_zh")
        sentence = _sentence(text, m.start(), m.end())
        # a password's noun (one password, not "passwords from LastPass to ...": a migration names tools) and, in English,
        # a verb of change before the change: "rotated the password from X to Y", "VPN密码从X改为Y"
        before = text[max(0, m.start() - 48) : m.start()]
        noun = _PASSWORD_NOUN.search(before)
        if noun is None or old == "old" and (noun.group(0).lower().endswith("s") or not _CHANGE.search(before)):
            continue
        for group in (old, new):
            value = m.group(group).rstrip(".,;:!?")
            if _value_ok(value, sentence):
                out.append(("password", m.start(group), m.start(group) + len(value)))
    return out
