"""Reading JSON-lines files (export/import and backups): one object per line, errors naming the line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from hindsight.errors import InvalidInputError


def json_objects(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line; a line that is not a JSON object raises InvalidInputError."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InvalidInputError(f"line {number}: not valid JSON ({exc.msg})") from exc
        if not isinstance(item, dict):
            raise InvalidInputError(f"line {number}: expected a JSON object")
        yield number, item
