"""Replay guardfp31's screens of main with this branch's threshold reading (issue 10, round 31b, branch guardfp31b).

    PYTHONPATH=src .venv/bin/python bench/guardfp31b_replay.py --split dev
    PYTHONPATH=src .venv/bin/python bench/guardfp31b_replay.py --split heldout --json bench/results/guardfp31b_replay.json

The candidate (``guardfp31b_tighten.tightens``, wired at commit b5f1756 as ``polarity.adds_check(t) or tightens(t)`` ->
``FRAME_THRESHOLD`` in ``WriteGuard.threshold_for``; measured, NOT shipped, so kept here in bench/) only raises a threshold, so
a row main quarantined on the classifier alone (no hard rule, no marked part) is released when its main score lies
below the branch's threshold for its text; every other row keeps main's verdict. No embedding is computed (the scores
are main's); the released rows are re-screened through ``WriteGuard.screen`` by ``guardfp31_scan.py --only-texts``.

``--split dev``: main's quarantined ordinary rows r18 - r24b and attacks r1 - r17 (the rows the reading was written
on). ``--split heldout``: ordinary r25 - r28b and attacks r18 - r29b. ``--split r29``: ordinary r29 / r29b.
``--split all``: everything.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import hindsight.safety.guard as guard_module
from hindsight.safety.guard import WriteGuard
from hindsight.safety.hiding import hides_wording
from hindsight.safety.normalize import prepare
from hindsight.safety.polarity import adds_check
from hindsight.safety.view import feature_view

sys.path.insert(0, str(Path(__file__).resolve().parent))
from guardfp31b_tighten import tightens  # noqa: E402  (the candidate, measured and not shipped: kept here)

ORD = [Path("/tmp/guardfp31/dev_ord.jsonl"), Path("/tmp/guardfp31/r29_ord.jsonl")]
ATK = [Path("/tmp/guardfp31/atk_r1_26_guardatk31.jsonl"), Path("/tmp/guardfp31/atk27_29.jsonl")]


def _branch_adds_check(normalised: str) -> bool:
    """The candidate's wiring (commit b5f1756): ``polarity.adds_check`` or ``tightens``."""
    return adds_check(normalised) or tightens(normalised)


def _num(rnd: str) -> int:
    return int(re.sub(r"\D", "", rnd))


def _rows(split: str) -> list[dict]:
    out = []
    for path in ORD + ATK:
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            attack = r.get("attack", r.get("label") == "attack")
            n = _num(r["round"])
            keep = {"dev": (n <= 17) if attack else (18 <= n <= 24),
                    "heldout": (n >= 18) if attack else (25 <= n <= 28),
                    "r29": (not attack) and n == 29, "all": True}[split]
            if keep:
                out.append(r | {"_attack": attack})
    return out


def _main_flag(r: dict) -> tuple[bool, bool, float | None, str]:
    """(quarantined, by the classifier alone, score, screened text)."""
    if "flag" in r:  # guardfp31_scan format
        reasons = r["reasons"]
        alone = r["flag"] and not r["hard"] and any(x.startswith("classifier:") for x in reasons)
        return bool(r["flag"]), alone, r["whole"], r["red"]
    reasons = r["reasons"]  # guardatk31's engine scan
    flagged = r["action"] == "quarantined"
    alone = flagged and any(x.startswith("classifier:") for x in reasons) and r["score"] < 1.0
    return flagged, alone, r["score"], r["screened"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--split", choices=["dev", "heldout", "r29", "all"], required=True)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    guard = WriteGuard(use_classifier=False, classifier_threshold=0.655)  # the shipped T (round 18)
    counts: dict[str, dict[str, int]] = {}
    released = []
    for r in _rows(args.split):
        flagged, alone, score, text = _main_flag(r)
        key = "attacks" if r["_attack"] else "ordinary"
        c = counts.setdefault(key, {"rows": 0, "quarantined_main": 0, "released": 0})
        c["rows"] += 1
        c["quarantined_main"] += int(flagged)
        if not alone or score is None:
            continue
        prepared = prepare(text)
        view, hidden = feature_view(prepared.text), hides_wording(text, prepared)
        main_threshold = guard.threshold_for(view, prepared.text, hidden=hidden)
        guard_module.adds_check = _branch_adds_check  # the candidate's reading on
        try:
            threshold = guard.threshold_for(view, prepared.text, hidden=hidden)
        finally:
            guard_module.adds_check = adds_check
        if score < main_threshold:  # the replayed main would not hold it: a scan of another revision
            c["stale"] = c.get("stale", 0) + 1
            continue
        if score < threshold:
            c["released"] += 1
            released.append({"round": r["round"], "attack": r["_attack"], "kind": r.get("kind") or r.get("category"),
                             "score": round(score, 4), "threshold": threshold, "text": r["text"], "screened": text})
    for c in counts.values():
        c["quarantined_branch"] = c["quarantined_main"] - c["released"]
    print(json.dumps(counts))
    for x in released:
        print(x["round"], "ATTACK" if x["attack"] else "ordinary", x["kind"], x["score"], "|", x["screened"][:300].replace("\n", " | "))
    if args.json is not None:
        args.json.write_text(json.dumps({"split": args.split, "counts": counts, "released": released}, ensure_ascii=False, indent=1) + "\n",
                             encoding="utf-8")


if __name__ == "__main__":
    main()
