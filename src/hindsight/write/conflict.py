"""Is a new memory a restatement, a correction, more detail, or something else?

`classify(old, new, similarity)` answers with one of four labels and a reason:

* ``duplicate``  - the same fact said again (refresh the old memory, store nothing new);
* ``override``   - the same attribute with a new value, a negation or a switch
  (the old memory is deprecated and superseded);
* ``supplement`` - more detail about the same subject (both kept, linked);
* ``unrelated``  - anything else, including *same-topic different facts*
  ("the staging DB allows 200 connections" next to "the production DB allows 200").

Cosine similarity alone cannot tell these apart with small multilingual models:
multilingual-e5-small scores "max_connections 200" vs "max_connections 100" at
~0.95 and a Chinese value change at ~0.98, above most paraphrases. So the
similarity only picks the *band* (thresholds calibrated per embedding model and
per script, see `hygiene.HygieneThresholds`) and a lexical analysis decides inside it:

1. both texts are normalised into *units*: NFKC, lower case, English and Chinese
   number words to digits (三个 -> 3, Tuesday -> 周2, 30s -> 30 seconds), light
   English stemming, a synonym table (likes/prefers/喜欢/偏好, uses/powers/使用/基于,
   ...), jieba POS segmentation for Chinese (names, verbs), function words flagged;
2. what each side has that the other lacks entirely: *lost* units (old ones absent
   from the new text) and *novel* units (new ones absent from the old text); a
   Chinese word counts as present when more than half of its characters are;
3. conflict signals: an explicit switch/negation cue new in the new text ("no longer",
   "instead of", "switched from", 不再, 改成, 换成, 从…改为, 不用…了) about the same
   statement, a polarity flip (not/不, enabled/disabled, 开启/关闭), a changed
   number with nothing else new, one value word swapped for another, or one name
   replaced in an otherwise verbatim statement;
4. different-fact signals: the swapped word is the subject (first content word)
   or the numbers stay the same (same value, other subject), or several words of
   one sentence frame changed (部署脚本 / 计费报表 由老王负责维护);
5. otherwise a restatement when little is new and nothing named is lost, else a
   supplement.

With an LLM (`llm.complete(system, user)`), the model is asked for one label
inside the band; when it fails or answers something else, the heuristic decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, NamedTuple

from hindsight.write import pair_memo
from hindsight.write.analysis import (
    PairAnalysis,
    _names,
    _same_frame,
    analyse,
    content_diff,
)

Label = Literal["duplicate", "override", "supplement", "unrelated"]
LABELS: tuple[Label, ...] = ("duplicate", "override", "supplement", "unrelated")
ADDS_DETAIL = "adds detail"  # a supplement with no conflict signal at all: a restatement at very high similarity
SHARES_SUBJECT = "shares the subject, adds or changes"  # a supplement with a new number, name or conflict signal


class Verdict(NamedTuple):
    """A label and the human-readable reason for it (shown in write outcomes and history)."""

    label: Label
    reason: str
    confidence: float = 0.0  # the pair model's probability of its label (0 from the rules): ranks candidates


# --------------------------------------------------------------------------- heuristic
@dataclass(frozen=True)
class HeuristicParams:
    """Knobs of the lexical heuristic (calibrated alongside the similarity thresholds)."""

    topic_min: float = 0.34  # share of the old content the new text must keep to be "the same attribute"
    novelty_max: float = 0.5  # share of the new text's content units a restatement may add
    max_value_atoms: int = 3  # longest substituted stretch (words, or Han characters) still read as "one value"
    lost_max: int = 1  # old content words a restatement may drop entirely
    cue_topic_min: float = 0.5  # a switch/negation cue retires the old memory only when this much of it is kept
    # (or when the old value itself is named again: "from GitHub Actions to GitLab CI", "instead of PostgreSQL")



def heuristic(old: str, new: str, params: HeuristicParams = HeuristicParams()) -> tuple[Label, str, PairAnalysis]:
    """The no-LLM decision *given that the pair is already similar*: the band is the caller's job. Inside a
    `pair_memo` scope it is read once per pair and parameters (the rules and the pair model's row both read it;
    write cost round 40); see `_heuristic`."""
    return pair_memo.kept(("heuristic", old, new, params), lambda: _heuristic(old, new, params))


def _heuristic(old: str, new: str, params: HeuristicParams) -> tuple[Label, str, PairAnalysis]:
    """The no-LLM decision *given that the pair is already similar*: the band is the caller's job.

    Works on what each side has that the other lacks entirely: `lost` (old content
    units absent from the new text) and `novel` (new units absent from the old one).
    A value change loses one value and brings one; a different fact about the same
    topic swaps the subject too; a restatement loses (almost) nothing.
    """
    a = analyse(old, new)
    if [u.text for u in a.old_units if not u.stop] == [u.text for u in a.new_units if not u.stop]:
        return "duplicate", "same normalised text", a
    old_content, new_content, lost, novel = content_diff(a)
    lost_words = [u for u in lost if not u.number]
    novel_words = [u for u in novel if not u.number]
    kept = max(a.containment, a.coverage)
    anchored = kept >= params.topic_min
    same_statement = kept >= params.cue_topic_min
    cue = a.strong_cue or a.weak_cue
    same_numbers = bool(a.old_numbers) and a.old_numbers == a.new_numbers

    # --- an explicit switch / negation cue about the same statement
    retained = [u.text for u in old_content if u.entity and not u.number and u.text in {v.text for v in new_content}]
    if a.strong_cue and not a.old_has_contrast and (same_statement or retained):
        return "override", f"the new memory says '{a.strong_cue}'", a
    if a.antonym and anchored and len(novel_words) <= 2:
        return "override", f"polarity changed ({a.antonym})", a
    if a.polarity_flip and same_statement and len(novel_words) <= 1 and not any(u.entity for u in novel):
        return "override", "one memory negates the other", a
    # --- a changed number with the rest of the statement kept
    if a.number_change:
        changed = (", ".join(sorted(a.old_numbers - a.new_numbers)) + " -> "
                   + ", ".join(sorted(a.new_numbers - a.old_numbers)))
        if anchored and (not novel_words or (cue and len(novel_words) <= 2)):
            return "override", f"value changed ({changed})", a
        return "unrelated", f"different numbers ({changed}) about a different subject ({_names(novel_words)})", a
    # --- one word gave way to another, the rest kept: a new value, or the same claim about another subject
    swapped = (len(lost_words) == 1 and len(novel_words) == 1
               and not (lost_words[0].verb and novel_words[0].verb))  # verb for verb is a rewording
    if swapped and anchored:
        old_word, new_word = lost_words[0], novel_words[0]
        if max(len(old_word.atoms()), len(new_word.atoms())) <= params.max_value_atoms:
            if same_numbers or (old_word is old_content[0] and not cue):
                return "unrelated", f"same statement about a different subject ({old_word.text} / {new_word.text})", a
            return "override", f"value changed ({old_word.text} -> {new_word.text})", a
    # --- the same sentence with a longer stretch replaced: another object or subject, not a restatement
    minimal_pair = bool(lost_words) and bool(novel_words) and _same_frame(old_content, lost, new_content, novel)
    if minimal_pair and not swapped and not a.number_change:
        return "unrelated", f"same statement about something else ({_names(lost_words)} / {_names(novel_words)})", a
    # --- the same statement in other words, with one name replaced by another
    novel_names = [u for u in novel_words if u.entity]
    lost_names = [u for u in lost if u.entity and u.text != "1"]
    frame = [u for u in new_content if u not in novel_names]  # everything but the new name, said verbatim before
    frame_kept = sum(1 for u in frame if u.text in {v.text for v in old_content}) / max(1, len(frame))
    if (len(novel_words) == 1 and novel_names and len(lost_names) == 1 and not lost_names[0].number
            and len(frame) >= 2 and frame_kept == 1.0):
        return "override", f"value changed ({lost_names[0].text} -> {novel_names[0].text})", a
    # --- restatement or more detail
    new_numbers = {u.text for u in novel if u.number} - {"1"}
    novelty = (len(novel) + len(novel_names)) / max(1, len(new_content))  # a new name weighs double
    conflicting = bool(a.strong_cue) or a.polarity_flip or bool(a.antonym) or bool(cue and lost and novel) or swapped
    if (a.jaccard > 0 and novelty <= params.novelty_max and not new_numbers and not conflicting
            and len(lost_words) <= params.lost_max and not lost_names):
        return "duplicate", "restates the existing memory", a
    if anchored or a.jaccard > 0:
        if not (conflicting or new_numbers or lost_names):
            return "supplement", f"{ADDS_DETAIL} ({_names(novel)[:80]})", a
        return "supplement", f"{SHARES_SUBJECT} ({_names(novel)[:80]})", a
    return "unrelated", "no shared words", a

