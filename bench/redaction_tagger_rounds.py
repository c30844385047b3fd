"""Which released rounds the redaction tagger is trained on, chosen leave-one-round-out (round 15).

    PYTHONPATH=src .venv/bin/python bench/redaction_tagger_rounds.py [--extra r11 r12 r13 r14 r15 r16] [--sweep 0.8 0.85]

The shipped tagger is trained on r1-r9 (scripts/train_redact_tagger.py ROUNDS) and the own sets. For every scored
round H (r1-r16, r8T1, r9T1, r10T1) two taggers are trained without H - on the shipped rounds ("base") and on the
shipped rounds plus ``--extra`` ("extended") - and ``redact()`` runs on H's texts with each. H never trains the
tagger that scores it, so every number is held out. ``--sweep`` also scores the base tagger at other thresholds. r10 and r10T1 stay scored-only as before. Writes
bench/results/redaction_tagger_rounds.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "bench"))

from redaction_loro import score  # noqa: E402
from train_redact_tagger import ROUNDS, SHORT_THRESHOLD, THRESHOLD, round_rows, train, training_rows  # noqa: E402

from hindsight.safety.redact_tagger import TaggerModel  # noqa: E402

SCORED = (*ROUNDS, "r10", "r11", "r12", "r13", "r14", "r15", "r16", "r8T1", "r9T1", "r10T1")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--extra", nargs="+", default=["r11", "r12", "r13", "r14", "r15", "r16"])
    parser.add_argument("--rounds", nargs="+", default=list(SCORED))
    parser.add_argument("--synth", type=int, default=1600)
    parser.add_argument("--sweep", nargs="*", type=float, default=[],
                        help="also score the base tagger at these thresholds (long values; short ones stay at 0.97 unless below)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/redaction_tagger_rounds.json")
    args = parser.parse_args()
    result: dict[str, Any] = {}
    for hold in args.rounds:
        rows = round_rows(hold)
        entry = {}
        for name, rounds in (("base", ROUNDS), ("extended", (*ROUNDS, *args.extra))):
            model = TaggerModel(train(training_rows(hold, args.synth, rounds=tuple(rounds))), THRESHOLD, SHORT_THRESHOLD)
            entry[name] = score(rows, model)
            if name == "base":
                for t in args.sweep:
                    entry[f"base@{t}"] = score(rows, TaggerModel(model.weights, t, max(t, SHORT_THRESHOLD)))
        result[hold] = entry
        b, e = entry["base"], entry["extended"]
        print(f"{hold:6s} base {b['pii_removed_fact_kept']:.3f} / {b['lookalikes_untouched']:.3f}   "
              f"extended {e['pii_removed_fact_kept']:.3f} / {e['lookalikes_untouched']:.3f}   "
              + "  ".join(f"{k} {v['pii_removed_fact_kept']:.3f} / {v['lookalikes_untouched']:.3f}" for k, v in entry.items() if "@" in k),
              flush=True)
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
