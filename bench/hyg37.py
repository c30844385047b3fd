"""Hygiene round 37 (issue 10): hyg36's same-slot change side with its shared-content floor, measured under the rule
of `bench/results/hyg37_rule.md`.

    PYTHONPATH=src:bench python bench/hyg37.py fixed SCANS LORO.json T OUT.json [KEEPS]  # arm A, one t, every set
    PYTHONPATH=src:bench python bench/hyg37.py engine MAIN.json ON.json [OUT.json] # funnel cells, main vs on
    PYTHONPATH=src:bench python bench/hyg37.py arms KEEPS SCANS LORO.json OUT_DIR  # hyg36.arms, KEEPS' gate
    PYTHONPATH=src:bench python bench/hyg37.py stores KEEPS T OUT.json LOGROOT...  # hyg36_stores, KEEPS' side

KEEPS (the addendum's candidate B): which keeps of the rules the side reads - subject (round 36's), blockers (the
merge blockers' keep, `both_ways.BLOCKED`) or both.

`fixed` is `hyg36.arms`' arm A with t fixed (the in-sample view beside the held-out one; `hygdecide32.py report`
tabulates it). `engine` reads two `hygiene_funnel.py` outputs of the same rounds and prints, per round and pooled,
the clause-1 cells (changes deprecated, distinct kept, restatements merged, wrong deprecations, others untouched),
the confusion matrix, and every row whose outcome moved or whose verdict the reading gave.
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import hyg36
from hyg36 import CLASS, _action, _scans

KEEPS = ("subject", "blockers", "both")


def keeps_gate(keeps: str) -> Any:
    """`hyg36.gate` for the keeps named (`bench/results/hyg37_rule_addendum.md`)."""
    from hindsight.write.both_ways import BLOCKED
    from hindsight.write.conflict import SHARES_SUBJECT
    from hindsight.write.conversions import written_alike
    from hindsight.write.slot_value_change import same_slot_change

    if keeps not in KEEPS:
        raise SystemExit(f"KEEPS: must be one of {KEEPS}, not {keeps!r}")

    def read(row: dict[str, Any]) -> bool:
        reason = row["rules"][1]
        inside = ((keeps != "blockers" and reason.startswith(SHARES_SUBJECT))
                  or (keeps != "subject" and BLOCKED in reason))
        if not inside:
            return False
        old, new = written_alike(row.get("old") or row["existing"], row.get("new_r") or row["new"])
        return same_slot_change(old, new) is not None
    return read


def arms(keeps: str, scan_dirs: str, loro_file: str, out_dir: str) -> None:
    hyg36.gate = keeps_gate(keeps)  # type: ignore[assignment]
    hyg36.arms(scan_dirs, loro_file, out_dir)


def stores(keeps: str, *args: str) -> None:
    import hyg36_stores

    import hindsight.write.keep_decision as keep_decision
    keeps_gate(keeps)  # checks the name
    keep_decision.SLOT_SUBJECT, keep_decision.SLOT_BLOCKERS = keeps != "blockers", keeps != "subject"
    sys.argv = ["hyg36_stores.py", *args]
    hyg36_stores.main()


def fixed(scan_dirs: str, loro_file: str, t: str, out: str, keeps: str = "subject") -> None:
    read = keeps_gate(keeps)
    scans = _scans(scan_dirs)
    loro = json.loads(Path(loro_file).read_text(encoding="utf-8"))
    point = float(t)
    arm: dict[str, Any] = {}
    for s, fold in loro.items():
        rows = {}
        for k, r in fold["rows"].items():
            assert scans[k]["label"] in CLASS, k
            rows[k] = [_action(int(r[0]), float(r[2]), read(scans[k]), point), r[1], float(r[2])]
        arm[s] = {"t_merge": fold["t_merge"], "t_change": point, "rows": rows}
    Path(out).write_text(json.dumps(arm, indent=0), encoding="utf-8")


def cells(decided: list[dict[str, Any]]) -> dict[str, Any]:
    """The clause-1 cells and the confusion matrix of one round's `decided` rows."""
    def n(label: str, actual: str) -> int:
        return sum(x["label"] == label and x["actual"] == actual for x in decided)
    return {"changes_deprecated": n("change", "change"), "distinct_kept": n("distinct", "kept"),
            "restatements_merged": n("restatement", "merged"),
            "wrong_deprecations": sum(x["label"] != "change" and x["actual"] == "change" for x in decided),
            "others_untouched": sum(sum(x["others_ok"]) for x in decided),
            "others": sum(len(x["others_ok"]) for x in decided),
            "confusion": dict(sorted(Counter(f"{x['label']}->{x['actual']}" for x in decided).items()))}


def engine(main_file: str, on_file: str, out: str | None = None) -> None:
    main, on = json.loads(Path(main_file).read_text(encoding="utf-8")), json.loads(Path(on_file).read_text(encoding="utf-8"))
    result: dict[str, Any] = {}
    for rnd in (r for r in main if not r.startswith("pooled")):
        m = {x["pair"]: x for x in main[rnd]["decided"]}
        o = {x["pair"]: x for x in on[rnd]["decided"]}
        moved = [{"pair": k, "label": m[k]["label"], "main": m[k]["actual"], "on": o[k]["actual"],
                  "others_main": m[k]["others_ok"], "others_on": o[k]["others_ok"],
                  "verdict": (o[k]["final"] or ["", ""])[1][:200]}
                 for k in m if m[k]["actual"] != o[k]["actual"] or m[k]["others_ok"] != o[k]["others_ok"]
                 or (o[k]["final"] and "same slot" in o[k]["final"][1])]
        result[rnd] = {"main": cells(list(m.values())), "on": cells(list(o.values())), "moved": moved}
        for name in ("main", "on"):
            print(rnd, name, {k: v for k, v in result[rnd][name].items()})
        for row in moved:
            print("  ", row)
    if out:
        Path(out).write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    command, *rest = sys.argv[1:]
    {"fixed": fixed, "engine": engine, "arms": arms, "stores": stores}[command](*rest)
