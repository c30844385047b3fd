"""Inline SVG for the console: score-breakdown bars, bar plots, and the walkable edge graph.

Pure functions from numbers and (escaped) labels to SVG text; no style attributes (the console's CSP allows
no inline styles), colours come from classes in console.css.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from urllib.parse import quote


def score_bars(parts: Sequence[tuple[str, float, float]], width: int = 260) -> str:
    """One horizontal bar per (label, value, max) pair; the value is printed next to it."""
    row, label_w = 16, 92
    height = row * len(parts) + 4
    out = [f"<svg class='bars' role='img' width='{width}' height='{height}' viewBox='0 0 {width} {height}'>"]
    for i, (label, value, top) in enumerate(parts):
        y = i * row + 2
        share = 0.0 if top <= 0 else max(0.0, min(1.0, value / top))
        bar = int((width - label_w - 44) * share)
        out.append(f"<text x='0' y='{y + 11}' class='lbl'>{escape(label)}</text>"
                   f"<rect x='{label_w}' y='{y + 2}' width='{width - label_w - 44}' height='10' class='track'/>"
                   f"<rect x='{label_w}' y='{y + 2}' width='{bar}' height='10' class='bar'/>"
                   f"<text x='{width - 40}' y='{y + 11}' class='val'>{value:.3f}</text>")
    out.append("</svg>")
    return "".join(out)


def bar_plot(items: Sequence[tuple[str, float]], title: str, width: int = 420, height: int = 160) -> str:
    """Vertical bars with labels underneath (counts by type/status, per-hour series, histograms)."""
    top = max((v for _, v in items), default=0) or 1
    n = max(len(items), 1)
    slot = (width - 10) / n
    base = height - 24
    out = [(f"<svg class='plot' role='img' aria-label='{escape(title)}' width='{width}' height='{height}' "
            f"viewBox='0 0 {width} {height}'><title>{escape(title)}</title>"
            f"<line x1='5' y1='{base}' x2='{width - 5}' y2='{base}' class='axis'/>")]
    thin = n > 12
    for i, (label, value) in enumerate(items):
        h = (base - 16) * value / top
        x = 5 + i * slot
        out.append(f"<rect x='{x + slot * 0.15:.1f}' y='{base - h:.1f}' width='{slot * 0.7:.1f}' height='{h:.1f}' "
                   f"class='bar'><title>{escape(label)}: {value:g}</title></rect>")
        if value and not thin:
            out.append(f"<text x='{x + slot / 2:.1f}' y='{base - h - 3:.1f}' class='val mid'>{value:g}</text>")
        if not thin or i % max(1, n // 8) == 0:
            out.append(f"<text x='{x + slot / 2:.1f}' y='{height - 8}' class='lbl mid'>{escape(label)}</text>")
    out.append("</svg>")
    return "".join(out)


def edge_graph(center: tuple[str, str], neighbours: Sequence[tuple[str, str, str, bool]], namespace: str,
               size: int = 360) -> str:
    """The memory in the middle, its neighbours on a circle; every node links to its own page (walk the graph).

    `neighbours`: (memory_id, short label, edge kind, outgoing?) tuples.
    """
    mid = size / 2
    radius = size / 2 - 60
    ns = quote(namespace, safe="")
    out = [(f"<svg class='graph' role='img' width='{size}' height='{size}' viewBox='0 0 {size} {size}'>"
            "<defs><marker id='arrow' viewBox='0 0 10 10' refX='10' refY='5' markerWidth='7' markerHeight='7' "
            "orient='auto-start-reverse'><path d='M 0 0 L 10 5 L 0 10 z' class='arrow'/></marker></defs>")]
    nodes = []
    for i, (memory_id, label, kind, outgoing) in enumerate(neighbours):
        angle = 2 * math.pi * i / max(len(neighbours), 1) - math.pi / 2
        x, y = mid + radius * math.cos(angle), mid + radius * math.sin(angle)
        x1, y1, x2, y2 = (mid, mid, x, y) if outgoing else (x, y, mid, mid)
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1
        x2, y2 = x2 - dx / length * 20, y2 - dy / length * 20  # stop at the node's edge
        out.append(f"<line x1='{x1:.1f}' y1='{y1:.1f}' x2='{x2:.1f}' y2='{y2:.1f}' class='edge {escape(kind)}' "
                   "marker-end='url(#arrow)'/>"
                   f"<text x='{(mid + x) / 2:.1f}' y='{(mid + y) / 2 - 4:.1f}' class='kind mid'>{escape(kind)}</text>")
        href = f"/console/memory/{quote(memory_id, safe='')}?ns={ns}"
        nodes.append(f"<a href='{escape(href)}' class='node' data-id='{escape(memory_id)}'>"
                     f"<circle cx='{x:.1f}' cy='{y:.1f}' r='18'/><title>{escape(label)}</title>"
                     f"<text x='{x:.1f}' y='{y + 32:.1f}' class='lbl mid'>{escape(label[:22])}</text></a>")
    out.extend(nodes)
    out.append(f"<circle cx='{mid}' cy='{mid}' r='22' class='self'/>"
               f"<text x='{mid}' y='{mid + 38}' class='lbl mid strong'>{escape(center[1][:26])}</text></svg>")
    return "".join(out)
