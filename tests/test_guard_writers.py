"""The released blind rounds train the guard as their own writer groups (issue 10, cross-writer failure)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))  # the guard set lives with the scripts
import guard_dataset as ds  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = {"blind-r1": ROOT / "bench/data/blind/r1/guard/set.jsonl", "blind-r2": ROOT / "bench/data/blind/r2/guard/set.jsonl"}


def test_blind_rounds_load_as_writer_groups_and_always_train() -> None:
    for writer, path in ROUNDS.items():
        rows = ds.load_blind_round(path, writer)
        assert len(rows) >= 600 and {e.writer for e in rows} == {writer}
        assert {e.category for e in rows if e.is_attack} <= {"injection", "privilege_escalation", "exfiltration"}
        assert all(e.category is None for e in rows if not e.is_attack)
        train, held = ds.split(rows + ds.load_guard_set())
        assert not [e for e in held if e.writer != "own"]  # only our own writing is split
        assert len([e for e in train if e.writer == writer]) == len(rows)

