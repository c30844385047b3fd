"""What a reader below admin sees of a quarantined memory: that it exists and why it was held, not its text
nor the guard's score.

The guard quarantines a write because its text may carry orders to agents or a way out for data; showing that
text to every reader of the namespace (memory_get, memory_list/search with a quarantined status filter,
memory_summarize) would deliver it after all (attack round 5). Admins of the namespace, who decide on release,
see it whole (memory_quarantine_list and the console's quarantine page).

Attack round 29: the reason a held write names its rules and the classifier's score (`classifier:0.92`,
`part:0.88`); told to the writer on every held write (and to every reader of its status), the score is a gauge an
attacker rewords against until a poison scores under the threshold. Below admin the reason keeps the category and
the rules and drops the number (`unscored`); admins, who decide on release, still see it.
"""

from __future__ import annotations

import re
from typing import Any

from hindsight.model import MemoryRecord, Status
from hindsight.read_model import HistoryEntry

WITHHELD = "[withheld: quarantined by the write guard; an admin of the namespace can review it]"
#: a guard score in a reason ("classifier:0.92", "part:0.88"; guard.GuardVerdict.reasons)
_SCORE = re.compile(r"\b(classifier|part):[01]\.\d\d\b")
#: the keys of an answer that carry a guard reason (a write's outcome, a record, a history entry)
_REASON_KEYS = frozenset({"reason", "status_reason", "note"})


def unscored(text: str) -> str:
    """A reason without the guard's scores: "injection: inj_x, classifier:0.92" -> "injection: inj_x, classifier"."""
    return _SCORE.sub(r"\1", text) if text else text


def unscored_answer(value: Any) -> Any:
    """A tool's answer with every reason unscored (nested dicts and lists; a memory's own metadata is the caller's
    text and is left as it is), for a caller below admin."""
    if isinstance(value, dict):
        return {k: unscored(v) if k in _REASON_KEYS and isinstance(v, str)
                else v if k == "metadata" else unscored_answer(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unscored_answer(v) for v in value]
    return value


def withhold(record: MemoryRecord) -> MemoryRecord:
    """The record with its caller text (and the guard's score) withheld when it is quarantined (anything else
    unchanged)."""
    if record.status != Status.quarantined:
        return record
    return record.model_copy(update={"content": WITHHELD, "context": "", "tags": [], "metadata": {},
                                     "status_reason": unscored(record.status_reason)})


def withhold_history(entries: list[HistoryEntry]) -> list[HistoryEntry]:
    """History with the text of every quarantined snapshot withheld (what a reader below admin sees)."""
    def snap(data: dict[str, Any] | None) -> dict[str, Any] | None:
        if not data or data.get("status") != Status.quarantined.value:
            return data
        return {**data, "content": WITHHELD, "context": "", "tags": [], "metadata": {},
                "status_reason": unscored(str(data.get("status_reason") or ""))}

    return [e.model_copy(update={"before": snap(e.before), "after": snap(e.after), "note": unscored(e.note)})
            for e in entries]
