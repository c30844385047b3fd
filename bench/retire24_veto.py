"""Retire round 24b (issue 10): which rule retired each memory of the released retrieval stores, and the
`write.retire_veto` reading of every retirement, leave-one-round-out.

    PYTHONPATH=src:bench python bench/retire24_veto.py STORE_ROOT OUT.json

STORE_ROOT: the stores `supersede24_stores.py` wrote (each with its write_log.json). A retirement is a (old, new)
pair where the new memory's write superseded the old one: correct when the writer marked the new memory as replacing
the old, "kept retired" when the writer marked no replacement of the old one at all. The rule is read from the
write's reason (the judge's pair model "changes the existing memory", a `slot_change` tier's wording). The veto's
settings (`SETTINGS`, off first) are scored on the other rounds: kept retirements vetoed - 2 x correct ones vetoed -
2 x released hygiene change rows it fires on (an upper bound of the changes it can cost there); ties to off.
Static: a vetoed retirement is read as the old memory left active, nothing downstream re-run.
"""
import glob
import json
import re
import sys
from collections import Counter
from pathlib import Path

from blind_store import rows
from currency19_read import ROOT, set_dir

import hindsight.write.retire_veto as veto

SETTINGS = [None] + [(m, s, r) for m in (6, 8) for s in (1, 2, 3) for r in (0.15, 0.2, 0.25)]


def events(root: Path) -> list[dict]:
    out = []
    for store in sorted(root.iterdir()):
        if not (store / "write_log.json").exists():
            continue
        mems = {m["id"]: m for m in rows(set_dir(store.name) / "retrieval/memories.jsonl")}
        repl: dict[str, set[str]] = {}
        for m in mems.values():
            r = m.get("replaces")
            for x in [r] if isinstance(r, str) else r or []:
                repl.setdefault(x, set()).add(m["id"])
        # the log names a stored memory by the last set memory written into it (a later duplicate merged into an
        # earlier one takes its name): name it by the first, the one whose text it holds
        ids = json.loads((store / "ids.json").read_text())
        first: dict[str, str] = {}
        for k, v in ids.items():
            first.setdefault(v, k)
        name = {k: first[v] for k, v in ids.items()}.get
        for logged, e in json.loads((store / "write_log.json").read_text()).items():
            new = name(logged, logged)
            parts = [p for p in re.split(r"; (?=supersedes|supplements|also close)", e["reason"])
                     if p.startswith("supersedes")]
            for old, part in zip([name(x, x) for x in e["supersedes"]], parts + [""] * len(e["supersedes"])):
                kind = "correct" if new in repl.get(old, ()) else "other" if old in repl else "kept"
                rule = re.sub(r"\s*\(.*", "", re.sub(r"^supersedes mem_\w+: ", "", part))[:60] or "(reason cut in the log)"
                out.append({"round": store.name, "old": old, "new": new, "kind": kind, "rule": rule,
                            "old_text": mems[old]["content"], "new_text": mems[new]["content"]})
    return out


MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*"
PERIOD = re.compile(r"(?<![\d/])(\d{1,2}|[一二三四五六七八九十]{1,2}) ?月(?! ?\d| ?[一二三四五六七八九十]+[日号])|\b(Q[1-4])\b|"
                    r"([一二三四1-4])季度|\b(?:in|for|of|during) (" + MONTH + r")\b(?! \d)")
DATED = re.compile(r"\d{1,2} ?[月/.] ?\d{1,2}|\d{1,2}[日号]|\b\d{1,2} " + MONTH + r"|" + MONTH + r" \d{1,2}\b|yesterday|today|"
                   r"this morning|tonight|last (?:week|night|\w+day)|on (?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)\w*|昨天|今天|上周|昨晚|"
                   r"第一天|刚刚", re.I)


def kind(old: str, new: str) -> str:
    """A rough reading of how the two notes differ (task 1's kinds; by rule, not by hand): another topic (the
    veto's reading at its widest setting), two periods (both name a month or quarter, none shared), an event
    against a standing statement (only the new one is dated), else another attribute of the same subject."""
    periods = [{next(g for g in m.groups() if g) for m in PERIOD.finditer(t)} for t in (old, new)]
    if fires((6, 3, 0.25), old, new):
        return "another topic"
    if all(periods) and not periods[0] & periods[1]:
        return "another period"
    if DATED.search(new) and not DATED.search(old):
        return "an event against a standing statement"
    return "another attribute of the same subject"


def fires(setting, old: str, new: str) -> bool:  # type: ignore[no-untyped-def]
    if setting is None:
        return False
    veto.MIN_TERMS, veto.MAX_SHARED, veto.MAX_SHARE = setting
    return bool(veto.other_topic(old, new))


def main(root: Path, out: Path) -> None:
    evs = [e for e in events(root) if e["kind"] != "other"]
    hyg = [(f.split("/")[-3], json.loads(line)) for f in glob.glob(str(ROOT / "blind/*/hygiene/set.jsonl"))
           for line in open(f)]
    for e in evs:
        e["fires"] = {str(s): fires(s, e["old_text"], e["new_text"]) for s in SETTINGS}
    hc = {str(s): Counter(r for r, d in hyg if d["label"] == "change" and fires(s, d["existing"], d["new"]))
          for s in SETTINGS}
    rounds = sorted({e["round"] for e in evs} | {r for r, _ in hyg})

    def score(s: str, among: set[str]) -> int:
        got = [e for e in evs if e["round"] in among and e["fires"][s]]
        return (sum(e["kind"] == "kept" for e in got) - 2 * sum(e["kind"] == "correct" for e in got)
                - 2 * sum(n for r, n in hc[s].items() if r in among))
    names = [str(s) for s in SETTINGS]
    folds = {r: max(names, key=lambda s: (score(s, set(rounds) - {r}), s == "None")) for r in rounds}
    res: dict = {"folds": folds, "by_rule": {}, "held_out": {}}
    for group, pick in (("blind", lambda r: "T" not in r), ("train", lambda r: "T" in r)):
        g = [e for e in evs if pick(e["round"])]
        res["by_rule"][group] = {k: dict(Counter(e["rule"] for e in g if e["kind"] == k)) for k in ("kept", "correct")}
        res.setdefault("by_kind", {})[group] = {k: dict(Counter(kind(e["old_text"], e["new_text"]) for e in g
                                                            if e["kind"] == k)) for k in ("kept", "correct")}
        res["held_out"][group] = {
            "kept_retired": [sum(e["kind"] == "kept" for e in g),
                             sum(e["kind"] == "kept" and not e["fires"][folds[e["round"]]] for e in g)],
            "correct_retired": [sum(e["kind"] == "correct" for e in g),
                                sum(e["kind"] == "correct" and not e["fires"][folds[e["round"]]] for e in g)],
            "hygiene_change_rows_fired": sum(hc[folds[r]][r] for r in rounds if pick(r))}
    res["vetoed"] = [{k: e[k] for k in ("round", "old", "new", "kind", "old_text", "new_text")}
                     for e in evs if e["fires"][folds[e["round"]]]]
    out.write_text(json.dumps(res, ensure_ascii=False, indent=1))
    veto.MIN_TERMS, veto.MAX_SHARED, veto.MAX_SHARE = 8, 3, 0.25
    print(json.dumps({k: res[k] for k in ("by_rule", "by_kind", "held_out")}, ensure_ascii=False, indent=1))
    print(Counter(folds.values()))


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
