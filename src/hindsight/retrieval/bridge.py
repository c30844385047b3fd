"""A question that asks by role names nobody; the best hits often do (issue 10, round 30; off by default).

"Why can we never get the São Paulo office head on the phone at the weekend?" shares no word with its answer,
"Lucas has two daughters and coaches their futsal team on Saturday mornings ...": the question names a role, the
answer a person. The memories that say who holds the role ("Lucas would rather we reach him on Feishu ... the SP
team", "Lucas Almeida (São Paulo office manager) ...") are what the search finds first. So the person names of the
best `FROM` hits that the question does not use are appended to it (`bridge_names`), the enriched question is
embedded and searched densely, and the best memory of that search that holds one of those names and is not in the
head yet takes the head's last place - only when the enriched question is closer to it than to the hit it displaces
(`place`; `why.bridged_by` names the hit the name came from). English questions only: the names are read as
capitalised words (`understanding.names`), and a Chinese memory writes a name in characters.

Setting `bridge_slot` (0 off, 1 on). Measured leave-one-round-out on the released retrieval rounds
(docs/benchmarks.md "Retrieval, round 30").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TypeVar

import numpy as np

from hindsight.retrieval.understanding.names import _en_names

#: the best hits whose names bridge, and the most names appended
FROM = 2
MAX_NAMES = 3
#: how deep the enriched question's dense search looks for a memory holding a bridge name
DEPTH = 10

_WORD = re.compile(r"[A-Za-zÀ-ÿ]+")
H = TypeVar("H")


def bridge_names(query: str, texts: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """(name, id of the hit it came from) for the person-like names of `texts` ((id, text), best first) that the
    question does not use, in order, at most `MAX_NAMES`."""
    asked = {w.lower() for w in _WORD.findall(query)}
    out: dict[str, str] = {}
    for mid, text in texts:
        for name in _en_names(text, []):
            if not {w.lower() for w in _WORD.findall(name)} & asked and name not in out:
                out[name] = mid
    return list(out.items())[:MAX_NAMES]


def holds(text: str, name: str) -> bool:
    """`text` uses `name`'s first word as a word (a first name alone is how notes mostly refer to a person)."""
    first = name.split()[0]
    return re.search(rf"(?<![A-Za-z]){re.escape(first)}(?![a-z])", text) is not None


def place(hits: list[H], top_k: int, ranked: Sequence[tuple[str, float]], id_of: Callable[[H], str],
          content: Callable[[str], str | None], names: Sequence[tuple[str, str]], vector: np.ndarray,
          embedding: Callable[[str], np.ndarray | None], make: Callable[[str, str, H | None], H | None]) -> list[H]:
    """`hits` with the enriched search's best new memory holding a bridge name at place `top_k` (the head's last),
    when the enriched question (`vector`) is closer to it than to the hit there; otherwise `hits` unchanged.
    `ranked`: the enriched question's dense search, best first; `make(id, bridged_by, hit or None)` marks the hit
    already below the head, or builds one."""
    if top_k < 2 or not names or len(hits) < top_k:
        return hits
    head = {id_of(h) for h in hits[:top_k]}
    for mid, cos in ranked[:DEPTH]:
        text = content(mid)
        if mid in head or text is None:
            continue
        via = next((src for name, src in names if holds(text, name)), None)
        if via is None:
            continue
        last = embedding(id_of(hits[top_k - 1]))
        if last is not None and float(np.dot(last, vector)) >= cos:
            return hits
        moved = make(mid, via, next((h for h in hits[top_k:] if id_of(h) == mid), None))
        if moved is None:
            return hits
        rest = [h for h in hits[top_k - 1:] if id_of(h) != mid]
        return [*hits[: top_k - 1], moved, *rest]
    return hits
