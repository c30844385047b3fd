"""Redaction before/after attack round 26 (mailbox look-alikes, card groups joined by dots or dashes) on every
released text it can read differently.

    PYTHONPATH=src .venv/bin/python bench/redaction_r26_diff.py dump AFTER.json                   # this branch
    PYTHONPATH=<main's src> .venv/bin/python bench/redaction_r26_diff.py dump BEFORE.json AFTER.json   # same texts
    .venv/bin/python bench/redaction_r26_diff.py compare BEFORE.json AFTER.json

Only two kinds of text can change: one with an `@` and a letter with an accent, a Greek or a Cyrillic letter
(`redact_fold._mail_spans`), and one with four digits joined by a dot or an en / em dash to more digits
(`redact_contacts._CARD_JOINED`). Every released PII set's rows and every non-PII text of the released sets
(bench/redaction_diff.py's texts) of either kind are redacted, rules alone and with the shipped tagger.
"""

from __future__ import annotations

import json
import re
import sys

from redaction_diff import _nonpii_texts, _pii_sets
from redaction_fold_diff import compare

_MAIL = re.compile("[@＠]")
_LOOKALIKE = re.compile("[\u00c0-\u024f\u0300-\u036f\u0370-\u04ff\u0500-\u052f]")
_JOINED = re.compile("\\d{4}[.\u2013\u2014]\\d{3}")


def _readable(text: str) -> bool:
    return bool(_MAIL.search(text) and _LOOKALIKE.search(text)) or bool(_JOINED.search(text))


def dump(path: str, texts_from: str | None) -> None:
    from hindsight.safety.redact import redact

    if texts_from:
        with open(texts_from, encoding="utf-8") as fh:
            texts = json.load(fh)["texts"]
    else:
        texts = {"pii": [r["text"] for rows in _pii_sets().values() for r in rows if _readable(r["text"])],
                 "nonpii": [t for t in _nonpii_texts() if _readable(t)]}
    out = {"texts": texts, "rules": {}, "tagger": {}}
    for mode in ("rules", "tagger"):
        out[mode] = {k: [redact(t, tagger=mode == "tagger").text for t in v] for k, v in texts.items()}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(out, fh, ensure_ascii=False)
    print({k: len(v) for k, v in texts.items()})


if __name__ == "__main__":
    if sys.argv[1:2] == ["dump"] and len(sys.argv) in (3, 4):
        dump(sys.argv[2], sys.argv[3] if len(sys.argv) == 4 else None)
    elif sys.argv[1:2] == ["compare"] and len(sys.argv) == 4:
        compare(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
