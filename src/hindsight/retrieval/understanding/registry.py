"""The time-rule registry: `rule(pattern)` registers a handler; handlers get (match, ctx)."""

from __future__ import annotations

import re
from collections.abc import Callable

from hindsight.retrieval.understanding.dates import _Ctx, _HandlerResult

_Handler = Callable[[re.Match[str], _Ctx], _HandlerResult]
_RULES: list[tuple[re.Pattern[str], _Handler]] = []


def _rule(pattern: str, flags: int = re.IGNORECASE) -> Callable[[_Handler], _Handler]:
    def register(fn: _Handler) -> _Handler:
        _RULES.append((re.compile(pattern, flags), fn))
        return fn

    return register
