"""Undo word-level obfuscation a character fold cannot: leetspeak, ROT13, pinyin, homophones.

Each decoder returns the decoded text, or None when the text does not look
encoded that way, so ordinary text (version strings, English that happens to
contain "ni hao") is left alone. What is decoded is only ever screened, never
stored. :func:`hindsight.safety.normalize.prepare` appends each decoding as a
hidden piece, so a verdict names how the text was hidden ("hidden:rot13").
"""

from __future__ import annotations

import codecs
import re

from hindsight.safety import phonetic
from hindsight.text.tokenize import EN_STOPWORDS

# --------------------------------------------------------------------------- leetspeak
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i", "|": "l"})
_LEET_CHAR = re.compile(r"[a-z][0-9@$|]|[0-9@$|][a-z]")
_LEET_WORD = re.compile(r"[a-z0-9@$!|]*[a-z][a-z0-9@$!|]*")


def _is_leet(word: str) -> bool:
    return any(c.isalpha() for c in word) and any(c in "013457@$|" for c in word) and not re.fullmatch(r"[a-f0-9]+", word)


#: Words whose disguise alone is worth reading back ("sk1p", "p4ssw0rd", "r00t"): one such word decodes.
_RISK_EN = frozenset(
    "skip bypass ignore disable delete drop wipe purge truncate force push merge main master prod production password "
    "passwords passwd secret secrets token tokens credential credentials admin root sudo grant approve approval review "
    "verify verification confirm confirmation backup backups audit logs firewall security safety export dump upload "
    "send forward share leak exfiltrate transfer wire payment payee bank account invoice refund instructions previous "
    "rules policy system prompt never always without anyone public bucket database customer customers users keys key "
    "captcha hooks tests test checks check deploy release cert certificate tls ssl otp code codes".split()
)


def decode_leet(text: str) -> str | None:
    """'1gn0r3 4ll pr3v10u5' -> 'ignore all previous' when at least three words mix letters and leet digits, or
    when one disguised word reads as a risky one ('sk1p the r3view')."""
    if not _LEET_CHAR.search(text):
        return None
    words = _LEET_WORD.findall(text)
    leet = [w for w in words if _is_leet(w)]
    risky = [w for w in leet if w.translate(_LEET).strip("!|") in _RISK_EN]
    if not risky and (len(leet) < 3 or len(leet) < 0.25 * len(words)):
        return None
    out = re.sub(r"\b[a-z0-9@$!|]+\b", lambda m: m.group(0).translate(_LEET) if not m.group(0).isdigit() else m.group(0), text)
    return out if out != text else None


# --------------------------------------------------------------------------- ROT13
_COMMON_EN = frozenset(
    ["the", "and", "to", "of", "a", "in", "is", "you", "your", "all", "any", "every", "from", "now", "on", "never", "always", "send", "give", "delete", "ask", "before", "after", "with", "without", "for", "it", "this", "that", "be", "are", "not", "no", "do", "don't", "please", "must", "should", "can", "will", "me", "my", "our", "their", "them", "they", "password", "passwords", "keys", "key", "admin", "access", "data", "file", "files", "user", "users", "instructions", "previous", "ignore", "forward", "history", "each", "night", "chat", "grant", "disable", "security", "checks", "treat", "request", "requests", "payment", "confirm", "confirmation", "says", "who", "gets", "root"]
)
_WORD = re.compile(r"[a-z']+")
_ENGLISH = _COMMON_EN | EN_STOPWORDS | _RISK_EN


def _english_hits(text: str) -> int:
    return sum(1 for w in _WORD.findall(text) if w in _ENGLISH)


def _more_english(text: str, candidate: str) -> bool:
    before, after = _english_hits(text), _english_hits(candidate)
    n_words = max(1, len(_WORD.findall(text)))
    return after >= 3 and after >= 2 * before + 2 and after >= 0.3 * n_words


_SEGMENT = re.compile(r"[:;\n|()\[\]]|(?<=[.!?])\s|[，。：；]")


def decode_rot13(text: str) -> str | None:
    """Rotate ASCII letters by 13 when that turns gibberish into noticeably more English: the whole text, or each
    segment of it (an encoded order after "note:" inside an ordinary sentence)."""
    if not re.search(r"[a-z]{3}", text):
        return None
    rotated = codecs.encode(text, "rot13")
    if _more_english(text, rotated):
        return rotated
    pieces = [codecs.encode(seg, "rot13") for seg in _SEGMENT.split(text)
              if len(words := _WORD.findall(seg)) >= 3 and _english_hits(seg) < 0.3 * len(words)]
    pieces = [p for p, seg in zip(pieces, (codecs.encode(p, "rot13") for p in pieces), strict=True) if _more_english(seg, p)]
    return " ".join(pieces) if pieces else None


# --------------------------------------------------------------------------- reversed
def _pair_hits(text: str, pairs: frozenset[str]) -> int:
    return sum(1 for i in range(len(text) - 1) if text[i:i + 2] in pairs)


def decode_reversed(text: str) -> str | None:
    """Text written backwards ('esabatad eht eteled') read forwards, when that is noticeably more English, or
    (Chinese) spells at least two more risky words."""
    backwards = text[::-1]
    if re.search(r"[a-z]{3}", text) and _more_english(text, backwards):
        return backwards
    if re.search(r"[\u4e00-\u9fff]{4}", text):
        pairs = phonetic.table().pairs
        if _pair_hits(backwards, pairs) - _pair_hits(text, pairs) >= 3:
            return backwards
    return None


# --------------------------------------------------------------------------- pinyin
def decode_pinyin(text: str) -> str | None:
    """'yi hou shan chu shu ju ku bu yong que ren' (or 'yǐhòu shānchú ...') -> '以后删除数据库不用确认'.

    Every risky word of the Chinese lexicons is readable from its pinyin (:mod:`phonetic`); runs of pinyin
    tokens inside English or Chinese text count too, so a mixed-language order is read as well.
    """
    return phonetic.decode_pinyin(text)


# --------------------------------------------------------------------------- homophones
# Characters swapped for ones that sound alike, so a keyword screen misses them.
_HOMOPHONES = {
    "删醋": "删除", "删出": "删除", "珊除": "删除", "确仁": "确认", "确忍": "确认", "却认": "确认", "蜜码": "密码", "秘码": "密码",
    "密玛": "密码", "密马": "密码", "秘要": "密钥", "蜜钥": "密钥", "密要": "密钥", "秘钥": "密钥", "忽律": "忽略", "忽列": "忽略",
    "乎略": "忽略", "指领": "指令", "指另": "指令", "只令": "指令", "日制": "日志", "日只": "日志", "跳锅": "跳过", "条过": "跳过",
    "管里员": "管理员", "管哩员": "管理员", "邮相": "邮箱", "油箱": "邮箱", "审匹": "审批", "审比": "审批", "权线": "权限",
    "全限": "权限", "转帐": "转账", "以候": "以后", "以厚": "以后", "发松": "发送", "令排": "令牌", "审记": "审计", "关必": "关闭",
    "绕锅": "绕过", "批谁": "批准", "不用确仁": "不用确认",
}
_HOMOPHONE_RE = re.compile("|".join(sorted(map(re.escape, _HOMOPHONES), key=len, reverse=True)))


def decode_homophones(text: str) -> str | None:
    """Sound-alike spellings read back ('删醋' -> '删除'): a known swap, or at least two characters runs that sound
    like a risky word and are no word themselves (:func:`phonetic.decode_sound_alikes`); None when there are none."""
    out = _HOMOPHONE_RE.sub(lambda m: _HOMOPHONES[m.group(0)], text)
    if out != text:
        return out
    return phonetic.decode_sound_alikes(text)


DECODERS = (("leetspeak", decode_leet), ("rot13", decode_rot13), ("reversed", decode_reversed), ("pinyin", decode_pinyin),
            ("homophone", decode_homophones))


def decode_all(folded: str) -> list[tuple[str, str]]:
    """Every decoding that applies to an already folded (lowercase) text."""
    found: list[tuple[str, str]] = []
    for kind, decoder in DECODERS:
        decoded = decoder(folded)
        if decoded:
            found.append((kind, decoded))
    return found
