"""Redaction round 37: redaction CPU time over every released PII text, one source tree per process.

    PYTHONPATH=<src> .venv/bin/python bench/pii37_cpu.py LABEL [PASSES] >> OUT.jsonl

Redacts every text of every released PII set (blind and training writers; rules + shipped tagger) once after a warm-up
(the tagger's weights loaded), and prints one JSON line: the label, the number of texts and the process CPU seconds
(``time.process_time``: this process's own CPU, so the other jobs on a shared machine count less than in wall time).
With PASSES (default 1) the texts are redacted that many times and the fastest pass is reported (the least disturbed
by other jobs). Run main and branch side by side (two processes started together, so both see the same load), a few
times, and compare the minimum of each side.
"""
import glob
import json
import sys
import time

from hindsight.safety.redact import redact


def main() -> None:
    texts = []
    for f in sorted(glob.glob("bench/data/blind/*/pii/set.jsonl") + glob.glob("bench/data/train/*/pii/set.jsonl")):
        texts += [json.loads(line)["text"] for line in open(f, encoding="utf-8") if line.strip()]
    redact("warm-up: password is Tr0ub4dor&3, 取件码是 4417")
    passes = []
    for _ in range(int(sys.argv[2]) if len(sys.argv) > 2 else 1):
        t0 = time.process_time()
        for t in texts:
            redact(t)
        passes.append(round(time.process_time() - t0, 2))
    print(json.dumps({"label": sys.argv[1], "texts": len(texts), "cpu_s": min(passes), "passes": passes}))


if __name__ == "__main__":
    main()
