"""Redaction round 32: row-level comparison of two ``redaction27_alone.py`` dumps (main and branch).

    PYTHONPATH=src .venv/bin/python bench/pii32_alone_diff.py MAIN.json BRANCH.json OUT.json

Prints per set the PII and look-alike counts on both sides where they differ, every row whose pass / fail moved and
every row whose output changed while it passed on both sides (a different placeholder or span); dumps them to OUT.
"""
import json
import sys


def main() -> None:
    main_out = json.load(open(sys.argv[1], encoding="utf-8"))
    branch = json.load(open(sys.argv[2], encoding="utf-8"))
    moved, changed, sets = [], [], {}
    for name, rows in main_out.items():
        other = branch[name]
        tally = [0, 0, 0, 0]
        for a, b in zip(rows, other, strict=True):
            i = 0 if a["kind"] == "pii" else 2
            tally[i] += a["ok"]
            tally[i + 1] += b["ok"]
            if a["ok"] != b["ok"]:
                moved.append({"set": name, "kind": a["kind"], "up": b["ok"], "text": a["text"], "main": a["out"], "branch": b["out"]})
            elif a["out"] != b["out"]:
                changed.append({"set": name, "kind": a["kind"], "ok": a["ok"], "text": a["text"], "main": a["out"], "branch": b["out"]})
        sets[name] = tally
        if tally[0] != tally[1] or tally[2] != tally[3]:
            print(name, f"pii {tally[0]} -> {tally[1]}", f"look-alikes {tally[2]} -> {tally[3]}")
    for m in moved:
        print("MOVED", "UP" if m["up"] else "DOWN", m["set"], m["kind"], "\n  M:", m["main"][:300], "\n  B:", m["branch"][:300])
    for c in changed:
        print("CHANGED", c["set"], c["kind"], "\n  M:", c["main"][:300], "\n  B:", c["branch"][:300])
    down = sum(not m["up"] for m in moved)
    print(len(moved), "rows moved,", down, "down;", len(changed), "outputs changed with the same verdict")
    json.dump({"sets": sets, "moved": moved, "changed": changed}, open(sys.argv[3], "w", encoding="utf-8"), ensure_ascii=False, indent=1)


if __name__ == "__main__":
    main()
