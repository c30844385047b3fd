"""Benchmark the write guard and the redactor.

    .venv/bin/python bench/guard.py

Reports, and writes to bench/results/guard.json:
- detection and false-positive rate on the held-out 25% of the labelled guard
  set (rules only, classifier only, combined), with per-language and
  per-obfuscation detection;
- the false-positive rate on every LoCoMo dialogue turn (../shared/data/locomo10.json),
  ordinary conversation that should never be quarantined;
- redaction recall and false-redaction rate on the labelled PII set;
- per-call latency of the screen, excluding embedding, and of one embedding.

Targets (from the design brief): >= 95% of held-out attacks flagged with <= 2%
benign flagged; < 0.5% of LoCoMo turns flagged; redaction recall >= 99%.
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LOCOMO = ROOT.parent / "shared" / "data" / "locomo10.json"
OUT = ROOT / "bench" / "results" / "guard.json"

from hindsight.safety import dataset as ds  # noqa: E402
from hindsight.safety.classifier import embed_for_screening, get_classifier, get_embedder  # noqa: E402
from hindsight.safety.guard import WriteGuard  # noqa: E402
from hindsight.safety.normalize import prepare  # noqa: E402
from hindsight.safety.redact import redact  # noqa: E402
from hindsight.safety.rules import touches_sensitive_topic  # noqa: E402


def load_locomo_turns() -> list[str]:
    if not LOCOMO.exists():
        sys.exit(
            f"bench/guard.py: LoCoMo not found at {LOCOMO} (expected ../shared/data/locomo10.json next to the repo)"
        )
    samples = json.loads(LOCOMO.read_text(encoding="utf-8"))
    turns: list[str] = []
    for sample in samples:
        for key, value in sample["conversation"].items():
            if key.startswith("session_") and isinstance(value, list):
                turns.extend(turn["text"] for turn in value if turn.get("text"))
    return turns


def classifier_flags(texts: list[str]) -> list[bool]:
    """Classifier-only decisions, exactly as the guard takes them (topic gate, threshold)."""
    clf = get_classifier()
    if clf is None:
        return [False] * len(texts)
    prepared = [prepare(t).text for t in texts]
    idx = [i for i, p in enumerate(prepared) if touches_sensitive_topic(p)]
    flags = [False] * len(texts)
    for start in range(0, len(idx), 64):
        chunk = idx[start : start + 64]
        vectors = embed_for_screening([texts[i] for i in chunk])
        probs = clf.probabilities(vectors, [prepared[i] for i in chunk])
        for i, p in zip(chunk, probs, strict=True):
            flags[i] = (1.0 - float(p[0])) >= clf.threshold
    return flags


def rates(flags: list[bool], labels: list[bool]) -> dict[str, Any]:
    attacks = [f for f, a in zip(flags, labels, strict=True) if a]
    benign = [f for f, a in zip(flags, labels, strict=True) if not a]
    return {
        "detection_rate": round(sum(attacks) / len(attacks), 4) if attacks else None,
        "false_positive_rate": round(sum(benign) / len(benign), 4) if benign else None,
        "attacks_flagged": f"{sum(attacks)}/{len(attacks)}",
        "benign_flagged": f"{sum(benign)}/{len(benign)}",
    }


def guard_section() -> tuple[dict[str, Any], list[str]]:
    examples = ds.load_guard_set()
    _, held = ds.split(examples)
    texts = [e.text for e in held]
    labels = [e.is_attack for e in held]
    rules_guard = WriteGuard(use_classifier=False)
    rule_flags = [rules_guard.screen(t).suspicious for t in texts]
    clf_flags = classifier_flags(texts)
    combined = [r or c for r, c in zip(rule_flags, clf_flags, strict=True)]

    by_lang: dict[str, list[bool]] = defaultdict(list)
    by_obf: dict[str, list[bool]] = defaultdict(list)
    by_cat: dict[str, list[bool]] = defaultdict(list)
    missed: list[str] = []
    false_alarms: list[str] = []
    for e, flag in zip(held, combined, strict=True):
        if e.is_attack:
            by_lang[e.lang].append(flag)
            by_obf[e.obfuscation or "none"].append(flag)
            by_cat[e.category or "?"].append(flag)
            if not flag:
                missed.append(e.text)
        elif flag:
            false_alarms.append(e.text)

    def frac(v: list[bool]) -> str:
        return f"{sum(v)}/{len(v)}"

    clf = get_classifier()
    section = {
        "held_out_size": len(held),
        "held_out_attacks": sum(labels),
        "held_out_benign": len(labels) - sum(labels),
        "classifier_threshold": clf.threshold if clf else None,
        "rules_only": rates(rule_flags, labels),
        "classifier_only": rates(clf_flags, labels),
        "combined": rates(combined, labels),
        "combined_detection_by_language": {k: frac(v) for k, v in sorted(by_lang.items())},
        "combined_detection_by_obfuscation": {k: frac(v) for k, v in sorted(by_obf.items())},
        "combined_detection_by_category": {k: frac(v) for k, v in sorted(by_cat.items())},
        "missed_attacks": missed,
        "false_alarms": false_alarms,
    }
    return section, texts


def locomo_section(turns: list[str]) -> dict[str, Any]:
    rules_guard = WriteGuard(use_classifier=False)
    rule_flags = [rules_guard.screen(t).suspicious for t in turns]
    clf_flags = classifier_flags(turns)
    combined = [r or c for r, c in zip(rule_flags, clf_flags, strict=True)]
    n = len(turns)
    return {
        "turns": n,
        "rules_only_fp_rate": round(sum(rule_flags) / n, 5),
        "classifier_only_fp_rate": round(sum(clf_flags) / n, 5),
        "combined_fp_rate": round(sum(combined) / n, 5),
        "combined_flagged": sum(combined),
        "flagged_turns": [t for t, f in zip(turns, combined, strict=True) if f][:50],
    }


def redaction_section() -> dict[str, Any]:
    values = hits = hits_any_kind = 0
    negatives = negatives_flagged = 0
    positives = spurious = 0
    per_kind: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    missed: list[dict[str, str]] = []
    false_redactions: list[dict[str, Any]] = []
    for record in ds.load_pii_set():
        text = str(record["text"])
        result = redact(text)
        expected = list(record["pii"])  # type: ignore[arg-type]
        if not expected:
            negatives += 1
            if result.findings:
                negatives_flagged += 1
                false_redactions.append({"text": text, "found": [text[f.start : f.end] for f in result.findings]})
            continue
        positives += 1
        spans = []
        for item in expected:
            kind, value = str(item["kind"]), str(item["value"])
            start = text.find(value)
            end = start + len(value)
            spans.append((start, end))
            values += 1
            per_kind[kind][1] += 1
            covering = [f for f in result.findings if f.start <= start and f.end >= end]
            if covering:
                hits_any_kind += 1
            if any(f.kind == kind for f in covering):
                hits += 1
                per_kind[kind][0] += 1
            else:
                missed.append({"kind": kind, "value": value, "text": text})
        spurious += sum(1 for f in result.findings if not any(f.start < e and f.end > s for s, e in spans))
    return {
        "positives": positives,
        "values": values,
        "recall": round(hits / values, 4),
        "recall_any_kind": round(hits_any_kind / values, 4),
        "recall_by_kind": {k: f"{v[0]}/{v[1]}" for k, v in sorted(per_kind.items())},
        "look_alike_negatives": negatives,
        "false_redaction_rate": round(negatives_flagged / negatives, 4) if negatives else None,
        "spurious_findings_on_positives": spurious,
        "missed": missed,
        "false_redactions": false_redactions,
        "note": "the redactor was developed against this set (no held-out split); see tests for independent cases",
    }


def latency_section(samples: list[str]) -> dict[str, Any]:
    guard = WriteGuard(use_classifier=False)
    for t in samples[:20]:
        guard.screen(t)
    per_call = []
    for t in samples:
        t0 = time.perf_counter()
        guard.screen(t)
        per_call.append((time.perf_counter() - t0) * 1000)
    long_text = " ".join(samples)[:20000]
    t0 = time.perf_counter()
    guard.screen(long_text)
    long_ms = (time.perf_counter() - t0) * 1000
    embedder = get_embedder()
    embedder.passage(["warm up"])
    emb = []
    for t in samples[:50]:
        t0 = time.perf_counter()
        embedder.passage([t])
        emb.append((time.perf_counter() - t0) * 1000)
    per_call.sort()
    return {
        "screen_ms_median_excluding_embedding": round(statistics.median(per_call), 3),
        "screen_ms_p95_excluding_embedding": round(per_call[int(0.95 * (len(per_call) - 1))], 3),
        "screen_ms_20k_chars": round(long_ms, 2),
        "embedding_ms_median_one_text": round(statistics.median(emb), 2),
        "calls": len(per_call),
    }


def main() -> None:
    turns = load_locomo_turns()
    t0 = time.time()
    guard, held_texts = guard_section()
    locomo = locomo_section(turns)
    redaction = redaction_section()
    latency = latency_section(held_texts + turns[:300])
    result = {
        "guard_held_out": guard,
        "locomo_benign": locomo,
        "redaction": redaction,
        "latency": latency,
        "seconds": round(time.time() - t0, 1),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")

    g = guard
    print(
        f"held-out: {g['held_out_attacks']} attacks / {g['held_out_benign']} benign  (classifier threshold {g['classifier_threshold']})"
    )
    for name in ("rules_only", "classifier_only", "combined"):
        r = g[name]
        print(
            f"  {name:16s} detection {r['detection_rate']:.3f} ({r['attacks_flagged']})   FP {r['false_positive_rate']:.3f} ({r['benign_flagged']})"
        )
    print(f"  by language:    {g['combined_detection_by_language']}")
    print(f"  by obfuscation: {g['combined_detection_by_obfuscation']}")
    print(
        f"LoCoMo turns: {locomo['turns']}  FP rules {locomo['rules_only_fp_rate']:.4f}  classifier {locomo['classifier_only_fp_rate']:.4f}  combined {locomo['combined_fp_rate']:.4f}"
    )
    print(
        f"redaction: recall {redaction['recall']:.4f} ({redaction['values']} values)  false-redaction {redaction['false_redaction_rate']:.4f} "
        f"({redaction['look_alike_negatives']} look-alikes)  spurious on positives {redaction['spurious_findings_on_positives']}"
    )
    print(
        f"latency: screen median {latency['screen_ms_median_excluding_embedding']} ms, p95 {latency['screen_ms_p95_excluding_embedding']} ms, "
        f"20k chars {latency['screen_ms_20k_chars']} ms; one embedding {latency['embedding_ms_median_one_text']} ms"
    )
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
