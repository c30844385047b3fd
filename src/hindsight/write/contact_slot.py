"""A redacted contact value of one slot written again with another value is a change (issue 10, round 47).

Blind r41 kept two changed phone numbers apart: "Dr. Rao's after-hours mobile is 07700 900412." / "Dr. Rao's
after-hours mobile: 07700 900877." (r41:24) and 李敏副主任手机 139 4721 8806。 / 李敏换号了，新手机 186 4721 0032。
(r41:25). Both are stored redacted (`[REDACTED:phone]`), and the keyed digests (`value_digests`) say the values of
the one shared kind all differ ("changed"). Two readings stop them:

* the judge merged r41:24 (the texts match but for "is" / ":"), and `value_digests.adjust` turns a merge with a
  changed value into a change only when the new text signals one or the texts are the same word for word - else
  "another redacted value" (kept). `rewritten` reads the texts the same when they are equal after the placeholders
  and a few linking words (is, are, was, the, a, 是, 为) are dropped (arm A);
* the judge kept r41:25 apart for the merge blocker "one slot filled differently" (the title on one side, 换号新 on
  the other), a keep `adjust` does not read. `rewritten` turns that keep into a change when the digests say
  "changed" and the new text signals a change (`supersede.change_signalled`: 换号, "now", "new number") - the
  blocker of another person, subject, name or clause is left alone (arm B).

The values are never seen (only whether their digests are equal), so no new oracle. Nothing is fitted. `ON` False:
the verdict is returned as it is (the behaviour before round 47).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from hindsight.write.conflict import Verdict
from hindsight.write.supersede import change_signalled
from hindsight.write.value_digests import relation

__all__ = ["ON", "rewritten", "same_but_links"]

#: whether the two readings above run. On: its rule (bench/results/hyg47/ship_rule.md, declared first) held - held
#: out (blind r1 - r40, the 334 reached rows through the engine) changes deprecated 53 -> 57 of 82, nothing else moved;
#: the reached retrieval stores (r28, r33, r35 - r37) identical
ON = True
#: the reason `value_digests.adjust` gives a merge it kept for a changed value with no change signal
_KEPT_BY_DIGEST = "another redacted value (keyed digest"
#: the one merge blocker read: a slot filled differently (not another person, subject, name or clause)
_ONE_SLOT = "not a restatement: one slot filled differently"
_PLACEHOLDER = re.compile(r"\[REDACTED:[a-z_]+\]")
_TOKEN = re.compile(r"[a-z0-9]+|[\u3400-\u9fff]")
_LINKS = frozenset({"is", "are", "was", "were", "the", "a", "an", "是", "为"})


def _content(text: str) -> list[str]:
    folded = _PLACEHOLDER.sub(" ", unicodedata.normalize("NFKC", text)).casefold()
    return [t for t in _TOKEN.findall(folded) if t not in _LINKS]


def same_but_links(old: str, new: str) -> bool:
    """Whether two stored texts say the same words once the placeholders and the linking words are dropped."""
    a = _content(old)
    return bool(a) and a == _content(new)


def rewritten(verdict: Verdict, old: Any, new: Any) -> Verdict:
    """The verdict after `value_digests.adjust`, read once more for a changed contact value (see the module doc)."""
    if not ON or verdict.label not in ("unrelated", "supplement"):
        return verdict
    if relation(getattr(old, "value_digests", None), getattr(new, "value_digests", None)) != "changed":
        return verdict
    if verdict.label == "unrelated" and verdict.reason.startswith(_KEPT_BY_DIGEST):
        if same_but_links(old.content, new.content):
            return Verdict("override", f"the redacted value changed, the rest said alike (keyed digest; "
                                       f"judge: {verdict.reason})", verdict.confidence)
        return verdict
    if verdict.label == "supplement" and _ONE_SLOT in verdict.reason and change_signalled(new.content):
        return Verdict("override", f"the redacted value changed and the new text says so (keyed digest; "
                                   f"judge: {verdict.reason})", verdict.confidence)
    return verdict
