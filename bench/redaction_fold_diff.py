"""Redaction before/after attack round 25's fold (safety/redact_fold) on every released text it reads differently.

    PYTHONPATH=src .venv/bin/python bench/redaction_fold_diff.py dump AFTER.json                  # this branch
    PYTHONPATH=<main's src> .venv/bin/python bench/redaction_fold_diff.py dump BEFORE.json AFTER.json   # same texts
    .venv/bin/python bench/redaction_fold_diff.py compare BEFORE.json AFTER.json

A text holding no character the fold reads (`redact_fold._FOLDABLE`: look-alikes and characters that render as
nothing) takes the finders' plain path, the same call as before, so only the texts holding one can change: every
released PII set's rows and every non-PII text of the released guard, hygiene and retrieval sets and the training
sets (bench/redaction_diff.py's texts) that hold one are redacted, rules alone and with the shipped tagger.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable

from redaction_diff import _nonpii_texts, _pii_sets


def _foldable(text: str) -> bool:
    from hindsight.safety.redact_fold import _FOLDABLE

    return bool(_FOLDABLE.search(text))


def selected(readable: Callable[[str], bool]) -> dict[str, list[str]]:
    """Every released PII row and non-PII text `readable` says the change can read differently."""
    pii = [r["text"] for rows in _pii_sets().values() for r in rows if readable(r["text"])]
    return {"pii": pii, "nonpii": [t for t in _nonpii_texts() if readable(t)]}


def dump(path: str, texts_from: str | None, readable: Callable[[str], bool] = _foldable) -> None:
    from hindsight.safety.redact import redact

    if texts_from:
        with open(texts_from, encoding="utf-8") as fh:
            texts = json.load(fh)["texts"]
    else:
        texts = selected(readable)
    out = {"texts": texts, "rules": {}, "tagger": {}}
    for mode in ("rules", "tagger"):
        out[mode] = {k: [redact(t, tagger=mode == "tagger").text for t in v] for k, v in texts.items()}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(out, fh, ensure_ascii=False)
    print({k: len(v) for k, v in texts.items()})


def compare(before_path: str, after_path: str) -> None:
    with open(before_path, encoding="utf-8") as fa, open(after_path, encoding="utf-8") as fb:
        a, b = json.load(fa), json.load(fb)
    for kind in ("pii", "nonpii"):
        for mode in ("rules", "tagger"):
            rows = list(zip(a["texts"][kind], a[mode][kind], b[mode][kind], strict=True))
            diff = [(x, y) for _, x, y in rows if x != y]
            print(f"{kind}, {mode}: {len(rows)} texts, {len(diff)} outputs differ")
            for x, y in diff:
                print(f"    before: {x[:300]}\n    after:  {y[:300]}")


def main(readable: Callable[[str], bool], usage: str | None) -> None:
    if sys.argv[1:2] == ["dump"] and len(sys.argv) in (3, 4):
        dump(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None, readable)
    elif sys.argv[1:2] == ["compare"] and len(sys.argv) == 4:
        compare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(usage)


if __name__ == "__main__":
    main(_foldable, __doc__)
