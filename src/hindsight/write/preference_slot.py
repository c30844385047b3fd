"""What a stated preference is about: two preferences of different attributes are two facts (issue 10, prefs45).

A preference's slot is what it is about, not its verb. "The user now prefers light mode in the editor" and "The user
prefers tabs over spaces" share the subject and the verb, and a change cue ("prefers X over Y", "now") or a
single-valued reading ("prefers" with its object as the value, 偏好 + 深色主题 / 14号字体) read the second as a new
value of the first: the live theme preference was retired. `other_preference` gives positive evidence that two
preferences are of two attributes, read by `retire_veto.veto` (an override between them is linked, not retired):

* both texts state a preference (`_VERB_EN` / `_VERB_ZH`: prefers, likes, loves, enjoys, favourite, 偏好, 喜欢,
  偏爱, 首选, 倾向于); its object is what follows the verb, up to a scope or a clause break ("in the editor", "on
  flights", 的时候), and a contrast's other side ("over spaces", "rather than", 而不是 ...) is part of what it
  names;
* neither text names a word of the other's object anywhere (EN: content words, plural folded; ZH: a two-character
  stretch; 偏好思源黑体，宋体看久了眼睛累 speaks of the old 宋体), and the two objects do not open with one verb
  (喝拿铁 / 喝美式: both of what one drinks);
* one side's object names its attribute - a head noun after a modifier ("light mode", "font size", "window seats",
  深色主题, 14号字体), or the noun of "favourite / preferred <attribute> is" - and the other text does not name that
  head anywhere. A time tail ("these days", "now") is not part of an object.

A one-word object ("tea" / "coffee", 汉庭 / 全季) names a value, not the attribute: never read here, so a changed
drink or a first choice swapped still retires. Lexical; nothing fitted. `ON` switches it.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

ON = True

_VERB_EN = re.compile(r"(?<=\w )(?:prefers|prefer|preferred|likes|loves|enjoys|favou?rs)\s+"
                      r"|\b(?:i|we|they|you|would|'d) (?:really )?(?:like|love|prefer)\s+"
                      r"|\b(?:favou?rite|preferred) (?P<named>\w+(?: \w+)?) (?:is|are)\s+", re.IGNORECASE)
_VERB_ZH = re.compile(r"(?:更|比较|最)?(?:偏好|偏爱|喜欢|首选|倾向于)(?:用|于)?")
#: Where an English object ends: a scope, a clause, a reason.
_END_EN = re.compile(r"\s+(?:in|on|for|at|during|when|while|with|because|from|by|of|if|as|since|after|before|"
                     r"and|but|so|unless|these days|nowadays|lately|any ?more|now)\b|[,.;:!?()\-]|$", re.IGNORECASE)
#: A contrast inside an object: the other side of a preference.
_OTHER_EN = re.compile(r"\s+(?:over|rather than|instead of|than|to|not)\s+", re.IGNORECASE)
_OTHER_ZH = re.compile(r"而不是|而非|不是|胜过|多于|比")
_END_ZH = re.compile(r"[，。；：！？,.;:!?（）()、]|的时候|时|因为|所以|但是|但|和|并且")
#: Words of an English object that name neither a value nor an attribute.
_STOP_EN = frozenset("a an the my his her their its our your some any more less much very really now still also "
                     "always usually generally strongly slightly mostly just to using use doing having being "
                     "it them this that these those one ones".split())
#: A verb that opens a Chinese object (喝咖啡, 用 Vim): what the preference acts on, shared when both use it.
_ZH_LEAD = "喝吃用看听穿玩坐住去买读打开骑"
_HAN = re.compile(r"[\u3400-\u9fff]")


@dataclass(frozen=True)
class Preference:
    """A stated preference's object: its words, the head that names its attribute ("" when it names a value only),
    and the verb opening a Chinese object."""

    words: frozenset[str]
    head: str
    lead: str


def _fold(word: str) -> str:
    w = word.lower()
    return w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w


def _en(text: str) -> Preference | None:
    found = _VERB_EN.search(text)
    if found is None:
        return None
    rest = text[found.end():]
    parts = _OTHER_EN.split(rest, maxsplit=1)
    core = _END_EN.split(parts[0], maxsplit=1)[0]
    other = _END_EN.split(parts[1], maxsplit=1)[0] if len(parts) > 1 else ""
    core_words = [_fold(w) for w in re.findall(r"[A-Za-z][A-Za-z'-]*", core) if w.lower() not in _STOP_EN]
    other_words = [_fold(w) for w in re.findall(r"[A-Za-z][A-Za-z'-]*", other) if w.lower() not in _STOP_EN]
    if not core_words:
        return None
    named = [_fold(w) for w in (found.group("named") or "").split() if w.lower() not in _STOP_EN]
    head = named[-1] if named else core_words[-1] if len(core_words) >= 2 else ""  # "favourite colour is": colour
    return Preference(frozenset(core_words + other_words), head, "")


def _bigrams(stretch: str) -> set[str]:
    han = "".join(_HAN.findall(stretch))
    grams = {han[i:i + 2] for i in range(len(han) - 1)}
    return grams | {w.lower() for w in re.findall(r"[A-Za-z]{2,}|\d+", stretch)}


def _zh(text: str) -> Preference | None:
    found = _VERB_ZH.search(text)
    if found is None:
        return None
    rest = _END_ZH.split(text[found.end():], maxsplit=1)[0].strip()
    parts = _OTHER_ZH.split(rest, maxsplit=1)
    core = parts[0].strip().rstrip("的")
    lead = core[0] if core and core[0] in _ZH_LEAD else ""
    core = core[len(lead):]
    han = "".join(_HAN.findall(core))
    if not core:
        return None
    words = _bigrams(core) | (_bigrams(parts[1]) if len(parts) > 1 else set())
    head = han[-2:] if len(han) >= 3 or (len(han) == 2 and re.search(r"\d|[A-Za-z]", core)) else ""
    return Preference(frozenset(words), head, lead)


@lru_cache(maxsize=4096)
def preference(text: str) -> Preference | None:
    """The preference a text states (module doc), or None."""
    text = unicodedata.normalize("NFKC", text)
    return _zh(text) if _HAN.search(text) else _en(text)


def _names(text: str, word: str) -> bool:
    if _HAN.search(word) or word.isdigit():
        return word in text
    return word in {_fold(w) for w in re.findall(r"[A-Za-z][A-Za-z'-]*", text)}


def other_preference(old: str, new: str) -> str:
    """Why `new` does not retire `old` ("" when it may): two preferences of two attributes (module doc)."""
    if not ON:
        return ""
    a, b = preference(old), preference(new)
    if a is None or b is None or a.words & b.words or (a.lead and a.lead == b.lead):
        return ""
    old_l, new_l = unicodedata.normalize("NFKC", old).lower(), unicodedata.normalize("NFKC", new).lower()
    if any(_names(new_l, w) for w in a.words) or any(_names(old_l, w) for w in b.words):
        return ""  # one text names the other's object ("..., 宋体看久了眼睛累"): it speaks of the same thing
    if a.head and not _names(new_l, a.head):
        return f"a preference about another attribute ({a.head} / {b.head or 'not named'})"
    if b.head and not _names(old_l, b.head):
        return f"a preference about another attribute ({a.head or 'not named'} / {b.head})"
    return ""
