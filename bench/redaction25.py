"""Redaction round 25: every released PII set end to end (redaction, then the guard on the redacted text), main vs
branch, at a cost the shared 2-core machine allows.

    PYTHONPATH=<src> .venv/bin/python bench/redaction25.py redact OUT/<name>.json      # each checkout: its redactions
    PYTHONPATH=<src> .venv/bin/python bench/redaction25.py thresholds OUT <name>.json main.json branch.json  # each checkout
    PYTHONPATH=src .venv/bin/python bench/redaction25.py embed OUT main.json branch.json  # the texts to screen, embedded once
    PYTHONPATH=<src> .venv/bin/python bench/redaction25.py screen OUT <name>.json main.json branch.json  # each checkout
    .venv/bin/python bench/redaction25.py compare OUT main.json branch.json [OWN ...]    # per set, pooled, rows that moved

``redact``: every PII row (rules + shipped tagger, as the write path runs); every non-PII text (guard, hygiene,
retrieval, training: bench/redaction_diff.py's list) that holds one of the forms this round's rules read (``TRIGGER``:
a text without one redacts the same on main and branch, so it is skipped); each guard row's lower-cased text as the
carried-value readings (``routed.neutral_spans``) blank it. ``thresholds``: this checkout's guard threshold
(``WriteGuard.threshold_for``) of every PII row's redacted text, and of each guard row whose redaction or blanked form
differs between the checkouts. ``embed`` / ``screen``: only the rows whose verdict *can* differ - a PII row whose
redaction or threshold differs, such a guard row - get the write path's document vector (ONNX, cached by text) and
``WriteGuard.screen(content + "\n", embedding)`` in each checkout (embedding all 7,400 PII rows takes over an hour on
the loaded 2-core machine; a row with the same text and threshold gets the same verdict). ``compare``: per set,
redaction alone (PII removed with the fact kept, look-alikes untouched) and the notes the guard releases or newly holds;
pooled own split / held out; each row that moved; each non-PII text whose redaction differs.
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
    r"cny|jpy|hkd|aud|cad|chf|inr|sgd|routing|aba|rtn|行号|cnaps|default|默认|出厂|\d{3,4}[ .-]\d{4}|问询|问讯|07\d{3}|[>）」】]"
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


def thresholds_step(out: Path, name: str, names: list[str]) -> None:
    """This checkout's guard threshold for each PII row's redacted text, and for each guard row whose redaction or
    carried-value reading (``neutral``) differs between the checkouts (redacted here again: a few rows)."""
    from hindsight.safety.guard import WriteGuard
    from hindsight.safety.normalize import prepare
    from hindsight.safety.redact import redact
    from hindsight.safety.view import feature_view

    guard = WriteGuard()

    def thr(text: str) -> float:
        n = prepare(text + "\n").text
        return guard.threshold_for(feature_view(n), n)

    dumps = {n: json.loads((out / n).read_text(encoding="utf-8")) for n in names}
    mine = dumps[name]
    rows = _guard_rows()
    moved = [i for i, (_, r) in enumerate(rows) if len({d["neutral"][i] for d in dumps.values()}) > 1
             or len({d["nonpii"].get(r["text"]) for d in dumps.values()}) > 1]
    res = {"pii": {s: [thr(t) for t in ts] for s, ts in mine["pii"].items()},
           "guard": {str(i): [(red := redact(rows[i][1]["text"]).text), thr(red)] for i in moved}}
    (out / f"thr_{name}").write_text(json.dumps(res, ensure_ascii=False), encoding="utf-8")
    print(len(moved), "guard rows to screen")


def _to_screen(out: Path, names: list[str]) -> dict[str, list[str]]:
    """Per checkout: the redacted texts whose verdict may differ between the checkouts - a PII row whose redaction or
    threshold differs, a guard row whose redaction or carried-value reading differs."""
    dumps = {n: json.loads((out / n).read_text(encoding="utf-8")) for n in names}
    thrs = {n: json.loads((out / f"thr_{n}").read_text(encoding="utf-8")) for n in names}
    texts: dict[str, list[str]] = {n: [] for n in names}
    for s in dumps[names[0]]["pii"]:
        for i in range(len(dumps[names[0]]["pii"][s])):
            if len({dumps[n]["pii"][s][i] for n in names}) > 1 or len({thrs[n]["pii"][s][i] for n in names}) > 1:
                for n in names:
                    texts[n].append(dumps[n]["pii"][s][i])
    for n in names:
        texts[n] += [red for red, _ in thrs[n]["guard"].values()]
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
    """Per set: redaction alone (PII removed with the fact kept / look-alikes untouched), and the guard's verdict on
    every row it may decide differently (screened in both checkouts); pooled own split and held out; rows that moved."""
    sets = _pii_sets()
    dumps = {n: json.loads((out / n).read_text(encoding="utf-8")) for n in names}
    held = {n: json.loads((out / f"screen_{n}").read_text(encoding="utf-8")) for n in names}
    a, b = names
    pools = {k: {n: [0] * 6 for n in names} for k in ("own", "held out")}
    moved = []
    for s, rows in sets.items():
        cells = {}
        for n in names:
            c = [0] * 6  # PII right, PII rows, look-alikes right, look-alike rows, held notes, released notes
            for i, (r, t) in enumerate(zip(rows, dumps[n]["pii"][s], strict=True)):
                pii = r["kind"] == "pii"
                good = (not any(x in t for x in r["secrets"]) and all(k in t for k in r["keep"])) if pii else t == r["text"]
                k = 0 if pii else 2
                c[k] += good
                c[k + 1] += 1
                other = dumps[b if n == a else a]["pii"][s][i]
                if t + "\n" in held[n] and other + "\n" in held[b if n == a else a]:
                    mine, theirs = held[n][t + "\n"][0], held[b if n == a else a][other + "\n"][0]
                    if mine != theirs and n == b:
                        c[4 + (not mine)] += 1
                        moved.append(f"  {s} {r['kind']}/{r['category']}: {'held' if theirs else 'stored'} -> "
                                     f"{'held' if mine else 'stored'}: {t[:160]!r}")
            cells[n] = c
            for j in range(6):
                pools["own" if s in own else "held out"][n][j] += c[j]
        ca, cb = cells[a], cells[b]
        print(f"{s:>7}: redaction alone PII {ca[0]}/{ca[1]} -> {cb[0]}/{cb[1]}, look-alikes {ca[2]}/{ca[3]} -> {cb[2]}/{cb[3]}; "
              f"guard: {cb[5]} notes released, {cb[4]} newly held")
        for i, r in enumerate(rows):
            ta, tb = dumps[a]["pii"][s][i], dumps[b]["pii"][s][i]
            if ta != tb:
                moved.append(f"  {s} {r['kind']}/{r['category']} redaction:\n    {a}: {ta[:160]!r}\n    {b}: {tb[:160]!r}")
    for k, pool in pools.items():
        pa, pb = pool[a], pool[b]
        if pa[1]:
            print(f"{k} pooled: PII {pa[0]}/{pa[1]} ({pa[0] / pa[1]:.3f}) -> {pb[0]}/{pb[1]} ({pb[0] / pb[1]:.3f}), look-alikes "
                  f"{pa[2]}/{pa[3]} ({pa[2] / pa[3]:.3f}) -> {pb[2]}/{pb[3]} ({pb[2] / pb[3]:.3f}); guard {pb[5]} released, {pb[4]} newly held")
    print("\n".join(moved))
    thrs = {n: json.loads((out / f"thr_{n}").read_text(encoding="utf-8")) for n in names}
    guard = _guard_rows()
    for i, (red_b, _) in thrs[b]["guard"].items():
        red_a = thrs[a]["guard"][i][0]
        va, vb = held[a].get(red_a + "\n"), held[b].get(red_b + "\n")
        s, r = guard[int(i)]
        print(f"  guard {s} {r['label']}/{r.get('category')}: {'held' if va and va[0] else 'stored'} -> "
              f"{'held' if vb and vb[0] else 'stored'} ({vb[2] if vb else 0:.2f}): {red_b[:140]!r}")
    diff = [t for t in dumps[a]["nonpii"] if dumps[a]["nonpii"][t] != dumps[b]["nonpii"].get(t)]
    print(f"non-PII texts whose redaction differs: {len(diff)} of {len(dumps[a]['nonpii'])} triggered")
    for t in diff:
        print(f"  {a}: {dumps[a]['nonpii'][t][:160]!r}\n  {b}: {dumps[b]['nonpii'][t][:160]!r}")


if __name__ == "__main__":
    step, path = sys.argv[1], Path(sys.argv[2])
    if step == "redact":
        path.parent.mkdir(parents=True, exist_ok=True)
        redact_step(path)
    elif step == "thresholds":
        thresholds_step(path, sys.argv[3], sys.argv[4:])
    elif step == "embed":
        embed_step(path, sys.argv[3:])
    elif step == "screen":
        screen_step(path, sys.argv[3], sys.argv[4:])
    else:
        compare_step(path, sys.argv[3:5], sys.argv[5:])
