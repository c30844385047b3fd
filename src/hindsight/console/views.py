"""HTML fragments the console pages share: word diffs, history entries, memory summaries, score bars."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from html import escape
from typing import Any

from hindsight.console.app import Ctx, memory_href
from hindsight.console.safe import shown
from hindsight.console.svg import score_bars
from hindsight.errors import HindsightError
from hindsight.model import MemoryRecord
from hindsight.read_model import HistoryEntry, SearchHit

_TOKENS = re.compile(r"\s+|[\u3400-\u9fff]|[^\s\u3400-\u9fff]+")
_BOOKKEEPING = {"updated_at", "last_accessed_at", "access_count"}


def when(value: datetime | float | str | None) -> str:
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if isinstance(value, (int, float)):
        value = datetime.fromtimestamp(value, tz=UTC)
    return value.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


#: token pairs a word diff compares at most: SequenceMatcher is quadratic, and two 20,000-character texts of a few
#: repeated words took 55 s of the event loop on one console page, the whole server frozen (attack round 19)
MAX_DIFF_PAIRS = 1_000_000


def _diff_ops(a: list[str], b: list[str]) -> Sequence[tuple[str, int, int, int, int]]:
    """SequenceMatcher's opcodes, or, past MAX_DIFF_PAIRS, the common start and end kept and the middle shown as
    deleted and inserted whole (linear; every word of both texts is still shown)."""
    if len(a) * len(b) <= MAX_DIFF_PAIRS:
        return difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    ops: list[tuple[str, int, int, int, int]] = [("equal", 0, start, 0, start)] if start else []
    ops.append(("replace", start, len(a) - end, start, len(b) - end))
    return ops + ([("equal", len(a) - end, len(a), len(b) - end, len(b))] if end else [])


def word_diff(old: str, new: str) -> str:
    """Old and new text as one escaped string with <del>/<ins> marks (words; single characters for Chinese)."""
    a, b = _TOKENS.findall(old or ""), _TOKENS.findall(new or "")
    out = []
    for op, i1, i2, j1, j2 in _diff_ops(a, b):
        if op == "equal":
            out.append(shown("".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(f"<del>{shown(''.join(a[i1:i2]))}</del>")
        if j2 > j1:
            out.append(f"<ins>{shown(''.join(b[j1:j2]))}</ins>")
    return f"<div class='pre diff'>{''.join(out)}</div>"


def field_changes(before: dict[str, Any] | None, after: dict[str, Any] | None) -> str:
    """What changed between two versions, readable: text fields as word diffs, others as old → new."""
    if before is None and after is None:
        return ""
    if before is None:
        return word_diff("", str((after or {}).get("content", "")))
    if after is None:
        return word_diff(str(before.get("content", "")), "")
    parts = []
    for key in sorted(set(before) | set(after)):
        if key in _BOOKKEEPING or before.get(key) == after.get(key):
            continue
        old, new = before.get(key), after.get(key)
        if key in ("content", "context"):
            parts.append(f"<div><b>{escape(key)}</b>{word_diff(str(old or ''), str(new or ''))}</div>")
        else:
            parts.append(f"<div><b>{escape(key)}</b>: <del>{shown(_short(old))}</del> → "
                         f"<ins>{shown(_short(new))}</ins></div>")
    return "".join(parts)


def _short(value: Any) -> str:
    text = "" if value is None else (", ".join(map(str, value)) if isinstance(value, list) else str(value))
    return text if len(text) <= 200 else text[:199] + "…"


def history_entry(ctx: Ctx, entry: HistoryEntry, action: str = "") -> str:
    """One version; `action`: a form shown with it (the memory page's "restore this version")."""
    note = f" · <span class='muted'>{shown(entry.note)}</span>" if entry.note else ""
    return (f"<li class='version'><b>{escape(ctx.word(entry.action))}</b> · {escape(entry.actor)} · "
            f"<span class='muted'>{when(entry.at)}</span>{note}{field_changes(entry.before, entry.after)}{action}</li>")


def tags(record: MemoryRecord) -> str:
    return "".join(f"<span class='tag'>{escape(tag)}</span>" for tag in record.tags)


def memory_line(ctx: Ctx, record: MemoryRecord) -> str:
    return (f"<span class='status-{record.status.value}'>{escape(ctx.word(record.status.value))}</span> · "
            f"{escape(ctx.word(record.type.value))} · {escape(ctx.word(record.source.value))} · "
            f"{when(record.created_at)} {tags(record)}")


def memory_block(ctx: Ctx, record: MemoryRecord | None) -> str:
    if record is None:
        return "<p class='muted'>—</p>"
    return (f"<div class='pre'>{shown(record.content)}</div><div class='muted'>{memory_line(ctx, record)}</div>"
            f"<a href='{escape(memory_href(record.id, record.namespace))}'>{escape(record.id)}</a>")


def hit_card(ctx: Ctx, hit: SearchHit, top_final: float, top_keyword: float, pick: bool = False) -> str:
    w = hit.why
    bars = score_bars([
        ("dense", w.dense_score or 0.0, 1.0),
        ("keyword", w.keyword_score or 0.0, top_keyword),
        ("graph", 1.0 / w.graph_rank if w.graph_rank else 0.0, 1.0),
        ("match", w.relevance, 1.0),  # the text-match share of the score (why.relevance), not the probability
        ("decay", w.decay, 1.0),
        ("importance", w.importance, 1.0),
        ("credibility", w.credibility, 1.0),
        ("final", hit.score, top_final),
    ])
    # the calibrated probability beside the score: the score only orders this page (ux round 33: an unrelated
    # memory showed score 0.876 and a full "relevance" bar that was the fused match, while its relevance was 0.02)
    outside = f" · {ctx.t('outside_time')}" if w.time_filter_widened and w.in_time_filter is False else ""
    return record_card(ctx, hit.memory, f"{ctx.t('score')} {hit.score:.3f} · {ctx.t('relevance')} {hit.relevance:.2f}"
                       + outside, bars, pick)


def record_card(ctx: Ctx, record: MemoryRecord, extra: str = "", side: str = "", pick: bool = False) -> str:
    """One memory in a list; `pick`: with a checkbox of the page's bulk form (form='bulk', pages_bulk.py)."""
    href = memory_href(record.id, record.namespace)
    box = (f"<input type='checkbox' class='pick' name='id' value='{escape(record.id)}' form='bulk' "
           f"aria-label='{ctx.t('select')} {escape(record.id)}'> " if pick else "")
    return (f"<article class='hit' tabindex='-1' data-id='{escape(record.id)}'><div>{box}"
            f"<a class='open' href='{escape(href)}'>{escape(record.id)}</a> <span class='muted'>{escape(extra)}</span>"
            f"<div class='content'>{shown(record.content)}</div>"
            + (f"<div class='muted'>{ctx.t('context')}: {shown(record.context)}</div>" if record.context else "")
            + f"<div class='muted'>{memory_line(ctx, record)}</div></div>"
            f"<div aria-label='{ctx.t('why')}'>{side}</div></article>")


def error_block(ctx: Ctx, exc: HindsightError) -> str:
    """A refusal shown on the page: its code and message (which name the field and the rule), introduced in the
    page's language."""
    return f"<div class='error' role='alert'>{ctx.t('refused')} {escape(exc.code)}: {shown(str(exc))}</div>"
