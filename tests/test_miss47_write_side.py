"""bench/miss47_write_side.py (round 46, miss47): the change words a first-tier retirement fired on are the new
text's cue words the old text does not use, and the follow-up sizing counts retirements by kind."""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import miss47_write_side as ws  # noqa: E402


def test_cue_words_leave_out_the_old_texts_own_cues() -> None:
    assert "from october" in ws._cue_words("The shuttle leaves at 17:30.", "From October the shuttle leaves at 17:45.")
    assert ws._cue_words("The bid deadline moved to 30 October.", "The bid deadline moved to 30 October.") == []


def test_followup_counts_by_kind(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    events = [{"kind": "kept", "new_text": "After the outage, Priya added the certificate to the calendar."},
              {"kind": "correct", "new_text": "The shuttle now leaves at 17:45."},
              {"kind": "kept", "new_text": "2号挤出机换完螺杆恢复生产了。"}]
    table = tmp_path / "retire_table_rX.json"
    table.write_text(json.dumps({"events": events}), encoding="utf-8")
    sys.argv = ["x", "followup", str(table)]
    ws.main()
    out = json.loads(capsys.readouterr().out)["retire_table_rX.json"]
    assert out == {"kept": {"follow_up": 2, "all": 2}, "correct": {"follow_up": 0, "all": 1}}
