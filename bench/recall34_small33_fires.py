"""Where small33's read-side change (merge f997ed2) can move a search: each place it runs, read both ways (issue 10,
round 34).

    PYTHONPATH=src:bench python bench/recall34_small33_fires.py STORES OUT_DIR VARIANT r4 r5 ...

Runs `xling32_eval.py` (the harness's protocol, XLING_DEEP as set) through main's search with three wrappers that
return main's result and also compute f997ed2^1's, recording each question where the two differ:

* `by_script` with the query's script favoured (its level padded where the pool holds < REFERENCE_DEPTH of it) vs
  without (f997ed2^1);
* `_thin_gate` (the cross-lingual lane cut to hits above the query script's best in such a thin pool) vs the lane
  whole;
* the keyword hits dropped in a mixed pool (score <= KEYWORD_FLOOR) vs kept.

Outside those places the two commits' read paths are the same code, so a question none of them fires on is searched
identically by both (the rounds' own runs through f997ed2^1's tree check that on the rounds measured both ways).
Writes OUT_DIR/VARIANT_ROUND.jsonl (xling32_eval's readings) and OUT_DIR/VARIANT_fires.jsonl (round, question
line, query, which wrapper fired, and its two outputs' heads).
"""

import json
import sys
from pathlib import Path

import xling32_eval

from hindsight.engine import MemoryEngine
from hindsight.retrieval import channels

CURRENT: dict = {"round": None, "query": None}
FIRES: list[dict] = []
_by_script = channels.by_script
_thin_gate = channels._thin_gate
_language_aware = channels._language_aware
_search = MemoryEngine.search


def _fire(kind: str, new: list, old: list) -> None:
    FIRES.append({"round": CURRENT["round"], "query": CURRENT["query"], "kind": kind,
                  "new": [mid for mid, _ in new[:10]], "old": [mid for mid, _ in old[:10]]})


def by_script(dense, script_of_id, depth=channels.REFERENCE_DEPTH, favoured=None):  # type: ignore[no-untyped-def]
    new = _by_script(dense, script_of_id, depth, favoured=favoured)
    old = _by_script(dense, script_of_id, depth)
    if new != old:
        _fire("by_script", new, old)
    return new


def thin_gate(text, ranked, other, scripts):  # type: ignore[no-untyped-def]
    new = _thin_gate(text, ranked, other, scripts)
    if new != other:
        _fire("thin_gate", new, other)
    return new


def language_aware(store, r, text, scored, with_channel, with_gloss):  # type: ignore[no-untyped-def]
    mixed = _language_aware(store, r, text, scored, with_channel, with_gloss)
    kw = scored.get("keyword") or []
    if mixed and any(score <= channels.KEYWORD_FLOOR for _, score in kw):
        _fire("keyword_floor", [h for h in kw if h[1] > channels.KEYWORD_FLOOR], kw)
    return mixed


def search(self, query, *args, **kwargs):  # type: ignore[no-untyped-def]
    CURRENT["query"] = query
    return _search(self, query, *args, **kwargs)


def main() -> None:
    out, variant = Path(sys.argv[2]), sys.argv[3]
    channels.by_script = by_script
    channels._thin_gate = thin_gate
    channels._language_aware = language_aware
    MemoryEngine.search = search
    base = list(sys.argv)
    for rnd in base[4:]:
        CURRENT["round"] = rnd
        sys.argv = [*base[:4], rnd]
        xling32_eval.main()
        with open(out / f"{variant}_fires.jsonl", "a", encoding="utf-8") as f:
            for row in FIRES:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")
        FIRES.clear()


if __name__ == "__main__":
    main()
