"""Train the redaction tagger (hindsight.safety.redact_tagger): seeded, reproducible.

    PYTHONPATH=src .venv/bin/python scripts/train_redact_tagger.py            # writes safety/data/redact_tagger.json
    PYTHONPATH=src .venv/bin/python scripts/train_redact_tagger.py --hold r4  # train without r4 (leave-one-round-out)

Data: the released blind PII rounds (bench/data/blind/r*/pii/set.jsonl), the repository's own PII dev sets
(bench/data/pii_dev_r1.jsonl, pii_fresh_r1.jsonl), the round-8 and round-9 PII training sets written blind
(bench/data/train/r8T1 and r9T1 pii/set.jsonl; always in the shipped weights, held out only on request) and synthetic EN/ZH text from scripts/redact_synth.py.
Every value-shaped candidate token of every text (hindsight.safety.redact_tagger.candidates) is one example;
it is positive when it overlaps a ``secrets`` substring and does not overlap a ``keep`` substring. Model:
L2 logistic regression (scikit-learn, liblinear, deterministic) over the binary features of ``features()``;
features seen fewer than twice are dropped, and weights are rounded to 4 decimals into a JSON dict.
Needs scikit-learn (the ``train`` extra); the runtime reads the JSON only.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from redact_synth import generate  # noqa: E402

from hindsight.safety.redact_tagger import WEIGHTS, candidates, cue_index, features  # noqa: E402

ROUNDS = ("r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9")
# Released round 10 (blind r10 and the training set r10T1) is scored, never trained on: adding it to the training data
# helped no held-out round and cost one (docs/benchmarks.md, "Redaction, round 11"). bench/redaction_loro.py --rounds r10 r10T1.
EVAL_ONLY = ("r10", "r10T1")
# own dev sets and the round-8 and round-9 training sets written blind (never measured as blind, so never held out)
OWN = (ROOT / "bench/data/pii_dev_r1.jsonl", ROOT / "bench/data/pii_fresh_r1.jsonl",
       ROOT / "bench/data/train/r8T1/pii/set.jsonl", ROOT / "bench/data/train/r9T1/pii/set.jsonl")
SEED = 7
THRESHOLD = 0.9
SHORT_THRESHOLD = 0.97  # values under 10 characters (see TaggerModel)


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


# Training sets written blind that bench/redaction_loro.py may also hold out (rows of OWN; --hold takes them out).
# r21T26 / r21T27 (round 21's two PII training writers) and r22T43 / r22T44 (round 22's): registered so --hold and
# bench/redaction_tagger_rounds.py --extra can read them; not in the shipped weights (held out, adding them cost more sets
# than it helped: docs/benchmarks.md, "Redaction, round 20" and "Redaction, round 21").
TRAIN_SETS = ("r8T1", "r9T1", "r10T1", "r21T26", "r21T27", "r22T43", "r22T44", "r23T43", "r23T44")  # r10T1: scored only (EVAL_ONLY)


def round_rows(name: str) -> list[dict[str, Any]]:
    folder = "bench/data/train" if name in TRAIN_SETS else "bench/data/blind"
    return load_jsonl(ROOT / folder / name / "pii/set.jsonl")


def training_rows(hold: str | None = None, synth: int = 1600, seed: int = SEED, rounds: tuple[str, ...] = ROUNDS) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for name in rounds:
        if name != hold:
            rows += round_rows(name)
    for path in OWN:
        if path.parent.parent.name != hold:
            rows += load_jsonl(path)
    return rows + generate(synth, seed)


def _occurrences(text: str, needles: list[str]) -> list[tuple[int, int]]:
    spans = []
    for needle in needles:
        start = text.find(needle) if needle else -1
        while start >= 0:
            spans.append((start, start + len(needle)))
            start = text.find(needle, start + 1)
    return spans


def _overlaps(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    return any(s < end and start < e for s, e in spans)


def examples(rows: list[dict[str, Any]]) -> tuple[list[list[str]], list[int]]:
    X: list[list[str]] = []
    y: list[int] = []
    for row in rows:
        text = row["text"]
        secret = _occurrences(text, list(row.get("secrets") or [])) if row["kind"] == "pii" else []
        keep = _occurrences(text, list(row.get("keep") or []))
        index = cue_index(text)
        for c in candidates(text):
            X.append(features(text, c, index))
            y.append(int(_overlaps(c.start, c.end, secret) and not _overlaps(c.start, c.end, keep)))
    return X, y


def train(rows: list[dict[str, Any]], seed: int = SEED, c: float = 0.5, min_count: int = 2) -> dict[str, float]:
    from scipy.sparse import csr_matrix
    from sklearn.linear_model import LogisticRegression

    X, y = examples(rows)
    counts = Counter(f for feats in X for f in set(feats))
    vocab = {f: i for i, f in enumerate(sorted(f for f, n in counts.items() if n >= min_count and f != "bias"))}
    indptr, indices = [0], []
    for feats in X:
        indices.extend(sorted({vocab[f] for f in feats if f in vocab}))
        indptr.append(len(indices))
    matrix = csr_matrix(([1.0] * len(indices), indices, indptr), shape=(len(X), len(vocab)))
    model = LogisticRegression(C=c, solver="liblinear", random_state=seed, max_iter=2000)
    model.fit(matrix, y)
    weights = {f: round(float(model.coef_[0][i]), 4) for f, i in vocab.items() if abs(model.coef_[0][i]) >= 5e-4}
    weights["bias"] = round(float(model.intercept_[0]), 4)
    return weights


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hold", choices=ROUNDS + TRAIN_SETS, help="leave this round (or training set) out of training")
    parser.add_argument("--synth", type=int, default=1600, help="synthetic rows (scripts/redact_synth.py)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--threshold", type=float, default=THRESHOLD)
    parser.add_argument("--out", type=Path, help=f"default {WEIGHTS} (or /tmp/redact_tagger_<hold>.json with --hold)")
    args = parser.parse_args()
    rows = training_rows(args.hold, args.synth, args.seed)
    weights = train(rows, args.seed)
    out = args.out or (WEIGHTS if args.hold is None else Path(f"/tmp/redact_tagger_{args.hold}.json"))
    meta = {"rounds": [r for r in ROUNDS if r != args.hold], "own": [str(p.relative_to(ROOT)) for p in OWN], "synth": args.synth, "seed": args.seed, "rows": len(rows),
            "command": "scripts/train_redact_tagger.py" + (f" --hold {args.hold}" if args.hold else "")}
    out.write_text(json.dumps({"threshold": args.threshold, "short_threshold": SHORT_THRESHOLD, "meta": meta, "weights": dict(sorted(weights.items()))},
                              ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    print(f"{len(weights)} weights from {len(rows)} rows -> {out}")


if __name__ == "__main__":
    main()
