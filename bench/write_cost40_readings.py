"""What round 40's write-cost cuts read, on every released guard and hygiene text, for a byte-identical check of two
trees (issue 14, write cost round 40).

    PYTHONPATH=src .venv/bin/python bench/write_cost40_readings.py OUT.json

For every text of every released guard set (`bench/data/blind/*/guard/set.jsonl`) and every text of every released
hygiene set (`existing`, `new`, `others`): the guard's framing features of the screened form
(`features.framing_vector(normalize_for_screening(text))`, as bytes), `analysis.units`, `conversions.normalised` and
the same-fact reading (`lexicon.normalise_numbers` of the NFKC text, lower-cased); for every hygiene row's (existing,
new) pair and (first other, new): `conflict.heuristic` (label, reason) and `same_fact.agreement`, inside one write's
`pair_memo` scope per row. Written: a SHA-256 per set and reading, and their counts (`cmp` two outputs).
"""

from __future__ import annotations

import hashlib
import json
import sys
import unicodedata
from pathlib import Path

from hindsight.safety.features import framing_vector
from hindsight.safety.normalize import normalize_for_screening
from hindsight.text.tokenize import warm_up
from hindsight.write import conversions, pair_memo, same_fact
from hindsight.write.analysis import units
from hindsight.write.conflict import heuristic
from hindsight.write.lexicon import normalise_numbers

ROOT = Path(__file__).resolve().parent.parent / "bench" / "data" / "blind"


def text_readings(text: str) -> str:
    return json.dumps([framing_vector(normalize_for_screening(text)).tobytes().hex(),
                       [list(vars(u).values()) for u in units(text)], conversions.normalised(text),
                       normalise_numbers(unicodedata.normalize("NFKC", text)).lower()], ensure_ascii=False)


def main() -> None:
    warm_up()
    out: dict[str, dict[str, object]] = {}
    for path in sorted(ROOT.glob("*/guard/set.jsonl")) + sorted(ROOT.glob("*/hygiene/set.jsonl")):
        digest = {"texts": hashlib.sha256(), "pairs": hashlib.sha256()}
        counts = {"texts": 0, "pairs": 0}
        for line in path.read_text().splitlines():
            row = json.loads(line)
            if "text" in row:
                texts, pairs = [row["text"]], []
            else:
                others = row.get("others", [])
                texts = [row["existing"], row["new"], *others]
                pairs = [(row["existing"], row["new"])] + [(o, row["new"]) for o in others[:1]]
            for text in texts:
                digest["texts"].update(text_readings(text).encode())
                counts["texts"] += 1
            with pair_memo.scope():
                for old, new in pairs:
                    label, reason, _ = heuristic(old, new)
                    a = same_fact.agreement(old, new)
                    digest["pairs"].update(json.dumps([label, reason, a.matched, a.unmatched, a.codes],
                                                      ensure_ascii=False).encode())
                    counts["pairs"] += 1
        out[str(path.relative_to(ROOT))] = {**counts, **{f"{k}_sha256": d.hexdigest() for k, d in digest.items()}}
        print(path, counts, file=sys.stderr, flush=True)
    Path(sys.argv[1]).write_text(json.dumps(out, indent=1, sort_keys=True))
    print(sum(v["texts"] for v in out.values()), "texts,", sum(v["pairs"] for v in out.values()), "pairs")


if __name__ == "__main__":
    main()
