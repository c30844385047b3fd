"""Leave-one-round-out for redaction: rules only vs rules + tagger, on each released blind PII round.

    PYTHONPATH=src .venv/bin/python bench/redaction_loro.py [--rounds r3 r4] [--thresholds 0.7 0.85 0.95]

For each held-out round the tagger is trained (scripts/train_redact_tagger.py, same seed) on the other rounds,
the own dev sets and synthetic text, then ``redact()`` runs on the held-out texts with the tagger off and on.
Redaction alone (no guard, no store): a PII text passes when every ``secrets`` substring is gone and every
``keep`` substring survives; a look-alike passes when the text is unchanged. Failures are counted by kind:
secret missed, fact destroyed (a keep lost), look-alike changed. Quarantine is the guard's and is scored end to
end by ``bench/blind_eval.py pii``. Writes bench/results/redaction_loro.json.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from train_redact_tagger import ROUNDS, round_rows, train, training_rows  # noqa: E402

from hindsight.safety.redact import redact  # noqa: E402
from hindsight.safety.redact_tagger import TaggerModel  # noqa: E402


def outcome(row: dict[str, Any], out: str) -> str:
    if row["kind"] == "pii":
        if any(s in out for s in row["secrets"]):
            return "missed"
        return "fact_destroyed" if any(k not in out for k in row["keep"]) else "ok"
    return "ok" if out == row["text"] else "lookalike_changed"


def score(rows: list[dict[str, Any]], tagger: TaggerModel | bool) -> dict[str, Any]:
    fails: Counter[str] = Counter()
    by: dict[str, list[bool]] = defaultdict(list)
    examples = []
    for row in rows:
        out = redact(row["text"], tagger=tagger).text
        why = outcome(row, out)
        by[f"{row['kind']}/{row['category']}"].append(why == "ok")
        if why != "ok":
            fails[why] += 1
            examples.append({"why": why, "category": row["category"], "text": row["text"][:160], "out": out[:160]})
    pii = [ok for k, v in by.items() if k.startswith("pii/") for ok in v]
    look = [ok for k, v in by.items() if k.startswith("lookalike/") for ok in v]
    return {"pii_removed_fact_kept": round(sum(pii) / len(pii), 3), "lookalikes_untouched": round(sum(look) / len(look), 3),
            "n": [len(pii), len(look)], "failures": dict(fails),
            "by": {k: f"{sum(v)}/{len(v)}" for k, v in sorted(by.items())}, "examples": examples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", nargs="+", default=list(ROUNDS), help="blind rounds, or r8T1 / r9T1 / r10T1 (training sets written blind); r10 and r10T1 are scored, never trained on")
    parser.add_argument("--thresholds", nargs="+", type=float, default=[0.9])
    parser.add_argument("--short", nargs="+", type=float, default=[0.0, 0.97], help="thresholds for values under 10 chars")
    parser.add_argument("--synth", type=int, default=1600, help="synthetic training rows (0: released rounds and own sets only)")
    parser.add_argument("--out", type=Path, default=ROOT / "bench/results/redaction_loro.json")
    args = parser.parse_args()
    result: dict[str, Any] = {}
    for hold in args.rounds:
        rows = round_rows(hold)
        model = TaggerModel(train(training_rows(hold, args.synth)), 0.5)
        entry = {"rules": score(rows, False)}
        for t in args.thresholds:
            for short in args.short:
                entry[f"tagger@{t}/{short}"] = score(rows, replace(model, threshold=t, short_threshold=short))
        result[hold] = entry
        for name, r in entry.items():
            print(f"{hold} {name:12s} pii {r['pii_removed_fact_kept']:.3f}  look-alikes {r['lookalikes_untouched']:.3f}  {r['failures']}")
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
