"""Spans45: every released hygiene and pii set written through the engine, what it stored dumped for a byte-for-byte
comparison of two source trees (docs/benchmarks.md "Cleanup, round 45: the redactor's findings reach the value
digests").

Run once per tree, then compare the two dumps:

    PYTHONPATH=/tmp/spans45_base/src .venv/bin/python bench/spans45_equiv.py --out /tmp/spans45_before.jsonl
    PYTHONPATH=src .venv/bin/python bench/spans45_equiv.py --out /tmp/spans45_after.jsonl
    cmp /tmp/spans45_before.jsonl /tmp/spans45_after.jsonl
    .venv/bin/python bench/spans45_equiv.py --compare /tmp/spans45_before.jsonl /tmp/spans45_after.jsonl \
        --out bench/results/spans45/equiv.json

Each set file gets a fresh SQLite store (the word-bag test embedder, the guard's rules - its classifier costs ~2 s a
text on the shared machine and reads only the redacted text -, hygiene off - it reads the digests after they are
computed and costs ~0.1 s a write -, redaction on) whose per-store secrets are one fixed value, so the keyed
digests of two runs compare. Writes: a hygiene row's `others`, `existing` and `new` as plain writes in the row's own namespace, then `existing` updated to
`new`'s text (the update path); a pii row's `text` as a keyed write (fingerprint + write), then every pii text again
through `import_jsonl` without an exported id (the import's content key). One line per set: each outcome (action,
status, redaction kinds, reason with memory ids masked) and each stored record (content, context, tags, metadata,
value digests, status, reason), in store order.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from bag_embedder import BagEmbedder  # noqa: E402

from hindsight.config import HindsightSettings  # noqa: E402
from hindsight.engine import MemoryEngine  # noqa: E402

BLIND = Path(__file__).resolve().parent / "data" / "blind"
_ID = re.compile(r"mem_[0-9a-f]{32}")


def set_files(kinds: tuple[str, ...] = ("hygiene", "pii")) -> list[Path]:
    return sorted(p for kind in kinds for p in BLIND.glob(f"r*/{kind}/*.jsonl"))


def _masked(value: Any) -> Any:
    return json.loads(_ID.sub("mem_*", json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)))


def _outcome(outcome: Any) -> dict[str, Any]:
    return _masked({"action": outcome.action, "status": outcome.status.value, "redactions": outcome.redactions,
                    "reason": outcome.reason})


def run_set(path: Path, limit: int | None) -> dict[str, Any]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()][:limit]
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "m.db"
        engine = MemoryEngine.open(db, settings=HindsightSettings(db=db, guard="rules", hygiene=False), embedder=BagEmbedder(words=True))
        engine.store.kept_secret = lambda key: "5" * 64  # type: ignore[method-assign]  # one key for both trees
        outcomes: list[dict[str, Any]] = []
        pii: list[str] = []
        for i, row in enumerate(rows):
            ns = f"row{i}"
            if "existing" in row:
                for other in row.get("others") or []:
                    outcomes.append(_outcome(engine.store_memory({"content": other, "namespace": ns})))
                first = engine.store_memory({"content": row["existing"], "namespace": ns,
                                             "type": row.get("type", "semantic")})
                outcomes.append(_outcome(first))
                outcomes.append(_outcome(engine.store_memory({"content": row["new"], "namespace": ns,
                                                              "type": row.get("type", "semantic")})))
                if first.action != "duplicate":
                    try:
                        updated = engine.update(first.memory_id, {"content": row["new"]}, ns)
                        outcomes.append({"update": updated.content, "status": updated.status.value})
                    except Exception as exc:  # a memory hygiene retired or the guard refused: the error is the output
                        outcomes.append({"update_error": _ID.sub("mem_*", f"{type(exc).__name__}: {exc}")})
            elif "text" in row:
                pii.append(row["text"])
                outcomes.append(_outcome(engine.store_memory({"content": row["text"], "namespace": ns},
                                                             idempotency_key=f"key{i}")))
        if pii:
            lines = [json.dumps({"content": text, "namespace": "imported"}) for text in pii]
            outcomes += [_outcome(o) for o in engine.import_jsonl(lines)]
        stored = [_masked({"ns": r.namespace, "content": r.content, "context": r.context, "tags": r.tags,
                           "metadata": r.metadata, "digests": r.value_digests, "status": r.status.value,
                           "reason": r.status_reason}) for r in engine.store.iter_all()]
        engine.close()
    return {"set": str(path.relative_to(BLIND)), "rows": len(rows), "outcomes": outcomes, "stored": stored}


def compare(before: Path, after: Path) -> dict[str, Any]:
    """Per set: both sides' sha256, whether they are byte-identical, and what the set stored."""
    a, b = before.read_text(encoding="utf-8").splitlines(), after.read_text(encoding="utf-8").splitlines()
    sets = []
    for left, right in zip(a, b):
        dump = json.loads(right)
        sets.append({"set": dump["set"], "rows": dump["rows"], "stored": len(dump["stored"]),
                     "with_digests": sum(1 for r in dump["stored"] if r["digests"]),
                     "redacted": sum(1 for r in dump["stored"] if "[REDACTED:" in r["content"]),
                     "sha256_before": hashlib.sha256(left.encode()).hexdigest(),
                     "sha256_after": hashlib.sha256(right.encode()).hexdigest(), "identical": left == right})
    total = {key: sum(s[key] for s in sets) for key in ("rows", "stored", "with_digests", "redacted")}
    return {"sets": len(sets), "lines_before": len(a), "lines_after": len(b),
            "identical": len(a) == len(b) and all(s["identical"] for s in sets), **total, "per_set": sets}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--compare", nargs=2, type=Path, default=None, metavar=("BEFORE", "AFTER"),
                        help="compare two dumps; --out gets the summary JSON")
    parser.add_argument("--limit", type=int, default=None, help="rows per set (default: all)")
    parser.add_argument("--sets", nargs="*", default=None, help="set paths under bench/data/blind (default: all)")
    args = parser.parse_args()
    if args.compare:
        summary = compare(*args.compare)
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
        print(json.dumps({k: v for k, v in summary.items() if k != "per_set"}))
        return
    files = [BLIND / s for s in args.sets] if args.sets else set_files()
    with open(args.out, "w", encoding="utf-8") as out:
        for path in files:
            dump = run_set(path, args.limit)
            line = json.dumps(dump, ensure_ascii=False, sort_keys=True)
            out.write(line + "\n")
            out.flush()
            digests = sum(1 for r in dump["stored"] if r["digests"])
            print(f"{dump['set']}: {dump['rows']} rows, {len(dump['stored'])} stored, {digests} with digests, "
                  f"sha256 {hashlib.sha256(line.encode()).hexdigest()[:16]}", flush=True)


if __name__ == "__main__":
    main()
