"""Redaction before/after on every released PII set and every non-PII text, rules alone and with the shipped tagger.

    PYTHONPATH=src .venv/bin/python bench/redaction_diff.py dump OUT.json          # this checkout's src
    .venv/bin/python bench/redaction_diff.py compare BEFORE.json AFTER.json [OWN ...]   # per set, pooled, every output that differs

A rule change that does not retrain the tagger is measured here: each PII set's score (PII removed with the fact kept
/ look-alikes untouched, as bench/redaction_loro.py scores them) before and after, and the non-PII texts of the
released guard, hygiene and retrieval sets and the training sets (every redaction there is a false alarm) whose
output changed.
"""

from __future__ import annotations

import glob
import json
import sys
from typing import Any


def _pii_sets() -> dict[str, list[dict[str, Any]]]:
    files = sorted(glob.glob("bench/data/blind/*/pii/set.jsonl") + glob.glob("bench/data/train/*/pii/set.jsonl"))
    return {f.split("/")[3]: [json.loads(line) for line in open(f, encoding="utf-8") if line.strip()] for f in files}


def _nonpii_texts() -> list[str]:
    texts: list[str] = []
    files = glob.glob("bench/data/blind/*/*/*.jsonl") + glob.glob("bench/data/train/*/*/*.jsonl") + glob.glob("bench/data/train/*/*.jsonl")
    for f in sorted(files):
        if "/pii/" in f:
            continue
        for line in open(f, encoding="utf-8"):
            if not line.strip():
                continue
            row = json.loads(line)
            texts += [v for k in ("text", "content", "query", "new", "old") if isinstance(v := row.get(k), str)]
            for v in row.get("others") or row.get("memories") or []:
                if isinstance(v, str):
                    texts.append(v)
                elif isinstance(v, dict) and isinstance(t := v.get("text") or v.get("content"), str):
                    texts.append(t)
    return sorted(set(texts))


def dump(path: str) -> None:
    from hindsight.safety.redact import redact

    sets, texts = _pii_sets(), _nonpii_texts()
    out: dict[str, dict[str, Any]] = {"pii": {}, "nonpii": {}}
    for mode in ("rules", "tagger"):
        on = mode == "tagger"
        out["pii"][mode] = {n: [redact(r["text"], tagger=on).text for r in rows] for n, rows in sets.items()}
        out["nonpii"][mode] = {t: redact(t, tagger=on).text for t in texts}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(out, fh, ensure_ascii=False)
    print(len(texts), "non-PII texts;", {n: len(r) for n, r in sets.items()})


def _oks(rows: list[dict[str, Any]], outs: list[str]) -> tuple[list[bool], list[bool]]:
    pii = [not any(s in o for s in r["secrets"]) and all(k in o for k in r["keep"]) for r, o in zip(rows, outs, strict=True) if r["kind"] == "pii"]
    look = [o == r["text"] for r, o in zip(rows, outs, strict=True) if r["kind"] != "pii"]
    return pii, look


def _rates(pii: list[bool], look: list[bool]) -> str:
    return f"{sum(pii) / len(pii):.3f} / " + (f"{sum(look) / len(look):.3f}" if look else "-")


def _score(rows: list[dict[str, Any]], outs: list[str]) -> str:
    return _rates(*_oks(rows, outs))


def _pooled(dump: dict[str, Any], mode: str, names: list[str]) -> str:
    sets = _pii_sets()
    pii: list[bool] = []
    look: list[bool] = []
    for name in names:
        p, lk = _oks(sets[name], dump["pii"][mode][name])
        pii += p
        look += lk
    return f"{_rates(pii, look)} ({sum(pii)}/{len(pii)}, {sum(look)}/{len(look)})"


def compare(before_path: str, after_path: str, own: list[str]) -> None:
    """``own``: the sets the change was written from; every other set is pooled as held out."""
    with open(before_path, encoding="utf-8") as fa, open(after_path, encoding="utf-8") as fb:
        a, b = json.load(fa), json.load(fb)
    for name, rows in _pii_sets().items():
        print(f"| {name} | {_score(rows, a['pii']['tagger'][name])} (rules {_score(rows, a['pii']['rules'][name])}) "
              f"| {_score(rows, b['pii']['tagger'][name])} (rules {_score(rows, b['pii']['rules'][name])}) |")
        for mode in ("rules", "tagger"):
            for row, x, y in zip(rows, a["pii"][mode][name], b["pii"][mode][name], strict=True):
                if x != y:
                    print(f"    [{mode}] {row['kind']} {row['category']}\n      before: {x}\n      after:  {y}")
    held = [n for n in _pii_sets() if n not in own]
    for mode in ("tagger", "rules"):
        print(f"pooled held out ({len(held)} sets, {mode}): {_pooled(a, mode, held)} -> {_pooled(b, mode, held)}")
        if own:
            print(f"pooled own split {' '.join(own)} ({mode}): {_pooled(a, mode, own)} -> {_pooled(b, mode, own)}")
    for mode in ("rules", "tagger"):
        diff = [(x, b["nonpii"][mode].get(t)) for t, x in a["nonpii"][mode].items() if x != b["nonpii"][mode].get(t)]
        print(f"non-PII, {mode}: {len(a['nonpii'][mode])} texts, {len(diff)} outputs differ")
        for x, y in diff:
            print(f"    before: {x[:300]}\n    after:  {y}")


if __name__ == "__main__":
    if sys.argv[1:2] == ["dump"] and len(sys.argv) == 3:
        dump(sys.argv[2])
    elif sys.argv[1:2] == ["compare"] and len(sys.argv) >= 4:
        compare(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        sys.exit(__doc__)
