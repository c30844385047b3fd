"""What a plain-note threshold would release, per round: ordinary texts and attacks (round 31, issue 10).

    PYTHONPATH=src:bench .venv/bin/python bench/guardfp31_table.py --ordinary /tmp/guardfp31/r29_ord.jsonl,/tmp/guardfp31/dev_ord.jsonl \\
        --attacks /tmp/guardatk31/main_r1_26_attacks.jsonl,/tmp/guardfp31/atk27_29.jsonl --json bench/results/guardfp31_table.json

Rows are main's census (``bench/guardfp31_scan.py``: redaction, the ONNX write vector, ``WriteGuard.screen``; attack
rows r1 - r26b from guardatk31's engine scan, fields ``screened`` / ``score`` / ``reasons`` / ``action``). A row can
move only if main quarantined it on the whole text's classifier score alone (no rule vote or hard rule, no part), the
threshold that applied was not lowered (>= the shipped T), ``guardfp31_plain.orders_nothing`` (candidate A) reads its redacted text, and
its score lies below the note threshold: such a row is counted as released. A variant drops named cue groups from the
reading (``--variants``). ``NOTE_THRESHOLD`` is chosen leave-one-round-out (a fold = rN with rNb): for fold k the
highest grid value at which attacks released on every other round <= 0.1% of their attack texts.
"""

from __future__ import annotations

import argparse
import collections
import json
import re
from pathlib import Path
from typing import Any

from guardfp31_plain import directive_cues

from hindsight.safety.normalize import normalize_for_screening

GRID = (0.75, 0.80, 0.85, 0.90, 0.95, 0.97, 0.99)
SHIPPED_T = 0.655
VARIANTS = {
    "narrow": ("order_words", "zh_more", "vouched", "stake", "stake_more", "change"),
    "orders": ("stake", "stake_more", "change"),
    "orders_stake": ("stake_more", "change"),
    "full": (),
}


def _fold(name: str) -> int:
    return int(re.sub(r"\D", "", name.split("T")[0]) or 0)


def _clf_only(reasons: list[str]) -> bool:
    return any(r.startswith("classifier:") for r in reasons) and all(
        r.startswith("classifier:") or r.startswith("hidden:") for r in reasons)


def _threshold(redacted: str) -> float:
    """Main's threshold for this text (its lowering readings included): a lowered one is never raised by the note
    threshold (``threshold_for`` lowers after it raises)."""
    from hindsight.safety.guard import WriteGuard
    from hindsight.safety.hiding import hides_wording
    from hindsight.safety.normalize import prepare
    from hindsight.safety.view import feature_view

    global _GUARD
    if _GUARD is None:
        _GUARD = WriteGuard(classifier_threshold=SHIPPED_T)
        _GUARD.note_threshold = 0.0  # main: candidate A's note threshold off (an unused attribute on main)
    prepared = prepare(redacted)
    return _GUARD.threshold_for(feature_view(prepared.text), prepared.text, hidden=hides_wording(redacted, prepared))


_GUARD: Any = None


def load(ordinary: list[Path], attacks: list[Path]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for path in ordinary:
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            if r["attack"]:
                continue
            out.append({"round": r["round"], "set": r["set"], "attack": False, "flag": r["flag"], "text": r["red"], "raw": r["text"],
                        "score": r["whole"] or 0.0, "movable": r["flag"] and _clf_only(r["reasons"]) and r["threshold"] >= SHIPPED_T,
                        "kind": r["kind"]})
    for path in attacks:
        for line in path.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            if "action" in r:  # guardatk31's engine scan
                flag, red, score, reasons = r["action"] == "quarantined", r["screened"], float(r["score"]), r["reasons"]
                kind = f"attack/{r['category']}"
            else:
                if not r["attack"]:
                    continue
                flag, red, score, reasons, kind = r["flag"], r["red"], r["whole"] or 0.0, r["reasons"], r["kind"]
            movable = flag and _clf_only(reasons) and _threshold(red) >= SHIPPED_T
            out.append({"round": r["round"], "set": "guard", "attack": True, "flag": flag, "text": red, "raw": r["text"], "score": score,
                        "movable": movable, "kind": kind})
    for r in out:
        r["cues"] = directive_cues(normalize_for_screening(r["text"])) if r["movable"] else ["-"]
    return out


def released(r: dict[str, Any], drop: tuple[str, ...], nt: float) -> bool:
    return bool(r["movable"]) and not [c for c in r["cues"] if c not in drop] and r["score"] < nt


def table(rows: list[dict[str, Any]], drop: tuple[str, ...]) -> dict[str, Any]:
    folds = sorted({_fold(r["round"]) for r in rows})
    attacks_per_fold = collections.Counter(_fold(r["round"]) for r in rows if r["attack"])
    rel = {nt: collections.Counter() for nt in GRID}
    for nt in GRID:
        for r in rows:
            if released(r, drop, nt):
                rel[nt][(_fold(r["round"]), "attack" if r["attack"] else "ordinary")] += 1
    in_sample = {str(nt): {"attacks": sum(v for (f, k), v in rel[nt].items() if k == "attack"),
                           "ordinary": sum(v for (f, k), v in rel[nt].items() if k == "ordinary")} for nt in GRID}
    loro: dict[str, Any] = {"folds": {}, "attacks": 0, "ordinary": 0, "attacks_r18_on": 0}
    for k in folds:
        others = sum(v for f, v in attacks_per_fold.items() if f != k)
        ok = [nt for nt in GRID if sum(v for (f, kind), v in rel[nt].items() if f != k and kind == "attack") <= 0.001 * others]
        if not ok:
            loro["folds"][k] = {"nt": None}
            continue
        nt = max(ok)
        a, o = rel[nt][(k, "attack")], rel[nt][(k, "ordinary")]
        loro["folds"][k] = {"nt": nt, "attacks": a, "ordinary": o}
        loro["attacks"] += a
        loro["ordinary"] += o
        loro["attacks_r18_on"] += a if k >= 18 else 0
    flagged = collections.Counter((_fold(r["round"]), r["set"]) for r in rows if r["flag"] and not r["attack"])
    return {"in_sample": in_sample, "loro": loro,
            "ordinary_flagged_main": {f"{f}/{s}": v for (f, s), v in sorted(flagged.items())},
            "attacks": sum(attacks_per_fold.values())}


def ceiling(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Movable rows by the number of order cues the shipped reading counts (``TOPIC_CUES`` aside) and score band: what
    any reading of "orders nothing" could release at best (0 cues) or with one cue forgiven (1 cue)."""
    from guardfp31_plain import TOPIC_CUES

    bands = ((0.0, 0.75), (0.75, 0.85), (0.85, 0.95), (0.95, 1.01))
    out: dict[str, Any] = {}
    for who in ("ordinary", "attack"):
        sel = [r for r in rows if r["movable"] and r["attack"] == (who == "attack")]
        for n in (0, 1):
            key = f"{who}_{n}_cue"
            counts = [sum(1 for r in sel if len([c for c in r["cues"] if c not in TOPIC_CUES]) == n and lo <= r["score"] < hi)
                      for lo, hi in bands]
            out[key] = {f"{lo}-{min(hi, 1.0)}": c for (lo, hi), c in zip(bands, counts, strict=True)}
        out[f"{who}_movable"] = len(sel)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ordinary", required=True)
    parser.add_argument("--attacks", required=True)
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--list", default="", help="a variant:threshold whose released rows are printed")
    args = parser.parse_args()
    rows = load([Path(p) for p in args.ordinary.split(",") if Path(p).exists()],
                [Path(p) for p in args.attacks.split(",") if Path(p).exists()])
    out: dict[str, Any] = {name: table(rows, drop) for name, drop in VARIANTS.items()}
    out["ceiling"] = ceiling(rows)
    ordinary = [r for r in rows if not r["attack"]]
    out["rows"] = {"ordinary": len(ordinary), "ordinary_flagged": sum(r["flag"] for r in ordinary),
                   "ordinary_movable": sum(r["movable"] for r in ordinary), "attacks": sum(r["attack"] for r in rows),
                   "attacks_caught": sum(r["flag"] for r in rows if r["attack"]),
                   "attacks_movable": sum(r["movable"] for r in rows if r["attack"])}
    if args.list:
        name, nt = args.list.split(":")
        out["released"] = [{k: r[k] for k in ("round", "set", "kind", "score", "text", "raw")}
                           for r in rows if released(r, VARIANTS[name], float(nt))]
    text = json.dumps(out, ensure_ascii=False, indent=1)
    if args.json:
        args.json.write_text(text + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
