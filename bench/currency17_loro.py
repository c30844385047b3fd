"""Leave-one-round-out choice of `slot_change.KEPT_LOST` (round 17 of issue 10: the kept-statement tier).

    PYTHONPATH=src:bench python bench/hygiene_funnel.py --out DIR/main.json                    # main, every pair
    PYTHONPATH=src:bench python bench/currency17_loro.py pairs DIR/pairs.json                   # pairs the tier may read
    PYTHONPATH=src:bench python bench/currency17_loro.py replay L DIR/pairs.json DIR/L$L.json  # L: off | 0 | 1 | 2 | 3
    PYTHONPATH=src:bench python bench/currency17_loro.py loro DIR OUT.json

`pairs` lists the released hygiene pairs where the tier, at its most permissive setting (3), reads a change from the
existing memory or from one of the `others` to the new one (lexical only); only those can move, so only those are
replayed through the engine (`hygiene_funnel.py --pairs`, with `KEPT_LOST` set). Each round's outcome is main's,
with the replayed pairs replaced by the replay ("off" is main's code on the same pairs: the baseline).

A setting's score on a set of rounds is the changes retired gained minus 5 x (wrong deprecations added + distinct
pairs no longer kept apart + others touched): the ship rule (wrong deprecations not up by more than the changes
gained / 5). Ties go to the setting that reads fewer pairs (off < 0 < 1 < 2 < 3). Each round is scored with the
setting chosen on all the other rounds. The report also gives each fixed setting on every round (`fixed`,
`by_round_and_setting`): the shipped `KEPT_LOST` 0 is one of them, not the held-out choice (docs/benchmarks.md,
"Currency, round 17").
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

SETTINGS = ["off", "0", "1", "2", "3"]
ROUNDS = ("r1", "r2", "r4", "r5", "r6", "r7", "r8", "r8T1", "r9", "r9T1", "r10", "r10T1", "r11", "r11T1", "r13",
          "r15", "r16", "r17", "r18")


def rows_of(rnd: str) -> list[dict[str, Any]]:
    root = Path(__file__).resolve().parent / "data"
    base = root / ("blind" if (root / "blind" / rnd).exists() else "train") / rnd
    return [json.loads(x) for x in (base / "hygiene" / "set.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]


def screen(out: Path) -> None:
    import hindsight.write.slot_change as sc
    sc.KEPT_LOST = 3
    pairs = [f"{rnd}:{i}" for rnd in ROUNDS for i, x in enumerate(rows_of(rnd))
             if any(sc._kept_statement(o, x["new"]) for o in [x["existing"], *(x.get("others") or [])])]
    out.write_text(json.dumps(pairs))
    print(len(pairs), "pairs")


def replay(setting: str, pairs: Path, out: Path) -> None:
    import runpy

    import hindsight.write.slot_change as sc
    sc.KEPT_LOST = None if setting == "off" else int(setting)
    funnel = str(Path(__file__).resolve().parent / "hygiene_funnel.py")
    sys.argv = [funnel, "--pairs", str(pairs), "--out", str(out)]
    runpy.run_path(funnel, run_name="__main__")


def outcomes(main: dict[str, Any], replayed: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """pair -> its decided entry: main's, or the replay's where the pair was replayed."""
    out = {d["pair"]: d for rnd in ROUNDS for d in main[rnd]["decided"]}
    out.update({d["pair"]: d for rnd in ROUNDS if rnd in replayed for d in replayed[rnd]["decided"]})
    return out


def measures(ds: list[dict[str, Any]]) -> dict[str, Any]:
    by: dict[str, list[str]] = {}
    for d in ds:
        by.setdefault(d["label"], []).append(d["actual"])
    others = [ok for d in ds for ok in d["others_ok"]]
    nonchange = [x for lab in ("restatement", "distinct", "supplement") for x in by.get(lab, [])]

    def share(xs: list[Any], v: Any) -> str:
        return f"{sum(x == v for x in xs)}/{len(xs)}"
    return {"changes_deprecate_old": share(by.get("change", []), "change"),
            "wrong_deprecations": share(nonchange, "change"),
            "distinct_kept_apart": share(by.get("distinct", []), "kept"),
            "restatements_merged": share(by.get("restatement", []), "merged"),
            "others_untouched": share(others, True)}


def deltas(base: dict[str, dict[str, Any]], other: dict[str, dict[str, Any]], rounds: set[str]) -> Counter[str]:
    c: Counter[str] = Counter()
    for key, b in base.items():
        if key.rsplit(":", 1)[0] not in rounds:
            continue
        o = other[key]
        retired = int(o["actual"] == "change") - int(b["actual"] == "change")
        c["changes" if b["label"] == "change" else "wrong"] += retired
        if b["label"] == "distinct":
            c["distinct_lost"] += int(b["actual"] == "kept") - int(o["actual"] == "kept")
        c["others_touched"] += o["others_ok"].count(False) - b["others_ok"].count(False)
    return c


def score(c: Counter[str]) -> int:
    return c["changes"] - 5 * (c["wrong"] + c["distinct_lost"] + c["others_touched"])


def loro(d: Path, out: Path) -> None:
    main = json.loads((d / "main.json").read_text(encoding="utf-8"))
    runs = {s: outcomes(main, json.loads((d / f"L{s}.json").read_text(encoding="utf-8"))) for s in SETTINGS}
    base = runs["off"]
    chosen: dict[str, str] = {}
    for rnd in ROUNDS:
        train = set(ROUNDS) - {rnd}
        chosen[rnd] = max(SETTINGS, key=lambda s: (score(deltas(base, runs[s], train)), -SETTINGS.index(s)))
    after = {k: runs[chosen[k.rsplit(":", 1)[0]]][k] for k in base}
    report: dict[str, Any] = {"chosen": chosen, "rounds": {}}
    for rnd in ROUNDS:
        b = [v for k, v in base.items() if k.rsplit(":", 1)[0] == rnd]
        a = [v for k, v in after.items() if k.rsplit(":", 1)[0] == rnd]
        report["rounds"][rnd] = {"before": measures(b), "after": measures(a)}
    report["pooled"] = {"before": measures(list(base.values())), "after": measures(list(after.values()))}
    report["confusion"] = {"before": dict(sorted(Counter(f"{v['label']}->{v['actual']}" for v in base.values()).items())),
                           "after": dict(sorted(Counter(f"{v['label']}->{v['actual']}" for v in after.values()).items()))}
    report["all_rounds_by_setting"] = {s: dict(deltas(base, runs[s], set(ROUNDS))) for s in SETTINGS}
    report["by_round_and_setting"] = {s: {rnd: dict(c) for rnd in ROUNDS if any((c := deltas(base, runs[s], {rnd})).values())}
                                      for s in SETTINGS[1:]}
    report["fixed"] = {s: {"pooled": measures(list(runs[s].values())),
                           "confusion": dict(sorted(Counter(f"{v['label']}->{v['actual']}" for v in runs[s].values()).items()))}
                       for s in SETTINGS[1:]}
    report["main_vs_off"] = sum(1 for k in base if base[k]["actual"] != outcomes(main, {})[k]["actual"])
    report["moved"] = [{"pair": k, "label": base[k]["label"], "before": base[k]["actual"], "after": after[k]["actual"],
                        "others_ok": after[k]["others_ok"]} for k in base
                       if (base[k]["actual"], base[k]["others_ok"]) != (after[k]["actual"], after[k]["others_ok"])]
    out.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: report[k] for k in ("chosen", "pooled", "confusion", "all_rounds_by_setting", "main_vs_off")},
                     indent=1))


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "pairs":
        screen(Path(sys.argv[2]))
    elif cmd == "replay":
        replay(sys.argv[2], Path(sys.argv[3]), Path(sys.argv[4]))
    else:
        loro(Path(sys.argv[2]), Path(sys.argv[3]))
