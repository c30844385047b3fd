"""Redaction round 25: every released PII set end to end (redaction, then the guard on the redacted text), main vs
branch, at a cost the shared 2-core machine allows.

    PYTHONPATH=<src> .venv/bin/python bench/redaction25.py redact OUT/<name>.json      # each checkout: its redactions
    PYTHONPATH=src .venv/bin/python bench/redaction25.py embed OUT main.json branch.json  # the texts to screen, embedded once
    PYTHONPATH=<src> .venv/bin/python bench/redaction25.py screen OUT <name>.json        # each checkout: its guard verdicts
    .venv/bin/python bench/redaction25.py compare OUT main.json branch.json [OWN ...]    # per set, pooled, rows that moved

``redact``: every PII row (rules + shipped tagger, as the write path runs); every non-PII text (guard, hygiene,
retrieval, training: bench/redaction_diff.py's list) that holds one of the forms this round's rules read (``TRIGGER``:
a text without one redacts the same on main and branch, so it is skipped - the union of what every changed rule needs
to see); every guard row whose lower-cased text the carried-value readings (``routed.neutral_spans``) blank differently
is listed by its blanked form, so ``embed`` can screen those rows in both checkouts. ``embed``: the write path's
document vector (ONNX, ``scripts/guard_lowo_fast.embed``, cached by text) of every text either checkout screens.
``screen``: ``WriteGuard.screen(content + "\\n", embedding)`` as ``bench/carry_decision.py score`` runs it, with this
checkout's code. ``compare``: PII removed with the fact kept (stored, no secret left, every keep), look-alikes untouched
(stored, byte for byte), notes quarantined, per set and pooled, and each row that moved.
"""

from __future__ import annotations

import glob
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))

TRIGGER = re.compile(
    r"(?i)your|my[_-]|here|insert|replace|put|paste|enter|add|xx|\*\*|••|●●|##|…|\[|[A-Z]+_[A-Z]+|你的|您的|自己的|示例|样例|替换|"
    r"填写|待填|此处|这里填|test|dummy|fake|sample|demo|example|placeholder|changeme|foo|mock|<|\$|\{|%|\.\.\.|redacted|null|none|"
    r"undefined|true|false|todo|tbd|env|secrets\.|settings\.|crc|hash|etag|校验码|散列|04\d\d|61[\s-]?4|[£€¥￥₹₩]|usd|eur|gbp|rmb|"
    r"cny|jpy|hkd|aud|cad|chf|inr|sgd|routing|aba|rtn|行号|cnaps|default|默认|出厂|\d{3,4}[ .-]\d{4}|问询|问讯"
)


def _pii_sets() -> dict[str, list[dict]]:
    files = sorted(glob.glob("bench/data/blind/*/pii/set.jsonl") + glob.glob("bench/data/train/*/pii/set.jsonl"))
    return {f.split("/")[3]: [json.loads(line) for line in open(f, encoding="utf-8") if line.strip()] for f in files}


def _guard_rows() -> list[tuple[str, dict]]:
    files = sorted(glob.glob("bench/data/blind/*/guard/set.jsonl") + glob.glob("bench/data/train/*/guard/set.jsonl"))
    return [(f.split("/")[3], json.loads(line)) for f in files for line in open(f, encoding="utf-8") if line.strip()]


def redact_step(dest: Path) -> None:
    from redaction_diff import _nonpii_texts

    from hindsight.safety.redact import redact
    from hindsight.safety.routed import neutral_spans

    out: dict = {"pii": {n: [redact(r["text"]).text for r in rows] for n, rows in _pii_sets().items()}}
    dest.write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")
    print("pii done", flush=True)
    out["neutral"] = [neutral_spans(r["text"].lower()) for _, r in _guard_rows()]
    out["nonpii"] = {t: redact(t).text for t in _nonpii_texts() if TRIGGER.search(t)}
    dest.write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")
    print(len(out["nonpii"]), "non-PII texts triggered", flush=True)


def _to_screen(out: Path, names: list[str]) -> dict[str, list[str]]:
    """Per checkout: the redacted PII texts and the guard rows either checkout may decide differently."""
    dumps = {n: json.loads((out / n).read_text(encoding="utf-8")) for n in names}
    guard = _guard_rows()
    moved = set()
    for i, (_, r) in enumerate(guard):
        if len({d["neutral"][i] for d in dumps.values() if "neutral" in d}) > 1 or TRIGGER.search(r["text"]):
            moved.add(i)
    texts = {}
    for n, d in dumps.items():
        red = [d["nonpii"].get(guard[i][1]["text"], guard[i][1]["text"]) if "nonpii" in d else None for i in sorted(moved)]
        texts[n] = [t for rows in d["pii"].values() for t in rows] + [t for t in red if t is not None]
    return texts


def embed_step(out: Path, names: list[str]) -> None:
    from guard_lowo_fast import embed

    texts = sorted({t + "\n" for ts in _to_screen(out, names).values() for t in ts})
    embed(texts, out / "emb_onnx.npy", engine="onnx")
    print(len(texts), "texts embedded")


def screen_step(out: Path, name: str, names: list[str]) -> None:
    from guard_model import _load_cache

    from hindsight.safety.guard import HARD_RULE_IDS, WriteGuard

    cache = _load_cache(out / "emb_onnx.npy")
    guard = WriteGuard()
    verdicts = {}
    for t in _to_screen(out, names)[name]:
        if t + "\n" in verdicts or t + "\n" not in cache:
            continue
        v = guard.screen(t + "\n", embedding=cache[t + "\n"])
        verdicts[t + "\n"] = [bool(v.suspicious), bool(set(v.reasons) & HARD_RULE_IDS), float(v.score)]
    (out / f"screen_{name}").write_text(json.dumps(verdicts, ensure_ascii=False), encoding="utf-8")
    print(len(verdicts), "screened ->", out / f"screen_{name}")


def compare_step(out: Path, names: list[str], own: list[str]) -> None:
    sets = _pii_sets()
    dumps = {n: json.loads((out / n).read_text(encoding="utf-8")) for n in names}
    held = {n: json.loads((out / f"screen_{n}").read_text(encoding="utf-8")) for n in names}
    a, b = names
    pools = {"own": {n: [0, 0, 0, 0, 0, 0] for n in names}, "held out": {n: [0, 0, 0, 0, 0, 0] for n in names}}
    moved = []
    for s, rows in sets.items():
        cells = {}
        for n in names:
            c = [0, 0, 0, 0, 0, 0]  # pii ok, pii n, look ok, look n, pii held, look held
            for r, t in zip(rows, dumps[n]["pii"][s], strict=True):
                h = held[n].get(t + "\n", [False])[0]
                pii = r["kind"] == "pii"
                good = (not any(x in t for x in r["secrets"]) and all(k in t for k in r["keep"])) if pii else t == r["text"]
                k = 0 if pii else 2
                c[k] += good and not h
                c[k + 1] += 1
                c[4 + (not pii)] += h and good
            cells[n] = c
            pool = pools["own" if s in own else "held out"][n]
            for i in range(6):
                pool[i] += c[i]
        for i, r in enumerate(rows):
            ta, tb = dumps[a]["pii"][s][i], dumps[b]["pii"][s][i]
            ha, hb = held[a].get(ta + "\n", [False])[0], held[b].get(tb + "\n", [False])[0]
            if ta != tb or ha != hb:
                moved.append(f"  {s} {r['kind']}/{r['category']}: {'held' if ha else 'stored'} -> {'held' if hb else 'stored'}"
                             f"\n    {a}: {ta[:200]!r}\n    {b}: {tb[:200]!r}")
        ca, cb = cells[a], cells[b]
        print(f"{s:>7}: PII {ca[0]}/{ca[1]} -> {cb[0]}/{cb[1]}  look-alikes {ca[2]}/{ca[3]} -> {cb[2]}/{cb[3]}  "
              f"quarantined (redaction right) {ca[4]}+{ca[5]} -> {cb[4]}+{cb[5]}")
    for k, pool in pools.items():
        pa, pb = pool[a], pool[b]
        if pa[1]:
            print(f"{k} pooled: PII {pa[0]}/{pa[1]} ({pa[0] / pa[1]:.3f}) -> {pb[0]}/{pb[1]} ({pb[0] / pb[1]:.3f})  look-alikes "
                  f"{pa[2]}/{pa[3]} ({pa[2] / pa[3]:.3f}) -> {pb[2]}/{pb[3]} ({pb[2] / pb[3]:.3f})  quarantined {pa[4]}+{pa[5]} -> {pb[4]}+{pb[5]}")
    print("\n".join(moved))
    guard = _guard_rows()
    changed = 0
    for s, r in guard:
        ta = dumps[a]["nonpii"].get(r["text"], r["text"])
        tb = dumps[b]["nonpii"].get(r["text"], r["text"])
        va, vb = held[a].get(ta + "\n"), held[b].get(tb + "\n")
        if va is not None and vb is not None and va[0] != vb[0]:
            changed += 1
            print(f"  guard {s} {r['label']}/{r.get('category')}: {'held' if va[0] else 'stored'} -> {'held' if vb[0] else 'stored'}: {tb[:160]!r}")
    print(f"guard rows whose verdict moved: {changed} (screened: rows the readings or the triggered rules may change)")
    diff = [t for t in dumps[a]["nonpii"] if dumps[a]["nonpii"][t] != dumps[b]["nonpii"].get(t)]
    print(f"non-PII texts whose redaction differs: {len(diff)} of {len(dumps[a]['nonpii'])} triggered")
    for t in diff:
        print(f"  {a}: {dumps[a]['nonpii'][t][:160]!r}\n  {b}: {dumps[b]['nonpii'][t][:160]!r}")


if __name__ == "__main__":
    step, path = sys.argv[1], Path(sys.argv[2])
    if step == "redact":
        path.parent.mkdir(parents=True, exist_ok=True)
        redact_step(path)
    elif step == "embed":
        embed_step(path, sys.argv[3:])
    elif step == "screen":
        screen_step(path, sys.argv[3], sys.argv[4:])
    else:
        compare_step(path, sys.argv[3:5], sys.argv[5:])
