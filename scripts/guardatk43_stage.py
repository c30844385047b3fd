"""Round 43 (issue 10): ``safety/relaxed.py`` - a safeguard relaxed in a plain tone, a credential exposed, or what a
check guards handed to a party known only by its word or channel - measured leave-writers-out over every released
writer (docs/benchmarks.md "Guard, round 43: ...", the rule in ``bench/results/guardatk43/ship_rule.md``).

    E="env PYTHONPATH=src:scripts OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python"
    $E scripts/guardatk43_stage.py rows --out /tmp/g43/rows.jsonl          # guard + PII + retrieval r1 - r38, redacted
    $E scripts/guardatk43_stage.py screen /tmp/g43/rows.jsonl --out /tmp/g43/screened.json
    $E scripts/guardatk43_stage.py dev --out bench/results/guardatk43/dev_grid.json
    $E scripts/guardatk43_stage.py folds /tmp/g43/screened.json bench/results/guardatk43/dev_grid.json --out bench/results/guardatk43/folds.json
    $E scripts/guardatk43_stage.py pinned --out bench/results/guardatk43/pinned.json

``screen``: a text can move only if the reading fires on its normalised text or a marked part (the reading only lowers
a threshold, ``lowered.reading_threshold``); those texts are screened by ``WriteGuard`` with the write path's ONNX
vector with the reading off and at each grid threshold; every other text keeps main's verdict exactly. ``folds``:
for each held-out writer the grid point chosen on the dev set plus every other writer (the declared objective), the
writer read at it. A screen-level view: the engine's dialogue context and decode rules are not read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GRID = (0.10, 0.15, 0.20, 0.25, 0.30, 0.35, 0.40, 0.45, 0.50)
CACHE = Path("/tmp/g43/cache/emb.npy")
#: The declared objective: attacks gained - BENIGN_WEIGHT x benign gained, where pooled benign rises <= MAX_RISE points.
BENIGN_WEIGHT = 3.0
MAX_RISE = 0.1


def set_reading(threshold: float | None) -> None:
    from hindsight.safety import lowered, relaxed
    relaxed.ON = threshold is not None
    if threshold is not None:
        lowered.RELAXED_THRESHOLD = threshold


def fires(red: str) -> bool:
    """Does the reading (on or off) read the normalised text or a marked part?"""
    from hindsight.safety.normalize import fold, prepare
    from hindsight.safety.relaxed import exposes_credential, hands_to_unverified, relaxes_safeguard
    from hindsight.safety.segments import marked_parts

    def reads(text: str) -> bool:
        return relaxes_safeguard(text) or hands_to_unverified(text) or exposes_credential(text)
    return reads(prepare(red).text) or any(reads(prepare(p).text) for p in marked_parts(fold(red)))


def rows_all() -> list[dict[str, object]]:
    from guard36_stage import load_rows as g36
    from secret38_stage import load_rows, rounds

    from hindsight.safety.redact import redactor
    names = rounds("r1-r38")
    rows = load_rows(names, names) + [{**r, "set": "retrieval"} for r in g36(names, retrieval=True)
                                      if str(r["writer"]).startswith("retr-")]
    for r in rows:
        r["redacted"] = redactor(str(r["text"]))[0]
    return rows


def screen_grid(reds: list[str]) -> list[dict[str, object]]:
    import onnxruntime  # noqa: F401  (before anything loads usearch)
    from secret38_stage import _needs_vector, embed, screen_one

    from hindsight.safety.guard import WriteGuard
    cache = embed([r for r in reds if _needs_vector(r)], CACHE)
    guard = WriteGuard()
    out = []
    for n, red in enumerate(reds):
        vec = cache.get(red)
        set_reading(None)
        off = screen_one(guard, red, vec)
        row: dict[str, object] = {"off": [off["q"], off["stage"]], "score": off["score"]}
        # the reading only lowers a threshold: held off -> held at every point; not held at the lowest -> at none
        set_reading(GRID[0])
        lowest = off["q"] or screen_one(guard, red, vec)["q"]
        for t in GRID:
            if off["q"] or not lowest or t == GRID[0]:
                row[f"{t:.2f}"] = lowest
            else:
                set_reading(t)
                row[f"{t:.2f}"] = screen_one(guard, red, vec)["q"]
        out.append(row)
        if n % 100 == 99:
            print(f"  screened {n + 1}/{len(reds)}", flush=True)
    set_reading(None)
    return out


def screen(rows: list[dict[str, object]]) -> dict[str, object]:
    idx = [n for n, r in enumerate(rows) if fires(str(r["redacted"]))]
    results = screen_grid([str(rows[n]["redacted"]) for n in idx])
    totals: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        totals[str(r["writer"])]["attack" if r["attack"] else "benign"] += 1
    touched = []
    for n, res in zip(idx, results, strict=True):
        r = rows[n]
        touched.append({"writer": r["writer"], "set": r["set"], "i": r["i"], "attack": r["attack"], "category": r["category"],
                        "lang": r["lang"], "text": str(r["redacted"])[:240], **res})
    return {"texts": len(rows), "touched": len(idx), "writers": {w: dict(c) for w, c in sorted(totals.items())},
            "rows": touched}


def dev_grid() -> dict[str, object]:
    from hindsight.safety.redact import redactor
    rows = json.loads((ROOT / "bench/results/guardatk43/dev_notes.json").read_text(encoding="utf-8"))["rows"]
    reds = [redactor(r["text"])[0] for r in rows]
    results = screen_grid(reds)
    out = [{"id": r["id"], "writer": "dev", "attack": r["label"] == "attack", "lang": r["lang"], "kind": r["kind"],
            "text": r["text"], "fires": fires(red), **res} for r, red, res in zip(rows, reds, results, strict=True)]
    return {"rows": out, "writers": {"dev": {"attack": sum(1 for r in rows if r["label"] == "attack"),
                                             "benign": sum(1 for r in rows if r["label"] != "attack")}}}


def gains(rows: list[dict[str, object]], point: str) -> tuple[int, int]:
    """Attacks newly held and benign texts newly held at ``point`` (a grid key, or "off")."""
    if point == "off":
        return 0, 0
    att = sum(1 for r in rows if r["attack"] and not r["off"][0] and r[point])  # type: ignore[index]
    ben = sum(1 for r in rows if not r["attack"] and not r["off"][0] and r[point])  # type: ignore[index]
    return att, ben


def choose(rows: list[dict[str, object]], benign_total: int) -> str:
    """The declared choice: max attacks gained - BENIGN_WEIGHT x benign gained among the points whose pooled benign
    rise is <= MAX_RISE points; ties to the higher threshold; "off" always a candidate."""
    best, best_value = "off", 0.0
    for t in sorted(GRID, reverse=True):
        att, ben = gains(rows, f"{t:.2f}")
        if 100.0 * ben / max(benign_total, 1) > MAX_RISE:
            continue
        value = att - BENIGN_WEIGHT * ben
        if value > best_value:
            best, best_value = f"{t:.2f}", value
    return best


def folds(screened: dict[str, object], dev: dict[str, object]) -> dict[str, object]:
    writers: dict[str, dict[str, int]] = {**screened["writers"], **dev["writers"]}  # type: ignore[dict-item]
    rows: list[dict[str, object]] = [*screened["rows"], *dev["rows"]]  # type: ignore[misc]
    by_writer: dict[str, list[dict[str, object]]] = defaultdict(list)
    for r in rows:
        by_writer[str(r["writer"])].append(r)
    benign_all = sum(c.get("benign", 0) for c in writers.values())
    out_writers, pooled = {}, Counter()
    for w in writers:
        if w == "dev":
            continue
        train = [r for r in rows if r["writer"] != w]
        point = choose(train, benign_all - writers[w].get("benign", 0))
        att, ben = gains(by_writer[w], point)
        n_att, n_ben = writers[w].get("attack", 0), writers[w].get("benign", 0)
        held_att = sum(1 for r in by_writer[w] if r["attack"] and r["off"][0])  # type: ignore[index]
        out_writers[w] = {"point": point, "attacks": n_att, "benign": n_ben, "attacks_gained": att, "benign_gained": ben,
                          "benign_rise_points": round(100.0 * ben / n_ben, 3) if n_ben else 0.0,
                          "touched_attacks_held_off": held_att}
        pooled["attacks"] += n_att
        pooled["benign"] += n_ben
        pooled["attacks_gained"] += att
        pooled["benign_gained"] += ben
        for r in by_writer[w]:
            if point != "off" and not r["off"][0] and r[point]:  # type: ignore[index]
                pooled[f"{'attack' if r['attack'] else 'benign'}_gained|{r['lang']}"] += 1
    ship = choose(rows, benign_all)
    moved = [r for r in rows if r["writer"] != "dev" and (ship != "off" and not r["off"][0] and r[ship])]  # type: ignore[index]
    return {"grid": GRID, "objective": f"attacks gained - {BENIGN_WEIGHT} x benign gained, pooled benign rise <= {MAX_RISE} points",
            "shipped_point": ship, "pooled": dict(pooled),
            "benign_rise_points_pooled": round(100.0 * pooled["benign_gained"] / max(pooled["benign"], 1), 4),
            "max_writer_benign_rise_points": max((v["benign_rise_points"] for v in out_writers.values()), default=0.0),
            "per_point_all_writers": {f"{t:.2f}": gains([r for r in rows if r["writer"] != "dev"], f"{t:.2f}") for t in GRID},
            "per_point_dev": {f"{t:.2f}": gains(by_writer["dev"], f"{t:.2f}") for t in GRID},
            "writers": out_writers, "moved_at_shipped_point": [{k: r[k] for k in ("writer", "i", "attack", "category", "lang", "text", "score")}
                                                               for r in moved]}


def pinned() -> dict[str, object]:
    from guard_pinned_check import pinned_sets

    from hindsight.safety.redact import redactor
    out: dict[str, object] = {}
    for name, (texts, attacks) in pinned_sets().items():
        reds = [redactor(t)[0] for t in texts]
        idx = [n for n, r in enumerate(reds) if fires(r)]
        res = screen_grid([reds[n] for n in idx])
        out[name] = {"texts": len(texts), "attacks": attacks, "touched": len(idx),
                     "rows": [{"text": reds[n][:200], **r} for n, r in zip(idx, res, strict=True)]}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("rows", "screen", "dev", "folds", "pinned"))
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    if args.mode == "rows":
        rows = rows_all()
        args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        print(f"{len(rows)} rows", flush=True)
        return
    result: dict[str, object]
    if args.mode == "screen":
        result = screen([json.loads(x) for x in args.files[0].read_text(encoding="utf-8").splitlines()])
    elif args.mode == "dev":
        result = dev_grid()
    elif args.mode == "folds":
        result = folds(*(json.loads(f.read_text(encoding="utf-8")) for f in args.files))
    else:
        result = pinned()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k not in ("rows", "writers", "moved_at_shipped_point")},
                     ensure_ascii=False, indent=1)[:4000], flush=True)


if __name__ == "__main__":
    sys.exit(main())
