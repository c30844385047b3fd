"""Slot alignment of a pair of memories: which stretches of one sentence were filled differently, and where.

A change keeps the entity (who/what) and the attribute and replaces the value; a different entity,
attribute, scope or time with the same frame is another fact. `align(old, new)` lines the two texts
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

Lexical only (reads `analysis.units`); no vectors.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from hindsight.write.amounts import _DATE_TOKEN, _dates, quantities_differ
from hindsight.write.analysis import units
from hindsight.write.lexicon import _ANTONYMS, _CUE_UNITS, _SYNONYMS, normalise_numbers

#: Switch cues are read elsewhere; 从/到 stay (从节点 is a word, not "from").
_DROP = _CUE_UNITS - {"从", "到"}
#: Time adverbs that say when the statement holds, not what it states ("As of today the TTL is ...").
_WHEN_WORDS = frozenset(["today", "now", "currently", "current", "present", "as", "of", "since", "tonight", "usually",
                         "normally", "typically", "generally", "lately", "recently",
                         "现在", "如今", "目前", "今天", "当前", "眼下", "起", "平时", "平常", "通常", "一般", "最近",
                         "近来", "往常", "向来", "一向"])

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
    found = {m.group(1) for m in _RELATIONS_EN.finditer(text.lower())} | set(_RELATIONS_ZH.findall(text))
    return frozenset(_FOLD_RELATIONS.get(w, w) for w in found)


def relation_mismatch(old: str, new: str) -> str | None:
    """A related person on one side only, or different ones: 'Priya' / "Priya's brother"."""
    a, b = relations(old), relations(new)
    if a == b:
        return None
    return f"another person ({', '.join(sorted(a ^ b))})"


# --------------------------------------------------------------------------- alignment
#: Share of the shorter text the other must repeat in order before slots are compared at all.
FRAME_MIN = 0.34


@dataclass(frozen=True)
class Atom:
    text: str
    unit: int  # index of the word it belongs to
    verb: bool
    number: bool
    copula: bool = False  # a copula or preposition: an anchor of the frame, not content


@dataclass(frozen=True)
class Region:
    """One stretch filled differently: old atoms [i1, i2) became new atoms [j1, j2)."""

    old: tuple[Atom, ...]
    new: tuple[Atom, ...]
    in_subject: bool
    at_end: bool = False  # the new stretch ends the new text

    @property
    def numeric(self) -> bool:
        atoms = [a for a in self.old + self.new if not a.copula]
        return bool(atoms) and all(a.number for a in atoms) and not self.prepositions

    @property
    def prepositions(self) -> bool:
        """Another preposition on each side (to / from): another relation, not the same slot."""
        left = {a.text for a in self.old if a.copula}
        right = {a.text for a in self.new if a.copula}
        return bool(left and right and left != right and not (left | right) <= _PURE_COPULA)

    @property
    def verb_swap(self) -> bool:
        """Another verb on each side (not a copula): another attribute ("run nightly" / "are retained")."""
        return any(a.verb and not a.copula for a in self.old) and any(a.verb and not a.copula for a in self.new)

    @property
    def cross_script(self) -> bool:
        """Han on one side, Latin on the other (无线网 / Wi-Fi): maybe a translation, no slot evidence."""
        def han(atoms: tuple[Atom, ...]) -> set[bool]:
            return {not a.text.isascii() for a in atoms if not a.copula and not a.number}
        return len(han(self.old)) == 1 and len(han(self.new)) == 1 and han(self.old) != han(self.new)

    @property
    def swaps_filler(self) -> bool:
        """One short filler for another (a verb for a verb is a rewording: uses / powers)."""
        return (_slot_filler(self.old, verbs=True) and _slot_filler(self.new, verbs=True) and not self.numeric
                and not self.cross_script and not (all(a.verb for a in self.old) and all(a.verb for a in self.new)))

    def show(self) -> str:
        def side(atoms: tuple[Atom, ...]) -> str:
            return "".join(a.text if len(a.text) == 1 and not a.text.isascii() else f" {a.text} " for a in atoms).strip()
        return f"{side(self.old) or '-'} / {side(self.new) or '-'}"


def _slot_filler(atoms: tuple[Atom, ...], verbs: bool = False) -> bool:
    """A stretch short enough to be one slot's filler: no copula or preposition (nor verb, unless `verbs`),
    at most 2 words or 8 Han characters."""
    if not atoms or any(a.copula or (a.verb and not verbs) for a in atoms):
        return False
    han = sum(1 for a in atoms if len(a.text) == 1 and not a.text.isascii())
    return han <= 8 and len(atoms) - han <= 2


@dataclass(frozen=True)
class Alignment:
    regions: tuple[Region, ...]
    shared: int  # content atoms both texts have in the same order
    old_len: int
    new_len: int
    old_texts: frozenset[str] = frozenset()
    new_texts: frozenset[str] = frozenset()

    @property
    def frame(self) -> float:
        """Share of the shorter side that the other repeats in order."""
        return self.shared / max(1, min(self.old_len, self.new_len))

    def subject_replaced(self) -> Region | None:
        """A short stretch of the subject on both sides filled with other words, found nowhere in the other
        text (web / worker tier, 主 / 从节点). A modifier added or dropped, a verb or copula in the stretch
        or words that only moved (a reordered sentence) are not another subject."""
        return next((r for r in self.regions if r.in_subject and _slot_filler(r.old) and _slot_filler(r.new)
                     and not r.cross_script and not any(a.number for a in r.old + r.new) and not ({a.text for a in r.new} & self.old_texts)
                     and not ({a.text for a in r.old} & self.new_texts)), None)


_HAN_STOP = frozenset("的了也都就还很着过地得吗呢吧啊呀嘛么之其又再")
_HAN_COPULA = frozenset("是在有为叫对给向跟与和及于被把")
_PURE_COPULA = frozenset(["be", "是", "有", "为", "叫", "在", "和", "及", "与"])
_EN_COPULA = frozenset(["is", "are", "was", "were", "be", "been", "has", "have", "had"])
#: Prepositions stay in the alignment as anchors: "avatars *in* S3" / "sessions *in* Redis" are two slots.
_EN_ANCHOR = frozenset(["in", "on", "at", "for", "from", "to", "with", "by", "into", "via", "under", "over"])
_TOKEN_RE = re.compile(r"(?P<cjk>[\u3400-\u9fff\uf900-\ufaff]+)|(?P<other>[^\s\u3400-\u9fff\uf900-\ufaff]+)")


_WEEK_RE = re.compile("星期|礼拜")
#: When a statement starts to hold is not what it states: "as of today", "starting this week", 从今天起.
_WHEN_PHRASE = re.compile(
    r"\b(?:as of|starting|effective|from) (?:today|now|tomorrow|this week|this month|next week|monday|now on)\b"
    r"|(?:从|自)(?:今天|今日|现在|明天|本周|下周|即日|下个月|本月)(?:开始|起)?|即日起",
    re.IGNORECASE,
)
_GENERIC = ("方式", "方面", "时候", "情况", "东西", "事情", "way", "manner", "thing")
_LIGHT = frozenset(["use", "使用", "do", "做", "进行", "have", "get", "make", "take", "一", "1", "名", "一名", "个"])


@lru_cache(maxsize=8192)
def _atoms(text: str) -> tuple[tuple[Atom, ...], int]:
    """Content atoms of `text` (English units after synonym folding, Han characters as written, copulas
    kept as anchors) and the index of the first atom after the subject."""
    from hindsight.write.analysis import _cut

    text = _WHEN_PHRASE.sub(" ", unicodedata.normalize("NFKC", text))
    text = _dates(normalise_numbers(_WEEK_RE.sub("周", text)))
    out: list[Atom] = []
    subject_end: int | None = None
    position = 0
    for match in _TOKEN_RE.finditer(text):
        if match.group("cjk"):
            for word, flag in _cut(match.group("cjk")):
                if word in _WHEN_WORDS or word in _DROP:
                    position += 1
                    continue
                verb = flag in ("v", "vd", "vi") and bool(out)  # a sentence's first word is its subject (认证服务)
                for ch in word:
                    if ch in _HAN_STOP:
                        continue
                    copula = ch in _HAN_COPULA and len(word) == 1
                    if (verb or copula) and subject_end is None:
                        subject_end = len(out)
                    out.append(Atom(ch, position, verb, False, copula))
                position += 1
            continue
        raw = match.group("other").lower().strip(".,;:!?\"'()")
        for u in units(match.group("other")):
            position += 1
            copula = u.text in _EN_COPULA
            anchor = u.text in _EN_ANCHOR
            verb = u.verb and bool(out) and not raw.endswith(("er", "ers", "or", "ors", "'s"))
            if (u.stop and not (copula or anchor)) or u.text in _DROP or u.text in _WHEN_WORDS:
                continue
            if (verb or copula) and subject_end is None:
                subject_end = len(out)
            number = u.number or bool(_DATE_TOKEN.fullmatch(u.text))
            out.append(Atom("be" if copula else u.text, position, verb, number, copula or anchor))
    if subject_end is None:
        subject_end = next((k for k, a in enumerate(out) if a.number), min(1, len(out)))
    return tuple(out), subject_end


def _abbreviates(short: str, word: str) -> bool:
    """'pg' for 'postgresql', 'postgres' for 'postgresql', 'k8s' for 'kubernetes'-like: same first letter,
    the letters in order (or a prefix of four letters and more)."""
    if len(short) >= 4 and len(word) > len(short) and word.startswith(short):
        return True
    if not (2 <= len(short) <= 4 < len(word)) or short[0] != word[0]:
        return False
    rest = iter(word)
    return all(ch in rest for ch in short)


def _same_name(a: tuple[Atom, ...], b: tuple[Atom, ...]) -> bool:
    """One Latin name abbreviating or spelling out the other (PG / PostgreSQL, AWS / Amazon Web Services)."""
    if not a or not b or not all(x.text.isascii() for x in a + b):
        return False
    left, right = "".join(x.text for x in a), "".join(x.text for x in b)
    if _abbreviates(left, right) or _abbreviates(right, left):
        return True
    return "".join(x.text[0] for x in b) == left or "".join(x.text[0] for x in a) == right


_NOT = frozenset(["not", "no", "never", "不", "没", "未", "别"])


def _negated_antonym(left: set[str], right: set[str]) -> bool:
    """不允许 / 禁止, not enabled / disabled: a negation plus one side of an antonym pair is the other side."""
    if not (left & _NOT) or right & _NOT:
        return False
    rest = left - _NOT
    return any((rest <= a and right <= b or rest <= b and right <= a) and rest and right for a, b in _ANTONYMS)


def _equivalent(a: tuple[Atom, ...], b: tuple[Atom, ...]) -> bool:
    """Two stretches that say the same after normalisation (喜欢 / 爱, a modifier of function words only)."""
    def norm(atoms: tuple[Atom, ...]) -> set[str]:
        text = "".join(x.text if not x.text.isascii() else f" {x.text} " for x in atoms if not x.copula)
        whole = text.strip()
        if whole in _SYNONYMS:  # a Han word cut differently alone than in its sentence (生产环境 / 线上)
            return {_SYNONYMS[whole]}
        return {u.text for u in units(text) if not u.stop and u.text not in _DROP}
    if _same_name(a, b):
        return True
    left, right = norm(a), norm(b)
    if _negated_antonym(left, right) or _negated_antonym(right, left):
        return True
    return left == right or (left ^ right) <= _LIGHT  # 习惯用 / 偏好, 做 / 一名


def _whole_words(atoms: tuple[Atom, ...], part: tuple[Atom, ...]) -> tuple[Atom, ...]:
    """The whole words a stretch of characters touches (早/午 of 早上/上午 -> 早上 / 上午), for the synonym test."""
    words = {x.unit for x in part if not x.copula}
    return tuple(x for x in atoms if x.unit in words)


@lru_cache(maxsize=4096)
def align(old: str, new: str) -> Alignment:
    a, a_subj = _atoms(old)
    b, b_subj = _atoms(new)
    a_texts, b_texts = frozenset(x.text for x in a), frozenset(x.text for x in b)
    matcher = difflib.SequenceMatcher(None, [x.text for x in a], [x.text for x in b], autojunk=False)
    regions = []
    shared = 0
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            shared += i2 - i1
            continue
        # words found elsewhere in the other text only moved (a reordered sentence): not a different slot
        gone = tuple(x for x in a[i1:i2] if x.text not in b_texts or x.copula)
        came = tuple(x for x in b[j1:j2] if x.text not in a_texts or x.copula)
        prepositions = gone and came and {x.text for x in gone} != {x.text for x in came} \
            and not all(x.text in _PURE_COPULA for x in gone + came)
        content = any(not x.copula for x in gone + came)
        if not (content or prepositions) or (content and (_equivalent(gone, came) or _equivalent(
                _whole_words(a, a[i1:i2]), _whole_words(b, b[j1:j2])))):
            continue  # (to / from, 从 / 到 are two directions: kept)
        in_subject = i1 < a_subj and j1 < b_subj
        regions.append(Region(gone, came, in_subject, j2 == len(b)))
    return Alignment(tuple(regions), shared, len(a), len(b), a_texts, b_texts)


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
