"""Attack round 30: can the credibility gates of hygiene and consolidation move a released measure?

The round-30 gates act only on a pair (hygiene) or a merge group (consolidation) whose credibilities differ: a
restatement less credible than the memory it restates is linked instead of merged, and a merge group is cut to the
members within 0.3 of its most credible one. This counts the released hygiene rows that give a memory a source or a
credibility (every bench writer stores both sides of a row with one default source otherwise) and reads which sources
the hygiene and consolidation benches write, so the claim "no measure can move" is checked, not assumed.

    .venv/bin/python bench/hygiene_credibility_r30.py > bench/results/hygiene_credibility_r30.json
"""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETS = sorted((ROOT / "bench/data/blind").glob("*/hygiene/set.jsonl")) + [
    ROOT / "src/hindsight/data/hygiene_pairs.jsonl", ROOT / "bench/data/hygiene_fresh_pairs.jsonl"]
WRITERS = ["bench/pair_outcome.py", "bench/hygiene.py", "bench/consolidation.py"]
KEYS = ("source", "credibility")


def carries(row: object) -> bool:
    """Whether a row (or any memory it lists) names a source or a credibility."""
    if isinstance(row, dict):
        return any(k in row for k in KEYS) or any(carries(v) for v in row.values())
    if isinstance(row, list):
        return any(carries(v) for v in row)
    return False


rows = with_claim = 0
for path in SETS:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            rows += 1
            with_claim += carries(json.loads(line))
sources = {w: sorted(set(re.findall(r'"source":\s*"(\w+)"', (ROOT / w).read_text(encoding="utf-8"))))
           for w in WRITERS}
print(json.dumps({"hygiene_sets": len(SETS), "rows": rows, "rows_with_source_or_credibility": with_claim,
                  "sources_the_bench_writers_set": sources}, indent=1))
