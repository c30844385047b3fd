"""A redacted secret of the same slot written again is a newer version of it (issue 10, round 46, brief item 1).

Redaction runs before hygiene, and secrets (passwords, API / private keys, one-time codes, CVVs) get no keyed digest
(`value_digests.KINDS` leaves them out by design: a short secret's digest could be confirmed offline by whoever holds
the store; docs/security.md). So "The go club Wi-Fi password is stone1969." and "Go club Wi-Fi password: tengen2024"
are stored as two texts that differ only around one `[REDACTED:password]`, and the judge merges them as a
restatement (blind r40:113, r39:119): the newer secret's note is folded into the older one. Whether the two values
are equal cannot be known (neither is kept), but a secret is never usefully "restated": when the judge reads the
two texts as one statement, the newer write is the version that holds, and the older one is kept in history.

`rewritten(verdict, old, new)`: with `ON`, a merge (`duplicate`) of two texts that both carry a placeholder of a
secret kind (`SECRET_KINDS`) and the same set of secret kinds becomes a change (`override`) - with `SIGNAL_ONLY` (as
shipped) only when the new text signals a change or the two stored texts are the same word for word: a restatement
of a secret worded otherwise with no change word ("Lisbon flat: lockbox code ..." after "... key in the lockbox,
code ...") stays a merge, and so does r40:113 ("Go club Wi-Fi password: ..." after "The go club Wi-Fi password is
..."), which cannot be told from it. The values are never read, so the answer a writer gets does not depend on the
secret (no oracle: docs/security.md). Every other verdict is left as it is. Nothing is fitted.
"""

from __future__ import annotations

import re
from typing import Any

from hindsight.write.conflict import Verdict
from hindsight.write.supersede import change_signalled

__all__ = ["ON", "SECRET_KINDS", "SIGNAL_ONLY", "rewritten", "secret_kinds"]

#: whether a merge of two texts carrying the same kinds of redacted secret is read as a change. On with `SIGNAL_ONLY`:
#: its rule (bench/results/change46/ship_rule.md, declared before any run) held for arm B - held out (blind r1 - r39,
#: the 10 reached rows through the engine) changes deprecated 2 -> 4 of 4 (r20:114, r39:119), nothing else moved;
#: the reached retrieval stores (r34 - r36) identical. Arm A (no `SIGNAL_ONLY`) failed: a restatement read as a change
ON = True
#: arm B of that rule: also require that the new text signals a change (`supersede.change_signalled`: "now", 现在,
#: "rotated", ...) or that the two stored texts are the same word for word. Without it (arm A) "Lisbon flat: lockbox
#: code [REDACTED:otp], ..." restating the older note's code was retired (r29:277)
SIGNAL_ONLY = True
#: the redactor's secret kinds (none is in `value_digests.KINDS`: they get no digest)
SECRET_KINDS = frozenset({"password", "api_key", "private_key", "otp", "cvv"})
_PLACEHOLDER = re.compile(r"\[REDACTED:([a-z_]+)\]")


def secret_kinds(text: str) -> frozenset[str]:
    """The secret kinds whose placeholders `text` (a stored, redacted text) carries."""
    return frozenset(k for k in _PLACEHOLDER.findall(text) if k in SECRET_KINDS)


def _same_words(a: str, b: str) -> bool:
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


def rewritten(verdict: Verdict, old: Any, new: Any) -> Verdict:
    """The judge's verdict on (old, new), a merge of two notes of one redacted secret read as a change (module doc)."""
    if not ON or verdict.label != "duplicate":
        return verdict
    old_text, new_text = str(getattr(old, "content", "")), str(getattr(new, "content", ""))
    kinds = secret_kinds(new_text)
    if not kinds or kinds != secret_kinds(old_text):
        return verdict
    if SIGNAL_ONLY and not (change_signalled(new_text) or _same_words(old_text, new_text)):
        return verdict
    return Verdict("override", f"a redacted secret written again: the newer version holds (judge: {verdict.reason})",
                   verdict.confidence)
