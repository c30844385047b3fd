"""Write side, round 46, at link level: the "supplements" links a store's writer left between a new memory and an
older one, and which of them a reading of "the new memory states another value of the same slot" would turn into a
retirement - right when the round's ground truth says the new memory replaces the older one (`replaces`), wrong
otherwise (bench/results/stale46/ship_rule.md, lever 2; nothing here is written to a store).

    python bench/stale46_links.py OUT.json r16 ... r39

Readings (each adds a bar to the one before): `value` - some value kind (`asked_kind.values`: time, place, person,
count, name) held by both, each holding one the other lacks; `subject` - and the older's subject named by the newer
(`slot_cues.subject_kept`); `told` - and the newer tells a change (`slot_cues.states_new_change`,
`note_change.states_note_change`); `one` - and exactly one kind differs (the slot is that kind's).
"""
import json
import sqlite3
import sys
from pathlib import Path

from blind_store import rows
from currency37_replay import BLIND, replaces
from stale46_replay import LOCATIONS

from hindsight.retrieval.asked_kind import KINDS, values
from hindsight.retrieval.note_change import states_note_change
from hindsight.retrieval.slot_cues import states_new_change, subject_kept

READINGS = ("value", "subject", "told", "one")


def differing(old: str, new: str) -> list[str]:
    out = []
    for k in KINDS:
        a, b = values(k, old), values(k, new)
        if a and b and a - b and b - a:
            out.append(k)
    return out


def read(rnd: str) -> dict:
    st = Path(LOCATIONS[rnd][0]) / rnd
    ids = json.loads((st / "ids.json").read_text())
    inv = {v: k for k, v in ids.items()}
    mems = {m["id"]: m for m in rows(BLIND / rnd / "retrieval/memories.jsonl")}
    con = sqlite3.connect(f"file:{st / 'm.db'}?mode=ro", uri=True)
    text = dict(con.execute("select id, content from memories where namespace = 'r'").fetchall())
    status = dict(con.execute("select id, status from memories where namespace = 'r'").fetchall())
    links = con.execute("select src, dst from edges where kind = 'supplements'").fetchall()
    con.close()
    counts = {r: {"right": 0, "wrong": 0} for r in READINGS}
    truth = {"links": 0, "replacing": 0, "replacing_old_active": 0}
    examples = []
    for src, dst in links:
        new, old = inv.get(src), inv.get(dst)
        if new not in mems or old not in mems or src not in text or dst not in text:
            continue
        right = old in replaces(mems[new])
        truth["links"] += 1
        truth["replacing"] += right
        truth["replacing_old_active"] += right and status.get(dst) == "active"
        o, n = text[dst], text[src]
        kinds = differing(o, n)
        passed = [bool(kinds), subject_kept(o, n), states_new_change(o, n) or states_note_change(o, n),
                  len(kinds) == 1]
        for i, name in enumerate(READINGS):
            if all(passed[: i + 1]):
                counts[name]["right" if right else "wrong"] += 1
        if passed[0] and passed[1]:
            examples.append({"round": rnd, "old": old, "new": new, "right": right, "kinds": kinds,
                             "told": passed[2], "old_text": o[:160], "new_text": n[:160]})
    return {"truth": truth, "readings": counts, "examples": examples}


def main() -> None:
    out = {r: read(r) for r in sys.argv[2:]}
    for r, d in out.items():
        print(r, d["truth"], {k: (v["right"], v["wrong"]) for k, v in d["readings"].items()}, flush=True)
    Path(sys.argv[1]).write_text(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
