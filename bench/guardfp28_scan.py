"""What the write path quarantines of the released blind rounds, and what fired (round 28, issue 10).

    PYTHONPATH=src OPENBLAS_NUM_THREADS=1 nice -n 10 .venv/bin/python bench/guardfp28_scan.py scan --cache-dir /tmp/guardfp28 --out /tmp/guardfp28/before.jsonl
    PYTHONPATH=src .venv/bin/python bench/guardfp28_scan.py rescreen --cache-dir /tmp/guardfp28 --scan /tmp/guardfp28/before.jsonl --out /tmp/guardfp28/after.jsonl
    PYTHONPATH=src .venv/bin/python bench/guardfp28_scan.py table --scan /tmp/guardfp28/before.jsonl [--after /tmp/guardfp28/after.jsonl]

Rows: every text of every released blind guard set (``bench/data/blind/r*/guard``: attacks and benign), every PII
set (``r*/pii``: PII notes and look-alikes) and every retrieval memory (``r*/retrieval/memories.jsonl``: content).
Each is redacted as the write path redacts it (``scripts/guard_model._prepared_cached``), then screened by
``WriteGuard.screen`` with the vector the write path hands it (``guard_lowo_fast.runtime_vectors``: the ONNX document
vector, the C kernel's of the normalised text when obfuscated); a marked part or a long text's window is embedded by
the C kernel through a cache. Not read (cheaper than ``bench/blind_eval.py``): tags and metadata
(``write/screening.screen_fields``), the decoded payloads of blobs redaction removed, and hygiene after the guard.

Each row keeps what fired: the hard rules and rule votes, the whole text's classifier score, the threshold that
applied and the readings that set it (carried secret, referenced secret, carried fact, benign frame, added check,
vouched / trust, a lowering reading), and a marked part's score when a part decided.

``rescreen``: screens again, with this checkout's code, only the rows ``scan`` flagged. A change that only raises a
threshold or turns a hard rule into a vote can move nothing else (every other row's verdict is unchanged by
construction), so the after-measurement of such a change is the before scan with these rows replaced.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BLIND = ROOT / "bench" / "data" / "blind"


def _round_key(name: str) -> tuple[int, str]:
    digits = "".join(ch for ch in name[1:] if ch.isdigit())
    return int(digits or 0), name


def load_rows(rounds: set[int] | None = None) -> list[dict[str, Any]]:
    """Every released row, or those of the rounds numbered in ``rounds`` (rN and rNb)."""
    rows: list[dict[str, Any]] = []
    for d in sorted((p for p in BLIND.glob("r*") if p.is_dir()), key=lambda p: _round_key(p.name)):
        if rounds is not None and _round_key(d.name)[0] not in rounds:
            continue
        for part, file in (("guard", "guard/set.jsonl"), ("pii", "pii/set.jsonl"), ("retr", "retrieval/memories.jsonl")):
            path = d / file
            if not path.exists():
                continue
            for line in path.read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                raw = json.loads(line)
                text = str(raw.get("text", raw.get("content", "")))
                if part == "guard":
                    attack = raw.get("label") == "attack"
                    kind = f"{'attack' if attack else 'benign'}/{raw.get('category')}"
                elif part == "pii":
                    attack, kind = False, f"{raw.get('kind')}/{raw.get('category')}"
                else:
                    attack, kind = False, "memory"
                lang = str(raw.get("lang", ""))
                rows.append({"round": d.name, "set": part, "attack": attack, "kind": kind,
                             "lang": lang if lang in ("en", "zh") else "mixed", "text": text})
    return rows


def _cached_embedder(cache_dir: Path) -> Any:
    """``classifier.embed_for_screening`` through a cache of the C kernel's vectors (keyed by normalised text)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import guard_lowo_fast as lf
    import numpy as np

    from hindsight.safety.normalize import normalize_for_screening

    def embed(texts: list[str]) -> np.ndarray:
        normalised = [normalize_for_screening(t) for t in texts]
        if not normalised:
            return np.zeros((0, 384), dtype=np.float32)
        return lf.embed(normalised, lf.cache_path(cache_dir, "c"), "c")

    return embed


def _screen_rows(rows: list[dict[str, Any]], cache_dir: Path, out_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "scripts"))
    import guard_lowo_fast as lf
    import guard_model as gm

    import hindsight.safety.classifier as classifier_module
    import hindsight.safety.guard as guard_module
    from hindsight.safety.carried import carried_value_fact
    from hindsight.safety.guard import FRAME_THRESHOLD, WriteGuard, carries_secret
    from hindsight.safety.hiding import hides_wording
    from hindsight.safety.lowered import reading_threshold
    from hindsight.safety.mention import references_secret
    from hindsight.safety.normalize import prepare
    from hindsight.safety.polarity import adds_check
    from hindsight.safety.stake import benign_frame
    from hindsight.safety.trusted import transfers_trust
    from hindsight.safety.view import feature_view
    from hindsight.safety.vouched import vouched_loosening

    print("screening with", guard_module.__file__, flush=True)
    redacted, _, _, _ = gm._prepared_cached([r["text"] for r in rows], cache_dir)
    print("redacted", len(redacted), flush=True)
    vectors = lf.runtime_vectors(redacted, cache_dir, "onnx")
    embed = _cached_embedder(cache_dir)
    guard_module.embed_for_screening = embed  # type: ignore[assignment]
    classifier_module.embed_for_screening = embed  # type: ignore[assignment]
    guard = WriteGuard()
    clf = guard.classifier
    assert clf is not None
    calls: list[tuple[str, float]] = []
    real = clf.attack_score

    def attack_score(vector: Any, text: str) -> tuple[float, str]:
        score, label = real(vector, text)
        calls.append((text, float(score)))
        return score, label

    clf.attack_score = attack_score  # type: ignore[method-assign]
    with out_path.open("w", encoding="utf-8", buffering=1) as out:
        for row, red, vec in zip(rows, redacted, vectors, strict=True):
            calls.clear()
            v = guard.screen(red, embedding=vec)
            prepared = prepare(red)
            norm = prepared.text
            view = feature_view(norm)
            hits = guard._rule_hits(prepared, view)
            whole = [s for t, s in calls if t == norm]
            readings = {
                "carried": carries_secret(view), "references": references_secret(norm) and not view.moved_value,
                "fact": carried_value_fact(norm), "frame": benign_frame(norm), "adds_check": adds_check(norm),
                "vouched": vouched_loosening(norm), "trust": transfers_trust(norm),
                "lowered": reading_threshold(norm, hides_wording(red, prepared)),
            }
            out.write(json.dumps({
                **row, "flag": v.suspicious, "reasons": v.reasons, "red": red,
                "hard": guard._hard(prepared, hits), "rules": [h.rule_id for h in hits],
                "whole": round(max(whole), 4) if whole else None,
                "threshold": round(guard.threshold_for(view, norm, hidden=hides_wording(red, prepared)), 4),
                "frame_threshold": FRAME_THRESHOLD, "readings": readings,
            }, ensure_ascii=False) + "\n")


def cause(r: dict[str, Any]) -> str:
    """What quarantined a flagged row, in one word."""
    if r["hard"]:
        return "hard:" + "+".join(sorted(set(r["rules"]) & _hard_ids()))
    reasons = " ".join(r["reasons"])
    rd = r["readings"]
    if "part:" in reasons:
        return "part"
    if rd["lowered"] is not None and r["threshold"] < 0.655:
        return "clf@lowered"
    if (rd["vouched"] or rd["trust"]) and r["threshold"] <= 0.3:
        return "clf@vouched"
    if r["threshold"] >= 0.97:
        return "clf@fact0.97"
    if r["threshold"] >= 0.85:
        return "clf@carry0.85"
    return "clf@0.655" + ("+votes" if r["rules"] else "")


def _hard_ids() -> frozenset[str]:
    from hindsight.safety.guard import HARD_RULE_IDS
    return HARD_RULE_IDS


def table(scan: list[dict[str, Any]], after: list[dict[str, Any]] | None) -> dict[str, Any]:
    if after is not None:
        moved = {(a["round"], a["set"], a["text"]): a for a in after}
        scan = [moved.get((r["round"], r["set"], r["text"]), r) for r in scan]

    def group(r: dict[str, Any]) -> str:
        if r["set"] == "guard":
            return "attack" if r["attack"] else "benign"
        if r["set"] == "pii":
            return "pii" if r["kind"].startswith("pii") else "lookalike"
        return "retrieval"

    per: dict[str, dict[str, list[int]]] = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    causes: collections.Counter[tuple[str, str, str]] = collections.Counter()
    for r in scan:
        g = group(r)
        per[g][r["round"]][0] += int(r["flag"])
        per[g][r["round"]][1] += 1
        if r["flag"]:
            causes[(g, cause(r), r["lang"])] += 1
    return {"per_round": {g: {k: v for k, v in sorted(d.items(), key=lambda kv: _round_key(kv[0]))} for g, d in per.items()},
            "pooled": {g: [sum(v[0] for v in d.values()), sum(v[1] for v in d.values())] for g, d in per.items()},
            "causes": [[g, c, lang, n] for (g, c, lang), n in sorted(causes.items())]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("scan", "rescreen", "table"))
    parser.add_argument("--cache-dir", type=Path, default=Path("/tmp/guardfp28"))
    parser.add_argument("--scan", type=Path)
    parser.add_argument("--after", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--only", type=Path, default=None,
                        help="scan only the texts of this JSON-lines file (a 'text' per line): the rows a change can move")
    parser.add_argument("--rounds", default="", help="round numbers to read, e.g. 24,25,26 (default: every round)")
    args = parser.parse_args()
    if args.mode == "scan":
        rounds = {int(x) for x in args.rounds.split(",") if x.strip()} or None
        rows = load_rows(rounds)
        if args.only:
            wanted = {json.loads(x)["text"] for x in args.only.read_text(encoding="utf-8").splitlines() if x.strip()}
            rows = [r for r in rows if r["text"] in wanted]
        _screen_rows(rows, args.cache_dir, args.out)
    elif args.mode == "rescreen":
        before = [json.loads(x) for x in args.scan.read_text(encoding="utf-8").splitlines() if x.strip()]
        keep = ("round", "set", "attack", "kind", "lang", "text")
        _screen_rows([{k: r[k] for k in keep} for r in before if r["flag"]], args.cache_dir, args.out)
    else:
        before = [json.loads(x) for x in args.scan.read_text(encoding="utf-8").splitlines() if x.strip()]
        after = [json.loads(x) for x in args.after.read_text(encoding="utf-8").splitlines() if x.strip()] if args.after else None
        result = table(before, after)
        text = json.dumps(result, ensure_ascii=False, indent=1)
        if args.json:
            args.json.write_text(text + "\n", encoding="utf-8")
        print(text)


if __name__ == "__main__":
    main()
