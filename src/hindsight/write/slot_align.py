"""The alignment under `slots.py`: two memories' texts lined up on their normalised content.

`align(old, new)` reads each text as atoms (`_atoms`: English words after synonym folding, Han text by character,
copulas and prepositions kept as anchors of the frame, time adverbs and switch cues dropped, the index where the
subject ends) and reports each *region* where they differ: the old and new stretch, whether it lies in the subject,
whether it holds only numbers, whether it swaps one verb for another. Stretches that say the same after
normalisation (a synonym, an abbreviation, a negated antonym, words that only moved) are no region.

Lexical only (reads `analysis.units`); no vectors.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from hindsight.write.amounts import _DATE_TOKEN, _dates
from hindsight.write.analysis import units
from hindsight.write.lexicon import _ANTONYMS, _CUE_UNITS, _SYNONYMS, normalise_numbers

#: Switch cues are read elsewhere; 从/到 stay (从节点 is a word, not "from").
_DROP = _CUE_UNITS - {"从", "到"}
#: Time adverbs that say when the statement holds, not what it states ("As of today the TTL is ...").
_WHEN_WORDS = frozenset(["today", "now", "currently", "current", "present", "as", "of", "since", "tonight", "usually",
                         "normally", "typically", "generally", "lately", "recently",
                         "现在", "如今", "目前", "今天", "当前", "眼下", "起", "平时", "平常", "通常", "一般", "最近",
                         "近来", "往常", "向来", "一向"])


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
