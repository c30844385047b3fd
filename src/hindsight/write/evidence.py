"""Slot evidence for the write-time judge: may two memories be merged, and does the new one change the old?

The judge is conservative by construction (issue 10): a wrong merge loses a fact, a wrong
deprecation hides one, a missed merge only stores one extra row. So:

* a **merge needs positive evidence**: every number and every name of each side is found in the
  other, nothing is negated or switched, no content slot of the shared sentence frame is filled
  differently (儿子 / 女儿, "support inbox" / "sales inbox"), and the new text does not carry a
  clause of its own on top of the old one ("... with the pgvector extension installed");
  `merge_blocker` names what is missing, and a blocked pair is kept and linked instead;
* a **change needs evidence too**, from cues *or* from structure: a switch/removal cue ("no longer",
  "moved to", "was removed", "X, not Y", 不再, 改用, 已迁移到, 下线) about the same subject; or the
  same subject and attribute with another value: a changed number, a flipped polarity or antonym,
  a *name* in the value slot replaced by another (Zendesk -> Linear, 海淀区 -> 朝阳区), or a common
  noun replaced where the attribute holds one value at a time (address, manager, version, port, ...).
  A common noun swapped in a many-valued attribute ("likes Thai food" / "likes Thai massage") is two
  facts: kept apart and linked. `change_evidence` names the evidence, or returns None.

The cues themselves, and what an ending is said of, are read in `end_cues.py`. Both read only the lexical analysis
(`analysis.analyse`), never vectors: the callers pass similarities in.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hindsight.write import pair_memo
from hindsight.write.amounts import quantities, quantities_differ
from hindsight.write.analysis import (
    PairAnalysis,
    Unit,
    _same_frame,
    analyse,
    content_diff,
    units,
)
from hindsight.write.end_cues import (
    _END_EN,
    _END_ZH,
    _SWITCH_EN,
    _SWITCH_ZH,
    _as_a_rule,
    end_cue,
    ended_thing,
    moved_value,
    thing_ended,
)
from hindsight.write.endings import ends_anew
from hindsight.write.lexicon import _CJK_RE, _STRONG_EN, _STRONG_ZH
from hindsight.write.name_alias import unify
from hindsight.write.name_cover import _read_as_name, _uncovered_names
from hindsight.write.number_labels import labelled_apart
from hindsight.write.one_slot import _all_verbs, _same_units
from hindsight.write.one_slot import single_substitution as single_substitution  # re-exported (moved, round 37)
from hindsight.write.said_of import other_period, said_of_another
from hindsight.write.slots import (
    appended_detail,
    kept_whole,
    numeric_change,
    other_entity,
    other_fact,
    slot_conflict,
    structural_change_ok,
    subject_shared,
)
from hindsight.write.state_change import reversed_state, state_change, unnamed_subject_swap
from hindsight.write.value_read import amounts_read_alike, numbers_read_alike

#: Attributes that hold one value at a time: a new value there replaces the old one.
_SINGLE_VALUED = re.compile(
    r"\b(address|live[sd]?|living|home|based|located|version|runtime|port|timeout|limit|size|ttl|default|branch|editor|phone|email|seat|"
    r"provider|hosted|tracked|deployed?|primary|time|at \d)\b"
    r"|(地址|住在|家在|版本|端口|超时|上限|下限|默认|分支|编辑器|手机|邮箱|座位|托管|跟踪|部署在|时间|几点)"
)
#: The new text leaves a value it names ("from X", "instead of X", "rather ... than X", 从…, 而不是): the old
#: statement repeated there is what changed, not what still holds.
_DEPARTURE = re.compile(r"\b(from|instead of|rather|than|not|no longer|any ?more)\b|n't|从|而不是|不再|别再|不是|不用")
#: Words that say whose memory it is, not what it is about: sharing only these anchors no change.
WHO_WORDS = frozenset({"user", "users", "the user", "用户", "team", "团队", "we", "我们", "公司", "company",
                       "he", "she", "他", "她", "i", "我"})
#: Words of an ending's clause that name no thing of their own (times, places of the speaker): no anchor.
ENDED_STOP = frozenset({"today", "yesterday", "week", "month", "year", "now", "home", "live", "family", "fami",
                        "今天", "昨天", "上周", "今年", "现在", "家里", "已经", "那边", "这边", "东西", "事情",
                        "下个月", "上个月", "这个月", "月底", "下周", "本周"})
#: An old memory with at most this many content words states one slot: a cue about its subject is about it.
SHORT_FACT = 7
#: Share of each side's content the other must keep before a swapped slot counts as "the same frame".
FRAME_KEPT = 0.5
#: A new text that keeps this much of the old one and brings at least `DETAIL_UNITS` words of its own
#: is the old fact plus more detail, not a restatement.
DETAIL_KEPT = 0.85
#: Nouns of each side missing from the other, in a reworded sentence (not one frame with one slot swapped),
#: are a paraphrase only when the restatement model is this sure.
SWAP_MERGE_P = 0.6
#: Hygiene round 45 (issue 10, measured, OFF: docs/benchmarks.md "Hygiene, round 45"): two short statements that share
#: little beyond their subject (小区不允许养大型犬 / 小区规定遛狗必须牵绳, 周会时长一小时 / 周会我喜欢在周一上午开) kept their
#: nouns-missing blocker only under `SWAP_MERGE_P`; with this set, a pair whose larger kept share (containment or
#: coverage) is under it keeps the blocker whatever the restatement model says. None: lifted as before
SUBJECT_ONLY_SHARE: float | None = None
DETAIL_UNITS = 2
#: What of the old text an ending's clause must name to anchor a change (`ended_here`; round 16 of issue 10):
#: "noun" any content word, "name" a name or a word of the old subject, "off" none.
ENDING_ANCHOR = "noun"
#: Round 28: `ended_here` also reads the end cues said of a thing ("the pollinator garden is cancelled", 周例会取消了;
#: `end_cues.thing_ended`), not only the ending family ("passed away", 卖掉了).
THING_ENDS = True


@dataclass(frozen=True)
class Slots:
    """The content of a pair, side by side."""

    old_content: list[Unit]
    new_content: list[Unit]
    lost: list[Unit]  # old content units the new text lacks
    novel: list[Unit]  # new content units the old text lacks

    @classmethod
    def of(cls, a: PairAnalysis) -> Slots:
        return cls(*content_diff(a))

    @property
    def subject(self) -> list[Unit]:
        """The old text's content before its first verb (at least its first content unit)."""
        words = [u for u in self.old_content if not u.number]
        first_verb = next((i for i, u in enumerate(words) if u.verb), None)
        return words[: 1 if first_verb is None else first_verb]  # "The user drives ...": the subject is a function word

    def subject_kept(self) -> bool:
        """Nothing of the subject is lost: "小刘/小陈 喜欢上午开会" are two people, not a change."""
        return bool(self.old_content) and not any(u in self.lost for u in self.subject)

    def nouns(self, units: list[Unit]) -> list[Unit]:
        """Units that can fill a slot: not numbers, not negations, not verbs (a sentence's first word is
        its subject, whatever the verb list says: "Support tickets", "Run logs")."""
        first = {id(self.old_content[0]) if self.old_content else 0, id(self.new_content[0]) if self.new_content else 0}
        return [u for u in units if (not u.verb or id(u) in first) and not u.number and u.text not in ("not", "不", "没")]


def _text(units: list[Unit]) -> str:
    return ", ".join(dict.fromkeys(u.text for u in units))


def _numbers_differ(a: PairAnalysis) -> set[str]:
    return (a.old_numbers ^ a.new_numbers) - {"1"}


def ended_here(old: str, new: str) -> str | None:
    """An ending of the new text (`endings`, as `end_cue` reads it) said of a thing the old text names: what ended
    (`ended_thing`) holds a content word of the old text that is neither a number nor a verb nor a whose-memory
    word ("Juno passed away" of "Our cat Juno is on methimazole", 那台群晖上周处理掉了 of 公司那台群晖 DS920+ 放在前台
    下面, 雅阁卖了 of 车是 2018 年的本田雅阁). The old memory's subject read as its first words (每晚, 公司, "Our cat")
    misses these; the thing that ended is the anchor, never only the person who ended it ("Maya cancelled the
    Singapore trip" is not about Maya's allergy)."""
    if ENDING_ANCHOR == "off" or _END_EN.search(old.lower()) or _END_ZH.search(old):
        return None
    thing = thing_ended(old, new) if THING_ENDS else None
    if thing and labelled_apart(old, new):
        thing = None  # "Phase 2 is cancelled" says nothing of Phase 1
    cues = [c for c in dict.fromkeys((ends_anew(old, new), thing)) if c is not None and not _as_a_rule(new, c)]
    if not cues:
        return None
    old_units = [u for u in units(old) if not u.stop]
    if ENDING_ANCHOR == "name":
        subject = Slots.of(analyse(old, new)).subject
        old_units = [u for u in old_units if u.entity or u in subject]
    old_words = {u.text for u in old_units}
    for cue in cues:
        for u in units(ended_thing(new, cue)):
            if u.stop or u.number or u.verb or u.text in WHO_WORDS or u.text in ENDED_STOP:
                continue
            if u.cjk and len(u.text) < 2:
                continue  # one Han character (月, 假) names nothing by itself
            if u.text in old_words or (u.cjk and any(u.text in w for w in old_words)):
                return cue
    return None


def merge_blocker(a: PairAnalysis, s: Slots | None = None, old: str = "", new: str = "",
                  restatement_p: float | None = None, aliases: bool = True) -> str | None:
    """Why the two texts may NOT be merged, or None when each side's slots are covered by the other. A pair
    blocked as written is read again with one person or thing named two ways written one way (`name_alias.unify`:
    Jen / Jennifer, 黄工 / 黄建国); the reading only ever lifts a blocker (`aliases` False: as written only).
    Without `s` (`Slots.of(a)`), kept for a `pair_memo.scope` (`restatement_p` is read only against `SWAP_MERGE_P`)."""
    if s is None and pair_memo.active():
        key = ("merge_blocker", old, new, id(a), restatement_p is not None and restatement_p >= SWAP_MERGE_P,
               SWAP_MERGE_P, aliases)
        return pair_memo.kept(key, lambda: _blocker_read(a, None, old, new, restatement_p, aliases), a)
    return _blocker_read(a, s, old, new, restatement_p, aliases)


def _blocker_read(a: PairAnalysis, s: Slots | None, old: str, new: str, restatement_p: float | None,
                  aliases: bool) -> str | None:
    blocker = _merge_blocker(a, s, old, new, restatement_p)
    if not (blocker and aliases and old and new):
        return blocker
    unified = unify(old, new)
    return blocker if unified == new else _merge_blocker(analyse(old, unified), None, old, unified, restatement_p)


def _merge_blocker(a: PairAnalysis, s: Slots | None, old: str, new: str, restatement_p: float | None) -> str | None:
    s = s or Slots.of(a)
    if old and new:
        if quantities_differ(old, new) and not amounts_read_alike(old, new):
            return f"amounts differ ({', '.join(sorted(quantities(old) ^ quantities(new)))})"
        other = other_fact(old, new, attribute=False) or slot_conflict(old, new) or appended_detail(old, new)
        if other:
            return other
    differ = _numbers_differ(a)
    if differ and not (old and new and (quantities(old) == quantities(new) or numbers_read_alike(old, new))):
        return f"numbers differ ({', '.join(sorted(differ))})"
    names = (_uncovered_names([u for u in s.lost if _read_as_name(u)], new, old)
             + _uncovered_names([u for u in s.novel if _read_as_name(u)], old, new))
    if names:
        return f"a name on one side only ({_text(names)})"
    shared = min(a.containment, a.coverage) >= FRAME_KEPT or max(a.containment, a.coverage) >= 0.75
    if a.strong_cue and shared:
        return f"a switch cue ('{a.strong_cue}')"
    if (a.polarity_flip and shared and not a.antonym) or (a.antonym and not a.polarity_flip):
        return "one side negates the other"  # 不允许 / 禁止: a negated antonym says the same
    swap = single_substitution(old, new) if old and new else None
    same_name = swap is not None and not _uncovered_names([Unit(swap[0])], swap[1], swap[0])
    if (swap and not same_name and not (_all_verbs(swap[0]) and _all_verbs(swap[1]))
            and not _same_units(swap[0], swap[1])):
        return f"one slot of the same sentence filled differently ({swap[0]} / {swap[1]})"
    lost_nouns = [u for u in s.nouns(s.lost) if not u.entity or _uncovered_names([u], new, old)]
    novel_nouns = [u for u in s.nouns(s.novel) if not u.entity or _uncovered_names([u], old, new)]
    if lost_nouns and novel_nouns:
        if _same_frame(s.old_content, s.lost, s.new_content, s.novel):
            return f"one slot of the same sentence filled differently ({_text(s.lost)} / {_text(s.novel)})"
        if restatement_p is None or restatement_p < SWAP_MERGE_P or (
                SUBJECT_ONLY_SHARE is not None and max(a.containment, a.coverage) < SUBJECT_ONLY_SHARE):
            return f"words of each side missing from the other ({_text(s.lost)} / {_text(s.novel)})"
    if a.containment >= DETAIL_KEPT and len(s.nouns(s.novel)) >= DETAIL_UNITS:
        return f"adds detail ({_text(s.novel)})"
    return None


def _about_the_same(a: PairAnalysis, s: Slots) -> bool:
    """May a cue in the new text be about the old memory? Yes for a short old memory (one slot: "The user is
    vegetarian." / "started eating fish again"), else only when the texts share content beyond whose memory
    it is: a third of either side's content, or a subject that is not only a who-word ("the user", 用户, 团队)
    and that the new text keeps. "用户上午 9 点到 12 点是专注写代码的时间，这个时段不安排会议" and "帮用户优化了
    一条订单统计 SQL：子查询改成 JOIN" share the user and nothing else (issue 10: in the blind retrieval sets such
    pairs deprecated 8% of the memories, every one with 8 or more content words; the pair sets' real changes
    without shared content have at most 7)."""
    if len([u for u in s.old_content if not u.number]) <= SHORT_FACT:
        return True
    if max(a.containment, a.coverage) >= 0.34:
        return True
    subject = [u for u in s.subject if u.text not in WHO_WORDS]
    return bool(subject) and s.subject_kept()


def weak_anchor(a: PairAnalysis, s: Slots | None = None) -> bool:
    """Whether the pair's only sign of one subject is an old subject that reads as empty (the old text opens with a
    verb or whose-memory words: "Release checklist note 1 ...", 写周报时...), which any text "keeps", with under a
    third of either side's content shared: evidence of a change from a cue alone, not of one thing changing."""
    s = s or Slots.of(a)
    return not s.subject and max(a.containment, a.coverage) < 0.34


def change_evidence(old: str, new: str, a: PairAnalysis, s: Slots | None = None) -> str | None:
    """What says the new text replaces the old one (same subject and attribute, another value), or None; without
    `s` (`Slots.of(a)`), kept for a `pair_memo.scope`."""
    if s is None and pair_memo.active():
        return pair_memo.kept(("change_evidence", old, new, id(a)), lambda: _evidence_read(old, new, a, None), a)
    return _evidence_read(old, new, a, s)


def _evidence_read(old: str, new: str, a: PairAnalysis, s: Slots | None) -> str | None:
    s = s or Slots.of(a)
    ended_of_it = ended_here(old, new)  # the ending names a thing of the old text
    anchored = (s.subject_kept() or max(a.containment, a.coverage) >= 0.34 or subject_shared(old, new)
                or bool(ended_of_it))
    same_statement = max(a.containment, a.coverage) >= 0.5
    told = state_change(old, new)  # a change told in a form no cue list has (round 25b, `state_change`)
    if not anchored or (other_entity(old, new) and not (told and unnamed_subject_swap(old, new))):
        return None  # (the "other subject" of a told change may be a time word or an adverb: 没 / 上周)
    # across scripts the words cannot overlap; there the judge asks for a shared anchor term instead
    about_the_same = _about_the_same(a, s) or bool(_CJK_RE.search(old)) != bool(_CJK_RE.search(new))
    ended = end_cue(old, new)
    if ended and not a.old_has_contrast and (about_the_same or ended_of_it):
        return f"the new memory says '{ended}'"
    old_tells_switch = bool(_STRONG_EN.search(old.lower()) or _STRONG_ZH.search(old)
                            or _SWITCH_EN.search(old.lower()) or _SWITCH_ZH.search(old))
    switch = None if old_tells_switch else (a.strong_cue or end_cue(old, new, (_SWITCH_EN, _SWITCH_ZH))
                                            or moved_value(old, new))
    new_value = s.nouns(s.novel) or [u for u in s.novel if u.number]
    stays = kept_whole(old, new) and not a.polarity_flip and not _DEPARTURE.search(new.lower())
    if (switch and new_value and not a.old_has_contrast and not stays and about_the_same
            and not said_of_another(old, new, switch)):  # a contrast said of another part or condition (round 29)
        return f"the new memory says '{switch}' ({_text(new_value)})"  # (a new text that keeps all of the
        # old one says it still holds: "uses a standing desk and switches to sitting after lunch")
    if told and (not a.old_has_contrast or reversed_state(old, new)):  # "can't ride" / "cleared to ride": the
        return told  # old text's negation is the state that turned (round 31b), not a contrast
    if other_fact(old, new) or not structural_change_ok(old, new):
        return None  # without a cue, a change replaces one value of the same statement
    if a.antonym and not a.polarity_flip:
        return f"polarity changed ({a.antonym})"
    if a.polarity_flip and not a.antonym and same_statement and len(s.novel) <= 1:
        return "one memory negates the other"
    if other_period(old, new):
        return None  # two readings at two times ("glucose in January: 104" / "in July: 97"), not a value replaced
    numbers = numeric_change(old, new)
    if numbers:
        return numbers
    novel_words = [u for u in s.novel if not u.number]
    new_slots = [u for u in s.nouns(novel_words) if u.text not in ("day", "days")]
    if (a.number_change and same_statement and s.subject_kept()
            and (not new_slots or (a.weak_cue and len(new_slots) <= 2))):
        return f"value changed ({', '.join(sorted(a.old_numbers - a.new_numbers))} -> " \
               f"{', '.join(sorted(a.new_numbers - a.old_numbers))})"
    lost_nouns, novel_nouns = s.nouns(s.lost), s.nouns(s.novel)
    if not (lost_nouns and novel_nouns and s.subject_kept() and same_statement):
        return None
    if len(lost_nouns) > 2 or len(novel_nouns) > 2:
        return None
    lost_names = _uncovered_names([u for u in lost_nouns if u.entity], new, old)
    novel_names = _uncovered_names([u for u in novel_nouns if u.entity], old, new)
    translated = all(u.cjk for u in lost_names) != all(u.cjk for u in novel_names)  # 雅思 / IELTS: maybe one name
    if lost_names and novel_names and not translated:
        return f"value changed ({_text(lost_nouns)} -> {_text(novel_nouns)})"
    if _SINGLE_VALUED.search(old.lower()) and _SINGLE_VALUED.search(new.lower()):
        return f"single-valued attribute changed ({_text(lost_nouns)} -> {_text(novel_nouns)})"
    return None
