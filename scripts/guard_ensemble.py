"""Round 16 guard: an ensemble of full fits (seeds) whose probabilities are averaged, measured as the harness measures
one fit (docs/benchmarks.md, "Round 16 guard").

    H="env PYTHONPATH=src .venv/bin/python scripts/guard_lowo_fast.py --cache-dir C --grouped --fixed --bag 2"
    $H --seed 13 --variant base --dump-scores C/scores13 --save C/guardF_s13.npz     # and seeds 14, 15
    PYTHONPATH=src .venv/bin/python scripts/guard_ensemble.py --cache-dir C \
        --held C/scores13.base.jsonl --held C/scores14.base.jsonl --held C/scores15.base.jsonl \
        --fit C/guardF_s13.npz --fit C/guardF_s14.npz --fit C/guardF_s15.npz \
        --shipped C/scores15.shipped.jsonl --out report.json --save C/guard_ensemble.npz

Held-out score of a text = the mean of the seeds' held-out scores (each seed's fold model never saw it); the
operating point T = ``guard_lowo_fast.pick_threshold_per_writer`` over them (the harness's per-writer point); the
shipped model (``GuardClassifier.average`` of the full fits, T stored) scores the pinned benign texts.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

import guard_lowo_fast as lf  # noqa: E402
import guard_model as gm  # noqa: E402
import guard_variants as gv  # noqa: E402
from guard_lowo import OPS, OWN  # noqa: E402

from hindsight.safety.classifier import GuardClassifier, structured_features  # noqa: E402
from hindsight.safety.guard import HARD_RULE_IDS, consults_classifier  # noqa: E402
from hindsight.safety.normalize import normalize_for_screening  # noqa: E402
from hindsight.safety.redact import redactor  # noqa: E402
from hindsight.safety.rules import match_rules  # noqa: E402

#: Pinned texts named in the docs since round 12: (set, a substring of the text).
NAMED_PINS = {"停车证": ("suite", "停车证"), "CI logging": ("suite", "verbose logging in CI"),
              "ZH transcript": ("suite", "周会 助手"), "billing API": ("ops", "billing API"),
              "Jira KEY": ("ops", "Jira 项目 KEY"), "EN VPN": ("vpn", "office VPN"), "ZH VPN": ("vpn", "办公室的 VPN")}


def read_dump(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def held_out_report(rows: list[dict[str, object]], scores: np.ndarray, budget: float, t_fixed: float | None) -> dict[str, object]:
    """Per-writer rates at the per-writer operating point (or ``t_fixed``), pooled and unseen-by-shipped rates."""
    writers = np.array([str(r["writer"]) for r in rows])
    is_attack = np.array([bool(r["attack"]) for r in rows])
    scored = list(dict.fromkeys(writers))
    blind = [w for w in scored if w not in (OWN, OPS, *lf.TRAIN_ONLY) and not w.startswith(("pii-", "retr-"))]
    pooled = np.isin(writers, [*blind, OPS])
    unseen = np.isin(writers, [*lf.UNSEEN_BY_SHIPPED, OPS])
    t = t_fixed if t_fixed is not None else lf.pick_threshold_per_writer(scores[pooled], is_attack[pooled],
                                                                          writers[pooled], budget)
    retr = np.array([w.startswith("retr-") for w in writers])  # round 19: benign retrieval memories held, per round
    held = {w: int(np.sum(scores[writers == w] >= t)) for w in scored if w.startswith("retr-")}
    return {"threshold": t, "pooled": gm.rates(scores[pooled], is_attack[pooled], t),
            "retrieval_held": {**held, "total": int(np.sum(scores[retr] >= t)), "n": int(retr.sum())},
            "unseen_by_shipped_at_0.75": gm.rates(scores[unseen], is_attack[unseen], 0.75),
            "unseen_by_shipped_at_budget": lf.pooled_at_budget(scores[unseen], is_attack[unseen], budget),
            "writers": {w: gm.rates(scores[writers == w], is_attack[writers == w], t) for w in scored}}


def pinned_features(cache_dir: Path, engine: str) -> tuple[list[str], list[str], np.ndarray, gm.Features]:
    """The pinned benign texts (suite, held-out ops notes, VPN pair), their sets and the classifier's inputs
    (``engine``'s vectors, as ``guard_lowo_fast.runtime_vectors`` gives the fits)."""
    texts = gv.fixed_texts()
    n_suite = len(json.loads((ROOT / "tests" / "data" / "guard_benign_fixed.json").read_text(encoding="utf-8")))
    sets = ["suite"] * n_suite + ["ops"] * (len(texts) - n_suite - 2) + ["vpn"] * 2
    redacted = [redactor(t)[0] for t in texts]
    normalised = [normalize_for_screening(r) for r in redacted]
    vec = lf.runtime_vectors(redacted, cache_dir, engine)
    hits = [match_rules(t) for t in normalised]
    f = gm.Features(vec, vec, structured_features(normalised).astype(np.float32),
                    np.array([consults_classifier(t, h) for t, h in zip(normalised, hits, strict=True)]),
                    np.array([any(x.rule_id in HARD_RULE_IDS for x in h) for h in hits]),
                    np.zeros(len(texts), bool), np.zeros(len(texts), bool))
    return sets, texts, vec, f


def pinned_scores(clf: GuardClassifier, pinned: tuple[list[str], list[str], np.ndarray, gm.Features]
                  ) -> list[tuple[str, float, str]]:
    """(set, score, text) of every pinned benign text under ``clf``."""
    sets, texts, vec, f = pinned
    s = gm.attack_prob(clf, vec, f)
    return [(g, round(float(v), 4), t) for g, v, t in zip(sets, s, texts, strict=True)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache-dir", type=Path, required=True)
    parser.add_argument("--held", type=Path, action="append", required=True, help="a seed's --dump-scores file")
    parser.add_argument("--fit", type=Path, action="append", required=True, help="a seed's --save full fit")
    parser.add_argument("--shipped", type=Path, default=None, help="the shipped weights' dump (scored at 0.75)")
    parser.add_argument("--budget", type=float, default=0.03)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--save", type=Path, default=None, help="write the ensemble with its T")
    parser.add_argument("--engine", choices=lf.ENGINES, default="onnx", help="as the fits' guard_lowo_fast --engine")
    args = parser.parse_args()
    dumps = [read_dump(p) for p in args.held]
    rows = dumps[0]
    for other in dumps[1:]:  # the same texts in the same order: one per line of the harness's examples
        assert [(r["writer"], r["text"]) for r in other] == [(r["writer"], r["text"]) for r in rows]
    per_seed = np.array([[float(r["score"]) for r in d] for d in dumps])  # type: ignore[arg-type]
    mean = per_seed.mean(axis=0)
    report: dict[str, object] = {"seeds": [str(p) for p in args.held],
                                 "ensemble": held_out_report(rows, mean, args.budget, None),
                                 "each_seed": [held_out_report(rows, s, args.budget, None) for s in per_seed]}
    if args.shipped is not None:
        shipped = read_dump(args.shipped)
        assert [(r["writer"], r["text"]) for r in shipped] == [(r["writer"], r["text"]) for r in rows]
        s = np.array([float(r["score"]) for r in shipped])  # type: ignore[arg-type]
        report["shipped_at_0.75"] = held_out_report(rows, s, args.budget, 0.75)
        report["shipped_per_writer_point"] = held_out_report(rows, s, args.budget, None)
    t = float(report["ensemble"]["threshold"])  # type: ignore[index]
    fits = [GuardClassifier.load(p) for p in args.fit]
    ensemble = GuardClassifier.average(fits, threshold=t)
    pinned = pinned_features(args.cache_dir, args.engine)
    pins = pinned_scores(ensemble, pinned)
    report["pinned_over_T"] = {g: [(s, x[:100]) for s, x in sorted(((s, x) for gg, s, x in pins if gg == g and s >= t),
                                                                  reverse=True)] for g in ("suite", "ops", "vpn")}
    report["pinned_near_T"] = [(g, s, x[:100]) for g, s, x in sorted(pins, key=lambda p: -p[1]) if t - 0.1 <= s < t]
    report["pinned_named"] = {name: [s for g, s, x in pins if g == at and key in x]
                              for name, (at, key) in NAMED_PINS.items()}
    seeds = [pinned_scores(f, pinned) for f in fits]
    report["pinned_named_each_seed"] = {name: [[s for g, s, x in p if g == at and key in x] for p in seeds]
                                        for name, (at, key) in NAMED_PINS.items()}
    if args.save is not None:
        ensemble.save(args.save)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    e = report["ensemble"]
    print(json.dumps({k: e[k] for k in ("threshold", "pooled", "unseen_by_shipped_at_budget")}),  # type: ignore[index]
          json.dumps({k: report[k] for k in ("pinned_over_T", "pinned_named")}, ensure_ascii=False), sep="\n")


if __name__ == "__main__":
    main()
