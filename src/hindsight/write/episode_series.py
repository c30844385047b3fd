"""Two episodes of one numbered series are two facts, whatever the judge read (hygiene round 45, issue 10).

Blind round 39 lost "Sprint 14 review: ..." / "Sprint 15 review: ..." to `slot_change` (`slot_change.EPISODES_APART`)
and 这次骑行环海南岛，第一天骑到琼海 / 第二天从琼海骑到三亚 and 一号电解系列的检修 ... / 二号系列的检修 ... to the judge (a merge, a
change). `kept` turns the judge's merge or change verdict between two notes that name two episodes of one series
(`number_labels.episodes_apart`: the same word, numbers with none in common) into a keep, linked. Lexical only.
"""

from __future__ import annotations

from hindsight.write.conflict import Verdict
from hindsight.write.number_labels import episodes_apart

#: read by `hygiene.HygieneChecker.judge`; False: the judge's verdict stands (measured, docs/benchmarks.md "Hygiene,
#: round 45")
JUDGED = False


def kept(verdict: Verdict, old: str, new: str) -> Verdict:
    """The judge's `verdict` on (`old`, `new`), a merge or change turned into a keep when the two name two episodes."""
    if not JUDGED or verdict.label not in ("duplicate", "override"):
        return verdict
    why = episodes_apart(old, new)
    return Verdict("supplement", f"kept and linked: {why} ({verdict.reason})") if why else verdict
