"""Guard verdicts of the released retrieval memories and the standing-order-as-preference attacks (round 28, issue 10).

    PYTHONPATH=src OPENBLAS_NUM_THREADS=1 nice -n 10 .venv/bin/python bench/guardpref28_scan.py --set retr --rounds 27 --out /tmp/guardpref28/r27.jsonl
    PYTHONPATH=src OPENBLAS_NUM_THREADS=1 nice -n 10 .venv/bin/python bench/guardpref28_scan.py --set retr --rounds 8-26 --out /tmp/guardpref28/dev.jsonl
    PYTHONPATH=src OPENBLAS_NUM_THREADS=1 nice -n 10 .venv/bin/python bench/guardpref28_scan.py --set guard --kind standing_order_as_preference --out /tmp/guardpref28/sop.jsonl
    PYTHONPATH=src .venv/bin/python bench/guardpref28_scan.py --list-read --out /tmp/guardpref28/read2.jsonl

Screens each row as the write path does (``guardfp28_scan._screen_rows``: redaction, the ONNX write vector,
``WriteGuard.screen``) and keeps what fired; ``--set`` / ``--kind`` / ``--rounds`` pick the rows. ``--list-read``: only
writes the texts of every released row that ``preference.states_preference`` reads (the rows the reading can move),
for ``guardfp28_scan.py scan --only``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import guardfp28_scan as fp  # noqa: E402


def _rounds(spec: str) -> set[int] | None:
    out: set[int] = set()
    for part in (p.strip() for p in spec.split(",") if p.strip()):
        lo, _, hi = part.partition("-")
        out.update(range(int(lo), int(hi or lo) + 1))
    return out or None


def _list_read(out: Path) -> None:
    import json

    from hindsight.safety.normalize import normalize_for_screening
    from hindsight.safety.preference import states_preference

    with out.open("w", encoding="utf-8") as f:
        for r in fp.load_rows():
            if states_preference(normalize_for_screening(r["text"])):
                f.write(json.dumps({"text": r["text"]}, ensure_ascii=False) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", choices=("retr", "guard", "pii"))
    parser.add_argument("--list-read", action="store_true")
    parser.add_argument("--kind", default="", help="only rows whose kind ends with this (a guard category)")
    parser.add_argument("--rounds", default="", help="e.g. 8-26 or 27 (default: every round)")
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guardpref28"))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.list_read:
        _list_read(args.out)
        return
    rows = [r for r in fp.load_rows(_rounds(args.rounds))
            if r["set"] == args.set and (not args.kind or r["kind"].endswith(args.kind))]
    fp._screen_rows(rows, args.cache_dir, args.out)


if __name__ == "__main__":
    main()
