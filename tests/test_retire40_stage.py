"""bench/retire40_table.py reads the stage of a retirement from the retiring write's history note; since ux45 the note
says "superseded by mem_x: ..." where it said "supersedes mem_x: ..." - both wordings name the same stage (round 45,
miss45: before the fix every r40 kept retirement read "other: superseded by ...")."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import retire40_table as rt  # noqa: E402


def test_stage_reads_both_note_wordings() -> None:
    for lead in ("supersedes", "superseded by"):
        assert rt.stage(f"{lead} mem_ab12: changes the existing memory (p(change)=0.93)") == "pair model (p(change))"
        assert rt.stage(f"{lead} mem_ab12: states the same slot with a change (cosine 0.9)") == (
            "slot_change, same slot + cue")


def test_unknown_reason_stays_other() -> None:
    assert rt.stage("superseded by mem_ab12: something new").startswith("other: ")
