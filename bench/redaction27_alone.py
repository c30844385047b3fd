"""Redaction round 27: redaction alone (rules + shipped tagger) on every released PII set but the held-out one(s).

    PYTHONPATH=<src> .venv/bin/python bench/redaction27_alone.py OUT.json [HELD ...]    # HELD defaults to r25

Dumps each row's output and whether it passes (secrets gone, keep words kept); prints per set and pooled, blind
rounds and training writers apart. A held-out set is skipped entirely (its rows are not even redacted).
"""
import glob
import json
import sys

from hindsight.safety.redact import redact


def run(held: set[str]) -> dict[str, list[dict]]:
    out = {}
    files = sorted(glob.glob("bench/data/blind/*/pii/set.jsonl") + glob.glob("bench/data/train/*/pii/set.jsonl"))
    for f in files:
        name = f.split("/")[3]
        if name in held:
            continue
        rows = [json.loads(line) for line in open(f, encoding="utf-8") if line.strip()]
        res = []
        for r in rows:
            red = redact(r["text"]).text
            ok = all(s not in red for s in r["secrets"]) and all(k in red for k in r["keep"])
            res.append({"ok": ok, "kind": r["kind"], "cat": r["category"], "lang": r.get("lang"), "text": r["text"],
                        "out": red, "secrets": r["secrets"], "keep": r["keep"]})
        out[name] = res
    return out


def tally(res: list[dict]) -> tuple[int, int, int, int]:
    p = [x["ok"] for x in res if x["kind"] == "pii"]
    look = [x["ok"] for x in res if x["kind"] != "pii"]
    return sum(p), len(p), sum(look), len(look)


def main() -> None:
    held = set(sys.argv[2:]) or {"r25"}
    out = run(held)
    json.dump(out, open(sys.argv[1], "w"), ensure_ascii=False)
    pools = {"blind": [0, 0, 0, 0], "train": [0, 0, 0, 0]}
    for name, res in out.items():
        t = tally(res)
        pool = pools["train" if "T" in name else "blind"]
        for i, v in enumerate(t):
            pool[i] += v
        print(name, f"{t[0]}/{t[1]}", f"{t[2]}/{t[3]}")
    for k, (a, b, c, d) in pools.items():
        print("pooled", k, f"{a}/{b} {a / max(b, 1):.4f}", f"{c}/{d} {c / max(d, 1):.4f}")


if __name__ == "__main__":
    main()
