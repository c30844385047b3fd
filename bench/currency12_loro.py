"""Leave-one-round-out choice of the per-clause value alignment (`write.value_align`, issue 10 round 12), offline.

    python bench/currency12_dump.py DUMP.jsonl                 # main's write path, every released round, once
    python bench/currency12_loro.py DUMP.jsonl [DUMP2.jsonl ...] [--out loro.json] [--weight 2]

The dump holds every call of the write-time same-slot check (`slot_change.overrides`: the new memory's nearest
active neighbour, kept by the judge) with the two texts, their cosine and the older memory's cosine to its own
nearest other memory. A setting of the new check fires on such a call when the shipped rule did not, the pair is in
one script and reaches the setting's cosine for it, the two are mutual nearest neighbours, the new text does not say
it adds (`ADDITIVE`), the older one is no warning or dated episode unless the plan moved, and `value_change` reads
a new value of one attribute. A firing then retires the older memory (the write had retired nothing else):

* hygiene rounds: on the pair's `existing` memory a kept change becomes a change (gain); a kept distinct /
  restatement / supplement pair becomes a wrong deprecation; on one of the pair's `others` that memory is touched;
* retrieval rounds: right when the writer marked the older memory replaced, wrong otherwise (the harness's
  `deprecated_not_replaced`).

For each held-out round the setting is chosen on all other rounds by gains - W x (wrong deprecations + others
touched) (ties: the setting that fires least, then the strictest), and the held-out round's counts under main and under that setting
are printed. Later writes are not replayed (a retirement can change a later write's nearest neighbour); the
engine runs (`blind_eval.py`) check the shipped setting.
"""
from __future__ import annotations

import argparse
import itertools
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

from hindsight.model import MemoryType
from hindsight.retrieval.crosslingual import bias_group
from hindsight.retrieval.currency import ADDITIVE, lasting, replans
from hindsight.write.value_align import Rule, value_change

ap = argparse.ArgumentParser()
ap.add_argument("dump", type=Path, nargs="+")
ap.add_argument("--weight", type=float, default=2.0)
ap.add_argument("--out", type=Path)
ap.add_argument("--show", default="", help="print the firings of this setting, e.g. 'en0.88 zh0.9 f0.5 s2 F1 P0'")
args = ap.parse_args()
rows = [json.loads(x) for d in args.dump for x in d.read_text(encoding="utf-8").splitlines() if x.strip()]
pairs = {(r["round"], r["i"]): r for r in rows if r["row"] == "pair"}
rounds_ret = {r["round"]: r for r in rows if r["row"] == "round"}
calls = [r for r in rows if r["row"] == "call" and not r["fired"]
         and ((r["round"], r["i"]) in pairs if r["kind"] == "hygiene" else r["round"] in rounds_ret)]
HYG = sorted({k[0] for k in pairs})
RET = sorted(rounds_ret)
ALL = sorted(set(HYG) | {f"{r}:ret" for r in RET})


def eligible(c: dict[str, Any]) -> bool:
    if c["cos"] <= c["other"] or c["separate"] or ADDITIVE.search(c["new"]):
        return False
    if c["kind"] == "hygiene":
        p = pairs[(c["round"], c["i"])]
        if p["action"] in ("superseded", "duplicate"):
            return False
    else:
        if rounds_ret[c["round"]]["actions"].get(c["i"]) in ("superseded", "duplicate"):
            return False
    return not (lasting(MemoryType(c["old_type"]), c["old"]) and not replans(c["old"], c["new"]))


cands = [c for c in calls if eligible(c) and bias_group(c["old"]) == bias_group(c["new"])]
for c in cands:
    c["script"] = bias_group(c["old"])
print(f"{len(calls)} calls the shipped rule left, {len(cands)} eligible (one script, mutual nearest, no additive)")

EN = (0.80, 0.85, 0.88, 0.90, 0.92, 9.0)
ZH = (0.85, 0.88, 0.90, 0.92, 0.94, 9.0)
FRAMES = (0.34, 0.4, 0.5)
SHARED = (2, 3)
settings = [(en, zh, Rule(frame=f, shared=s, fillers=F, predicates=P, additions=A, words=w))
            for en, zh, f, s, F, P, A, w in
            itertools.product(EN, ZH, FRAMES, SHARED, (False,), (True, False), (True, False), (0, 1, 2))]
verdict_cache: dict[tuple[str, str, Rule], bool] = {}


def fires(c: dict[str, Any], en: float, zh: float, rule: Rule) -> bool:
    if c["cos"] < (zh if c["script"] == "zh" else en):
        return False
    key = (c["old"], c["new"], rule)
    if key not in verdict_cache:
        verdict_cache[key] = bool(value_change(c["old"], c["new"], rule))
    return verdict_cache[key]


def outcome(c: dict[str, Any]) -> str:
    """gain / wrong / others / right_ret / wrong_ret / none for a firing on this call."""
    if c["kind"] == "hygiene":
        p = pairs[(c["round"], c["i"])]
        if c["role"].startswith("other"):
            return "others"
        if c["role"] != "existing" or p["actual"] != "kept":
            return "none"
        return "gain" if p["label"] == "change" else "wrong"
    r = rounds_ret[c["round"]]
    replaced = {x for xs in r["replaces"].values() for x in xs}
    if r["status"].get(c["role"]) == "deprecated":
        return "none"
    return "right_ret" if c["role"] in replaced else "wrong_ret"


def unit(c: dict[str, Any]) -> str:
    return c["round"] if c["kind"] == "hygiene" else f"{c['round']}:ret"


for c in cands:
    c["outcome"] = outcome(c)
    c["unit"] = unit(c)
cands = [c for c in cands if c["outcome"] != "none"]
counts: dict[int, dict[str, dict[str, int]]] = {}
for k, (en, zh, rule) in enumerate(settings):
    per: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for c in cands:
        if fires(c, en, zh, rule):
            per[c["unit"]][c["outcome"]] += 1
    counts[k] = per


def score(per: dict[str, dict[str, int]], units: list[str]) -> tuple[float, int]:
    gain = sum(per[u]["gain"] + per[u]["right_ret"] for u in units if u in per)
    bad = sum(per[u]["wrong"] + per[u]["others"] + per[u]["wrong_ret"] for u in units if u in per)
    return gain - args.weight * bad, -(gain + bad)


def strict(k: int) -> tuple[float, ...]:
    """Ties go to the stricter setting: higher cosines, a closer frame, more shared words, fewer words beside a
    number, no additions, no predicates."""
    en, zh, r = settings[k]
    return (en + zh, r.frame, r.shared, -r.words, -int(r.additions), -int(r.predicates))


def name(k: int) -> str:
    en, zh, r = settings[k]
    return (f"en{en if en < 9 else 'off'} zh{zh if zh < 9 else 'off'} f{r.frame} s{r.shared} F{int(r.fillers)} "
            f"P{int(r.predicates)} A{int(r.additions)} w{r.words}")


def base_rows(unit: str, fired: list[dict[str, Any]]) -> dict[str, Any]:
    """The harness's rates for a hygiene round, main's (from the dump) and with `fired` applied."""
    if unit.endswith(":ret"):
        r = rounds_ret[unit[:-4]]
        replaced = {x for xs in r["replaces"].values() for x in xs}
        ok = sum(r["status"].get(x) == "deprecated" for x in replaced)
        wrong = sum(v == "deprecated" for k, v in r["status"].items() if k not in replaced)
        right_new = len({c["role"] for c in fired if c["outcome"] == "right_ret"})
        wrong_new = len({c["role"] for c in fired if c["outcome"] == "wrong_ret"})
        return {"replaced_retired": [ok, ok + right_new, len(replaced)], "deprecated_not_replaced": [wrong, wrong + wrong_new]}
    ps = [p for (rnd, _), p in pairs.items() if rnd == unit]
    flip = {c["i"] for c in fired if c["role"] == "existing"}
    hit = defaultdict(int)
    for c in fired:
        if c["role"].startswith("other"):
            hit[c["i"]] += 1
    def rates(after: bool) -> dict[str, Any]:
        got = [(p["label"], "change" if after and p["i"] in flip and p["actual"] == "kept" else p["actual"]) for p in ps]
        share = lambda lab, v: [sum(1 for x, a in got if x == lab and a == v), sum(1 for x, _ in got if x == lab)]  # noqa: E731
        non = [a for x, a in got if x != "change"]
        others = [ok for p in ps for ok in p["others_ok"]]
        touched = sum(hit.values()) if after else 0
        return {"distinct_kept": share("distinct", "kept"), "restatements_merged": share("restatement", "merged"),
                "changes": share("change", "change"), "wrong": [sum(a == "change" for a in non), len(non)],
                "others_untouched": [sum(others) - touched, len(others)]}
    return {"main": rates(False), "after": rates(True)}


NONE = {"gain": 0, "wrong": 0, "others": 0, "right_ret": 0, "wrong_ret": 0}
report: dict[str, Any] = {"weight": args.weight, "folds": {}}
total = defaultdict(int)
for held in ALL:
    train = [u for u in ALL if u != held]
    best = max(range(len(settings)), key=lambda k: (score(counts[k], train), strict(k)))
    if score(counts[best], train)[0] <= 0:
        chosen, got = "off", dict(NONE)
    else:
        chosen, got = name(best), {**NONE, **counts[best].get(held, {})}
    fired = [] if chosen == "off" else [c for c in cands if c["unit"] == held and fires(c, *settings[best])]
    report["folds"][held] = {"chosen": chosen, **got, "rows": base_rows(held, fired)}
    for key, v in got.items():
        total[key] += v
    print(f"{held:10s} {chosen:44s} " + " ".join(f"{k}={v}" for k, v in got.items() if v))
report["held_out_total"] = dict(total)
best = max(range(len(settings)), key=lambda k: (score(counts[k], ALL), strict(k)))
report["all_rounds_choice"] = {"setting": name(best), **{k: sum(counts[best][u][k] for u in ALL) for k in NONE}}
shipped = [c for c in cands if fires(c, *settings[best])]
report["all_rounds_rows"] = {u: base_rows(u, [c for c in shipped if c["unit"] == u]) for u in ALL}
report["all_rounds_firings"] = [(c["unit"], c["outcome"], c["cos"], c["old"], c["new"]) for c in shipped]
print("held out total", dict(total))
print("all rounds", report["all_rounds_choice"])
if args.show:
    for c in cands:
        k = next(k for k in range(len(settings)) if name(k) == args.show)
        if fires(c, *settings[k]):
            print(c["unit"], c["outcome"], round(c["cos"], 3), "|", c["old"][:90], "|", c["new"][:110], "|",
                  value_change(c["old"], c["new"], settings[k][2]))
if args.out:
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
