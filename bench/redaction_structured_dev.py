"""Score redaction on the round-12b structured development set (tests/data/redact_structured_dev.jsonl).

    PYTHONPATH=src .venv/bin/python bench/redaction_structured_dev.py [--fails]

PII rows: every secret gone and every keep span still there; look-alike rows: the text unchanged. Rules alone and
rules + the shipped tagger.
"""

from __future__ import annotations

import json
import sys

from hindsight.safety.redact import redact


def main(argv: list[str]) -> None:
    rows = [json.loads(line) for line in open("tests/data/redact_structured_dev.jsonl", encoding="utf-8") if line.strip()]
    for tagger in (False, True):
        ok_pii = ok_look = 0
        fails: list[str] = []
        for r in rows:
            out = redact(r["text"], tagger=tagger).text
            if r["kind"] == "pii":
                good = not any(s in out for s in r["secrets"]) and all(k in out for k in r["keep"])
                ok_pii += good
            else:
                good = out == r["text"]
                ok_look += good
            if not good:
                fails.append(f"  [{r['kind']}/{r['format']}/{r['category']}] {out!r}")
        n_pii = sum(r["kind"] == "pii" for r in rows)
        name = "rules + tagger" if tagger else "rules"
        print(f"{name}: PII {ok_pii}/{n_pii} = {ok_pii / n_pii:.3f}; look-alikes {ok_look}/{len(rows) - n_pii} = {ok_look / (len(rows) - n_pii):.3f}")
        if "--fails" in argv:
            print("\n".join(fails))


if __name__ == "__main__":
    main(sys.argv[1:])
