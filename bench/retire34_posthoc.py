"""retire34, post hoc (after the rule's run, not a ship decision): which part of the attribute reading moves which
retirements - V's vetoes by reason (another product code / slots apart), R's additions by the judge's label and
p(change) - right and wrong, held out (r1 - r25) and in sample (r26 on).

    PYTHONPATH=src:bench python bench/retire34_posthoc.py OUT.json LOGROOT...
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import retire34_attr as attr
from blind_store import rows
from change33_pairs import _logs, _p
from currency19_read import set_dir
from retire34_replay import HELD_OUT_MAX, _num


def _bucket(p: float | None) -> str:
    return "none" if p is None else "<0.3" if p < 0.3 else "<0.6" if p < 0.6 else ">=0.6"


def main() -> None:
    out, args = sys.argv[1], sys.argv[2:]
    logs, _ = _logs(args)
    res: dict[str, Counter] = {"held_out": Counter(), "in_sample": Counter()}
    for rnd, f in sorted(logs.items(), key=lambda kv: _num(kv[0])):
        part = res["held_out" if _num(rnd) <= HELD_OUT_MAX else "in_sample"]
        mems = {m["id"]: m for m in rows(set_dir(rnd) / "retrieval/memories.jsonl")}
        replaced = {x for m in mems.values() for x in ([m["replaces"]] if isinstance(m.get("replaces"), str)
                                                         else m.get("replaces") or [])}
        log = json.loads(f.read_text())
        retired = {o for e in log.values() if not e.get("duplicate_of") for o in e["supersedes"]}
        for w, e in log.items():
            if w not in mems or e.get("duplicate_of"):
                continue
            new = mems[w]["content"]
            for o in e["supersedes"]:
                old = mems[o]["content"]
                right = "right" if o in replaced else "wrong"
                why = ("code" if attr.same_subject(old, new) is False else
                       "slots" if attr.reading(old, new) == "other" else "stands")
                part[f"V {why} {right}"] += 1
            if e["supersedes"]:
                continue
            for j in sorted(e["judged"], key=lambda j: -j["sim"]):
                o = j["old"]
                if o in mems and o not in retired and attr.replaces(mems[o]["content"], new):
                    right = "right" if o in replaced else "wrong"
                    part[f"R {j['label']} p{_bucket(_p(j['reason']))} {right}"] += 1
                    break
    Path(out).write_text(json.dumps({k: dict(sorted(v.items())) for k, v in res.items()}, indent=1) + "\n")
    for k, v in res.items():
        print(k, dict(sorted(v.items())), file=sys.stderr)


if __name__ == "__main__":
    main()
