"""Redaction round 37: redaction CPU time over every released PII text, one source tree per process.

    PYTHONPATH=<src> .venv/bin/python bench/pii37_cpu.py LABEL >> OUT.jsonl

Redacts every text of every released PII set (blind and training writers; rules + shipped tagger) once after a warm-up
(the tagger's weights loaded), and prints one JSON line: the label, the number of texts and the process CPU seconds
(``time.process_time``: this process's own CPU, so the other jobs on a shared machine count less than in wall time).
Run main and branch alternately (M, B, M, B, ...) and compare the minimum of each side.
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
    t0 = time.process_time()
    for t in texts:
        redact(t)
    print(json.dumps({"label": sys.argv[1], "texts": len(texts), "cpu_s": round(time.process_time() - t0, 2)}))


if __name__ == "__main__":
    main()
