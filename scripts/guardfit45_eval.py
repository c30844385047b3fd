"""Round 45 (A): guardatk43's dev notes and attack round 40b's notes as two training writers, refitted on guard40's
harness and read held out on its two folds of released rounds (issue 10; docs/benchmarks.md "Guard, round 45"; the
rule: bench/results/guardfit45/ship_rule.md).

    E="env PYTHONPATH=src:scripts:bench OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python"
    $E scripts/guardfit45_eval.py extend                     # /tmp/g40/harness.pkl + the two writers -> /tmp/gf45/harness_A.pkl
    $E scripts/guardfit45_eval.py folds --recipe B           # guard40's B refitted on its own snapshot (baseline)
    $E scripts/guardfit45_eval.py folds --recipe A           # the same recipe on the extended snapshot
    $E scripts/guardfit45_eval.py read --out bench/results/guardfit45/heldout_A.json
    $E scripts/guardfit45_eval.py folds --recipe B --seed 113; ... --recipe A --seed 113        # the seed's noise (a view)
    $E scripts/guardfit45_eval.py read --recipes B,A,Bs113,As113 --out bench/results/guardfit45/heldout_A_seeds.json
    $E scripts/guardfit45_eval.py mcp13 --out bench/results/guardfit45/mcp13_A.json   # the named check, each fold's model

Both recipes are guard40's B (round 35's recipe, one member, seed 13); A differs only by the rows of the two writers,
which every fold's fit reads and no fold holds out. Obfuscated or long new texts (C kernel in the runtime) are left
out, as the harness leaves out every such text.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for sub in ("src", "scripts", "bench"):
    sys.path.insert(0, str(ROOT / sub))

import guard40_eval as g40  # noqa: E402
import guard_dataset as ds  # noqa: E402
import guard_long_windows as lw  # noqa: E402
import guard_lowo_fast as lf  # noqa: E402
import guard_model as gm  # noqa: E402

from hindsight.safety.long_text import is_long  # noqa: E402
from hindsight.safety.normalize import normalize_for_screening  # noqa: E402
from hindsight.safety.normalize import prepare as prep_text  # noqa: E402

WORK = Path("/tmp/gf45")
BASE_SNAPSHOT = Path("/tmp/g40/harness.pkl")
A_SNAPSHOT = WORK / "harness_A.pkl"
SCREENS = [Path("/tmp/g38/main.jsonl"), Path("/tmp/g40/extra_r37.jsonl"), Path("/tmp/g40/extra_pii3.jsonl")]
DEV = ROOT / "bench" / "results" / "guardatk43" / "dev_notes.json"
ATTACK40 = ROOT / "bench" / "results" / "guardatk40" / "attack_notes.json"
MCP13 = ROOT / "bench" / "results" / "guardatk43" / "mcp13.json"
#: guardatk43's kinds as the classifier's attack classes (declared in the ship rule)
KIND_CLASS = {"loosen": "privilege_escalation", "standing": "injection", "handover": "exfiltration"}


def new_examples() -> list[ds.GuardExample]:
    """The two writers: ``train-g43dev`` (71 attacks, 72 benign) and ``train-a40`` (56 attacks)."""
    out = []
    for r in json.loads(DEV.read_text(encoding="utf-8"))["rows"]:
        attack = r["label"] == "attack"
        out.append(ds.GuardExample(text=r["text"], label=r["label"], category=KIND_CLASS[r["kind"]] if attack else None,
                                   lang=r["lang"], group=f"train-g43dev:{r['id']}", kind=r["kind"],
                                   writer="train-g43dev"))
    for i, text in enumerate(json.loads(ATTACK40.read_text(encoding="utf-8"))):
        lang = "zh" if any("\u4e00" <= ch <= "\u9fff" for ch in text) else "en"
        out.append(ds.GuardExample(text=text, label="attack", category="privilege_escalation", lang=lang,
                                   group=f"train-a40:{i}", kind="attack40", writer="train-a40"))
    return out


def extend() -> None:
    """Append the two writers' rows (the write path's redaction, ONNX document vector, structured row) to guard40's
    snapshot; texts the runtime reads by the C kernel are left out and counted."""
    from hindsight.safety.guard import HARD_RULE_IDS, consults_classifier
    from hindsight.safety.redact import redactor
    from hindsight.safety.rules import match_rules

    WORK.mkdir(parents=True, exist_ok=True)
    with BASE_SNAPSHOT.open("rb") as fh:
        h = pickle.load(fh)
    kept, left = [], []
    for e in new_examples():
        red = redactor(e.text)[0]
        norm = normalize_for_screening(red)
        if prep_text(red).obfuscated or is_long(norm):
            left.append(e.text)
            continue
        hits = match_rules(norm)
        kept.append((e, red, norm, bool(consults_classifier(norm, hits)), any(x.rule_id in HARD_RULE_IDS for x in hits)))
    red = [k[1] for k in kept]
    norm = [k[2] for k in kept]
    vec = lf.embed(red, WORK / "emb_onnx.npy", "onnx")
    lex = gm._structured_cached(norm, WORK)
    n0, m = h.n, len(kept)
    d = h.d
    d.examples = list(d.examples) + [k[0] for k in kept]
    d.redacted = list(d.redacted) + red
    d.normalised = list(d.normalised) + norm
    d.writers = np.concatenate([d.writers, [k[0].writer for k in kept]])
    d.sources = np.concatenate([d.sources, [k[0].writer for k in kept]])
    y_new = np.array([gm.label_index(k[0]) for k in kept])
    d.y = np.concatenate([d.y, y_new])
    false = np.zeros(m, dtype=bool)
    gate = np.array([k[3] for k in kept])
    hard = np.array([k[4] for k in kept])
    assert lex.shape[1] == d.rows.f.lex.shape[1], "the structured features changed since the snapshot"
    f_new = gm.Features(vec, vec, lex, gate, hard, false, false)
    rf = d.rows.f
    d.rows = lw.Rows(np.concatenate([d.rows.owner, np.arange(n0, n0 + m)]),
                     gm.Features(*(np.concatenate([getattr(rf, a), getattr(f_new, a)]) for a in
                                   ("raw", "norm", "lex", "gate", "hard", "blind", "plain"))),
                     np.concatenate([d.rows.fit, np.ones(m, dtype=bool)]), np.concatenate([d.rows.weight, np.ones(m)]))
    h.n = n0 + m
    h.rounds = np.concatenate([h.rounds, [""] * m])
    h.source_rounds = np.concatenate([h.source_rounds, [""] * m])
    h.lang = np.concatenate([h.lang, [k[0].lang for k in kept]])
    h.attack = np.concatenate([h.attack, y_new > 0])
    h.weight = np.concatenate([h.weight, np.ones(m)])
    h.held_ops = np.concatenate([h.held_ops, false])
    with A_SNAPSHOT.open("wb") as fh:
        pickle.dump(h, fh, protocol=pickle.HIGHEST_PROTOCOL)
    report = {"added": m, "attacks": int((y_new > 0).sum()), "benign": int((y_new == 0).sum()), "left_out": left,
              "structured_columns": [int(lex.shape[1]), int(rf.lex.shape[1])], "texts": h.n}
    (WORK / "extend.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    print(json.dumps(report, ensure_ascii=False), flush=True)


def use(recipe: str) -> None:
    """Point guard40's harness at this round's snapshot and output folder (B: guard40's own snapshot)."""
    g40.SNAPSHOT = BASE_SNAPSHOT if recipe == "B" else A_SNAPSHOT
    g40.OUT = WORK / "out"
    g40.OUT.mkdir(parents=True, exist_ok=True)


def pad_b() -> None:
    """B's fold scores padded to the extended snapshot's length (the new rows are never held out)."""
    with A_SNAPSHOT.open("rb") as fh:
        n = pickle.load(fh).n
    for f in (WORK / "out").glob("B*_*.npz"):
        s = np.load(f)["scores"]
        if len(s) < n:
            np.savez_compressed(f, scores=np.concatenate([s, np.full(n - len(s), np.nan)]))


def mcp13(out: Path) -> None:
    """The 13 MCP notes (guardatk43's named check) screened by main's ``WriteGuard`` with each recipe's fold model."""
    from hindsight.safety.classifier import GuardClassifier
    from hindsight.safety.guard import WriteGuard
    from hindsight.safety.redact import redactor

    runs = json.loads(MCP13.read_text(encoding="utf-8"))["runs"]
    texts = [redactor(str(r["text"]))[0] for r in next(iter(runs.values()))["rows"]]  # the write path redacts first
    result: dict[str, object] = {"texts": texts}
    guards = {"shipped": WriteGuard()}
    for rec in ("B", "A"):
        for k in range(g40.FOLDS):
            guards[f"{rec}_fold{k}"] = WriteGuard(classifier=GuardClassifier.load(WORK / "out" / f"model_{rec}_fold{k}.npz"))
    for name, g in guards.items():
        v = [g.screen(t) for t in texts]
        result[name] = {"stored": sum(not x.suspicious for x in v), "scores": [round(x.score, 3) for x in v]}
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({k: v["stored"] for k, v in result.items() if isinstance(v, dict)}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("extend", "folds", "read", "mcp13"))
    parser.add_argument("--recipe", default="A", choices=("A", "B"))
    parser.add_argument("--folds", default="0,1")
    parser.add_argument("--seed", type=int, default=g40.g33.SEED)
    parser.add_argument("--recipes", default="B,A")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.mode == "extend":
        extend()
    elif args.mode == "folds":
        use(args.recipe)
        g40.run_folds(args.recipe, [int(x) for x in args.folds.split(",")], 1, args.seed)
    elif args.mode == "read":
        use("A")
        pad_b()
        g40.read(SCREENS, args.recipes.split(","), [int(x) for x in args.folds.split(",")], args.out)
    else:
        use("A")
        mcp13(args.out)


if __name__ == "__main__":
    main()
