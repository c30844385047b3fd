"""One person or thing named two ways: the name-equivalence reading of the merge blocker (issue 10).

A restatement often names its subject another way than the note it restates: Jennifer / Jen, 黄建国 / 黄工,
刘阿姨 / 刘姐, 我爸 / 老爸, 恒信会计事务所 / 恒信, JK / junior kindergarten. Read word by word, the two forms are two
people or things, and `evidence.merge_blocker` keeps the pair apart ("another person", "another subject", "a name
on one side only"). `unify(old, new)` rewrites the new text's form of a name with the old text's form where the two
are one referent, so the blocker reads one name on both sides; every other reading (values, negation, slots,
added detail, the pair model) still decides. It is positive evidence of the same subject, never of the same fact.

The forms read as one referent (only a form of one side that the other side does not hold):

* English given names: a name and its diminutive either way, from the `nicknames` package (Carlton Northern and
  Nick Crews' hand-curated table of English given names and nicknames, Apache-2.0): Jennifer / Jen, Rebecca /
  Becca, Elizabeth / Liz. Two nicknames of one name (Liz / Beth) are not read as one person.
* Chinese forms of one person, by surname (`SURNAMES`, the most common Chinese surnames): a full name (surname and
  one or two characters, read as a name) and the same surname with a title (黄建国 / 黄工, 黄总, 黄老师) or 老 / 小
  before it (老黄); the given name alone (建国 / 黄建国); two forms of address of one kind (刘阿姨 / 刘姐, 王叔 /
  王哥). Two professional titles (黄工 / 黄经理), or 老黄 / 小黄, are two people: never unified.
* kinship words of one relative (`KIN`): 爸 / 老爸 / 我爸 / 父亲 / 爸爸, 妈 / 老妈 / 母亲, dad / father.
* an organisation's full name and its head (恒信会计事务所 / 恒信): the head, two Han characters or more, followed
  in the other text by an organisation word (`ORG_TAIL`).
* an acronym and its expansion (JK / junior kindergarten): the capitals are the initials of the other text's words,
  one space or hyphen apart, none a function word, a weekday or a capitalised given name (EM / every Monday, ML / Met Leah: no).

Lexical only; no vectors. Read by `evidence.merge_blocker` alone.
"""

from __future__ import annotations

import csv
import importlib.resources
import io
import re
import threading
from collections.abc import Callable

from hindsight.write.name_reading import common_word, named

#: The most common Chinese surnames (the Ministry of Public Security's 2020 ranking, top ~200, single-character).
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆"
    "汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔"
    "伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴"
    "蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫米柏宗瞿桂佟臧闵苟邬边卞姬"
    "仇栾隋刁沙荣巫寇桑郎甄丛仲虞敖巩佘池查麻苑迟邝")
#: Titles after a surname, by kind: two of one address kind name one person (刘阿姨 / 刘姐), a professional title
#: names a role (黄工 / 黄经理: two people).
_ADDRESS = {"阿姨": "f", "姨": "f", "大姐": "f", "姐": "f", "姐姐": "f", "嫂": "f", "婶": "f",
            "叔叔": "m", "叔": "m", "大哥": "m", "哥": "m", "伯": "m", "师傅": "m"}
_PROFESSIONAL = ("老师", "经理", "主任", "医生", "大夫", "律师", "教授", "博士", "总监", "老板", "会计", "科长", "处长",
                 "部长", "院长", "校长", "所长", "工", "总", "董", "局", "队")
_TITLES = sorted([*_ADDRESS, *_PROFESSIONAL], key=len, reverse=True)
_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_SURNAME_CLASS = f"[{''.join(sorted(SURNAMES))}]"
_TITLED = re.compile(f"({_SURNAME_CLASS})({'|'.join(_TITLES)})")
_OLD_YOUNG = re.compile(f"([老小])({_SURNAME_CLASS})")
#: Kinship words of one relative, each group one referent.
KIN = (("我爸", "老爸", "爸爸", "父亲", "我父亲", "我爸爸"), ("我妈", "老妈", "妈妈", "母亲", "我母亲", "我妈妈"),
       ("my dad", "my father"), ("my mom", "my mum", "my mother"), ("dad", "father"), ("mom", "mum", "mother"))
#: Words that end an organisation's full name after its head (恒信 + 会计事务所).
ORG_TAIL = re.compile("(会计师事务所|会计事务所|律师事务所|事务所|有限责任公司|股份有限公司|有限公司|公司|集团|银行|医院|诊所|"
                      "幼儿园|小学|中学|大学|学校|研究所|研究院|中心|工作室|科技|网络|物流|酒店|餐厅|超市|药房|保险)")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’-]*")
#: English function words never spell out an acronym ("CI" is not "cache is")
#: nor a word of a day or a repeat ("EM" is not "every Monday"); nor a given name ("ML" is not "Met Leah")
_FUNCTION = frozenset(["the", "a", "an", "is", "are", "was", "were", "be", "to", "in", "on", "at", "and", "or", "it",
                       "its", "as", "by", "if", "so", "we", "i", "he", "she", "they", "has", "have", "every", "each",
                       "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"])

_lock = threading.Lock()
_nick: dict[str, frozenset[str]] | None = None


def _nicknames() -> dict[str, frozenset[str]]:
    """name -> its diminutives and the names it is a diminutive of (lower case), from the `nicknames` package."""
    global _nick
    with _lock:
        if _nick is None:
            raw = importlib.resources.files("nicknames").joinpath("names.csv").read_text(encoding="utf-8")
            table: dict[str, set[str]] = {}
            for row in csv.DictReader(io.StringIO(raw)):
                if row.get("relationship") == "has_nickname":
                    table.setdefault(row["name1"], set()).add(row["name2"])
                    table.setdefault(row["name2"], set()).add(row["name1"])
            _nick = {k: frozenset(v) for k, v in table.items()}
    return _nick


def given_names_alike(a: str, b: str) -> bool:
    """Two English given names of one person: one the other's diminutive (Jennifer / Jen), either way."""
    x, y = a.lower(), b.lower()
    return x != y and y in _nicknames().get(x, frozenset())


def _capitalised(text: str) -> list[str]:
    return [w for w in _WORD.findall(text) if w[0].isupper()]


def _en_names(old: str, new: str) -> list[tuple[str, str]]:
    old_words, new_words = set(_capitalised(old)), set(_capitalised(new))
    return [(n, o) for n in sorted(new_words - old_words) for o in sorted(old_words - new_words)
            if given_names_alike(o, n)]


def _titled(text: str) -> list[tuple[str, str, str]]:
    """(form, surname, title) of each surname + title in `text`."""
    return [(m.group(0), m.group(1), m.group(2)) for m in _TITLED.finditer(text)]


def _full_names(text: str) -> list[str]:
    """Chinese full names of `text`: words read as a name (jieba's nr) that open with a common surname."""
    from hindsight.write.analysis import units  # the analysis reads this module's caller: import late

    found = [u for u in units(text) if not u.stop]
    out = [u.text for u in found if u.entity and u.cjk and 2 <= len(u.text) <= 3 and u.text[0] in SURNAMES
           and not common_word(u.text)]  # 段时间, 白蛋白: words jieba glued into a "name"
    out += [a.text + b.text for a, b in zip(found, found[1:])  # jieba splits some: 黄 | 建国
            if a.cjk and a.text in SURNAMES and b.entity and b.cjk and 1 <= len(b.text) <= 2]
    return [f for f in out if not _TITLED.fullmatch(f) and f in text and not named(f[1:])]


def _short_forms(text: str) -> list[tuple[str, str, str]]:
    """(form, surname, kind) of each short form of a person: surname + title, 老 / 小 + surname."""
    out = [(f, s, t) for f, s, t in _titled(text)]
    return out + [(m.group(0), m.group(2), m.group(1)) for m in _OLD_YOUNG.finditer(text)
                  if not common_word(m.group(0))]  # 老师, 小时: words, not a person


def _zh_people(old: str, new: str) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    old_full = [f for f in _full_names(old) if f not in new]
    new_full = [f for f in _full_names(new) if f not in old]
    old_short = [x for x in _short_forms(old) if x[0] not in new]
    new_short = [x for x in _short_forms(new) if x[0] not in old]
    for form, surname, _ in new_short:  # 黄建国 / 黄工
        pairs += [(form, full) for full in old_full if full[0] == surname]
    for full in new_full:  # 黄工 / 黄建国: the old short form takes the full name's place
        pairs += [(full, form) for form, surname, _ in old_short if full[0] == surname]
    for form, surname, kind in new_short:  # 刘阿姨 / 刘姐: two forms of address of one kind
        pairs += [(form, o) for o, s, k in old_short
                  if s == surname and k in _ADDRESS and kind in _ADDRESS and _ADDRESS[k] == _ADDRESS[kind]]
    for full in old_full:  # 建国 / 黄建国: the given name alone
        given = full[1:]
        if len(given) == 2 and given in new and full not in new:
            pairs.append((given, full))
    for full in new_full:
        given = full[1:]
        if len(given) == 2 and given in old and full not in old:
            pairs.append((full, given))
    return pairs


def _kin(old: str, new: str) -> list[tuple[str, str]]:
    lo, ln = old.lower(), new.lower()
    pairs: list[tuple[str, str]] = []
    for group in KIN:
        in_old = [w for w in sorted(group, key=len, reverse=True) if w in lo]
        in_new = [w for w in sorted(group, key=len, reverse=True) if w in ln]
        if in_old and in_new and in_old[0] != in_new[0] and in_new[0] not in lo:
            pairs.append((in_new[0], in_old[0]))
    return pairs


def _orgs(old: str, new: str) -> list[tuple[str, str]]:
    from hindsight.write.analysis import units  # the analysis reads this module's caller: import late

    pairs: list[tuple[str, str]] = []
    new_words = {u.text for u in units(new)}  # the head stands alone in the new text (恒信, not 下午去 of 午去医院)
    for m in re.finditer(f"([{_HAN}]{{2,6}}?){ORG_TAIL.pattern}", old):
        head = m.group(1)
        for i in range(len(head) - 2, -1, -1):  # the shortest head the new text holds alone (恒信 of 交给恒信会计事务所)
            short = head[i:]
            if short in new_words and not common_word(short) and m.group(0)[i:] not in new:
                pairs.append((short, m.group(0)[i:]))
                break
    return pairs


def _acronyms(old: str, new: str) -> list[tuple[str, str]]:
    pairs: list[tuple[str, str]] = []
    for acro in sorted(set(re.findall(r"\b[A-Z]{2,5}\b", new)) - set(re.findall(r"\b[A-Z]{2,5}\b", old))):
        spelled = r"[ -]".join(rf"{c}[a-z]+" for c in acro)  # the words, one space or hyphen apart
        for m in re.finditer(rf"(?<![A-Za-z]){spelled}(?![A-Za-z-])", old, flags=re.IGNORECASE):
            span = re.split(r"[ -]", m.group(0))
            if all(w.lower() not in _FUNCTION and not (w[0].isupper() and w.lower() in _nicknames()) for w in span):
                pairs.append((acro, m.group(0)))
                break
    return pairs


def aliases(old: str, new: str) -> list[tuple[str, str]]:
    """(form in `new`, form in `old`) of each name the two texts give one referent, new form first."""
    found = _en_names(old, new) + _zh_people(old, new) + _kin(old, new) + _orgs(old, new) + _acronyms(old, new)
    seen: set[str] = set()
    out = []
    for n, o in found:
        if n and n not in seen and n != o:
            seen.add(n)
            out.append((n, o))
    return out


def _cased(form: str) -> Callable[[re.Match[str]], str]:
    """`form` capitalised where the word it replaces was (My father -> My dad)."""
    def write(m: re.Match[str]) -> str:
        return form[:1].upper() + form[1:] if m.group(0)[:1].isupper() else form
    return write


def unify(old: str, new: str) -> str:
    """`new` with each of its forms of a name the old text gives another way written as the old text writes it
    (longest first), or `new` unchanged."""
    out = new
    for n, o in sorted(aliases(old, new), key=lambda p: -len(p[0])):
        if n.isascii() and n[:1].isalpha():
            out = re.sub(rf"(?<![A-Za-z]){re.escape(n)}(?![A-Za-z])", _cased(o), out, flags=re.IGNORECASE)
        else:
            out = out.replace(n, o)
    return out
