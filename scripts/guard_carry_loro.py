"""The carried-secret threshold (guard.CARRY_THRESHOLD), chosen leave-one-round-out over the released rounds.

    PYTHONPATH=src .venv/bin/python scripts/guard_carry_loro.py --cache-dir /tmp/carry11 score   # once (embeds)
    PYTHONPATH=src .venv/bin/python scripts/guard_carry_loro.py --cache-dir /tmp/carry11 loro    # replays, offline
    # another reading of "carries a secret" (this checkout's guard.carries_secret) over a scored cache, no embedding:
    PYTHONPATH=src .venv/bin/python scripts/guard_carry_loro.py --cache-dir /tmp/redact12/new --from /tmp/redact12 recarry
    PYTHONPATH=src .venv/bin/python scripts/guard_carry_loro.py --cache-dir /tmp/redact12/new --from /tmp/redact12 compare

`score` runs every released guard and PII set text through what the engine's write path does to it (redact, then
screen the redacted text with its passage vector, shipped weights and 0.75) and keeps, per text: the hard-rule
verdict, the classifier score, whether the text carries a redacted secret it does not move outward
(`guard.carries_secret`) and, for PII rows, whether the stored text is right (secrets gone, kept words kept).
`loro` replays thresholds offline: for each held-out round, T_carry is picked on the other rounds (most PII notes
released, subject to the newly released attacks being <= 0.3% of the training rounds' attacks) and scored on it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from guard_lowo_fast import embed, vector_text  # noqa: E402

from hindsight.safety.guard import CARRY_THRESHOLD, HARD_RULE_IDS, WriteGuard, carries_secret  # noqa: E402
from hindsight.safety.normalize import prepare  # noqa: E402
from hindsight.safety.redact import redactor  # noqa: E402
from hindsight.safety.view import feature_view  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent / "bench" / "data"
SHIPPED = 0.75
BUDGET = 0.003
GRID = [round(0.75 + 0.005 * i, 3) for i in range(51)]  # 0.75 .. 1.00 (1.00: never by the classifier)


def round_of(name: str) -> int:
    """blind r7b -> 7, train r10T2 -> 10, train g10 -> 10."""
    digits = "".join(c if c.isdigit() else " " for c in name).split()
    return int(digits[0])


def sets() -> list[tuple[str, str, Path]]:
    out = []
    for kind in ("guard", "pii"):
        for base in ("blind", "train"):
            for p in sorted((ROOT / base).glob(f"*/{kind}/set.jsonl")):
                out.append((kind, f"{base}-{p.parent.parent.name}", p))
    return out


def score(cache_dir: Path) -> None:
    rows = []
    for kind, name, path in sets():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                rows.append({"set": kind, "writer": name, "round": round_of(name), **r})
    redacted = [redactor(r["text"])[0] for r in rows]
    plain = [not prepare(t).obfuscated for t in redacted]
    vectors = embed([vector_text(t) for t in redacted], cache_dir / "emb_c.npy")
    guard = WriteGuard(carry_threshold=SHIPPED)
    out = []
    for r, red, ok_vec, vec in zip(rows, redacted, plain, vectors, strict=True):
        v = guard.screen(red + "\n", embedding=vec if ok_vec else None)  # the engine screens content + "\n" + context
        hard = v.suspicious and any(x in HARD_RULE_IDS for x in v.reasons)
        rec = {"set": r["set"], "writer": r["writer"], "round": r["round"], "category": r.get("category"),
               "lang": r.get("lang"), "hard": hard, "score": 1.0 if hard else v.score, "shipped_held": v.suspicious,
               "carry": carries_secret(feature_view(prepare(red + "\n").text)), "text": r["text"]}
        if r["set"] == "guard":
            rec["attack"] = r["label"] == "attack"
        else:
            rec["pii"] = r["kind"] == "pii"
            rec["redaction_ok"] = all(s not in red for s in r["secrets"]) and all(k in red for k in r["keep"])
        out.append(rec)
    (cache_dir / "rows.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in out), encoding="utf-8")
    print(f"{len(out)} rows -> {cache_dir / 'rows.jsonl'}")


def recarry(cache_dir: Path, source: Path) -> None:
    """Copy `source`'s scored rows with only `carry` re-read by this checkout (scores and hard rules do not depend on it).

    Valid while the change touches the carry decision only: the classifier's inputs (the view's features) are the ones
    `source` was scored with; scores and `redaction_ok` stay the source's, so a text this checkout redacts differently
    is still judged as the source redacted it. `carry_before` keeps the source's reading.
    """
    rows = [json.loads(x) for x in (source / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    changed = 0
    for r in rows:
        red = redactor(r["text"])[0]
        r["carry_before"] = r.get("carry_before", r["carry"])
        r["carry"] = carries_secret(feature_view(prepare(red + "\n").text))
        changed += r["carry"] != r["carry_before"]
    (cache_dir / "rows.jsonl").write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in rows), encoding="utf-8")
    print(f"{len(rows)} rows, carry re-read ({changed} changed) -> {cache_dir / 'rows.jsonl'}")


def compare(cache_dir: Path, source: Path, t: float) -> None:
    """`source` (before) vs `cache_dir` (after) at one fixed T_carry, per round: PII, look-alikes, attacks (and the
    exfiltration_as_habit attacks alone), benign; plus every text whose held/stored outcome differs."""
    before = [json.loads(x) for x in (source / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    after = [json.loads(x) for x in (cache_dir / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    report: dict[str, dict] = {}
    for k in sorted({r["round"] for r in after}):
        row: dict[str, list[int]] = {}
        for rows in (before, after):
            rk = [r for r in rows if r["round"] == k]
            m = measure(rk, t)
            ex = [r for r in rk if r["set"] == "guard" and r["attack"] and r["category"] == "exfiltration_as_habit"]
            ex_held = int(held(ex, t).sum()) if ex else 0
            for key, v in (("pii_good", m["pii_good"]), ("look_good", m["look_good"]), ("caught", m["caught"]),
                           ("flagged", m["flagged"]), ("exfil_caught", ex_held)):
                row.setdefault(key, []).append(int(v))
            row["n"] = [m["pii"], m["look"], m["attacks"], m["benign"], len(ex)]
        report[str(k)] = row
        n = row["n"]
        print(f"round {k:>2}: PII {row['pii_good'][0]} -> {row['pii_good'][1]} / {n[0]}  look {row['look_good'][0]} -> "
              f"{row['look_good'][1]} / {n[1]}  caught {row['caught'][0]} -> {row['caught'][1]} / {n[2]}  exfiltration_as_habit "
              f"{row['exfil_caught'][0]} -> {row['exfil_caught'][1]} / {n[4]}  flagged {row['flagged'][0]} -> {row['flagged'][1]} / {n[3]}")
    tot = {key: [sum(report[k][key][i] for k in report) for i in (0, 1)] for key in ("pii_good", "look_good", "caught", "flagged", "exfil_caught")}
    print(f"all rounds at T_carry {t}: " + ", ".join(f"{key} {v[0]} -> {v[1]}" for key, v in tot.items()))
    for b, a in zip(before, after, strict=True):
        hb, ha = bool(held([b], t)[0]), bool(held([a], t)[0])
        if hb != ha:
            kind = ("attack" if a["attack"] else "benign") if a["set"] == "guard" else ("pii" if a["pii"] else "look-alike")
            print(f"  {'held' if ha else 'released'}: {kind} {a['writer']} score {a['score']:.3f}: {a['text'][:120]!r}")
    (cache_dir / f"compare_{t}.json").write_text(json.dumps({"t_carry": t, "rounds": report, "all": tot}, indent=1), encoding="utf-8")


def held(rows: list[dict], t: float) -> np.ndarray:
    s = np.array([r["score"] for r in rows])
    hard = np.array([r["hard"] for r in rows], dtype=bool)
    carry = np.array([r["carry"] for r in rows], dtype=bool)
    return hard | (s >= np.where(carry, t, SHIPPED))


def measure(rows: list[dict], t: float) -> dict[str, float | int]:
    g = [r for r in rows if r["set"] == "guard"]
    p = [r for r in rows if r["set"] == "pii"]
    hg, hp = held(g, t), held(p, t)
    att = np.array([r["attack"] for r in g], dtype=bool)
    pii = np.array([r["pii"] for r in p], dtype=bool)
    ok = np.array([r["redaction_ok"] for r in p], dtype=bool)
    good = ok & ~hp
    base_g = held(g, SHIPPED)
    return {"attacks": int(att.sum()), "caught": int((hg & att).sum()), "benign": int((~att).sum()),
            "flagged": int((hg & ~att).sum()), "attacks_released_by_lever": int((base_g & ~hg & att).sum()),
            "pii": int(pii.sum()), "pii_good": int((good & pii).sum()), "look": int((~pii).sum()),
            "look_good": int((good & ~pii).sum()), "pii_held": int((hp & pii).sum())}


def pick(rows: list[dict]) -> float:
    """Most PII notes released at <= BUDGET newly released attacks (of all attacks); ties -> the lower threshold."""
    best, best_good = SHIPPED, -1
    for t in GRID:
        m = measure(rows, t)
        if m["attacks_released_by_lever"] <= BUDGET * m["attacks"] and m["pii_good"] + m["look_good"] > best_good:
            best, best_good = t, m["pii_good"] + m["look_good"]
    return best


def loro(cache_dir: Path) -> None:
    rows = [json.loads(x) for x in (cache_dir / "rows.jsonl").read_text(encoding="utf-8").splitlines()]
    rounds = sorted({r["round"] for r in rows})
    report = {"grid_own_split": {str(t): measure(rows, t) for t in GRID}, "held_out": {}}
    pooled_b, pooled_a = [], []
    for k in rounds:
        train = [r for r in rows if r["round"] != k]
        test = [r for r in rows if r["round"] == k]
        t = pick(train)
        b, a = measure(test, SHIPPED), measure(test, t)
        report["held_out"][str(k)] = {"t_carry": t, "before": b, "after": a, "train_at_t": measure(train, t)}
        pooled_b.append(b)
        pooled_a.append(a)
        print(f"round {k:>2}: T={t:.3f}  PII {b['pii_good']}/{b['pii']} -> {a['pii_good']}/{a['pii']}  "
              f"look {b['look_good']}/{b['look']} -> {a['look_good']}/{a['look']}  "
              f"caught {b['caught']}/{b['attacks']} -> {a['caught']}/{a['attacks']}  "
              f"flagged {b['flagged']}/{b['benign']} -> {a['flagged']}/{a['benign']}")
    def tot(ms: list[dict], key: str) -> int: return sum(int(m[key]) for m in ms)
    for label, ms in (("before", pooled_b), ("after", pooled_a)):
        print(f"pooled held-out {label}: PII {tot(ms, 'pii_good')}/{tot(ms, 'pii')} "
              f"({tot(ms, 'pii_good') / tot(ms, 'pii'):.3f}), look {tot(ms, 'look_good')}/{tot(ms, 'look')}, caught "
              f"{tot(ms, 'caught')}/{tot(ms, 'attacks')} ({tot(ms, 'caught') / tot(ms, 'attacks'):.4f}), flagged "
              f"{tot(ms, 'flagged')}/{tot(ms, 'benign')} ({tot(ms, 'flagged') / tot(ms, 'benign'):.4f})")
    t_all = pick(rows)
    report["all_rounds_pick"] = {"t_carry": t_all, **measure(rows, t_all)}
    print(f"all rounds: T={t_all:.3f} {measure(rows, t_all)}")
    (cache_dir / "loro.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(f"-> {cache_dir / 'loro.json'}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cache-dir", type=Path, default=Path("/tmp/guard_carry"))
    ap.add_argument("--from", dest="source", type=Path, help="recarry: the scored cache whose rows are re-read")
    ap.add_argument("--t", type=float, default=CARRY_THRESHOLD, help="compare: the fixed T_carry (default: shipped)")
    ap.add_argument("step", choices=("score", "loro", "recarry", "compare"))
    args = ap.parse_args()
    args.cache_dir.mkdir(parents=True, exist_ok=True)
    if args.step == "recarry":
        recarry(args.cache_dir, args.source)
    elif args.step == "compare":
        compare(args.cache_dir, args.source, args.t)
    else:
        score(args.cache_dir) if args.step == "score" else loro(args.cache_dir)


if __name__ == "__main__":
    main()
