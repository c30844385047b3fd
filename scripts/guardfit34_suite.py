"""Round 34: the texts the guard-using test files store / quarantine through the real guard, from a logged run, that
the pinned sets lack (issue 10; docs/benchmarks.md "Guard, round 34").

    GUARD_SUITE_LOG=/tmp/gf34/suite_guard.jsonl PYTHONPATH=scripts/guard_suite_log:src .venv/bin/python -m pytest \
        -p no:cacheprovider -q -n 2 --dist loadfile tests/test_guard*.py tests/test_attack*.py tests/test_safety*.py \
        tests/test_mcp*.py tests/test_engine*.py tests/test_hygiene*.py tests/test_console*.py
    PYTHONPATH=src:scripts:tests .venv/bin/python scripts/guardfit34_suite.py /tmp/gf34/suite_guard.jsonl

Stored: built by the write path after the real ``WriteGuard`` screened it with the model's score (not a test's
stand-in: ``guard_suite_texts.scripted``) and stored, never quarantined anywhere in the run. Quarantined: screened
suspicious and built quarantined. Texts the tests screen directly (``screen(text)``: the look-alike lists) count as
stored when never suspicious and scored under 0.5, as quarantined when suspicious at 0.655 or above (the rest are
listed in the report, not taken), and a text that is a part of a longer one screened in the run (a long text's
window: its label is the whole text's) is never taken. Both less the rows already pinned (``guard_benign_fixed.json``,
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
from guard_suite_texts import NOT_BENIGN, scripted_texts, suite_texts  # noqa: E402

DATA = ROOT / "tests" / "data"
STORED = DATA / "guard_suite_stored34.json"
QUARANTINED = DATA / "guard_suite_quarantined34.json"
#: module-level names of lists the tests store expecting them stored
LIST_NAMES = ("LOOKALIKES", "LOOK_ALIKES", "EVASION_LOOKALIKES", "LEFT_LOOK_ALIKES", "ORDINARY", "MENTIONS",
              "FRESH_MENTIONS", "PLAIN_FACTS", "BENIGN", "SECRET_NOTES", "FACTS", "PLAIN")
GLOBS = ("test_guard*.py", "test_attack*.py", "test_safety*.py")
#: a text the tests screen directly (``screen(text)``, no write) is taken as stored only under this model score (a
#: test may screen an attack with the threshold raised) and as quarantined only at the shipped T or above (or a rule)
DIRECT_BENIGN_BELOW = 0.5
DIRECT_ATTACK_FROM = 0.655


def direct_screens(log: Path, skip: frozenset[str]) -> tuple[list[str], list[str], list[tuple[float, str]]]:
    """Texts screened by the real guard outside the write path: (stored, quarantined, left out for their score)."""
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]
    built = {f"{r['stored']}\n{r.get('stored_context', '')}" for r in rows if r["k"] == "build"}
    stand_in = scripted_texts(log)
    seen: dict[str, tuple[float, bool]] = {}
    for r in rows:
        if r["k"] == "screen" and r["text"] not in built and r["text"] not in stand_in:
            score, flagged = seen.get(r["text"], (0.0, False))
            seen[r["text"]] = (max(score, float(r["score"])), flagged or bool(r["suspicious"]))
    ok = {t: v for t, v in seen.items() if t.strip() and "\x00" not in t and t.strip() not in skip
          and not any(x in t for x in NOT_BENIGN)}
    longer = [t for t in seen if len(t) > 60] + [str(r["content"]) for r in rows if r["k"] == "build"]
    ok = {t: v for t, v in ok.items() if not any(t.strip() in x and len(x) > len(t) + 8 for x in longer)}  # a window
    benign = sorted(t for t, (s, f) in ok.items() if not f and s < DIRECT_BENIGN_BELOW)
    attack = sorted(t for t, (s, f) in ok.items() if f and s >= DIRECT_ATTACK_FROM)
    left = sorted(((round(s, 3), t[:120]) for t, (s, f) in ok.items()
                   if (not f and s >= DIRECT_BENIGN_BELOW) or (f and s < DIRECT_ATTACK_FROM)), reverse=True)
    return benign, attack, left


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
    d_benign, d_attack, d_left = direct_screens(args.log, skip)
    have_b, have_q = {str(r["content"]) for r in stored} | old_benign, {r["content"] for r in quarantined} | old_q
    stored += [{"content": t, "context": "", "score": -1.0} for t in d_benign if t not in have_b]
    quarantined += [{"content": t, "context": ""} for t in d_attack if t not in have_q]
    clash = {str(r["content"]) for r in stored} & {r["content"] for r in quarantined}
    stored = [r for r in stored if r["content"] not in clash]
    STORED.write_text(json.dumps([{"content": r["content"], "context": r["context"]} for r in stored], indent=0,
                                 ensure_ascii=False) + "\n", encoding="utf-8")
    QUARANTINED.write_text(json.dumps(quarantined, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
    everything = {str(r["content"]) for r in stored} | old_benign
    cover = {k: {"n": len(v), "missing": [t for t in v if not any(t in s for s in everything)]}
             for k, v in listed_strings().items()}
    report = {"stored_new": len(stored), "quarantined_new": len(quarantined), "clash_dropped": sorted(clash),
              "direct": {"stored": len(d_benign), "quarantined": len(d_attack), "left_out_for_score": d_left},
              "top_scores_stored": [(r["score"], str(r["content"])[:120]) for r in stored[:25]], "lists": cover}
    print(json.dumps({k: report[k] for k in ("stored_new", "quarantined_new")}), flush=True)
    if args.report:
        args.report.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
