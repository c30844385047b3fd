"""Round 47b (issue 10, guardq47): how things stand, nobody granted (``safety/standing.py``), measured on every released
writer (docs/benchmarks.md "Guard, round 47b", the rule in ``bench/results/guardq47/ship_rule.md``).

    E="env PYTHONPATH=src:scripts OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python"
    $E scripts/guard45_stage.py rows --rounds r39-r41 --out /tmp/gq47/rows3941.jsonl       # r1 - r38: /tmp/g43/rows.jsonl
    $E scripts/guardq47_stage.py sig /tmp/g43/rows.jsonl /tmp/gq47/rows3941.jsonl --out /tmp/gq47/moved.json
    $E scripts/guardq47_stage.py screen /tmp/gq47/moved.json --out /tmp/gq47/screen.json
    $E scripts/guardq47_stage.py report /tmp/gq47/screen.json --out bench/results/guardq47/result.json

guard45's staging (released guard rows r1 - r41 + b, PII and retrieval writers, the pinned sets, the 13 MCP notes) plus
every released hygiene text (existing, new, others; r1 - r41) as plain data; r41 / r41b in sample, apart. ``sig`` keeps
the texts the reading reads (the normalised text or a marked part) with the switch on - off it reads nothing -;
``screen`` reads them through ``WriteGuard`` with the write path's ONNX vector, switch off and on, in one process.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import guard45_stage  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
guard45_stage.IN_SAMPLE = {"r41", "r41b", "pii-r41", "retr-r41", "hyg-r41"}
guard45_stage.CACHE = Path("/tmp/gq47/cache_emb.npy")


def set_switches(on: bool) -> None:
    from hindsight.safety import standing
    standing.ON = on


def hygiene() -> list[dict[str, object]]:
    from hindsight.safety.redact import redactor
    out: list[dict[str, object]] = []
    for n in range(1, 42):
        path = ROOT / f"bench/data/blind/r{n}/hygiene/set.jsonl"
        if not path.exists():
            continue
        seen: set[str] = set()
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
            if not line.strip():
                continue
            r = json.loads(line)
            for k, t in enumerate([r.get("existing", ""), r.get("new", ""), *r.get("others", [])]):
                if t and t not in seen:
                    seen.add(t)
                    out.append({"key": f"hygiene|hyg-r{n}|{i}.{k}", "text": redactor(t)[0], "attack": False, "category": "",
                                "set": "hygiene", "writer": f"hyg-r{n}"})
    return out


def reads(red: str) -> bool:
    from hindsight.safety.normalize import fold, prepare
    from hindsight.safety.segments import marked_parts
    from hindsight.safety.standing import states_standing
    return states_standing(prepare(red).text) or any(states_standing(prepare(p).text) for p in marked_parts(fold(red)))


def moved(files: list[Path]) -> list[dict[str, object]]:
    set_switches(True)
    out = [{**r, "readings": ["standing"]} for r in guard45_stage.texts(files) + hygiene() if reads(str(r["text"]))]
    set_switches(False)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("sig", "screen", "report"))
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    result: object
    if args.mode == "sig":
        result = moved(args.files)
        print(f"{len(result)} texts the reading reads", flush=True)
    elif args.mode == "screen":
        guard45_stage.set_switches = set_switches  # read from its module at call time
        result = guard45_stage.screen(json.loads(args.files[0].read_text(encoding="utf-8")))
        set_switches(False)
    else:
        result = guard45_stage.report(json.loads(args.files[0].read_text(encoding="utf-8")))
        print(json.dumps({k: v for k, v in result.items() if k != "rows"}, indent=1), flush=True)  # type: ignore[union-attr]
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
