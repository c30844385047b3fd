"""Retrieval round 31 (issue 10): the harness's retrieval measures replayed from captured searches
(`retr31_capture.py`), the superseded-as-current failures by cause, and read-time variants of the head.

    python bench/retr31_replay.py CAPTURE_DIR causes r29 r28 ...        # main's measures and the failures by cause
    python bench/retr31_replay.py CAPTURE_DIR demote r29 r28 ...        # main vs. outdated hits after the current ones

Measures as `blind_eval.py retrieval` scores them on the head (first five): hit@5 per category; a superseded memory
returned as current strictly (a stale memory in the head that is active, or ranked above the best relevant one) and
by the read flag (active and still `current`, or above the best relevant one); false-flag memories (hits said not
current that the writer never replaced).
"""
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path


def load(cap: Path, rnd: str) -> dict:
    return json.loads((cap / f"{rnd}.json").read_text())


def score(data: dict, heads: list[list[dict]]) -> dict:
    """The harness's measures over one round's questions, given each question's head (hit dicts, best first)."""
    replaced = set(data["replaced"])
    hits: dict[str, list[bool]] = defaultdict(list)
    strict, flag = [], []
    false_flags: set[str] = set()
    for q, head in zip(data["queries"], heads):
        head = head[:5]
        got = [h["id"] for h in head]
        rel = set(q["relevant"])
        hits[q["category"]].append(bool(rel & set(got)))
        false_flags |= {h["id"] for h in head if not h["current"] and h["id"] not in replaced}
        if q["stale"]:
            st = set(q["stale"]) - rel
            ranks = {h["id"]: (k, h) for k, h in enumerate(head)}
            best = min([ranks[x][0] for x in rel if x in ranks], default=99)
            strict.append(any(x in ranks and (ranks[x][1]["status"] == "active" or ranks[x][0] < best) for x in st))
            flag.append(any(x in ranks and ((ranks[x][1]["status"] == "active" and ranks[x][1]["current"])
                                            or ranks[x][0] < best) for x in st))
    return {"hits": {k: [sum(v), len(v)] for k, v in hits.items()}, "stale_strict": [sum(strict), len(strict)],
            "stale_flag": [sum(flag), len(flag)], "false_flag_memories": len(false_flags)}


def causes(data: dict) -> Counter:
    """Each question whose head returns a superseded memory as current (strictly), by cause."""
    out: Counter = Counter()
    replaced = set(data["replaced"])
    for q in data["queries"]:
        if not q["stale"]:
            continue
        head = q["hits"][:5]
        rel = set(q["relevant"])
        ranks = {h["id"]: (k, h) for k, h in enumerate(head)}
        best = min([ranks[x][0] for x in rel if x in ranks], default=99)
        bad = [x for x in set(q["stale"]) - rel
               if x in ranks and (ranks[x][1]["status"] == "active" or ranks[x][0] < best)]
        if not bad:
            continue
        x = bad[0]
        h = ranks[x][1]
        write = ("retired on write" if h["status"] == "deprecated" else
                 "kept on write (writer: replaced)" if x in replaced else "kept on write (writer: not replaced)")
        if best == 99:
            read = "update outside the head"
        elif h["status"] == "deprecated":
            read = "retired, ranked above its update"
        elif not h["current"]:
            read = "update in the head, stale flagged but in the head"
        else:
            read = "update in the head, stale not flagged"
        out[f"{write} / {read}"] += 1
    return out


def demote(hits: list[dict]) -> list[dict]:
    """Hits said not current (an older version of a fact) after every current hit of the depth, in order."""
    return [h for h in hits if h["current"]] + [h for h in hits if not h["current"]]


def pooled(rows: list[dict]) -> dict:
    tot: dict = {"hits": defaultdict(lambda: [0, 0]), "stale_strict": [0, 0], "stale_flag": [0, 0],
                 "false_flag_memories": 0}
    for r in rows:
        for k, (a, b) in r["hits"].items():
            tot["hits"][k][0] += a
            tot["hits"][k][1] += b
        for k in ("stale_strict", "stale_flag"):
            tot[k] = [tot[k][0] + r[k][0], tot[k][1] + r[k][1]]
        tot["false_flag_memories"] += r["false_flag_memories"]
    tot["hits"] = dict(tot["hits"])
    return tot


def main() -> None:
    cap, what, rounds = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    out: dict = {"rounds": {}}
    allc: Counter = Counter()
    for rnd in rounds:
        data = load(cap, rnd)
        main_ = score(data, [q["hits"] for q in data["queries"]])
        st = data["status"]
        replaced = set(data["replaced"])
        main_["replaced_retired"] = [sum(st.get(x) == "deprecated" for x in replaced), len(replaced)]
        main_["kept_retired"] = sum(v == "deprecated" for k, v in st.items() if k not in replaced)
        row = {"main": main_}
        if what == "causes":
            c = causes(data)
            allc += c
            row["causes"] = dict(c)
        elif what == "demote":
            row["demote"] = score(data, [demote(q["hits"]) for q in data["queries"]])
        out["rounds"][rnd] = row
    out["pooled"] = {v: pooled([r[v] for r in out["rounds"].values()]) for v in ("main", what) if v != "causes"}
    if what == "causes":
        out["causes"] = dict(allc.most_common())
    print(json.dumps(out, ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
