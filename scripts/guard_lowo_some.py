"""Round 19: ``guard_lowo_fast.py``'s folds for a few writer groups only - the writers the shipped guard never saw.

    PYTHONPATH=src .venv/bin/python scripts/guard_lowo_some.py --cache-dir /tmp/guard19 --retrieval \
        --hold blind-r17 --hold retr-r8 --hold retr-r11 --hold retr-r15 --variant no_retr --variant base --out rep.json
    PYTHONPATH=src .venv/bin/python scripts/guard_lowo_some.py --table rep.json 0.655      # the docs' table

A full grouped run fits 30 folds per variant (about 45 minutes a variant on the shared machine at a load of 13); a
candidate's effect on the writers the shipped ensemble never saw (blind r17 / r17b, the retrieval memories of r8 to
r17) needs only the folds that hold them out. Each ``--hold`` names a writer; its whole group (``GROUPS``,
``RETRIEVAL_GROUPS``) is held out and scored by a fit on every other writer, as the full run would. Reported at fixed
thresholds (the shipped T and its neighbours), per held-out writer: attacks caught / benign flagged, and the benign
texts held. No pooled operating point: that needs every fold (``guard_lowo_fast.py``).
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
sys.path.insert(0, str(ROOT / "scripts"))

import guard_lowo_fast as lf  # noqa: E402
import guard_model as gm  # noqa: E402
import guard_variants as gv  # noqa: E402
from guard_lowo import OWN  # noqa: E402
from train_guard import CONFIGS  # noqa: E402

from hindsight.safety.classifier import GuardClassifier  # noqa: E402

THRESHOLDS = (0.6, 0.625, 0.655, 0.7, 0.75)


def held_report(scores: np.ndarray, writers: np.ndarray, is_attack: np.ndarray) -> dict[str, object]:
    out: dict[str, object] = {}
    for t in THRESHOLDS:
        out[str(t)] = {w: {**gm.rates(scores[writers == w], is_attack[writers == w], t),
                           "benign_held": int(np.sum((scores >= t) & (writers == w) & ~is_attack))}
                       for w in dict.fromkeys(writers)}
    return out


def table(path: Path, t: str) -> None:
    """The docs' table of an ``--out`` file at threshold ``t``: held-out writer x variant, "caught / flagged" (held)."""
    reports = json.loads(path.read_text(encoding="utf-8"))
    print("| held-out writer (T " + t + ") | " + " | ".join(str(r["variant"]) for r in reports) + " |")
    print("|---" * (len(reports) + 1) + "|")
    for w in reports[-1]["held"][t]:
        cells = []
        for r in reports:
            x = r["held"][t][w]
            cells.append(f"{x['detection_rate']:.3f} / {x['false_positive_rate']:.3f}" if x["n_attack"]
                         else f"{x['benign_held']} of {x['n_benign']}")
        print(f"| {w} | " + " | ".join(cells) + " |")
    total = [sum(x["benign_held"] for w, x in r["held"][t].items() if w.startswith("retr-")) for r in reports]
    print("| retrieval memories held, total | " + " | ".join(map(str, total)) + " |")


def main() -> None:
    if sys.argv[1:2] == ["--table"]:  # --table OUT [T]
        table(Path(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "0.655")
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache-dir", type=Path, required=True)
    parser.add_argument("--hold", action="append", required=True, help="a writer; its group is held out")
    parser.add_argument("--variant", action="append", default=[], choices=sorted(gv.VARIANTS))
    parser.add_argument("--retrieval", action="store_true")
    parser.add_argument("--engine", choices=lf.ENGINES, default="onnx")
    parser.add_argument("--plain-stride", type=int, default=4)
    parser.add_argument("--bag", type=int, default=2)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    examples = lf.selected_examples(args.plain_stride, False, args.retrieval)
    redacted, normalised, gate, hard = gm._prepared_cached([e.text for e in examples], args.cache_dir)
    vectors = lf.runtime_vectors(redacted, args.cache_dir, args.engine)
    lex = gm._structured_cached(normalised, args.cache_dir)
    plain = np.array([e.writer == gm.PLAIN_WRITER or e.writer.startswith("retr-") for e in examples])
    blind = np.array([e.writer not in (OWN, gm.PLAIN_WRITER) for e in examples])
    base = gm.Features(vectors, vectors, lex, gate, hard, blind, plain)
    y = np.array([gm.label_index(e) for e in examples])
    writers = np.array([e.writer for e in examples])
    folds = [g for g in lf.GROUPS + lf.RETRIEVAL_GROUPS if set(g) & set(args.hold)]
    reports = []
    for name in args.variant or ["base"]:
        variant = gv.VARIANTS[name]
        assert variant.patch is None, "a patching variant runs alone in guard_lowo_fast.py"
        extra = variant.features(normalised) if variant.features else np.zeros((len(y), 0), np.float32)
        f = replace(base, lex=np.hstack([base.lex, extra]).astype(np.float32))
        cfg = replace(CONFIGS[0], bag=args.bag, **variant.config)
        weight = variant.weights(examples) if variant.weights else None
        scores = np.full(len(y), np.nan)
        t0 = time.time()
        if name.startswith("shipped"):
            scores = gm.attack_prob(GuardClassifier.load(), f.raw, f)
        else:
            for fold in folds:
                mask = np.isin(writers, fold)
                clf = gv.fit_weighted(f.take(~mask), y[~mask], cfg, args.seed, None if weight is None else weight[~mask])
                scores[mask] = gm.attack_prob(clf, f.raw[mask], f.take(mask))
        held = np.isin(writers, [w for g in folds for w in g])
        rep = {"variant": name, "seed": args.seed, "folds": folds, "seconds": round(time.time() - t0),
               "extra_features": int(extra.shape[1]),
               "held": held_report(scores[held], writers[held], y[held] > 0)}
        print(json.dumps({"variant": name, "seconds": rep["seconds"],
                          "at_0.655": rep["held"]["0.655"]}, ensure_ascii=False), flush=True)  # type: ignore[index]
        reports.append(rep)
        args.out.write_text(json.dumps(reports, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
