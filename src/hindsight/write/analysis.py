"""Lexical analysis of a pair of memories: normalised units, what each side lost or added, cues.

Both texts are normalised into *units*: NFKC, lower case, English and Chinese number words to digits
(三个 -> 3, Tuesday -> 周2), light English stemming, a synonym table, jieba POS segmentation for
Chinese (names, verbs), function words flagged (tables in `lexicon`). `analyse(old, new)` aligns them.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from hindsight.text.script import script_of
from hindsight.text.tokenize import jieba_module as _jieba
from hindsight.write import pair_memo
from hindsight.write.amounts import quantities
from hindsight.write.lexicon import (
    _ANTONYMS,
    _CANONICAL,
    _CONTRAST_OLD,
    _CUE_UNITS,
    _EN_VERBS,
    _EXPANSIONS,
    _NEGATIONS,
    _NUMBER_RE,
    _STOP,
    _STRONG_EN,
    _STRONG_ZH,
    _SYNONYMS,
    _VERB_CANON,
    _WEAK_EN,
    _WEAK_ZH,
    _WORD_RE,
    _ZH_NEGATION_CHARS,
    _ZH_NOT_NEGATION,
    _stem,
    normalise_numbers,
)
from hindsight.write.numbers import reconcile


# --------------------------------------------------------------------------- scripts
def pair_script(old: str, new: str) -> Literal["zh", "en"]:
    """Both texts Chinese -> 'zh'; any English side -> 'en' (the more permissive scale)."""
    return "zh" if script_of(old) == "zh" and script_of(new) == "zh" else "en"


# jieba is initialised once, lazily and quietly, by the tokenizer module.


_ZH_NAME_FLAGS = frozenset({"nr", "nrfg", "nrt", "ns", "nt", "nz"})


@lru_cache(maxsize=8192)
def _cut(run: str) -> tuple[tuple[str, str], ...]:
    """(word, POS flag) for one Han run: jieba's POS segmentation (no overlapping sub-words)."""
    _jieba()
    import jieba.posseg

    return tuple((p.word, p.flag) for p in jieba.posseg.lcut(run, HMM=True) if p.word.strip())


@dataclass(frozen=True)
class Unit:
    """One normalised word. `entity`: a value (number, name, identifier); `stop`: a function word.

    Function words are kept as alignment anchors (张伟 *是* 支付团队 vs 刘洋 *是* 搜索团队
    are two substitutions, not one) but never count as content.
    """

    text: str
    number: bool = False
    entity: bool = False
    cjk: bool = False
    stop: bool = False
    verb: bool = False

    def atoms(self) -> tuple[str, ...]:
        return tuple(self.text) if self.cjk and not self.number else (self.text,)


def _is_entity(raw: str, position: int, mixed: bool) -> bool:
    if any(ch.isdigit() for ch in raw) or re.search(r"[._+#]", raw[1:-1] if len(raw) > 2 else ""):
        return True
    if mixed:  # a Latin word inside Chinese text is a name, tool or identifier
        return True
    return position > 0 and raw[:1].isupper()


_NT_STEMS = frozenset(["do", "does", "did", "is", "are", "was", "were", "wo", "ca", "could", "should", "would", "has", "have", "had", "need", "must"])
_JOINER_SPLIT = re.compile(r"(?<=[^\W_])[+\-](?=[^\W_])")


def _word_units(raw: str, position: int, mixed: bool, out: list[Unit]) -> None:
    # new Unit objects each time: readings tell two occurrences of one word in a text apart by identity
    out.extend(Unit(*fields) for fields in _word_unit_fields(raw, position > 0, mixed))


@lru_cache(maxsize=16384)
def _word_unit_fields(raw: str, later: bool, mixed: bool) -> tuple[tuple[str, bool, bool, bool, bool, bool], ...]:
    """The units of one word of a text as field tuples (`later`: not its first word; `mixed`: a Chinese text). They
    depend on nothing else and the tables are constants, so they are kept by word (write cost round 40: `units` of
    the stretches slot alignment normalises met the same words thousands of times)."""
    out: list[Unit] = []
    position = 1 if later else 0
    if raw.lower().endswith("'s"):
        raw = raw[:-2]
    raw = raw.replace("'", "")
    # hyphenated words split into their parts (left-handed ~ left hand, UTC-5 -> utc 5);
    # identifiers with _ or . (max_connections, example.com, 3.11) stay whole: they are the value.
    parts = [p for p in _JOINER_SPLIT.split(raw) if p] if "_" not in raw else [raw]
    entity = _is_entity(raw, position, mixed)
    for part in parts:
        if _NUMBER_RE.match(part):
            out.append(Unit(part, number=True, entity=True))
            continue
        lower = part.lower()
        for piece in _EXPANSIONS.get(lower, (lower,)):
            if piece.endswith("nt") and piece[:-2] in _NT_STEMS:
                out.append(Unit("not"))
                continue
            stemmed = _stem(piece)  # stemmed whatever the case: "Mia is..." and "...named Mia" must agree
            canon = _SYNONYMS.get(piece) or _SYNONYMS.get(stemmed) or stemmed
            stop = piece in _STOP or canon in _STOP
            out.append(Unit(canon, entity=entity and not stop and canon not in _CANONICAL, stop=stop,
                            verb=canon in _EN_VERBS or canon in _VERB_CANON))
    return tuple((u.text, u.number, u.entity, u.cjk, u.stop, u.verb) for u in out)


@lru_cache(maxsize=16384)
def units(text: str) -> tuple[Unit, ...]:
    """Normalised units of `text`, in order (function words flagged `stop`, punctuation dropped)."""
    text = unicodedata.normalize("NFKC", text)
    mixed = script_of(text) == "zh"
    text = normalise_numbers(text)
    out: list[Unit] = []
    for position, match in enumerate(_WORD_RE.finditer(text)):
        if match.group("cjk"):
            for word, flag in _cut(match.group("cjk")):
                name = flag in _ZH_NAME_FLAGS
                for piece in _EXPANSIONS.get(word, (word,)):
                    canon = _SYNONYMS.get(piece, piece)
                    stop = piece in _STOP or canon in _STOP
                    verb = flag in ("v", "vd", "vi") or canon in _VERB_CANON
                    out.append(Unit(canon, entity=name and not stop, cjk=not canon.isascii(), stop=stop, verb=verb))
        elif match.group("num"):
            out.append(Unit(match.group("num").replace(",", ""), number=True, entity=True))
        else:
            _word_units(match.group("word"), position, mixed, out)
    return tuple(out)


def _cue(pattern: re.Pattern[str], old: str, new: str) -> str | None:
    """A cue in the new text when the old one has none of that kind (two switch stories are no switch)."""
    found = pattern.search(new)
    if found is None or pattern.search(old):
        return None
    return found.group(0)


def _negations(u: Unit) -> int:
    if not u.cjk:
        return 1 if u.text in _NEGATIONS else 0
    if any(w in u.text for w in _ZH_NOT_NEGATION):
        return 0
    return sum(1 for ch in u.text if ch in _ZH_NEGATION_CHARS)


def _polarity(us: tuple[Unit, ...]) -> int:
    return sum(_negations(u) for u in us) % 2


def _antonym_flip(old: set[str], new: set[str]) -> str | None:
    for left, right in _ANTONYMS:
        if (old & left and new & right and not new & left) or (old & right and new & left and not new & right):
            return f"{'/'.join(sorted(old & (left | right)))} -> {'/'.join(sorted(new & (left | right)))}"
    return None


# --------------------------------------------------------------------------- analysis
@dataclass
class PairAnalysis:
    """Everything the heuristic looks at for one (old, new) pair."""

    old_units: tuple[Unit, ...]
    new_units: tuple[Unit, ...]
    containment: float  # share of the old text's content (units, Han words by character) kept in the new one
    coverage: float  # share of the new text's content already in the old one
    jaccard: float  # content atom-set Jaccard
    old_numbers: set[str]
    new_numbers: set[str]
    novel_entities: list[str]  # numbers/names in the new text the old one lacks
    novel_units: list[str]  # content units of the new text that share nothing with the old one
    strong_cue: str | None
    weak_cue: str | None
    polarity_flip: bool
    antonym: str | None
    old_has_contrast: bool

    @property
    def number_change(self) -> bool:
        return bool(self.old_numbers - self.new_numbers) and bool(self.new_numbers - self.old_numbers)



def _atoms(us: tuple[Unit, ...]) -> list[tuple[str, bool]]:
    """(atom, is_function_word) in order, switch cues dropped (they are read separately)."""
    out: list[tuple[str, bool]] = []
    for u in us:
        if u.text in _CUE_UNITS:
            continue
        out.extend((atom, u.stop) for atom in u.atoms())
    return out


def _kept_share(old_units: tuple[Unit, ...], new_atoms: set[str]) -> float:
    """Share of the old content units present in the new text (a Han word by its characters)."""
    content = [u for u in old_units if not u.stop and u.text not in _CUE_UNITS]
    if not content:
        return 0.0
    score = 0.0
    for u in content:
        atoms = u.atoms()
        score += sum(1 for x in atoms if x in new_atoms) / len(atoms)
    return score / len(content)


@lru_cache(maxsize=4096)
def analyse(old: str, new: str) -> PairAnalysis:
    """Align the two texts and collect the conflict and novelty signals."""
    ou, nu = units(old), units(new)
    oa, na = _atoms(ou), _atoms(nu)
    oset = {x for x, stop in oa if not stop}
    nset = {x for x, stop in na if not stop}
    jaccard = len(oset & nset) / len(oset | nset) if oset | nset else 1.0
    old_numbers = {u.text for u in ou if u.number}
    new_numbers = {u.text for u in nu if u.number}
    if old_numbers != new_numbers and quantities(old) and quantities(old) == quantities(new):
        new_numbers = set(old_numbers)  # the same amounts in other units: 300 seconds / five minutes
    new_numbers = reconcile(old_numbers, new_numbers)  # 15:20 / 3:20, 2016 / '16: one value
    old_texts = {u.text for u in ou}
    old_atoms_all = {x for u in ou for x in u.atoms()}
    novel_entities = [u.text for u in nu if u.entity and u.text not in old_texts and u.text != "1"]
    novel_units = [
        u.text for u in nu
        if not u.stop and u.text not in _CUE_UNITS and u.text not in old_texts and u.text != "1"
        and not (set(u.atoms()) & old_atoms_all if u.cjk else False)
    ]
    lower_old, lower_new = old.lower(), new.lower()
    strong = _cue(_STRONG_EN, lower_old, lower_new) or _cue(_STRONG_ZH, old, new)
    weak = _cue(_WEAK_EN, lower_old, lower_new) or _cue(_WEAK_ZH, old, new)
    return PairAnalysis(
        old_units=ou,
        new_units=nu,
        containment=_kept_share(ou, nset),
        coverage=_kept_share(nu, oset),
        jaccard=jaccard,
        old_numbers=old_numbers,
        new_numbers=new_numbers,
        novel_entities=novel_entities,
        novel_units=novel_units,
        strong_cue=strong,
        weak_cue=weak,
        polarity_flip=_polarity(ou) != _polarity(nu),
        antonym=_antonym_flip(old_texts, {u.text for u in nu}),
        old_has_contrast=bool(_CONTRAST_OLD.search(lower_old)),
    )


def lexical_similarity(old: str, new: str) -> float:
    """Content atom-set Jaccard after normalisation (0..1): the lexical half of the dedup test."""
    return analyse(old, new).jaccard


def _share(unit: Unit, atoms: AbstractSet[str]) -> float:
    parts = unit.atoms()
    return sum(1 for x in parts if x in atoms) / len(parts)


def _same_frame(old: list[Unit], lost: list[Unit], new: list[Unit], novel: list[Unit]) -> bool:
    """True when both texts are one sentence frame with a single slot filled differently.

    old = prefix + lost stretch + suffix and new = prefix + novel stretch + suffix, with at
    least two frame words: 部署脚本 / 计费报表 *由老王负责维护*.
    """

    def split(units: list[Unit], gone: list[Unit]) -> tuple[list[str], list[str]] | None:
        gone_set = set(gone)  # Units are frozen: set membership is list membership, without a scan per unit
        marks = [u in gone_set for u in units]
        if True not in marks:
            return None
        first = marks.index(True)
        last = len(marks) - 1 - marks[::-1].index(True)
        if not all(marks[first : last + 1]):
            return None
        return [u.text for u in units[:first]], [u.text for u in units[last + 1 :]]

    a, b = split(old, lost), split(new, novel)
    return a is not None and a == b and len(a[0]) + len(a[1]) >= 2


def _content(us: tuple[Unit, ...]) -> list[Unit]:
    return [u for u in us if not u.stop and u.text not in _CUE_UNITS]


def _names(us: list[Unit]) -> str:
    return ", ".join(dict.fromkeys(u.text for u in us))


def content_diff(a: PairAnalysis) -> tuple[list[Unit], list[Unit], list[Unit], list[Unit]]:
    """(old content, new content, lost, novel) units of an analysed pair.

    `lost` are old content units absent from the new text, `novel` new ones absent
    from the old text; a word is gone when at most half of it survives (英文 -> 中文
    keeps only 文). A word is a name in both texts if it is one in either ("Mia is ..."
    starts a sentence, "... named Mia").
    """
    old_content, new_content, lost, novel = _kept_diff(a.old_units, a.new_units)
    return list(old_content), list(new_content), list(lost), list(novel)  # the caller's own lists


def text_diff(old: str, new: str) -> tuple[list[Unit], list[Unit], list[Unit], list[Unit]]:
    """`content_diff(analyse(old, new))` without the rest of the pair's analysis: the diff reads only the two texts'
    units (`PairAnalysis.old_units` / `new_units` are `units(old)` / `units(new)`), so the same lists, for a pair
    whose cues, shares and numbers nobody reads (`one_sided`'s clauses against the other text)."""
    old_content, new_content, lost, novel = _kept_diff(units(old), units(new))
    return list(old_content), list(new_content), list(lost), list(novel)


def lost_count(text: str, other: str) -> tuple[int, int]:
    """(content units of `text`, those `other` lacks): the lengths of `text_diff(text, other)`'s content and lost
    lists, without building the rest (the named-on-both-sides marking does not change a unit's atoms, so not
    which units are lost)."""
    content = _content(units(text))
    atoms: frozenset[str] = pair_memo.kept(("atoms", other),
                                           lambda: frozenset(x for u in units(other) for x in u.atoms()))
    return len(content), len([u for u in content if _share(u, atoms) <= 0.5])


def _kept_diff(old_units: tuple[Unit, ...], new_units: tuple[Unit, ...]) -> tuple[
        tuple[Unit, ...], tuple[Unit, ...], tuple[Unit, ...], tuple[Unit, ...]]:
    """`_content_diff`, found by the identity of the two unit tuples inside a `pair_memo.scope` (a write reads one
    pair's diff four to five times; the cache below hashes every unit of both tuples on each look-up)."""
    if not pair_memo.active():
        return _content_diff(old_units, new_units)
    return pair_memo.kept(("content_diff", id(old_units), id(new_units)),
                          lambda: _content_diff(old_units, new_units), (old_units, new_units))


@lru_cache(maxsize=4096)
def _content_diff(old_units: tuple[Unit, ...], new_units: tuple[Unit, ...]) -> tuple[
        tuple[Unit, ...], tuple[Unit, ...], tuple[Unit, ...], tuple[Unit, ...]]:
    """`content_diff` of the two sides' units, kept: the judge reads one pair's diff four to five times (the
    heuristic, the slots of the evidence, the pair model's row, the restatement model's row)."""
    old_content, new_content = _content(old_units), _content(new_units)
    named = {u.text for u in old_content + new_content if u.entity}
    old_content = [replace(u, entity=True) if u.text in named else u for u in old_content]
    new_content = [replace(u, entity=True) if u.text in named else u for u in new_content]
    old_atoms = {x for u in old_units for x in u.atoms()}
    new_atoms = {x for u in new_units for x in u.atoms()}
    lost = [u for u in old_content if _share(u, new_atoms) <= 0.5]
    novel = [u for u in new_content if _share(u, old_atoms) <= 0.5]
    return tuple(old_content), tuple(new_content), tuple(lost), tuple(novel)

