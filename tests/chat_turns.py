"""A two-speaker chat for search tests (topic split, class -> instance words): Caroline's turns alternate with
Melanie's over six sessions, three days apart, and one evidence turn of Melanie's sits in the fourth session."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta


def chat_turns(caroline: Sequence[str], melanie: Sequence[str], evidence: str, now: datetime) -> list[dict[str, object]]:
    """36 alternating turns (Caroline's lines cycled, Melanie's in order; `melanie` needs 18) and `evidence`,
    written 14 days before `now`, inserted at place 21 (session s3)."""
    turns: list[dict[str, object]] = []
    for i in range(36):
        text = f"Caroline: {caroline[i % len(caroline)]}" if i % 2 == 0 else f"Melanie: {melanie[i // 2]}"
        turns.append({"content": text, "event_time": (now - timedelta(days=5 + 3 * (i // 6))).isoformat(),
                      "session_id": f"s{i // 6}"})
    turns.insert(21, {"content": evidence, "event_time": (now - timedelta(days=14)).isoformat(), "session_id": "s3"})
    return turns
