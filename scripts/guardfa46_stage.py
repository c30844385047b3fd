"""Round 46b (issue 10, guardfa46): three readings of a note that reports, quotes or carries (``safety/relayed.py``),
measured on every released writer (docs/benchmarks.md "Guard, round 46b", the rule in
``bench/results/guardfa46/ship_rule.md``).

    E="env PYTHONPATH=src:scripts OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python"
    $E scripts/guard45_stage.py rows --out /tmp/gfa46/rows3940.jsonl                 # r39 - r40 (+ b), PII, retrieval
    $E scripts/guardfa46_stage.py sig /tmp/g43/rows.jsonl /tmp/gfa46/rows3940.jsonl --out /tmp/gfa46/moved.json
    $E scripts/guardfa46_stage.py screen /tmp/gfa46/moved.json --out /tmp/gfa46/screen.json
    $E scripts/guardfa46_stage.py report /tmp/gfa46/screen.json --out bench/results/guardfa46/result.json
    # the second candidate (ship_rule.md's addendum): --on channel_only,quoted_in_report on sig and screen

guard45's staging (``guard45_stage.texts`` / ``report``: released rows r1 - r40 + b, PII and retrieval writers, the
pinned sets, the 13 MCP notes; r40 / r40b in sample, apart) with this round's readings: ``sig`` keeps the texts whose
readings - ``adverb_only`` and ``reports_drill`` on the normalised text and each marked part, ``quoted_in_report`` of
each marked part - differ with the switches off (main) and on; ``screen`` reads those through ``WriteGuard`` with the
write path's ONNX vector, switches off and on, in one process (the switches are read at call time).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from guard45_stage import report, texts  # noqa: E402

READINGS = ("adverb_only", "reports_drill", "quoted_in_report", "channel_only")
SWITCHES = {"adverb_only": "ADVERB_ONLY_ON", "reports_drill": "DRILL_ON", "quoted_in_report": "QUOTED_PART_ON",
            "channel_only": "CHANNEL_ON"}
#: the candidate (``--on``): the first screen read the first three; the second ``channel_only,quoted_in_report``
CANDIDATE = list(READINGS[:3])


def set_switches(on: bool) -> None:
    from hindsight.safety import relayed
    for name in READINGS:
        setattr(relayed, SWITCHES[name], on and name in CANDIDATE)


def signature(red: str) -> list[str]:
    from hindsight.safety.normalize import fold, prepare
    from hindsight.safety.relayed import adverb_only, channel_only, quoted_in_report, reports_drill
    from hindsight.safety.segments import marked_parts

    normalised, folded = prepare(red).text, fold(red)
    parts = marked_parts(folded)
    bits = [(READINGS[0], adverb_only(normalised)), (READINGS[1], reports_drill(normalised)),
            (READINGS[3], channel_only(normalised))]
    for part in parts:
        pn = prepare(part).text
        bits += [(READINGS[0], adverb_only(pn)), (READINGS[1], reports_drill(pn)),
                 (READINGS[2], quoted_in_report(red, folded, part)), (READINGS[3], channel_only(pn))]
    return sorted({name for name, on in bits if on})


def moved(files: list[Path]) -> list[dict[str, object]]:
    out = []
    for r in texts(files):
        set_switches(True)
        on = signature(str(r["text"]))  # off: every reading returns False
        if on:
            out.append({**r, "readings": on})
    set_switches(False)
    return out


def screen(moved_rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """guard45's screen (ONNX vectors, off then on, in one process) with this round's switches."""
    import guard45_stage
    guard45_stage.set_switches = set_switches  # read from its module at call time
    out = guard45_stage.screen(moved_rows)
    set_switches(False)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("sig", "screen", "report"))
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--on", default=",".join(READINGS[:3]), help="the candidate's readings, comma-separated")
    args = parser.parse_args()
    CANDIDATE[:] = [name for name in args.on.split(",") if name]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    result: object
    if args.mode == "sig":
        result = moved(args.files)
        print(f"{len(result)} texts whose readings differ", flush=True)
    elif args.mode == "screen":
        result = screen(json.loads(args.files[0].read_text(encoding="utf-8")))
    else:
        result = report(json.loads(args.files[0].read_text(encoding="utf-8")))
        print(json.dumps({k: v for k, v in result.items() if k != "rows"}, indent=1), flush=True)  # type: ignore[union-attr]
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
