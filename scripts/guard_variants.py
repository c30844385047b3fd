"""Candidate guard features and recipes for ``guard_lowo_fast.py`` (round 9), written from issue 10's category brief.

Each variant appends columns to the structured row (read on the normalised text through the feature view, like
``classifier.structured_features``), reweights training texts, or overrides a ``ModelConfig`` field. None of them is
in the runtime package: a variant that wins on held-out writers moves into ``hindsight.safety.features`` and the
weights are refitted with ``guard_lowo.py``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import guard_dataset as ds
import guard_model as gm
import numpy as np
from guard_loosen import loosen_at_stake
from guard_transcript import transcript_view

from hindsight.safety.classifier import GuardClassifier, structured_features
from hindsight.safety.features import _IDX, _SENT, BASE, _sentence_bits
from hindsight.safety.normalize import normalize_for_screening, prepare
from hindsight.safety.payee import orders_unverified_payee_change
from hindsight.safety.redact import redactor
from hindsight.safety.rules import NEGATED_ACTION, PROHIBITED, RULES, _alt, _c, match_rules
from hindsight.safety.view import feature_views

ROOT = Path(__file__).resolve().parents[1]
EMBED_CACHE = Path("/tmp/guard_lowo_fast/emb_c.npy")
#: The classifier's vectors of redacted texts as the runtime gives them (``guard_lowo_fast.runtime_vectors``, set by
#: the harness); None: C vectors from ``EMBED_CACHE`` (rounds up to 17).
VECTORS: Callable[[list[str]], np.ndarray] | None = None

_HARM = ("destructive", "credential", "exposure", "loosen", "payment", "privilege")


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENT.split(text) if s and s.strip()] or [text]


def _views(normalised: Sequence[str]) -> list[str]:
    return [v.text for v in feature_views(list(normalised))]


def last_sentence(normalised: Sequence[str]) -> np.ndarray:
    """The order appended at the end: the framing bits of the last sentence alone (zeros for a one-sentence text),
    and whether it is the only sentence that is both addressed (imperative / agent) and harmful."""
    out = np.zeros((len(normalised), len(BASE) + 2), dtype=np.float32)
    for i, text in enumerate(_views(normalised)):
        sentences = _sentences(text)
        if len(sentences) < 2:
            continue
        bits = np.stack([_sentence_bits(s) for s in sentences])
        harmful = bits[:, [_IDX[n] for n in _HARM]].max(axis=1) > 0
        addressed = (bits[:, _IDX["agent_address"]] + bits[:, _IDX["imperative"]] + bits[:, _IDX["persist"]]) > 0
        out[i, : len(BASE)] = bits[-1]
        out[i, len(BASE)] = float(harmful[-1] and addressed[-1])
        out[i, len(BASE) + 1] = float(harmful[-1] and not harmful[:-1].any())
    return out


# A report of a change already made ("moved from X to Y", "已经从 X 换成 Y 了", "was rotated", "has been
# migrated"): what happened, not what anyone should do.
DONE = _c(_alt(
    r"\b(?:has|have|had) been\b", r"\bwas (?:moved|switched|migrated|rotated|revoked|replaced|removed|retired|rolled back|"
    r"upgraded|renamed|disabled|enabled|restored|completed|done)", r"\b(?:moved|switched|migrated|rotated|revoked|replaced|"
    r"retired|rolled back|upgraded|renamed|restored|completed)\b", r"\bno longer\b", r"\bis now\b", r"\bnow (?:uses|runs|lives)",
    r"已经", r"已(?:迁移|切换|换|改|更换|轮换|吊销|撤销|回滚|下线|完成|升级|恢复|启用|停用)", r"不再", r"改用", r"换成了?", r"迁到了?",
    r"完成了", r"回滚了",
))
ORDER = _c(_alt(
    r"\b(?:from now on|going forward|always|never|whenever|remember|you (?:must|should|can|may))\b", r"\bplease\b",
    r"\b(?:do not|don't)\b", r"以后", r"今后", r"永久", r"一律", r"记住", r"(?:^|[，,：:\s])请", r"务必", r"你(?:就|要|需要|应该|可以)", r"别", r"不要",
))


def change_report(normalised: Sequence[str]) -> np.ndarray:
    """Reported, completed changes: share of sentences that report one without any standing order, an order
    anywhere in the text, and whether every sentence is such a report or neutral (no harm lexicon at all)."""
    out = np.zeros((len(normalised), 3), dtype=np.float32)
    for i, text in enumerate(_views(normalised)):
        sentences = _sentences(text)
        done = np.array([bool(DONE.search(s)) and not ORDER.search(s) for s in sentences])
        bits = np.stack([_sentence_bits(s) for s in sentences])
        harmful = bits[:, [_IDX[n] for n in _HARM]].max(axis=1) > 0
        out[i] = [done.mean(), float(bool(ORDER.search(text))), float(all(d or not h for d, h in zip(done, harmful,
                                                                                                  strict=True)))]
    return out


# Reported speech: a third party's words or arrangement ("Ms Gao said", "according to finance", 王阿姨说, 财务表示):
# who is told what. An order to the agent is addressed to it; a report says what someone else arranged.
REPORTED = _c(_alt(
    r"\b(?:said|says|told (?:us|me)|mentioned|according to|announced|confirmed that|let us know|informed)\b",
    r"(?:说|表示|提到|通知|告诉我们|告知|据.{1,8}(?:说|讲))",
))


def reported_speech(normalised: Sequence[str]) -> np.ndarray:
    """Whether some sentence reports a third party's words, and whether every harmful sentence is such a report
    not addressed to the agent (no agent address, no imperative start)."""
    out = np.zeros((len(normalised), 2), dtype=np.float32)
    for i, text in enumerate(_views(normalised)):
        sentences = _sentences(text)
        bits = np.stack([_sentence_bits(s) for s in sentences])
        reported = np.array([bool(REPORTED.search(s)) for s in sentences])
        addressed = (bits[:, _IDX["agent_address"]] + bits[:, _IDX["imperative"]]) > 0
        harmful = bits[:, [_IDX[n] for n in _HARM]].max(axis=1) > 0
        out[i] = [float(reported.any()), float(harmful.any() and all(r and not a for r, a, h in
                                                                        zip(reported, addressed, harmful, strict=True) if h))]
    return out


def harm_counts(normalised: Sequence[str]) -> np.ndarray:
    """How much of the text is harmful framing: the share of sentences with loosening x a dangerous operation, and
    the number of distinct dangerous-operation kinds touched (0..1 scaled)."""
    danger = ("destructive", "credential", "exposure", "payment", "privilege", "control", "approval")
    out = np.zeros((len(normalised), 2), dtype=np.float32)
    for i, text in enumerate(_views(normalised)):
        bits = np.stack([_sentence_bits(s) for s in _sentences(text)])
        d = bits[:, [_IDX[n] for n in danger]]
        loose = bits[:, _IDX["loosen"]] * (d.max(axis=1) > 0)
        out[i] = [loose.mean(), d.max(axis=0).sum() / len(danger)]
    return out


#: Round 19: rule-level votes (which rule fired, not only its category), read on the feature view like
#: ``classifier.rule_features``; the payee rule (kept out of ``rules.RULES``, a hard rule of its own) as one more.
_RULE_IDS: tuple[str, ...] = tuple(r.id for r in RULES)
_SKIP_IDS = ("priv_skip_confirmation", "priv_act_without_confirmation")
_NEGATED = _c(_alt(NEGATED_ACTION, PROHIBITED))
_DANGER = ("destructive", "credential", "exposure", "payment", "privilege", "control", "data")


def rule_ids(normalised: Sequence[str]) -> np.ndarray:
    """One bit per rule id (24) and one for the payee rule, each on the feature view."""
    out = np.zeros((len(normalised), len(_RULE_IDS) + 1), dtype=np.float32)
    for i, text in enumerate(_views(normalised)):
        for hit in match_rules(text):
            out[i, _RULE_IDS.index(hit.rule_id)] = 1.0
        out[i, -1] = float(orders_unverified_payee_change(text))
    return out


def skip_confirm(normalised: Sequence[str]) -> np.ndarray:
    """The confirmation switched off for a dangerous action (the two rules' own votes, EN and ZH alike: the
    category vote mixes them with every other escalation rule) and the payee rule (a change taken on trust)."""
    out = np.zeros((len(normalised), len(_SKIP_IDS) + 1), dtype=np.float32)
    for i, text in enumerate(_views(normalised)):
        ids = {h.rule_id for h in match_rules(text)}
        out[i, : len(_SKIP_IDS)] = [float(r in ids) for r in _SKIP_IDS]
        out[i, -1] = float(orders_unverified_payee_change(text))
    return out


def net_polarity(normalised: Sequence[str]) -> np.ndarray:
    """Polarity per sentence, the same sentence for both ends: a dangerous operation whose safeguard is loosened and
    not tightened there (skip / never ask / no need, with no must / only after / 必须), the reverse (tightened, not
    loosened), and their difference over the sentences that touch danger; plus persistence x net loosening and
    "who is told": an addressed (imperative / agent / standing) sentence that loosens only."""
    out = np.zeros((len(normalised), 5), dtype=np.float32)
    danger = [_IDX[n] for n in _DANGER]
    for i, text in enumerate(_views(normalised)):
        bits = np.stack([_sentence_bits(s) for s in _sentences(text)])
        d = bits[:, danger].max(axis=1) > 0
        negated = np.array([bool(_NEGATED.search(x)) for x in _sentences(text)])  # "never delete ... without asking"
        lo, ti = bits[:, _IDX["loosen"]] > 0, (bits[:, _IDX["tighten"]] > 0) | negated
        net_lo, net_ti = d & lo & ~ti, d & ti & ~lo
        addressed = (bits[:, _IDX["agent_address"]] + bits[:, _IDX["imperative"]] + bits[:, _IDX["persist"]]) > 0
        out[i] = [net_lo.any(), net_ti.any(), (net_lo.sum() - net_ti.sum()) / max(1, d.sum()),
                  (net_lo & (bits[:, _IDX["persist"]] > 0)).any(), (net_lo & addressed).any()]
    return out


def ops_weight(examples: Sequence[ds.GuardExample]) -> np.ndarray:
    """The benign operational change notes weigh three times a blind writer's text."""
    return np.array([3.0 if e.writer == "ops" else 1.0 for e in examples])


def _writer_weight(writer: str, w: float) -> Callable[[Sequence[ds.GuardExample]], np.ndarray]:
    def weights(examples: Sequence[ds.GuardExample]) -> np.ndarray:
        return np.array([w if e.writer == writer else 1.0 for e in examples])
    return weights


def _prefix_weight(prefix: str, w: float) -> Callable[[Sequence[ds.GuardExample]], np.ndarray]:
    def weights(examples: Sequence[ds.GuardExample]) -> np.ndarray:
        return np.array([w if e.writer.startswith(prefix) else 1.0 for e in examples])
    return weights


def pii_weight(examples: Sequence[ds.GuardExample]) -> np.ndarray:
    """``--pii``: a PII note weighs one unit (not a blind writer's three)."""
    return np.array([1 / 3 if e.writer.startswith("pii-") else 1.0 for e in examples])


def vpn_as_network() -> None:
    """A VPN is network access, not a credential: drop it from the framing features' credential lexicon (the
    brief's lexicon classes: destructive, credential, network, approval, payment). Patches this process's
    ``hindsight.safety.features`` (the runtime is unchanged); the structured rows are recomputed."""
    from hindsight.safety import features

    pattern = features.CREDENTIAL.pattern.replace(r"|\bvpn\b", "")
    assert pattern != features.CREDENTIAL.pattern, "the credential lexicon no longer lists vpn"
    features.CREDENTIAL = _c(pattern)
    features.BASE = tuple((n, features.CREDENTIAL if n == "credential" else p) for n, p in features.BASE)


@dataclass(frozen=True)
class Variant:
    features: Callable[[Sequence[str]], np.ndarray] | None = None
    config: dict[str, float] = field(default_factory=dict)
    weights: Callable[[Sequence[ds.GuardExample]], np.ndarray] | None = None
    patch: Callable[[], None] | None = None  # changes a runtime lexicon in this process (run such a variant alone)


def _both(*fns: Callable[[Sequence[str]], np.ndarray]) -> Callable[[Sequence[str]], np.ndarray]:
    return lambda texts: np.hstack([fn(texts) for fn in fns])


VARIANTS: dict[str, Variant] = {
    "base": Variant(),
    "shipped": Variant(),  # no fit: the shipped weights (guard_lowo_fast.run_variant)
    "last_sentence": Variant(last_sentence),
    "change_report": Variant(change_report),
    "harm_counts": Variant(harm_counts),
    "all_three": Variant(_both(last_sentence, change_report, harm_counts)),
    "ops_weight": Variant(weights=ops_weight),
    "blind_weight5": Variant(config={"blind_weight": 5.0}),
    "l2_03": Variant(config={"l2": 0.03}),
    "hidden64": Variant(config={"hidden": 64}),
    # --plain-stride 4 keeps a quarter of the plain facts: plain_weight=4 gives them the weight they have in the
    # shipped recipe (every plain fact, plain_weight 1).
    "plain4": Variant(config={"plain_weight": 4.0}),
    "vpn_network": Variant(patch=vpn_as_network),  # with --plain-stride 1
    "loosen_at_stake": Variant(patch=loosen_at_stake),  # round 12: a simplification marker loosens only a safeguard
    # round 13: the features read what a transcript / acknowledgement / forward asserts (guard_transcript.py)
    "transcript_view": Variant(patch=transcript_view),
    "transcript_loosen": Variant(patch=lambda: (transcript_view(), loosen_at_stake())[0]),
    "shipped_transcript": Variant(patch=transcript_view),  # the shipped weights reading the view (no fit)
    "plain2": Variant(config={"plain_weight": 2.0}),  # the same with --plain-stride 2
    "plain4_change": Variant(change_report, config={"plain_weight": 4.0}),
    "plain4_ops": Variant(config={"plain_weight": 4.0}, weights=ops_weight),
    "plain4_ops_change": Variant(change_report, config={"plain_weight": 4.0}, weights=ops_weight),
    "plain4_reported": Variant(reported_speech, config={"plain_weight": 4.0}),
    "plain4_change_reported": Variant(_both(change_report, reported_speech), config={"plain_weight": 4.0}),
    "plain4_all": Variant(_both(last_sentence, change_report, harm_counts), config={"plain_weight": 4.0}),
    # round 10: guard10's hard pairs (bench/data/train/g10) left out of every fit, or weighed three times
    "no_g10": Variant(weights=_writer_weight("train-g10", 0.0)),
    "g10x3": Variant(weights=_writer_weight("train-g10", 3.0)),
    "plain4_g10x3": Variant(config={"plain_weight": 4.0}, weights=_writer_weight("train-g10", 3.0)),
    "pii_w1": Variant(weights=pii_weight),  # with --pii
    # round 19 (with --retrieval): rule-level votes, the skip-confirmation / payee votes, net polarity per sentence;
    # the retrieval memories left out of every fit (the "before"), or at three units each (a blind writer's weight)
    "rule_ids": Variant(rule_ids),
    "skip_confirm": Variant(skip_confirm),
    "net_polarity": Variant(net_polarity),
    "skip_polarity": Variant(_both(skip_confirm, net_polarity)),
    "no_retr": Variant(weights=_prefix_weight("retr-", 0.0)),  # the "before": scored held out, never fitted
    "retr_w3": Variant(weights=_prefix_weight("retr-", 3.0)),
}


def fit_weighted(f: gm.Features, y: np.ndarray, cfg: gm.ModelConfig, seed: int,
                 weight: np.ndarray | None) -> GuardClassifier:
    return gm.fit(f, y, cfg, seed, sample_weight=weight)


def fixed_texts() -> list[str]:
    """The pinned benign memories of tests/test_guard_benign_fixed.py: the suite texts, the held-out ops change notes
    (left out before the r10T1 addendum, so earlier fixed maxima could read low) and the two VPN notes."""
    suite = json.loads((ROOT / "tests" / "data" / "guard_benign_fixed.json").read_text(encoding="utf-8"))
    ops = [json.loads(line) for line in (ROOT / "bench" / "data" / "guard_ops" / "ops_change_notes.jsonl")
           .read_text(encoding="utf-8").splitlines() if line.strip()]
    vpn = ["The office VPN moved from WireGuard to Tailscale; new laptops just get an invite from the admin console.",
           "办公室的 VPN 已经从 WireGuard 换成 Tailscale 了，新电脑在后台发个邀请就行。"]
    return [str(t["content"]) for t in suite] + [str(r["text"]) for r in ops if r["held_out"]] + vpn


def fixed_scores(clf: GuardClassifier, texts: list[str], variant: Variant) -> list[tuple[float, str]]:
    """The five highest scores of the pinned benign texts (a model fitted on every writer)."""
    from hindsight.safety.guard import HARD_RULE_IDS, consults_classifier
    from hindsight.safety.rules import match_rules

    redacted = [redactor(t)[0] for t in texts]
    normalised = [normalize_for_screening(r) for r in redacted]
    if VECTORS is not None:
        vec = VECTORS(redacted)
    else:
        cache = gm._load_cache(EMBED_CACHE)
        vec = np.stack([cache[normalize_for_screening(r) if prepare(r).obfuscated else r] for r in redacted])
    lex = structured_features(normalised)
    if variant.features:
        lex = np.hstack([lex, variant.features(normalised)])
    hits = [match_rules(t) for t in normalised]
    f = gm.Features(vec, vec, lex.astype(np.float32), np.array([consults_classifier(t, h) for t, h in
                    zip(normalised, hits, strict=True)]), np.array([any(x.rule_id in HARD_RULE_IDS for x in h)
                                                                    for h in hits]),
                    np.zeros(len(texts), bool), np.zeros(len(texts), bool))
    s = gm.attack_prob(clf, vec, f)
    top = np.argsort(-s)[:5]
    return [(round(float(s[i]), 4), texts[i][:80]) for i in top]
