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

import re

from redaction_fold_diff import main

_MAIL = re.compile("[@＠]")
_LOOKALIKE = re.compile("[\u00c0-\u024f\u0300-\u036f\u0370-\u04ff\u0500-\u052f]")
_JOINED = re.compile("\\d{4}[.\u2013\u2014]\\d{3}")


def _readable(text: str) -> bool:
    return bool(_MAIL.search(text) and _LOOKALIKE.search(text)) or bool(_JOINED.search(text))


if __name__ == "__main__":
    main(_readable, __doc__)
