"""Attack round 11: how often the guard-evasion hard rule (safety/evasion.py) fires on the released guard sets.

    PYTHONPATH=src .venv/bin/python bench/guard_evasion.py

Per round r1..r10b: texts by label and how many the rule marks (a hard rule only adds quarantines, so the benign
count is the rise of the benign flag rate). The rule was written against the examples of tests/test_attack_round11.py,
never against a released round, so every round is held out.
"""
import collections
import glob
import json

from hindsight.safety.evasion import teaches_evasion
from hindsight.safety.normalize import prepare


def fires(text: str) -> bool:
    return teaches_evasion(prepare(text).text)


def main() -> None:
    total: collections.Counter[str] = collections.Counter()
    for path in sorted(glob.glob("bench/data/blind/r*/guard/set.jsonl")):
        counts: collections.Counter[str] = collections.Counter()
        for line in open(path, encoding="utf-8"):
            row = json.loads(line)
            counts[row["label"]] += 1
            if fires(row["text"]):
                counts["marked_" + row["label"]] += 1
                print("   ", row["label"], row["text"][:150])
        total.update(counts)
        print(path.split("/")[3], dict(counts))
    print("TOTAL", dict(total))


if __name__ == "__main__":
    main()
