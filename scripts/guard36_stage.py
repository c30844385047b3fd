"""Round 36: every released blind guard text (and retrieval memory) screened by ``WriteGuard`` with the write path's
cached vector, and the stage that decided it (issue 10; docs/benchmarks.md "Guard, round 36").

    PYTHONPATH=src:scripts .venv/bin/python scripts/guard36_stage.py screen --rounds r26-r34 --out rows.jsonl
    PYTHONPATH=/work/main/src:scripts .venv/bin/python scripts/guard36_stage.py screen ... --out main.jsonl   # baseline
    PYTHONPATH=src:scripts .venv/bin/python scripts/guard36_stage.py compare main.jsonl rows.jsonl --out table.json

The stage: ``hard:<rule ids>`` (a hard rule quarantined), ``gate`` (the classifier was not consulted), else
``model <score> vs T <threshold> (<what set T>)`` where what set T is the shipped T, ``carry`` / ``fact`` (raised),
``frame`` (raised to 0.99: ``stake.benign_frame`` / ``polarity.adds_check``), ``vouched`` / ``trusted`` (lowered to
0.3) or a round-22 / 25 / 31 reading (``lowered``), or ``part`` (a marked part). A screen-level view: the engine's
decode rules and context are not read, so a few verdicts can differ from ``bench/blind_eval.py``'s.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
BLIND = ROOT / "bench" / "data" / "blind"
CACHE = Path("/tmp/g36/cache")


def rounds(spec: str) -> list[str]:
    lo, hi = (int(x.lstrip("r")) for x in spec.split("-"))
    return [f"r{n}" for n in range(lo, hi + 1)]


def load_rows(names: list[str], retrieval: bool) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for rnd in names:
        for sub, writer in ((rnd, rnd), (rnd + "b", rnd + "b")):
            path = BLIND / sub / "guard" / "set.jsonl"
            if path.exists():
                for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
                    if line.strip():
                        r = json.loads(line)
                        out.append({"round": rnd, "writer": writer, "i": i, "text": r["text"], "attack": r["label"] == "attack",
                                    "category": r["category"], "lang": r["lang"]})
        path = BLIND / rnd / "pii" / "set.jsonl"
        if retrieval and path.exists():  # every PII note is one to store (redacted): benign to the guard
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
                if line.strip():
                    r = json.loads(line)
                    out.append({"round": rnd, "writer": f"pii-{rnd}", "i": i, "text": r["text"], "attack": False,
                                "category": "pii_note", "lang": r.get("lang", "")})
        path = BLIND / rnd / "retrieval" / "memories.jsonl"
        if retrieval and path.exists():
            for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
                if line.strip():
                    r = json.loads(line)
                    out.append({"round": rnd, "writer": f"retr-{rnd}", "i": i, "text": r["content"], "attack": False,
                                "category": "retrieval_memory", "lang": r.get("lang", "")})
    return out


def threshold_source(guard, view, normalised: str, hidden: bool) -> tuple[float, str]:  # type: ignore[no-untyped-def]
    """``WriteGuard.threshold_for`` with the name of what set the threshold (every helper read by name, so a branch
    that adds a reading is named when it decides)."""
    from hindsight.safety import guard as g
    t = guard.threshold_for(view, normalised, hidden=hidden)
    names = []
    if g.carries_secret(view):
        names.append("carry")
    try:
        from hindsight.safety.carried import carried_value_fact
        from hindsight.safety.preference import states_preference
        if carried_value_fact(normalised) or states_preference(normalised):
            names.append("fact")
    except ImportError:
        pass
    from hindsight.safety.polarity import adds_check
    from hindsight.safety.stake import benign_frame
    if benign_frame(normalised) or adds_check(normalised):
        names.append("frame")
    from hindsight.safety.trusted import transfers_trust
    from hindsight.safety.vouched import vouched_loosening
    if vouched_loosening(normalised):
        names.append("vouched")
    if transfers_trust(normalised):
        names.append("trusted")
    try:
        from hindsight.safety import claimed  # this round's reading (absent on main)
        if claimed.claimed_loosening(normalised):
            names.append("claimed")
    except ImportError:
        pass
    from hindsight.safety.lowered import reading_threshold
    if reading_threshold(normalised, hidden) is not None:
        names.append("lowered")
    return t, "+".join(names) or "base"


def stage_of(guard, v, red: str) -> str:  # type: ignore[no-untyped-def]
    """What decided verdict ``v`` of the redacted text ``red``: ``hard:<ids>``, ``gate``, ``part <score>`` or
    ``model <score> vs T <threshold> (<what set T>)`` (the module docstring)."""
    from hindsight.safety.hiding import hides_wording
    from hindsight.safety.normalize import prepare
    from hindsight.safety.view import feature_view
    prepared = prepare(red)
    hard = [x for x in v.reasons if not x.startswith(("classifier:", "part:", "hidden:"))]
    if v.suspicious and v.score == 1.0 and hard:
        return "hard:" + ",".join(hard)
    if not v.suspicious and v.score == 0.0:
        return "gate"
    t, src = threshold_source(guard, feature_view(prepared.text), prepared.text, hides_wording(red, prepared))
    part = [x for x in v.reasons if x.startswith("part:")]
    return f"part {part[0][5:]}" if part else f"model {v.score:.3f} vs T {t:.3f} ({src})"


def touched(normalised: str) -> bool:
    """Could one of round 36's readings move this text? (``--reuse``: the others keep the baseline's verdict.)"""
    import re

    from hindsight.safety import carried, claimed
    return bool(claimed.claimed_loosening(normalised) or carried._WIPED.search(normalised)
                or re.search(r"\b(?:liked|loves|loved|wants)\b", normalised)
                or re.search(r"(?:要|须)[^。；，,]{0,12}(?:签字|审批|批准|复核)", normalised)
                or re.search(r"(?:不得|不能|不许|不准|禁止|严禁|别|不要)(?:私下|直接|擅自|随意|自行|私自)|挂(?:断|掉)|\bhang up\b", normalised))


def screen_rows(rows: list[dict[str, object]], reuse: list[dict[str, object]] | None = None) -> None:
    import onnxruntime  # noqa: F401  (before anything loads usearch)

    import hindsight  # first: the tree on PYTHONPATH (main's for a baseline), before guard_lowo_fast adds this one's
    from hindsight.safety.guard import WriteGuard
    print("hindsight from", hindsight.__file__, flush=True)
    sys.path.insert(0, str(ROOT / "scripts"))
    import guard_lowo_fast as lf

    from hindsight.safety.normalize import prepare
    from hindsight.safety.redact import redactor

    guard = WriteGuard()
    redacted = [redactor(str(r["text"]))[0] for r in rows]
    if reuse is not None:  # only the texts a round-36 reading reaches are screened again
        keep = []
        for r, red, old in zip(rows, redacted, reuse, strict=True):
            assert r["text"] == old["text"]
            if touched(prepare(red).text):
                keep.append((r, red))
            else:
                r.update(q=old["q"], score=old["score"], stage=old["stage"])
        print(f"  {len(keep)} of {len(rows)} texts touched", flush=True)
        rows = [r for r, _ in keep]
        redacted = [red for _, red in keep]
    vectors = lf.embed(redacted, CACHE / "emb_onnx.npy", "onnx")
    for n, (r, red, vec) in enumerate(zip(rows, redacted, vectors, strict=True)):
        if n % 1000 == 0:
            print(f"  screened {n}/{len(rows)}", flush=True)
        v = guard.screen(red, np.asarray(vec))
        stage = stage_of(guard, v, red)
        r.update(q=v.suspicious, score=round(float(v.score), 4), stage=stage)


def table(rows: list[dict[str, object]]) -> dict[str, object]:
    per: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        kind = "attack" if r["attack"] else {"retrieval_memory": "retrieval", "pii_note": "pii"}.get(str(r["category"]), "benign")
        for key in (str(r["round"]), "all", f"lang:{r['lang']}"):
            per[key][f"{kind}_{'q' if r['q'] else 's'}"] += 1
    return {k: dict(sorted(v.items())) for k, v in sorted(per.items())}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("screen", "compare", "kinds"))
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--rounds", default="r26-r34")
    parser.add_argument("--no-retrieval", action="store_true")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--reuse", type=Path, default=None, help="the baseline's rows: screen only the touched texts")
    args = parser.parse_args()
    if args.mode == "screen":
        rows = load_rows(rounds(args.rounds), not args.no_retrieval)
        reuse = None
        if args.reuse is not None:
            reuse = [json.loads(x) for x in args.reuse.read_text(encoding="utf-8").splitlines()]
        screen_rows(rows, reuse)
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        print(json.dumps(table(rows)["all"]), flush=True)
        return
    if args.mode == "kinds":  # step 1: every miss / false alarm by round, kind and the stage that decided it
        rows = [json.loads(x) for x in args.files[0].read_text(encoding="utf-8").splitlines()]
        wrong = [r for r in rows if r["q"] != r["attack"]]
        counts: dict[str, Counter[str]] = defaultdict(Counter)
        for r in wrong:
            stage = str(r["stage"])
            kind = "model<T" if stage.startswith("model") and r["attack"] else "model>=T" if stage.startswith("model") else stage.split(":")[0].split(" ")[0]
            src = stage[stage.find("(") + 1:-1] if "(" in stage else ""
            for key in ("r26-r33" if r["round"] != "r34" else "r34", "all"):
                counts[f"{key} {'attack' if r['attack'] else 'benign'}/{r['category']}"][f"{kind}{' ' + src if src else ''}"] += 1
        listed = [{k: r[k] for k in ("writer", "i", "category", "lang", "score", "stage", "text")} for r in wrong if r["round"] == "r34"]
        out = {"counts": {k: dict(v.most_common()) for k, v in sorted(counts.items())}, "r34": listed}
        args.out.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        for k, v in sorted(counts.items()):
            print(k, dict(v.most_common()))
        return
    before, after = ([json.loads(x) for x in f.read_text(encoding="utf-8").splitlines()] for f in args.files)
    moved = [{"writer": b["writer"], "i": b["i"], "attack": b["attack"], "lang": b["lang"], "category": b["category"],
              "text": b["text"][:160], "before": b["stage"], "after": a["stage"]}
             for b, a in zip(before, after, strict=True) if b["q"] != a["q"]]
    out = {"before": table(before), "after": table(after), "moved": moved}
    args.out.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for m in moved:
        print(("+" if m["attack"] else "-") if True else "", json.dumps(m, ensure_ascii=False)[:300])
    print(json.dumps(out["before"]["all"]), "->", json.dumps(out["after"]["all"]))


if __name__ == "__main__":
    main()
