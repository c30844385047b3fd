"""Which characters of a text the spans already read hold: one check, in the new span's length, per reading.

The number readings (`write.amounts`, `write.conversions`, `write.quantity_forms`, `write.value_canon`) keep the first
reading where spans overlap. Each searched the list of spans kept so far for every new one, so a text of many short
numbers ("1 1 1 ...", a crafted memory of 20,000 characters) cost the square of their count. `Taken` marks the
characters instead: a check reads the new span's own characters (the spans one pattern finds do not overlap, so the
work is linear in the text), with the same answers as the list.
"""

from __future__ import annotations


class Taken:
    """The spans kept so far over a text of `size` characters (the same answers as a list of them searched)."""

    def __init__(self, size: int) -> None:
        self._at = bytearray(size + 1)
        self._spans: list[tuple[int, int]] = []
        self._empty: list[int] = []  # empty spans kept (no reading finds one: the list's rule, kept exact)

    def overlaps(self, start: int, end: int) -> bool:
        """Some span (s, e) kept has s < end and start < e."""
        if start >= end:  # an empty span overlaps a span it lies strictly inside
            return any(s < end and start < e for s, e in self._spans)
        return self._at.find(1, start, end) != -1 or any(start < s < end for s in self._empty)

    def holds(self, position: int) -> bool:
        """Some span (s, e) kept has s <= position < e."""
        return bool(self._at[position])

    def add(self, start: int, end: int) -> None:
        if end > start:
            self._at[start:end] = b"\x01" * (end - start)
        else:
            self._empty.append(start)
        self._spans.append((start, end))
