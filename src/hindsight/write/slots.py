"""Slot alignment of a pair of memories: which stretches of one sentence were filled differently, and where.

A change keeps the entity (who/what) and the attribute and replaces the value; a different entity,
attribute, scope or time with the same frame is another fact. `slot_align.align(old, new)` lines the two texts
up on their normalised content (English words after synonym folding, Han text by character), and
reports each *region* where they differ: the old and new stretch, whether it lies in the subject (the
content before the first verb or copula: "The **web tier** autoscales ...", "**Redis 主节点**在 ..."),
whether it holds only numbers, whether it swaps one verb for another (another attribute: "runs
nightly at 2 AM" / "are retained for 35 days").

On top of it:

* `relation_mismatch`: a relative, colleague or other related person on one side only ("Priya" /
  "Priya's brother", 李娜 / 李娜的丈夫) - another person, never a restatement or a change;
* amounts compare in base units (`amounts.quantities`: 300 seconds = five minutes, 10MB = 10 兆, 3月14日 =
  March 14), so "30 minutes" and "30 days" differ while "300 s" and "5 min" agree;
* `other_fact`: why the new text is about another entity, attribute or scope than the old one (the
  judge then keeps both and links them), or None;
* `structural_change_ok`: a change read from structure alone (no cue) replaces exactly one value.

Lexical only (reads `slot_align.align`, which reads `analysis.units`); no vectors.
"""

from __future__ import annotations

import re

from hindsight.write import pair_memo
from hindsight.write.amounts import quantities_differ
from hindsight.write.slot_align import _LIGHT, FRAME_MIN, _atoms, align

#: People (and pets) related to someone: "X" and "X's brother" are two people.
_RELATIONS_EN = re.compile(
    r"\b(brother|sister|sibling|son|daughter|kid|child|children|wife|husband|spouse|partner|girlfriend|"
    r"boyfriend|fianc[eé]e?|mother|mom|mum|father|dad|parent|grandmother|grandma|grandfather|grandpa|"
    r"grandparent|aunt|uncle|cousin|niece|nephew|friend|roommate|flatmate|neighbou?r|colleague|coworker|"
    r"co-worker|teammate|assistant|intern|in-law)s?\b"
)
_RELATIONS_ZH = re.compile(
    r"(哥哥|姐姐|弟弟|妹妹|兄弟|姐妹|儿子|女儿|孩子|小孩|老婆|老公|妻子|丈夫|爱人|太太|先生|女朋友|男朋友|对象|未婚妻|未婚夫|"
    r"妈妈|母亲|爸爸|父亲|父母|爷爷|奶奶|外公|外婆|姥姥|姥爷|叔叔|阿姨|舅舅|姑姑|表哥|表姐|表弟|表妹|堂哥|堂姐|"
    r"侄子|侄女|外甥|闺女|朋友|室友|邻居|同事|同学|队友|助理|实习生|岳父|岳母|公公|婆婆)"
)
_FOLD_RELATIONS = {"mom": "mother", "mum": "mother", "dad": "father", "kid": "child", "children": "child",
                   "spouse": "partner", "grandma": "grandmother", "grandpa": "grandfather", "co-worker": "coworker",
                   "母亲": "妈妈", "父亲": "爸爸", "小孩": "孩子", "老婆": "妻子", "太太": "妻子", "爱人": "妻子",
                   "老公": "丈夫", "先生": "丈夫", "闺女": "女儿", "neighbor": "neighbour"}

def relations(text: str) -> frozenset[str]:
    """The related persons `text` names, folded (mom -> mother); kept for a `pair_memo.scope` (read about a
    dozen times per judged pair)."""
    return pair_memo.kept(("relations", text), lambda: _relations(text))


def _relations(text: str) -> frozenset[str]:
    found = {m.group(1) for m in _RELATIONS_EN.finditer(text.lower())} | set(_RELATIONS_ZH.findall(text))
    return frozenset(_FOLD_RELATIONS.get(w, w) for w in found)


def relation_mismatch(old: str, new: str) -> str | None:
    """A related person on one side only, or different ones: 'Priya' / "Priya's brother"."""
    a, b = relations(old), relations(new)
    if a == b:
        return None
    return f"another person ({', '.join(sorted(a ^ b))})"


#: Generic nouns an appended clause may hold without adding a thing of its own.
_GENERIC = ("方式", "方面", "时候", "情况", "东西", "事情", "way", "manner", "thing")


def other_entity(old: str, new: str) -> str | None:
    """Why `new` is about another person or thing than `old` (another relative, another subject in the
    same sentence frame), or None. Not even a switch cue makes such a pair a change."""
    related = relation_mismatch(old, new)
    if related:
        return related
    al = align(old, new)
    if al.frame < FRAME_MIN:
        return None  # reworded: alignment cannot tell slots apart
    subject = al.subject_replaced()
    return f"another subject ({subject.show()})" if subject is not None else None


def other_fact(old: str, new: str, attribute: bool = True) -> str | None:
    """Why `new` is about another entity, attribute or scope than `old` (so: neither a restatement nor a
    change of it by structure alone), or None when nothing says so. `attribute`: also read another verb
    as another attribute (for changes; a merge tolerates reworded verbs: works as / is employed as)."""
    entity = other_entity(old, new)
    if entity:
        return entity
    al = align(old, new)
    if al.frame < FRAME_MIN:
        return None
    content = [r for r in al.regions if r.swaps_filler]
    if len(content) >= 2:
        return f"several slots filled differently ({'; '.join(r.show() for r in content)})"
    verbal = [r for r in al.regions if r.old and r.new and not r.numeric and r.verb_swap]
    if attribute and verbal and any(not r.numeric for r in al.regions if r.new):
        swapped = verbal[0]
        if any(a.number for a in swapped.old + swapped.new) or len(al.regions) > 1:
            return f"another attribute ({swapped.show()})"
    return None


def slot_conflict(old: str, new: str) -> str | None:
    """A slot of the shared sentence filled with other words on each side (noreply@ / billing@, 上午 / 下午):
    whatever the wording around it, not a restatement."""
    al = align(old, new)
    if al.frame < 0.5:
        return None
    swapped = next((r for r in al.regions if r.swaps_filler), None)
    return f"one slot filled differently ({swapped.show()})" if swapped else None


def subject_shared(old: str, new: str) -> bool:
    """The new text names the old one's subject (李娜在腾讯 ... / 李娜跳槽 ...); True when the old subject is a
    function word only ("The user ...")."""
    atoms, end = _atoms(old)
    subject = [a.text for a in atoms[:end] if not a.copula]
    new_texts = {a.text for a in _atoms(new)[0]}
    return not subject or any(t in new_texts for t in subject)


def kept_whole(old: str, new: str) -> bool:
    """Every content word of `old` is in `new` (the new text repeats the old statement, maybe adding to it)."""
    al = align(old, new)
    return al.old_len > 0 and all(x.copula for r in al.regions for x in r.old)


def appended_detail(old: str, new: str) -> str | None:
    """The new text repeats all of the old one and appends a clause of its own ("..., one of them from a
    code owner"): more detail, kept and linked, never merged (the clause would be lost)."""
    al = align(old, new)
    if not kept_whole(old, new) or not al.regions:
        return None
    tail = al.regions[-1]
    words = "".join(a.text for a in tail.new if not (a.copula or a.verb or a.number) and a.text not in _LIGHT)
    for filler in _GENERIC:
        words = words.replace(filler, "")
    if tail.old or not tail.at_end or len(tail.new) < 2 or len(words) < 2:
        return None
    return f"adds a clause ({tail.show()})"


def numeric_change(old: str, new: str) -> str | None:
    """The same statement with only its amounts changed (TTL 300 -> 600 seconds, 1.27 -> 1.30): a change."""
    al = align(old, new)
    changed = [r for r in al.regions if r.new]
    if (al.frame < 0.5 or not changed or not all(r.numeric for r in changed) or other_fact(old, new)
            or not quantities_differ(old, new)):
        return None
    return f"value changed ({'; '.join(r.show() for r in changed)})"


def structural_change_ok(old: str, new: str) -> bool:
    """A change read from structure alone replaces one value: a single region with content on both
    sides (or only numbers, however many), outside the subject."""
    al = align(old, new)
    if relation_mismatch(old, new) or al.subject_replaced() is not None:
        return False
    changed = [r for r in al.regions if r.new]
    if all(r.numeric for r in changed):
        return True
    return len(changed) == 1 and not (changed[0].verb_swap and any(a.number for a in changed[0].old))
