"""Round 43b (issue 10): a waived verification read by ``mention.reports_handled_attack`` (``safety/waived.py``) and
``opened.SELF_APPROVED``'s inflections, measured on every released writer (docs/benchmarks.md "Guard, round 43b: ...",
the rule in ``bench/results/waiver43/ship_rule.md``).

    E="env OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python"
    # guardatk43's staging: guard r1 - r38 (+ b), PII notes, retrieval memories, redacted by main's redactor
    env PYTHONPATH=src:scripts $E scripts/guardatk43_stage.py rows --out /tmp/g43/rows.jsonl
    for side in main:/work/main/src branch:src; do
      env PYTHONPATH=${side#*:}:scripts $E scripts/waiver43_stage.py sig /tmp/g43/rows.jsonl --out /tmp/w43/sig_${side%%:*}.json
    done
    env PYTHONPATH=src:scripts $E scripts/waiver43_stage.py diff /tmp/w43/sig_main.json /tmp/w43/sig_branch.json --out /tmp/w43/moved.json
    for side in main:/work/main/src branch:src; do
      env PYTHONPATH=${side#*:}:scripts $E scripts/waiver43_stage.py screen /tmp/w43/moved.json --out /tmp/w43/screen_${side%%:*}.json
    done
    env PYTHONPATH=src:scripts $E scripts/waiver43_stage.py report /tmp/w43/moved.json /tmp/w43/screen_main.json \
        /tmp/w43/screen_branch.json --out bench/results/waiver43/result.json

``sig``: per text (released rows, the pinned sets, my neighbours) what the changed readings say on its normalised text
and every marked part (``reports_handled_attack``, ``mentions_attack``, ``opens_gate``); a text whose readings are the
same on both sides keeps its verdict exactly. ``screen``: the texts whose readings differ, through ``WriteGuard`` with
the write path's ONNX vector, under the side on ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path("/tmp/g43/cache/emb.npy")


def texts(rows_file: Path) -> list[dict[str, object]]:
    """Released rows, then the pinned sets, then my neighbours: one list of {key, text, attack, ...}."""
    from guard_pinned_check import pinned_sets

    from hindsight.safety.redact import redactor
    out: list[dict[str, object]] = []
    for line in rows_file.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        out.append({"key": f"{r['set']}|{r['writer']}|{r['i']}", "text": r["redacted"], "attack": r["attack"],
                    "category": r["category"], "lang": r["lang"], "set": r["set"]})
    for name, (items, attacks) in pinned_sets().items():
        out += [{"key": f"pinned|{name}|{n}", "text": redactor(t)[0], "attack": attacks, "category": "", "lang": "",
                 "set": "pinned"} for n, t in enumerate(items)]
    rows = json.loads((ROOT / "bench/results/waiver43/neighbours.json").read_text(encoding="utf-8"))["rows"]
    out += [{"key": f"neighbour|{r['id']}", "text": redactor(r["text"])[0], "attack": r["label"] == "attack",
             "category": "", "lang": r["lang"], "set": "neighbour"} for r in rows]
    return out


def signature(red: str) -> str:
    from hindsight.safety.mention import mentions_attack, reports_handled_attack
    from hindsight.safety.normalize import fold, prepare
    from hindsight.safety.opened import opens_gate
    from hindsight.safety.segments import marked_parts

    def one(text: str) -> str:
        return "".join("1" if f(text) else "0" for f in (reports_handled_attack, mentions_attack, opens_gate))
    return ",".join([one(prepare(red).text), *(one(prepare(p).text) for p in marked_parts(fold(red)))])


def screen(moved: list[dict[str, object]]) -> dict[str, object]:
    import onnxruntime  # noqa: F401  (before anything loads usearch)
    from secret38_stage import _needs_vector, embed, screen_one

    import hindsight
    from hindsight.safety.guard import WriteGuard
    reds = [str(r["text"]) for r in moved]
    cache = embed([r for r in reds if _needs_vector(r)], CACHE)
    guard = WriteGuard()
    return {"src": hindsight.__file__, "rows": {str(r["key"]): screen_one(guard, str(r["text"]), cache.get(str(r["text"])))
                                                 for r in moved}}


def report(moved: list[dict[str, object]], main: dict[str, object], branch: dict[str, object]) -> dict[str, object]:
    m, b = main["rows"], branch["rows"]
    named = {"guard|r21|60", "guard|r29b|60", "guard|r31|317", "guard|r36|155"}
    rows, tally = [], {"attacks_gained": 0, "attacks_lost": 0, "benign_gained": 0, "benign_lost": 0,
                       "attacks_gained_excluding_named_four": 0}
    for r in moved:
        k = str(r["key"])
        before, after = bool(m[k]["q"]), bool(b[k]["q"])  # type: ignore[index]
        rows.append({**r, "text": str(r["text"])[:240], "main": m[k], "branch": b[k]})  # type: ignore[index]
        if before == after:
            continue
        kind = "attacks" if r["attack"] else "benign"
        tally[f"{kind}_{'gained' if after else 'lost'}"] += 1
        if r["attack"] and after and k not in named and r["set"] != "neighbour":
            tally["attacks_gained_excluding_named_four"] += 1
    by_set: dict[str, dict[str, int]] = {}
    for r in rows:
        s = by_set.setdefault(str(r["set"]), {"moved_readings": 0, "attack_gained": 0, "benign_gained": 0, "attack_lost": 0, "benign_lost": 0})
        s["moved_readings"] += 1
        before, after = bool(r["main"]["q"]), bool(r["branch"]["q"])
        if before != after:
            s[f"{'attack' if r['attack'] else 'benign'}_{'gained' if after else 'lost'}"] += 1
    return {"moved_readings": len(moved), "tally": tally, "by_set": by_set, "rows": rows}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("sig", "diff", "screen", "report"))
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    import hindsight  # the side on PYTHONPATH, before guard_pinned_check puts this checkout's src first on sys.path
    print("hindsight from", hindsight.__file__, flush=True)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    load = [json.loads(f.read_text(encoding="utf-8")) for f in args.files] if args.mode != "sig" else []
    result: object
    if args.mode == "sig":
        rows = texts(args.files[0])
        result = {"rows": rows, "sig": [signature(str(r["text"])) for r in rows]}
    elif args.mode == "diff":
        a, b = load
        result = [r for r, x, y in zip(a["rows"], a["sig"], b["sig"], strict=True) if x != y]
        print(f"{len(result)} texts whose readings differ", flush=True)
    elif args.mode == "screen":
        result = screen(load[0])
    else:
        result = report(*load)
        print(json.dumps({k: v for k, v in result.items() if k != "rows"}, indent=1), flush=True)  # type: ignore[union-attr]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
