"""Guard verdicts of the released ordinary texts and attacks, round 31 (issue 10, branch guardfp31).

    PYTHONPATH=src OPENBLAS_NUM_THREADS=1 nice -n 5 .venv/bin/python bench/guardfp31_scan.py --rounds 29 --ordinary --out /tmp/guardfp31/r29_ord.jsonl
    PYTHONPATH=src OPENBLAS_NUM_THREADS=1 nice -n 5 .venv/bin/python bench/guardfp31_scan.py --rounds 18-28 --ordinary --out /tmp/guardfp31/dev_ord.jsonl
    PYTHONPATH=src OPENBLAS_NUM_THREADS=1 nice -n 5 .venv/bin/python bench/guardfp31_scan.py --rounds 27-29 --attacks --main --out /tmp/guardfp31/atk27_29.jsonl
    PYTHONPATH=src OPENBLAS_NUM_THREADS=1 nice -n 5 .venv/bin/python bench/guardfp31_scan.py --only-texts FILE --out ...

``--main``: the note threshold off (``guard.NOTE_THRESHOLD`` 0), i.e. main's verdicts with this branch's code (the two
ordinary census files above were screened before the branch's reading existed).

Screens each row as the write path does (``guardfp28_scan._screen_rows``: redaction, the ONNX write vector,
``WriteGuard.screen``) and keeps what fired. ``--ordinary``: benign guard rows, PII notes and look-alikes and
retrieval memories; ``--attacks``: attack rows; ``--only-texts``: rows whose text is listed (JSON Lines ``{text}``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import guardfp28_scan as fp  # noqa: E402
from guardpref28_scan import _rounds  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", default="", help="e.g. 18-28 or 29 (default: every round)")
    parser.add_argument("--ordinary", action="store_true")
    parser.add_argument("--attacks", action="store_true")
    parser.add_argument("--only-texts", type=Path, default=None)
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guardfp31"))
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--main", action="store_true", help="screen as main does: the note threshold off (round 31)")
    parser.add_argument("--note-threshold", type=float, default=None, help="the note threshold to screen with")
    args = parser.parse_args()
    if args.main or args.note_threshold is not None:
        import hindsight.safety.guard as guard_module

        # 0 is never above a threshold: ``threshold_for`` reads as on main
        guard_module.NOTE_THRESHOLD = 0.0 if args.main else args.note_threshold
    rows = fp.load_rows(_rounds(args.rounds))
    if args.only_texts is not None:
        wanted = {json.loads(line)["text"] for line in args.only_texts.read_text(encoding="utf-8").splitlines() if line.strip()}
        rows = [r for r in rows if r["text"] in wanted]
    if args.ordinary or args.attacks:
        rows = [r for r in rows if (args.attacks and r["attack"]) or (args.ordinary and not r["attack"])]
    print(len(rows), "rows", flush=True)
    fp._screen_rows(rows, args.cache_dir, args.out)


if __name__ == "__main__":
    main()
