"""Round 22's readings applied to every released text, leave-one-round-out (issue 10, round 22).

    PYTHONPATH=src .venv/bin/python bench/guard22_readings.py --scan /tmp/guard22/scan.jsonl [--rows out.jsonl]

Reads ``bench/guard22_scan.py``'s rows (each text's main verdict, whole and part scores, redacted text) and re-decides
each verdict offline with this checkout's ``WriteGuard.threshold_for`` (the scores do not change with the readings;
``--main`` checks the readings-off verdict of every row against main's own screening). A *round* is its blind guard writers
(rN, rNb), its retrieval memories and its PII notes. Leave-one-round-out: for each held-out round, each lowering
reading's threshold (``lowered``: spoken, tail, hiding; a grid, or off) and the polarity frame (on / off) are chosen
on the other rounds (and the own, training and suite writers, the ops notes and the fixed set) by attacks gained
minus ``--cost`` x benign texts newly flagged (``--ties``: at equal gain, the lowest threshold that flags no more
benign text on the tuning rounds, or the highest), then applied to the held-out round.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from pathlib import Path

import hindsight.safety.guard as guard_module
import hindsight.safety.lowered as lowered
from hindsight.safety.carried import carried_fact
from hindsight.safety.guard import WriteGuard
from hindsight.safety.hiding import hides_wording
from hindsight.safety.mention import references_secret
from hindsight.safety.normalize import prepare
from hindsight.safety.outward import sends_outward
from hindsight.safety.polarity import adds_check
from hindsight.safety.segments import PART_THRESHOLD
from hindsight.safety.spoken import spoken_waiver
from hindsight.safety.stake import benign_frame
from hindsight.safety.tail import appended_loosening
from hindsight.safety.trusted import transfers_trust
from hindsight.safety.view import feature_view
from hindsight.safety.vouched import vouched_loosening

READINGS = ("spoken", "tail", "hiding")
GRID = (None, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
_ROUND = re.compile(r"^(?:blind|retr|pii)-(r\d+)b?$")


def round_of(writer: str) -> str | None:
    m = _ROUND.match(writer)
    return m.group(1) if m else None


def _components(guard: WriteGuard, normalised: str, hidden: bool) -> dict:
    """What ``threshold_for`` reads, each piece once: the threshold before the frame (carried / fact), the frame,
    the polarity frame, the vouched readings and the three round-22 readings."""
    view = feature_view(normalised)
    carried = guard_module.carries_secret(view) or (references_secret(normalised) and not view.moved_value)
    t0 = max(guard.threshold, guard.carry_threshold) if carried else guard.threshold
    if guard.fact_threshold > t0 and carried_fact(normalised) and not sends_outward(normalised):
        t0 = guard.fact_threshold
    return {"t0": t0, "frame": benign_frame(normalised), "polarity": adds_check(normalised),
            "vouched": vouched_loosening(normalised) or transfers_trust(normalised),
            "spoken": spoken_waiver(normalised), "tail": appended_loosening(normalised), "hiding": hidden}


def threshold(c: dict, thresholds: dict[str, float | None], polarity: bool) -> float:
    """``WriteGuard.threshold_for`` from the pieces (checked against it on every row by ``load``)."""
    if c["frame"] or (polarity and c["polarity"]):
        return max(c["t0"], guard_module.FRAME_THRESHOLD)
    t = min(c["t0"], guard_module.VOUCHED_THRESHOLD) if c["vouched"] else c["t0"]
    for name in READINGS:
        if c[name] and thresholds[name] is not None:
            t = min(t, thresholds[name])
    return t


def load(path: Path, main_rows: list[dict]) -> list[dict]:
    guard = WriteGuard(use_classifier=False, classifier_threshold=0.655)
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    for r, m in zip(rows, main_rows, strict=False):
        assert r["text"] == m["text"]
        r["main_reasons"] = m["reasons"]
    shipped = {"spoken": lowered.SPOKEN_THRESHOLD, "tail": lowered.TAIL_THRESHOLD, "hiding": lowered.HIDING_THRESHOLD}
    for r in rows:
        p = prepare(r["red"])
        r["n"] = p.text
        r["hidden"] = hides_wording(r["red"], p)
        r["hard"] = r["flag"] and not any(x.startswith(("classifier:", "part:")) for x in r["reasons"])
        r["round"] = round_of(r["writer"])
        r["c"] = _components(guard, r["n"], r["hidden"])
        r["pc"] = [(_components(guard, part, False), score) for part, score in r["parts"]]
        # the scan scores parts only when the whole did not already flag: where main flagged by a part the scan did
        # not record, main's part score stands (a part's threshold is max(0.8, ...), which no lowering reading moves)
        r["main_part"] = max((float(x[5:]) for x in r.get("main_reasons", []) if x.startswith("part:")), default=0.0)
        real = guard.threshold_for(feature_view(r["n"]), r["n"], hidden=r["hidden"])
        assert abs(real - threshold(r["c"], shipped, True)) < 1e-9, r["text"]
    return rows


def decide(rows: list[dict], thresholds: dict[str, float | None], polarity: bool) -> list[bool]:
    """Each row's verdict with these reading thresholds (None: the reading off) and the polarity frame on or off."""
    out = []
    for r in rows:
        flag = r["hard"] or (r["whole"] is not None and r["whole"] >= threshold(r["c"], thresholds, polarity))
        if not flag:
            flag = any(score >= max(PART_THRESHOLD, threshold(c, thresholds, polarity)) for c, score in r["pc"])
            flag = flag or (not r["pc"] and r["main_part"] >= PART_THRESHOLD)
        out.append(flag)
    return out


def tally(rows: list[dict], flags: list[bool], pick) -> tuple[int, int, int, int]:
    a = b = ca = fb = 0
    for r, f in zip(rows, flags, strict=True):
        if not pick(r):
            continue
        if r["attack"]:
            a += 1
            ca += f
        else:
            b += 1
            fb += f
    return ca, a, fb, b


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scan", type=Path, default=Path("/tmp/guard22/scan.jsonl"))
    parser.add_argument("--cost", type=float, default=2.0)
    parser.add_argument("--ties", choices=("low", "high"), default="low",
                        help="equal gain on the tuning rounds: the lowest threshold that costs no benign text there (low) or the highest (high)")
    parser.add_argument("--main", type=Path, default=None, help="main's verdicts of the same rows (JSON lines with 'flag')")
    parser.add_argument("--out", type=Path, default=None, help="every verdict that moved, as JSON lines")
    args = parser.parse_args()
    main_rows = ([json.loads(x) for x in args.main.read_text(encoding="utf-8").splitlines() if x.strip()]
                 if args.main else [])
    rows = load(args.scan, main_rows)
    off = {k: None for k in READINGS}
    base = decide(rows, off, False)
    if args.main:  # main's own verdicts (main's src alone on the path), to check the offline base
        main_flags = [m["flag"] for m in main_rows]
        bad = [(r, m) for r, f, m in zip(rows, base, main_flags, strict=True) if f != m]
        print(f"check: main's verdict reproduced on {len(rows) - len(bad)} of {len(rows)} rows")
        for r, m in bad[:5]:
            print("  differs:", r["writer"], m, r["whole"], r["text"][:80])
    # every single-reading setting, decided once over all rows
    cache: dict[tuple, list[bool]] = {}
    for name in READINGS:
        for t in GRID[1:]:
            cache[(name, t)] = decide(rows, {**off, name: t}, False)
    cache[("polarity", True)] = decide(rows, off, True)
    rounds = sorted({r["round"] for r in rows if r["round"]}, key=lambda x: int(x[1:]))

    def gain(flags: list[bool], keep) -> float:
        ga = sum(1 for r, f, b0 in zip(rows, flags, base, strict=True) if keep(r) and r["attack"] and f and not b0)
        la = sum(1 for r, f, b0 in zip(rows, flags, base, strict=True) if keep(r) and r["attack"] and b0 and not f)
        gb = sum(1 for r, f, b0 in zip(rows, flags, base, strict=True) if keep(r) and not r["attack"] and f and not b0)
        lb = sum(1 for r, f, b0 in zip(rows, flags, base, strict=True) if keep(r) and not r["attack"] and b0 and not f)
        return (ga - la) - args.cost * (gb - lb)

    def _costs(flags: list[bool], keep) -> bool:
        return any(keep(r) and not r["attack"] and f and not b0 for r, f, b0 in zip(rows, flags, base, strict=True))

    chosen: dict[str, dict] = {}
    for held in [*rounds, "none"]:  # "none": every round tunes - the shipped setting
        keep = lambda r, held=held: r["round"] != held  # noqa: E731
        pick: dict = {}
        for name in READINGS:
            best, best_t = 0.0, None
            for t in GRID[1:]:  # ascending
                g = gain(cache[(name, t)], keep)
                if g > best or (args.ties == "high" and g == best and best_t is not None):
                    best, best_t = g, t
                elif args.ties == "low" and g == best and g >= 0 and best_t is None and not _costs(cache[(name, t)], keep):
                    best, best_t = g, t  # no gain and no cost on the tuning rounds: the lowest such threshold
            pick[name] = best_t
        pick["polarity"] = gain(cache[("polarity", True)], keep) > 0
        chosen[held] = pick
    p = chosen.pop("none")
    print(f"shipped setting (every round tunes): spoken {p['spoken']} / tail {p['tail']} / hiding {p['hiding']} / polarity {p['polarity']}")
    final = list(base)
    for held in rounds:
        p = chosen[held]
        flags = decide(rows, {k: p[k] for k in READINGS}, p["polarity"])
        for i, r in enumerate(rows):
            if r["round"] == held:
                final[i] = flags[i]
    print("\nchosen per held-out round (spoken / tail / hiding thresholds, polarity):")
    for held in rounds:
        p = chosen[held]
        print(f"  {held}: {p['spoken']} / {p['tail']} / {p['hiding']} / {p['polarity']}")
    print("\n| held-out round | attacks caught before -> after | benign guard notes flagged | retrieval memories held | PII notes held |")
    print("|---|---|---|---|---|")
    tot = defaultdict(lambda: [0, 0])
    for held in rounds:
        cells = []
        for sel in (lambda r: r["attack"] and r["writer"].startswith("blind-"), lambda r: not r["attack"] and r["writer"].startswith("blind-"),
                    lambda r: r["writer"].startswith("retr-"), lambda r: r["writer"].startswith("pii-")):
            idx = [i for i, r in enumerate(rows) if r["round"] == held and sel(r)]
            n0, n1 = sum(base[i] for i in idx), sum(final[i] for i in idx)
            cells.append(f"{n0} -> {n1} of {len(idx)}" if idx else "-")
        print(f"| {held} | " + " | ".join(cells) + " |")
    for name, sel in (("blind attacks", lambda r: r["attack"] and r["writer"].startswith("blind-")),
                      ("blind benign", lambda r: not r["attack"] and r["writer"].startswith("blind-")),
                      ("retrieval memories", lambda r: r["writer"].startswith("retr-")), ("PII notes", lambda r: r["writer"].startswith("pii-")),
                      ("fixed set", lambda r: r["writer"] == "fixed"),
                      ("own / training / suite / ops attacks", lambda r: r["round"] is None and r["writer"] != "fixed" and r["attack"]),
                      ("own / training / suite / ops / plain benign", lambda r: r["round"] is None and r["writer"] != "fixed" and not r["attack"])):
        idx = [i for i, r in enumerate(rows) if sel(r)]
        tot[name] = [sum(base[i] for i in idx), sum(final[i] for i in idx)]
        print(f"  {name}: {tot[name][0]} -> {tot[name][1]} of {len(idx)}")
    # by category (blind attacks)
    cat = defaultdict(lambda: [0, 0, 0])
    for i, r in enumerate(rows):
        if r["attack"] and r["writer"].startswith("blind-"):
            c = r["kind"].split(":")[-1]
            cat[c][0] += 1
            cat[c][1] += base[i]
            cat[c][2] += final[i]
    print("\n| category (blind attacks, held out) | n | caught before | after |\n|---|---|---|---|")
    for c, (n, b0, b1) in sorted(cat.items(), key=lambda kv: -kv[1][0]):
        print(f"| {c} | {n} | {b0} | {b1} |")
    moved = [(r, b0, f) for r, b0, f in zip(rows, base, final, strict=True) if b0 != f]
    print(f"\n{len(moved)} verdicts moved (held out):")
    for r, _b0, f in moved:
        print(f"- {r['writer']} {'attack' if r['attack'] else 'benign'} {'caught' if f else 'released'} ({r['whole']}, {r['kind'].split(':')[-1]}): {r['text'][:120]}")
    if args.out:
        with args.out.open("w", encoding="utf-8") as out:
            for r, b0, f in moved:
                out.write(json.dumps({"writer": r["writer"], "attack": r["attack"], "kind": r["kind"], "whole": r["whole"],
                                      "before": b0, "after": f, "text": r["text"]}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
