"""Missed changes and wrong deprecations of main's write path, and the code path that decided each (issue 10, r12).

    python bench/currency12_misses.py DUMP.jsonl [--examples N] > misses.json

Reads `bench/currency12_dump.py`'s rows. Hygiene rounds: every `change` pair whose older memory stayed active, and
every distinct / restatement / supplement pair whose older memory was retired, with the judge's verdict on the
pair (`judge.classify` through `hygiene.classify`) and what the write-time same-slot check (`slot_change`) said when
it was asked. Retrieval rounds: every memory the writer marked replaced that stayed active, and whether the
same-slot check was asked about it by its replacement.
"""
from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path

from hindsight.retrieval.crosslingual import bias_group

ap = argparse.ArgumentParser()
ap.add_argument("dump", type=Path, nargs="+")
ap.add_argument("--examples", type=int, default=3)
args = ap.parse_args()
rows = [json.loads(x) for d in args.dump for x in d.read_text(encoding="utf-8").splitlines() if x.strip()]
calls = defaultdict(list)
for r in rows:
    if r["row"] == "call":
        calls[(r["round"], r["i"])].append(r)


def why(reason: str) -> str:
    for key, name in (("not a restatement:", "merge blocker"), ("no evidence of a new value", "no change evidence"),
                      ("another language", "cross-language gate"), ("no content word", "no shared word"),
                      ("same statement about something else", "same frame, another thing"),
                      ("shares the subject, adds or changes", "shares the subject, adds or changes"),
                      ("different numbers", "different numbers about another subject"),
                      ("another attribute", "another attribute"), ("another subject", "another subject"),
                      ("several slots", "several slots"), ("adds a clause", "adds a clause"),
                      ("value changed", "value changed (numbers)"), ("one slot filled differently", "one slot"),
                      ("p(change)", "pair model"), ("below", "band"), ("under the band", "band")):
        if key in reason:
            return name
    return reason.split("(")[0].strip()[:50] or "?"


def slot_said(c: dict) -> str:
    if c["fired"]:
        return "slot rule fired"
    if c["cos"] <= c["other"]:
        return "slot: not mutual nearest"
    if bias_group(c["old"]) != bias_group(c["new"]):
        return "slot: across scripts"
    return "slot: declined (cosine / cue / anchors)"


out: dict = {"hygiene": {}, "retrieval": {}}
paths: Counter = Counter()
examples: dict = defaultdict(list)
for r in rows:
    if r["row"] != "pair":
        continue
    missed = r["label"] == "change" and r["actual"] != "change"
    wrong = r["label"] != "change" and r["actual"] == "change"
    if not (missed or wrong):
        continue
    judged = r["judge"]
    cs = [c for c in calls[(r["round"], r["i"])] if c["role"] == "existing"]
    if judged is None:
        path = "never judged (candidate search)"
    elif missed and judged[0] == "duplicate":
        path = "judge: merged (restatement)"
    elif missed and judged[0] == "override":
        path = "judge: change, undone by the fold (retarget / separate events / one per write)"
    elif missed:
        path = f"judge kept: {why(judged[1])}" + (f" | {slot_said(cs[0])}" if cs else " | slot: not asked (not nearest)")
    elif cs and cs[0]["fired"]:
        path = "slot rule fired"
    else:
        path = f"judge change: {why(judged[1]) if judged else '?'}"
    key = f"{'missed change' if missed else 'wrong deprecation (' + r['label'] + ')'} | {path}"
    paths[key] += 1
    if len(examples[key]) < args.examples:
        examples[key].append(f"{r['round']}: {r['existing'][:70]} || {r['new'][:90]}")
out["hygiene"] = {"paths": dict(paths.most_common()), "examples": examples}
ret: Counter = Counter()
rex: dict = defaultdict(list)
for r in rows:
    if r["row"] != "round":
        continue
    for new, olds in r["replaces"].items():
        for old in olds:
            if r["status"].get(old) == "deprecated":
                ret["retired"] += 1
                continue
            cs = [c for c in calls[(r["round"], new)] if c["role"] == old]
            key = slot_said(cs[0]) if cs else "not the nearest neighbour the judge kept (judge / fold / candidate)"
            ret[key] += 1
            if len(rex[key]) < args.examples:
                rex[key].append(f"{r['round']} {old}->{new}")
    ret["deprecated, not replaced"] += sum(
        1 for k, v in r["status"].items() if v == "deprecated" and k not in {x for xs in r["replaces"].values() for x in xs})
out["retrieval"] = {"paths": dict(ret.most_common()), "examples": rex}
print(json.dumps(out, ensure_ascii=False, indent=1))
