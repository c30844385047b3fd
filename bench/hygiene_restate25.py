"""Hygiene round 25: the rows of the released hygiene sets that `write/negation_read.py` and `write/value_written.py`
can reach, for a replay through the engine on main and on the branch.

    PYTHONPATH=src:bench python bench/hygiene_restate25.py pairs --out PAIRS.json
    PYTHONPATH=src:bench python bench/hygiene_alias.py compare MAIN.json BRANCH.json --out REPORT.json

`pairs`: every row of `hygiene_funnel.ROUNDS` (the released blind rounds and the training sets) where some two of
its texts (others, existing, new, in the order they are stored; each read as the judge reads it, after
`conversions.written_alike`) state values that read equal and differ in negation parity (`analysis.polarity_flip`:
where `negation_read` may open the value gate), or where a text's canonical values differ with `value_written`'s
forms read and not read. Every other row is judged as on main by construction, so running only these rows through
`hygiene_funnel.py --pairs` on main and on the branch gives the whole before -> after. No fitted parameter:
leave-one-round-out equals the in-sample run. docs/benchmarks.md "Hygiene, round 25".
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from hygiene_funnel import ROUNDS
from hygiene_stack import _set_rows

import hindsight.write.value_canon as value_canon
from hindsight.write import value_written
from hindsight.write.analysis import analyse
from hindsight.write.conversions import written_alike


def _canon_without_written(texts: set[str]) -> dict[str, tuple[frozenset[str], ...]]:
    """Each text's canonical values with `value_written`'s forms not read (main's reading)."""
    saved = list(value_canon._EXTRA)
    value_canon._EXTRA[:] = [(k, p) for k, p in saved if k not in value_written.KINDS]
    value_canon._read.cache_clear()
    try:
        return {t: value_canon.canonical_values(t) for t in texts}
    finally:
        value_canon._EXTRA[:] = saved
        value_canon._read.cache_clear()


def pairs(out: Path) -> None:
    rows = {(rnd, i): row for rnd in ROUNDS for i, row in enumerate(_set_rows(rnd))}
    texts = {t for row in rows.values() for t in [*row.get("others", []), row["existing"], row["new"]]}
    before = _canon_without_written(texts)
    read = {t for t in texts if value_canon.canonical_values(t) != before[t]}
    found: list[str] = []
    for (rnd, i), row in rows.items():
        seq = [*row.get("others", []), row["existing"], row["new"]]
        hit = bool(read & set(seq))
        for y in range(1, len(seq)):
            for x in range(y):
                if hit:
                    break
                old, new = written_alike(seq[x], seq[y])
                hit = value_canon.value_match(old, new).equal and analyse(old, new).polarity_flip
        if hit:
            found.append(f"{rnd}:{i}")
    out.write_text(json.dumps(sorted(found)) + "\n", encoding="utf-8")
    print(len(read), "texts read differently,", len(found), "rows the readings can reach")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pairs")
    p.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    pairs(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
