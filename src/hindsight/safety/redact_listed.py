"""The next credential of a list (redaction round 28): a found password vouches for the ones listed after it.

People list a second login in the clause after the first without repeating the password word: "Windows login tashi /
Yak&Snow2024, and the bookings spreadsheet opens with everest9911", "前台电脑密码改成 X 了，收银系统的是 Y". Once a
finder found a password (or a PIN, a key), the next clauses of its sentence - joined by a comma, "and", "also", 还有,
另外 ... - that give a thing and an access verb (opens / unlocks / logs in with, uses, 用, 改成, 设成) or, after a short
holder with no identifier's label, a plain "is" / ":" / 是 / 的是, and a password-shaped value (``redact_roles.
password_shaped``: no word, version, date, path, URL or reference) are passwords too. At most four clauses after each
found value, each a bounded pattern: linear in the text.
"""

from __future__ import annotations

import re

from hindsight.safety.redact_roles import password_shaped

Span = tuple[str, int, int]

_JOIN = r"(?:\s*[了啦呢哦吧]?\s*(?:[,;，；、]|\band\b|\balso\b|\bplus\b|还有|另外|以及|和)\s*(?:(?:and|also|then|还有|另外)\s+)?)"
_VERB = (r"(?P<verb>\b(?:opens?|unlocks?|logs?\s+in|signs?\s+in|gets?\s+in|goes)\s+with\b|\buses?\b|\b(?:is|was)\s+(?:now\s+)?(?:set\s+to|changed\s+to)\b|"
         r"改成了?|改为|设成了?|设为|设置成|换成了?|用的?是|要用|用)")
_PLAIN = r"(?P<plain>\bis\b|'s\b|的是|是|为)"  # never ":" / "=": a record's keys are ``redact_records``' reading
_HOLDER_EN = r"(?:[^\n.!?;。！？；,，:：=]{1,60}?)"
_HOLDER_ZH = r"(?:[^\n.!?;。！？；,，:：=\s]{1,16}?)"
_VALUE = r"\s*[\"'“‘`「]?(?P<v>[^\s\u3000-\u303f\u3400-\u9fff\uff00-\uffef,;()\[\]{}<>|\"'”’`]{4,48})"
_NEXT = re.compile(_JOIN + r"(?P<holder>" + _HOLDER_EN + r"|" + _HOLDER_ZH + r")\s*(?:" + _VERB + r"|" + _PLAIN + r")" + _VALUE)
# A holder naming an identifier, a number or a contact: its value is that, not a password.
_ID_LABEL = re.compile(r"(?i)\b(?:id|ids|number|no|num|ticket|order|invoice|room|version|build|ref|reference|case|phone|tel|"
                       r"mobile|email|e-mail|mail|ext|extension|address|url|link|host|ip|port|user(?:name)?|login\s+name|"
                       r"account\s+name|sku|model|serial|tracking|container|booking|flight|plate|name|network|ssid|encryption|mode|type|scopes?|"
                       r"server|domain|region|bucket|path|folder|file\s+name)\b|名字|名称|网络名|加密|方式|模式|类型|权限|主机|域名|区域|服务器|"
                       r"编号|单号|号码|版本|房间|"
                       r"电话|手机|邮箱|地址|链接|用户名|账号名|型号|序列号|柜号|运单|快递|航班|车牌|工号|学号|会议室|房间|楼|室|座|门牌")
_SENTENCE_END = re.compile(r"[。！？\n]|[.!?](?=\s|$)")
_WORD_DIGITS = re.compile(r"[a-z]{3,}_\d{2,}")  # "shouyin_777": a snake-case name to ``password_shaped``, a password here
_CREDENTIAL = frozenset({"password", "api_key"})
_REACH = 4  # clauses after one found value


def _listed_shape(value: str) -> bool:
    """A password's shape with no password word to vouch for it: letters and digits, or a symbol a name never has
    ("SS-Visitor", "LV-Guest", "WPA3" are names or settings)."""
    if len(value) < 6 or not password_shaped(value):
        return False
    letters, digits = any(c.isalpha() for c in value), any(c.isdigit() for c in value)
    return letters and digits or bool(re.search(r"[!@#$%^&*+=?~]", value))


def _head(holder: str) -> str:
    """An English holder's head noun, its last word: "the simulator room PC" names a PC, not a room (round 32). A
    Chinese holder is read whole."""
    words = holder.split()
    return words[-1] if words and words[-1].isascii() else holder


def _taken(spans: list[Span], start: int, end: int) -> bool:
    return any(a < end and start < b for _, a, b in spans)


def find_listed_passwords(text: str, spans: list[Span]) -> list[Span]:
    """The passwords listed in the clauses after a found password or key in its sentence (see the module)."""
    out: list[Span] = []
    found = sorted((s for s in spans if s[0] in _CREDENTIAL), key=lambda s: s[1])
    for _, _, end in found[:32]:  # bounded: a text with many secrets reads its first 32
        stop = _SENTENCE_END.search(text, end)
        limit = stop.start() if stop else len(text)
        pos = end
        for _ in range(_REACH):
            m = _NEXT.match(text, pos, limit)
            if m is None:
                break
            holder = m.group("holder")
            value = m.group("v").rstrip(".,;:!?")
            v_start = m.start("v")
            v_end = v_start + len(value)
            pos = v_end
            # After an access verb the holder's head decides ("the simulator room PC uses X"); after a plain "is" the
            # whole holder does ("the room number is 4B").
            if _ID_LABEL.search(_head(holder) if m.group("verb") else holder) or m.group("plain") and len(holder.split()) > 5:
                continue
            if re.match(r"\s*/\s*\S", text[v_end:]):
                continue  # "uses admin / X": a login pair, its finder takes the password half
            if (_listed_shape(value) or _WORD_DIGITS.fullmatch(value)) and not _taken(spans + out, v_start, v_end):
                out.append(("password", v_start, v_end))
    return out
