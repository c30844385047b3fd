"""Candidate C of round 31 (issue 10): the classifier's score on the guard's own vector beside the write path's.

    PYTHONPATH=src OPENBLAS_NUM_THREADS=1 nice -n 5 .venv/bin/python bench/guardfp31_views.py \\
        --ordinary /tmp/guardfp31/r29_ord.jsonl,/tmp/guardfp31/dev_ord.jsonl \\
        --attacks /tmp/guardfp31/atk_r1_26_guardatk31.jsonl,/tmp/guardfp31/atk27_29.jsonl --out /tmp/guardfp31/views.jsonl

For every row main quarantined on the classifier alone (``guardfp31_table.load``: ``movable``), the score of the C
kernel's vector of the normalised redacted text (cached in ``--cache-dir`` as ``guardfp28_scan`` caches it), written with
the write-path score and the threshold that applied. Ordinary rows first, then attacks by rising score.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import guardfp28_scan as fp  # noqa: E402
import guardfp31_table as tb  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ordinary", required=True)
    parser.add_argument("--attacks", required=True)
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guardfp31"))
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    from hindsight.safety.classifier import get_classifier
    from hindsight.safety.normalize import normalize_for_screening

    rows = [r for r in tb.load([Path(p) for p in args.ordinary.split(",")], [Path(p) for p in args.attacks.split(",")])
            if r["movable"]]
    rows.sort(key=lambda r: (r["attack"], r["score"]))
    embed = fp._cached_embedder(args.cache_dir)
    clf = get_classifier()
    done = set()
    if args.out.exists():
        done = {json.loads(line)["text"] for line in args.out.read_text(encoding="utf-8").splitlines() if line.strip()}
    with args.out.open("a", encoding="utf-8", buffering=1) as out:
        for i in range(0, len(rows), 32):
            chunk = [r for r in rows[i : i + 32] if r["text"] not in done]
            if not chunk:
                continue
            vectors = embed([r["text"] for r in chunk])
            for r, v in zip(chunk, vectors, strict=True):
                second, _ = clf.attack_score(v, normalize_for_screening(r["text"]))
                threshold = tb._threshold(r["text"]) if r["attack"] else None
                out.write(json.dumps({k: r[k] for k in ("round", "set", "kind", "attack", "score", "text")}
                                     | {"second": round(float(second), 4), "threshold": threshold}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
