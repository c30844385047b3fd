"""The guard's verdict on each text of a `redaction_r26_diff.py dump`, read as the write path reads it (redacted).

    PYTHONPATH=src .venv/bin/python bench/redaction_r26_guard.py AFTER.json              # this branch
    PYTHONPATH=<main's src> .venv/bin/python bench/redaction_r26_guard.py BEFORE.json    # main

Prints `suspicious score text` per non-PII text (the guard screens the redacted text: write/pipeline.py).
"""

from __future__ import annotations

import json
import sys


def main(path: str) -> None:
    from hindsight.safety.guard import screen
    from hindsight.safety.redact import redact

    with open(path, encoding="utf-8") as fh:
        dumped = json.load(fh)
    for text in dumped["texts"]["nonpii"]:
        redacted = redact(text).text
        verdict = screen(redacted)
        print(verdict.suspicious, round(verdict.score or 0.0, 3), redacted[:110])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
