"""hyg38's miss table and engine comparison (bench/hyg38.py): where a missed change or restatement stops, and the
cells a candidate is judged on. Plain records, no model."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import hyg38  # noqa: E402


def _row(label: str, actual: str, decider: str, final: str | None, others_ok: list[bool] | None = None,
         q: list[float] | None = None) -> dict[str, object]:
    return {"pair": "r0:1", "label": label, "lang": "en", "actual": actual, "decider": decider,
            "final": [final, "reason"] if final else None, "others_ok": others_ok or [], "decision_q": q,
            "existing": "old", "new": "new", "keep_decision": []}


def test_a_change_the_judge_read_but_another_memory_retired_is_the_gate() -> None:
    # r35:84's kind: the judge reads the pair as a change, the write retires the other memory instead
    row = _row("change", "kept", "rules: the new memory says 'discharged'", "override", [False])
    assert hyg38.stage_of(row) == "gate: another memory retired"
    assert hyg38.stage_of(_row("change", "kept", "rules: x", "override", [True])) == "gate: the fold kept it"


def test_never_judged_is_the_candidate_stage_and_a_rules_keep_keeps_its_reason() -> None:
    assert hyg38.stage_of(_row("restatement", "kept", "candidate", None)) == "candidate"
    kept = _row("change", "kept", "rules: shares the subject, adds or changes", "supplement")
    assert hyg38.stage_of(kept) == "rules: shares the subject, adds or changes"
    assert hyg38.stage_of(_row("change", "kept", "model: rules change -> kept", "supplement")) == "model"
    assert hyg38.kind_of("rules: merge blocker: amounts differ") == "rules: a merge blocker"


def test_cells_count_wrong_deprecations_and_merges_apart_from_the_right_ones() -> None:
    entry = {"confusion": {"change->change": 5, "change->merged": 1, "distinct->change": 2, "distinct->kept": 9,
                           "restatement->change": 1, "restatement->merged": 4, "distinct->merged": 3},
             "decided": [_row("change", "change", "rules: x", "override", [True, True]),
                         _row("distinct", "kept", "rules: x", "unrelated", [True, False]),
                         _row("distinct", "kept", "rules: x", "unrelated")]}
    cells = hyg38.cells(entry)
    assert cells["changes deprecated"] == 5 and cells["restatements merged"] == 4 and cells["distinct kept"] == 9
    assert cells["wrong deprecations"] == 3  # distinct -> change 2, restatement -> change 1
    assert cells["wrong merges"] == 4  # change -> merged 1, distinct -> merged 3
    assert cells["others untouched"] == 3 and cells["others"] == 4  # per other memory, as the blind run counts
