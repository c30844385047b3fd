"""Round 45b (issue 10, guard45): two readings written from blind round 40's misses, measured on every released writer
(docs/benchmarks.md "Guard, round 45b", the rule in ``bench/results/guard45/ship_rule.md``).

    E="env PYTHONPATH=src:scripts OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python"
    $E scripts/guard45_stage.py rows --out /tmp/g45/rows3940.jsonl          # r39 - r40 (+ b), PII, retrieval
    $E scripts/guard45_stage.py sig /tmp/g43/rows.jsonl /tmp/g45/rows3940.jsonl --out /tmp/g45/moved.json
    $E scripts/guard45_stage.py screen /tmp/g45/moved.json --out /tmp/g45/screen.json
    $E scripts/guard45_stage.py report /tmp/g45/screen.json --out bench/results/guard45/result.json

``rows``: guardatk43's staging for the rounds it lacks (r1 - r38 are ``/tmp/g43/rows.jsonl``): every text redacted by
the redactor. ``sig``: per text (released rows, the pinned sets, the 13 MCP notes) whether the three readings -
``payee.orders_unverified_payee_change``, ``disarmed.disarms_safeguard`` and ``trusted.transfers_trust`` on the normalised text and every marked
part - say the same with the switches off (main) and on; only texts where they differ can move. ``screen``: those
through ``WriteGuard`` with the write path's ONNX vector, switches off and on, in one process (both switches are read
at call time). ``report``: moved verdicts by set and writer; r40 / r40b in sample, apart.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path("/tmp/g43/cache/emb.npy")
READINGS = ("payee_channel_barred", "disarmed_machine_guard", "trusted_channel_as_person")
IN_SAMPLE = {"r40", "r40b", "pii-r40", "retr-r40"}


def set_switches(on: bool) -> None:
    from hindsight.safety import disarmed, payee, trusted
    payee.CHANNEL_BARRED_ON = on
    disarmed.MACHINE_GUARD_ON = on
    trusted.CHANNEL_AS_PERSON_ON = on


def rows(spec: str) -> list[dict[str, object]]:
    from guard36_stage import load_rows as g36
    from secret38_stage import load_rows, rounds

    from hindsight.safety.redact import redactor
    names = rounds(spec)
    out = load_rows(names, names) + [{**r, "set": "retrieval"} for r in g36(names, retrieval=True)
                                     if str(r["writer"]).startswith("retr-")]
    for r in out:
        r["redacted"] = redactor(str(r["text"]))[0]
    return out


def texts(files: list[Path]) -> list[dict[str, object]]:
    """Released rows, the pinned sets, the 13 MCP notes: one list of {key, text, attack, set, writer}."""
    from guard_pinned_check import pinned_sets

    from hindsight.safety.redact import redactor
    out: list[dict[str, object]] = []
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            out.append({"key": f"{r['set']}|{r['writer']}|{r['i']}", "text": r["redacted"], "attack": r["attack"],
                        "category": r["category"], "set": r["set"], "writer": r["writer"]})
    for name, (items, attacks) in pinned_sets().items():
        out += [{"key": f"pinned|{name}|{n}", "text": redactor(t)[0], "attack": attacks, "category": "", "set": "pinned",
                 "writer": f"pinned-{name}"} for n, t in enumerate(items)]
    mcp = json.loads((ROOT / "bench/results/guardatk40/mcp_counts.json").read_text(encoding="utf-8"))["stored_everywhere"]
    out += [{"key": f"mcp13|{n}", "text": redactor(t)[0], "attack": True, "category": "", "set": "mcp13", "writer": "mcp13"}
            for n, t in enumerate(mcp)]
    return out


def signature(red: str) -> str:
    from hindsight.safety.disarmed import disarms_safeguard
    from hindsight.safety.normalize import fold, prepare
    from hindsight.safety.payee import orders_unverified_payee_change
    from hindsight.safety.segments import marked_parts
    from hindsight.safety.trusted import transfers_trust

    def one(text: str) -> str:
        return "".join("1" if f(text) else "0" for f in (orders_unverified_payee_change, disarms_safeguard, transfers_trust))
    return ",".join([one(prepare(red).text), *(one(prepare(p).text) for p in marked_parts(fold(red)))])


def moved(files: list[Path]) -> list[dict[str, object]]:
    out = []
    for r in texts(files):
        set_switches(False)
        off = signature(str(r["text"]))
        set_switches(True)
        on = signature(str(r["text"]))
        if on != off:
            differs = {READINGS[i % len(READINGS)] for i, (a, b) in enumerate(zip(off.replace(",", ""), on.replace(",", ""), strict=True)) if a != b}
            out.append({**r, "readings": sorted(differs)})
    return out


def screen(moved_rows: list[dict[str, object]]) -> list[dict[str, object]]:
    import onnxruntime  # noqa: F401  (before anything loads usearch)
    from secret38_stage import _needs_vector, embed, screen_one

    from hindsight.safety.guard import WriteGuard
    reds = [str(r["text"]) for r in moved_rows]
    cache = embed([r for r in reds if _needs_vector(r)], CACHE)
    guard = WriteGuard()
    out = []
    for r in moved_rows:
        red = str(r["text"])
        set_switches(False)
        off = screen_one(guard, red, cache.get(red))
        set_switches(True)
        on = screen_one(guard, red, cache.get(red))
        out.append({**r, "off": off, "on": on})
    return out


def report(screened: list[dict[str, object]]) -> dict[str, object]:
    tally: dict[str, dict[str, int]] = defaultdict(lambda: {"read": 0, "attack_gained": 0, "attack_lost": 0,
                                                            "benign_gained": 0, "benign_lost": 0})
    writers: dict[str, dict[str, int]] = defaultdict(lambda: {"attack_gained": 0, "attack_lost": 0, "benign_gained": 0,
                                                              "benign_lost": 0})
    by_reading: dict[str, dict[str, int]] = defaultdict(lambda: {"read": 0, "attack_gained": 0, "benign_gained": 0, "lost": 0})
    for r in screened:
        part = "in_sample_r40" if r["writer"] in IN_SAMPLE else f"held_out_{r['set']}"
        for name in r.get("readings", []):  # type: ignore[attr-defined]
            cell = by_reading[f"{name}|{'in_sample' if r['writer'] in IN_SAMPLE else 'held_out'}"]
            cell["read"] += 1
            cell["attack_gained" if r["attack"] else "benign_gained"] += int(bool(r["on"]["q"]) and not r["off"]["q"])  # type: ignore[index]
            cell["lost"] += int(bool(r["off"]["q"]) and not r["on"]["q"])  # type: ignore[index]
        tally[part]["read"] += 1
        before, after = bool(r["off"]["q"]), bool(r["on"]["q"])  # type: ignore[index]
        if before != after:
            k = f"{'attack' if r['attack'] else 'benign'}_{'gained' if after else 'lost'}"
            tally[part][k] += 1
            writers[str(r["writer"])][k] += 1
    return {"tally": dict(tally), "writers": dict(writers), "by_reading": dict(by_reading),
            "rows": [{**r, "text": str(r["text"])[:300]} for r in screened]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("rows", "sig", "screen", "report"))
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--rounds", default="r39-r40")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if args.mode == "rows":
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows(args.rounds)), encoding="utf-8")
        return
    load = [json.loads(f.read_text(encoding="utf-8")) for f in args.files] if args.mode != "sig" else []
    result: object
    if args.mode == "sig":
        result = moved(args.files)
        print(f"{len(result)} texts whose readings differ", flush=True)
    elif args.mode == "screen":
        result = screen(load[0])
    else:
        result = report(load[0])
        print(json.dumps({k: v for k, v in result.items() if k != "rows"}, indent=1), flush=True)  # type: ignore[union-attr]
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
