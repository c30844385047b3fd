"""Redaction round 43: redaction alone (rules + shipped tagger) on our own dev set, row by row.

    PYTHONPATH=<src> .venv/bin/python bench/pii43_dev.py OUT.json [SET.jsonl]

SET defaults to round 43's dev set; round 46 (phone46) passes bench/results/phone46/dev_set.jsonl.
"""
import json
import sys

from hindsight.safety.redact import redact


def main() -> None:
    path = sys.argv[2] if len(sys.argv) > 2 else "bench/results/pii43/dev_set.jsonl"
    rows = [json.loads(x) for x in open(path, encoding="utf-8") if x.strip()]
    out = []
    for r in rows:
        red = redact(r["text"]).text
        ok = all(s not in red for s in r["secrets"]) and all(k in red for k in r["keep"])
        out.append({**r, "ok": ok, "out": red})
    json.dump(out, open(sys.argv[1], "w", encoding="utf-8"), ensure_ascii=False, indent=0)
    for kind in ("pii", "lookalike"):
        sel = [x for x in out if x["kind"] == kind]
        print(kind, sum(x["ok"] for x in sel), "/", len(sel))
    for x in out:
        if not x["ok"]:
            print("FAIL", x["kind"], x["category"], "|", x["out"].replace("\n", " ")[:220])


if __name__ == "__main__":
    main()
