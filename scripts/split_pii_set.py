"""Split a PII/look-alike JSONL set into a tuning part and a held-out part, stratified by category.

    .venv/bin/python scripts/split_pii_set.py IN.jsonl OUT.jsonl --held 0.4

Each row gets ``"split": "train"`` or ``"held"``. Inside each category the rows are ordered by a
SHA-1 of their text (deterministic, independent of file order) and the first ``round(held * n)``
become held-out; ``bench/redaction.py --split held`` then scores only those.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import defaultdict
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("source", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--held", type=float, default=0.4, help="share of each category held out")
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.source.read_text(encoding="utf-8").splitlines() if line.strip()]
    by_category: dict[str, list[int]] = defaultdict(list)
    for i, row in enumerate(rows):
        by_category[f"{row['kind']}/{row['category']}"].append(i)
    held: set[int] = set()
    for indices in by_category.values():
        indices.sort(key=lambda i: hashlib.sha1(rows[i]["text"].encode("utf-8")).hexdigest())
        held.update(indices[: round(args.held * len(indices))])
    with args.out.open("w", encoding="utf-8") as fh:
        for i, row in enumerate(rows):
            fh.write(json.dumps({**row, "split": "held" if i in held else "train"}, ensure_ascii=False) + "\n")
    print(f"{len(held)} held out, {len(rows) - len(held)} to tune on -> {args.out}")


if __name__ == "__main__":
    main()
