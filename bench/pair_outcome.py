"""How a hygiene pair came out once the new memory was written: the one reading shared by the bench scripts.

`merged` (the new memory was folded into the existing one), `merged_elsewhere` (into another memory),
`change` (the existing memory is deprecated), or `kept` (both stay active)."""

from __future__ import annotations

from typing import Any


def pair_outcome(existing_id: str, new: Any, old: Any) -> str:
    """`new` is the store outcome of the new memory, `old` the existing memory's record read after it."""
    outcome = {"duplicate": "merged", "superseded": "change"}.get(new.action, "kept")
    if new.action == "duplicate" and new.memory_id != existing_id:
        return "merged_elsewhere"
    if new.action != "duplicate" and old.status.value == "deprecated":
        return "change"
    if new.action == "superseded" and old.status.value != "deprecated":
        return "kept"
    return outcome
