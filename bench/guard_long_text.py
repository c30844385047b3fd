"""Round 23 (issue 10): which released texts the long-text reading (``safety/long_text.py``) moves, shipped weights.

Only a text over ``long_text.LONG_WORDS`` words is read differently, so every text is checked and only the long ones
are screened twice: as main reads them (the reading switched off) and as the branch does. Prints every text whose
decision moves, and the training texts' length distribution the bound was chosen from.

    PYTHONPATH=src .venv/bin/python bench/guard_long_text.py --out bench/results/guard_long_text23.json
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from unittest import mock

import numpy as np

from hindsight.safety import guard as guard_module
from hindsight.safety.long_text import is_long, words
from hindsight.safety.normalize import prepare

ROOT = Path(__file__).resolve().parents[1]


def _jsonl(path: Path, key: str) -> list[tuple[str, str]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            record = json.loads(line)
            out.append((str(record[key]), str(record.get("label", "benign"))))
    return out


def sources() -> dict[str, list[tuple[str, str]]]:
    """Every released guard set (blind, training, our own), the retrieval memories and the fixed suite sets."""
    sets: dict[str, list[tuple[str, str]]] = {}
    for path in sorted(ROOT.glob("src/hindsight/safety/data/guard_*.jsonl")):
        sets[path.name] = _jsonl(path, "text")
    for path in sorted([*ROOT.glob("bench/data/blind/*/guard/*.jsonl"), *ROOT.glob("bench/data/train/*/guard/*.jsonl")]):
        sets[str(path.relative_to(ROOT / "bench" / "data"))] = _jsonl(path, "text")
    for path in sorted([*ROOT.glob("bench/data/blind/*/retrieval/memories.jsonl"),
                        *ROOT.glob("bench/data/train/*/retrieval/memories.jsonl")]):
        sets[str(path.relative_to(ROOT / "bench" / "data"))] = _jsonl(path, "content")
    for name, label in (("guard_benign_fixed.json", "benign"), ("guard_suite_quarantined.json", "attack")):
        records = json.loads((ROOT / "tests" / "data" / name).read_text(encoding="utf-8"))
        sets[f"tests/{name}"] = [(str(r["content"]), label) for r in records]
    return sets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    sets = sources()
    guard = guard_module.WriteGuard()
    lengths = [words(prepare(t).text) for name, rows in sets.items() if "retrieval" not in name for t, _ in rows]
    rows_out, moved = [], []
    total = 0
    for name, rows in sets.items():
        for i, (text, label) in enumerate(rows):
            total += 1
            if not is_long(prepare(text).text):
                continue
            after = guard.screen(text)
            with mock.patch.object(guard_module, "is_long", lambda _text: False):
                before = guard.screen(text)
            row = {"set": name, "index": i, "label": label, "words": words(prepare(text).text),
                   "before": [before.suspicious, round(before.score, 3), before.reasons],
                   "after": [after.suspicious, round(after.score, 3), after.reasons], "head": text[:80]}
            rows_out.append(row)
            if before.suspicious != after.suspicious:
                moved.append(row)
    a = np.array(lengths)
    summary = {"texts": total, "long": len(rows_out), "moved": len(moved),
               "guard_text_words_p50_p99_p999_max": [float(np.percentile(a, p)) for p in (50, 99, 99.9, 100)],
               "rows": rows_out}
    args.out.write_text(json.dumps(summary, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"{total} texts, {len(rows_out)} long, {len(moved)} decisions moved")
    for row in rows_out:
        mark = "MOVED" if row in moved else "same "
        print(mark, row["set"], row["index"], row["label"], row["words"], row["before"][:2], "->", row["after"][:2],
              row["head"][:60].replace("\n", " "))


if __name__ == "__main__":
    main()
