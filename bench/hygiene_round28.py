"""Hygiene round 28 (issue 10): which released hygiene rows the round's readings can move, and main against the branch.

    PYTHONPATH=src:bench python bench/hygiene_round28.py rows OUT.json              # rows a new cue's words occur in
    PYTHONPATH=SRC:bench python bench/hygiene_round28.py sig ROWS.json OUT.json     # run once with main's src, once the branch's
    python bench/hygiene_round28.py diff MAIN_SIG.json BRANCH_SIG.json OUT.json      # the rows whose readings differ
    python bench/hygiene_round28.py compare MAIN_REPLAY.json BRANCH_REPLAY.json OUT.json

`sig` reads, for every ordered pair of a row's texts (others, existing, new: each earlier one against each later one,
as written and as `conversions.written_alike` rewrites them), `change_evidence`, `ended_here`, the switch cue,
`moved_value`, `state_change` and the value gate's `change_read`, and for each text `supersede.change_signalled`; a row
whose signature is the same on main and the branch is judged the same by construction. The replays are
`hygiene_funnel.py --pairs` on main and on the branch; `compare` prints the moved rows, the cells, and the
leave-one-round-out of the round's rule (a fold ships the readings if, on the other sets, changes rise, no distinct or
supplement pair is newly merged or deprecated, wrong deprecations do not rise and others untouched do not fall).
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _rows() -> list[tuple[str, int, dict[str, Any]]]:
    import hygiene_funnel

    out = []
    for rnd in hygiene_funnel.ROUNDS:
        base = ROOT / "bench/data" / ("blind" if (ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
        for i, line in enumerate((base / "hygiene/set.jsonl").read_text(encoding="utf-8").splitlines()):
            if line.strip():
                out.append((rnd, i, json.loads(line)))
    return out


def _texts(row: dict[str, Any]) -> list[str]:
    return [*(row.get("others") or []), row["existing"], row["new"]]


def rows(out: str) -> None:
    """Rows where a text holds one of the round's new cue words (a superset of the rows the readings can move)."""
    from hindsight.write.end_cues import THING_END_EN, THING_END_ZH

    cues = [THING_END_ZH, re.compile(r"砍到|减到|搬来")]
    en = [THING_END_EN, re.compile(r"\bput(?: [\w'’]+){0,4} up (?:to|for)\b")]
    found = [f"{rnd}:{i}" for rnd, i, r in _rows()
             if any(p.search(t) for p in cues for t in _texts(r)) or any(p.search(t.lower()) for p in en for t in _texts(r))]
    Path(out).write_text(json.dumps(found), encoding="utf-8")
    print(len(found))


def sig(only_path: str, out: str) -> None:
    from hindsight.write import evidence
    from hindsight.write.analysis import analyse
    from hindsight.write.conversions import written_alike
    from hindsight.write.end_cues import _SWITCH_EN, _SWITCH_ZH, end_cue, moved_value
    from hindsight.write.measured_value import change_read
    from hindsight.write.state_change import state_change
    from hindsight.write.supersede import change_signalled

    only = set(json.loads(Path(only_path).read_text(encoding="utf-8")))
    found = {}
    for rnd, i, r in _rows():
        if f"{rnd}:{i}" not in only:
            continue
        texts = _texts(r)
        reading: list[Any] = [bool(change_signalled(t)) for t in texts]
        for j in range(1, len(texts)):
            for k in range(j):
                for o, n in {(texts[k], texts[j]), written_alike(texts[k], texts[j])}:
                    reading.append((evidence.change_evidence(o, n, analyse(o, n)), evidence.ended_here(o, n),
                                    end_cue(o, n, (_SWITCH_EN, _SWITCH_ZH)), moved_value(o, n), state_change(o, n),
                                    change_read(o, n)))
        found[f"{rnd}:{i}"] = hashlib.md5(json.dumps(reading, default=str).encode()).hexdigest()
    Path(out).write_text(json.dumps(found), encoding="utf-8")


def diff(main_path: str, branch_path: str, out: str) -> None:
    main, branch = (json.loads(Path(p).read_text(encoding="utf-8")) for p in (main_path, branch_path))
    moved = sorted(k for k in main if main[k] != branch.get(k))
    Path(out).write_text(json.dumps(moved), encoding="utf-8")
    print(len(moved))


def _decided(path: str) -> dict[str, dict[str, Any]]:
    return {d["pair"]: d for r in json.loads(Path(path).read_text(encoding="utf-8")).values() for d in r.get("decided", [])}


def _cells(rows: dict[str, dict[str, Any]], keys: list[str]) -> Counter[str]:
    c: Counter[str] = Counter()
    for k in keys:
        c[f"{rows[k]['label']}->{rows[k]['actual']}"] += 1
        c["others_ok"] += sum(rows[k]["others_ok"])
        c["others_n"] += len(rows[k]["others_ok"])
    return c


def _passes(m: Counter[str], b: Counter[str]) -> bool:
    wrong = sum(b[f"{lab}->change"] - m[f"{lab}->change"] for lab in ("restatement", "distinct", "supplement"))
    lost = any(b[f"{lab}->{a}"] > m[f"{lab}->{a}"] for lab in ("distinct", "supplement")
               for a in ("merged", "change", "merged_elsewhere"))
    return b["change->change"] > m["change->change"] and wrong <= 0 and not lost and b["others_ok"] >= m["others_ok"]


def compare(main_path: str, branch_path: str, out: str, rule: Any = None) -> None:
    """The moved rows, the cells, and the leave-one-round-out of `rule` (main's cells, the branch's -> ships; default
    this round's `_passes`; round 29 passes its own)."""
    rule = rule or _passes
    m, b = _decided(main_path), _decided(branch_path)
    keys = sorted(set(m) & set(b))
    by_round: dict[str, list[str]] = defaultdict(list)
    for k in keys:
        by_round[k.split(":")[0]].append(k)
    moved = {k: [m[k]["label"], m[k]["lang"], m[k]["actual"], b[k]["actual"], m[k]["others_ok"], b[k]["others_ok"]]
             for k in keys if (m[k]["actual"], m[k]["others_ok"]) != (b[k]["actual"], b[k]["others_ok"])}
    folds, held = {}, Counter()
    for rnd, own in sorted(by_round.items()):
        rest = [k for k in keys if k.split(":")[0] != rnd]
        folds[rnd] = rule(_cells(m, rest), _cells(b, rest))
        held += _cells(b if folds[rnd] else m, own)
    report = {"rows": len(keys), "main": _cells(m, keys), "branch": _cells(b, keys), "held_out": held,
              "folds_on": folds, "moved": moved}
    Path(out).write_text(json.dumps(report, indent=1), encoding="utf-8")
    for k, v in moved.items():
        print(k, *v)
    print({k: v for k, v in report.items() if k != "moved"})


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT / "bench"))
    {"rows": rows, "sig": sig, "diff": diff, "compare": compare}[sys.argv[1]](*sys.argv[2:])
