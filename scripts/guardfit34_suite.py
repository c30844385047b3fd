"""Round 34: the texts the guard-using test files store / quarantine through the real guard, from a logged run, that
the pinned sets lack (issue 10; docs/benchmarks.md "Guard, round 34").

    GUARD_SUITE_LOG=/tmp/gf34/suite_guard.jsonl PYTHONPATH=scripts/guard_suite_log:src .venv/bin/python -m pytest \
        -p no:cacheprovider -q -n 2 --dist loadfile tests/test_guard*.py tests/test_attack*.py tests/test_safety*.py \
        tests/test_mcp*.py tests/test_engine*.py tests/test_hygiene*.py tests/test_console*.py
    PYTHONPATH=src:scripts:tests .venv/bin/python scripts/guardfit34_suite.py /tmp/gf34/suite_guard.jsonl

Stored: built by the write path after the real ``WriteGuard`` screened it with the model's score (not a test's
stand-in: ``guard_suite_texts.scripted``) and stored, never quarantined anywhere in the run. Quarantined: screened
suspicious and built quarantined. Both less the rows already pinned (``guard_benign_fixed.json``,
``guard_suite_quarantined.json``), every writer's text and ops note (``guard_suite_set.held_elsewhere``) and
``guard_suite_texts.NOT_BENIGN``. Also reports which strings of the test files' named look-alike / benign lists the
stored set holds (an AST walk), so a list the log did not see is named, not added by hand.
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from guard_suite_set import held_elsewhere, quarantined_texts  # noqa: E402
from guard_suite_texts import NOT_BENIGN, suite_texts  # noqa: E402

DATA = ROOT / "tests" / "data"
STORED = DATA / "guard_suite_stored34.json"
QUARANTINED = DATA / "guard_suite_quarantined34.json"
#: module-level names of lists the tests store expecting them stored
LIST_NAMES = ("LOOKALIKES", "LOOK_ALIKES", "EVASION_LOOKALIKES", "LEFT_LOOK_ALIKES", "ORDINARY", "MENTIONS",
              "FRESH_MENTIONS", "PLAIN_FACTS", "BENIGN", "SECRET_NOTES", "FACTS", "PLAIN")
GLOBS = ("test_guard*.py", "test_attack*.py", "test_safety*.py")


def listed_strings() -> dict[str, list[str]]:
    """file:name -> the string constants (>= 20 chars) of each module-level named list in the guard / attack tests."""
    out: dict[str, list[str]] = {}
    for pattern in GLOBS:
        for path in sorted((ROOT / "tests").glob(pattern)):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in tree.body:
                targets = [t.id for t in getattr(node, "targets", [getattr(node, "target", None)])
                           if isinstance(t, ast.Name)]
                if not targets or targets[0] not in LIST_NAMES or getattr(node, "value", None) is None:
                    continue
                texts = [n.value for n in ast.walk(node.value)  # type: ignore[arg-type]
                         if isinstance(n, ast.Constant) and isinstance(n.value, str) and len(n.value) >= 20]
                if texts:
                    out[f"{path.name}:{targets[0]}"] = texts
    return out


def pinned(name: str, key: str) -> set[str]:
    return {str(r[key]) for r in json.loads((DATA / name).read_text(encoding="utf-8"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("log", type=Path)
    parser.add_argument("--report", type=Path, default=None)
    args = parser.parse_args()
    skip = frozenset(held_elsewhere())
    old_benign = pinned("guard_benign_fixed.json", "content")
    old_q = pinned("guard_suite_quarantined.json", "content")
    stored = [r for r in suite_texts(args.log, NOT_BENIGN, skip) if r["content"] not in old_benign]
    quarantined = [r for r in quarantined_texts(args.log) if r["content"] not in old_q]
    clash = {str(r["content"]) for r in stored} & {r["content"] for r in quarantined}
    stored = [r for r in stored if r["content"] not in clash]
    STORED.write_text(json.dumps([{"content": r["content"], "context": r["context"]} for r in stored], indent=0,
                                 ensure_ascii=False) + "\n", encoding="utf-8")
    QUARANTINED.write_text(json.dumps(quarantined, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    everything = {str(r["content"]) for r in stored} | old_benign
    cover = {k: {"n": len(v), "missing": [t for t in v if not any(t in s for s in everything)]}
             for k, v in listed_strings().items()}
    report = {"stored_new": len(stored), "quarantined_new": len(quarantined), "clash_dropped": sorted(clash),
              "top_scores_stored": [(r["score"], str(r["content"])[:120]) for r in stored[:25]], "lists": cover}
    print(json.dumps({k: report[k] for k in ("stored_new", "quarantined_new")}), flush=True)
    if args.report:
        args.report.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
