"""Round 41 misses (issue 10, miss47): the write side of a released retrieval store, read from the store alone.

    PYTHONPATH=src:bench python bench/miss47_write_side.py left STORES rN > left.json      # replaced, left active
    PYTHONPATH=src:bench python bench/miss47_write_side.py cues RETIRE.json rN > cues.json # first-tier cue words
    PYTHONPATH=src:bench python bench/miss47_write_side.py followup RETIRE.json ... > f.json  # a sizing, not a rule

`left`: every memory the set's writer replaced that is still not deprecated, with what the replacing write did to
it (linked "supplements", no link, the replacement itself quarantined). `cues`: for each retirement of
`retire40_table.py`'s events made by `slot_change`'s tiers, the change words (`slot_cues.CHANGE_CUE`) the new text
uses and the old does not - the words the first tier fired on. `followup`: how many retirements, by kind (correct /
kept / other), have a new text that refers back to an earlier episode (FOLLOW_UP, written from r41's kept ones).
"""

import json
import re
import sqlite3
import sys
from pathlib import Path

from blind_store import rows
from currency19_read import set_dir

from hindsight.retrieval.slot_cues import CHANGE_CUE

#: a follow-up's back-reference, written from r41's five kept retirements (so in sample there)
FOLLOW_UP = re.compile(
    r"\b(?:after the|following the|as a follow-up|since the)\b|经过|处理了|恢复|换完|结束|完成|之后", re.I
)


def _replaced(memory: dict) -> list[str]:
    r = memory.get("replaces")
    return [r] if isinstance(r, str) else list(r or [])


def left(stores: Path, rnd: str) -> list[dict]:
    ids = json.loads((stores / rnd / "ids.json").read_text())
    db = sqlite3.connect(stores / rnd / "m.db")
    status = {
        sid: db.execute("SELECT status FROM memories WHERE id = ?", (mid,)).fetchone()[0] for sid, mid in ids.items()
    }
    out = []
    for m in rows(set_dir(rnd) / "retrieval/memories.jsonl"):
        for old in _replaced(m):
            if status[old] == "deprecated":
                continue
            notes = " ".join(
                n
                for (n,) in db.execute(
                    "SELECT note FROM history WHERE memory_id = ? AND action IN ('create', 'dedup_refresh')",
                    (ids[m["id"]],),
                )
            )
            how = (
                "replacement quarantined"
                if status[m["id"]] == "quarantined"
                else "linked (supplements)"
                if ids[old] in notes
                else "no link"
            )
            out.append(
                {"old": old, "old_status": status[old], "new": m["id"], "new_status": status[m["id"]], "write": how}
            )
    return out


def _cue_words(old: str, new: str) -> list[str]:
    found = {m.group(0).lower() for m in CHANGE_CUE.finditer(new)}
    return sorted(found - {m.group(0).lower() for m in CHANGE_CUE.finditer(old)})


def main() -> None:
    mode = sys.argv[1]
    if mode == "left":
        result: object = left(Path(sys.argv[2]), sys.argv[3])
    elif mode == "cues":
        result = [
            {k: e[k] for k in ("old", "new", "kind", "stage")} | {"cue": _cue_words(e["old_text"], e["new_text"])}
            for e in json.loads(Path(sys.argv[2]).read_text())["events"]
            if "slot_change" in e["stage"]
        ]
    else:
        result = {}
        for path in sys.argv[2:]:
            counts: dict = {}
            for e in json.loads(Path(path).read_text())["events"]:
                c = counts.setdefault(e["kind"], {"follow_up": 0, "all": 0})
                c["all"] += 1
                c["follow_up"] += bool(FOLLOW_UP.search(e["new_text"]))
            result[Path(path).name] = counts
    print(json.dumps(result, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
