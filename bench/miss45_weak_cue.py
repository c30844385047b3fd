"""Round 45 (analysis, miss45): which of `slot_change`'s first-tier retirements on write ("states the same slot with a
change") fired on a bare time word alone - the change words the new text has and the old lacks
(`slot_cues.states_new_change`) all of them `lexicon._WEAK_EN` / `_WEAK_ZH` words (now, 现在, 已经, 以后 ...). Read from
`retire40_table.py`'s events (kept / correct / other), not a rerun: a first estimate of the rule miss45 declared, the
store's later writes as they were.

    PYTHONPATH=src:bench python bench/miss45_weak_cue.py RETIRE_TABLE.json [RETIRE_TABLE.json ...] > OUT.json
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from hindsight.retrieval.slot_cues import CHANGE_CUE
from hindsight.write import lexicon


def new_cues(old: str, new: str) -> set[str]:
    """The change words of `new` that `old` does not use (as `states_new_change` reads them)."""
    return {m.group(0).lower() for m in CHANGE_CUE.finditer(new)} - {m.group(0).lower() for m in CHANGE_CUE.finditer(old)}


def weak_only(cues: set[str]) -> bool:
    """Every cue is a bare time word of the weak lexicons."""
    return bool(cues) and all(lexicon._WEAK_EN.fullmatch(c) or lexicon._WEAK_ZH.fullmatch(c) for c in cues)


def main(paths: list[str]) -> None:
    rows = []
    for p in paths:
        for e in json.loads(Path(p).read_text(encoding="utf-8"))["events"]:
            if e["stage"] == "slot_change, same slot + cue":
                cues = new_cues(e["old_text"], e["new_text"])
                rows.append({"round": e["round"], "old": e["old"], "new": e["new"], "kind": e["kind"],
                             "cues": sorted(cues), "weak_only": weak_only(cues),
                             "questions_lost": e.get("questions_lost", 0)})
    count = Counter(f"{r['kind']} / {'weak only' if r['weak_only'] else 'other cue'}" for r in rows)
    print(json.dumps({"counts": dict(sorted(count.items())), "rows": rows}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
