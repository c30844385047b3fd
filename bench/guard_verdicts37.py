"""The guard's verdict on every text of released guard sets, for a byte-identical check of two trees (issue 14,
write cost round 37: `safety/guard.py` split by job).

    PYTHONPATH=src .venv/bin/python bench/guard_verdicts37.py OUT.json bench/data/blind/r35/guard/set.jsonl ...

Each text is redacted as the write path redacts it (`redact.redactor`) and screened by the default `WriteGuard`
(the shipped classifier, its own encoder: no vector handed in); written as JSON: the set, the row, the redactions'
count and the verdict (suspicious, category, reasons, score as `repr`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from hindsight.safety.guard import WriteGuard
from hindsight.safety.redact import redactor


def main() -> None:
    out_path, sets = Path(sys.argv[1]), sys.argv[2:]
    guard = WriteGuard()
    out = []
    for path in sets:
        for i, line in enumerate(Path(path).read_text().splitlines()):
            text = json.loads(line)["text"]
            redacted, found = redactor(text)
            v = guard.screen(redacted)
            out.append({"set": path, "row": i, "redactions": len(found), "suspicious": v.suspicious,
                        "category": v.category, "reasons": v.reasons, "score": repr(v.score)})
    out_path.write_text(json.dumps(out, ensure_ascii=False, indent=0))
    print(len(out), "texts,", sum(o["suspicious"] for o in out), "held")


if __name__ == "__main__":
    main()
