"""Retire round 40 (issue 10): every retirement on write of the released retrieval stores r27 - r37, by the stage
that made it, from the stores' own history (no write log needed).

    PYTHONPATH=src:bench python bench/retire40_table.py STORE_ROOT OUT.json [MISSES.json] r27 ... r37

STORE_ROOT/rN: a store `blind_store.build` wrote (ids.json, m.db). Each write of the set makes exactly one `create`
or `dedup_refresh` history row, in file order, so the write that retired a memory is the last such row before the
`deprecate` row. A retirement (old, new) is "correct" when the writer marked new as replacing old, "other" when a
different memory replaces old, "kept" when the writer replaced old with nothing (hyg37's "kept memories retired").
The stage is read from the write's reason for that old memory (the judge's pair model, `slot_change`'s tiers);
"no target" when the retiring write replaces nothing at all, "pick" when it replaces another memory (the right
write, the wrong memory: `supersede.retarget`'s choice). MISSES.json (xling40's misses.json): the questions a
retirement cost.
"""
import json
import re
import sqlite3
import sys
from collections import Counter
from pathlib import Path

from blind_store import rows
from currency19_read import set_dir
from retire24_veto import kind as rough_kind

STAGES = (("changes the existing memory", "pair model (p(change))"),
          ("states the same slot with a change", "slot_change, same slot + cue"),
          ("tells of a change of the same slot in a note", "slot_change, note tier"),
          ("states a change and a new amount", "slot_change, new amount"))


def stage(part: str) -> str:
    body = re.sub(r"^(?:supersedes|superseded by) mem_\w+: ", "", part)  # the note's wording before / after ux45
    return next((name for cue, name in STAGES if body.startswith(cue)), "other: " + body[:40])


def num(pat: str, text: str) -> float | None:
    m = re.search(pat, text)
    return float(m.group(1)) if m else None


def events(store: Path, rnd: str) -> list[dict]:
    mems = rows(set_dir(rnd) / "retrieval/memories.jsonl")
    by_id = {m["id"]: m for m in mems}
    repl: dict[str, set[str]] = {}
    for m in mems:
        r = m.get("replaces")
        for x in [r] if isinstance(r, str) else r or []:
            repl.setdefault(x, set()).add(m["id"])
    replaces_any = {n for s in repl.values() for n in s}
    ids = json.loads((store / "ids.json").read_text())
    first: dict[str, str] = {}
    for k, v in ids.items():
        first.setdefault(v, k)
    c = sqlite3.connect(f"file:{store / 'm.db'}?mode=ro", uri=True)
    out, j, status = [], -1, dict(c.execute("select id, status from memories"))
    for action, mid, note in c.execute("select action, memory_id, note from history order by seq"):
        if action in ("create", "dedup_refresh"):
            j += 1
            continue
        if action != "deprecate":
            continue
        new, old = mems[j]["id"], first[mid]
        parts = [p for p in re.split(r"; (?=supersedes|superseded by|supplements|also close)", note)
                 if p.startswith((f"supersedes {mid}", f"superseded by {mid}"))]
        part = parts[0] if parts else note
        kind = "correct" if new in repl.get(old, ()) else "other" if old in repl else "kept"
        out.append({"round": rnd, "old": old, "new": new, "kind": kind, "write": j, "stage": stage(part),
                    "target": "no target" if new not in replaces_any else "pick",
                    "p_change": num(r"p\(change\)=([\d.]+)", part), "cosine": num(r"cosine ([\d.]+)", part),
                    "status_now": status.get(mid), "reason": part[:400],
                    "rough_kind": rough_kind(by_id[old]["content"], by_id[new]["content"]),
                    "old_text": by_id[old]["content"], "new_text": by_id[new]["content"]})
    return out


def main(argv: list[str]) -> None:
    root, out = Path(argv[0]), Path(argv[1])
    misses_path = argv[2] if argv[2].endswith(".json") else None
    rounds = argv[3:] if misses_path else argv[2:]
    cost: Counter = Counter()
    if misses_path:
        for m in json.loads(Path(misses_path).read_text())["misses"]:
            if m["cause"] == "retired":  # the question's relevant memories (by its text); a retired one lost it
                q = next(q for q in rows(set_dir(m["round"]) / "retrieval/queries.jsonl") if q["query"] == m["query"])
                for sid in q["relevant"]:
                    cost[(m["round"], sid)] += 1
    evs = [e for r in rounds for e in events(root / r, r)]
    for e in evs:
        e["questions_lost"] = cost.get((e["round"], e["old"]), 0)
    kept = [e for e in evs if e["kind"] == "kept"]
    res = {
        "rounds": rounds,
        "counts": dict(Counter(e["kind"] for e in evs)),
        "per_round": {r: dict(Counter(e["kind"] for e in evs if e["round"] == r)) for r in rounds},
        "kept_by_stage": dict(Counter(e["stage"] for e in kept).most_common()),
        "correct_by_stage": dict(Counter(e["stage"] for e in evs if e["kind"] == "correct").most_common()),
        "kept_by_stage_target": dict(Counter(f"{e['stage']} / {e['target']}" for e in kept).most_common()),
        "kept_by_rough_kind": dict(Counter(e["rough_kind"] for e in kept).most_common()),
        "correct_by_rough_kind": dict(Counter(e["rough_kind"] for e in evs if e["kind"] == "correct").most_common()),
        "questions_lost_by_kind": dict(Counter({k: sum(e["questions_lost"] for e in evs if e["kind"] == k)
                                                for k in ("kept", "other", "correct")})),
        "questions_lost_by_stage": dict(Counter({s: sum(e["questions_lost"] for e in kept if e["stage"] == s)
                                                 for s in {e["stage"] for e in kept}})),
        "events": evs,
    }
    out.write_text(json.dumps(res, ensure_ascii=False, indent=1))
    print(json.dumps({k: v for k, v in res.items() if k != "events"}, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main(sys.argv[1:])
