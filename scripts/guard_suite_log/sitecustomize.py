"""Logs every text the write guard screens, and every record the write path builds, during a test run.

Not imported by the package: put this folder first on PYTHONPATH with GUARD_SUITE_LOG=<file> set, and every Python
process of the run (pytest and the MCP/HTTP servers it starts, which inherit both) appends JSON lines to the file:

    GUARD_SUITE_LOG=/tmp/suite_guard.jsonl PYTHONPATH=scripts/guard_suite_log:src .venv/bin/python -m pytest -q tests/
    .venv/bin/python scripts/guard_suite_texts.py /tmp/suite_guard.jsonl   # -> tests/data/guard_benign_fixed.json
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

_LOG = os.environ.get("GUARD_SUITE_LOG")


def _append(row: dict[str, Any]) -> None:
    try:
        with open(str(_LOG), "a", encoding="utf-8") as fh:
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    except OSError:
        pass


def _install() -> None:
    import hindsight.safety.guard as guard
    import hindsight.write.pipeline as pipeline

    screen = guard.WriteGuard.screen
    build = pipeline.WritePipeline.build_record

    def logged_screen(self: Any, text: str, embedding: Any = None) -> Any:
        verdict = screen(self, text, embedding)
        _append({"k": "screen", "text": text, "score": float(verdict.score or 0.0),
                 "suspicious": bool(verdict.suspicious), "pid": os.getpid()})
        return verdict

    def logged_build(self: Any, item: Any, actor: str, screen: bool = True) -> Any:
        out = build(self, item, actor, screen)
        _append({"k": "build", "content": item.content, "context": item.context, "stored": out[0].content,
                 "stored_context": out[0].context, "status": getattr(out[0].status, "value", str(out[0].status))})
        return out

    guard.WriteGuard.screen = logged_screen  # type: ignore[method-assign]
    pipeline.WritePipeline.build_record = logged_build  # type: ignore[method-assign]


if _LOG:
    try:
        _install()
    except Exception as exc:  # noqa: BLE001 - a logging aid must never break the run it observes
        print(f"guard_suite_log: not installed: {exc}", file=sys.stderr)
