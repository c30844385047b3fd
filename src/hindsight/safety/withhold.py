"""What a reader below admin sees of a quarantined memory: that it exists and why it was held, not its text.

The guard quarantines a write because its text may carry orders to agents or a way out for data; showing that
text to every reader of the namespace (memory_get, memory_list/search with a quarantined status filter,
memory_summarize) would deliver it after all (attack round 5). Admins of the namespace, who decide on release,
see it whole (memory_quarantine_list and the console's quarantine page).
"""

from __future__ import annotations

from typing import Any

from hindsight.model import MemoryRecord, Status
from hindsight.read_model import HistoryEntry

WITHHELD = "[withheld: quarantined by the write guard; an admin of the namespace can review it]"


def withhold(record: MemoryRecord) -> MemoryRecord:
    """The record with its caller text withheld when it is quarantined (anything else unchanged)."""
    if record.status != Status.quarantined:
        return record
    return record.model_copy(update={"content": WITHHELD, "context": "", "tags": [], "metadata": {}})


def withhold_history(entries: list[HistoryEntry]) -> list[HistoryEntry]:
    """History with the text of every quarantined snapshot withheld (what a reader below admin sees)."""
    def snap(data: dict[str, Any] | None) -> dict[str, Any] | None:
        if not data or data.get("status") != Status.quarantined.value:
            return data
        return {**data, "content": WITHHELD, "context": "", "tags": [], "metadata": {}}

    return [e.model_copy(update={"before": snap(e.before), "after": snap(e.after)}) for e in entries]
