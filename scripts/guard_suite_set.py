"""The suite's own guard texts as a training writer ("train-suite"; issue 10, round 17).

    PYTHONPATH=src:tests .venv/bin/python scripts/guard_suite_set.py [--out bench/data/train/suite/guard/set.jsonl]
    # round 17b: texts the tests build at run time, from a logged run of the whole suite (scripts/guard_suite_log)
    GUARD_SUITE_LOG=/tmp/suite_guard.jsonl PYTHONPATH=scripts/guard_suite_log:src .venv/bin/python -m pytest -q tests/
    .venv/bin/python scripts/guard_suite_texts.py /tmp/suite_guard.jsonl --exclude ...   # the pinned (benign) set
    PYTHONPATH=src:tests .venv/bin/python scripts/guard_suite_set.py --log /tmp/suite_guard.jsonl

Round 16's ensemble failed its ship rule only on texts the test suite pins: an attack the suite asserts quarantined
and two benign notes of ``tests/test_supersede.py`` the pinned set (``tests/data/guard_benign_fixed.json``) missed.
The suite's texts are training data like any writer's: this collects, with their labels,
- benign: the pinned set, every sentence-long string ``tests/test_supersede.py`` holds (its stores, its crowd, the
  older VPN notes), and the benign lists of the guard tests that store through the real guard (engine or runners);
- attack: every text a guard test asserts quarantined / suspicious (engine, both runners, or the rules);
- since round 17b, from a logged green run of the whole suite: the pinned set regenerated from it (benign: stored by
  the real guard, never quarantined) and ``tests/data/guard_suite_quarantined.json`` (attack: the texts the real guard
  quarantined in the run, which the tests expect quarantined, less ``NOT_ATTACKS`` reviewed by hand). Texts of the
  other writers and the ops change notes are never taken from the log (they are held out elsewhere).
Rows are ``text, label, category, lang`` as the other writers'; attack categories use the blind writers' names
where one fits (``dataset._BLIND_CLASS``), so the class the model learns is the one the test means.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "bench" / "data" / "train" / "suite" / "guard" / "set.jsonl"
QUARANTINED = ROOT / "tests" / "data" / "guard_suite_quarantined.json"
#: round 34: the guard-using test files' texts the two pinned sets lacked (``scripts/guardfit34_suite.py``)
STORED34 = ROOT / "tests" / "data" / "guard_suite_stored34.json"
QUARANTINED34 = ROOT / "tests" / "data" / "guard_suite_quarantined34.json"
#: Substrings of texts the real guard quarantined in the logged run that are not attacks (reviewed by hand).
NOT_ATTACKS: tuple[str, ...] = ()

#: (test module, list name, label): module-level lists / dicts {kind: [texts]} / [(text, category)] of texts the
#: test asserts quarantined (attack) or stored (benign) through the real guard.
LISTS: tuple[tuple[str, str, str], ...] = (
    ("test_guard_integration", "ATTACKS", "attack"), ("test_guard_integration", "BENIGN", "benign"),
    ("test_guard_failure_kinds", "ATTACKS", "attack"), ("test_guard_failure_kinds", "BENIGN", "benign"),
    ("test_guard_transcripts_and_secrets", "ATTACKS", "attack"),
    ("test_guard_transcripts_and_secrets", "BENIGN", "benign"),
    ("test_guard_round7", "ATTACKS", "attack"), ("test_guard_round7", "BENIGN", "benign"),
    ("test_guard_round7", "SECRET_NOTES", "benign"),
    ("test_guard_round4", "ENDORSEMENTS", "attack"), ("test_guard_round4", "FRESH_ENDORSEMENTS", "attack"),
    ("test_guard_round4", "MENTIONS", "benign"), ("test_guard_round4", "FRESH_MENTIONS", "benign"),
    ("test_guard_plain_facts", "PLAIN_FACTS", "benign"),
    ("test_safety_guard", "ATTACKS", "attack"), ("test_safety_guard", "BENIGN", "benign"),
    ("test_guard_benign_fixed", "VPN_CHANGE", "benign"),
)
#: A test's kind -> the blind writers' category of the same attack class.
KIND = {"exfil_habit": "exfiltration_habit", "exfiltration": "exfiltration_habit", "payee_change": "payment_fraud",
        "vendor_authorisation": "false_authorization", "secret_moved": "exfiltration_as_habit"}


def _rows(value: object, kind: str) -> list[tuple[str, str]]:
    if isinstance(value, dict):
        return [r for k, v in value.items() for r in _rows(v, k)]
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], tuple):  # (text, category[, ...])
        return [(str(v[0]), str(v[1]) if len(v) > 1 and isinstance(v[1], str) and v[1].isidentifier() else kind)
                for v in value]
    if isinstance(value, (list, tuple)):
        return [(t["content"] if isinstance(t, dict) else str(t), kind) for t in value]
    return [(str(value), kind)]


def supersede_texts() -> list[str]:
    """Every sentence-long string literal of tests/test_supersede.py (all benign notes)."""
    tree = ast.parse((ROOT / "tests" / "test_supersede.py").read_text(encoding="utf-8"))
    docs = {id(n.body[0].value) for n in ast.walk(tree) if isinstance(n, (ast.Module, ast.FunctionDef))
            and n.body and isinstance(n.body[0], ast.Expr)}
    out = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs:
            s = n.value.strip()
            if len(s) >= 12 and (" " in s or any("\u4e00" <= c <= "\u9fff" for c in s)):
                out.append(s)
    return out


def _joined(content: str, context: str) -> str:
    return content + (f"\n{context}" if context else "")


def held_elsewhere() -> set[str]:
    """Texts of the other writers and the ops change notes: never taken from the log."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from train_guard import BLIND_ROUNDS

    out = set()
    paths = [p for w, p in BLIND_ROUNDS if w != "train-suite"] + [ROOT / "bench" / "data" / "guard_ops" /
                                                                   "ops_change_notes.jsonl"]
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.add(str(json.loads(line)["text"]).strip())
    return out


def quarantined_texts(log: Path) -> list[dict[str, str]]:
    """Every memory the write path built quarantined after the real guard screened it suspicious (a green run)."""
    suspicious: set[str] = set()
    builds: list[dict[str, str]] = []
    for line in log.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["k"] == "screen" and row["suspicious"]:
            suspicious.add(row["text"])
        elif row["k"] == "build" and row["status"] == "quarantined":
            builds.append(row)
    from guard_suite_texts import scripted_texts

    skip, stand_in = held_elsewhere(), scripted_texts(log)
    out: dict[tuple[str, str], dict[str, str]] = {}
    for b in builds:
        key = f"{b['stored']}\n{b.get('stored_context', '')}"
        if key not in suspicious or key in stand_in or not b["content"].strip():
            continue
        if "\x00" in b["content"] or b["content"].strip() in skip or any(x in b["content"] for x in NOT_ATTACKS):
            continue
        out.setdefault((b["content"], b["context"]), {"content": b["content"], "context": b["context"]})
    return sorted(out.values(), key=lambda r: (r["content"], r["context"]))


def collect() -> list[dict[str, str]]:
    sys.path.insert(0, str(ROOT / "tests"))
    rows: dict[str, dict[str, str]] = {}

    def add(text: str, label: str, category: str) -> None:
        if text.strip() and text not in rows:  # the first list a text is in names it (attacks come first)
            lang = "zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en"
            rows[text] = {"text": text, "label": label, "category": category, "lang": lang}

    for mod, name, label in LISTS:
        for text, kind in _rows(getattr(importlib.import_module(mod), name), label):
            add(text, label, KIND.get(kind, kind) if label == "attack" else "suite_" + kind)
    for text in supersede_texts():
        add(text, "benign", "suite_supersede")
    for r in json.loads((ROOT / "tests" / "data" / "guard_benign_fixed.json").read_text(encoding="utf-8")):
        add(_joined(r["content"], r["context"]), "benign", "suite_fixed")
    for path, label, category in ((QUARANTINED, "attack", "suite_quarantined"),
                                  (QUARANTINED34, "attack", "suite_quarantined"),  # round 34 (guardfit34_suite)
                                  (STORED34, "benign", "suite_stored34")):
        if path.exists():
            for r in json.loads(path.read_text(encoding="utf-8")):
                add(_joined(r["content"], r["context"]), label, category)
    return list(rows.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--log", type=Path, help="a logged green run: rewrite tests/data/guard_suite_quarantined.json")
    args = parser.parse_args()
    if args.log:
        held = quarantined_texts(args.log)
        QUARANTINED.write_text(json.dumps(held, indent=0, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"{len(held)} quarantined texts -> {QUARANTINED}")
    rows = collect()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    n = sum(r["label"] == "attack" for r in rows)
    print(f"{len(rows)} texts ({n} attacks, {len(rows) - n} benign) -> {args.out}")


if __name__ == "__main__":
    main()
