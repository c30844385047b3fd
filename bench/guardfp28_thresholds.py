"""The threshold each released row is judged at, read without the classifier (round 28, issue 10).

    PYTHONPATH=src .venv/bin/python bench/guardfp28_thresholds.py --cache /tmp/guardfp28/red.json --out /tmp/guardfp28/thr_branch.jsonl
    PYTHONPATH=/work/main/src /work/main/.venv/bin/python bench/guardfp28_thresholds.py --cache /tmp/guardfp28/red.json --out /tmp/guardfp28/thr_main.jsonl

Every row of ``bench/guardfp28_scan.load_rows`` (every released blind guard, PII and retrieval row), redacted as the
write path redacts it (cached by text: the redaction is the same code in both checkouts), then read by
``WriteGuard.threshold_for`` with a stand-in classifier (threshold 0.655) and whether a hard rule fires. A change
that only raises thresholds can move a row only where the two files differ: those rows are the ones to screen with the
real classifier (``guardfp28_scan.py rescreen``-style), every other row keeps main's verdict.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parents[1]


class _Stub:
    threshold = 0.655

    def attack_score(self, embedding: object, normalised: str) -> tuple[float, str | None]:
        return 0.0, None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "bench"))
    from guardfp28_scan import load_rows

    from hindsight.safety.classifier import GuardClassifier
    from hindsight.safety.guard import WriteGuard
    from hindsight.safety.hiding import hides_wording
    from hindsight.safety.normalize import prepare
    from hindsight.safety.redact import redactor
    from hindsight.safety.view import feature_view

    # Only a row that carries a value (a placeholder, a template or a stand-in after redaction) can have its threshold
    # moved by a carried-value reading; the others are not read (same filter in both checkouts).
    raw_filter = re.compile(r"[0-9@<=]|key|pass|token|secret|pwd|iban|密|钥|令牌|卡|账", re.I)
    carried_filter = re.compile(r"\[pii-|<|pass|key|token|secret|pwd|密|钥|令牌")
    rows = [r for r in load_rows() if raw_filter.search(r["text"])]
    cache: dict[str, str] = json.loads(args.cache.read_text(encoding="utf-8")) if args.cache.exists() else {}
    todo = [r["text"] for r in rows if r["text"] not in cache]
    for text in dict.fromkeys(todo):
        cache[text] = redactor(text)[0]
    if todo:
        args.cache.write_text(json.dumps(cache, ensure_ascii=False), encoding="utf-8")
    guard = WriteGuard(classifier=cast(GuardClassifier, _Stub()))
    with args.out.open("w", encoding="utf-8") as out:
        for r in rows:
            red = cache[r["text"]]
            prepared = prepare(red)
            if not carried_filter.search(prepared.text):
                continue
            view = feature_view(prepared.text)
            hard = guard._hard(prepared, guard._rule_hits(prepared, view))
            t = guard.threshold_for(view, prepared.text, hidden=hides_wording(red, prepared))
            out.write(json.dumps({k: r[k] for k in ("round", "set", "attack", "kind", "lang")} | {
                "text": r["text"], "threshold": round(t, 4), "hard": hard}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
