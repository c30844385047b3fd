"""Round 45 (A): guardatk43's dev notes and attack round 40b's notes as two training writers, refitted on guard40's
harness and read held out on its two folds of released rounds (issue 10; docs/benchmarks.md "Guard, round 45"; the
rule: bench/results/guardfit45/ship_rule.md).

    E="env PYTHONPATH=src:scripts:bench OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 nice -n 5 .venv/bin/python"
    $E scripts/guardfit45_eval.py extend                     # /tmp/g40/harness.pkl + the two writers -> /tmp/gf45/harness_A.pkl
    $E scripts/guardfit45_eval.py folds --recipe B           # guard40's B refitted on its own snapshot (baseline)
    $E scripts/guardfit45_eval.py folds --recipe A           # the same recipe on the extended snapshot
    $E scripts/guardfit45_eval.py folds --recipe B --seed 113; ... --recipe A --seed 113        # the seed's noise (a view)
    $E scripts/guardfit45_eval.py read --recipes B,A,Aw1,Bs113,As113,Aw1s113 --out bench/results/guardfit45/heldout_A.json
    $E scripts/guardfit45_eval.py mcp13 --out bench/results/guardfit45/mcp13_A.json   # the named check, each fold's model
    # r38 / r38b / r39 / r39b: main's screen of them (/tmp/gf45/screen_r38_r39.jsonl), then B39 / A39 as above
    $E scripts/guardfit45_eval.py extend39; $E scripts/guardfit45_eval.py folds --recipe B39   # and A39
    $E scripts/guardfit45_eval.py read39 --recipes B39,A39,B39s113,A39s113 --base B39 --out bench/results/guardfit45/heldout_A39.json

Both recipes are guard40's B (round 35's recipe, one member, seed 13); A differs only by the rows of the two writers,
which every fold's fit reads and no fold holds out (``blind`` as every writer but "own": blind_weight 3; ``Aw1``, the
first run, had the flag unset - a third of that weight). Obfuscated or long new texts (C kernel in the runtime) are left
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
B39_SNAPSHOT = WORK / "harness_B39.pkl"
A39_SNAPSHOT = WORK / "harness_A39.pkl"
SNAPSHOTS = {"B": BASE_SNAPSHOT, "A": A_SNAPSHOT, "B39": B39_SNAPSHOT, "A39": A39_SNAPSHOT}
SCREEN_R38_R39 = WORK / "screen_r38_r39.jsonl"
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


def append(h: object, items: list[tuple[ds.GuardExample, str, str, bool, bool]], rnd: list[str]) -> int:
    """Append texts (example, redacted, normalised, gate, hard) with their round ("" for a training writer) to the
    harness ``h``: the write path's ONNX document vector, the structured row; one row each (none is long)."""
    red = [k[1] for k in items]
    norm = [k[2] for k in items]
    vec = lf.embed(red, WORK / "emb_onnx.npy", "onnx")
    lex = gm._structured_cached(norm, WORK)
    d = h.d  # type: ignore[attr-defined]
    n0, m = h.n, len(items)  # type: ignore[attr-defined]
    assert lex.shape[1] == d.rows.f.lex.shape[1], "the structured features changed since the snapshot"
    d.examples = list(d.examples) + [k[0] for k in items]
    d.redacted = list(d.redacted) + red
    d.normalised = list(d.normalised) + norm
    d.writers = np.concatenate([d.writers, [k[0].writer for k in items]])
    d.sources = np.concatenate([d.sources, [k[0].writer for k in items]])
    y_new = np.array([gm.label_index(k[0]) for k in items])
    d.y = np.concatenate([d.y, y_new])
    # every writer but "own" is "blind" to the fit (blind_weight 3), a retrieval memory is also "plain"
    blind = np.ones(m, dtype=bool)
    plain = np.array([k[0].writer.startswith("retr-") for k in items])
    f_new = gm.Features(vec, vec, lex, np.array([k[3] for k in items]), np.array([k[4] for k in items]), blind, plain)
    rf = d.rows.f
    d.rows = lw.Rows(np.concatenate([d.rows.owner, np.arange(n0, n0 + m)]),
                     gm.Features(*(np.concatenate([getattr(rf, a), getattr(f_new, a)]) for a in
                                   ("raw", "norm", "lex", "gate", "hard", "blind", "plain"))),
                     np.concatenate([d.rows.fit, np.ones(m, dtype=bool)]), np.concatenate([d.rows.weight, np.ones(m)]))
    h.n = n0 + m  # type: ignore[attr-defined]
    h.rounds = np.concatenate([h.rounds, rnd])  # type: ignore[attr-defined]
    h.source_rounds = np.concatenate([h.source_rounds, [""] * m])  # type: ignore[attr-defined]
    h.lang = np.concatenate([h.lang, [k[0].lang for k in items]])  # type: ignore[attr-defined]
    h.attack = np.concatenate([h.attack, y_new > 0])  # type: ignore[attr-defined]
    h.weight = np.concatenate([h.weight, np.ones(m)])  # type: ignore[attr-defined]
    h.held_ops = np.concatenate([h.held_ops, np.zeros(m, dtype=bool)])  # type: ignore[attr-defined]
    return int((y_new > 0).sum())


def extend(base: Path, out: Path) -> None:
    """``base`` plus the two writers' rows (the write path's redaction); texts the runtime reads by the C kernel are
    left out and counted."""
    from hindsight.safety.guard import HARD_RULE_IDS, consults_classifier
    from hindsight.safety.redact import redactor
    from hindsight.safety.rules import match_rules

    WORK.mkdir(parents=True, exist_ok=True)
    with base.open("rb") as fh:
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
    attacks = append(h, kept, [""] * len(kept))
    with out.open("wb") as fh:
        pickle.dump(h, fh, protocol=pickle.HIGHEST_PROTOCOL)
    report = {"added": len(kept), "attacks": attacks, "benign": len(kept) - attacks, "left_out": left, "texts": h.n}
    (WORK / f"extend_{out.stem}.json").write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    print(json.dumps(report, ensure_ascii=False), flush=True)


def extend_rounds(screen: Path, out: Path) -> None:
    """guard40's snapshot plus r38 / r38b / r39 / r39b's guard texts and r38 / r39's retrieval memories, from main's
    screen of them (its redaction, gate and hard rules); obfuscated or long texts keep their screen verdict."""
    with BASE_SNAPSHOT.open("rb") as fh:
        h = pickle.load(fh)
    items, rnd, left = [], [], 0
    for line in screen.read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        if r["category"] == "pii_note":
            continue
        red = str(r["redacted"])
        norm = normalize_for_screening(red)
        if r["obfuscated"] or is_long(norm):
            left += 1
            continue
        if r["category"] == "retrieval_memory":
            e = ds.GuardExample(text=str(r["text"]), label="benign", category=None, lang=str(r["lang"]),
                                group=f"retr-{r['round']}:{r['i']}", writer=f"retr-{r['round']}")
        else:
            attack = bool(r["attack"])
            e = ds.GuardExample(text=str(r["text"]), label="attack" if attack else "benign",
                                category=ds._BLIND_CLASS.get(str(r["category"]), "injection") if attack else None,
                                lang=str(r["lang"]), group=f"blind-{r['writer']}:{r['i']}", kind=str(r["category"]),
                                writer=f"blind-{r['writer']}")
        items.append((e, red, norm, r["stage"] != "gate", str(r["stage"]).startswith("hard:")))
        rnd.append(str(r["round"]))
    attacks = append(h, items, rnd)
    with out.open("wb") as fh:
        pickle.dump(h, fh, protocol=pickle.HIGHEST_PROTOCOL)
    print(json.dumps({"added": len(items), "attacks": attacks, "left_out": left, "texts": h.n}), flush=True)


def use(recipe: str) -> None:
    """Point guard40's harness at this round's snapshot and output folder (B: guard40's own snapshot; B39 / A39:
    with r38 / r39)."""
    g40.SNAPSHOT = SNAPSHOTS[recipe.split("s1")[0].split("w1")[0]]
    g40.OUT = WORK / "out"
    g40.OUT.mkdir(parents=True, exist_ok=True)


def pad_b(snapshot: Path, prefix: str) -> None:
    """B's fold scores padded to the extended snapshot's length (the new rows are never held out)."""
    with snapshot.open("rb") as fh:
        n = pickle.load(fh).n
    for f in (WORK / "out").glob(f"{prefix}*_*.npz"):
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
    for rec in ("B", "A", "B39", "A39"):
        for k in range(g40.FOLDS):
            guards[f"{rec}_fold{k}"] = WriteGuard(classifier=GuardClassifier.load(WORK / "out" / f"model_{rec}_fold{k}.npz"))
    for name, g in guards.items():
        v = [g.screen(t) for t in texts]
        result[name] = {"stored": sum(not x.suspicious for x in v), "scores": [round(x.score, 3) for x in v]}
    out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(json.dumps({k: v["stored"] for k, v in result.items() if isinstance(v, dict)}), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("extend", "extend39", "folds", "read", "read39", "mcp13"))
    parser.add_argument("--recipe", default="A", choices=("A", "B", "A39", "B39"))
    parser.add_argument("--folds", default="0,1")
    parser.add_argument("--seed", type=int, default=g40.g33.SEED)
    parser.add_argument("--recipes", default="B,A")
    parser.add_argument("--base", default="B", help="the recipe the moved texts are read against")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.mode == "extend":
        extend(BASE_SNAPSHOT, A_SNAPSHOT)
    elif args.mode == "extend39":
        extend_rounds(SCREEN_R38_R39, B39_SNAPSHOT)
        extend(B39_SNAPSHOT, A39_SNAPSHOT)
    elif args.mode == "folds":
        use(args.recipe)
        g40.run_folds(args.recipe, [int(x) for x in args.folds.split(",")], 1, args.seed)
    elif args.mode == "read":
        use("A")
        pad_b(A_SNAPSHOT, "B")
        g40.read(SCREENS, args.recipes.split(","), [int(x) for x in args.folds.split(",")], args.out, args.base)
    elif args.mode == "read39":
        use("A39")
        pad_b(A39_SNAPSHOT, "B39")
        g40.read([*SCREENS, SCREEN_R38_R39], args.recipes.split(","), [int(x) for x in args.folds.split(",")], args.out,
                 args.base)
    else:
        use("A")
        mcp13(args.out)


if __name__ == "__main__":
    main()
