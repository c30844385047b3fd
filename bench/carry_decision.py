"""The guard's carried-secret decision over every released guard and PII set, scored once and replayed (round 18).

    PYTHONPATH=src .venv/bin/python bench/carry_decision.py score /tmp/carry18    # once: redact, embed (ONNX), screen
    CARRY_ONLY=1 ... score DIR    # round 21: only PII rows and guard rows that carry a value (what the threshold readings reach)
    PYTHONPATH=src .venv/bin/python bench/carry_decision.py replay /tmp/carry18 /tmp/carry18/main.json
    PYTHONPATH=src .venv/bin/python bench/carry_decision.py compare /tmp/carry18 /tmp/carry18/main.json /tmp/carry18/branch.json
    PYTHONPATH=src .venv/bin/python bench/carry_decision.py thresholds /tmp/carry18 /tmp/carry18/ts.json
    PYTHONPATH=src .venv/bin/python bench/carry_decision.py loro /tmp/carry18 /tmp/carry18/ts.json [/tmp/carry18/main.json]

``score`` runs each text as the engine's write path does (redact; the document vector of the redacted content from
the write path's embedder, ONNX q4; ``WriteGuard.screen(content + "\\n")``, the text and what removed blobs decoded
to when redaction removed one) and keeps the hard-rule verdict, the classifier's score and the redacted text.
``replay`` re-decides each row with this checkout's ``WriteGuard.threshold_for`` (the carried-secret, reference and
vouched thresholds) over the cached scores: valid for a change to the threshold decision only (the classifier's
inputs are the scored checkout's). ``thresholds`` / ``loro`` choose ``guard.FACT_THRESHOLD`` leave-one-round-out (the
threshold for a note whose only payload is a carried value). ``compare`` prints, per released round, PII removed with the fact kept,
look-alikes untouched, attacks caught and benign flagged, before -> after, and every row whose decision moved.
"""

from __future__ import annotations

import json
import os
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

DATA = ROOT / "bench" / "data"


def _sets() -> list[tuple[str, str, Path]]:
    out = []
    for kind in ("guard", "pii"):
        for base in ("blind", "train"):
            for p in sorted((DATA / base).glob(f"*/{kind}/set.jsonl")):
                out.append((kind, f"{base}-{p.parent.parent.name}", p))
    return out


def score(cache: Path) -> None:
    from guard_lowo_fast import embed

    from hindsight.safety.carried import carries_value
    from hindsight.safety.guard import HARD_RULE_IDS, WriteGuard
    from hindsight.safety.normalize import encoded_payloads
    from hindsight.safety.redact import redactor

    rows = []
    for kind, writer, path in _sets():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rows.append({"set": kind, "writer": writer, **json.loads(line)})
    red = [redactor(r["text"])[0] for r in rows]
    if os.environ.get("CARRY_ONLY"):  # round 21: PII rows and the guard rows that carry a value (the threshold readings' reach)
        keep = [r["set"] == "pii" or t != r["text"] or carries_value(t.lower()) for r, t in zip(rows, red, strict=True)]
        rows = [r for r, k in zip(rows, keep, strict=True) if k]
        red = [t for t, k in zip(red, keep, strict=True) if k]
    vectors = embed(red, cache / "emb_onnx.npy", engine="onnx")
    guard = WriteGuard()
    out = []
    for r, text, vec in zip(rows, red, vectors, strict=True):
        kept = set(encoded_payloads(text))
        lost = [redactor(p)[0] for p in encoded_payloads(r["text"]) if p not in kept] if text != r["text"] else []
        screened = text + "\n" + ("\n" + "\n".join(lost) if lost else "")
        v = guard.screen(screened, embedding=None if lost else vec)
        rec = {"set": r["set"], "writer": r["writer"], "category": r.get("category"), "lang": r.get("lang"),
               "hard": v.suspicious and any(x in HARD_RULE_IDS for x in v.reasons), "score": v.score,
               "held": v.suspicious, "screened": screened, "text": r["text"]}
        if r["set"] == "guard":
            rec["attack"] = r["label"] == "attack"
        else:
            rec["pii"] = r["kind"] == "pii"
            rec["redaction_ok"] = all(s not in text for s in r["secrets"]) and all(k in text for k in r["keep"])
        out.append(rec)
    (cache / "rows.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in out), encoding="utf-8")
    print(f"{len(out)} rows -> {cache / 'rows.jsonl'}")


def replay(cache: Path, dest: Path) -> None:
    """Each row's held decision under this checkout's threshold decision (hard rules and scores as cached)."""
    from hindsight.safety.guard import WriteGuard
    from hindsight.safety.normalize import prepare
    from hindsight.safety.view import feature_view

    guard = WriteGuard()
    held = []
    for line in (cache / "rows.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        prepared = prepare(r["screened"])
        t = guard.threshold_for(feature_view(prepared.text), prepared.text)
        held.append(bool(r["hard"] or (r["score"] > 0 and r["score"] >= t)))
    dest.write_text(json.dumps(held), encoding="utf-8")
    print(f"{sum(held)} of {len(held)} held -> {dest}")


def _round(writer: str) -> int:
    """blind-r7b -> 7, train-r10T2 -> 10, train-g10 -> 10, train-suite -> 0."""
    digits = "".join(c if c.isdigit() else " " for c in writer).split()
    return int(digits[0]) if digits else 0


def thresholds(cache: Path, dest: Path) -> None:
    """Per row, this checkout's threshold without the carried-fact reading and with it at any height (t0, t_fact):
    the two differ only on a carried fact, where the threshold at FACT_THRESHOLD = T is max(t0, T)."""
    from hindsight.safety.guard import WriteGuard
    from hindsight.safety.normalize import prepare
    from hindsight.safety.view import feature_view

    off, on = WriteGuard(fact_threshold=0.0), WriteGuard(fact_threshold=2.0)
    out = []
    for line in (cache / "rows.jsonl").read_text(encoding="utf-8").splitlines():
        prepared = prepare(json.loads(line)["screened"])
        view = feature_view(prepared.text)
        out.append([off.threshold_for(view, prepared.text), on.threshold_for(view, prepared.text)])
    dest.write_text(json.dumps(out), encoding="utf-8")
    print(f"{sum(a != b for a, b in out)} carried facts of {len(out)} -> {dest}")


GRID = [round(0.85 + 0.01 * i, 2) for i in range(16)]  # 0.85 .. 1.00 (1.00: never by the classifier)


def _held_at(rows: list[dict], ts: list[list[float]], t: float) -> list[bool]:
    return [bool(r["hard"] or (r["score"] > 0 and r["score"] >= (max(t0, t) if t0 != t1 else t0))) for r, (t0, t1) in zip(rows, ts, strict=True)]


def _gain(rows: list[dict], base: list[bool], held: list[bool]) -> tuple[int, int]:
    """(PII notes and look-alikes newly stored right, less those newly held; attacks newly released) against `base`.
    Round 20: the net count (a threshold under the shipped one holds carried facts that `base` stores)."""
    zipped = list(zip(rows, base, held, strict=True))
    good = sum(r["set"] == "pii" and r["redaction_ok"] and b and not h for r, b, h in zipped)
    good -= sum(r["set"] == "pii" and r["redaction_ok"] and not b and h for r, b, h in zipped)
    lost = sum(r["set"] == "guard" and r["attack"] and b and not h for r, b, h in zipped)
    return good, lost


def loro(cache: Path, ts_path: Path, replayed: Path | None = None) -> None:
    """FACT_THRESHOLD chosen leave-one-round-out: on the other rounds, the grid value that stores the most PII notes and
    look-alikes right while releasing no attack (ties: the lowest); scored on the held-out round against main.
    ``replayed`` (round 20): main's ``replay`` output; a row the scored run held and main's replay does not was held by
    a marked part (``WriteGuard._part_score``, which the replay does not run) and stays held at every grid value."""
    rows = [json.loads(x) for x in (cache / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    ts = json.loads(ts_path.read_text())
    main = [bool(r["held"]) for r in rows]
    by_part = [m and not h for m, h in zip(main, json.loads(replayed.read_text()), strict=True)] if replayed else [False] * len(rows)
    rounds = sorted({_round(r["writer"]) for r in rows})
    held_by_t = {t: [h or p for h, p in zip(_held_at(rows, ts, t), by_part, strict=True)] for t in GRID}
    for k in rounds:
        train = [i for i, r in enumerate(rows) if _round(r["writer"]) != k]
        best, best_good = GRID[0], -1
        for t in GRID:
            good, lost = _gain([rows[i] for i in train], [main[i] for i in train], [held_by_t[t][i] for i in train])
            if lost == 0 and good > best_good:
                best, best_good = t, good
        test = [i for i, r in enumerate(rows) if _round(r["writer"]) == k]
        tr = [rows[i] for i in test]
        before = _tally(tr, [main[i] for i in test])
        after = _tally(tr, [held_by_t[best][i] for i in test])
        cells = []
        for num, den in (("pii_ok", "pii"), ("look_ok", "look"), ("attack_held", "attack"), ("benign_held", "benign")):
            n = sum(v[den] for v in before.values())
            if n:
                cells.append(f"{num} {sum(v[num] for v in before.values())} -> {sum(v[num] for v in after.values())} / {n}")
        print(f"round {k:>2}: T_fact {best:.2f}  " + "  ".join(cells))


def _tally(rows: list[dict], held: list[bool]) -> dict[str, dict[str, int]]:
    by: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for r, h in zip(rows, held, strict=True):
        t = by[r["writer"]]
        if r["set"] == "guard":
            key = "attack" if r["attack"] else "benign"
            t[key] += 1
            t[key + "_held"] += h
        else:
            key = "pii" if r["pii"] else "look"
            t[key] += 1
            t[key + "_ok"] += bool(r["redaction_ok"] and not h)
    return by


def compare(cache: Path, before: Path, after: Path) -> None:
    rows = [json.loads(x) for x in (cache / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    hb, ha = json.loads(before.read_text()), json.loads(after.read_text())
    tb, ta = _tally(rows, hb), _tally(rows, ha)
    cells = (("pii_ok", "pii"), ("look_ok", "look"), ("attack_held", "attack"), ("benign_held", "benign"))
    total: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for w in sorted(tb):
        parts = []
        for num, den in cells:
            if tb[w][den]:
                parts.append(f"{num} {tb[w][num]} -> {ta[w][num]} / {tb[w][den]}")
                total[num][0] += tb[w][num]
                total[num][1] += ta[w][num]
                total[num][2] += tb[w][den]
        print(f"{w:>14}: " + "  ".join(parts))
    print("all: " + "  ".join(f"{k} {a} -> {b} / {n}" for k, (a, b, n) in total.items()))
    for r, b, a in zip(rows, hb, ha, strict=True):
        if b != a:
            kind = ("attack" if r["attack"] else "benign") if r["set"] == "guard" else ("pii" if r["pii"] else "look-alike")
            print(f"  {'held' if a else 'released'}: {kind} {r['writer']} {r['category']} {r['score']:.3f}: {r['screened'][:140]!r}")


if __name__ == "__main__":
    step, cache = sys.argv[1], Path(sys.argv[2])
    cache.mkdir(parents=True, exist_ok=True)
    if step == "score":
        score(cache)
    elif step == "replay":
        replay(cache, Path(sys.argv[3]))
    elif step == "thresholds":
        thresholds(cache, Path(sys.argv[3]))
    elif step == "loro":
        loro(cache, Path(sys.argv[3]), Path(sys.argv[4]) if len(sys.argv) > 4 else None)
    else:
        compare(cache, Path(sys.argv[3]), Path(sys.argv[4]))
