"""Leave-one-round-out choice of `evidence.ENDING_ANCHOR` (round 16 of issue 10) from the replays of
`currency16_rows.py` (hygiene rows, per mode) and `currency16_stores.py` (retrieval stores, per mode).

    PYTHONPATH=src:bench python bench/currency16_loro.py DIR OUT.json
    # DIR holds rows_MODE.json (hygiene replay) and st/MODE.json (store statuses) for MODE in off, name, noun

Per round and mode, against "off" (main's reading): hygiene changes retired gained, wrong deprecations (distinct or
restatement retired, `others` touched) added, distinct merged or retired added; retrieval: the writer's `replaces`
pairs retired, memories deprecated that no pair names. A mode's score on a set of rounds is changes gained plus
replaced pairs retired, minus 2 x every wrong deprecation or touched other (a wrong retirement hides a fact; a
missed one leaves one stale row); ties go to the mode that fires on fewer pairs (off < name < noun). Each round is
scored with the mode chosen on all the other rounds.
"""
import json
import sys
from collections import defaultdict
from pathlib import Path

MODES = ["off", "name", "noun"]


def hygiene_deltas(base: dict, other: dict) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for key, b in base.items():
        o = other[key]
        rnd = key.rsplit(":", 1)[0]
        d = out[rnd]
        retired = lambda v: v["verdict"] == "change"  # noqa: E731
        if b["label"] == "change":
            d["changes"] += int(retired(o)) - int(retired(b))
        else:
            d["wrong"] += int(retired(o)) - int(retired(b))
        if b["label"] == "distinct":
            apart = lambda v: v["verdict"] == "kept"  # noqa: E731
            d["distinct_lost"] += int(apart(b)) - int(apart(o))
        d["others_touched"] += o["others_ok"].count(False) - b["others_ok"].count(False)
    return out


def retrieval_deltas(base: dict, other: dict) -> dict[str, dict[str, int]]:
    out: dict[str, dict[str, int]] = {}
    for rnd, b in base.items():
        o = other.get(rnd)
        if o is None:
            continue
        named = {p[0] for p in b["replaces"]}
        dep = lambda s: {k for k, v in s["status"].items() if v[0] == "deprecated"}  # noqa: E731
        out[rnd] = {"replaced": sum(p[2] for p in o["replaces"]) - sum(p[2] for p in b["replaces"]),
                    "not_replaced": len(dep(o) - named) - len(dep(b) - named),
                    "statuses_differ": sorted(k for k in b["status"] if b["status"][k] != o["status"][k])}
    return out


def score(h: dict, r: dict) -> int:
    return (h.get("changes", 0) + r.get("replaced", 0)
            - 2 * (h.get("wrong", 0) + h.get("others_touched", 0) + h.get("distinct_lost", 0) + r.get("not_replaced", 0)))


if __name__ == "__main__":
    d = Path(sys.argv[1])
    hyg = {m: json.load(open(d / f"rows_{m}.json")) for m in MODES}
    ret = {m: json.load(open(d / "st" / f"{m}.json")) for m in MODES if (d / "st" / f"{m}.json").exists()}
    hd = {m: hygiene_deltas(hyg["off"], hyg[m]) for m in MODES}
    rd = {m: retrieval_deltas(ret["off"], ret[m]) for m in ret}
    rounds = sorted({k.rsplit(":", 1)[0] for k in hyg["off"]} | set(ret.get("off", {})))
    modes = [m for m in MODES if m in rd]

    def total(m: str, keep: list[str]) -> int:
        return sum(score(hd[m].get(x, {}), rd[m].get(x, {})) for x in keep)

    loro = {}
    for held in rounds:
        rest = [x for x in rounds if x != held]
        best = max(modes, key=lambda m: (total(m, rest), -MODES.index(m)))
        loro[held] = {"mode": best, "hygiene": dict(hd[best].get(held, {})), "retrieval": rd[best].get(held, {})}
    json.dump({"per_mode": {m: {"hygiene": {k: dict(v) for k, v in hd[m].items()}, "retrieval": rd.get(m, {})}
                            for m in MODES}, "loro": loro}, open(sys.argv[2], "w"), indent=1)
    for held, v in loro.items():
        print(held, v["mode"], v["hygiene"], {k: v for k, v in v["retrieval"].items() if k != "statuses_differ"})
