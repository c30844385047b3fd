"""Round 25's readings (``hushed``, ``disarmed``) applied to every released text, leave-one-round-out (issue 10).

    PYTHONPATH=src .venv/bin/python bench/guard25_readings.py --scan /tmp/guard25/scan.jsonl [--out moved.jsonl] [--ties high|low]

Reads ``bench/guard22_scan.py``'s rows (each text screened by the shipped guard as the write path screens it: main's
verdict, the whole text's classifier score, the redacted text) for the texts a round-25 reading fires on (the only
texts whose verdict it can move: a reading only lowers the threshold of the text it reads, never below a frame; the
round-25 trust forms - ``trusted.py`` beyond main's, ``--main-src`` - only at the vouched threshold, or off). A
*round* is its blind guard writers (rN, rNb), the training writers written in it (rNT1, ...), its retrieval memories
and its PII notes. For each held-out round each reading's threshold (``GRID``, or off) is chosen on the other rounds
and the non-round writers (own, suite, chat, ops, plain, fixed) by attacks gained minus ``--cost`` x benign guard
texts newly flagged; a setting that newly flags a retrieval memory, a PII note, an ops note or a fixed-set text there
is not allowed (the budget: those are not to rise). Ties: the highest threshold (``--ties high``, the default) or the
lowest.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
from pathlib import Path

import hindsight.safety.guard as guard_module
import hindsight.safety.lowered as lowered
from hindsight.safety.disarmed import disarms_safeguard
from hindsight.safety.guard import WriteGuard
from hindsight.safety.hiding import hides_wording
from hindsight.safety.hushed import hushes_act
from hindsight.safety.normalize import prepare
from hindsight.safety.polarity import adds_check
from hindsight.safety.stake import benign_frame
from hindsight.safety.trusted import transfers_trust
from hindsight.safety.view import feature_view

GRID = (None, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6)
#: ``--main-src``'s ``safety/trusted.py`` (main's trust reading): the round-25 forms are what this checkout reads beyond it
_MAIN_TRUSTED: list = []


def _trusted_beyond_main(normalised: str) -> bool:
    return transfers_trust(normalised) and not _MAIN_TRUSTED[0](normalised)


#: each reading, what it reads and the thresholds it may be given (None: off); the trust forms only at the vouched one
READINGS = {"hushed": hushes_act, "disarmed": disarms_safeguard, "trusted": _trusted_beyond_main}
GRIDS = {"hushed": GRID, "disarmed": GRID, "trusted": (None, guard_module.VOUCHED_THRESHOLD)}
_ROUND = re.compile(r"^(?:blind-(r\d+)b?|retr-(r\d+)|pii-(r\d+)|train-(r\d+)T\d+)$")
_GUARDED = ("retr-", "pii-", "ops", "fixed")


def round_of(writer: str) -> str | None:
    m = _ROUND.match(writer)
    return next((g for g in m.groups() if g), None) if m else None


def load(path: Path, main_src: Path) -> list[dict]:
    spec = importlib.util.spec_from_file_location("trusted_main", main_src / "hindsight" / "safety" / "trusted.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    _MAIN_TRUSTED[:] = [module.transfers_trust]
    saved = (lowered.HUSHED_THRESHOLD, lowered.DISARMED_THRESHOLD, guard_module.transfers_trust)
    lowered.HUSHED_THRESHOLD = lowered.DISARMED_THRESHOLD = 1.0  # main's threshold: the round-25 readings off
    guard_module.transfers_trust = module.transfers_trust  # type: ignore[assignment]  (and main's trust reading)
    guard = WriteGuard(use_classifier=False, classifier_threshold=0.655)
    rows = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
    for r in rows:
        p = prepare(r["red"])
        n = p.text
        r["round"] = round_of(r["writer"])
        r["t_main"] = guard.threshold_for(feature_view(n), n, hidden=hides_wording(r["red"], p))
        r["frame"] = benign_frame(n) or adds_check(n)
        r["fires"] = {name: (not r["frame"]) and f(n) for name, f in READINGS.items()}
    lowered.HUSHED_THRESHOLD, lowered.DISARMED_THRESHOLD, guard_module.transfers_trust = saved
    return rows


def decide(rows: list[dict], thresholds: dict[str, float | None]) -> list[bool]:
    out = []
    for r in rows:
        flag = bool(r["flag"])
        if not flag and r["whole"] is not None:
            t = min([r["t_main"]] + [v for k, v in thresholds.items() if v is not None and r["fires"][k]])
            flag = r["whole"] >= t
        out.append(flag)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scan", type=Path, default=Path("/tmp/guard25/scan.jsonl"))
    parser.add_argument("--cost", type=float, default=3.0)
    parser.add_argument("--ties", choices=("low", "high"), default="high")
    parser.add_argument("--out", type=Path, default=None, help="every verdict that moved (held out), as JSON lines")
    parser.add_argument("--json", type=Path, default=None, help="the summary, as JSON")
    parser.add_argument("--main-src", type=Path, default=Path("/work/main/src"), help="main's source, for its trust reading")
    args = parser.parse_args()
    rows = load(args.scan, args.main_src)
    base = [bool(r["flag"]) for r in rows]
    off = {k: None for k in READINGS}
    cache = {(name, t): decide(rows, {**off, name: t}) for name in READINGS for t in GRIDS[name][1:]}
    rounds = sorted({r["round"] for r in rows if r["round"]}, key=lambda x: int(x[1:]))

    def score(flags: list[bool], keep) -> float | None:
        g = 0.0
        for r, f, b0 in zip(rows, flags, base, strict=True):
            if not keep(r) or f == b0:
                continue
            if r["attack"]:
                g += 1
            elif r["writer"].startswith(_GUARDED):
                return None  # over the budget: a retrieval memory, PII note, ops note or fixed text newly flagged
            else:
                g -= args.cost
        return g

    chosen: dict[str, dict] = {}
    for held in [*rounds, "none"]:
        keep = lambda r, held=held: r["round"] != held  # noqa: E731
        pick: dict = {}
        for name in READINGS:
            best, best_t = 0.0, None
            for t in GRIDS[name][1:]:
                g = score(cache[(name, t)], keep)
                if g is None:
                    continue
                if g > best or (g == best and g > 0 and args.ties == "low" and best_t is None):
                    best, best_t = g, t
                elif g == best and g > 0 and args.ties == "high":
                    best_t = t
            pick[name] = best_t
        chosen[held] = pick
    shipped = chosen.pop("none")
    print("setting with every round tuning (the one to ship):", shipped)
    final = list(base)
    for held in rounds:
        flags = decide(rows, chosen[held])
        for i, r in enumerate(rows):
            if r["round"] == held:
                final[i] = flags[i]
    in_sample = decide(rows, shipped)
    for i, r in enumerate(rows):
        if r["round"] is None:
            final[i] = in_sample[i]  # non-round writers always tune: in-sample
    print("\nchosen per held-out round:", {h: tuple(p.values()) for h, p in chosen.items() if any(p.values())},
          "(others: off / off)" if any(not any(p.values()) for p in chosen.values()) else "")

    def cells(sel) -> tuple[int, int, int]:
        idx = [i for i, r in enumerate(rows) if sel(r)]
        return sum(base[i] for i in idx), sum(final[i] for i in idx), len(idx)

    summary: dict[str, object] = {"shipped": shipped, "chosen": chosen, "rows": len(rows)}
    print("\n| held-out round | blind attacks caught (fired rows) | blind benign flagged | training attacks | training benign | retrieval memories | PII notes |")
    print("|---|---|---|---|---|---|---|")
    per = {}
    for held in rounds:
        cs = [cells(lambda r, s=s, held=held: r["round"] == held and s(r)) for s in (
            lambda r: r["attack"] and r["writer"].startswith("blind-"), lambda r: not r["attack"] and r["writer"].startswith("blind-"),
            lambda r: r["attack"] and r["writer"].startswith("train-"), lambda r: not r["attack"] and r["writer"].startswith("train-"),
            lambda r: r["writer"].startswith("retr-"), lambda r: r["writer"].startswith("pii-"))]
        per[held] = cs
        print(f"| {held} | " + " | ".join(f"{a} -> {b} of {n}" if n else "-" for a, b, n in cs) + " |")
    summary["per_round"] = per
    groups = {
        "blind attacks r1-r21": lambda r: r["attack"] and r["writer"].startswith("blind-") and int(r["round"][1:]) <= 21,
        "blind attacks r22-r23": lambda r: r["attack"] and r["writer"].startswith("blind-") and int(r["round"][1:]) >= 22,
        "blind benign": lambda r: not r["attack"] and r["writer"].startswith("blind-"),
        "training attacks (rNT*)": lambda r: r["attack"] and r["writer"].startswith("train-r"),
        "training benign (rNT*)": lambda r: not r["attack"] and r["writer"].startswith("train-r"),
        "retrieval memories": lambda r: r["writer"].startswith("retr-"), "PII notes": lambda r: r["writer"].startswith("pii-"),
        "fixed set": lambda r: r["writer"] == "fixed", "ops": lambda r: r["writer"] == "ops",
        "own / suite / chat / plain attacks (in-sample)": lambda r: r["round"] is None and r["attack"] and r["writer"] not in ("fixed", "ops"),
        "own / suite / chat / plain benign (in-sample)": lambda r: r["round"] is None and not r["attack"] and r["writer"] not in ("fixed", "ops"),
    }
    summary["groups"] = {}
    for name, sel in groups.items():
        a, b, n = cells(sel)
        summary["groups"][name] = [a, b, n]
        print(f"  {name}: {a} -> {b} of {n} (rows a reading fires on)")
    moved = [(r, f) for r, b0, f in zip(rows, base, final, strict=True) if b0 != f]
    print(f"\n{len(moved)} verdicts moved:")
    for r, f in moved:
        which = "+".join(k for k, v in r["fires"].items() if v)
        print(f"- {r['writer']} {'attack' if r['attack'] else 'BENIGN'} {'caught' if f else 'released'} ({r['whole']}, {which}, "
              f"{r['kind'].split(':')[-1]}): {r['text'][:110]}")
    if args.out:
        with args.out.open("w", encoding="utf-8") as out:
            for r, f in moved:
                out.write(json.dumps({"writer": r["writer"], "attack": r["attack"], "kind": r["kind"], "whole": r["whole"],
                                      "fires": r["fires"], "after": f, "text": r["text"]}, ensure_ascii=False) + "\n")
    if args.json:
        args.json.write_text(json.dumps(summary, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
